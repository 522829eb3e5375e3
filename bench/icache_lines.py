#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The instruction-cache footprint of one run of a program: how many 64-byte
lines of the program's own code the run executed, how many of them hold
99.9% of its instructions, and how those lines fall into the sets of
bench/run.py's simulated I1 (32 KiB, 8 ways, 64-byte lines: 64 sets).

Why: cachegrind's I1 misses of a held-out run move by tens of percent with
layouts whose footprints are alike, because the lines of the program and of
the C library compete for the same sets. This script separates the two:
a layout that executes fewer lines is better whatever the sets do; more
misses at a smaller footprint are set conflicts.

    python3 bench/icache_lines.py <binary> <callgrind.out written with --dump-instr=yes>
"""

import argparse
import collections
import sys
from dataclasses import dataclass
from typing import Optional

from lib import pages

LINE = 64
SETS = 64
WAYS = 8


@dataclass
class Footprint:
    lines: int          # distinct lines executed
    hot_lines: int      # the fewest lines holding `share` of the cost
    excess: int         # lines beyond WAYS in their set, over all lines
    hot_excess: int     # the same over the hot lines
    span_bytes: int     # from the lowest line executed to the highest


def footprint(cost: dict[int, int], bias: int = 0, share: float = 0.999) -> Footprint:
    """The footprint of ``cost`` ({address: instructions}) with link address =
    address - ``bias``."""
    lines = collections.Counter()
    for addr, c in cost.items():
        lines[(addr - bias) // LINE] += c
    if not lines:
        return Footprint(0, 0, 0, 0, 0)
    total = sum(lines.values())
    ranked = sorted(lines, key=lambda l: (-lines[l], l))
    acc, hot = 0, []
    for line in ranked:
        hot.append(line)
        acc += lines[line]
        if acc >= share * total:
            break

    def excess(ls) -> int:
        per_set = collections.Counter(l % SETS for l in ls)
        return sum(max(0, n - WAYS) for n in per_set.values())

    return Footprint(len(lines), len(hot), excess(lines), excess(hot),
                     (max(lines) - min(lines) + 1) * LINE)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("callgrind", help="callgrind.out written with --dump-instr=yes")
    ap.add_argument("--readelf", default="/usr/lib/llvm-22/bin/llvm-readelf")
    ap.add_argument("--objdump", default="/usr/lib/llvm-22/bin/llvm-objdump")
    args = ap.parse_args(argv)
    try:
        info = pages.read_binary(args.binary, args.readelf, args.objdump)
        data = pages.read_callgrind(args.callgrind)
        obj = pages.select_object(data, args.binary)
    except (OSError, pages.CallgrindFormatError) as e:
        print("icache_lines: %s" % e, file=sys.stderr)
        return 1
    bias, _ = pages.determine_bias(data, obj, info.funcs)
    f = footprint(data.self_cost[obj], bias)
    print("lines %d, hot lines %d, lines over %d per set: all %d, hot %d, span %d KiB"
          % (f.lines, f.hot_lines, WAYS, f.excess, f.hot_excess, f.span_bytes // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())

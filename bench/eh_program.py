#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A generator of C++ programs that throw, for differential testing.

The sample application (bench/sample-app) throws no exception; this writes
the shape it lacks: functions in several translation units that throw on
data conditions from hot and cold paths, catch at other depths (by type, by
base class, rethrowing), destructors that run during unwinding and count
themselves, string tables and option-struct tables read on the way, a
sorted keyword table per translation unit searched by a static function
that returns the element found or null (the callers test for null and pass
the element to another static function that reads its fields), and
noexcept boundaries that are never crossed by a throw. The program prints a
checksum of everything it computed, the exceptions it caught by type and the
destructors that ran; the output depends only on the seed and the workload.

  eh_program.py --out DIR [--seed N] [--functions N] [--tus N]

writes DIR/sources.txt and DIR/src/*.cpp in the layout bench/sample-app's
build.sh reads (every source is C++); the program is `kiln-sample` and takes
the workloads `startup`, `steady` and `mixed [--input-seed N]`, as the sample
application does, so bench/differential.py runs both the same way.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

HEADER = """#pragma once
#include <cstdint>
#include <cstdio>
#include <stdexcept>

namespace eh {
struct Error : std::runtime_error {
  explicit Error(const char *What, uint64_t Code)
      : std::runtime_error(What), Code(Code) {}
  uint64_t Code;
};
struct ParseError : Error { using Error::Error; };
struct RangeError : Error { using Error::Error; };

extern uint64_t Destroyed;
extern uint64_t Caught[3];
struct Guard {
  uint64_t &Sum;
  uint64_t Add;
  Guard(uint64_t &Sum, uint64_t Add) : Sum(Sum), Add(Add) {}
  ~Guard() { Sum = Sum * 31 + Add; ++Destroyed; }
};
inline uint64_t mix(uint64_t H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ull + (H << 6) + (H >> 2);
  return H;
}
uint64_t hashStr(const char *S);
%s
} // namespace eh
"""


def keyword_search(rng: random.Random, words: list[str]) -> str:
    """A sorted table of structs searched by name by a static function
    returning a pointer to the element (or null), and a static function
    reading the element's fields through that pointer: the shape kiln-strtab
    follows through module-local functions."""
    keywords = sorted(rng.sample(words, 10))
    entries = ",\n".join('    {"%s", %d, "%s"}' % (w, rng.randrange(1000), rng.choice(words))
                         for w in keywords)
    return """namespace {
struct Keyword { const char *Name; uint32_t Token; const char *Help; };
} // namespace
static const Keyword Keywords[] = {
%s,
};
__attribute__((noinline)) static const Keyword *findKeyword(const char *Name) {
  size_t Lo = 0, Hi = sizeof(Keywords) / sizeof(Keywords[0]);
  while (Lo < Hi) {
    size_t Mid = Lo + (Hi - Lo) / 2;
    int C = std::strcmp(Name, Keywords[Mid].Name);
    if (C == 0)
      return &Keywords[Mid];
    if (C < 0)
      Hi = Mid;
    else
      Lo = Mid + 1;
  }
  return nullptr;
}
__attribute__((noinline)) static uint64_t keywordCode(const Keyword *K) {
  if (!K)
    return 7;
  return mix(K->Token, hashStr(K->Help)) ^ (K == &Keywords[0]);
}
""" % entries


def generate(out: Path, seed: int, functions: int, tus: int) -> None:
    rng = random.Random(seed)
    src = out / "src"
    src.mkdir(parents=True, exist_ok=True)
    names = ["f%d" % i for i in range(functions)]
    tu_of = {n: i % (tus - 1) for i, n in enumerate(names)}
    decls = "\n".join("uint64_t %s(uint64_t X, uint64_t &Sum);" % n for n in names)
    (src / "eh.h").write_text(HEADER % decls)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
             "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi"]
    bodies = {i: [] for i in range(tus - 1)}
    for i, n in enumerate(names):
        # Calls only go to later functions: no recursion.
        callees = [names[j] for j in sorted(rng.sample(range(i + 1, functions),
                                                        min(2, functions - i - 1)))]
        table = rng.sample(words, 4)
        kind = rng.choice(["throw_parse", "throw_range", "catch_base", "catch_rethrow",
                           "plain", "plain"])
        threshold = rng.randrange(3, 17)
        keyword_probe = ("  H = mix(H, keywordCode(findKeyword(Names_%s[(X >> 2) %% 4])));"
                         % n)
        lines = ["static const char *const Names_%s[] = {%s};" % (
                     n, ", ".join('"%s"' % w for w in table)),
                 "struct Opt_%s { const char *Name; uint32_t Code; };" % n,
                 "static const Opt_%s Opts_%s[] = {{\"%s\", %d}, {\"%s\", %d}};" % (
                     n, n, table[0], rng.randrange(100), table[1], rng.randrange(100)),
                 "uint64_t %s(uint64_t X, uint64_t &Sum) {" % n,
                 "  Guard G(Sum, %d);" % (i + 1),
                 "  uint64_t H = mix(X, hashStr(Names_%s[X %% 4]));" % n,
                 "  H = mix(H, Opts_%s[X & 1].Code + hashStr(Opts_%s[X & 1].Name));" % (n, n),
                 keyword_probe]
        if kind == "throw_parse":
            lines.append("  if ((H %% %d) == 0) throw ParseError(\"parse %s\", H);" % (threshold, n))
        elif kind == "throw_range":
            lines.append("  if ((H %% %d) == 1) throw RangeError(\"range %s\", H);" % (threshold, n))
        calls = ["H = mix(H, %s(H >> 3, Sum));" % c for c in callees]
        if kind == "catch_base" and calls:
            lines += ["  try {"] + ["    " + c for c in calls] + [
                "  } catch (const Error &E) {", "    ++Caught[0];",
                "    H = mix(H, E.Code ^ hashStr(E.what()));", "  }"]
        elif kind == "catch_rethrow" and calls:
            lines += ["  try {"] + ["    " + c for c in calls] + [
                "  } catch (const ParseError &E) {", "    ++Caught[1];",
                "    Sum = mix(Sum, E.Code);",
                "    if ((E.Code & 3) == 0) throw;", "  }"]
        else:
            lines += ["  " + c for c in calls]
        lines += ["  return H;", "}"]
        bodies[tu_of[n]].append("\n".join(lines))
    sources = []
    for t, fns in bodies.items():
        name = "src/tu%d.cpp" % t
        (out / name).write_text('#include "eh.h"\n#include <cstring>\nnamespace eh {\n%s\n%s\n'
                                '} // namespace eh\n'
                                % (keyword_search(rng, words), "\n\n".join(fns)))
        sources.append(name)
    roots = rng.sample(names[: max(1, functions // 3)], min(8, max(1, functions // 3)))
    main = """#include "eh.h"
#include <cstring>
#include <cstdlib>
namespace eh {
uint64_t Destroyed = 0;
uint64_t Caught[3] = {0, 0, 0};
uint64_t hashStr(const char *S) {
  uint64_t H = 1469598103934665603ull;
  for (; *S; ++S)
    H = (H ^ (unsigned char)*S) * 1099511628211ull;
  return H;
}
} // namespace eh
using namespace eh;
static uint64_t (*const Roots[])(uint64_t, uint64_t &) = {%s};
static uint64_t runRoot(unsigned R, uint64_t X, uint64_t &Sum) noexcept {
  try {
    return Roots[R](X, Sum);
  } catch (const RangeError &E) {
    ++Caught[2];
    return E.Code;
  } catch (const Error &E) {
    ++Caught[0];
    return E.Code ^ 1;
  }
}
int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "steady";
  uint64_t Seed = 1, Iterations = 2000;
  for (int I = 2; I + 1 < argc; I += 2) {
    if (!strcmp(argv[I], "--input-seed")) Seed = strtoull(argv[I + 1], 0, 10);
    if (!strcmp(argv[I], "--iterations")) Iterations = strtoull(argv[I + 1], 0, 10);
  }
  unsigned NumRoots = sizeof(Roots) / sizeof(Roots[0]);
  uint64_t H = Seed, Sum = 0;
  if (!strcmp(Mode, "startup"))
    Iterations = 3;
  unsigned Stride = !strcmp(Mode, "mixed") ? 3 : 1;
  for (uint64_t I = 0; I < Iterations; ++I)
    H = mix(H, runRoot((unsigned)((I * Stride + Seed) %% NumRoots), H ^ I, Sum));
  printf("checksum %%016llx sum %%016llx\\n", (unsigned long long)H,
         (unsigned long long)Sum);
  printf("caught %%llu %%llu %%llu destroyed %%llu\\n",
         (unsigned long long)Caught[0], (unsigned long long)Caught[1],
         (unsigned long long)Caught[2], (unsigned long long)Destroyed);
  return 0;
}
""" % ", ".join(roots)
    (out / "src" / "main.cpp").write_text(main)
    sources.append("src/main.cpp")
    (out / "sources.txt").write_text("\n".join(sources) + "\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--functions", type=int, default=120)
    ap.add_argument("--tus", type=int, default=6)
    args = ap.parse_args(argv)
    if args.tus < 2 or args.functions < 3:
        ap.error("need at least 2 TUs and 3 functions")
    generate(Path(args.out), args.seed, args.functions, args.tus)
    return 0


if __name__ == "__main__":
    sys.exit(main())

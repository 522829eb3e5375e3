#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Where the simulated I1 misses of the same workloads come from in two or
more builds of one program: per function, per object (the program's own
code, libstdc++, the C library, the loader), per kind of code (plain
functions, C++ templates and inline/COMDAT functions, split-off `.cold`
parts, block-section `.__part.N` parts, the output section BOLT moved code
to), with the lines each build executes and, given runs in a one-set I1,
how many of the misses are set conflicts.

Why: bench/pgo_flow.py reports each build's held-out I1 misses as one sum
per workload. When Kiln's layout misses more than BOLT's, that sum does not
say whether the hot code is spread over cold bytes inside functions, spread
across functions (inline functions and templates laid out apart from their
callers), in the C++ library, or only unlucky in which of the 64 sets its
lines fall (bench/icache_lines.py counts the footprint of one run; this
script puts the misses beside it, function by function).

Inputs, one `--row` per build (the first is the subject, compared with the
reference, by default the other row with the fewest misses): its binary and
one profile per workload, in the same workload order for every row, each
written by

    valgrind --tool=callgrind --cache-sim=yes --dump-instr=yes --demangle=no \\
        --I1=32768,8,64 --D1=32768,8,64 --LL=1048576,16,64 ./program ARGS

(bench/run.py's I1: 32 KiB, 8 ways, 64-byte lines; callgrind's cache
simulator is cachegrind's, and --dump-instr gives each instruction's misses
and its object). `--one-set NAME PROFILE...` adds the same runs in a one-set
(fully associative) I1 of the same size, `--I1=32768,512,64`: what a
build's misses would be without set conflicts. A cachegrind.out file is
also accepted (cachegrind has no per-instruction data: its misses are
attributed by function name only, without lines or objects).

    python3 bench/i1_attribution.py \\
        --row kiln    kiln/prog    kiln/cg.heldout.out    kiln/cg.heldout-x.out \\
        --row bolt    bolt/prog    bolt/cg.heldout.out    bolt/cg.heldout-x.out \\
        --one-set kiln kiln/cg1.heldout.out kiln/cg1.heldout-x.out \\
        --one-set bolt bolt/cg1.heldout.out bolt/cg1.heldout-x.out

prints Markdown tables: the rows' totals (misses in own code and in each
library, one-set misses, lines executed), each workload's misses, the
misses by kind of code and by output section, and the functions whose
misses differ most between the subject and the reference.

`--layout-report FILE` adds where the subject's own misses fall in its
block layout: by the composite group that placed each cluster (startup,
hot, warm, cold) and the cluster's kind (the blocks only startup ran, both
kinds of scenario ran, only the steady state ran, none ran), and in the
functions no scenario ran, which the layout leaves to the linker. FILE is
`kiln block-layout --report=` of the profile the subject was relinked with;
the plan is deterministic, so for a program of `kiln pgo optimize` it is

    kiln block-layout .kiln/optimize/block-layout/0/blocks.kbp -o /dev/null \
        --aligned-loops=false --report=layout.json

(`alternative/blocks.kbp` when `kiln pgo status` says the other compile
policy was chosen).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Optional

import icache_lines
from lib import pages

LINE = icache_lines.LINE

OWN = "own code"

# Suffixes of a function's parts laid out apart from it: LLVM's machine
# function splitter and BOLT (`.cold`, `.cold.N`), basic-block sections
# (`.__part.N`).
_PART_RE = re.compile(r"(\.cold(?:\.\d+)?|\.__part\.\d+)$")
# Suffixes that differ between builds of the same function: ThinLTO's
# promoted locals, unique internal linkage names.
_BUILD_SUFFIX_RE = re.compile(r"\.(?:llvm|__uniq)\.\d+")


class InputError(Exception):
    """An input the script cannot use (the message says which and why)."""


# The layout place of code no cluster of the layout report holds: the
# functions no scenario ran (and code outside any function).
NOT_IN_LAYOUT = "not in the layout"


def read_layout_report(path: str) -> dict[str, str]:
    """``kiln block-layout --report=`` JSON: each cluster's symbol -> where
    the layout put it, "<group> group, <kind> cluster"."""
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise InputError("%s: not JSON (%s)" % (path, e))
    layout = report.get("layout") if isinstance(report, dict) else None
    if not isinstance(layout, list):
        raise InputError("%s: no \"layout\" list: not a kiln block-layout --report" % path)
    places: dict[str, str] = {}
    for func in layout:
        for c in (func.get("clusters") or []) if isinstance(func, dict) else []:
            try:
                places[c["symbol"]] = "%s group, %s cluster" % (c["group"], c["kind"])
            except (KeyError, TypeError):
                raise InputError("%s: a cluster of %s without symbol, group and kind"
                                 % (path, func.get("function", "?")))
    return places


# --------------------------------------------------------------------------
# Symbols
# --------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Symbol(pages.Function):
    """A code symbol: weak if any of its aliases is, in the executable
    section that holds it."""

    weak: bool = False
    section: str = ""


def parse_symbols(text: str, sections: list[pages.Section]) -> list[Symbol]:
    """Code symbols of ``llvm-readelf -sW`` output (`.symtab`, else
    `.dynsym`): sized FUNC symbols, and sized NOTYPE ones inside an
    executable section (split parts). Aliases at one address become one
    symbol, weak if any of them is."""
    exec_secs = sorted((s.addr, s.addr + s.size, s.name) for s in sections if "X" in s.flags)

    def section_of(addr: int) -> str:
        return next((n for lo, hi, n in exec_secs if lo <= addr < hi), "")

    def keep(r: pages.SymbolRow) -> bool:
        if r.type not in ("FUNC", "NOTYPE") or r.size == 0:
            return False
        return r.type == "FUNC" or bool(section_of(r.value))

    raw = pages.readelf_symbols(text, keep)
    weak_at = {r.value for r in raw if r.bind == "WEAK"}
    return pages.dedupe_functions(
        Symbol(r.value, r.size, r.name, r.value in weak_at, section_of(r.value))
        for r in raw)


def split_name(name: str) -> tuple[str, str]:
    """(the function's name without build suffixes or part suffix, the part:
    "" for a function's body, else its suffix such as ".cold")."""
    name = _BUILD_SUFFIX_RE.sub("", name)
    m = _PART_RE.search(name)
    if not m:
        return name, ""
    part = m.group(1)
    return name[:m.start()], ".cold" if part.startswith(".cold") else ".__part"


def is_template(demangled: str) -> bool:
    """Whether a demangled name is of a template instance or a member of
    one (template arguments before its parameter list), or a lambda."""
    if "{lambda" in demangled:
        return True
    s = re.sub(r"operator<<=?|operator<=>?|operator<|operator->\*?", "", demangled)
    paren = s.find("(")
    head = s if paren < 0 else s[:paren]
    return "<" in head


def object_class(ob: str) -> str:
    """The library a callgrind `ob=` belongs to, by its file name."""
    base = os.path.basename(ob)
    if ob == "???" or not ob:
        return "unknown"
    if base.startswith("libstdc++"):
        return "libstdc++"
    if base.startswith(("libc.so", "libc-")):
        return "libc"
    if base.startswith(("ld-linux", "ld-")) or base.startswith("ld.so"):
        return "ld.so"
    if base.startswith(("libm.so", "libm-")):
        return "libm"
    if base.startswith("libgcc_s"):
        return "libgcc_s"
    if base.startswith("vgpreload"):
        return "valgrind"
    return base


_LIBRARIES = {"unknown", "libstdc++", "libc", "ld.so", "libm", "libgcc_s", "valgrind"}


# --------------------------------------------------------------------------
# One build
# --------------------------------------------------------------------------

@dataclass
class Binary:
    path: str
    syms: list[Symbol]
    sections: list[pages.Section]
    insn_starts: list[int] = field(default_factory=list)

    def __post_init__(self):
        self.index = pages.FunctionIndex(self.syms)
        self.names = {s.name for s in self.syms}
        # Demangled name -> symbol name (cachegrind files name functions
        # demangled); set by main().
        self.by_demangled: dict[str, str] = {}

    def insn_size(self, addr: int) -> int:
        i = bisect.bisect_right(self.insn_starts, addr)
        if i < len(self.insn_starts):
            return max(1, min(self.insn_starts[i] - addr, 15))
        return 1


def read_binary(path: str, readelf: str, objdump: Optional[str]) -> Binary:
    def tool(args: list[str]) -> str:
        try:
            return subprocess.run(args, check=True, capture_output=True, text=True).stdout
        except (OSError, subprocess.CalledProcessError) as e:
            raise InputError("%s: %s failed: %s" % (path, os.path.basename(args[0]), e))
    if not os.path.isfile(path):
        raise InputError("%s: no such file" % path)
    secs = pages.parse_readelf_sections(tool([readelf, "-SW", path]))
    syms = parse_symbols(tool([readelf, "-sW", path]), secs)
    if not syms:
        raise InputError("%s: no function symbols (a stripped binary?)" % path)
    insns = []
    if objdump:
        insns = pages.parse_objdump_instructions(
            tool([objdump, "-d", "--no-show-raw-insn", path]))
    return Binary(path, syms, secs, insns)


@dataclass
class Profile:
    """One run's self costs: per object, per address (callgrind) or, for a
    cachegrind file, per function name only (``by_name``)."""
    events: list[str]
    costs: dict[str, dict[int, list[int]]]
    fn_at: dict[str, dict[int, str]]
    call_targets: dict
    by_name: Optional[dict[str, list[int]]] = None
    totals: Optional[list[int]] = None

    def event(self, name: str) -> int:
        if name not in self.events:
            return -1
        return self.events.index(name)


def parse_cachegrind(lines) -> Profile:
    """A cachegrind.out file: its self costs per function name."""
    events: list[str] = []
    fn = ""
    by_name: dict[str, list[int]] = {}
    summary = None
    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(t) for t in line.split()[1:]]
        elif line.startswith("fn="):
            fn = line[3:]
        elif line.startswith(("fl=", "desc:", "cmd:", "version:", "creator:", "pid:")):
            pass
        elif line[0].isdigit():
            toks = line.split()
            acc = by_name.setdefault(fn, [0] * len(events))
            try:
                for i, t in enumerate(toks[1:len(events) + 1]):
                    acc[i] += int(t)
            except ValueError:
                raise InputError("line %d: bad cost line %r" % (lineno, line))
        else:
            raise InputError("line %d: cannot parse %r" % (lineno, line))
    return Profile(events, {}, {}, {}, by_name, summary)


def read_profile(path: str) -> Profile:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(4096)
            f.seek(0)
            callgrind = ("creator: callgrind" in head or "positions:" in head
                         or "\nob=" in head)
            if callgrind:
                data = pages.parse_callgrind(f, all_events=True)
                if "instr" not in data.positions:
                    raise InputError("%s: no per-instruction data (run callgrind with "
                                     "--dump-instr=yes)" % path)
                prof = Profile(data.events, data.costs, data.fn_at, data.call_targets,
                               totals=data.totals or data.summary)
            else:
                prof = parse_cachegrind(f)
    except OSError as e:
        raise InputError("%s: %s" % (path, e.strerror or e))
    except (pages.CallgrindFormatError, InputError) as e:
        raise InputError("%s: %s" % (path, e)) if not str(e).startswith(path) else e
    for ev in ("Ir", "I1mr"):
        if ev not in prof.events:
            raise InputError("%s: no %s events (run with --cache-sim=yes)" % (path, ev))
    return prof


@dataclass
class Tally:
    """What one build's runs cost, by key."""
    ir: collections.Counter = field(default_factory=collections.Counter)
    miss: collections.Counter = field(default_factory=collections.Counter)


@dataclass
class RunStats:
    """One build, one workload."""
    ir: int = 0
    miss: int = 0
    own_ir: int = 0
    own_miss: int = 0
    by_object: collections.Counter = field(default_factory=collections.Counter)
    funcs: Tally = field(default_factory=Tally)          # (object, function)
    kinds: Tally = field(default_factory=Tally)          # kind of code
    sections: Tally = field(default_factory=Tally)       # own code's output section
    parts: Tally = field(default_factory=Tally)          # own code: (function, part)
    # Own code by its place in the block layout (--layout-report), with the
    # lines executed there.
    layout: Tally = field(default_factory=Tally)
    layout_lines: collections.Counter = field(default_factory=collections.Counter)
    # Own code's footprint: lines (link address // 64) per function and
    # executed bytes per function, and the whole run's footprint.
    func_lines: dict = field(default_factory=dict)
    func_bytes: collections.Counter = field(default_factory=collections.Counter)
    own_lines: int = 0
    own_bytes: int = 0
    own_hot_lines: int = 0
    all_lines: int = 0
    all_hot_lines: int = 0
    over_ways: int = 0      # hot lines (all objects) beyond the ways of their set
    per_line: bool = True


def own_kind(name: str, part: str, weak_names: set[str], demangled: dict[str, str]) -> str:
    if part == ".cold":
        return "cold part (.cold)"
    if part == ".__part":
        return "block part (.__part.N)"
    return base_kind(name, weak_names, demangled)


def base_kind(name: str, weak_names: set[str], demangled: dict[str, str]) -> str:
    if is_template(demangled.get(name, name)):
        return "template/lambda"
    if name in weak_names:
        return "inline/COMDAT (weak)"
    return "plain"


def attribute(prof: Profile, binary: Binary, weak_names: set[str],
              demangled: dict[str, str],
              layout: Optional[dict[str, str]] = None) -> RunStats:
    """One run of one build, attributed; with \\p layout (read_layout_report),
    its own code by its place in the block layout too."""
    st = RunStats()
    iir, imiss = prof.event("Ir"), prof.event("I1mr")
    if prof.by_name is not None:
        st.per_line = False
        for fn, c in sorted(prof.by_name.items()):
            sym = fn if fn in binary.names else binary.by_demangled.get(_squash(fn))
            obj = OWN if sym else "library"
            base, part = split_name(sym or fn)
            add(st, obj, base, own_kind(base, part, weak_names, demangled) if obj == OWN
                else "library: " + obj, "", c[iir], c[imiss])
        return st
    obj_names = list(prof.costs)
    own_ob = None
    real = os.path.realpath(binary.path)
    base = os.path.basename(binary.path)
    cands = [ob for ob in obj_names if ob and (os.path.realpath(ob) == real
                                               or os.path.basename(ob) == base)]
    if not cands:
        # The binary copied elsewhere after the run: the one object that is
        # none of the known libraries.
        cands = [ob for ob in obj_names if object_class(ob) not in _LIBRARIES]
    if len(cands) != 1:
        raise InputError("object %s not found in the profile (objects: %s)"
                         % (binary.path, ", ".join(sorted(obj_names))))
    own_ob = cands[0]
    funcs = [pages.Function(s.start, s.size, s.name) for s in binary.syms]
    data = pages.CallgrindData(fn_at=prof.fn_at, call_targets=prof.call_targets)
    bias, _ = pages.determine_bias(data, own_ob, funcs)
    # Code valgrind puts in no object (BOLT's rewritten binaries: the
    # segment of the original `.text`) carries run-time addresses: its own
    # bias, the most common distance from a function's lowest executed
    # address to its symbol.
    unknown_bias = bias
    if "???" in prof.costs:
        lowest: dict[str, int] = {}
        for addr, fn in prof.fn_at.get("???", {}).items():
            fn = pages.strip_recursion(fn)
            if fn in binary.names and (fn not in lowest or addr < lowest[fn]):
                lowest[fn] = addr
        starts = {s.name: s.start for s in binary.syms}
        diffs = collections.Counter(a - starts[fn] for fn, a in lowest.items())
        if diffs:
            unknown_bias = min(diffs, key=lambda d: (-diffs[d], d))
    own_cost: dict[int, int] = {}
    all_cost: dict[int, int] = {}
    lines_of: dict[str, set[int]] = collections.defaultdict(set)
    layout_lines: dict[str, set[int]] = collections.defaultdict(set)
    for ob in sorted(obj_names):
        fn_at = prof.fn_at.get(ob, {})
        for addr, c in prof.costs[ob].items():
            ir, miss = c[iir], c[imiss] if imiss < len(c) else 0
            all_cost[addr] = all_cost.get(addr, 0) + ir
            fn = pages.strip_recursion(fn_at.get(addr, ""))
            own = ob == own_ob or (ob == "???" and fn in binary.names)
            if not own:
                base, _ = split_name(fn)
                cls = object_class(ob)
                add(st, cls, base or "?", "library: " + cls, "", ir, miss)
                continue
            link = addr - (bias if ob == own_ob else unknown_bias)
            sym = binary.index.lookup(link)
            if layout is not None:
                place = layout.get(sym.name, NOT_IN_LAYOUT) if sym else NOT_IN_LAYOUT
                st.layout.ir[place] += ir
                st.layout.miss[place] += miss
                if ir:
                    layout_lines[place].add(link // LINE)
            if sym is None:
                sec = next((s.name for s in binary.sections
                            if s.addr <= link < s.addr + s.size), "?")
                add(st, OWN, "<no symbol in %s>" % sec, "no symbol", sec, ir, miss)
                continue
            name, part = split_name(sym.name)
            add(st, OWN, name, own_kind(name, part, weak_names, demangled), sym.section,
                ir, miss)
            if part:
                st.parts.ir[(name, part)] += ir
                st.parts.miss[(name, part)] += miss
            own_cost[link] = own_cost.get(link, 0) + ir
            if ir:
                size = binary.insn_size(link) if binary.insn_starts else 1
                lines_of[name].update(range(link // LINE, (link + size - 1) // LINE + 1))
                st.func_bytes[name] += size
    st.func_lines = {n: len(ls) for n, ls in lines_of.items()}
    st.layout_lines = collections.Counter({p: len(ls) for p, ls in layout_lines.items()})
    fp = icache_lines.footprint({a: c for a, c in own_cost.items() if c})
    st.own_lines, st.own_hot_lines = fp.lines, fp.hot_lines
    st.own_bytes = sum(st.func_bytes.values())
    whole = icache_lines.footprint({a: c for a, c in all_cost.items() if c})
    st.all_lines, st.all_hot_lines, st.over_ways = whole.lines, whole.hot_lines, whole.hot_excess
    return st


def add(st: RunStats, obj: str, fn: str, kind: str, section: str, ir: int, miss: int):
    st.ir += ir
    st.miss += miss
    st.by_object[obj] += miss
    if obj == OWN:
        st.own_ir += ir
        st.own_miss += miss
        if section:
            st.sections.ir[section] += ir
            st.sections.miss[section] += miss
    st.funcs.ir[(obj, fn)] += ir
    st.funcs.miss[(obj, fn)] += miss
    st.kinds.ir[kind] += ir
    st.kinds.miss[kind] += miss


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def _squash(name: str) -> str:
    """A demangled name without blanks: demanglers differ in spacing
    (`> >` against `>>`)."""
    return "".join(name.split())


def demangle(names: set[str], cxxfilt: Optional[str]) -> dict[str, str]:
    names = sorted(n for n in names if n.startswith("_Z"))
    if not cxxfilt or not names:
        return {}
    try:
        out = subprocess.run([cxxfilt], input="\n".join(names) + "\n", check=True,
                             capture_output=True, text=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return {}
    return dict(zip(names, out)) if len(out) == len(names) else {}


def fmt(n) -> str:
    if n is None:
        return "-"
    if isinstance(n, float):
        return "%.3f" % n
    return "{:,}".format(n)


def table(head: list[str], rows: list[list]) -> list[str]:
    """A Markdown table; columns of text are left-aligned, numbers right."""
    text = [i == 0 or (rows and all(isinstance(r[i], str) and not r[i][:1] in "+-"
                                    for r in rows)) for i in range(len(head))]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(" --- " if t else " ---: " for t in text) + "|"]
    for r in rows:
        out.append("| " + " | ".join(c if isinstance(c, str) else fmt(c) for c in r) + " |")
    return out


def short(name: str, width: int) -> str:
    return name if len(name) <= width else name[:width - 3] + "..."


def report(rows: dict[str, list[RunStats]], one_set: dict[str, list[RunStats]],
           subject: str, reference: str, workloads: list[str], demangled: dict[str, str],
           weak_names: set[str], top: int, width: int) -> list[str]:
    names = list(rows)
    out = []

    def total(name: str, attr: str, src=rows) -> Optional[int]:
        if name not in src:
            return None
        return sum(getattr(s, attr) for s in src[name])

    out.append("I1 misses of %s against %s, summed over %d workload%s (%s)"
               % (subject, reference, len(workloads), "" if len(workloads) == 1 else "s",
                  ", ".join(workloads)))
    out.append("")
    objs = sorted({o for n in names for s in rows[n] for o in s.by_object},
                  key=lambda o: (o != OWN, o))
    summary = [["I1 misses"] + [total(n, "miss") for n in names]]
    if one_set:
        summary.append(["I1 misses, one set"] + [total(n, "miss", one_set) for n in names])
        summary.append(["set conflicts (8 ways - one set)"] + [
            None if n not in one_set else total(n, "miss") - total(n, "miss", one_set)
            for n in names])
    for o in objs:
        summary.append(["I1 misses in " + o] + [sum(s.by_object[o] for s in rows[n])
                                                for n in names])
        if one_set:
            summary.append(["I1 misses in %s, one set" % o] + [
                sum(s.by_object[o] for s in one_set[n]) if n in one_set else None
                for n in names])
    summary.append(["Ir"] + [total(n, "ir") for n in names])
    summary.append(["Ir in own code"] + [total(n, "own_ir") for n in names])
    if all(s.per_line for n in names for s in rows[n]):
        summary.append(["own lines executed"] + [total(n, "own_lines") for n in names])
        summary.append(["own lines, 99.9% of Ir"] + [total(n, "own_hot_lines") for n in names])
        summary.append(["own executed bytes"] + [total(n, "own_bytes") for n in names])
        summary.append(["own line fill (bytes / 64 x lines)"] + [
            total(n, "own_bytes") / (LINE * total(n, "own_lines"))
            if total(n, "own_lines") else None for n in names])
        summary.append(["lines, all objects"] + [total(n, "all_lines") for n in names])
        summary.append(["lines, all objects, 99.9% of Ir"] + [total(n, "all_hot_lines")
                                                               for n in names])
        summary.append(["of those, lines over 8 ways in their set"] + [
            total(n, "over_ways") for n in names])
    out += table([""] + names, summary)
    out.append("")
    out.append("(lines: distinct 64-byte lines executed, summed over the workloads)")
    out.append("")

    head = ["workload"] + ["%s" % n for n in names]
    if one_set:
        head += ["%s one set" % n for n in names if n in one_set]
    wrows = []
    for i, w in enumerate(workloads):
        r = [w] + [rows[n][i].miss for n in names]
        if one_set:
            r += [one_set[n][i].miss for n in names if n in one_set]
        wrows.append(r)
    out += table(head, wrows)
    out.append("")

    kinds = sorted({k for n in names for s in rows[n] for k in s.kinds.miss})
    krows = [[k] + [sum(s.kinds.miss[k] for s in rows[n]) for n in names]
             + [sum(s.kinds.ir[k] for s in rows[n]) for n in names] for k in kinds]
    krows.sort(key=lambda r: (r[0].startswith("library"), r[0]))
    out += table(["kind of code"] + ["%s misses" % n for n in names]
                 + ["%s Ir" % n for n in names], krows)
    out.append("")

    secs = sorted({k for n in names for s in rows[n] for k in s.sections.miss})
    if secs:
        out += table(["own code's section"] + ["%s misses" % n for n in names]
                     + ["%s Ir" % n for n in names],
                     [[k] + [sum(s.sections.miss[k] for s in rows[n]) for n in names]
                      + [sum(s.sections.ir[k] for s in rows[n]) for n in names]
                      for k in secs])
        out.append("")

    places = sorted({k for s in rows[subject] for k in s.layout.ir})
    if places:
        one = one_set.get(subject)
        out.append("%s's own code by its place in the block layout (--layout-report)"
                   % subject)
        out.append("")
        out += table(["place"] + ["misses"] + (["one-set misses"] if one else [])
                     + ["Ir", "lines"],
                     [[k, sum(s.layout.miss[k] for s in rows[subject])]
                      + ([sum(s.layout.miss[k] for s in one)] if one else [])
                      + [sum(s.layout.ir[k] for s in rows[subject]),
                         sum(s.layout_lines[k] for s in rows[subject])]
                      for k in places])
        out.append("")

    parts = sorted({k for n in names for s in rows[n] for k in s.parts.ir if s.parts.ir[k]})
    if parts:
        def psum(n, k, what):
            return sum(getattr(s.parts, what)[k] for s in rows[n])
        parts.sort(key=lambda k: (-max(psum(n, k, "ir") for n in names), k))
        out.append("Split parts that ran (own code: `.cold`, `.cold.N`, `.__part.N`), "
                   "by the most Ir in any row (top %d of %d)" % (min(top, len(parts)),
                                                                len(parts)))
        out.append("")
        out += table(["function", "part"] + ["%s Ir" % n for n in names]
                     + ["%s misses" % n for n in names],
                     [[short(demangled.get(f, f), width), p]
                      + [psum(n, (f, p), "ir") for n in names]
                      + [psum(n, (f, p), "miss") for n in names] for f, p in parts[:top]])
        out.append("")

    def fsum(src, n, key, what):
        return sum(getattr(s.funcs, what)[key] for s in src[n])

    keys = sorted({k for n in names for s in rows[n] for k in s.funcs.miss
                   if s.funcs.miss[k] or s.funcs.ir[k]})
    deltas = {k: fsum(rows, subject, k, "miss") - fsum(rows, reference, k, "miss")
              for k in keys}
    ranked = sorted(keys, key=lambda k: (-abs(deltas[k]), k))[:top]
    pos = sum(d for d in deltas.values() if d > 0)
    neg = sum(d for d in deltas.values() if d < 0)
    out.append("Functions by |%s - %s| misses (top %d of %d; the differences sum to "
               "+%s and %s)" % (subject, reference, len(ranked), len(keys), fmt(pos),
                               fmt(neg)))
    out.append("")
    head = ["object", "kind", "function"] + names + ["delta"]
    lines_known = all(s.per_line for n in (subject, reference) for s in rows[n])
    if lines_known:
        head += ["lines %s" % subject, "lines %s" % reference,
                 "bytes %s" % subject, "bytes %s" % reference]
    if subject in one_set and reference in one_set:
        head += ["one set %s" % subject, "one set %s" % reference]
    frows = []
    for k in ranked:
        obj, fn = k
        kind = base_kind(fn, weak_names, demangled) if obj == OWN else "library"
        r = [obj, kind, short(demangled.get(fn, fn), width)]
        r += [fsum(rows, n, k, "miss") for n in names] + ["%+d" % deltas[k]]
        if lines_known:
            r += [sum(s.func_lines.get(fn, 0) for s in rows[n]) if obj == OWN else None
                  for n in (subject, reference)]
            r += [sum(s.func_bytes.get(fn, 0) for s in rows[n]) if obj == OWN else None
                  for n in (subject, reference)]
        if subject in one_set and reference in one_set:
            r += [fsum(one_set, n, k, "miss") for n in (subject, reference)]
        frows.append(r)
    out += table(head, frows)
    return out


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    ap.add_argument("--row", nargs="+", action="append", required=True,
                    metavar=("NAME BINARY", "PROFILE"),
                    help="a build: its name, its binary, one profile per workload "
                         "(two or more --row; the first is the subject)")
    ap.add_argument("--one-set", nargs="+", action="append", default=[],
                    metavar=("NAME", "PROFILE"),
                    help="a --row's runs in a one-set I1 (--I1=32768,512,64), same order")
    ap.add_argument("--reference", help="the row the subject is compared with "
                    "(default: the other row with the fewest I1 misses)")
    ap.add_argument("--workloads", help="comma-separated names of the workloads "
                    "(default: from the subject's profile file names)")
    ap.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    ap.add_argument("--width", type=int, default=60, help="longest function name printed")
    ap.add_argument("--readelf", default="/usr/lib/llvm-22/bin/llvm-readelf")
    ap.add_argument("--objdump", default="/usr/lib/llvm-22/bin/llvm-objdump",
                    help="disassembler for executed bytes ('' to count 1 byte per "
                         "instruction)")
    ap.add_argument("--cxxfilt", default="/usr/lib/llvm-22/bin/llvm-cxxfilt")
    ap.add_argument("--layout-report", metavar="FILE",
                    help="kiln block-layout --report= JSON of the subject's block layout: "
                         "its own misses by layout group and cluster kind")
    args = ap.parse_args(argv)

    def fail(msg: str) -> int:
        print("i1_attribution: error: %s" % msg, file=sys.stderr)
        return 1

    specs: dict[str, tuple[str, list[str]]] = {}
    for r in args.row:
        if len(r) < 3:
            return fail("--row %s: needs NAME BINARY PROFILE..." % " ".join(r))
        if r[0] in specs:
            return fail("--row %s given twice" % r[0])
        specs[r[0]] = (r[1], r[2:])
    if len(specs) < 2:
        return fail("two or more --row are needed")
    counts = {len(p) for _, p in specs.values()}
    if len(counts) != 1:
        return fail("every --row needs the same number of profiles (one per workload)")
    n_work = counts.pop()
    one_specs: dict[str, list[str]] = {}
    for r in args.one_set:
        if r[0] not in specs:
            return fail("--one-set %s: no --row of that name" % r[0])
        if len(r) - 1 != n_work:
            return fail("--one-set %s: %d profiles for %d workloads" % (r[0], len(r) - 1, n_work))
        one_specs[r[0]] = r[1:]
    names = list(specs)
    subject = names[0]
    if args.reference and args.reference not in specs:
        return fail("--reference %s: no --row of that name" % args.reference)
    if args.reference == subject:
        return fail("--reference is the subject")
    if args.workloads:
        workloads = args.workloads.split(",")
        if len(workloads) != n_work:
            return fail("--workloads names %d workloads for %d profiles"
                        % (len(workloads), n_work))
    else:
        workloads = [os.path.basename(p) for p in specs[subject][1]]
    try:
        binaries = {n: read_binary(b, args.readelf, args.objdump or None)
                    for n, (b, _) in specs.items()}
        profiles = {n: [read_profile(p) for p in ps] for n, (_, ps) in specs.items()}
        one_profiles = {n: [read_profile(p) for p in ps] for n, ps in one_specs.items()}
        weak_names = {split_name(s.name)[0] for b in binaries.values() for s in b.syms
                      if s.weak}
        all_names = {n for b in binaries.values() for s in b.syms
                     for n in (s.name, split_name(s.name)[0])}
        for ps in list(profiles.values()) + list(one_profiles.values()):
            for p in ps:
                for fns in p.fn_at.values():
                    all_names.update(split_name(pages.strip_recursion(f))[0] for f in fns.values())
                if p.by_name:
                    all_names.update(split_name(f)[0] for f in p.by_name)
        demangled = demangle(all_names, args.cxxfilt)
        for b in binaries.values():
            b.by_demangled = {_squash(demangled.get(s.name, s.name)): s.name for s in b.syms}
        layout = read_layout_report(args.layout_report) if args.layout_report else None

        def place_of(n):
            return layout if n == subject else None
        rows = {n: [attribute(p, binaries[n], weak_names, demangled, place_of(n))
                    for p in profiles[n]] for n in names}
        one_set = {n: [attribute(p, binaries[n], weak_names, demangled, place_of(n))
                       for p in ps] for n, ps in one_profiles.items()}
    except InputError as e:
        return fail(str(e))
    reference = args.reference or min(
        (n for n in names if n != subject), key=lambda n: (sum(s.miss for s in rows[n]),
                                                            names.index(n)))
    print("\n".join(report(rows, one_set, subject, reference, workloads, demangled,
                           weak_names, args.top, args.width)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

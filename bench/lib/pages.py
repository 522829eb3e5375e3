#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Startup code-page metric: pages touched by executed functions vs. a lower bound.

Input:
  * a callgrind profile written with ``--dump-instr=yes`` (instruction-level
    positions) of a run of the program, and
  * the program's function symbols (``llvm-readelf -sW``: FUNC symbols with a
    non-zero size) and, optionally, its section headers (``llvm-readelf -SW``)
    for diagnostics.

Output (see :class:`PageReport`):
  * ``pages``: number of distinct 4 KiB pages that contain at least one byte
    of a function of which at least one instruction was executed;
  * ``lower_bound``: ``ceil(sum of sizes of those functions / 4096)``, i.e.
    the page count a perfect layout (executed functions packed together)
    would need;
  * how many executed instruction addresses of the main object could *not*
    be attributed to a sized FUNC symbol (PLT stubs, ``_init``, the
    size-less crtstuff helpers, ...), with a per-section breakdown.

Functions are identified by address, never by name: a program may contain
several static functions with the same name.

Callgrind format notes (valgrind docs, "Callgrind Format Specification",
checked against callgrind 3.19 output and callgrind_annotate):
  * ``ob=``/``fl=``/``fn=`` lines use name compression ``(id) name`` to
    define and ``(id)`` to reference an id.  The id tables are shared between
    ``ob``/``cob``; between ``fl``/``fi``/``fe``/``cfi``/``cfl``/``jfi``; and
    between ``fn``/``cfn``/``jfn``.
  * Subpositions (``positions: instr line``) may be absolute (decimal or
    ``0x`` hex), relative to the same subposition of the previous *cost line*
    (``+N``/``-N``), or ``*`` (unchanged).
  * ``calls=COUNT TARGET`` is followed by one cost line giving the call
    site and the *inclusive* cost of the call; it is not self cost.  The
    target position is relative to the previous cost line but does not
    itself become the "previous" position.
  * ``jump=``/``jcnd=`` (``--collect-jumps=yes``) likewise have a target
    position and are followed by a source-position line without costs.
  * ``summary:``/``totals:`` give the total cost of the run.

The addresses callgrind writes for instructions are what it considers
object-relative; to be robust against a load bias (e.g. a valgrind that
writes runtime addresses of a PIE), the bias is determined from the entry
address of ``main`` (the target of the call to ``main``) compared with the
symbol value of ``main``, and the share of executed addresses that fall
into known functions is reported as a sanity check.

The module can also be used from the command line::

    pages.py CALLGRIND_OUT BINARY [--readelf PATH] [--page-size N]

which prints the report as JSON.
"""

from __future__ import annotations

import argparse
import bisect
import json
import math
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

PAGE_SIZE = 4096

# --------------------------------------------------------------------------
# Callgrind parsing
# --------------------------------------------------------------------------

# Which compressed-name table each position specification uses.
_NAME_TABLE = {
    "ob": "ob", "cob": "ob",
    "fl": "fl", "fi": "fl", "fe": "fl", "cfi": "fl", "cfl": "fl", "jfi": "fl",
    "fn": "fn", "cfn": "fn", "jfn": "fn",
}

_SPEC_RE = re.compile(r"^([a-z]+)=(.*)$")
_HEADER_RE = re.compile(r"^([a-zA-Z][a-zA-Z ]*):\s*(.*)$")
_COMPRESSED_RE = re.compile(r"^\((\d+)\)(?:\s+(.*))?$")


class CallgrindFormatError(ValueError):
    """The callgrind file could not be parsed."""


@dataclass
class CallgrindData:
    """The parts of a callgrind profile this module needs."""

    events: list[str] = field(default_factory=list)
    positions: list[str] = field(default_factory=lambda: ["line"])
    summary: Optional[list[int]] = None
    totals: Optional[list[int]] = None
    # object name -> {instruction address -> self cost of the first event}
    self_cost: dict[str, dict[int, int]] = field(default_factory=dict)
    # object name -> {instruction address -> function name} (diagnostics)
    fn_at: dict[str, dict[int, str]] = field(default_factory=dict)
    # (object name, function name) -> set of call target addresses
    call_targets: dict[tuple[str, str], set[int]] = field(default_factory=dict)
    # With parse_callgrind(all_events=True): object name -> {instruction
    # address -> self cost of every event, in the order of ``events``}
    # (a profile with --cache-sim=yes: I1mr beside Ir).
    costs: dict[str, dict[int, list[int]]] = field(default_factory=dict)

    def total(self, event: str = "Ir") -> Optional[int]:
        """Total cost of ``event`` (from ``totals:`` or else ``summary:``)."""
        if event not in self.events:
            return None
        i = self.events.index(event)
        for line in (self.totals, self.summary):
            if line is not None:
                return line[i] if i < len(line) else 0
        return None


def _parse_number(tok: str) -> int:
    if tok.startswith(("0x", "0X")):
        return int(tok, 16)
    return int(tok, 10)


def _parse_subpositions(toks: list[str], last: list[int]) -> list[int]:
    """Decode a subposition list relative to ``last`` (not modified)."""
    if len(toks) < len(last):
        raise CallgrindFormatError("too few subpositions: %r" % (toks,))
    out = []
    for tok, prev in zip(toks, last):
        if tok == "*":
            out.append(prev)
        elif tok[0] == "+":
            out.append(prev + _parse_number(tok[1:]))
        elif tok[0] == "-":
            out.append(prev - _parse_number(tok[1:]))
        else:
            out.append(_parse_number(tok))
    return out


def strip_recursion(fn: str) -> str:
    """A callgrind function name without its recursion level: callgrind
    names a recursive function's inner calls `f'2`, `f'3`..."""
    return re.sub(r"'\d+$", "", fn)


def parse_callgrind(lines: Iterable[str], all_events: bool = False) -> CallgrindData:
    """Parse a callgrind profile (all parts are accumulated). With
    ``all_events``, also keep every event's self cost per instruction
    (``CallgrindData.costs``)."""
    data = CallgrindData()
    names: dict[str, dict[int, str]] = {"ob": {}, "fl": {}, "fn": {}}
    cur = {"ob": "", "fn": ""}
    call_ob: Optional[str] = None   # pending cob= (target object of next call)
    call_fn: Optional[str] = None   # pending cfn=
    last: list[int] = [0]           # subpositions of the previous cost line
    # What the next cost line means: "self" (normal cost line), "call" (call
    # site + inclusive cost after calls=), or "jump" (source after jump/jcnd).
    expect = "self"
    instr_idx: Optional[int] = None

    def resolve(spec: str, value: str) -> str:
        table = names[_NAME_TABLE[spec]]
        m = _COMPRESSED_RE.match(value)
        if not m:
            return value.strip()
        ident = int(m.group(1))
        if m.group(2) is not None:
            table[ident] = m.group(2).strip()
        if ident not in table:
            raise CallgrindFormatError("undefined name id (%d) for %s=" % (ident, spec))
        return table[ident]

    for lineno, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        c = line[0]
        if c.isdigit() or c in "+-*":
            # A cost line (or the position line following calls=/jump=).
            toks = line.split()
            npos = len(last)
            pos = _parse_subpositions(toks[:npos], last)
            last = pos
            costs = [int(t) for t in toks[npos:]]
            if expect == "self" and instr_idx is not None:
                addr = pos[instr_idx]
                ob = cur["ob"]
                per_obj = data.self_cost.setdefault(ob, {})
                per_obj[addr] = per_obj.get(addr, 0) + (costs[0] if costs else 0)
                data.fn_at.setdefault(ob, {}).setdefault(addr, cur["fn"])
                if all_events:
                    acc = data.costs.setdefault(ob, {}).setdefault(addr, [0] * len(data.events))
                    for i, c in enumerate(costs[:len(acc)]):
                        acc[i] += c
            expect = "self"
            continue
        m = _SPEC_RE.match(line)
        if m:
            spec, value = m.group(1), m.group(2)
            if spec in ("calls", "jump", "jcnd"):
                # "calls=COUNT TARGET", "jump=COUNT TARGET",
                # "jcnd=EXE/JUMP TARGET" (or "jcnd=EXE JUMP TARGET").
                toks = value.split()
                skip = 2 if (spec == "jcnd" and "/" not in toks[0]) else 1
                target = _parse_subpositions(toks[skip:skip + len(last)], last)
                if spec == "calls" and instr_idx is not None and call_fn is not None:
                    key = (call_ob if call_ob is not None else cur["ob"], call_fn)
                    data.call_targets.setdefault(key, set()).add(target[instr_idx])
                expect = "call" if spec == "calls" else "jump"
                if spec == "calls":
                    call_ob = call_fn = None
                continue
            if spec not in _NAME_TABLE:
                raise CallgrindFormatError("line %d: unknown specification %r" % (lineno, spec))
            name = resolve(spec, value)
            if spec == "ob":
                cur["ob"] = name
            elif spec == "fn":
                cur["fn"] = name
            elif spec == "cob":
                call_ob = name
            elif spec == "cfn":
                call_fn = name
            # fl/fi/fe/cfi/cfl/jfi/jfn: only the name table side effect matters.
            continue
        m = _HEADER_RE.match(line)
        if m:
            key, value = m.group(1), m.group(2)
            if key == "events":
                data.events = value.split()
            elif key == "positions":
                data.positions = value.split() or ["line"]
                last = [0] * len(data.positions)
                instr_idx = data.positions.index("instr") if "instr" in data.positions else None
            elif key == "summary":
                data.summary = [int(t) for t in value.split()]
            elif key == "totals":
                data.totals = [int(t) for t in value.split()]
            # version, creator, pid, cmd, part, desc, event, ...: ignored.
            continue
        raise CallgrindFormatError("line %d: cannot parse %r" % (lineno, line))
    return data


def read_callgrind(path: str, all_events: bool = False) -> CallgrindData:
    with open(path, encoding="utf-8", errors="replace") as f:
        return parse_callgrind(f, all_events)


# --------------------------------------------------------------------------
# Symbols and sections
# --------------------------------------------------------------------------

@dataclass(frozen=True, order=True)
class Function:
    """A function of the binary: [start, start + size)."""

    start: int
    size: int
    name: str = ""

    @property
    def end(self) -> int:
        return self.start + self.size


@dataclass(frozen=True)
class Section:
    name: str
    addr: int
    size: int
    flags: str


def _parse_size(tok: str) -> int:
    # readelf prints large sizes in hex with a 0x prefix.
    return int(tok, 16) if tok.startswith("0x") else int(tok)


# Parts of a function laid out apart from it: the cold part of LLVM's
# machine function splitter and GCC (`fn.cold`), BOLT's (`fn.cold.N`), and
# the clusters of basic-block sections (`fn.__part.N`; block layout).
_SPLIT_PART_RE = re.compile(r"\.(cold(\.\d+)?|__part\.\d+)$")


@dataclass(frozen=True)
class SymbolRow:
    """A defined symbol of an ``llvm-readelf -sW`` table."""

    value: int
    size: int
    type: str
    bind: str
    name: str


def readelf_symbols(text: str, keep: Callable[[SymbolRow], bool]) -> list[SymbolRow]:
    """The defined symbols (neither UND nor ABS) of ``llvm-readelf -sW``
    output that \\p keep accepts, from the ``.symtab`` table if it has any,
    else from ``.dynsym``."""
    tables: dict[str, list[SymbolRow]] = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^Symbol table '([^']+)'", line)
        if m:
            current = tables.setdefault(m.group(1), [])
            continue
        toks = line.split()
        if current is None or len(toks) < 8 or not toks[0].endswith(":"):
            continue
        _, value, size, typ, bind, _vis, ndx = toks[:7]
        if ndx in ("UND", "ABS"):
            continue
        try:
            row = SymbolRow(int(value, 16), _parse_size(size), typ, bind, " ".join(toks[7:]))
        except ValueError:
            continue
        if keep(row):
            current.append(row)
    return tables.get(".symtab") or tables.get(".dynsym") or []


def parse_readelf_symbols(text: str, zero_size: bool = False) -> list[Function]:
    """Defined, sized FUNC symbols from ``llvm-readelf -sW`` output.

    Only the ``.symtab`` table is used if present (``.dynsym`` otherwise).
    Symbols at the same address are merged (aliases); the largest size wins.
    With ``zero_size=True``, return only the size-less FUNC symbols instead
    (``_init``, crtstuff helpers, ...); they are used to name unmapped
    addresses in diagnostics.
    """
    def keep(r: SymbolRow) -> bool:
        # A function's split parts are sized NOTYPE symbols: they are code
        # of their own, placed apart from their function.
        if r.type != "FUNC" and not (r.type == "NOTYPE" and _SPLIT_PART_RE.search(r.name)):
            return False
        return (r.size == 0) == zero_size

    return dedupe_functions(Function(r.value, r.size, r.name)
                            for r in readelf_symbols(text, keep))


def dedupe_functions(funcs: Iterable[Function]) -> list[Function]:
    """One entry per start address (largest size, first name in sorted order)."""
    by_start: dict[int, Function] = {}
    for f in sorted(funcs, key=lambda f: (f.start, -f.size, f.name)):
        if f.start not in by_start:
            by_start[f.start] = f
    return sorted(by_start.values())


def parse_readelf_sections(text: str) -> list[Section]:
    """Allocated sections from ``llvm-readelf -SW`` output."""
    out = []
    rx = re.compile(r"^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-fA-F]+)\s+([0-9a-fA-F]+)"
                    r"\s+([0-9a-fA-F]+)\s+([0-9a-fA-F]+)\s+(\S*)")
    for line in text.splitlines():
        m = rx.match(line)
        if not m:
            continue
        name, _typ, addr, _off, size, _es, flags = m.groups()
        if "A" in flags:
            out.append(Section(name, int(addr, 16), int(size, 16), flags))
    return out


@dataclass
class BinaryInfo:
    """What the metric needs to know about the executable."""

    funcs: list[Function]                                     # sized FUNC symbols
    labels: list[Function] = field(default_factory=list)      # size-less FUNC symbols
    sections: list[Section] = field(default_factory=list)     # allocated sections
    # Sorted start addresses of every disassembled instruction (with
    # read_binary(objdump=...)): the executed bytes at instruction
    # granularity.
    insn_starts: list[int] = field(default_factory=list)


_INSN_RE = re.compile(r"^\s+([0-9a-f]+):")


def parse_objdump_instructions(text: str) -> list[int]:
    """Sorted instruction addresses from ``llvm-objdump -d`` output."""
    addrs = set()
    for line in text.splitlines():
        m = _INSN_RE.match(line)
        if m:
            addrs.add(int(m.group(1), 16))
    return sorted(addrs)


def read_binary(binary: str, readelf: str = "llvm-readelf",
                objdump: Optional[str] = None) -> BinaryInfo:
    """Run readelf on ``binary`` and collect its functions and sections; with
    ``objdump``, also its instruction addresses (for instruction-level
    figures)."""
    syms = subprocess.run([readelf, "-sW", binary], check=True, capture_output=True, text=True).stdout
    secs = subprocess.run([readelf, "-SW", binary], check=True, capture_output=True, text=True).stdout
    insns: list[int] = []
    if objdump:
        dis = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary], check=True,
                             capture_output=True, text=True).stdout
        insns = parse_objdump_instructions(dis)
    return BinaryInfo(parse_readelf_symbols(syms), parse_readelf_symbols(syms, zero_size=True),
                      parse_readelf_sections(secs), insns)


class FunctionIndex:
    """Address -> containing function lookup."""

    def __init__(self, funcs: Iterable[Function]):
        self.funcs = dedupe_functions(funcs)
        self.starts = [f.start for f in self.funcs]
        self.max_size = max((f.size for f in self.funcs), default=0)

    def lookup(self, addr: int) -> Optional[Function]:
        i = bisect.bisect_right(self.starts, addr) - 1
        # Walk back over (rare) overlapping symbols; stop once no earlier
        # function can reach addr.
        while i >= 0 and addr - self.funcs[i].start < self.max_size:
            f = self.funcs[i]
            if f.start <= addr < f.end:
                return f
            i -= 1
        return None


# --------------------------------------------------------------------------
# Object selection and load bias
# --------------------------------------------------------------------------

def select_object(data: CallgrindData, binary: str) -> str:
    """The callgrind ``ob=`` name of ``binary`` (by real path, else basename)."""
    objs = list(data.self_cost)
    real = os.path.realpath(binary)
    for ob in objs:
        if ob and os.path.realpath(ob) == real:
            return ob
    base = os.path.basename(binary)
    matches = [ob for ob in objs if os.path.basename(ob) == base]
    if len(matches) == 1:
        return matches[0]
    raise CallgrindFormatError("object %s not found in callgrind data (objects: %s)"
                               % (binary, ", ".join(sorted(objs))))


def determine_bias(data: CallgrindData, obj: str, funcs: list[Function],
                   anchor: str = "main") -> tuple[int, str]:
    """Return (bias, method): callgrind address = symbol value + bias.

    The entry address of ``anchor`` is taken from the target of a call to it
    (exact), falling back to the lowest executed address attributed to it.
    """
    syms = [f for f in funcs if f.name == anchor]
    if len(syms) != 1:
        return 0, "assumed 0 (no unique symbol %r)" % anchor
    sym = syms[0]
    targets = data.call_targets.get((obj, anchor))
    if targets:
        return min(targets) - sym.start, "entry of %s (call target)" % anchor
    addrs = [a for a, fn in data.fn_at.get(obj, {}).items() if fn == anchor]
    if addrs:
        return min(addrs) - sym.start, "lowest executed address of %s" % anchor
    return 0, "assumed 0 (%s not executed)" % anchor


# --------------------------------------------------------------------------
# The metric
# --------------------------------------------------------------------------

@dataclass
class PageReport:
    page_size: int
    bias: int
    bias_method: str
    executed_functions: int      # number of functions with >= 1 executed instruction
    executed_bytes: int          # sum of their sizes
    pages: int                   # distinct pages touched by their [start, end)
    lower_bound: int             # ceil(executed_bytes / page_size)
    executed_addresses: int      # distinct executed addresses in the object
    unmapped_addresses: int      # ... not inside a sized FUNC symbol
    executed_cost: int           # self cost (first event) in the object
    unmapped_cost: int
    unmapped_by_section: dict[str, int] = field(default_factory=dict)
    unmapped_examples: list[str] = field(default_factory=list)
    # Instruction granularity (None without the binary's instructions):
    # pages holding an executed instruction byte, and the block-granularity
    # lower bound ceil(bytes of executed instructions / page_size) -- what
    # a perfect basic-block layout would reach.
    insn_pages: Optional[int] = None
    insn_bytes: Optional[int] = None
    block_lower_bound: Optional[int] = None

    @property
    def ratio(self) -> Optional[float]:
        return self.pages / self.lower_bound if self.lower_bound else None

    @property
    def mapped_share(self) -> float:
        if not self.executed_addresses:
            return 0.0
        return 1.0 - self.unmapped_addresses / self.executed_addresses

    def to_dict(self) -> dict:
        d = dict(self.__dict__)
        d["ratio"] = self.ratio
        d["mapped_share"] = self.mapped_share
        return d


def pages_of(funcs: Iterable[Function], page_size: int = PAGE_SIZE) -> set[int]:
    """Page numbers covered by the byte ranges of ``funcs``."""
    pages: set[int] = set()
    for f in funcs:
        if f.size > 0:
            pages.update(range(f.start // page_size, (f.end - 1) // page_size + 1))
    return pages


def _describe(link_addr: int, section: Optional[Section], labels: list[Function]) -> str:
    """Name an unmapped address: "SECTION:LABEL" with the closest preceding
    size-less symbol of the same section, or just "SECTION"."""
    sec_name = section.name if section else "?"
    i = bisect.bisect_right([l.start for l in labels], link_addr) - 1
    if i >= 0 and section is not None and labels[i].start >= section.addr:
        return "%s:%s" % (sec_name, labels[i].name)
    return sec_name


def compute_pages(executed: dict[int, int], binary: BinaryInfo, bias: int = 0,
                  bias_method: str = "given", page_size: int = PAGE_SIZE) -> PageReport:
    """Compute the page metric.

    ``executed`` maps executed (callgrind) addresses to their self cost;
    ``bias`` is subtracted from them to get link-time addresses.
    """
    index = FunctionIndex(binary.funcs)
    labels = sorted(binary.labels)
    hit: dict[int, Function] = {}
    unmapped_addrs = unmapped_cost = total_cost = 0
    by_section: dict[str, int] = {}
    unmapped_funcs: set[str] = set()
    for addr, cost in executed.items():
        total_cost += cost
        link_addr = addr - bias
        f = index.lookup(link_addr)
        if f is not None:
            hit[f.start] = f
            continue
        unmapped_addrs += 1
        unmapped_cost += cost
        sec = next((s for s in binary.sections if s.addr <= link_addr < s.addr + s.size), None)
        sec_name = sec.name if sec else "?"
        by_section[sec_name] = by_section.get(sec_name, 0) + 1
        unmapped_funcs.add(_describe(link_addr, sec, labels))
    executed_bytes = sum(f.size for f in hit.values())
    insn_pages = insn_bytes = block_bound = None
    if binary.insn_starts:
        insn_pages, insn_bytes = _instruction_pages(
            (a - bias for a in executed), binary.insn_starts, page_size)
        block_bound = math.ceil(insn_bytes / page_size)
    return PageReport(
        page_size=page_size,
        bias=bias,
        bias_method=bias_method,
        executed_functions=len(hit),
        executed_bytes=executed_bytes,
        pages=len(pages_of(hit.values(), page_size)),
        lower_bound=math.ceil(executed_bytes / page_size),
        executed_addresses=len(executed),
        unmapped_addresses=unmapped_addrs,
        executed_cost=total_cost,
        unmapped_cost=unmapped_cost,
        unmapped_by_section=dict(sorted(by_section.items())),
        unmapped_examples=sorted(unmapped_funcs)[:20],
        insn_pages=insn_pages,
        insn_bytes=insn_bytes,
        block_lower_bound=block_bound,
    )


# The longest x86 instruction; also the size assumed for an executed address
# that the disassembly does not list (e.g. outside every section).
_MAX_INSN = 15


def _instruction_pages(addrs: Iterable[int], insn_starts: list[int],
                       page_size: int) -> tuple[int, int]:
    """(pages, bytes) covered by the executed instructions at ``addrs``; an
    instruction's size is the distance to the next disassembled one."""
    pages: set[int] = set()
    total = 0
    for a in addrs:
        i = bisect.bisect_right(insn_starts, a)
        size = min(insn_starts[i] - a, _MAX_INSN) if i < len(insn_starts) else 1
        if size <= 0:
            size = 1
        total += size
        pages.update(range(a // page_size, (a + size - 1) // page_size + 1))
    return len(pages), total


def startup_pages(data: CallgrindData, binary_path: str, binary: BinaryInfo,
                  page_size: int = PAGE_SIZE) -> PageReport:
    """Page metric for the executable ``binary_path`` from a parsed profile."""
    obj = select_object(data, binary_path)
    bias, method = determine_bias(data, obj, binary.funcs)
    return compute_pages(data.self_cost[obj], binary, bias, method, page_size)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("callgrind", help="callgrind.out file written with --dump-instr=yes")
    ap.add_argument("binary", help="the profiled executable")
    ap.add_argument("--readelf", default="llvm-readelf", help="llvm-readelf to use")
    ap.add_argument("--objdump", default=None,
                    help="llvm-objdump to disassemble with: adds the instruction-level "
                         "figures (insn_pages, block_lower_bound)")
    ap.add_argument("--page-size", type=int, default=PAGE_SIZE)
    args = ap.parse_args(argv)
    info = read_binary(args.binary, args.readelf, args.objdump)
    report = startup_pages(read_callgrind(args.callgrind), args.binary, info, args.page_size)
    json.dump(report.to_dict(), sys.stdout, indent=2, sort_keys=True)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

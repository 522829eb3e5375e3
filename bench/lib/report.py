# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Tables and result files of the benchmark harnesses.

The table code every harness prints with (bench/run.py, strtab.py,
compile_overhead.py, distributed_thinlto.py, import_stats.py,
layout_scale.py): text_table() and markdown_table() render rows of cells
under headings, with a column alignment string ("l" left, "r" right, one
letter per column). A row shorter than the headings is a span row: its first
cell (the configuration) in the first column, then the rest of its cells as
one message (`ERROR (see below)`) that no column width is computed from.

Then bench/run.py's own report: its columns, ratios, notes, and the JSON
and markdown result files.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from .configs import REFERENCE_CONFIG, SAMPLE_SIZES
from .measure import CACHEGRIND_CACHE, EXE_NAME, FAULT_RUNS, read_ahead_kb

if TYPE_CHECKING:
    import argparse

    from .measure import Harness, Tools


# ==========================================================================
# Tables (every harness)
# ==========================================================================

def fmt_int(v: Optional[int]) -> str:
    return "n/a" if v is None else format(v, ",")


def fmt_ratio(v: Optional[float]) -> str:
    return "n/a" if v is None else "%.3f" % v


def _align(heads: Sequence[str], align: Optional[str]) -> str:
    align = align or "l" + "r" * (len(heads) - 1)
    if len(align) != len(heads) or set(align) - {"l", "r"}:
        raise ValueError("alignment %r for %d columns" % (align, len(heads)))
    return align


def text_table(heads: Sequence[str], rows: Sequence[Sequence[str]],
               align: Optional[str] = None) -> str:
    """Plain-text table: columns two spaces apart, each as wide as its
    widest cell, a dashed rule under the headings, trailing blanks cut.
    `align` defaults to the first column left, the others right."""
    align = _align(heads, align)
    full = [row for row in rows if len(row) == len(heads)]
    widths = [max([len(h)] + [len(row[i]) for row in full]) for i, h in enumerate(heads)]
    widths[0] = max([widths[0]] + [len(row[0]) for row in rows])

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if a == "l" else cell.rjust(w)
                         for cell, w, a in zip(cells, widths, align)).rstrip()

    out = [line(heads), "  ".join("-" * w for w in widths)]
    for row in rows:
        out.append(line(row) if len(row) == len(heads) else
                   "  ".join([row[0].ljust(widths[0])] + list(row[1:])))
    return "\n".join(out)


def markdown_table(heads: Sequence[str], rows: Sequence[Sequence[str]],
                   align: Optional[str] = None) -> str:
    """The same table in markdown; a span row is padded with empty cells."""
    align = _align(heads, align)
    out = ["| " + " | ".join(heads) + " |",
           "|" + "|".join(":---" if a == "l" else "---:" for a in align) + "|"]
    for row in rows:
        cells = list(row) + [""] * (len(heads) - len(row))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


# ==========================================================================
# bench/run.py's report
# ==========================================================================

COLUMNS = [
    # (heading, key in the result dict)
    ("config", None),
    ("Ir steady", "ir_steady"),
    ("vs O2", "ir_steady_vs_o2"),
    ("Ir held-out", "ir_heldout"),
    ("vs ref", "ir_heldout_vs_ref"),
    ("I1 misses", "i1_misses_steady"),
    ("vs best", "i1_vs_best_stock"),
    ("I1 held-out", "i1_misses_heldout"),
    ("vs best", "i1_heldout_vs_best_stock"),
    (".text bytes", "text_bytes"),
    ("dyn relocs (RELATIVE)", None),
    ("startup pages", "startup_pages"),
    ("lower bound", "startup_lower_bound"),
    ("pages/bound", "pages_per_bound"),
    ("block bound", "startup_block_bound"),
    ("steady pages", "steady_pages"),
    ("bound", "steady_lower_bound"),
    ("startup faults", "startup_minor_faults"),
    ("evicted: major", "startup_major_faults_evicted"),
]
HEADINGS = [c[0] for c in COLUMNS]


def add_ratios(results: list[dict], reference: Optional[str] = None) -> None:
    """Ratios against O2 (Ir steady), the best stock configuration (I1
    misses) and `reference` (Ir held-out): the run's output reference, which
    is O2 if selected and otherwise the first configuration measured, so
    that a run of PGO+ThinLTO variants compares with its stock row."""
    ok = [r for r in results if r["status"] == "ok"]
    ref = next((r for r in ok if r["name"] == REFERENCE_CONFIG), None)
    stock = [r["metrics"]["i1_misses_steady"] for r in ok if r["stock"]]
    best = min(stock) if stock else None
    href = next((r["metrics"].get("ir_heldout") for r in ok if r["name"] == reference), None)
    stock_held = [r["metrics"]["i1_misses_heldout"] for r in ok
                  if r["stock"] and r["metrics"].get("i1_misses_heldout") is not None]
    best_held = min(stock_held) if stock_held else None
    for r in ok:
        m = r["metrics"]
        m["ir_steady_vs_o2"] = m["ir_steady"] / ref["metrics"]["ir_steady"] if ref else None
        m["i1_vs_best_stock"] = m["i1_misses_steady"] / best if best else None
        held = m.get("ir_heldout")
        m["ir_heldout_vs_ref"] = held / href if held is not None and href else None
        held_i1 = m.get("i1_misses_heldout")
        m["i1_heldout_vs_best_stock"] = (held_i1 / best_held
                                         if held_i1 is not None and best_held else None)


def table_rows(results: list[dict]) -> list[list[str]]:
    """A row of cells per configuration; a configuration without figures
    gets a span row that says ERROR or `not run`."""
    rows = []
    for r in results:
        if r["status"] != "ok":
            what = "not run" if r["status"] == "skipped" else "ERROR"
            rows.append([r["name"], what + " (see below)"])
            continue
        m = r["metrics"]
        rows.append([
            r["name"],
            fmt_int(m["ir_steady"]), fmt_ratio(m["ir_steady_vs_o2"]),
            fmt_int(m.get("ir_heldout")), fmt_ratio(m.get("ir_heldout_vs_ref")),
            fmt_int(m["i1_misses_steady"]), fmt_ratio(m["i1_vs_best_stock"]),
            fmt_int(m.get("i1_misses_heldout")), fmt_ratio(m.get("i1_heldout_vs_best_stock")),
            fmt_int(m["text_bytes"]),
            "%s (%s)" % (fmt_int(m["dyn_relocs"]), fmt_int(m["dyn_relocs_relative"])),
            fmt_int(m["startup_pages"]), fmt_int(m["startup_lower_bound"]),
            fmt_ratio(m["pages_per_bound"]), fmt_int(m.get("startup_block_bound")),
            fmt_int(m["steady_pages"]), fmt_int(m["steady_lower_bound"]),
            fmt_int(m["startup_minor_faults"]), fmt_int(m["startup_major_faults_evicted"]),
        ])
    return rows


def results_text_table(results: list[dict]) -> str:
    return text_table(HEADINGS, table_rows(results))


def results_markdown_table(results: list[dict]) -> str:
    return markdown_table(HEADINGS, table_rows(results))


def heldout_table_rows(results: list[dict]) -> tuple[list[str], list[list[str]]]:
    """Headings and rows of the per-workload held-out table: Ir and I1
    misses of every held-out workload, each I1 figure with its ratio to the
    best stock configuration's on that workload. No rows when the program
    has at most one held-out workload (the main table has it)."""
    ok = [r for r in results if r["status"] == "ok"]
    names: list[str] = []
    for r in ok:
        for n in r["metrics"].get("heldout_workloads", {}):
            if n not in names:
                names.append(n)
    if len(names) < 2:
        return [], []
    best = {}
    for n in names:
        stock = [r["metrics"]["heldout_workloads"][n]["i1_misses"] for r in ok
                 if r["stock"] and n in r["metrics"].get("heldout_workloads", {})]
        best[n] = min(stock) if stock else None
    headings = ["config"]
    for n in names:
        headings += ["%s Ir" % n, "%s I1" % n, "vs best"]
    rows = []
    for r in ok:
        w = r["metrics"].get("heldout_workloads", {})
        row = [r["name"]]
        for n in names:
            f = w.get(n)
            if f is None:
                row += ["-", "-", "-"]
                continue
            row += [fmt_int(f["ir"]), fmt_int(f["i1_misses"]),
                    fmt_ratio(f["i1_misses"] / best[n] if best[n] else None)]
        rows.append(row)
    return headings, rows


def notes(results: list[dict], harness: "Harness") -> list[str]:
    """Notes printed under the table: method reminders, sanity checks, errors."""
    out = []
    for name, info in sorted(harness.training_info.items()):
        out.append("training %s: %s" % (name, info["description"]))
        if info["warnings"]:
            out.append("  compile warnings in the instrumented build: " +
                       ", ".join("%s x%d" % kv for kv in sorted(info["warnings"].items())))
    out.append("startup faults: median of %d native startup runs, minor faults with the "
               "binary cached; 'evicted: major' after POSIX_FADV_DONTNEED of the binary, "
               "under read-ahead %s KiB (a large read-ahead brings the whole binary in on "
               "the first fault)" % (FAULT_RUNS, ", ".join(
                   "%s=%d" % kv for kv in read_ahead_kb().items()) or "unknown"))
    heldout = harness.heldout_args()
    if heldout is not None:
        out.append("Ir held-out: `%s`, which no training run executes (its counts are in no "
                   "profile); vs ref = ratio to %s" % (
                       shlex.join([harness.app.exe_name] + heldout),
                       harness.reference_name or "n/a"))
    if harness.reference_name:
        out.append("program output (%s; native and under valgrind) of every measured "
                   "configuration is byte-identical to %s's" % (
                       "startup, steady, held-out" if heldout is not None else "startup, steady",
                       harness.reference_name))
    for r in results:
        if r["status"] != "ok":
            continue
        st = r["metrics"]["_details"]["startup"]
        unm = st["unmapped_addresses"]
        line = "%s: startup executed %s functions (%s bytes); %s of %s executed addresses " \
               "(%.2f%% of the executable's Ir) outside sized FUNC symbols" % (
                   r["name"], fmt_int(st["executed_functions"]), fmt_int(st["executed_bytes"]),
                   fmt_int(unm), fmt_int(st["executed_addresses"]),
                   100.0 * st["unmapped_cost"] / max(1, st["executed_cost"]))
        if unm:
            line += " [" + ", ".join(st["unmapped_examples"]) + "]"
        out.append(line)
        if r["warnings"]:
            out.append("  %s compile warnings: %s" % (
                r["name"], ", ".join("%s x%d" % kv for kv in sorted(r["warnings"].items()))))
    for r in results:
        if r["status"] == "error":
            out.append("ERROR: %s: %s" % (r["name"], r["error"]))
        elif r["status"] == "skipped":
            out.append("not run: %s: %s" % (r["name"], r["error"]))
    return out


def manifest_summary(manifest: dict) -> dict:
    """Top-level scalar entries of the generator's manifest (plus a hash)."""
    blob = json.dumps(manifest, sort_keys=True).encode()
    summary = {k: v for k, v in sorted(manifest.items())
               if isinstance(v, (str, int, float, bool)) or v is None}
    summary["sha256"] = hashlib.sha256(blob).hexdigest()
    return summary


def header(args: "argparse.Namespace", harness: "Harness", tools: "Tools") -> str:
    """The line above the table: program, scenarios, compiler."""
    if args.program == "sample":
        what = "sample-size=%s seed=%s" % (
            args.sample_size, "default" if args.seed is None else args.seed)
    else:
        what = "program=%s (Debian source)" % args.program
    exe_name = harness.app.exe_name if harness.app else EXE_NAME
    heldout = harness.heldout_args()
    return "Kiln benchmark: %s steady=`%s`%s; %s" % (
        what, shlex.join([exe_name] + harness.steady_args()),
        "" if heldout is None else " held-out=`%s`" % shlex.join([exe_name] + heldout),
        tools.version())


def write_results(args: "argparse.Namespace", argv: Optional[Sequence[str]],
                  harness: "Harness", tools: "Tools", results: list[dict],
                  title: str, note_lines: list[str], elapsed: float) -> Path:
    """results.json (or --json) and results.md; returns the JSON path."""
    work = harness.work
    json_path = Path(args.json) if args.json else work / "results.json"
    doc = {
        "schema": 1,
        "command": [os.path.basename(sys.argv[0])] + list(sys.argv[1:] if argv is None else argv),
        "sample": {
            "generator": str(args.generator),
            "size": args.sample_size,
            "generator_args": SAMPLE_SIZES[args.sample_size],
            "seed": args.seed,
            "steady_args": harness.steady_args(),
            "heldout_args": harness.heldout_args(),
            "manifest": manifest_summary(harness.app.manifest) if harness.app else None,
        },
        "toolchain": {"clang": tools.clang, "clangxx": tools.clangxx,
                      "version": tools.version(),
                      "valgrind_cache_model": CACHEGRIND_CACHE},
        "trainings": harness.training_info,
        "reference_config": harness.reference_name,
        "columns": HEADINGS,
        "configs": [],
        "notes": note_lines,
        "wall_time_s": round(elapsed, 1),
    }
    for r in results:
        r = dict(r)
        if r["metrics"]:
            r["metrics"] = dict(r["metrics"])
            r["details"] = r["metrics"].pop("_details")
        doc["configs"].append(r)
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(doc, indent=2, sort_keys=False) + "\n")

    md = ["# Kiln benchmark results", "", title, "", results_markdown_table(results), ""]
    held_heads, held_rows = heldout_table_rows(results)
    if held_rows:
        md += [markdown_table(held_heads, held_rows), ""]
    md += ["- " + n.strip() for n in note_lines]
    md += ["", "## Build and run wall times (informational, seconds)", "",
           "| step | " + " | ".join(r["name"] for r in results) + " |",
           "|:---|" + "---:|" * len(results)]
    steps = sorted({k for r in results for k in r["times"]})
    for k in steps:
        md.append("| %s | %s |" % (k, " | ".join(
            "%.1f" % r["times"][k] if k in r["times"] else "" for r in results)))
    for name, info in sorted(harness.training_info.items()):
        md.append("")
        md.append("Training `%s`: " % name + ", ".join(
            "%s %.1f" % kv for kv in info["times"].items()))
    (work / "results.md").write_text("\n".join(md) + "\n")
    return json_path

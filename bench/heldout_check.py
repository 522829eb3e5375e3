#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The held-out check: the guided flow's defaults against the best stock
PGO pipeline on every held-out workload of the benchmark corpus.

For each program of the corpus (the sample application, zstd, expat's xmlwf
built by its autotools, Lua's interpreter, SQLite's shell, and two C++
programs built by their CMake builds: jsoncpp's test runner and ninja, and
git, 2.4 to 3.7 MB of code, by its Makefile), runs
bench/pgo_flow.py with the flow's defaults (`kiln pgo optimize` with no
switch) and the stock pipelines from the same training (`--references`,
default all: IR PGO + ThinLTO, front-end PGO + ThinLTO, IR PGO + CSPGO +
ThinLTO, lld's balanced partitioning, BOLT on the IR and on the front-end
PGO program), and compares the callgrind instruction count (Ir) of each
held-out workload, runs of work no training run does, with the best stock
row of that workload: of every row but the flow's (`kiln pgo ...`), the one
with the lowest Ir in all. It fails (exit status 1) when

  * a workload's Ir ratio (flow / best stock row) is above --max-ratio
    (default 1.001: 1.000x plus 0.1% of noise) both for the program's own
    code and for all its instructions (the C library's included), or the
    ratio of all its instructions is above --max-total-ratio (default
    1.003). Both ratios are against the same row. Work moves between the
    two: a memory intrinsic the compiler specializes by size runs inline in
    the program's own code instead of in the C library's memcpy or bcmp
    (Lua's heldout-patterns: own code 1.0012x, in all 0.9988x, with 43,800
    fewer instructions in memcpy), and one it does not specialize the other
    way; in a C++ program the libstdc++ templates a build inlines move into
    its own code (jsoncpp's heldout-comments: own code 1.085x, in all
    0.956x), so the own-code ratio alone bounds nothing; a transform's cost
    raises both;
  * the flow's held-out Ir in all, summed over the program's held-out
    workloads, is above --max-sum-ratio (default 1.001) times the sum of
    each workload's best stock Ir;
  * with --i1 (the default when the results have a BOLT or balanced
    partitioning row; --no-i1 turns it off; --i1 without such a row is a
    failure), the flow's held-out I1 misses (cachegrind's simulated I1),
    summed over the workloads, are above the lowest such sum of those rows
    times 1 + --i1-tolerance (default 0);
  * with --baseline FILE (bench/heldout-baseline.json: the ratios measured
    when the defaults were last set), a workload's two ratios are both more
    than --tolerance (default 0.001) above their recorded ones: a change
    that raises held-out Ir fails the check even where the ratios stay
    below the bound;

or when a program's outputs differ or its benchmark fails. It is a benchmark
check, run by hand or by a benchmark job, not a timed test: every figure it
compares is a deterministic count.

  python3 bench/heldout_check.py [--programs sample,zstd,...] [--work-dir DIR]
                                 [--references all|fe,cs,bp,bolt,fe-bolt]
                                 [--baseline FILE] [--write-baseline FILE]
                                 [--max-ratio R] [--max-total-ratio R]
                                 [--max-sum-ratio R] [--i1 | --no-i1]
                                 [--i1-tolerance T] [--tolerance T] [--jobs N]

--write-baseline FILE records the measured ratios against the best stock
row (the file is written through a temporary renamed into place).
--results PROGRAM=FILE,... judges pgo_flow.py results already measured
(their `kiln pgo` row, the default, against the stock rows they have: a
file with only the IR PGO row is judged against that row) instead of
running the benchmark.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))
import pgo_flow  # noqa: E402

CORPUS = ("sample", "zstd", "expat-autotools", "lua", "sqlite", "jsoncpp", "ninja", "git",
          "gawk")
STOCK_ROW = pgo_flow.STOCK_ROW
FLOW_ROW = pgo_flow.FLOW_PREFIX


def best_rows(results: dict) -> dict[str, str]:
    """The best stock row of each held-out workload of one program's
    pgo_flow.py results: of every row but the flow's, the one with the
    lowest Ir in all (pgo_flow.best_stock_rows)."""
    return pgo_flow.best_stock_rows(results)


def ratios(results: dict, key: str = "ir_heldout_each") -> dict[str, float]:
    """Ir ratio (flow / best stock row) of each held-out workload of one
    program's pgo_flow.py results: of all the program's instructions, or
    with key="ir_heldout_own_each" of its own code's, both against the row
    best_rows() picks (by Ir in all)."""
    flow = results[FLOW_ROW]
    return {m: flow[key][m] / results[row][key][m]
            for m, row in sorted(best_rows(results).items())}


def ir_ratios(results: dict) -> dict[str, float]:
    """Ir ratio in all (flow / stock IR PGO + ThinLTO) of each held-out
    workload: the first row's, shown beside the best."""
    stock, flow = results[STOCK_ROW], results[FLOW_ROW]
    return {m: flow["ir_heldout_each"][m] / stock["ir_heldout_each"][m]
            for m in sorted(stock["ir_heldout_each"])}


def judge(measured: dict[str, dict[str, float]], baseline: dict | None,
          max_ratio: float, tolerance: float,
          totals: dict[str, dict[str, float]] | None = None,
          max_total_ratio: float = 1.003,
          best: dict[str, dict[str, str]] | None = None) -> list[str]:
    """The failures of the check's per-workload rules. Each held-out
    workload has two ratios against its best stock row (\\p best: program ->
    workload -> row name, STOCK_ROW where not given): of the program's own
    code (\\p measured) and of all its instructions (\\p totals). Work moves
    between the two: a memory intrinsic the compiler specializes by size
    runs inline in the program's own code rather than in the C library's
    memcpy or bcmp, so the two ratios move in opposite directions by up to
    0.3%, and in C++ the libstdc++ templates a build inlines by far more.
    A transform's cost moves both. So a workload fails when both ratios are
    above \\p max_ratio, when the ratio in all is above \\p max_total_ratio,
    or when both are more than \\p tolerance above their baseline ratios; and
    a workload the baseline has must be measured. \\p baseline maps program
    -> workload -> {"own": ratio, "all": ratio}."""
    failures = []
    totals = totals if totals is not None else measured
    for program, workloads in sorted(measured.items()):
        for mode, own in sorted(workloads.items()):
            whole = totals.get(program, {}).get(mode, own)
            row = (best or {}).get(program, {}).get(mode, STOCK_ROW)
            where = "%s %s: Ir %.4fx %s (the best stock row) in the program's own code, " \
                    "%.4fx in all" % (program, mode, own, row, whole)
            if own > max_ratio and whole > max_ratio:
                failures.append("%s, both above %.4f" % (where, max_ratio))
            elif whole > max_total_ratio:
                failures.append("%s, above %.4f" % (where, max_total_ratio))
            recorded = (baseline or {}).get(program, {}).get(mode)
            if recorded and own > recorded["own"] + tolerance \
                    and whole > recorded["all"] + tolerance:
                failures.append("%s, both more than %.4f above the baseline's %.4fx and %.4fx"
                                % (where, tolerance, recorded["own"], recorded["all"]))
        for mode in sorted(set((baseline or {}).get(program, {})) - set(workloads)):
            failures.append("%s %s: in the baseline, not measured" % (program, mode))
    return failures


def judge_sums(sums: dict[str, float], max_sum_ratio: float) -> list[str]:
    """The failures of the sum rule: \\p sums maps program -> the flow's
    held-out Ir in all summed over its workloads / the sum of each
    workload's best stock Ir."""
    return ["%s: held-out Ir summed over the workloads %.4fx the best stock row's of each, "
            "above %.4f" % (program, ratio, max_sum_ratio)
            for program, ratio in sorted(sums.items()) if ratio > max_sum_ratio]


def judge_i1(i1: dict[str, dict | None], tolerance: float) -> list[str]:
    """The failures of the I1 rule: \\p i1 maps program -> pgo_flow.best_stock()'s
    "i1" entry (the flow's summed held-out I1 misses and the lowest of the
    stock layout rows), or None when the program's results have no such
    row (a failure: the rule was asked for)."""
    failures = []
    for program, entry in sorted(i1.items()):
        if entry is None:
            failures.append("%s: no BOLT or balanced partitioning row to judge the held-out "
                            "I1 misses against" % program)
        elif entry["flow_misses"] > entry["misses"] * (1 + tolerance):
            failures.append("%s: held-out I1 misses {:,}, %.4fx %s's {:,} (the lowest of %s), "
                            "above %.4f".format(entry["flow_misses"], entry["misses"])
                            % (program, entry["ratio"], entry["row"], ", ".join(entry["rows"]),
                               1 + tolerance))
    return failures


def i1_wanted(flag: bool | None, results: dict) -> bool:
    """Whether the I1 rule judges \\p results: --i1 / --no-i1, else whether
    they have a stock layout row (BOLT, lld's balanced partitioning)."""
    if flag is not None:
        return flag
    return any(name in pgo_flow.LAYOUT_ROWS for name in results)


def write_json(path: Path, data: dict) -> None:
    """Writes through a temporary file renamed into place."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--programs", default=",".join(CORPUS),
                    help="comma-separated programs (default: %s)" % ",".join(CORPUS))
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "heldout-check"))
    ap.add_argument("--kiln-bin", default=str(REPO_DIR / "build" / "bin"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--references", default="all",
                    help="pgo_flow.py's --references: the stock rows besides IR PGO + "
                         "ThinLTO (default all; comma-separated among %s)"
                         % ", ".join(pgo_flow.REFERENCE_ROWS))
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--write-baseline", type=Path)
    ap.add_argument("--max-ratio", type=float, default=1.001)
    ap.add_argument("--max-total-ratio", type=float, default=1.003)
    ap.add_argument("--max-sum-ratio", type=float, default=1.001)
    ap.add_argument("--i1", action=argparse.BooleanOptionalAction, default=None,
                    help="judge the summed held-out I1 misses against the BOLT and "
                         "balanced partitioning rows (default: when the results have one)")
    ap.add_argument("--i1-tolerance", type=float, default=0.0)
    ap.add_argument("--tolerance", type=float, default=0.001)
    ap.add_argument("--results", default="",
                    help="comma-separated PROGRAM=results.json of pgo_flow.py runs to judge "
                         "instead of running them")
    args = ap.parse_args(argv)
    try:
        pgo_flow.parse_references(args.references)
    except ValueError as e:
        ap.error("--references: %s" % e)
    given = {}
    for item in (i for i in args.results.split(",") if i):
        program, sep, path = item.partition("=")
        if not sep or not path:
            ap.error("--results: %r is not PROGRAM=FILE" % item)
        given[program] = Path(path)
    chosen = sorted(given) if given else [p for p in args.programs.split(",") if p]
    unknown = [p for p in chosen if p not in CORPUS]
    if unknown or not chosen:
        ap.error("--programs: unknown %s (valid: %s)" % (", ".join(unknown) or "(none)",
                                                        ", ".join(CORPUS)))
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    work = Path(args.work_dir).resolve()
    measured, totals, best, vs_ir, summaries, i1, failures = {}, {}, {}, {}, {}, {}, []
    for program in chosen:
        if program in given:
            data = json.loads(given[program].read_text())
        else:
            pwork = work / program
            cmd = [sys.executable, str(BENCH_DIR / "pgo_flow.py"), "--program", program,
                   "--work-dir", str(pwork), "--kiln-bin", args.kiln_bin,
                   "--jobs", str(args.jobs), "--variants", "default",
                   "--references", args.references]
            print("heldout_check: %s" % " ".join(cmd), file=sys.stderr, flush=True)
            proc = subprocess.run(cmd)
            results_file = pwork / "results.json"
            if proc.returncode or not results_file.is_file():
                failures.append("%s: bench/pgo_flow.py failed (exit status %d; outputs that "
                                "differ fail it too)" % (program, proc.returncode))
                continue
            data = json.loads(results_file.read_text())
        measured[program] = ratios(data, "ir_heldout_own_each")
        totals[program] = ratios(data)
        best[program] = best_rows(data)
        vs_ir[program] = ir_ratios(data)
        summaries[program] = pgo_flow.best_stock(data, FLOW_ROW)
        if i1_wanted(args.i1, data):
            i1[program] = summaries[program]["i1"]
    failures += judge(measured, baseline, args.max_ratio, args.tolerance, totals,
                      args.max_total_ratio, best)
    failures += judge_sums({p: s["sum"]["ratio"] for p, s in summaries.items()},
                           args.max_sum_ratio)
    failures += judge_i1(i1, args.i1_tolerance)
    print("| program | held-out workload | best stock row | own Ir, kiln pgo / best "
          "| baseline (own / in all) | Ir in all, kiln pgo / best "
          "| Ir in all, kiln pgo / %s |" % STOCK_ROW)
    print("|:---|:---|:---|---:|---:|---:|---:|")
    for program, workloads in sorted(measured.items()):
        for mode, ratio in sorted(workloads.items()):
            recorded = (baseline or {}).get(program, {}).get(mode)
            print("| %s | %s | %s | %.4f | %s | %.4f | %.4f |" % (
                program, mode, best[program][mode], ratio,
                "%.4f / %.4f" % (recorded["own"], recorded["all"]) if recorded else "-",
                totals[program][mode], vs_ir[program][mode]))
        total = summaries[program]["sum"]
        print("| %s | sum | (best of each workload) | | | %.4f | |" % (program, total["ratio"]))
    for program, entry in sorted(summaries.items()):
        entry = entry["i1"]
        if entry:
            print("heldout_check: %s: held-out I1 misses, kiln pgo {:,}, %.4fx %s's {:,} (the "
                  "lowest of %s)%s".format(entry["flow_misses"], entry["misses"]) % (
                      program, entry["ratio"], entry["row"], ", ".join(entry["rows"]),
                      "" if program in i1 else "; not judged (--no-i1)"))
    if args.write_baseline:
        write_json(args.write_baseline.resolve(),
                   {p: {m: {"own": r, "all": totals[p][m]} for m, r in w.items()}
                    for p, w in measured.items()})
    for f in failures:
        print("heldout_check: FAIL %s" % f)
    print("heldout_check: %s" % ("%d failure(s)" % len(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

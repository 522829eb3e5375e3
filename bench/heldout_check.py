#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The held-out check: the guided flow's defaults against stock PGO + ThinLTO
on every held-out workload of the benchmark corpus.

For each program of the corpus (the sample application, zstd, expat's xmlwf
built by its autotools, Lua's interpreter and SQLite's shell), runs
bench/pgo_flow.py with the flow's defaults (`kiln pgo optimize` with no
switch) and stock PGO + ThinLTO from the same training, and compares the
callgrind instruction count (Ir) of each held-out workload: runs of work no
training run does. It fails (exit status 1) when

  * a workload's Ir ratio (flow / stock) is above --max-ratio (default
    1.001: 1.000x plus 0.1% of noise) both for the program's own code and
    for all its instructions (the C library's included), or either is above
    --max-total-ratio (default 1.003). Work moves between the two: a
    memory intrinsic the compiler specializes by size runs inline in the
    program's own code instead of in the C library's memcpy or bcmp (Lua's
    heldout-patterns: own code 1.0012x, in all 0.9988x, with 43,800 fewer
    instructions in memcpy), and one it does not specialize the other way;
    a transform's cost raises both;
  * with --baseline FILE (bench/heldout-baseline.json: the ratios measured
    when the defaults were last set), a workload's two ratios are both more
    than --tolerance (default 0.001) above their recorded ones: a change
    that raises held-out Ir fails the check even where the ratios stay
    below the bound;

or when a program's outputs differ or its benchmark fails. It is a benchmark
check, run by hand or by a benchmark job, not a timed test: every figure it
compares is a deterministic count.

  python3 bench/heldout_check.py [--programs sample,zstd,...] [--work-dir DIR]
                                 [--baseline FILE] [--write-baseline FILE]
                                 [--max-ratio R] [--max-total-ratio R]
                                 [--tolerance T] [--jobs N]

--write-baseline FILE records the measured own-code ratios (the file is written
through a temporary renamed into place). --results PROGRAM=FILE,... judges
pgo_flow.py results already measured (their `kiln pgo` row, the default)
instead of running the benchmark. About 70 minutes for the corpus on 2
cores.
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
CORPUS = ("sample", "zstd", "expat-autotools", "lua", "sqlite")
STOCK_ROW = "stock PGO+ThinLTO"
FLOW_ROW = "kiln pgo"


def ratios(results: dict, key: str = "ir_heldout_each") -> dict[str, float]:
    """Ir ratio (flow / stock) of each held-out workload of one program's
    pgo_flow.py results: of all the program's instructions, or with
    key="ir_heldout_own_each" of its own code's."""
    stock, flow = results[STOCK_ROW], results[FLOW_ROW]
    return {m: flow[key][m] / stock[key][m] for m in sorted(stock[key])}


def judge(measured: dict[str, dict[str, float]], baseline: dict | None,
          max_ratio: float, tolerance: float,
          totals: dict[str, dict[str, float]] | None = None,
          max_total_ratio: float = 1.003) -> list[str]:
    """The failures of the check. Each held-out workload has two ratios:
    of the program's own code (\p measured) and of all its instructions
    (\p totals). Work moves between the two: a memory intrinsic the
    compiler specializes by size runs inline in the program's own code
    rather than in the C library's memcpy or bcmp, so the two ratios move
    in opposite directions by up to 0.3%. A transform's cost moves both. So a workload fails when both ratios are above
    \p max_ratio, when either is above \p max_total_ratio, or when both are
    more than \p tolerance above their baseline ratios; and a workload the
    baseline has must be measured. \p baseline maps program -> workload ->
    {"own": ratio, "all": ratio}."""
    failures = []
    totals = totals if totals is not None else measured
    for program, workloads in sorted(measured.items()):
        for mode, own in sorted(workloads.items()):
            whole = totals.get(program, {}).get(mode, own)
            where = "%s %s: Ir %.4fx stock PGO + ThinLTO in the program's own code, %.4fx in all" % (
                program, mode, own, whole)
            if own > max_ratio and whole > max_ratio:
                failures.append("%s, both above %.4f" % (where, max_ratio))
            elif max(own, whole) > max_total_ratio:
                failures.append("%s, above %.4f" % (where, max_total_ratio))
            recorded = (baseline or {}).get(program, {}).get(mode)
            if recorded and own > recorded["own"] + tolerance \
                    and whole > recorded["all"] + tolerance:
                failures.append("%s, both more than %.4f above the baseline's %.4fx and %.4fx"
                                % (where, tolerance, recorded["own"], recorded["all"]))
        for mode in sorted(set((baseline or {}).get(program, {})) - set(workloads)):
            failures.append("%s %s: in the baseline, not measured" % (program, mode))
    return failures


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
    ap.add_argument("--baseline", type=Path)
    ap.add_argument("--write-baseline", type=Path)
    ap.add_argument("--max-ratio", type=float, default=1.001)
    ap.add_argument("--max-total-ratio", type=float, default=1.003)
    ap.add_argument("--tolerance", type=float, default=0.001)
    ap.add_argument("--results", default="",
                    help="comma-separated PROGRAM=results.json of pgo_flow.py runs to judge "
                         "instead of running them")
    args = ap.parse_args(argv)
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
    measured, totals, failures = {}, {}, []
    for program in chosen:
        if program in given:
            data = json.loads(given[program].read_text())
            measured[program] = ratios(data, "ir_heldout_own_each")
            totals[program] = ratios(data)
            continue
        pwork = work / program
        cmd = [sys.executable, str(BENCH_DIR / "pgo_flow.py"), "--program", program,
               "--work-dir", str(pwork), "--kiln-bin", args.kiln_bin,
               "--jobs", str(args.jobs), "--variants", "default"]
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
    failures += judge(measured, baseline, args.max_ratio, args.tolerance, totals,
                      args.max_total_ratio)
    print("| program | held-out workload | own Ir, kiln pgo / stock PGO+ThinLTO "
          "| baseline (own / in all) | Ir in all |")
    print("|:---|:---|---:|---:|---:|")
    for program, workloads in sorted(measured.items()):
        for mode, ratio in sorted(workloads.items()):
            recorded = (baseline or {}).get(program, {}).get(mode)
            print("| %s | %s | %.4f | %s | %.4f |" % (
                program, mode, ratio,
                "%.4f / %.4f" % (recorded["own"], recorded["all"]) if recorded else "-",
                totals[program][mode]))
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

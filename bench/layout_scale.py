#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Scale benchmark of Kiln's layout engine, beside lld's own sort.

Writes a synthetic call graph (default 1,000,000 functions, 5,000,000 call
edges; callees Zipf-distributed, counts heavy-tailed, all deterministic for
the seed) as an lld edge list, then measures wall time, CPU time (user +
system) and peak memory of:

  kiln order --edges=<list> --algorithm=kiln|c3   (edge list alone: the
                                                   functions are its names)
  ld.lld --call-graph-ordering-file=<list> --call-graph-profile-sort=hfsort
         on objects that define every function in its own section, minus the
         same link without the ordering (lld's sorting cost), with --lld.

--runs N measures each kiln run N times (the machine may be shared: CPU time
varies less than wall time); --phases also prints kiln's --time-phases table
of each run; --reuse-graph keeps an edge list written earlier with the same
parameters (writing it takes about a minute).

Usage: layout_scale.py [--functions N] [--edges N] [--seed S] [--lld]
                       [--runs N] [--phases] [--reuse-graph]
                       [--work-dir DIR] [--kiln-bin DIR]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import report  # noqa: E402
from lib.common import DEFAULT_LLVM_BIN, REPO_DIR  # noqa: E402

LLVM_BIN = Path(DEFAULT_LLVM_BIN)

# Run a command and print its peak RSS (KiB) and CPU seconds as the last
# stdout line: the parent's RUSAGE_CHILDREN would mix in every earlier child.
# The command's stderr is passed through (kiln's --time-phases table).
MEASURE = ("import resource, subprocess, sys\n"
           "r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
           "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
           "print(u.ru_maxrss, u.ru_utime + u.ru_stime)\n"
           "sys.exit(r.returncode)\n")


def log(msg: str) -> None:
    print("layout-scale: " + msg, file=sys.stderr, flush=True)


def write_graph(path: Path, functions: int, edges: int, seed: int) -> None:
    """A Zipf-like call graph: a few callees take most calls, as in real
    programs; counts are heavy-tailed. Duplicate pairs are kept (lld and
    Kiln both sum them)."""
    rng = random.Random(seed)
    # Callee popularity ~ 1/rank over a random permutation of the functions.
    weights = [1.0 / (r + 1) for r in range(functions)]
    callees = rng.choices(range(functions), weights=weights, k=edges)
    perm = list(range(functions))
    rng.shuffle(perm)
    with path.open("w") as f:
        for callee in callees:
            caller = rng.randrange(functions)
            count = int(rng.paretovariate(1.2) * 10)
            f.write("f%d f%d %d\n" % (caller, perm[callee], count))


def measure(cmd: list[str]) -> tuple[float, float, int, str]:
    """Wall seconds, CPU seconds, peak RSS (MiB) and stderr of cmd."""
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", MEASURE] + cmd,
                          capture_output=True, text=True)
    elapsed = time.monotonic() - t0
    if proc.returncode != 0:
        raise SystemExit("layout-scale: failed (%d): %s\n%s" % (
            proc.returncode, " ".join(cmd), proc.stderr[-2000:]))
    maxrss, cpu = proc.stdout.split()[-2:]
    return elapsed, float(cpu), int(maxrss) // 1024, proc.stderr


def graph_is_current(graph: Path, params: dict) -> bool:
    """Whether graph was written with params (recorded next to it)."""
    stamp = graph.with_suffix(".json")
    try:
        return graph.exists() and json.loads(stamp.read_text()) == params
    except (OSError, ValueError):
        return False


def write_objects(work: Path, functions: int, per_object: int, jobs: int) -> list[Path]:
    """Objects defining f0..f<n-1>, each function in its own section."""
    def one(index: int) -> Path:
        asm = work / ("fns%d.s" % index)
        obj = work / ("fns%d.o" % index)
        lo, hi = index * per_object, min(functions, (index + 1) * per_object)
        with asm.open("w") as f:
            for i in range(lo, hi):
                f.write('.section .text.f%d,"ax",@progbits\n.globl f%d\nf%d:\nret\n' % (i, i, i))
        subprocess.run([str(LLVM_BIN / "llvm-mc"), "-filetype=obj", "-triple=x86_64",
                        str(asm), "-o", str(obj)], check=True)
        asm.unlink()
        return obj
    count = (functions + per_object - 1) // per_object
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, range(count)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--functions", type=int, default=1_000_000)
    ap.add_argument("--edges", type=int, default=5_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lld", action="store_true",
                    help="also measure lld's --call-graph-ordering-file sort")
    ap.add_argument("--runs", type=int, default=1,
                    help="measure each kiln run this many times")
    ap.add_argument("--phases", action="store_true",
                    help="print kiln order --time-phases of each run")
    ap.add_argument("--reuse-graph", action="store_true",
                    help="keep an edge list written with the same parameters")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "layout-scale"))
    ap.add_argument("--kiln-bin", default=str(REPO_DIR / "build" / "bin"))
    args = ap.parse_args()

    work = Path(args.work_dir)
    work.mkdir(parents=True, exist_ok=True)
    graph = work / "edges.txt"
    params = {"functions": args.functions, "edges": args.edges, "seed": args.seed}
    if args.reuse_graph and graph_is_current(graph, params):
        log("reusing %s" % graph)
    else:
        log("writing %d functions / %d edges to %s" % (args.functions, args.edges, graph))
        write_graph(graph, args.functions, args.edges, args.seed)
        graph.with_suffix(".json").write_text(json.dumps(params) + "\n")

    kiln = str(Path(args.kiln_bin) / "kiln")
    results = dict(params, runs=[])
    for algorithm in ("kiln", "c3"):
        for run in range(args.runs):
            log("kiln order --algorithm=%s (run %d)" % (algorithm, run + 1))
            cmd = [kiln, "order", "--edges=%s" % graph, "--algorithm=%s" % algorithm,
                   "-o", str(work / ("kiln-%s.order" % algorithm))]
            if args.phases:
                cmd.append("--time-phases")
            secs, cpu, mib, err = measure(cmd)
            if args.phases:
                sys.stderr.write(err[err.find("kiln order: phase times"):])
            results["runs"].append({"tool": "kiln order --algorithm=" + algorithm,
                                    "seconds": round(secs, 2),
                                    "cpu_seconds": round(cpu, 2), "peak_mib": mib})

    if args.lld:
        log("assembling objects for lld")
        objects = write_objects(work, args.functions, 20000, args.jobs)
        base = [str(LLVM_BIN / "ld.lld"), "-e", "f0", "-o", str(work / "a.out")] + \
               [str(o) for o in objects]
        secs0, cpu0, mib0, _ = measure(base + ["--call-graph-profile-sort=none"])
        secs1, cpu1, mib1, _ = measure(base + ["--call-graph-ordering-file=%s" % graph,
                                               "--call-graph-profile-sort=hfsort"])
        results["runs"].append({"tool": "ld.lld link, no ordering", "seconds": round(secs0, 2),
                                "cpu_seconds": round(cpu0, 2), "peak_mib": mib0})
        results["runs"].append({"tool": "ld.lld link, --call-graph-ordering-file + hfsort",
                                "seconds": round(secs1, 2), "cpu_seconds": round(cpu1, 2),
                                "peak_mib": mib1,
                                "sort_seconds_estimate": round(secs1 - secs0, 2)})

    print(report.text_table(["run", "seconds", "CPU s", "peak MiB"],
                            [[r["tool"], "%.2f" % r["seconds"], "%.2f" % r["cpu_seconds"],
                              "%d" % r["peak_mib"]] for r in results["runs"]]))
    (work / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

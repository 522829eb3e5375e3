#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The guided flow (`kiln pgo`) on the sample application, against stock PGO.

Generates the sample application (bench/sample-app/generate.py) with a plain
Makefile of its own (C with -std=c11, C++ with -std=c++17, linked by $(CXX)),
then builds it twice from clean copies:

  flow   kiln pgo instrument -- make -jN
         kiln pgo run --scenario=startup -- ./kiln-sample startup
         kiln pgo run --scenario=steady  -- ./kiln-sample steady
         kiln pgo optimize -- make -jN
  stock  the same Makefile with CC=clang CXX=clang++: -O2 -fprofile-generate
         -ftemporal-profile, the same two runs, llvm-profdata merge, then
         -O2 -flto=thin -fprofile-use linked by ld.lld (its default
         call-graph sort, cdsort): stock LLVM 22 PGO + ThinLTO

and measures each optimized program as bench/run.py does (lib/pages.py):
startup pages (distinct 4 KiB pages of functions the startup run executed)
and their lower bound, steady-state pages, Ir of the steady run and of a
held-out run no training executes (`mixed --input-seed 2`; callgrind),
.text bytes; the programs' outputs must be identical. It also reports each
build's CPU time (user + sys of every process the build waited for), so
that the flow's own cost (the wrapper, the profile handling) shows against
the same build without it: the instrument phases compile with the same
flags.

  python3 bench/pgo_flow.py [--work-dir DIR] [--jobs N] [--sample-size tiny]
                            [--overhead-rounds N]

Prints a markdown table; results.json in the work directory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import pages  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
EXE = "kiln-sample"
SAMPLE_SIZES = {"tiny": ["--functions", "300", "--tus", "8"], "default": []}
SCENARIOS = {"startup": ["startup"], "steady": ["steady"]}
# Measured as well, never trained: the held-out workload (other root
# functions and other input data than the training's; bench/lib/configs.py).
MEASURED = dict(SCENARIOS, heldout=["mixed", "--input-seed", "2"])


def log(msg: str) -> None:
    print("pgo_flow: " + msg, file=sys.stderr, flush=True)


class Step(Exception):
    pass


def run(cmd, cwd: Path, log_file: Path, env=None, stdin=None) -> tuple[subprocess.CompletedProcess, float, float]:
    """Runs cmd; returns (result, wall s, CPU s of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, capture_output=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    log_file.write_bytes(b"$ " + " ".join(map(str, cmd)).encode() + b"\n" + proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise Step("%s failed (exit status %d); see %s" % (cmd[0], proc.returncode, log_file))
    return proc, wall, cpu


def write_makefile(app: Path, sources: list[str]) -> None:
    objs = ["obj/%s.o" % s for s in sources]
    lines = [
        "# Written by bench/pgo_flow.py: a plain Makefile, as a project has one.",
        "EXTRA =",
        "LDEXTRA =",
        "OBJS = " + " ".join(objs),
        "%s: $(OBJS)" % EXE,
        "\t$(CXX) -O2 $(EXTRA) $(LDEXTRA) $(OBJS) -o $@",
        "obj/%.c.o: %.c",
        "\t@mkdir -p $(dir $@)",
        "\t$(CC) -std=c11 -O2 -Isrc $(EXTRA) -c $< -o $@",
        "obj/%.cpp.o: %.cpp",
        "\t@mkdir -p $(dir $@)",
        "\t$(CXX) -std=c++17 -O2 -Isrc $(EXTRA) -c $< -o $@",
        "",
    ]
    (app / "Makefile").write_text("\n".join(lines))


def measure(exe: Path, work: Path, tools: dict, name: str) -> dict:
    """Runs both scenarios natively and under callgrind from one directory
    (the same path length for every program) and counts pages."""
    stage = work / "run"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    staged = stage / EXE
    shutil.copy2(exe, staged)
    logs = work / "logs" / name
    outputs = {}
    for mode, args in MEASURED.items():
        proc, _, _ = run(["./" + EXE] + args, stage, logs / ("run-%s.log" % mode))
        outputs[mode] = proc.stdout
    for mode, args in MEASURED.items():
        out = logs / ("callgrind.%s.out" % mode)
        proc, _, _ = run([tools["valgrind"], "--tool=callgrind", "--dump-instr=yes",
                          "--callgrind-out-file=%s" % out, "./" + EXE] + args,
                         stage, logs / ("callgrind-%s.log" % mode))
        if proc.stdout != outputs[mode]:
            raise Step("[%s] output under valgrind differs from the native run" % name)
    info = pages.read_binary(str(staged), tools["readelf"], tools["objdump"])
    startup = pages.startup_pages(pages.read_callgrind(str(logs / "callgrind.startup.out")),
                                  str(staged), info)
    steady_cg = pages.read_callgrind(str(logs / "callgrind.steady.out"))
    steady = pages.startup_pages(steady_cg, str(staged), info)
    size = subprocess.run([tools["size"], "-A", str(staged)], capture_output=True,
                          text=True, check=True).stdout
    text = sum(int(line.split()[1]) for line in size.splitlines()
               if line.startswith(".text"))
    return {"outputs": {m: o.decode(errors="replace") for m, o in outputs.items()},
            "ir_steady": steady_cg.total("Ir"),
            "ir_heldout": pages.read_callgrind(
                str(logs / "callgrind.heldout.out")).total("Ir"),
            "startup_pages": startup.pages,
            "startup_lower_bound": startup.lower_bound, "steady_pages": steady.pages,
            "steady_lower_bound": steady.lower_bound, "text_bytes": text}


def flow(src: Path, work: Path, args, tools: dict) -> dict:
    app = work / "flow"
    shutil.copytree(src, app)
    kiln = str(Path(args.kiln_bin) / "kiln")
    logs = work / "logs" / "flow"
    make = ["make", "-j%d" % args.jobs]
    times = {}
    log("flow: kiln pgo instrument -- make")
    _, times["instrument_wall_s"], times["instrument_cpu_s"] = run(
        [kiln, "pgo", "instrument", "--"] + make, app, logs / "instrument.log")
    for mode, margs in SCENARIOS.items():
        log("flow: kiln pgo run --scenario=%s" % mode)
        _, times["run_%s_wall_s" % mode], times["run_%s_cpu_s" % mode] = run(
            [kiln, "pgo", "run", "--scenario=" + mode, "--", "./" + EXE] + margs, app,
            logs / ("run-%s.log" % mode))
    log("flow: kiln pgo optimize -- make")
    _, times["optimize_wall_s"], times["optimize_cpu_s"] = run(
        [kiln, "pgo", "optimize", "--"] + make, app, logs / "optimize.log")
    # kiln pgo optimize writes kiln report's page at its end: say where.
    report = app / ".kiln" / "report" / "report.html"
    if report.exists():
        log("flow: kiln report: %s" % report)
    status, _, _ = run([kiln, "pgo", "status"], app, logs / "status.log")
    (work / "flow-status.txt").write_bytes(status.stdout)
    return {"exe": app / EXE, "times": times}


def stock(src: Path, work: Path, args, tools: dict) -> dict:
    app = work / "stock"
    shutil.copytree(src, app)
    logs = work / "logs" / "stock"
    raw = app / "raw"
    make = ["make", "-j%d" % args.jobs, "CC=" + tools["clang"], "CXX=" + tools["clangxx"]]
    times = {}
    gen = "-fprofile-generate=%s -ftemporal-profile" % raw
    log("stock: instrumented build")
    _, times["instrument_wall_s"], times["instrument_cpu_s"] = run(
        make + ["EXTRA=" + gen, "LDEXTRA=-fuse-ld=%s" % tools["ldlld"]], app,
        logs / "instrument.log")
    raws = []
    for mode, margs in SCENARIOS.items():
        env = dict(os.environ, LLVM_PROFILE_FILE=str(raw / ("%s-%%p-%%m.profraw" % mode)))
        run(["./" + EXE] + margs, app, logs / ("run-%s.log" % mode), env=env)
    raws = sorted(str(p) for p in raw.glob("*.profraw"))
    merged = app / "merged.profdata"
    run([tools["profdata"], "merge", "-o", str(merged)] + raws, app, logs / "merge.log")
    for o in (app / "obj").rglob("*.o"):
        o.unlink()
    (app / EXE).unlink()
    log("stock: PGO + ThinLTO build")
    _, times["optimize_wall_s"], times["optimize_cpu_s"] = run(
        make + ["EXTRA=-flto=thin -fprofile-use=%s" % merged,
                "LDEXTRA=-fuse-ld=%s" % tools["ldlld"]], app, logs / "optimize.log")
    return {"exe": app / EXE, "times": times}


def overhead(src: Path, work: Path, args, tools: dict) -> list[float]:
    """The flow's own cost: the instrumented build through `kiln pgo
    instrument` (wrapper, logging, manifest) against the same build with the
    same flags by plain make, interleaved (the order alternates per round).
    Returns the per-round CPU ratios."""
    kiln = str(Path(args.kiln_bin) / "kiln")
    ratios = []
    for r in range(args.overhead_rounds):
        cpu = {}
        order = ("stock", "flow") if r % 2 == 0 else ("flow", "stock")
        for kind in order:
            app = work / ("overhead-%s" % kind)
            if app.exists():
                shutil.rmtree(app)
            shutil.copytree(src, app)
            logs = work / "logs" / ("overhead-%d-%s" % (r, kind))
            if kind == "flow":
                cmd = [kiln, "pgo", "instrument", "--", "make", "-j%d" % args.jobs]
            else:
                gen = "-fprofile-generate=%s -ftemporal-profile" % (app / "raw")
                cmd = ["make", "-j%d" % args.jobs, "CC=" + tools["clang"],
                       "CXX=" + tools["clangxx"], "EXTRA=-O2 " + gen,
                       "LDEXTRA=-fuse-ld=%s" % tools["ldlld"]]
            _, _, cpu[kind] = run(cmd, app, logs / "build.log")
        ratios.append(cpu["flow"] / cpu["stock"])
        log("overhead round %d: flow %.2f s, plain %.2f s CPU (%.4f)" % (
            r, cpu["flow"], cpu["stock"], ratios[-1]))
    return ratios


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "pgo-flow"))
    ap.add_argument("--kiln-bin", default=str(REPO_DIR / "build" / "bin"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sample-size", choices=sorted(SAMPLE_SIZES), default="default")
    ap.add_argument("--overhead-rounds", type=int, default=0,
                    help="also measure the flow's own cost: N interleaved pairs of "
                         "instrumented builds with and without kiln pgo")
    args = ap.parse_args(argv)
    llvm = Path(args.llvm_bin)
    tools = {"clang": str(llvm / "clang"), "clangxx": str(llvm / "clang++"),
             "ldlld": str(llvm / "ld.lld"), "profdata": str(llvm / "llvm-profdata"),
             "readelf": str(llvm / "llvm-readelf"), "objdump": str(llvm / "llvm-objdump"),
             "size": str(llvm / "llvm-size"), "valgrind": shutil.which("valgrind") or "valgrind"}
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    try:
        src = work / "app"
        run([sys.executable, str(BENCH_DIR / "sample-app" / "generate.py"), "--out", str(src)]
            + SAMPLE_SIZES[args.sample_size], work, work / "logs" / "generate.log")
        sources = [l.strip() for l in (src / "sources.txt").read_text().splitlines()
                   if l.strip() and not l.startswith("#")]
        write_makefile(src, sources)
        results = {}
        ratios = overhead(src, work, args, tools) if args.overhead_rounds else []
        for name, build in (("stock PGO+ThinLTO", stock), ("kiln pgo", flow)):
            b = build(src, work, args, tools)
            log("measuring %s" % name)
            results[name] = dict(measure(b["exe"], work, tools, name.split()[0]),
                                 times=b["times"])
    except Step as e:
        log("error: %s" % e)
        return 1
    ref = results["stock PGO+ThinLTO"]
    same = all(r["outputs"] == ref["outputs"] for r in results.values())
    rows = ["| build | Ir steady | vs stock | Ir held-out | vs stock | .text bytes "
            "| startup pages | lower bound | steady pages | bound "
            "| instrument build CPU s | optimize build CPU s |",
            "|:---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        rows.append("| %s | {:,} | %.4f | {:,} | %.4f | {:,} | %d | %d | %d | %d | %.1f "
                    "| %.1f |".format(r["ir_steady"], r["ir_heldout"], r["text_bytes"]) % (
            name, r["ir_steady"] / ref["ir_steady"],
            r["ir_heldout"] / ref["ir_heldout"], r["startup_pages"],
            r["startup_lower_bound"], r["steady_pages"], r["steady_lower_bound"],
            r["times"]["instrument_cpu_s"], r["times"]["optimize_cpu_s"]))
    table = "\n".join(rows)
    print(table)
    if ratios:
        print("\nflow's own cost (instrumented build CPU, kiln pgo / plain make), "
              "per round: %s; median %.4f" % (
                  ", ".join("%.4f" % x for x in ratios), sorted(ratios)[len(ratios) // 2]))
    print("\noutputs identical: %s; %.0f s in all" % ("yes" if same else "NO",
                                                      time.monotonic() - t0))
    (work / "results.json").write_text(json.dumps(
        {k: {kk: vv for kk, vv in v.items() if kk != "outputs"} for k, v in results.items()},
        indent=2))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

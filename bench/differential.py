#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Differential testing of Kiln's transforms: the same program, built with
and without every transform, must compute the same bytes.

For each seed, two generators write a program each: bench/sample-app/
generate.py the kiln-sample program (C and C++; string tables, option-struct
tables, keyword tables walked by pointer, function-pointer tables, virtual
dispatch, hot, cold and never-run paths), and bench/eh_program.py a C++
program that throws and catches across translation units (by type, by base,
rethrowing; destructors counted during unwinding; string and option tables
on the way, and keyword tables searched by static functions that return
the element found). Their output is checksums of everything they compute. The
reference is each program's -O0 build. It is trained once (an instrumented -O2 build
with -ftemporal-profile, its startup and steady runs), then built at each
optimization level (-O1, -O2, -O3, -Os) x each LTO mode (none, thin, full)
with every Kiln transform on:

  -fprofile-use (the training's profile) -fpass-plugin=KilnPlugin
  -kiln-strtab -kiln-section-placement -kiln-startup-profile=<startup>
  -kiln-split-functions -kiln-inline        (compile time, and inside LTO
                                             through kiln-lld's -mllvm)
  kiln-lld --kiln-profile --kiln-startup-profile  (Kiln's function order)

and each program's output for the startup, steady and held-out (mixed,
--input-seed 2) workloads is compared with the reference's. Any difference
is a miscompile (or a generator bug): the script prints the configuration
and exits 1.

  python3 bench/differential.py --short          # 1 seed, 4 builds (CI)
  python3 bench/differential.py --seeds 1-20     # the long run

A third source, --corpus=csmith, takes each program from Csmith (Debian:
apt-get install csmith libcsmith-dev), seeded, so the same seed gives the
same program: one C file whose output is the checksum of its globals. Each
is trained once (an instrumented -O2 build, run), then built like the
others with every Kiln transform on, and its output compared with its -O0
build's. A program whose -O0 build does not finish within --timeout seconds
is skipped (Csmith's programs may loop for long); a transformed build that
does not finish is a difference.

  python3 bench/differential.py --corpus csmith --seeds 1-50

Standard library only; progress on stderr, a summary line on stdout.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
GENERATORS = {"sample": BENCH_DIR / "sample-app" / "generate.py",
              "eh": BENCH_DIR / "eh_program.py"}
BUILD = BENCH_DIR / "sample-app" / "build.sh"
EXE = "kiln-sample"
WORKLOADS = {"startup": ["startup"], "steady": ["steady", "--iterations", "200"],
             "heldout": ["mixed", "--input-seed", "2", "--iterations", "200"]}
LEVELS = ("-O1", "-O2", "-O3", "-Os")
LTO_MODES = ("none", "thin", "full")
# The short run (CI): one build per LTO mode and the size level.
SHORT = (("-O2", "none"), ("-O2", "thin"), ("-O2", "full"), ("-Os", "thin"))


def log(msg: str) -> None:
    print("differential: " + msg, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, log_file=None) -> bytes:
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        log_file.write_bytes(proc.stderr)
    if proc.returncode != 0:
        raise SystemExit("differential: failed (%d): %s\n%s" % (
            proc.returncode, " ".join(map(str, cmd)),
            proc.stderr.decode(errors="replace")[-3000:]))
    return proc.stdout


def parse_seeds(text: str) -> list[int]:
    seeds = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        seeds.extend(range(int(lo), int(hi or lo) + 1))
    return seeds


def outputs(exe: Path) -> dict[str, bytes]:
    return {name: run([exe] + args, cwd=exe.parent) for name, args in WORKLOADS.items()}


def build(app: Path, out: Path, flags: list[str], env: dict) -> Path:
    if out.exists():
        shutil.rmtree(out)
    run(["bash", BUILD, app, out] + flags, env=env, log_file=out.parent / (out.name + ".log"))
    return out / EXE


CSMITH_INCLUDE = Path("/usr/include/csmith")


def csmith_program(seed: int, work: Path) -> Path:
    """Csmith's program for seed (deterministic for one Csmith version)."""
    if shutil.which("csmith") is None or not CSMITH_INCLUDE.is_dir():
        raise SystemExit("differential: --corpus csmith needs Csmith: "
                         "apt-get install csmith libcsmith-dev")
    src = work / "csmith.c"
    # Csmith writes platform.info into its working directory.
    run(["csmith", "--seed", seed, "--output", src], cwd=work)
    return src


def build_csmith(src: Path, exe: Path, flags: list[str], tools: dict) -> Path:
    exe.parent.mkdir(parents=True, exist_ok=True)
    run([tools["clang"]] + flags + ["-w", "-I", CSMITH_INCLUDE, src, "-o", exe],
        log_file=exe.parent / (exe.name + ".log"))
    return exe


def run_csmith(exe: Path, timeout: float, env=None):
    """The program's output, or None if it did not finish in time."""
    try:
        proc = subprocess.run([str(exe)], cwd=exe.parent, env=env, timeout=timeout,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        return None
    # The exit status is part of the behaviour (a crash is a difference).
    return proc.stdout + b"\nexit %d\n" % proc.returncode


def compare_csmith(seed: int, work: Path, configs, tools: dict,
                   timeout: float, failures: list) -> tuple[int, bool]:
    """Builds seed's Csmith program in every configuration; returns the
    number of builds compared and whether the program was skipped."""
    sw = work / ("csmith-%d" % seed)
    if sw.exists():
        shutil.rmtree(sw)
    sw.mkdir(parents=True)
    src = csmith_program(seed, sw)
    what = "csmith program, seed %d" % seed
    reference = run_csmith(build_csmith(src, sw / "O0" / "prog", ["-O0"], tools), timeout)
    if reference is None:
        log("%s: skipped, its -O0 build did not finish in %g s" % (what, timeout))
        return 0, True
    raw = sw / "raw"
    instrumented = build_csmith(src, sw / "instrumented" / "prog",
                                ["-O2", "-fprofile-generate=%s" % raw,
                                 "-ftemporal-profile"], tools)
    if run_csmith(instrumented, timeout * 4) is None:
        log("%s: skipped, its instrumented build did not finish" % what)
        return 0, True
    profile = sw / "all.profdata"
    run([tools["llvm-profdata"], "merge", "-o", profile] + sorted(raw.glob("*.profraw")))
    profiles = {"startup": profile, "steady": profile, "all": profile}
    compared = 0
    for level, lto in configs:
        name = "%s-%s" % (level.lstrip("-"), lto)
        exe = build_csmith(src, sw / name / "prog",
                           kiln_flags(level, lto, profiles, tools), tools)
        got = run_csmith(exe, timeout * 4)
        compared += 1
        if got != reference:
            failures.append("%s, %s" % (what, name))
            log("DIFFERENT: %s, %s (see %s)" % (what, name, sw / name))
    log("%s: %d builds compared" % (what, compared))
    return compared, False


def kiln_flags(level: str, lto: str, profiles: dict, tools: dict) -> list[str]:
    """Every Kiln transform on, at compile time and (for LTO) in the link."""
    options = ["-kiln-strtab", "-kiln-section-placement",
               "-kiln-startup-profile=%s" % profiles["startup"],
               "-kiln-split-functions", "-kiln-inline"]
    flags = [level, "-fprofile-use=%s" % profiles["all"], "-Wno-backend-plugin",
             "-Wno-profile-instr-unprofiled", "-Wno-profile-instr-out-of-date",
             "-fpass-plugin=%s" % tools["plugin"], "-ffunction-sections"]
    for o in options:
        flags += ["-mllvm", o]
    if lto != "none":
        flags.append("-flto=thin" if lto == "thin" else "-flto")
        flags += ["-Wl,-mllvm,%s" % o for o in options]
    flags += ["-fuse-ld=%s" % tools["kiln-lld"],
              "-Wl,--kiln-profile=%s" % profiles["steady"],
              "-Wl,--kiln-startup-profile=%s" % profiles["startup"]]
    return flags


def train(app: Path, work: Path, env: dict, tools: dict) -> dict:
    raw = work / "raw"
    if raw.exists():
        shutil.rmtree(raw)
    exe = build(app, work / "instrumented",
                ["-O2", "-fprofile-generate=%s" % raw, "-ftemporal-profile"], env)
    profiles = {}
    for name in ("startup", "steady"):
        run([exe] + WORKLOADS[name], cwd=exe.parent,
            env=dict(env, LLVM_PROFILE_FILE=str(raw / (name + ".profraw"))))
        profiles[name] = work / (name + ".profdata")
        run([tools["llvm-profdata"], "merge", "-o", profiles[name],
             raw / (name + ".profraw")])
    profiles["all"] = work / "all.profdata"
    run([tools["llvm-profdata"], "merge", "-o", profiles["all"],
         profiles["startup"], profiles["steady"]])
    return profiles


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="1", help="generator seeds, e.g. 1-20 or 1,5,9")
    ap.add_argument("--short", action="store_true",
                    help="4 builds per seed (%s) instead of all 12" %
                    ", ".join("%s/%s" % c for c in SHORT))
    ap.add_argument("--corpus", default="sample,eh",
                    help="which generators: sample, eh, csmith, or several, "
                    "comma-separated (default: sample,eh)")
    ap.add_argument("--timeout", type=float, default=10,
                    help="seconds a Csmith program's -O0 build may run")
    ap.add_argument("--functions", type=int, default=300,
                    help="functions per sample program (eh programs: 120)")
    ap.add_argument("--tus", type=int, default=8)
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "differential"))
    ap.add_argument("--kiln-bin", default=str(REPO_DIR / "build" / "bin"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    args = ap.parse_args(argv)

    kiln_bin, llvm_bin = Path(args.kiln_bin).resolve(), Path(args.llvm_bin)
    plugin = subprocess.run([str(kiln_bin / "kiln"), "print-plugin-path"],
                            capture_output=True, text=True, check=True).stdout.strip()
    tools = {"plugin": plugin, "kiln-lld": kiln_bin / "kiln-lld",
             "llvm-profdata": llvm_bin / "llvm-profdata",
             "clang": llvm_bin / "clang"}
    env = dict(os.environ, KS_CC=str(llvm_bin / "clang"),
               KS_CXX=str(llvm_bin / "clang++"), KS_JOBS="2")
    work = Path(args.work_dir).resolve()
    work.mkdir(parents=True, exist_ok=True)
    configs = SHORT if args.short else tuple((l, m) for l in LEVELS for m in LTO_MODES)

    t0, compared, failures = time.monotonic(), 0, []
    csmith_builds, csmith_programs, skipped = 0, 0, 0
    corpora = [c for c in args.corpus.split(",") if c]
    for c in corpora:
        if c not in GENERATORS and c != "csmith":
            ap.error("unknown corpus '%s' (sample, eh, csmith)" % c)
    for seed in parse_seeds(args.seeds):
        for corpus in corpora:
            if corpus == "csmith":
                n, was_skipped = compare_csmith(seed, work, configs, tools,
                                                args.timeout, failures)
                csmith_builds += n
                csmith_programs += not was_skipped
                skipped += was_skipped
                continue
            sw = work / ("%s-%d" % (corpus, seed))
            app = sw / "app"
            if app.exists():
                shutil.rmtree(app)
            sw.mkdir(parents=True, exist_ok=True)
            size = (["--functions", args.functions, "--tus", args.tus]
                    if corpus == "sample" else [])
            run([sys.executable, GENERATORS[corpus], "--out", app, "--seed", seed] + size)
            what = "%s program, seed %d" % (corpus, seed)
            log("%s: reference (-O0) and training" % what)
            reference = outputs(build(app, sw / "O0", ["-O0"], env))
            profiles = train(app, sw, env, tools)
            for level, lto in configs:
                name = "%s-%s" % (level.lstrip("-"), lto)
                log("%s: %s with every Kiln transform" % (what, name))
                got = outputs(build(app, sw / name, kiln_flags(level, lto, profiles, tools), env))
                compared += 1
                for workload, out in got.items():
                    if out != reference[workload]:
                        failures.append("%s, %s, %s" % (what, name, workload))
                        log("DIFFERENT: %s, %s, workload %s (see %s)" % (
                            what, name, workload, sw / name))
    if compared or "csmith" not in corpora:
        print("differential: %d program(s) compared with their -O0 build, 3 "
              "workloads each: %d difference(s); %.0f s" % (
                  compared, len(failures), time.monotonic() - t0))
    if "csmith" in corpora:
        print("differential: %d build(s) of %d csmith program(s) compared with "
              "their -O0 build: %d difference(s), %d program(s) skipped (-O0 "
              "build slower than %g s); %.0f s" % (
                  csmith_builds, csmith_programs, len(failures), skipped,
                  args.timeout, time.monotonic() - t0))
    for f in failures:
        print("  different: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

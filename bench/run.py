#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Kiln benchmark harness.

Generates the sample application (bench/sample-app/generate.py), builds it in
several configurations (see CONFIGS below), runs a startup and a steady-state
scenario under valgrind and prints a table of deterministic figures:

  Ir steady        callgrind instruction count of `kiln-sample steady`
  Ir held-out      callgrind instruction count of a held-out run, one that
                   no training run executes (the sample app's `mixed`
                   workload; see SAMPLE_HELDOUT_ARGS)
  I1 misses        cachegrind I1 read misses (I1mr) of `kiln-sample steady`
                   with a fixed cache model (32 KiB/8-way/64 B L1s, 1 MiB LL)
  .text bytes      size of the .text output section(s)
  dyn relocs       entries in .rela.dyn (+ .relr.dyn), and how many of them
                   are R_X86_64_RELATIVE
  startup pages    distinct 4 KiB pages holding code of functions executed by
                   `kiln-sample startup`, and the lower bound
                   ceil(sum of their sizes / 4096)  (see lib/pages.py)

Every configuration must produce byte-identical program output; each one is
compared with the reference configuration (O2) and a mismatch is an error.
A configuration that fails to build or measure gets no figures: its row
says ERROR, the error is printed and the harness exits non-zero.

This file is the entry point: argument parsing and the loop over the
selected rows. The rows are lib/configs.py (adding a configuration: add a
Config(...) to its CONFIGS; hooks in lib/hooks.py), building and measuring
lib/measure.py, the table and result files lib/report.py.  See
bench/README.md.

Build products, profiles and results go to --work-dir (default:
<repo>/build/bench); its app/, train-*/ and configs/ subdirectories are
deleted and rebuilt on every run (nothing is cached across runs).
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import programs, report  # noqa: E402
from lib.common import (BENCH_DIR, DEFAULT_LLVM_BIN, REPO_DIR, StepError,  # noqa: E402
                        check_work_dir)
from lib.configs import CONFIGS, DEMO_CONFIGS, SAMPLE_SIZES, TRAININGS  # noqa: E402
from lib.measure import Harness, Tools, log  # noqa: E402

DEFAULT_GENERATOR = BENCH_DIR / "sample-app" / "generate.py"
DEFAULT_WORK_DIR = REPO_DIR / "build" / "bench"
DEFAULT_KILN_BIN = REPO_DIR / "build" / "bin"


def list_configs() -> None:
    """--list-configs: every row with its flags, training and hook."""
    for c in CONFIGS:
        print("%s: %s\n  cflags:  %s\n  ldflags: -fuse-ld=lld %s%s%s" % (
            c.name, c.description, shlex.join(c.cflags), shlex.join(c.ldflags),
            "\n  training: " + TRAININGS[c.training].description if c.training else "",
            "\n  prepare: " + c.prepare.__name__ if c.prepare else ""))


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    names = [c.name for c in CONFIGS]
    ap = argparse.ArgumentParser(
        description="Build the Kiln sample application in several configurations and "
                    "print deterministic startup/steady-state figures.",
        epilog="Configurations: " + ", ".join(names) + ".  See bench/README.md.")
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK_DIR),
                    help="build/profile/results directory (default: %(default)s); its app/, "
                         "train-*/ and configs/ subdirectories are rebuilt on every run")
    ap.add_argument("--program", choices=["sample"] + sorted(programs.PROGRAMS),
                    default="sample",
                    help="the generated sample application (default), or a real "
                         "program fetched from Debian's source packages")
    ap.add_argument("--sample-size", choices=sorted(SAMPLE_SIZES), default="default",
                    help="tiny = --functions 300 --tus 8 (smoke run); default = generator defaults")
    ap.add_argument("--seed", type=int, default=None, help="generator seed (default: generator's)")
    ap.add_argument("--iterations", type=int, default=None,
                    help="iterations of the steady scenario (default: the program's)")
    ap.add_argument("--configs", default=",".join(names),
                    help="comma-separated configurations to run, or `demo` for the "
                         "README demo's set (default: all)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="parallel jobs (default: 2)")
    ap.add_argument("--keep-going", action="store_true",
                    help="continue with the other configurations after a failure")
    ap.add_argument("--llvm-bin", default=DEFAULT_LLVM_BIN,
                    help="directory of clang, llvm-profdata, llvm-readelf, llvm-size "
                         "(default: %(default)s)")
    ap.add_argument("--clang", default=None, help="C compiler driver (default: LLVM_BIN/clang)")
    ap.add_argument("--clangxx", default=None,
                    help="C++ compiler/link driver (default: --clang with clang -> clang++)")
    ap.add_argument("--valgrind", default="valgrind", help="valgrind executable")
    ap.add_argument("--kiln-bin", default=str(DEFAULT_KILN_BIN),
                    help="directory of Kiln's tools (default: <repo>/build/bin)")
    ap.add_argument("--generator", default=str(DEFAULT_GENERATOR),
                    help="sample-app generator script (default: %(default)s)")
    ap.add_argument("--json", default=None,
                    help="JSON results file (default: WORK_DIR/results.json)")
    ap.add_argument("--list-configs", action="store_true",
                    help="print the configurations and their flags, then exit")
    args = ap.parse_args(argv)
    selected = [s.strip() for s in args.configs.split(",") if s.strip()]
    if selected == ["demo"]:
        selected = list(DEMO_CONFIGS)
    unknown = [s for s in selected if s not in names]
    if unknown or not selected:
        ap.error("unknown configuration(s) %s; known: %s" % (", ".join(unknown), ", ".join(names)))
    # Rows always come in CONFIGS order, whatever the order on the command line.
    args.selected = [c for c in CONFIGS if c.name in selected]
    check_work_dir(ap, args.work_dir)
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    if args.list_configs:
        list_configs()
        return 0
    start = time.monotonic()
    try:
        tools = Tools.find(args)
        if not Path(args.generator).is_file():
            raise StepError("sample-app generator not found: %s" % args.generator)
    except StepError as e:
        log("error: %s" % e)
        return 1
    harness = Harness(args, tools)
    harness.clean()
    results: list[dict] = []
    fatal = None
    try:
        harness.app = (harness.generate() if args.program == "sample"
                       else harness.fetch_program(args.program))
    except StepError as e:
        fatal = str(e)

    for cfg in args.selected:
        r = {"name": cfg.name, "description": cfg.description, "stock": cfg.stock,
             "training": cfg.training, "status": "error", "error": None, "metrics": None,
             "warnings": {}, "times": {}}
        results.append(r)
        if fatal:
            r["status"], r["error"] = "skipped", fatal
            continue
        log("=== %s: %s" % (cfg.name, cfg.description))
        build = None
        try:
            build = harness.build_config(cfg)
            r["cflags"] = harness.config_flags(cfg, cfg.cflags, build.dir)
            r["ldflags"] = ["-fuse-ld=lld"] + harness.config_flags(cfg, cfg.ldflags, build.dir)
            r["metrics"] = harness.measure(cfg, build)
            r["status"] = "ok"
        except StepError as e:
            r["error"] = str(e)
            log("ERROR: %s" % e)
            if not args.keep_going:
                fatal = "an earlier configuration failed (use --keep-going to continue)"
        if build is not None:
            r["warnings"] = build.warnings
            r["times"] = {k: round(v, 2) for k, v in build.times.items()}
            log("[%s] times: %s" % (cfg.name, ", ".join(
                "%s %.1fs" % kv for kv in build.times.items())))

    report.add_ratios(results, harness.reference_name)
    elapsed = time.monotonic() - start
    note_lines = report.notes(results, harness) if harness.app else ["ERROR: %s" % fatal]
    title = report.header(args, harness, tools)
    print(title)
    print()
    print(report.results_text_table(results))
    print()
    held_heads, held_rows = report.heldout_table_rows(results)
    if held_rows:
        print(report.text_table(held_heads, held_rows))
        print()
    for n in note_lines:
        print(n)
    sys.stdout.flush()
    json_path = report.write_results(args, argv, harness, tools, results, title, note_lines,
                                     elapsed)
    log("results: %s, %s (total %.0fs)" % (json_path, harness.work / "results.md", elapsed))
    return 0 if all(r["status"] == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What a PGO compile policy costs in instructions, workload by workload.

Builds one program of lib/programs.py (lua, sqlite, zstd, jsoncpp) through
the build of bench/pgo_flow.py once per configuration, every one ThinLTO and
linked by ld.lld, and counts with callgrind the Ir of the program's own code
(without the C library's) on each measured workload but the startup: the
steady-state training's first run and every held-out workload. A
configuration is a profile flavour and LLVM options:

  o2            no profile
  fe            front-end PGO (-fprofile-instr-generate / -fprofile-use)
  ir            IR PGO (-fprofile-generate / -fprofile-use)
  ir-noicp      IR PGO, -mllvm -disable-icp
  ir-icp90      IR PGO, indirect-call promotion only of a target with 90% of
                its call site's calls (-icp-total-percent-threshold=90: what
                `kiln pgo optimize` does by default)
  ir-nomemop    IR PGO, -mllvm -disable-memop-opt (no size specialization of
                memory intrinsics)
  ir-hot225     IR PGO, -hot-callsite-threshold=225 (no bonus for hot call
                sites in the inliner)
  ir-sparse     IR PGO, the profile merged with --sparse: the functions no
                training run executed are compiled as without a profile
  ir-sparse-icp90  both (`kiln pgo optimize`'s compile policy without its
                context-sensitive profile)
  ir-x64, ir-sparse-x64, ir-sparse-icp90-x64  the same with the profile's
                counts x64 (llvm-profdata merge --weighted-input=64,...), as
                `kiln pgo optimize` compiles where its splitter alone cuts
                the functions
  fe-noicp      front-end PGO, -mllvm -disable-icp
  ir-sparse-icp90-size  ir-sparse-icp90 with Kiln's plugin in the
                compiles and -kiln-untrained-size (`kiln pgo optimize
                --untrained-size`): the functions no training ran are
                optimized for size once the inliner is done with them

The options go to the compiles and (-Wl,-mllvm,...) to the link, where the
ThinLTO backends run. The training runs are the program's (pgo_flow.py's),
one raw profile each, the same for both flavours. Ratios are to the first
configuration given.

  python3 bench/compile_policy.py --program lua [--work-dir DIR] [CONFIG ...]

Prints a markdown table; results.json in the work directory. About 2
minutes per configuration for Lua on 2 cores, 4 for SQLite.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import pgo_flow  # noqa: E402
from lib import pages  # noqa: E402

REPO_DIR = Path(__file__).resolve().parent.parent

# name -> (flavour or None, options (LLVM's; clang's -f... as they are),
# sparse profile merge, weight of the profile's counts: kiln pgo's compile
# profile is x64 where its splitter alone cuts functions,
# docs/Passes/FunctionSplitting.rst)
CONFIGS = {
    "o2": (None, [], False, 1),
    "fe": ("fe", [], False, 1),
    "ir": ("ir", [], False, 1),
    "ir-noicp": ("ir", ["-disable-icp"], False, 1),
    "ir-icp90": ("ir", ["-icp-total-percent-threshold=90"], False, 1),
    "ir-nomemop": ("ir", ["-disable-memop-opt"], False, 1),
    "ir-hot225": ("ir", ["-hot-callsite-threshold=225"], False, 1),
    "ir-sparse": ("ir", [], True, 1),
    "ir-sparse-icp90": ("ir", ["-icp-total-percent-threshold=90"], True, 1),
    "ir-x64": ("ir", [], False, 64),
    "ir-sparse-x64": ("ir", [], True, 64),
    "ir-sparse-icp90-x64": ("ir", ["-icp-total-percent-threshold=90"], True, 64),
    "fe-noicp": ("fe", ["-disable-icp"], False, 1),
    "ir-sparse-icp90-size": ("ir", ["-icp-total-percent-threshold=90"], True, 1),
    "ir-sparse-icp90-noplt": ("ir", ["-icp-total-percent-threshold=90", "-fno-plt"], True, 1),
}
# Configurations whose compiles load Kiln's plugin to optimize the code no
# training ran for size (string tables left alone, so the plugin changes
# nothing else).
UNTRAINED_SIZE = {"ir-sparse-icp90-size"}
GENERATE = {"fe": "-fprofile-instr-generate", "ir": "-fprofile-generate"}


def config_flags(options: list[str]) -> tuple[str, str]:
    """The compile and link flags that carry \\p options: clang's own
    (`-f...`) as they are, LLVM's through -mllvm."""
    return (" ".join(o if o.startswith("-f") else "-mllvm " + o for o in options),
            " ".join(o if o.startswith("-f") else "-Wl,-mllvm," + o for o in options))


def build(prog, work: Path, tools: dict, name: str, extra: str, ldextra: str,
          jobs: int) -> Path:
    tree = work / ("build-" + name)
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(prog.src, tree, symlinks=True)
    prog.stage_inputs(tree)
    pgo_flow.run(prog.build.command(jobs, tools, extra, "-fuse-ld=%s %s" % (
        tools["ldlld"], ldextra)), tree, work / "logs" / name / "build.log")
    return tree


def train(prog, work: Path, tools: dict, flavour: str, sparse: bool, weight: int,
          jobs: int) -> Path:
    """The merged profile of the training runs on the \\p flavour-instrumented
    program (built once per flavour), its counts times \\p weight."""
    raw = work / ("raw-" + flavour)
    if not raw.is_dir():
        gen = GENERATE[flavour]
        tree = build(prog, work, tools, "instrumented-" + flavour, gen, gen, jobs)
        raw.mkdir()
        pgo_flow.training_runs(prog, tree, raw, work / "logs" / ("train-" + flavour))
    profile = work / ("%s%s%s.profdata" % (flavour, "-sparse" if sparse else "",
                                           "-x%d" % weight if weight > 1 else ""))
    if not profile.exists():
        pgo_flow.run([tools["profdata"], "merge"] + (["--sparse"] if sparse else [])
                     + ["-o", str(profile)]
                     + ["--weighted-input=%d,%s" % (weight, r)
                        for r in sorted(map(str, raw.glob("*.profraw")))],
                     work, work / "logs" / ("merge-%s.log" % profile.stem))
    return profile


def own_ir_each(prog, tree: Path, work: Path, tools: dict, name: str) -> dict[str, int]:
    out = {}
    if prog.built != prog.exe:
        # A build that leaves the program elsewhere (CMake's b/bin/): the
        # workloads run it beside their staged inputs.
        shutil.copy2(tree / prog.built, tree / prog.exe)
    for mode, args in prog.measured.items():
        if mode == "startup":
            continue
        cg_file = work / "logs" / name / ("callgrind.%s.out" % mode)
        pgo_flow.run([tools["valgrind"], "--tool=callgrind", "--dump-instr=yes",
                      "--callgrind-out-file=%s" % cg_file, "./" + prog.exe] + args,
                     tree, work / "logs" / name / ("callgrind-%s.log" % mode))
        out[mode] = pgo_flow.own_ir(pages.read_callgrind(str(cg_file)), tree / prog.exe)
    return out


def table(results: dict[str, dict[str, int]]) -> str:
    names = list(results)
    ref = results[names[0]]
    modes = list(ref)
    rows = ["| configuration | " + " | ".join(modes) + " | sum |",
            "|:---|" + "---:|" * (len(modes) + 1)]
    for name in names:
        r = results[name]
        cells = ["{:,}".format(r[m]) if name == names[0] else "%.4f" % (r[m] / ref[m])
                 for m in modes]
        total = sum(r.values())
        cells.append("{:,}".format(total) if name == names[0]
                     else "%.4f" % (total / sum(ref.values())))
        rows.append("| %s | %s |" % (name, " | ".join(cells)))
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--program", choices=("lua", "sqlite", "zstd", "jsoncpp"), default="lua")
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "compile-policy"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--plugin", default=str(REPO_DIR / "build" / "lib" / "KilnPlugin-22.so"),
                    help="Kiln's pass plugin, for the *-size configurations")
    ap.add_argument("configs", nargs="*", default=["fe", "ir", "ir-icp90", "ir-sparse-icp90",
                                                   "o2"],
                    help="configurations, the first the reference (%s)" % ", ".join(CONFIGS))
    args = ap.parse_args(argv)
    unknown = [c for c in args.configs if c not in CONFIGS]
    if unknown:
        ap.error("unknown configuration %s (valid: %s)" % (", ".join(unknown),
                                                          ", ".join(CONFIGS)))
    llvm = Path(args.llvm_bin)
    tools = {"clang": str(llvm / "clang"), "clangxx": str(llvm / "clang++"),
             "ldlld": str(llvm / "ld.lld"), "profdata": str(llvm / "llvm-profdata"),
             "ar": str(llvm / "llvm-ar"), "ranlib": str(llvm / "llvm-ranlib"),
             "size": str(llvm / "llvm-size"),
             "valgrind": shutil.which("valgrind") or "valgrind"}
    work = Path(args.work_dir).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    results = {}
    text_bytes = {}
    try:
        prog = (pgo_flow.jsoncpp_program(work) if args.program == "jsoncpp"
                else pgo_flow.makefile_program(work, args.program))
        for name in args.configs:
            flavour, options, sparse, weight = CONFIGS[name]
            extra, ldextra = config_flags(options)
            if flavour:
                profile = train(prog, work, tools, flavour, sparse, weight, args.jobs)
                use = "-fprofile-use=%s -Wno-backend-plugin" % profile
                extra, ldextra = "%s %s" % (use, extra), "%s %s" % (use, ldextra)
                if name in UNTRAINED_SIZE:
                    extra += (" -fpass-plugin=%s -mllvm -kiln-strtab=false"
                              " -mllvm -kiln-untrained-size" % args.plugin)
            pgo_flow.log("%s: %s" % (args.program, name))
            tree = build(prog, work, tools, name, "-flto=thin " + extra,
                         "-flto=thin " + ldextra, args.jobs)
            results[name] = own_ir_each(prog, tree, work, tools, name)
            text_bytes[name] = pgo_flow.text_bytes(tools["size"], tree / prog.exe)
    except pgo_flow.Step as e:
        pgo_flow.log("error: %s" % e)
        return 1
    print("%s: Ir of the program's own code per workload (ratios to %s)\n"
          % (args.program, args.configs[0]))
    print(table(results))
    print("\n.text bytes: " + ", ".join("%s %d" % kv for kv in text_bytes.items()))
    (work / "results.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

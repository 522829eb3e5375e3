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

Adding a configuration: append a Config(...) to CONFIGS (compile flags, link
flags, optionally the name of a training profile and a `prepare` hook that
runs a tool between training and the final link).  See bench/README.md.

Build products, profiles and results go to --work-dir (default:
<repo>/build/bench); its app/, train-*/ and configs/ subdirectories are
deleted and rebuilt on every run (nothing is cached across runs).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import pages, programs  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_GENERATOR = BENCH_DIR / "sample-app" / "generate.py"
DEFAULT_WORK_DIR = REPO_DIR / "build" / "bench"
DEFAULT_LLVM_BIN = "/usr/lib/llvm-22/bin"
DEFAULT_KILN_BIN = REPO_DIR / "build" / "bin"
EXE_NAME = "kiln-sample"

# Generator arguments per --sample-size.
SAMPLE_SIZES = {
    "tiny": ["--functions", "300", "--tus", "8"],   # quick smoke run
    "default": [],                                  # generator defaults
}

# Cache model for the I1 miss figure (fixed so that results do not depend on
# the host CPU that valgrind would otherwise auto-detect).
CACHEGRIND_CACHE = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=1048576,16,64"]

# The sample app's held-out scenario: the `mixed` workload (other root
# weights, about 80% of the steady roots plus functions only it runs) on
# other input data (--input-seed; the default is 1). No training runs it, so
# none of its counts reach a profile: Ir on it shows whether what a build
# learnt from the `steady` training run carries over to work it never saw.
SAMPLE_HELDOUT_ARGS = ("mixed", "--input-seed", "2")

# Language flags per source suffix: (driver attribute of Tools, flags).
LANGUAGES = {
    ".c": ("clang", ["-std=c11"]),
    ".cpp": ("clangxx", ["-std=c++17"]),
}


# ==========================================================================
# Trainings and configurations
# ==========================================================================

@dataclass(frozen=True)
class Training:
    """An instrumented build plus training runs that produce a merged profile.

    A training is built at most once per harness run and shared by every
    configuration that names it.  Flags may use the placeholders {profdir}
    (directory for raw profiles) and {jobs}.
    """

    name: str
    description: str
    cflags: tuple[str, ...]
    ldflags: tuple[str, ...]
    # Program arguments of each training run; the raw profiles of all runs
    # are merged with `llvm-profdata merge`.
    scenarios: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Config:
    """One column of the benchmark: how to build the sample application.

    cflags   flags for every compile (both C and C++), after the language flags
    ldflags  flags for the link (`clang++ -fuse-ld=lld ... -o kiln-sample`)
    training name of a TRAININGS entry; its merged profile is available to
             the flags as {profile} and to `prepare` as ctx.profile
    prepare  optional hook run after training and compilation, before the
             final link: prepare(ctx: PrepareContext) -> extra link flags
    postlink optional hook run on the linked program, which it may rewrite
             in place (a post-link optimizer): postlink(ctx, exe) -> None
    stock    True for stock-LLVM baselines (the I1 miss ratio is relative
             to the best stock configuration)

    Flags may use the placeholders {profile}, {split_profile} (the same
    profile with every count multiplied by SPLIT_PROFILE_WEIGHT, see
    there), {jobs}, {dir} (this configuration's build directory), {plugin}
    (Kiln's pass plugin) and {kiln_lld}, both from --kiln-bin.
    """

    name: str
    description: str
    cflags: tuple[str, ...] = ()
    ldflags: tuple[str, ...] = ()
    training: Optional[str] = None
    prepare: Optional[Callable[["PrepareContext"], Sequence[str]]] = None
    postlink: Optional[Callable[["PrepareContext", Path], None]] = None
    stock: bool = True


TRAININGS = {
    # IR PGO instrumentation.  Training = the steady scenario (startup +
    # steady-state loop) plus a separate startup run; both raw profiles are
    # merged.  The same instrumented build and merged profile serve every
    # PGO configuration below (with and without ThinLTO).
    "irpgo": Training(
        name="irpgo",
        description="IR PGO with temporal profiling (-fprofile-generate "
                    "-ftemporal-profile); training runs: `steady` and `startup`, merged",
        cflags=("-O2", "-fprofile-generate={profdir}", "-ftemporal-profile"),
        ldflags=("-O2", "-fprofile-generate={profdir}", "-ftemporal-profile"),
        scenarios=(("steady",), ("startup",)),
    ),
}

# Rows of the table, in this order.  All link with lld (-fuse-ld=lld is added
# by the harness); Debian's clang links PIE by default, which is kept.
CONFIGS = [
    Config(
        name="O2",
        description="-O2, linked with lld",
        cflags=("-O2",),
        ldflags=("-O2",),
    ),
    # Note: with a profile, the CGProfile pass records call-graph edges in
    # each object (.llvm.call-graph-profile) and lld's default cdsort then
    # orders input sections -- here whole per-TU .text (and .text.hot/
    # .text.unlikely) sections, as there are no function sections.  That
    # is stock behaviour and is kept.
    Config(
        name="PGO",
        description="IR PGO: -O2 -fprofile-use",
        cflags=("-O2", "-fprofile-use={profile}"),
        ldflags=("-O2",),
        training="irpgo",
    ),
    # lld always uses function sections for LTO code generation, and with
    # PGO the CGProfile pass (run in the ThinLTO backends) feeds lld's
    # call-graph sort, which is cdsort by default.  Without
    # --call-graph-profile-sort=none this configuration would therefore
    # already be cdsort-ordered; =none makes it the unordered baseline.
    Config(
        name="PGO+ThinLTO",
        description="PGO + -flto=thin, lld call-graph sort disabled (unordered baseline)",
        cflags=("-O2", "-flto=thin", "-fprofile-use={profile}"),
        ldflags=("-O2", "-flto=thin", "-Wl,--thinlto-jobs={jobs}",
                 "-Wl,--call-graph-profile-sort=none"),
        training="irpgo",
    ),
    Config(
        name="PGO+ThinLTO+cdsort",
        description="PGO + -flto=thin + -ffunction-sections, lld --call-graph-profile-sort=cdsort",
        cflags=("-O2", "-flto=thin", "-ffunction-sections", "-fprofile-use={profile}"),
        ldflags=("-O2", "-flto=thin", "-ffunction-sections", "-Wl,--thinlto-jobs={jobs}",
                 "-Wl,--call-graph-profile-sort=cdsort"),
        training="irpgo",
    ),
]


def lld_bp_startup_prepare(ctx: "PrepareContext") -> list[str]:
    """lld's balanced partitioning of the startup scenario's temporal trace."""
    return ["-Wl,--irpgo-profile=%s" % ctx.scenario_profiles["startup"],
            "-Wl,--bp-startup-sort=function"]


def profdata_order_prepare(ctx: "PrepareContext") -> list[str]:
    """`llvm-profdata order` over the startup profile's temporal trace, used
    as lld's symbol ordering file as it is (its static functions are named
    `file;fn`, which lld cannot match: that is the stock tool's limit)."""
    order = ctx.dir / "profdata.order"
    ctx.run([ctx.harness.tools.profdata, "order", "-o", str(order),
             str(ctx.scenario_profiles["startup"])], "llvm-profdata-order")
    return ["-Wl,--symbol-ordering-file=%s" % order, "-Wl,--no-warn-symbol-ordering"]


THINLTO_CFLAGS = ("-O2", "-flto=thin", "-fprofile-use={profile}")
THINLTO_LDFLAGS = ("-O2", "-flto=thin", "-Wl,--thinlto-jobs={jobs}")

CONFIGS += [
    Config(
        name="PGO+ThinLTO+hfsort",
        description="PGO + -flto=thin, lld --call-graph-profile-sort=hfsort (C3)",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS + ("-Wl,--call-graph-profile-sort=hfsort",),
        training="irpgo",
    ),
    Config(
        name="PGO+ThinLTO+bp",
        description="PGO + -flto=thin, lld --bp-startup-sort=function with the "
                    "startup run's temporal profile",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=lld_bp_startup_prepare,
    ),
    Config(
        name="PGO+ThinLTO+profdata-order",
        description="PGO + -flto=thin, lld --symbol-ordering-file from "
                    "`llvm-profdata order` of the startup profile",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=profdata_order_prepare,
    ),
]


def kiln_order_prepare(ctx: "PrepareContext") -> list[str]:
    """Kiln's function order for a ThinLTO build.

    The objects are bitcode, so Kiln orders from the linked program: a
    preliminary link (ThinLTO is deterministic, so the final link produces
    the same functions under the same names), then `kiln order` with the
    startup and steady-state profiles as separate scenarios, then the final
    link with the ordering file (which also turns lld's own sort off).
    (Ordering from the ThinLTO backends' objects instead, kept with
    -Wl,--lto-obj-path=, adds their post-inlining call graph but measured
    worse here: see docs/benchmarks.md.)
    """
    kiln = ctx.harness.tools.kiln
    if not kiln:
        raise StepError("[%s] Kiln's `kiln` tool not found in --kiln-bin=%s; "
                        "build Kiln first" % (ctx.config.name, ctx.harness.args.kiln_bin))
    profiles = ctx.scenario_profiles
    (ctx.dir / "prelink").mkdir(parents=True, exist_ok=True)
    prelink = ctx.link(ctx.dir / "prelink" / ctx.app.exe_name)
    order = ctx.dir / "kiln.order"
    ctx.run([kiln, "order",
             "--scenario=startup=%s" % profiles["startup"],
             "--scenario=steady=%s" % profiles["steady"],
             "--report=%s" % (ctx.dir / "kiln-order.json"),
             "-o", str(order), str(prelink)], "kiln-order")
    return ["-Wl,--symbol-ordering-file=%s" % order]


CONFIGS.append(
    Config(
        name="Kiln",
        description="PGO + -flto=thin, linked with `kiln order`'s ordering file "
                    "(startup and steady profiles as scenarios)",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_order_prepare,
        stock=False,
    ))

def kiln_lld_prepare(ctx: "PrepareContext",
                     profiles: Optional[dict[str, Path]] = None) -> list[str]:
    """The one-command link: `kiln-lld --kiln-profile= --kiln-startup-profile=`
    computes the order from the objects the link really uses (ThinLTO's
    backend objects, with their post-inlining call graph) and links with it.
    `profiles` ({"startup": ..., "steady": ...}) default to the training's."""
    kiln = ctx.harness.tools.kiln
    kiln_lld = Path(kiln).parent / "kiln-lld" if kiln else None
    if not kiln_lld or not kiln_lld.is_file():
        raise StepError("[%s] kiln-lld not found in --kiln-bin=%s; build Kiln first"
                        % (ctx.config.name, ctx.harness.args.kiln_bin))
    profiles = profiles or ctx.scenario_profiles
    return ["-fuse-ld=%s" % kiln_lld,
            "-Wl,--kiln-startup-profile=%s" % profiles["startup"],
            "-Wl,--kiln-profile=%s" % profiles["steady"],
            "-Wl,--kiln-order-out=%s" % (ctx.dir / "kiln-lld.order"),
            "-Wl,--kiln-report=%s" % (ctx.dir / "kiln-lld-order.json")]


CONFIGS.append(
    Config(
        name="Kiln-lld",
        description="PGO + -flto=thin, one-command `kiln-lld --kiln-profile= "
                    "--kiln-startup-profile=` link (order from the link's own objects)",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_lld_prepare,
        stock=False,
    ))

def kiln_lld_preread_prepare(ctx: "PrepareContext") -> list[str]:
    """The one-command link plus the pre-read plan, with Kiln's runtime helper
    called from a constructor (bench/lib/preread_ctor.c)."""
    flags = kiln_lld_prepare(ctx)
    kiln_bin = Path(ctx.harness.tools.kiln).parent
    helper = kiln_bin.parent / "lib" / "libkiln_preread.a"
    if not helper.is_file():
        raise StepError("[%s] %s not found; build Kiln first" % (ctx.config.name, helper))
    ctor = ctx.dir / "preread_ctor.o"
    ctx.run([ctx.harness.tools.clang, "-O2", "-c", str(BENCH_DIR / "lib" / "preread_ctor.c"),
             "-I", str(REPO_DIR / "lld-plugin" / "runtime" / "include"), "-o", str(ctor)],
            "compile-preread-ctor")
    return flags + [str(ctor), str(helper),
                    "-Wl,--kiln-preread-out=%s" % (ctx.dir / "preread.json")]


CONFIGS.append(
    Config(
        name="Kiln-lld+preread",
        description="Kiln-lld, plus the pre-read plan and kiln_preread() run from a "
                    "constructor (MADV_POPULATE_READ of the startup range)",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_lld_preread_prepare,
        stock=False,
    ))

# Function splitting (issue 7). LLVM's machine function splitter computes a
# block's count from block frequencies, which floors: after inlining, a
# block that ran once (the whole startup path) often gets count 0. Kiln's
# split configuration therefore compiles with the profile's counts
# multiplied by this weight (`llvm-profdata merge --weighted-input=64,...`:
# relative counts, and so every hot/cold decision, stay the same), and asks
# the splitter to move only blocks with count 0 (-kiln-split-functions).
SPLIT_PROFILE_WEIGHT = 64
BOLT_OPTIONS = ("-reorder-blocks=ext-tsp", "-reorder-functions=cdsort", "-split-functions",
                "-split-all-cold", "-split-eh", "-dyno-stats")


def bolt_postlink(ctx: "PrepareContext", exe: Path) -> None:
    """BOLT as its documentation recommends: instrument the linked program
    (linked with --emit-relocs), run the training scenarios on the
    instrumented binary, optimize with that profile, replace the program."""
    tools = ctx.harness.tools
    if not tools.bolt or not tools.merge_fdata:
        raise StepError("[%s] llvm-bolt / merge-fdata not found in %s; install Debian's "
                        "bolt-22" % (ctx.config.name, ctx.harness.args.llvm_bin))
    bdir = ctx.dir / "bolt"
    if bdir.exists():
        shutil.rmtree(bdir)
    (bdir / "train").mkdir(parents=True)
    instrumented = bdir / "train" / ctx.app.exe_name
    ctx.run([tools.bolt, str(exe), "-instrument", "-o", str(instrumented),
             "--instrumentation-file=%s" % (bdir / "prof"),
             "--instrumentation-file-append-pid"], "bolt-instrument")
    ctx.app.write_inputs(bdir / "train")
    h = ctx.harness
    for mode, args in (("steady", h.steady_args()), ("startup", h.startup_args())):
        proc = run_cmd(["./" + ctx.app.exe_name] + args,
                       ctx.dir / "logs" / ("bolt-train-%s.log" % mode),
                       "[%s] BOLT training run %s" % (ctx.config.name, mode),
                       cwd=bdir / "train", env=run_env())
        h.check_output(ctx.config.name, mode, proc.stdout, ctx.dir)
    fdata = sorted(str(f) for f in bdir.glob("prof.*.fdata"))
    if len(fdata) != 2:
        raise StepError("[%s] expected 2 BOLT profiles, found %d" % (ctx.config.name, len(fdata)))
    merged = ctx.run([tools.merge_fdata] + fdata, "bolt-merge-fdata").stdout
    (bdir / "merged.fdata").write_bytes(merged)
    optimized = bdir / "optimized"
    ctx.run([tools.bolt, str(exe), "-o", str(optimized), "-data=%s" % (bdir / "merged.fdata")]
            + list(BOLT_OPTIONS), "bolt-optimize")
    shutil.copy2(optimized, exe)


def cs_training(ctx: "PrepareContext") -> dict[str, Path]:
    """Context-sensitive PGO profiles of this configuration's own objects:
    a link with -fcs-profile-generate (the ThinLTO backends instrument each
    function as it is after inlining), one run per scenario, each merged on
    its own. Unlike the training's pre-LTO profiles, they name only the
    functions the final program really runs: an out-of-line copy that every
    caller inlined is not in them. One more instrumented build and training
    run, as BOLT needs."""
    h = ctx.harness
    cdir = ctx.dir / "cs-training"
    if cdir.exists():
        shutil.rmtree(cdir)
    cdir.mkdir(parents=True)
    ctx.link(cdir / ctx.app.exe_name, ["-fcs-profile-generate=%s" % (cdir / "raw")])
    ctx.app.write_inputs(cdir)
    profiles = {}
    for mode, args in (("steady", h.steady_args()), ("startup", h.startup_args())):
        raw = cdir / ("%s.profraw" % mode)
        proc = run_cmd(["./" + ctx.app.exe_name] + args,
                       ctx.dir / "logs" / ("cs-train-%s.log" % mode),
                       "[%s] CSPGO training run %s" % (ctx.config.name, mode),
                       cwd=cdir, env=run_env({"LLVM_PROFILE_FILE": str(raw)}))
        h.check_output(ctx.config.name, mode, proc.stdout, ctx.dir)
        # The raw profile says "front-end": the variable that flags a
        # profile as context-sensitive IR (__llvm_profile_raw_version) is
        # created when the objects are compiled with -fcs-profile-generate;
        # instrumenting only at link time, the profile runtime's default
        # (no flags) wins. Kiln reads names and counts either way, but
        # --lto-cs-profile-file ignores such a profile: written out as text
        # with the ":csir" header, it is the CSPGO profile it is.
        text_path = cdir / ("cs-%s.proftext" % mode)
        ctx.run([h.tools.profdata, "merge", "--text", "-o", str(text_path), str(raw)],
                "cs-text-%s" % mode)
        text_path.write_bytes(b":csir\n" + text_path.read_bytes())
        profiles[mode] = cdir / ("cs-%s.profdata" % mode)
        ctx.run([h.tools.profdata, "merge", "-o", str(profiles[mode]), str(text_path)],
                "cs-merge-%s" % mode)
    return profiles


def kiln_lld_cs_prepare(ctx: "PrepareContext") -> list[str]:
    """The one-command link ordered from CSPGO profiles of the same objects
    (cs_training): the startup group is what the final program runs."""
    return kiln_lld_prepare(ctx, cs_training(ctx))


def cs_use_flags(ctx: "PrepareContext", profiles: dict[str, Path]) -> list[str]:
    """The final link's ThinLTO backends use the CSPGO profiles (lld's
    --lto-cs-profile-file, as in LLVM's CSPGO flow): counts after inlining,
    exact for each function as the final program has it, so the machine
    function splitter sees which blocks really ran, where the pre-LTO
    profile's counts are scaled (and floored) by inlining. The scenarios'
    profiles merged with the same SPLIT_PROFILE_WEIGHT as the compile."""
    merged = ctx.dir / "cs-training" / ("cs-x%d.profdata" % SPLIT_PROFILE_WEIGHT)
    ctx.run([ctx.harness.tools.profdata, "merge", "-o", str(merged)]
            + ["--weighted-input=%d,%s" % (SPLIT_PROFILE_WEIGHT, profiles[m])
               for m in ("startup", "steady")], "cs-merge-use")
    return ["-Wl,--lto-cs-profile-file=%s" % merged]


def kiln_lld_split_cs_use_prepare(ctx: "PrepareContext") -> list[str]:
    """Kiln-lld+split+cs whose final backends also use the CSPGO profiles."""
    profiles = cs_training(ctx)
    return (kiln_lld_prepare(ctx, profiles) + ["-Wl,-mllvm,-kiln-split-functions"]
            + cs_use_flags(ctx, profiles))


def stock_cs_use_prepare(ctx: "PrepareContext") -> list[str]:
    """Stock CSPGO: the CSPGO profiles in the final link's backends."""
    return cs_use_flags(ctx, cs_training(ctx))


def kiln_lld_split_prepare(ctx: "PrepareContext") -> list[str]:
    """The one-command link with Kiln's function splitting in the ThinLTO
    backends (-kiln-split-functions through kiln-lld's -mllvm)."""
    return kiln_lld_prepare(ctx) + ["-Wl,-mllvm,-kiln-split-functions"]


CONFIGS += [
    Config(
        name="PGO+ThinLTO+cdsort+split",
        description="PGO + -flto=thin, LLVM's machine function splitter with its defaults "
                    "(-enable-split-machine-functions in the backends), lld cdsort",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS + ("-Wl,-mllvm,-enable-split-machine-functions",),
        training="irpgo",
    ),
    Config(
        name="BOLT",
        description="PGO + -flto=thin + lld cdsort, then llvm-bolt with its instrumentation "
                    "profile of the same training runs (" + " ".join(BOLT_OPTIONS) + ")",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS + ("-Wl,--emit-relocs",),
        training="irpgo",
        postlink=bolt_postlink,
    ),
    Config(
        name="Kiln-lld+cs",
        description="Kiln-lld ordered from CSPGO profiles of the same objects (one more "
                    "instrumented link and training run): the post-inlining startup set",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_lld_cs_prepare,
        stock=False,
    ),
    Config(
        name="Kiln-lld+split+cs",
        description="Kiln-lld+split, ordered from CSPGO profiles of the same objects",
        cflags=("-O2", "-flto=thin", "-fprofile-use={split_profile}"),
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=lambda ctx: kiln_lld_cs_prepare(ctx) + ["-Wl,-mllvm,-kiln-split-functions"],
        stock=False,
    ),
    Config(
        name="PGO+CSPGO+ThinLTO+cdsort",
        description="PGO + -flto=thin + lld cdsort, the final link's backends also using "
                    "CSPGO profiles of the same objects (LLVM's CSPGO flow; the Ir reference "
                    "for the rows that use them)",
        cflags=THINLTO_CFLAGS,
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=stock_cs_use_prepare,
    ),
    Config(
        name="Kiln-lld+split+cspgo",
        description="Kiln-lld+split+cs whose final backends also use the CSPGO profiles "
                    "(--lto-cs-profile-file): the splitter sees post-inlining counts",
        cflags=("-O2", "-flto=thin", "-fprofile-use={split_profile}"),
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_lld_split_cs_use_prepare,
        stock=False,
    ),
    Config(
        name="Kiln-lld+split",
        description="Kiln-lld with -kiln-split-functions (blocks no training run executed "
                    "go to cold parts), compiled with the x%d-weighted profile"
                    % SPLIT_PROFILE_WEIGHT,
        cflags=("-O2", "-flto=thin", "-fprofile-use={split_profile}"),
        ldflags=THINLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_lld_split_prepare,
        stock=False,
    ),
]

FULLLTO_CFLAGS = ("-O2", "-flto", "-fprofile-use={profile}")
FULLLTO_LDFLAGS = ("-O2", "-flto")


def kiln_full_lto_prepare(ctx: "PrepareContext") -> list[str]:
    """Kiln's layout inside full LTO: kiln-function-order orders the merged
    module (startup functions from the startup run's temporal traces), and
    code generation emits it in that order; no ordering file."""
    kiln = ctx.harness.tools.kiln
    kiln_lld = Path(kiln).parent / "kiln-lld" if kiln else None
    if not kiln_lld or not kiln_lld.is_file():
        raise StepError("[%s] kiln-lld not found in --kiln-bin=%s; build Kiln first"
                        % (ctx.config.name, ctx.harness.args.kiln_bin))
    return ["-fuse-ld=%s" % kiln_lld,
            "-Wl,-mllvm,-kiln-function-order",
            "-Wl,-mllvm,-kiln-startup-profile=%s" % ctx.scenario_profiles["startup"],
            "-Wl,-mllvm,-kiln-function-order-out=%s" % (ctx.dir / "full-lto.order")]


CONFIGS += [
    Config(
        name="PGO+FullLTO",
        description="PGO + -flto (full), lld's default call-graph sort (cdsort)",
        cflags=FULLLTO_CFLAGS,
        ldflags=FULLLTO_LDFLAGS,
        training="irpgo",
    ),
    Config(
        name="PGO+FullLTO+bp",
        description="PGO + -flto (full), lld --bp-startup-sort=function with the "
                    "startup run's temporal profile",
        cflags=FULLLTO_CFLAGS,
        ldflags=FULLLTO_LDFLAGS,
        training="irpgo",
        prepare=lld_bp_startup_prepare,
    ),
    Config(
        name="Kiln-FullLTO",
        description="PGO + -flto (full), kiln-function-order inside LTO (via kiln-lld "
                    "-mllvm), startup functions from the startup profile's traces",
        cflags=FULLLTO_CFLAGS,
        ldflags=FULLLTO_LDFLAGS,
        training="irpgo",
        prepare=kiln_full_lto_prepare,
        stock=False,
    ),
]

# Import planning (issue 6, part 2).  Four ThinLTO builds that differ only in
# what the thin link imports: LLVM's default importer (the baseline),
# Chromium's -import-instr-limit=5, ChromeOS's 30, and `kiln imports`'s plan
# (-thinlto-workload-def).  All print their imports and a time trace, which
# bench/import_stats.py turns into import counts and thin-link/backend times.
IMPORT_STATS_LDFLAGS = ("-Wl,-mllvm,-print-imports", "-Wl,--time-trace")
# `kiln imports --budget=`: the main row's, and the sweep's (percentages of
# the program's instructions).
KILN_IMPORTS_BUDGET = "3%"
KILN_IMPORTS_SWEEP = ("1%", "10%")
# Kiln's import shaping (pre-link compile; see the import-shaping rows below)
# and its inline advisor (pre-link compile and, through kiln-lld, the ThinLTO
# backends).
IMPORT_SHAPING_CFLAGS = THINLTO_CFLAGS + ("-fpass-plugin={plugin}", "-mllvm",
                                          "-kiln-import-shaping")
KILN_INLINE_CFLAGS = ("-mllvm", "-kiln-inline")
KILN_INLINE_LDFLAGS = ("-fuse-ld={kiln_lld}", "-Wl,-mllvm,-kiln-inline")


def kiln_imports_prepare_with(budget: str) -> Callable[["PrepareContext"], list[str]]:
    def kiln_imports_prepare(ctx: "PrepareContext") -> list[str]:
        """`kiln imports` over the ThinLTO objects (which carry the profile's
        counts) and the merged profile; the link uses its workload definition."""
        kiln = ctx.harness.tools.kiln
        if not kiln:
            raise StepError("[%s] Kiln's `kiln` tool not found in --kiln-bin=%s; "
                            "build Kiln first" % (ctx.config.name, ctx.harness.args.kiln_bin))
        plan = ctx.dir / "kiln-imports.workload.json"
        ctx.run([kiln, "imports", "--profile=%s" % ctx.profile,
                 "--budget=%s" % budget,
                 "--workload-def=%s" % plan,
                 "--report=%s" % (ctx.dir / "kiln-imports.report.json")] +
                [str(o) for o in ctx.objects], "kiln-imports")
        return ["-Wl,-mllvm,-thinlto-workload-def=%s" % plan]
    return kiln_imports_prepare


def budget_suffix(budget: str) -> str:
    """Row-name suffix of a `kiln imports` budget: none for the main row's
    KILN_IMPORTS_BUDGET, `-<N>pct` for the sweep's (`%` is awkward in
    directory names and shells)."""
    return "" if budget == KILN_IMPORTS_BUDGET else "-" + budget.rstrip("%") + "pct"


def import_row(name: str, description: str, cflags: tuple[str, ...] = THINLTO_CFLAGS,
               ldflags: tuple[str, ...] = (), budget: Optional[str] = None,
               stock: bool = False) -> Config:
    """A row of the import-planning family: PGO + ThinLTO with lld's default
    order, the link printing its imports and a time trace
    (IMPORT_STATS_LDFLAGS) so that every row of the family is read the same
    way, plus `ldflags`; with `budget`, the thin link follows `kiln imports
    --budget=<budget>`'s plan. Only the rows that differ from the baseline
    in stock LLVM options are `stock`."""
    return Config(
        name="PGO+ThinLTO+" + name,
        description=description,
        cflags=cflags,
        ldflags=THINLTO_LDFLAGS + IMPORT_STATS_LDFLAGS + ldflags,
        training="irpgo",
        prepare=kiln_imports_prepare_with(budget) if budget else None,
        stock=stock,
    )


CONFIGS += [
    import_row("stock-imports",
               "PGO + -flto=thin, lld's default order, LLVM's default importer "
               "(import-instr-limit=100); imports printed, time trace", stock=True),
    import_row("import-limit-5",
               "as PGO+ThinLTO+stock-imports with -import-instr-limit=5 (Chromium)",
               ldflags=("-Wl,-mllvm,-import-instr-limit=5",), stock=True),
    import_row("import-limit-30",
               "as PGO+ThinLTO+stock-imports with -import-instr-limit=30 (ChromeOS)",
               ldflags=("-Wl,-mllvm,-import-instr-limit=30",), stock=True),
] + [
    import_row("kiln-imports" + budget_suffix(budget),
               "as PGO+ThinLTO+stock-imports, imports planned by `kiln imports "
               "--budget=%s` (-thinlto-workload-def)" % budget, budget=budget)
    for budget in (KILN_IMPORTS_BUDGET,) + KILN_IMPORTS_SWEEP
]

# The inline advisor alone. It links with lld's default order like the
# import-planning rows and comes after them so that a run of issue 6's rows
# has the stock row first (the reference of "Ir held-out vs ref").
CONFIGS.append(
    Config(
        name="PGO+ThinLTO+kiln-inline",
        description="PGO + -flto=thin with Kiln's profile inline advisor (-kiln-inline) "
                    "in the pre-link compile and the ThinLTO backends (lld cdsort order)",
        cflags=THINLTO_CFLAGS + ("-fpass-plugin={plugin}",) + KILN_INLINE_CFLAGS,
        ldflags=THINLTO_LDFLAGS + KILN_INLINE_LDFLAGS,
        training="irpgo",
        stock=False,
    ))

# Issue 6's parts together, in the import-planning family so that they
# compare with PGO+ThinLTO+stock-imports: import shaping under Chromium's
# limit (its best point in the import-shaping rows below), and import
# shaping + `kiln imports` + -kiln-inline, one row per budget of the
# kiln-imports rows (inlining changes what an import buys, so the best
# budget need not be the same). Under a workload definition the thin link
# does not run the default importer for the modules the plan names
# (docs/CommandGuide/kiln-imports.rst), so there the shaping pass's critical
# edges change nothing: they still matter for any module the plan leaves to
# the default importer.
CONFIGS += [
    import_row("kiln-import-shaping+import-limit-5",
               "as PGO+ThinLTO+import-limit-5 with -kiln-import-shaping in the "
               "pre-link compile", cflags=IMPORT_SHAPING_CFLAGS,
               ldflags=("-Wl,-mllvm,-import-instr-limit=5",)),
] + [
    import_row("kiln-import-shaping+kiln-imports+kiln-inline" + budget_suffix(budget),
               "as PGO+ThinLTO+kiln-imports%s with -kiln-import-shaping and "
               "-kiln-inline (pre-link compile, and the backends through kiln-lld)"
               % budget_suffix(budget),
               cflags=IMPORT_SHAPING_CFLAGS + KILN_INLINE_CFLAGS,
               ldflags=KILN_INLINE_LDFLAGS, budget=budget)
    for budget in (KILN_IMPORTS_BUDGET,) + KILN_IMPORTS_SWEEP
]

# Import shaping (issue 6): kiln-import-shaping at the end of the ThinLTO
# pre-link compile marks the hot cross-module calls the backend can inline as
# critical summary edges (docs/Passes/ImportShaping.rst); the thin link's
# importer gives them -import-critical-multiplier (100) times
# -import-instr-limit instead of the hot multiplier (10). Stock rows with the
# lower limits Chromium (5) and ChromeOS (30) use, and Kiln with each. All
# link like PGO+ThinLTO (lld's call-graph sort off), so every figure,
# I1 misses included, compares with that row. Thin-link time and import
# counts: bench/import_stats.py over the same run's work directory. (The
# import-planning rows above keep lld's default order and print their
# imports: two baselines, kept apart on purpose.)
UNSORTED_THINLTO_LDFLAGS = THINLTO_LDFLAGS + ("-Wl,--call-graph-profile-sort=none",)


def unsorted_row(name: str, description: str, cflags: tuple[str, ...] = THINLTO_CFLAGS,
                 ldflags: tuple[str, ...] = (), stock: bool = True) -> Config:
    """A row linked like PGO+ThinLTO (lld's call-graph sort off), plus
    `ldflags`: the import-shaping family and the size rows compare with it."""
    return Config(name="PGO+ThinLTO+" + name, description=description, cflags=cflags,
                  ldflags=UNSORTED_THINLTO_LDFLAGS + ldflags, training="irpgo", stock=stock)


def import_limit(n: int) -> tuple[str, ...]:
    return ("-Wl,-mllvm,-import-instr-limit=%d" % n,)


CONFIGS += [
    unsorted_row("import-limit=5", "PGO + -flto=thin, -import-instr-limit=5 (Chromium's), "
                 "lld call-graph sort disabled", ldflags=import_limit(5)),
    unsorted_row("import-limit=30", "PGO + -flto=thin, -import-instr-limit=30 (ChromeOS's), "
                 "lld call-graph sort disabled", ldflags=import_limit(30)),
    unsorted_row("kiln-import-shaping",
                 "PGO + -flto=thin with -kiln-import-shaping in the pre-link "
                 "compile (default import limit), lld call-graph sort disabled",
                 cflags=IMPORT_SHAPING_CFLAGS, stock=False),
] + [
    unsorted_row("kiln-import-shaping+limit=%d" % n,
                 "PGO + -flto=thin with -kiln-import-shaping, "
                 "-import-instr-limit=%d, lld call-graph sort disabled" % n,
                 cflags=IMPORT_SHAPING_CFLAGS, ldflags=import_limit(n), stock=False)
    for n in (5, 30)
] + [
    unsorted_row("kiln-import-shaping(cutoff=900000)+limit=5",
                 "PGO + -flto=thin with -kiln-import-shaping marking only call "
                 "sites at the profile summary's 90% cutoff count "
                 "(-kiln-import-critical-cutoff=900000), -import-instr-limit=5, "
                 "lld call-graph sort disabled",
                 cflags=IMPORT_SHAPING_CFLAGS + ("-mllvm", "-kiln-import-critical-cutoff=900000"),
                 ldflags=import_limit(5), stock=False),
    unsorted_row("kiln-import-shaping+kiln-inline",
                 "PGO + -flto=thin with -kiln-import-shaping and -kiln-inline "
                 "(pre-link and backends, via kiln-lld), lld call-graph sort disabled",
                 cflags=IMPORT_SHAPING_CFLAGS + KILN_INLINE_CFLAGS,
                 ldflags=KILN_INLINE_LDFLAGS, stock=False),
]

# Size where the profile says code never runs (issue 6's size aim): LLVM's
# PGO marks functions no training run entered `cold`; -pgo-cold-func-opt
# also gives them optsize or minsize. Stock options, linked like PGO+ThinLTO.
CONFIGS += [
    unsorted_row("cold-%s" % attr,
                 "PGO + -flto=thin, never-run functions compiled for size "
                 "(-pgo-cold-func-opt=%s), lld call-graph sort disabled" % attr,
                 cflags=THINLTO_CFLAGS + ("-mllvm", "-pgo-cold-func-opt=%s" % attr))
    for attr in ("optsize", "minsize")
] + [
    unsorted_row("kiln-inline+cold-minsize",
                 "PGO + -flto=thin, Kiln's inline advisor (pre-link and backends) and "
                 "never-run functions compiled for size (-pgo-cold-func-opt=minsize), "
                 "lld call-graph sort disabled",
                 cflags=THINLTO_CFLAGS + ("-fpass-plugin={plugin}",) + KILN_INLINE_CFLAGS
                 + ("-mllvm", "-pgo-cold-func-opt=minsize"),
                 ldflags=KILN_INLINE_LDFLAGS, stock=False),
]

REFERENCE_CONFIG = "O2"   # output reference and denominator of "Ir vs O2"

# `--configs demo` (the README's demo): the layout and splitting comparison
# -- every stock order, Kiln's, BOLT -- without the slower issue-specific
# rows (imports, inlining, pre-read, the two-step `kiln order`).
DEMO_CONFIGS = (
    "O2", "PGO", "PGO+ThinLTO", "PGO+ThinLTO+cdsort", "PGO+ThinLTO+hfsort", "PGO+ThinLTO+bp",
    "PGO+ThinLTO+profdata-order", "Kiln-lld", "Kiln-lld+cs", "BOLT", "Kiln-lld+split+cs",
    "PGO+FullLTO", "Kiln-FullLTO",
)


# ==========================================================================
# Plumbing
# ==========================================================================

class StepError(Exception):
    """A build or measurement step failed; the message says which and why."""


def log(msg: str) -> None:
    print("bench: " + msg, file=sys.stderr, flush=True)


def expand(flags: Sequence[str], **values: object) -> list[str]:
    """Replace {name} placeholders in flags (unknown braces are left alone)."""
    out = []
    for flag in flags:
        for key, value in values.items():
            flag = flag.replace("{%s}" % key, str(value))
        if re.search(r"\{[a-z]+\}", flag):
            raise StepError("unresolved placeholder in flag %r" % flag)
        out.append(flag)
    return out


def run_env(extra: Optional[dict] = None) -> dict:
    """Fixed, minimal environment for running the sample program: the
    environment strings sit on the initial stack and are scanned by ld.so
    and libc, so anything inherited would change the instruction counts."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
    env.update(extra or {})
    return env


def run_cmd(cmd: Sequence[str], log_file: Path, what: str, cwd: Optional[Path] = None,
            env: Optional[dict] = None) -> subprocess.CompletedProcess:
    """Run a command; write command line, stdout and stderr to log_file;
    raise StepError (with the tail of stderr) if it fails."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True)
    except OSError as e:
        raise StepError("%s: cannot run %s: %s" % (what, cmd[0], e)) from None
    with open(log_file, "wb") as f:
        f.write(b"$ " + shlex.join(cmd).encode() + b"\n")
        if cwd:
            f.write(b"# cwd: " + str(cwd).encode() + b"\n")
        f.write(b"# exit status: %d\n--- stdout ---\n" % proc.returncode)
        f.write(proc.stdout)
        f.write(b"\n--- stderr ---\n")
        f.write(proc.stderr)
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise StepError("%s failed (exit status %d); log: %s%s" % (
            what, proc.returncode, log_file, "".join("\n    " + l for l in tail)))
    return proc


@dataclass
class Tools:
    clang: str
    clangxx: str
    profdata: str
    readelf: str
    objdump: str
    size: str
    valgrind: str
    kiln: Optional[str] = None   # Kiln's `kiln` tool, for Kiln configurations
    bolt: Optional[str] = None   # llvm-bolt (Debian's bolt-22), for the BOLT row
    merge_fdata: Optional[str] = None

    @classmethod
    def find(cls, args: argparse.Namespace) -> "Tools":
        bin_dir = Path(args.llvm_bin)
        clang = args.clang or str(bin_dir / "clang")
        if args.clangxx:
            clangxx = args.clangxx
        else:
            d, b = os.path.split(clang)
            clangxx = os.path.join(d, b.replace("clang", "clang++", 1))
        tools = cls(clang=clang, clangxx=clangxx,
                    profdata=str(bin_dir / "llvm-profdata"),
                    readelf=str(bin_dir / "llvm-readelf"),
                    objdump=str(bin_dir / "llvm-objdump"),
                    size=str(bin_dir / "llvm-size"),
                    valgrind=args.valgrind)
        for name, path in tools.__dict__.items():
            if path is not None and shutil.which(path) is None:
                raise StepError("tool not found: %s (%s)" % (path, name))
        # BOLT is only needed by its row, which fails (never silently
        # vanishes) without it.
        for name, exe in (("bolt", "llvm-bolt"), ("merge_fdata", "merge-fdata")):
            if (bin_dir / exe).is_file():
                setattr(tools, name, str(bin_dir / exe))
        # Kiln's own tool is only needed by Kiln configurations; they fail
        # (never silently vanish) when it is missing.
        kiln = Path(args.kiln_bin) / "kiln"
        tools.kiln = str(kiln) if kiln.is_file() else None
        return tools

    def version(self) -> str:
        """First line of `clang --version`."""
        out = subprocess.run([self.clang, "--version"], capture_output=True, text=True).stdout
        return (out.splitlines() or ["unknown clang"])[0].strip()


@dataclass
class App:
    """The program under benchmark: the generated sample application, or a
    real program from bench/lib/programs.py."""

    dir: Path
    sources: list[str]       # relative to dir
    manifest: dict
    name: str = "kiln-sample"
    exe_name: str = EXE_NAME
    cflags: list[str] = field(default_factory=list)   # -I/-D for every TU
    # Program arguments of the "startup" and "steady" scenarios (the
    # training runs) and, optionally, of the "heldout" one (measured only).
    scenarios: dict[str, list[str]] = field(default_factory=dict)
    # Files the scenarios read, written into every run directory.
    inputs: dict[str, bytes] = field(default_factory=dict)

    def write_inputs(self, run_dir: Path) -> None:
        for name, data in self.inputs.items():
            (run_dir / name).write_bytes(data)


@dataclass
class Build:
    """A compiled and linked program (a configuration or a training)."""

    dir: Path
    exe: Path
    objects: list[Path] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)   # -Wflag -> count


@dataclass
class PrepareContext:
    """What a Config.prepare hook gets (see Config)."""

    harness: "Harness"
    config: Config
    dir: Path                  # the configuration's build directory
    objects: list[Path]        # compiled objects (in link order)
    profile: Optional[Path]    # merged profile of config.training, if any
    app: App

    @property
    def scenario_profiles(self) -> dict[str, Path]:
        """Each training scenario's own profile ({"steady": ..., "startup": ...})."""
        return self.harness.scenario_profiles.get(self.config.training or "", {})

    def run(self, cmd: Sequence[str], name: str) -> subprocess.CompletedProcess:
        """Run a tool, logged to <dir>/logs/<name>.log; raises on failure."""
        return run_cmd(cmd, self.dir / "logs" / (name + ".log"),
                       "[%s] %s" % (self.config.name, name))

    def link(self, output: Path, extra_ldflags: Sequence[str] = ()) -> Path:
        """Link the objects with the configuration's flags (e.g. a
        preliminary binary to analyse); returns the output path."""
        return self.harness.link(self.config.name, self.objects, self.ldflags + list(extra_ldflags),
                                 output, self.dir / "logs" / ("link-" + output.name + ".log"))

    @property
    def ldflags(self) -> list[str]:
        return self.harness.config_flags(self.config, self.config.ldflags, self.dir)


# ==========================================================================
# The harness
# ==========================================================================

class Harness:
    def __init__(self, args: argparse.Namespace, tools: Tools):
        self.args = args
        self.tools = tools
        self.work = Path(args.work_dir).resolve()
        self.jobs = max(1, args.jobs)
        self.app: Optional[App] = None
        self.profiles: dict[str, Path] = {}           # training name -> .profdata
        # compile flags -> the build that compiled the app with them
        self.compiled: dict[tuple[str, ...], Build] = {}
        # training name -> scenario tag ("steady", "startup") -> .profdata
        self.scenario_profiles: dict[str, dict[str, Path]] = {}
        self.training_info: dict[str, dict] = {}
        self.training_errors: dict[str, str] = {}
        self.reference_output: Optional[dict[str, bytes]] = None
        self.reference_name: Optional[str] = None

    # ---------------------------------------------------------------- setup

    def clean(self) -> None:
        """Delete what a previous run left (only our own subdirectories)."""
        self.work.mkdir(parents=True, exist_ok=True)
        for child in sorted(self.work.iterdir()):
            if child.is_dir() and (child.name in ("app", "configs", "run") or
                                   child.name.startswith("train-")):
                shutil.rmtree(child)

    def steady_args(self) -> list[str]:
        if self.app is not None and self.app.scenarios:
            return list(self.app.scenarios["steady"])
        extra = ["--iterations", str(self.args.iterations)] if self.args.iterations else []
        return ["steady"] + extra

    def startup_args(self) -> list[str]:
        if self.app is not None and self.app.scenarios:
            return list(self.app.scenarios["startup"])
        return ["startup"]

    def heldout_args(self) -> Optional[list[str]]:
        """Arguments of the held-out scenario, which no training runs (None
        if the program has none)."""
        if self.app is not None and "heldout" in self.app.scenarios:
            return list(self.app.scenarios["heldout"])
        return None

    def fetch_program(self, name: str) -> App:
        """A real program's sources, fetched from Debian (bench/lib/programs.py)."""
        try:
            spec = programs.PROGRAMS[name](self.work, log)
        except programs.FetchError as e:
            raise StepError("cannot fetch %s: %s" % (name, e))
        log("%s: %d translation units from %s" % (name, len(spec["sources"]), spec["dir"]))
        return App(spec["dir"], spec["sources"], {}, name=spec["name"],
                   exe_name=spec["exe_name"], cflags=spec["cflags"],
                   scenarios=spec["scenarios"], inputs=spec["inputs"])

    def generate(self) -> App:
        out = self.work / "app"
        cmd = [sys.executable, str(self.args.generator), "--out", str(out)]
        if self.args.seed is not None:
            cmd += ["--seed", str(self.args.seed)]
        cmd += SAMPLE_SIZES[self.args.sample_size]
        log("generating sample app: " + shlex.join(cmd))
        t0 = time.monotonic()
        run_cmd(cmd, self.work / "logs" / "generate.log", "sample-app generation")
        sources_txt = out / "sources.txt"
        if not sources_txt.is_file():
            raise StepError("generator wrote no %s" % sources_txt)
        sources = [l.strip() for l in sources_txt.read_text().splitlines()
                   if l.strip() and not l.lstrip().startswith("#")]
        for s in sources:
            if Path(s).suffix not in LANGUAGES:
                raise StepError("%s: unsupported source suffix: %s" % (sources_txt, s))
            if not (out / s).is_file():
                raise StepError("%s lists a missing file: %s" % (sources_txt, s))
        manifest_path = out / "manifest.json"
        manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
        log("sample app: %d translation units (%.1fs)" % (len(sources), time.monotonic() - t0))
        app = App(out, sources, manifest, cflags=["-I", str(out / "src")])
        app.scenarios = {"startup": ["startup"], "steady": self.steady_args(),
                         "heldout": list(SAMPLE_HELDOUT_ARGS)}
        return app

    # ---------------------------------------------------------------- build

    def config_flags(self, config: Config, flags: Sequence[str], build_dir: Path) -> list[str]:
        kiln_bin = Path(self.args.kiln_bin)
        values = {"jobs": self.jobs, "dir": build_dir,
                  "plugin": kiln_bin.parent / "lib" / "KilnPlugin-22.so",
                  "kiln_lld": kiln_bin / "kiln-lld"}
        if config.training:
            values["profile"] = self.profiles[config.training]
            if any("{split_profile}" in f for f in flags):
                values["split_profile"] = self.split_profile(config.training)
        return expand(flags, **values)

    def split_profile(self, training: str) -> Path:
        """The training's merged profile with its counts multiplied by
        SPLIT_PROFILE_WEIGHT (once per run)."""
        merged = self.profiles[training]
        out = merged.with_name("%s-x%d.profdata" % (training, SPLIT_PROFILE_WEIGHT))
        if not out.is_file():
            run_cmd([self.tools.profdata, "merge", "-o", str(out),
                     "--weighted-input=%d,%s" % (SPLIT_PROFILE_WEIGHT, merged)],
                    merged.parent / "logs" / "merge-split.log",
                    "[train-%s] llvm-profdata merge (x%d)" % (training, SPLIT_PROFILE_WEIGHT))
        return out

    def compile(self, label: str, build_dir: Path, cflags: list[str]) -> Build:
        """Compile all translation units of the app in parallel (-j jobs).

        Configurations that differ only in how they link (the ordering
        configurations) compile with the same flags: their objects are
        compiled once per run and shared (compilation is deterministic).
        """
        app = self.app
        assert app is not None
        build = Build(build_dir, build_dir / app.exe_name)
        key = tuple(cflags)
        if key in self.compiled:
            shared = self.compiled[key]
            build.objects = list(shared.objects)
            build.warnings = dict(shared.warnings)
            build.times["compile_s"] = 0.0
            log("[%s] reusing the objects of %s (same compile flags)" % (label, shared.dir))
            return build
        obj_dir = build_dir / "obj"
        jobs = []
        for src in app.sources:
            driver_attr, lang_flags = LANGUAGES[Path(src).suffix]
            obj = obj_dir / (src + ".o")
            obj.parent.mkdir(parents=True, exist_ok=True)
            cmd = ([getattr(self.tools, driver_attr)] + lang_flags +
                   app.cflags + cflags +
                   ["-c", str(app.dir / src), "-o", str(obj)])
            jobs.append((src, obj, cmd))
        log("[%s] compiling %d TUs (-j%d): %s" % (label, len(jobs), self.jobs, shlex.join(cflags)))
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(run_cmd, cmd, build_dir / "logs" / "compile" / (src + ".log"),
                                   "[%s] compiling %s" % (label, src))
                       for src, obj, cmd in jobs]
            # Report the first failure in source order (deterministic) and
            # do not start the compiles still queued.
            try:
                results = [fut.result() for fut in futures]
            except StepError:
                for fut in futures:
                    fut.cancel()
                raise
        for proc in results:
            for m in re.finditer(rb"warning: .*\[(-W[^\]]+)\]", proc.stderr):
                flag = m.group(1).decode()
                build.warnings[flag] = build.warnings.get(flag, 0) + 1
        build.objects = [obj for _, obj, _ in jobs]
        build.times["compile_s"] = time.monotonic() - t0
        self.compiled[key] = build
        log("[%s] compiled in %.1fs%s" % (label, build.times["compile_s"],
            "; warnings: " + ", ".join("%s x%d" % kv for kv in sorted(build.warnings.items()))
            if build.warnings else ""))
        return build

    def link(self, label: str, objects: Sequence[Path], ldflags: Sequence[str], output: Path,
             log_file: Path) -> Path:
        cmd = ([self.tools.clangxx, "-fuse-ld=lld"] + list(ldflags) +
               [str(o) for o in objects] + ["-o", str(output)])
        run_cmd(cmd, log_file, "[%s] link" % label)
        return output

    # ------------------------------------------------------------- training

    def profile_for(self, name: str) -> Path:
        """Build the training `name` (once) and return its merged profile."""
        if name in self.profiles:
            return self.profiles[name]
        if name in self.training_errors:
            raise StepError("training %s failed earlier: %s" % (name, self.training_errors[name]))
        try:
            self.profiles[name] = self._train(TRAININGS[name])
        except StepError as e:
            self.training_errors[name] = str(e)
            raise
        return self.profiles[name]

    def _train(self, tr: Training) -> Path:
        label = "train-" + tr.name
        tdir = self.work / label
        profdir = tdir / "profiles"
        profdir.mkdir(parents=True, exist_ok=True)
        values = {"profdir": profdir, "jobs": self.jobs}
        build = self.compile(label, tdir, expand(tr.cflags, **values))
        t0 = time.monotonic()
        self.link(label, build.objects, expand(tr.ldflags, **values), build.exe,
                  tdir / "logs" / "link.log")
        build.times["link_s"] = time.monotonic() - t0
        t0 = time.monotonic()
        raws = []
        for scenario in tr.scenarios:
            args = (self.steady_args() if scenario == ("steady",) else
                    self.startup_args() if scenario == ("startup",) else list(scenario))
            self.app.write_inputs(tdir)
            tag = "-".join(scenario)
            # One raw profile per run: LLVM_PROFILE_FILE overrides the
            # -fprofile-generate directory; %m keeps modules apart.
            env = run_env({"LLVM_PROFILE_FILE": str(profdir / (tag + "-%m.profraw"))})
            log("[%s] training run: %s %s" % (label, self.app.exe_name, shlex.join(args)))
            proc = run_cmd(["./" + self.app.exe_name] + args, tdir / "logs" / ("run-%s.log" % tag),
                           "[%s] training run %s" % (label, tag), cwd=tdir, env=env)
            self.check_output(label, scenario[0], proc.stdout, tdir)
            new = sorted(profdir.glob(tag + "-*.profraw"))
            if not new:
                raise StepError("[%s] training run %s wrote no raw profile" % (label, tag))
            raws += new
        build.times["training_runs_s"] = time.monotonic() - t0
        merged = tdir / (tr.name + ".profdata")
        t0 = time.monotonic()
        run_cmd([self.tools.profdata, "merge", "-o", str(merged)] + [str(r) for r in raws],
                tdir / "logs" / "merge.log", "[%s] llvm-profdata merge" % label)
        # Each scenario's own profile too, for tools that weigh scenarios
        # separately (kiln order --scenario=startup=... --scenario=steady=...).
        per_scenario = {}
        for scenario in tr.scenarios:
            tag = "-".join(scenario)
            out = tdir / ("%s-%s.profdata" % (tr.name, tag))
            run_cmd([self.tools.profdata, "merge", "-o", str(out)] +
                    [str(r) for r in raws if r.name.startswith(tag + "-")],
                    tdir / "logs" / ("merge-%s.log" % tag),
                    "[%s] llvm-profdata merge %s" % (label, tag))
            per_scenario[tag] = out
        self.scenario_profiles[tr.name] = per_scenario
        build.times["merge_s"] = time.monotonic() - t0
        log("[%s] profile %s (link %.1fs, runs %.1fs, merge %.1fs)" % (
            label, merged, build.times["link_s"], build.times["training_runs_s"],
            build.times["merge_s"]))
        self.training_info[tr.name] = {
            "description": tr.description,
            "cflags": expand(tr.cflags, **values),
            "ldflags": expand(tr.ldflags, **values),
            "scenarios": [list(s) for s in tr.scenarios],
            "profile": str(merged),
            "raw_profiles": [r.name for r in raws],
            "warnings": build.warnings,
            "times": {k: round(v, 2) for k, v in build.times.items()},
        }
        return merged

    # ------------------------------------------------------------ measuring

    def check_output(self, label: str, mode: str, stdout: bytes, where: Path) -> None:
        """Compare program output with the reference configuration's."""
        if self.reference_output is None or mode not in self.reference_output:
            return
        if stdout != self.reference_output[mode]:
            bad = where / ("mismatch-%s.stdout" % mode)
            bad.write_bytes(stdout)
            raise StepError("[%s] output of `%s` differs from %s's (saved to %s)" % (
                label, mode, self.reference_name, bad))

    def build_config(self, cfg: Config) -> Build:
        cdir = self.work / "configs" / slug(cfg.name)
        cdir.mkdir(parents=True, exist_ok=True)
        profile = self.profile_for(cfg.training) if cfg.training else None
        build = self.compile(cfg.name, cdir, self.config_flags(cfg, cfg.cflags, cdir))
        ldflags = self.config_flags(cfg, cfg.ldflags, cdir)
        if cfg.prepare is not None:
            t0 = time.monotonic()
            ctx = PrepareContext(self, cfg, cdir, build.objects, profile, self.app)
            ldflags += list(cfg.prepare(ctx))
            build.times["prepare_s"] = time.monotonic() - t0
        t0 = time.monotonic()
        self.link(cfg.name, build.objects, ldflags, build.exe, cdir / "logs" / "link.log")
        build.times["link_s"] = time.monotonic() - t0
        log("[%s] linked %s (%.1fs)" % (cfg.name, build.exe, build.times["link_s"]))
        if cfg.postlink is not None:
            t0 = time.monotonic()
            ctx = PrepareContext(self, cfg, cdir, build.objects, profile, self.app)
            cfg.postlink(ctx, build.exe)
            build.times["postlink_s"] = time.monotonic() - t0
            log("[%s] post-link step done (%.1fs)" % (cfg.name, build.times["postlink_s"]))
        return build

    def measure(self, cfg: Config, build: Build) -> dict:
        """Run the scenarios and collect all figures of one configuration.

        Every configuration's binary is run as ./kiln-sample from the same
        staging directory <work>/run: the executable's path ends up on the
        process's initial stack, and its length changes the instruction
        count of the dynamic loader by a few instructions.
        """
        d, exe = build.dir, "./" + self.app.exe_name
        stage = self.work / "run"
        if stage.exists():
            shutil.rmtree(stage)
        stage.mkdir(parents=True)
        staged = stage / self.app.exe_name
        self.app.write_inputs(stage)
        shutil.copy2(build.exe, staged)
        env = run_env()
        scenarios = {"startup": self.startup_args(), "steady": self.steady_args()}
        heldout = self.heldout_args()
        if heldout is not None:
            scenarios["heldout"] = heldout
        outputs = {}
        t0 = time.monotonic()
        for mode, args in scenarios.items():
            proc = run_cmd([exe] + args, d / "logs" / ("run-%s.log" % mode),
                           "[%s] run %s" % (cfg.name, mode), cwd=stage, env=env)
            outputs[mode] = proc.stdout
        build.times["native_runs_s"] = time.monotonic() - t0
        if self.reference_output is None:
            self.reference_output, self.reference_name = outputs, cfg.name
        for mode, out in outputs.items():
            self.check_output(cfg.name, mode, out, d)

        faults = startup_faults([exe] + scenarios["startup"], stage, staged, env)

        # Static figures.
        sizes = section_sizes(run_cmd([self.tools.size, "-A", str(build.exe)],
                                      d / "logs" / "size.log", "llvm-size").stdout.decode())
        # BOLT keeps the original code, unused, as .bolt.org.text: it is
        # still in the file, so it counts.
        text = {k: v for k, v in sizes.items()
                if k in (".text", ".bolt.org.text") or k.startswith(".text.")}
        relocs = count_relocs(run_cmd([self.tools.readelf, "-rW", str(build.exe)],
                                      d / "logs" / "relocs.log", "llvm-readelf -r").stdout.decode())
        dyn = {k: v for k, v in relocs.items() if k in (".rela.dyn", ".relr.dyn")}

        # Valgrind runs (independent, so up to --jobs of them at once).
        vg = self.tools.valgrind
        runs = {
            "callgrind-steady": [vg, "--tool=callgrind", "--dump-instr=yes",
                                 "--callgrind-out-file=" + str(d / "callgrind.steady.out"),
                                 exe] + scenarios["steady"],
            "cachegrind-steady": [vg, "--tool=cachegrind", "--cache-sim=yes"] + CACHEGRIND_CACHE +
                                 ["--cachegrind-out-file=" + str(d / "cachegrind.steady.out"),
                                  exe] + scenarios["steady"],
            "callgrind-startup": [vg, "--tool=callgrind", "--dump-instr=yes",
                                  "--callgrind-out-file=" + str(d / "callgrind.startup.out"),
                                  exe] + scenarios["startup"],
        }
        if heldout is not None:
            # Only the total is read: no per-instruction dump.
            runs["callgrind-heldout"] = [
                vg, "--tool=callgrind",
                "--callgrind-out-file=" + str(d / "callgrind.heldout.out"), exe] + heldout
        log("[%s] valgrind: %s" % (cfg.name, ", ".join(runs)))
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futs = {name: pool.submit(run_cmd, cmd, d / "logs" / (name + ".log"),
                                      "[%s] %s" % (cfg.name, name), stage, env)
                    for name, cmd in runs.items()}
            procs = {name: fut.result() for name, fut in futs.items()}
        build.times["valgrind_s"] = time.monotonic() - t0
        for name, proc in procs.items():
            mode = name.split("-")[1]
            if proc.stdout != outputs[mode]:
                raise StepError("[%s] output of `%s` under valgrind (%s) differs from the "
                                "native run" % (cfg.name, mode, name))

        cg = pages.read_callgrind(str(d / "callgrind.steady.out"))
        ir = cg.total("Ir")
        cache = read_cachegrind(d / "cachegrind.steady.out")
        if ir is None or "I1mr" not in cache:
            raise StepError("[%s] no Ir / I1mr totals in the valgrind output" % cfg.name)
        ir_heldout = None
        if heldout is not None:
            ir_heldout = pages.read_callgrind(str(d / "callgrind.heldout.out")).total("Ir")
            if ir_heldout is None:
                raise StepError("[%s] no Ir total in the held-out callgrind output" % cfg.name)

        startup = pages.read_callgrind(str(d / "callgrind.startup.out"))
        info = pages.read_binary(str(staged), self.tools.readelf, self.tools.objdump)
        report = pages.startup_pages(startup, str(staged), info)
        if report.bias % report.page_size:
            raise StepError("[%s] implausible load bias %#x (%s)" % (cfg.name, report.bias,
                                                                      report.bias_method))
        # The steady state's code working set (its iTLB footprint): the
        # same page count over the functions the steady run executed.
        steady = pages.startup_pages(cg, str(staged), info)
        return {
            "ir_steady": ir,
            "ir_heldout": ir_heldout,
            "i1_misses_steady": cache["I1mr"],
            "text_bytes": sum(text.values()),
            "dyn_relocs": sum(dyn.values()),
            "dyn_relocs_relative": sum(relocs.get("R_X86_64_RELATIVE@" + k, 0) for k in dyn),
            "startup_pages": report.pages,
            "startup_lower_bound": report.lower_bound,
            "pages_per_bound": report.ratio,
            "startup_block_bound": report.block_lower_bound,
            "steady_pages": steady.pages,
            "steady_lower_bound": steady.lower_bound,
            "startup_minor_faults": faults["minor"],
            "startup_major_faults_evicted": faults["major_evicted"],
            "_details": {
                "startup_faults": faults,
                "steady_pages": steady.to_dict(),
                "cachegrind_steady": cache,
                "text_sections": text,
                "relocations": relocs,
                "startup": report.to_dict(),
                "startup_ir": startup.total("Ir"),
                "output_bytes": {m: len(o) for m, o in outputs.items()},
            },
        }


FAULT_RUNS = 7  # native startup runs per configuration for the fault counts


def run_and_count_faults(cmd: Sequence[str], cwd: Path, env: dict) -> tuple[int, int]:
    """Run `cmd` to completion; return its (minor, major) page faults."""
    proc = subprocess.Popen(list(cmd), cwd=str(cwd), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise StepError("`%s` exited with %d while counting faults" % (" ".join(cmd),
                                                                         proc.returncode))
    return usage.ru_minflt, usage.ru_majflt


def evict_from_page_cache(path: Path) -> None:
    """Drop the file's pages from the page cache (clean pages only)."""
    fd = os.open(str(path), os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def startup_faults(cmd: Sequence[str], cwd: Path, exe: Path, env: dict) -> dict:
    """Page faults of the startup scenario, native, as medians of FAULT_RUNS:
    minor faults with the binary in the page cache (each first touch of a
    mapped page that fault-around has not mapped yet), and major faults after
    evicting the binary with POSIX_FADV_DONTNEED.  The second figure depends
    on the disk's read-ahead (see read_ahead_kb), which the notes print."""
    minor, major = [], []
    for _ in range(FAULT_RUNS):
        minor.append(run_and_count_faults(cmd, cwd, env)[0])
        evict_from_page_cache(exe)
        major.append(run_and_count_faults(cmd, cwd, env)[1])
    return {"minor": int(statistics.median(minor)),
            "major_evicted": int(statistics.median(major)),
            "minor_runs": minor, "major_evicted_runs": major}


def read_ahead_kb() -> dict:
    """Read-ahead of each block device, for the notes on major faults."""
    out = {}
    for dev in sorted(Path("/sys/block").glob("*")):
        try:
            out[dev.name] = int((dev / "queue" / "read_ahead_kb").read_text())
        except (OSError, ValueError):
            pass
    return out


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def section_sizes(text: str) -> dict[str, int]:
    """`llvm-size -A` output -> {section: size}."""
    out = {}
    for line in text.splitlines():
        toks = line.split()
        if len(toks) == 3 and toks[0].startswith(".") and toks[1].isdigit():
            out[toks[0]] = out.get(toks[0], 0) + int(toks[1])
    return out


def count_relocs(text: str) -> dict[str, int]:
    """`llvm-readelf -rW` output -> {section: relocations} plus
    {"TYPE@section": relocations of that type}.

    The per-section count is readelf's "contains N entries", which for a
    packed .relr.dyn is the number of decoded (R_X86_64_RELATIVE)
    relocations, not the number of RELR words.
    """
    out: dict[str, int] = {}
    section = None
    for line in text.splitlines():
        m = re.match(r"^Relocation section '([^']+)' .* contains (\d+) entr", line)
        if m:
            section = m.group(1)
            out[section] = int(m.group(2))
            if section.startswith(".relr"):
                out["R_X86_64_RELATIVE@" + section] = int(m.group(2))
            continue
        m = re.match(r"^\s*[0-9a-fA-F]{8,}\s+[0-9a-fA-F]{8,}\s+(R_\w+)", line)
        if section and not section.startswith(".relr") and m:
            key = m.group(1) + "@" + section
            out[key] = out.get(key, 0) + 1
    return out


def read_cachegrind(path: Path) -> dict[str, int]:
    """Totals of a cachegrind.out file ({event: count})."""
    events: list[str] = []
    summary: list[int] = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(t) for t in line.split()[1:]]
    return dict(zip(events, summary))


# ==========================================================================
# Reporting
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
    for r in ok:
        m = r["metrics"]
        m["ir_steady_vs_o2"] = m["ir_steady"] / ref["metrics"]["ir_steady"] if ref else None
        m["i1_vs_best_stock"] = m["i1_misses_steady"] / best if best else None
        held = m.get("ir_heldout")
        m["ir_heldout_vs_ref"] = held / href if held is not None and href else None


def fmt_int(v: Optional[int]) -> str:
    return "n/a" if v is None else format(v, ",")


def fmt_ratio(v: Optional[float]) -> str:
    return "n/a" if v is None else "%.3f" % v


def table_rows(results: list[dict]) -> list[list[str]]:
    rows = []
    for r in results:
        if r["status"] != "ok":
            what = "not run" if r["status"] == "skipped" else "ERROR"
            rows.append([r["name"], what + " (see below)"] + [""] * (len(COLUMNS) - 2))
            continue
        m = r["metrics"]
        rows.append([
            r["name"],
            fmt_int(m["ir_steady"]), fmt_ratio(m["ir_steady_vs_o2"]),
            fmt_int(m.get("ir_heldout")), fmt_ratio(m.get("ir_heldout_vs_ref")),
            fmt_int(m["i1_misses_steady"]), fmt_ratio(m["i1_vs_best_stock"]),
            fmt_int(m["text_bytes"]),
            "%s (%s)" % (fmt_int(m["dyn_relocs"]), fmt_int(m["dyn_relocs_relative"])),
            fmt_int(m["startup_pages"]), fmt_int(m["startup_lower_bound"]),
            fmt_ratio(m["pages_per_bound"]), fmt_int(m.get("startup_block_bound")),
            fmt_int(m["steady_pages"]), fmt_int(m["steady_lower_bound"]),
            fmt_int(m["startup_minor_faults"]), fmt_int(m["startup_major_faults_evicted"]),
        ])
    return rows


def text_table(results: list[dict]) -> str:
    """Plain-text table: first column left-aligned, figures right-aligned.
    A failed configuration gets a row that says ERROR instead of figures."""
    heads = [c[0] for c in COLUMNS]
    rows = table_rows(results)
    ok_rows = [row for r, row in zip(results, rows) if r["status"] == "ok"]
    widths = [max([len(h)] + [len(row[i]) for row in ok_rows]) for i, h in enumerate(heads)]
    widths[0] = max([widths[0]] + [len(row[0]) for row in rows])

    def line(cells):
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(cells, widths))).rstrip()

    out = [line(heads), "  ".join("-" * w for w in widths)]
    for r, row in zip(results, rows):
        out.append(line(row) if r["status"] == "ok" else row[0].ljust(widths[0]) + "  " + row[1])
    return "\n".join(out)


def markdown_table(results: list[dict]) -> str:
    heads = [c[0] for c in COLUMNS]
    out = ["| " + " | ".join(heads) + " |",
           "|" + "|".join([":---"] + ["---:"] * (len(heads) - 1)) + "|"]
    for row in table_rows(results):
        out.append("| " + " | ".join(row) + " |")
    return "\n".join(out)


def notes(results: list[dict], harness: Harness) -> list[str]:
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


# ==========================================================================
# Main
# ==========================================================================

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


def check_work_dir(ap: argparse.ArgumentParser, work_dir: str) -> Path:
    """The resolved --work-dir, which every benchmark wipes parts of: refuse
    the source tree and its parents (an argparse error)."""
    work = Path(work_dir).resolve()
    if work == REPO_DIR or work in REPO_DIR.parents or BENCH_DIR in (work, *work.parents):
        ap.error("--work-dir must not be the source tree: %s" % work)
    return work


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    if args.list_configs:
        for c in CONFIGS:
            print("%s: %s\n  cflags:  %s\n  ldflags: -fuse-ld=lld %s%s%s" % (
                c.name, c.description, shlex.join(c.cflags), shlex.join(c.ldflags),
                "\n  training: " + TRAININGS[c.training].description if c.training else "",
                "\n  prepare: " + c.prepare.__name__ if c.prepare else ""))
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

    add_ratios(results, harness.reference_name)
    elapsed = time.monotonic() - start
    note_lines = notes(results, harness) if harness.app else ["ERROR: %s" % fatal]
    if args.program == "sample":
        what = "sample-size=%s seed=%s" % (
            args.sample_size, "default" if args.seed is None else args.seed)
    else:
        what = "program=%s (Debian source)" % args.program
    exe_name = harness.app.exe_name if harness.app else EXE_NAME
    heldout = harness.heldout_args()
    header = "Kiln benchmark: %s steady=`%s`%s; %s" % (
        what, shlex.join([exe_name] + harness.steady_args()),
        "" if heldout is None else " held-out=`%s`" % shlex.join([exe_name] + heldout),
        tools.version())
    table = text_table(results)
    print(header)
    print()
    print(table)
    print()
    for n in note_lines:
        print(n)
    sys.stdout.flush()

    # JSON and markdown versions.
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
        "columns": [c[0] for c in COLUMNS],
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

    md = ["# Kiln benchmark results", "", header, "", markdown_table(results), ""]
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
    log("results: %s, %s (total %.0fs)" % (json_path, work / "results.md", elapsed))
    return 0 if all(r["status"] == "ok" for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

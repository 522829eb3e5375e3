# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The steps some configurations of bench/run.py run besides compile and
link: `prepare` hooks (after training and compilation, before the final
link; they return extra link flags) and `postlink` hooks (on the linked
program, which they may rewrite in place). Each gets a
measure.PrepareContext; lib/configs.py names them in its rows."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from .common import BENCH_DIR, REPO_DIR, StepError, run_cmd, run_env

if TYPE_CHECKING:
    from .measure import PrepareContext


def kiln_tool(ctx: "PrepareContext") -> str:
    """Kiln's `kiln` tool; a Kiln row fails (never silently vanishes)
    without it."""
    kiln = ctx.harness.tools.kiln
    if not kiln:
        raise StepError("[%s] Kiln's `kiln` tool not found in --kiln-bin=%s; "
                        "build Kiln first" % (ctx.config.name, ctx.harness.args.kiln_bin))
    return kiln


def kiln_lld_tool(ctx: "PrepareContext") -> Path:
    """kiln-lld, next to `kiln` in --kiln-bin."""
    kiln = ctx.harness.tools.kiln
    kiln_lld = Path(kiln).parent / "kiln-lld" if kiln else None
    if not kiln_lld or not kiln_lld.is_file():
        raise StepError("[%s] kiln-lld not found in --kiln-bin=%s; build Kiln first"
                        % (ctx.config.name, ctx.harness.args.kiln_bin))
    return kiln_lld


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


def kiln_order_prepare(ctx: "PrepareContext") -> list[str]:
    """Kiln's function order for a ThinLTO build.

    The objects are bitcode, so Kiln orders from the linked program: a
    preliminary link (ThinLTO is deterministic, so the final link produces
    the same functions under the same names), then `kiln order` with the
    startup and steady-state profiles as separate scenarios, then the final
    link with the ordering file (which also turns lld's own sort off).
    (Kiln-lld orders the ThinLTO backends' objects instead, with their
    post-inlining call graph; on the sample app both give the same pages:
    docs/benchmarks.md.)
    """
    kiln = kiln_tool(ctx)
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


def kiln_lld_prepare(ctx: "PrepareContext",
                     profiles: Optional[dict[str, Path]] = None) -> list[str]:
    """The one-command link: `kiln-lld --kiln-profile= --kiln-startup-profile=`
    computes the order from the objects the link really uses (ThinLTO's
    backend objects, with their post-inlining call graph) and links with it.
    `profiles` ({"startup": ..., "steady": ...}) default to the training's."""
    kiln_lld = kiln_lld_tool(ctx)
    profiles = profiles or ctx.scenario_profiles
    return ["-fuse-ld=%s" % kiln_lld,
            "-Wl,--kiln-startup-profile=%s" % profiles["startup"],
            "-Wl,--kiln-profile=%s" % profiles["steady"],
            "-Wl,--kiln-order-out=%s" % (ctx.dir / "kiln-lld.order"),
            "-Wl,--kiln-report=%s" % (ctx.dir / "kiln-lld-order.json")]


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


# Function splitting. LLVM's machine function splitter computes a
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
    profiles = training_profiles(ctx, exe, bdir, "bolt")
    fdata = sorted(str(f) for files in profiles.values() for f in files)
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
        h.check_output(ctx.config.name, mode, ctx.app.output(proc.stdout, cdir), ctx.dir)
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


def kiln_full_lto_prepare(ctx: "PrepareContext") -> list[str]:
    """Kiln's layout inside full LTO: kiln-function-order orders the merged
    module (startup functions from the startup run's temporal traces), and
    code generation emits it in that order; no ordering file."""
    kiln_lld = kiln_lld_tool(ctx)
    return ["-fuse-ld=%s" % kiln_lld,
            "-Wl,-mllvm,-kiln-function-order",
            "-Wl,-mllvm,-kiln-startup-profile=%s" % ctx.scenario_profiles["startup"],
            "-Wl,-mllvm,-kiln-function-order-out=%s" % (ctx.dir / "full-lto.order")]


def kiln_imports_prepare_with(budget: str) -> Callable[["PrepareContext"], list[str]]:
    def kiln_imports_prepare(ctx: "PrepareContext") -> list[str]:
        """`kiln imports` over the ThinLTO objects (which carry the profile's
        counts) and the merged profile; the link uses its workload definition."""
        kiln = kiln_tool(ctx)
        plan = ctx.dir / "kiln-imports.workload.json"
        ctx.run([kiln, "imports", "--profile=%s" % ctx.profile,
                 "--budget=%s" % budget,
                 "--workload-def=%s" % plan,
                 "--report=%s" % (ctx.dir / "kiln-imports.report.json")] +
                [str(o) for o in ctx.objects], "kiln-imports")
        return ["-Wl,-mllvm,-thinlto-workload-def=%s" % plan]
    return kiln_imports_prepare


def kiln_inline_plan_prepare_with(budget: str) -> Callable[["PrepareContext"], list[str]]:
    def kiln_inline_plan_prepare(ctx: "PrepareContext") -> list[str]:
        """`kiln imports --inline-budget=<budget>`: one plan of the
        cross-module call sites to inline and the imports they need. The
        thin link imports by its workload definition; kiln-lld (which loads
        Kiln's plugin) hands the inline plan to the backends."""
        kiln = kiln_tool(ctx)
        workload = ctx.dir / "kiln-inline-plan.workload.json"
        plan = ctx.dir / "kiln-inline-plan.json"
        ctx.run([kiln, "imports", "--profile=%s" % ctx.profile,
                 "--inline-budget=%s" % budget,
                 "--workload-def=%s" % workload,
                 "--inline-plan=%s" % plan,
                 "--report=%s" % (ctx.dir / "kiln-inline-plan.report.json")] +
                [str(o) for o in ctx.objects], "kiln-imports")
        return ["-fuse-ld=%s" % kiln_lld_tool(ctx),
                "-Wl,-mllvm,-thinlto-workload-def=%s" % workload,
                "-Wl,-mllvm,-kiln-inline-plan=%s" % plan]
    return kiln_inline_plan_prepare



def training_profiles(ctx: "PrepareContext", program: Path, bdir: Path,
                      source: str) -> dict[str, list[Path]]:
    """Runs the training scenarios on `program` in `bdir`/train and returns
    each scenario's profile files: BOLT's instrumentation (`.fdata`, one per
    run; the program must be linked with --emit-relocs) or callgrind's exact
    trace (`--dump-instr=yes --collect-jumps=yes`). Each run's output must
    be the reference's."""
    h = ctx.harness
    train = bdir / "train"
    train.mkdir(parents=True)
    ctx.app.write_inputs(train)
    profiles: dict[str, list[Path]] = {}
    if source == "bolt":
        if not h.tools.bolt:
            raise StepError("[%s] llvm-bolt not found in %s; install Debian's bolt-22"
                            % (ctx.config.name, h.args.llvm_bin))
        ctx.run([h.tools.bolt, str(program), "-instrument", "-o", str(train / ctx.app.exe_name),
                 "--instrumentation-file=%s" % (bdir / "prof"),
                 "--instrumentation-file-append-pid"], "bolt-instrument")
    else:
        shutil.copy2(program, train / ctx.app.exe_name)
    for mode, args in (("startup", h.startup_args()), ("steady", h.steady_args())):
        cmd = ["./" + ctx.app.exe_name] + args
        out = bdir / ("%s.callgrind" % mode)
        if source == "callgrind":
            cmd = [h.tools.valgrind, "--tool=callgrind", "--dump-instr=yes",
                   "--collect-jumps=yes", "--callgrind-out-file=%s" % out] + cmd
        before = set(bdir.glob("prof.*.fdata"))
        proc = run_cmd(cmd, ctx.dir / "logs" / ("%s-train-%s.log" % (source, mode)),
                       "[%s] %s training run %s" % (ctx.config.name, source, mode),
                       cwd=train, env=run_env())
        h.check_output(ctx.config.name, mode, ctx.app.output(proc.stdout, train), ctx.dir)
        if source == "callgrind":
            profiles[mode] = [out]
        else:
            profiles[mode] = sorted(set(bdir.glob("prof.*.fdata")) - before)
            if not profiles[mode]:
                raise StepError("[%s] the BOLT-instrumented %s run wrote no profile"
                                % (ctx.config.name, mode))
    return profiles


def block_layout_postlink_with(source: str,
                               base_prepare: Optional[Callable] = None) -> Callable:
    """Block-level layout from a profile of the final binary: link with the
    block address map, run the training scenarios on that binary (profiled
    with `source`: "bolt" or "callgrind"), `kiln block-profile`, `kiln
    block-layout`, then relink the program from the same objects with the
    basic-block-sections profile and the cluster order. `base_prepare`
    gives the link flags of the function-level row it builds on."""
    def postlink(ctx: "PrepareContext", exe: Path) -> None:
        kiln = kiln_tool(ctx)
        base = list(base_prepare(ctx)) if base_prepare else []
        bdir = ctx.dir / "block-layout"
        if bdir.exists():
            shutil.rmtree(bdir)
        (bdir / "mapped").mkdir(parents=True)
        # BOLT's instrumentation needs the relocations; they change no code.
        relocs = ["-Wl,--emit-relocs"] if source == "bolt" else []
        mapped = ctx.link(bdir / "mapped" / ctx.app.exe_name,
                          base + ["-Wl,--lto-basic-block-address-map"] + relocs)
        profiles = training_profiles(ctx, mapped, bdir, source)
        kbp = bdir / "blocks.kbp"
        ctx.run([kiln, "block-profile", "--binary=%s" % mapped]
                + ["--scenario=%s=%s" % (mode, ",".join(str(p) for p in files))
                   for mode, files in profiles.items()]
                + ["-o", str(kbp)], "kiln-block-profile")
        sections = bdir / "bbsections.txt"
        order = bdir / "blocks.order"
        ctx.run([kiln, "block-layout", str(kbp), "-o", str(sections),
                 "--symbol-ordering-file=%s" % order,
                 "--report=%s" % (bdir / "block-layout.json")], "kiln-block-layout")
        relinked = ctx.link(bdir / ctx.app.exe_name,
                            base + ["-Wl,--lto-basic-block-sections=%s" % sections,
                                    "-Wl,--symbol-ordering-file=%s" % order,
                                    "-Wl,--no-warn-symbol-ordering"])
        shutil.copy2(relinked, exe)
    return postlink

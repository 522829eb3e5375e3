# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What bench/run.py builds: the trainings (instrumented builds and their
runs) and the configuration rows of its table, one CONFIGS list in table
order, each row its compile and link flags and the hooks (lib/hooks.py) it
runs. Data only: lib/measure.py builds and measures them.

Adding a configuration: add a Config(...) to CONFIGS where its row should
stand (see bench/README.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional, Sequence

from .hooks import (BOLT_OPTIONS, SPLIT_PROFILE_WEIGHT, block_layout_postlink_with,
                    bolt_postlink, kiln_full_lto_prepare, kiln_imports_prepare_with,
                    kiln_inline_plan_prepare_with, kiln_lld_cs_prepare,
                    kiln_lld_preread_prepare, kiln_lld_prepare,
                    kiln_lld_split_cs_use_prepare, kiln_lld_split_prepare,
                    kiln_order_prepare, lld_bp_startup_prepare, profdata_order_prepare,
                    stock_cs_use_prepare)

if TYPE_CHECKING:
    from .measure import PrepareContext

# Generator arguments per --sample-size.
SAMPLE_SIZES = {
    "tiny": ["--functions", "300", "--tus", "8"],   # quick smoke run
    "default": [],                                  # generator defaults
}

# The sample app's held-out scenario: the `mixed` workload (other root
# weights, about 80% of the steady roots plus functions only it runs) on
# other input data (--input-seed; the default is 1). No training runs it, so
# none of its counts reach a profile: Ir on it shows whether what a build
# learnt from the `steady` training run carries over to work it never saw.
SAMPLE_HELDOUT_ARGS = ("mixed", "--input-seed", "2")


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
    """One row of the benchmark: how to build the sample application.

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
    lib/hooks.py), {jobs}, {dir} (this configuration's build directory),
    {plugin} (Kiln's pass plugin) and {kiln_lld}, both from --kiln-bin.
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

# --------------------------------------------------------------- flag sets

THINLTO_CFLAGS = ("-O2", "-flto=thin", "-fprofile-use={profile}")
THINLTO_LDFLAGS = ("-O2", "-flto=thin", "-Wl,--thinlto-jobs={jobs}")
# Compiled with the profile's counts multiplied by SPLIT_PROFILE_WEIGHT
# (lib/hooks.py says why).
SPLIT_CFLAGS = ("-O2", "-flto=thin", "-fprofile-use={split_profile}")
FULLLTO_CFLAGS = ("-O2", "-flto", "-fprofile-use={profile}")
FULLLTO_LDFLAGS = ("-O2", "-flto")

# The import-planning rows differ only in what the thin link imports: LLVM's
# default importer (the baseline), Chromium's -import-instr-limit=5,
# ChromeOS's 30, and `kiln imports`'s plan (-thinlto-workload-def). All print
# their imports and a time trace, which bench/import_stats.py turns into
# import counts and thin-link/backend times.
IMPORT_STATS_LDFLAGS = ("-Wl,-mllvm,-print-imports", "-Wl,--time-trace")
# `kiln imports --budget=`: the main row's, and the sweep's (percentages of
# the program's instructions).
KILN_IMPORTS_BUDGET = "3%"
KILN_IMPORTS_SWEEP = ("1%", "10%")
# `kiln imports --inline-budget=`: growth budgets of the one import+inline
# plan (percentages of the program's instructions).
KILN_PLAN_BUDGETS = ("2%", "5%", "10%")
# Kiln's import shaping (pre-link compile; see the import-shaping rows below)
# and its inline advisor (pre-link compile and, through kiln-lld, the ThinLTO
# backends).
IMPORT_SHAPING_CFLAGS = THINLTO_CFLAGS + ("-fpass-plugin={plugin}", "-mllvm",
                                          "-kiln-import-shaping")
KILN_INLINE_CFLAGS = ("-mllvm", "-kiln-inline")
KILN_INLINE_LDFLAGS = ("-fuse-ld={kiln_lld}", "-Wl,-mllvm,-kiln-inline")
# Linked like PGO+ThinLTO (lld's call-graph sort off): the import-shaping
# family and the size rows compare with that row.
UNSORTED_LDFLAGS = ("-Wl,--call-graph-profile-sort=none",)


# ------------------------------------------------------- row families

def budget_suffix(budget: str) -> str:
    """Row-name suffix of a `kiln imports` budget: none for the main row's
    KILN_IMPORTS_BUDGET, `-<N>pct` for the sweep's (`%` is awkward in
    directory names and shells)."""
    return "" if budget == KILN_IMPORTS_BUDGET else "-" + budget.rstrip("%") + "pct"


def thinlto_row(name: str, description: str, cflags: tuple[str, ...] = THINLTO_CFLAGS,
                ldflags: tuple[str, ...] = (), prepare: Optional[Callable] = None,
                postlink: Optional[Callable] = None, stock: bool = True) -> Config:
    """A PGO + ThinLTO row (the irpgo training's profile), linked with
    THINLTO_LDFLAGS plus `ldflags`: lld's default call-graph sort (cdsort)
    unless `ldflags` say otherwise."""
    return Config(name=name, description=description, cflags=cflags,
                  ldflags=THINLTO_LDFLAGS + ldflags, training="irpgo", prepare=prepare,
                  postlink=postlink, stock=stock)


def import_row(name: str, description: str, cflags: tuple[str, ...] = THINLTO_CFLAGS,
               ldflags: tuple[str, ...] = (), budget: Optional[str] = None,
               inline_budget: Optional[str] = None, stock: bool = False) -> Config:
    """A row of the import-planning family: PGO + ThinLTO with lld's default
    order, the link printing its imports and a time trace
    (IMPORT_STATS_LDFLAGS) so that every row of the family is read the same
    way, plus `ldflags`; with `budget`, the thin link follows `kiln imports
    --budget=<budget>`'s plan; with `inline_budget`, the thin link and the
    backends follow `kiln imports --inline-budget=<inline_budget>`'s import
    and inline plan. Only the rows that differ from the baseline in stock
    LLVM options are `stock`."""
    prepare = None
    if budget:
        prepare = kiln_imports_prepare_with(budget)
    elif inline_budget:
        prepare = kiln_inline_plan_prepare_with(inline_budget)
    return thinlto_row("PGO+ThinLTO+" + name, description, cflags=cflags,
                       ldflags=IMPORT_STATS_LDFLAGS + ldflags, prepare=prepare,
                       stock=stock)


def unsorted_row(name: str, description: str, cflags: tuple[str, ...] = THINLTO_CFLAGS,
                 ldflags: tuple[str, ...] = (), stock: bool = True) -> Config:
    """A row linked like PGO+ThinLTO (lld's call-graph sort off), plus
    `ldflags`: the import-shaping family and the size rows compare with it."""
    return thinlto_row("PGO+ThinLTO+" + name, description, cflags=cflags,
                       ldflags=UNSORTED_LDFLAGS + ldflags, stock=stock)


def import_limit(n: int) -> tuple[str, ...]:
    return ("-Wl,-mllvm,-import-instr-limit=%d" % n,)


# ------------------------------------------------------------- the table

# Rows of the table, in this order.  All link with lld (-fuse-ld=lld is added
# by the harness); Debian's clang links PIE by default, which is kept.
CONFIGS = [
    # ---- Stock baselines and function layout.
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
    thinlto_row("PGO+ThinLTO",
                "PGO + -flto=thin, lld call-graph sort disabled (unordered baseline)",
                ldflags=UNSORTED_LDFLAGS),
    Config(
        name="PGO+ThinLTO+cdsort",
        description="PGO + -flto=thin + -ffunction-sections, lld --call-graph-profile-sort=cdsort",
        cflags=("-O2", "-flto=thin", "-ffunction-sections", "-fprofile-use={profile}"),
        ldflags=("-O2", "-flto=thin", "-ffunction-sections", "-Wl,--thinlto-jobs={jobs}",
                 "-Wl,--call-graph-profile-sort=cdsort"),
        training="irpgo",
    ),
    thinlto_row("PGO+ThinLTO+hfsort",
                "PGO + -flto=thin, lld --call-graph-profile-sort=hfsort (C3)",
                ldflags=("-Wl,--call-graph-profile-sort=hfsort",)),
    thinlto_row("PGO+ThinLTO+bp",
                "PGO + -flto=thin, lld --bp-startup-sort=function with the "
                "startup run's temporal profile",
                prepare=lld_bp_startup_prepare),
    thinlto_row("PGO+ThinLTO+profdata-order",
                "PGO + -flto=thin, lld --symbol-ordering-file from "
                "`llvm-profdata order` of the startup profile",
                prepare=profdata_order_prepare),
    thinlto_row("Kiln",
                "PGO + -flto=thin, linked with `kiln order`'s ordering file "
                "(startup and steady profiles as scenarios)",
                prepare=kiln_order_prepare, stock=False),
    thinlto_row("Kiln-lld",
                "PGO + -flto=thin, one-command `kiln-lld --kiln-profile= "
                "--kiln-startup-profile=` link (order from the link's own objects)",
                prepare=kiln_lld_prepare, stock=False),
    thinlto_row("Kiln-lld+preread",
                "Kiln-lld, plus the pre-read plan and kiln_preread() run from a "
                "constructor (MADV_POPULATE_READ of the startup range)",
                prepare=kiln_lld_preread_prepare, stock=False),
    # ---- Function splitting, BOLT and CSPGO.
    thinlto_row("PGO+ThinLTO+cdsort+split",
                "PGO + -flto=thin, LLVM's machine function splitter with its defaults "
                "(-enable-split-machine-functions in the backends), lld cdsort",
                ldflags=("-Wl,-mllvm,-enable-split-machine-functions",)),
    thinlto_row("BOLT",
                "PGO + -flto=thin + lld cdsort, then llvm-bolt with its instrumentation "
                "profile of the same training runs (" + " ".join(BOLT_OPTIONS) + ")",
                ldflags=("-Wl,--emit-relocs",),
                postlink=bolt_postlink),
    thinlto_row("Kiln-lld+cs",
                "Kiln-lld ordered from CSPGO profiles of the same objects (one more "
                "instrumented link and training run): the post-inlining startup set",
                prepare=kiln_lld_cs_prepare, stock=False),
    thinlto_row("Kiln-lld+split+cs",
                "Kiln-lld+split, ordered from CSPGO profiles of the same objects",
                cflags=SPLIT_CFLAGS,
                prepare=lambda ctx: (kiln_lld_cs_prepare(ctx)
                                     + ["-Wl,-mllvm,-kiln-split-functions"]),
                stock=False),
    thinlto_row("PGO+CSPGO+ThinLTO+cdsort",
                "PGO + -flto=thin + lld cdsort, the final link's backends also using "
                "CSPGO profiles of the same objects (LLVM's CSPGO flow; the Ir reference "
                "for the rows that use them)",
                prepare=stock_cs_use_prepare),
    thinlto_row("Kiln-lld+split+cspgo",
                "Kiln-lld+split+cs whose final backends also use the CSPGO profiles "
                "(--lto-cs-profile-file): the splitter sees post-inlining counts",
                cflags=SPLIT_CFLAGS,
                prepare=kiln_lld_split_cs_use_prepare, stock=False),
    thinlto_row("Kiln-bb",
                "PGO + -flto=thin, then block layout from BOLT's instrumentation "
                "profile of the address-mapped program (`kiln block-profile`, "
                "`kiln block-layout`), relinked with the basic-block-sections "
                "profile and the cluster order",
                postlink=block_layout_postlink_with("bolt"), stock=False),
    thinlto_row("Kiln-bb+callgrind",
                "Kiln-bb with the block profile from callgrind's exact trace "
                "(--dump-instr=yes --collect-jumps=yes) instead of BOLT's",
                postlink=block_layout_postlink_with("callgrind"), stock=False),
    thinlto_row("Kiln-lld+split",
                "Kiln-lld with -kiln-split-functions (blocks no training run executed "
                "go to cold parts), compiled with the x%d-weighted profile"
                % SPLIT_PROFILE_WEIGHT,
                cflags=SPLIT_CFLAGS,
                prepare=kiln_lld_split_prepare, stock=False),
    # ---- Full LTO.
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
    # ---- Import planning: lld's default order, imports printed; all
    # compare with PGO+ThinLTO+stock-imports, which comes first.
    import_row("stock-imports",
               "PGO + -flto=thin, lld's default order, LLVM's default importer "
               "(import-instr-limit=100); imports printed, time trace", stock=True),
    import_row("import-limit-5",
               "as PGO+ThinLTO+stock-imports with -import-instr-limit=5 (Chromium)",
               ldflags=("-Wl,-mllvm,-import-instr-limit=5",), stock=True),
    import_row("import-limit-30",
               "as PGO+ThinLTO+stock-imports with -import-instr-limit=30 (ChromeOS)",
               ldflags=("-Wl,-mllvm,-import-instr-limit=30",), stock=True),
    *[import_row("kiln-imports" + budget_suffix(budget),
                 "as PGO+ThinLTO+stock-imports, imports planned by `kiln imports "
                 "--budget=%s` (-thinlto-workload-def)" % budget, budget=budget)
      for budget in (KILN_IMPORTS_BUDGET,) + KILN_IMPORTS_SWEEP],
    import_row("import-limit-100",
               "as PGO+ThinLTO+stock-imports with -import-instr-limit=100 spelled "
               "out (LLVM's default: the same program as stock-imports)",
               ldflags=("-Wl,-mllvm,-import-instr-limit=100",), stock=True),
    # One plan of imports and inlining: the cross-module call sites to
    # inline within a growth budget, and exactly the imports they need
    # (workload definition for the thin link, -kiln-inline-plan for the
    # backends, through kiln-lld).
    *[import_row("kiln-plan-" + budget.rstrip("%") + "pct",
                 "as PGO+ThinLTO+stock-imports, imports and cross-module inlining "
                 "planned together by `kiln imports --inline-budget=%s` "
                 "(-thinlto-workload-def, -kiln-inline-plan via kiln-lld)" % budget,
                 inline_budget=budget)
      for budget in KILN_PLAN_BUDGETS],
    # The inline advisor alone. It links with lld's default order like the
    # import-planning rows and comes after them so that a run of these rows
    # has the stock row first (the reference of "Ir held-out vs ref").
    thinlto_row("PGO+ThinLTO+kiln-inline",
                "PGO + -flto=thin with Kiln's profile inline advisor (-kiln-inline) "
                "in the pre-link compile and the ThinLTO backends (lld cdsort order)",
                cflags=THINLTO_CFLAGS + ("-fpass-plugin={plugin}",) + KILN_INLINE_CFLAGS,
                ldflags=KILN_INLINE_LDFLAGS, stock=False),
    # Import shaping, import planning and inlining together, in the
    # import-planning family so that they compare with
    # PGO+ThinLTO+stock-imports: import shaping under Chromium's limit (its
    # best point in the import-shaping rows below), and import shaping +
    # `kiln imports` + -kiln-inline, one row per budget of the kiln-imports
    # rows (inlining changes what an import buys, so the best budget need not
    # be the same). Under a workload definition the thin link does not run
    # the default importer for the modules the plan names
    # (docs/CommandGuide/kiln-imports.rst), so there the shaping pass's
    # critical edges change nothing: they still matter for any module the
    # plan leaves to the default importer.
    import_row("kiln-import-shaping+import-limit-5",
               "as PGO+ThinLTO+import-limit-5 with -kiln-import-shaping in the "
               "pre-link compile", cflags=IMPORT_SHAPING_CFLAGS,
               ldflags=("-Wl,-mllvm,-import-instr-limit=5",)),
    *[import_row("kiln-import-shaping+kiln-imports+kiln-inline" + budget_suffix(budget),
                 "as PGO+ThinLTO+kiln-imports%s with -kiln-import-shaping and "
                 "-kiln-inline (pre-link compile, and the backends through kiln-lld)"
                 % budget_suffix(budget),
                 cflags=IMPORT_SHAPING_CFLAGS + KILN_INLINE_CFLAGS,
                 ldflags=KILN_INLINE_LDFLAGS, budget=budget)
      for budget in (KILN_IMPORTS_BUDGET,) + KILN_IMPORTS_SWEEP],
    # ---- Import shaping: kiln-import-shaping at the end of the ThinLTO
    # pre-link compile marks the hot cross-module calls the backend can
    # inline as critical summary edges (docs/Passes/ImportShaping.rst); the
    # thin link's importer gives them -import-critical-multiplier (100) times
    # -import-instr-limit instead of the hot multiplier (10). Stock rows with
    # the lower limits Chromium (5) and ChromeOS (30) use, and Kiln with each.
    # All link like PGO+ThinLTO (lld's call-graph sort off), so every figure,
    # I1 misses included, compares with that row. Thin-link time and import
    # counts: bench/import_stats.py over the same run's work directory. (The
    # import-planning rows above keep lld's default order and print their
    # imports: two baselines, kept apart on purpose.)
    unsorted_row("import-limit=5", "PGO + -flto=thin, -import-instr-limit=5 (Chromium's), "
                 "lld call-graph sort disabled", ldflags=import_limit(5)),
    unsorted_row("import-limit=30", "PGO + -flto=thin, -import-instr-limit=30 (ChromeOS's), "
                 "lld call-graph sort disabled", ldflags=import_limit(30)),
    unsorted_row("kiln-import-shaping",
                 "PGO + -flto=thin with -kiln-import-shaping in the pre-link "
                 "compile (default import limit), lld call-graph sort disabled",
                 cflags=IMPORT_SHAPING_CFLAGS, stock=False),
    *[unsorted_row("kiln-import-shaping+limit=%d" % n,
                   "PGO + -flto=thin with -kiln-import-shaping, "
                   "-import-instr-limit=%d, lld call-graph sort disabled" % n,
                   cflags=IMPORT_SHAPING_CFLAGS, ldflags=import_limit(n), stock=False)
      for n in (5, 30)],
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
    # ---- Size where the profile says code never runs: LLVM's PGO marks
    # functions no training run entered `cold`; -pgo-cold-func-opt also gives
    # them optsize or minsize. Stock options, linked like PGO+ThinLTO.
    *[unsorted_row("cold-%s" % attr,
                   "PGO + -flto=thin, never-run functions compiled for size "
                   "(-pgo-cold-func-opt=%s), lld call-graph sort disabled" % attr,
                   cflags=THINLTO_CFLAGS + ("-mllvm", "-pgo-cold-func-opt=%s" % attr))
      for attr in ("optsize", "minsize")],
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
# -- every stock order, Kiln's, BOLT -- without the slower rows (imports,
# inlining, pre-read, the two-step `kiln order`).
DEMO_CONFIGS = (
    "O2", "PGO", "PGO+ThinLTO", "PGO+ThinLTO+cdsort", "PGO+ThinLTO+hfsort", "PGO+ThinLTO+bp",
    "PGO+ThinLTO+profdata-order", "Kiln-lld", "Kiln-lld+cs", "BOLT", "Kiln-lld+split+cs",
    "PGO+FullLTO", "Kiln-FullLTO",
)

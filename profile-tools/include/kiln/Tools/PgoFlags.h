//===- kiln/Tools/PgoFlags.h - Flags of the kiln pgo phases -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What `kiln pgo instrument` and `kiln pgo optimize` add to every compiler
/// and linker command of the user's build, computed from data only (paths of
/// the tools and profiles, the switches): no file is read or written here,
/// so the flags can be unit-tested and printed by `kiln pgo status`.
///
/// The optimize phase is the best configuration of docs/benchmarks.md
/// measured without a context-sensitive relink (`Kiln-lld+split`): ThinLTO
/// with a compile profile that holds every scenario, its counts multiplied
/// by 64 for the machine function splitter (docs/Passes/FunctionSplitting.rst),
/// and the link through kiln-lld with Kiln's function order from the startup
/// and steady-state profiles and `-kiln-split-functions` in the backends.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PGOFLAGS_H
#define KILN_TOOLS_PGOFLAGS_H

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// The weight the compile profile's counts are multiplied by where the
/// splitter alone cuts the functions (docs/Passes/FunctionSplitting.rst,
/// "Why the profile is weighted x64"; PgoTransforms::compileProfileWeight).
inline constexpr unsigned PgoSplitProfileWeight = 64;

/// Where block layout's profile of the final binary comes from
/// (`--block-layout=`).
enum class PgoBlockLayoutSource {
  Off,       ///< No block layout.
  Bolt,      ///< BOLT's instrumentation (`llvm-bolt -instrument`).
  Callgrind, ///< valgrind's exact trace (`--tool=callgrind`): the default.
};

/// How many times its native time a program takes under callgrind, as
/// measured on the benchmark programs (docs/benchmarks.md): what the
/// default's choice of profiler estimates a replay's cost with.
inline constexpr unsigned PgoCallgrindSlowdown = 50;

/// The default `--callgrind-budget=`: the estimated seconds of callgrind
/// replays above which the default profiler gives way to BOLT's
/// instrumentation (twenty minutes: 24 seconds of training runs).
inline constexpr unsigned PgoDefaultCallgrindBudget = 1200;

/// Which call sites the compiler's indirect-call promotion may rewrite
/// (`--icp=`).
enum class PgoIndirectCallPromotion {
  /// Only a target that took at least \c PgoGuardedICPShare percent of its
  /// call site's training calls: a site the training saw call several
  /// targets gets no compare-and-branch chain for the training's targets,
  /// which other work does not call (the default).
  Guarded,
  /// LLVM's own thresholds: a target with 5% of the site's calls and 30% of
  /// those its earlier promotions left, up to three targets.
  Stock,
  Off, ///< No promotion (`-disable-icp`).
};

/// The share, in percent, of a call site's training calls that a target
/// needs for guarded indirect-call promotion: the site is all but
/// monomorphic in the training. On Lua's interpreter, LLVM's thresholds
/// promote the two C functions that shared the training's calls of one
/// site (50% each), which then inline into the dispatch loop: 3.6% more
/// instructions than front-end PGO on its training and held-out work, and
/// 0.2% fewer with the guard (docs/benchmarks.md, "Compile policy").
inline constexpr unsigned PgoGuardedICPShare = 90;

/// The transforms of the optimize phase; each can be switched off.
struct PgoTransforms {
  bool ThinLTO = true; ///< `-flto=thin` (off: `--no-lto`).
  bool Order = true;   ///< kiln-lld's function order (off: `--no-order`).
  bool Split = true;   ///< `-kiln-split-functions` (off: `--no-split`).
  /// The order from context-sensitive profiles of the final objects: one
  /// more instrumented link and a replay of the training runs, then the
  /// final link (off: `--no-cs`). Needs ThinLTO and the order.
  bool ContextSensitive = true;
  /// kiln-strtab, which runs by default wherever Kiln's plugin is loaded
  /// (off: `--no-strtab`, which sets `-kiln-strtab=false` there).
  bool StringTables = true;
  /// Block layout after the final links: each profiled program linked with
  /// its basic-block address map, the training runs replayed on it under
  /// \c BlockLayout's profiler, and the program relinked with the block
  /// clusters (`--block-layout=callgrind|bolt|off`; callgrind by default,
  /// as measured it lowers startup pages and I1 misses at stock Ir on work
  /// unlike the training: docs/benchmarks.md, "Block layout in the flow").
  /// Needs ThinLTO (the relink lays out blocks in LTO code generation) and
  /// the order (the clusters are placed by Kiln's order): `--no-lto` and
  /// `--no-order` turn it off.
  PgoBlockLayoutSource BlockLayout = PgoBlockLayoutSource::Callgrind;
  /// `--block-layout=` was given: the default's profiler, when missing, is
  /// replaced by the other one; a chosen one is not.
  bool BlockLayoutChosen = false;
  /// `--callgrind-budget=`: with the default profiler, training runs whose
  /// replays under callgrind would take longer than this many seconds (by
  /// their recorded time, times \c PgoCallgrindSlowdown) are replayed under
  /// BOLT's instrumentation instead, where it is installed.
  unsigned CallgrindBudgetSeconds = PgoDefaultCallgrindBudget;
  /// The compile policy for indirect calls (`--icp=guarded|stock|off`).
  PgoIndirectCallPromotion ICP = PgoIndirectCallPromotion::Guarded;
  /// `--icp=` or `--cs-compile` was given: the compile policy is the
  /// user's, not measured.
  bool PolicyChosen = false;
  /// The compile profile leaves out the functions no training run executed,
  /// so that they are compiled as without a profile rather than as code that
  /// never runs (GCC's -fprofile-partial-training; off:
  /// `--no-partial-training`). Work unlike the training runs them.
  bool PartialTraining = true;
  /// With partial training, the functions no training ran are optimized
  /// for size once the inliner is done with them (`--untrained-size`: the
  /// plugin's `-kiln-untrained-size` in the compiles): their call sites keep
  /// the thresholds of a compile without a profile, their own code is not
  /// unrolled, vectorized or aligned for speed. A trade, so off by default:
  /// on the benchmark programs `.text` shrinks by 2 to 30% and held-out
  /// work executes 0.2 to 8.6% more instructions (docs/benchmarks.md, "The
  /// code no training ran, optimized for size").
  bool UntrainedSize = false;
  /// LLVM's profile-guided size optimization (PGSO) is off (`-pgso=false`,
  /// `--no-pgso`): the code the profile calls cold, the code no training
  /// ran among it, is compiled for speed. With PGSO a loop the training
  /// never ran is laid out without rotation (MachineBlockPlacement keeps
  /// the header on top when optimizing for size), one jump more each
  /// iteration of work unlike the training. A trade, so off by default:
  /// xmlwf's held-out work 2.0% fewer instructions, jsoncpp's 0.3%, but
  /// zstd's training 1.4% more and SQLite's held-out work 0.3% more (the
  /// warm code loses its size optimization too; docs/benchmarks.md, "Code
  /// the training never ran, compiled for speed").
  bool ColdCodeForSpeed = false;
  /// The functions another object provides (the C library's, libstdc++'s)
  /// that the profile's hot blocks call are called through their GOT
  /// entries, one jump fewer per call than through the PLT, and bound when
  /// the program loads (`-kiln-bind-hot-imports` in the ThinLTO backends of
  /// the profiled programs' links; off: `--no-bind-hot-imports`).
  bool BindHotImports = true;
  /// The context-sensitive relink's profiles, of the final build's
  /// functions after inlining, go into the ThinLTO backends of the final
  /// links beside the compile profile, as stock CSPGO's second profile does
  /// (`--cs-compile`). Off by default: they order the program only. On the
  /// benchmark they cost zstd 2.2% of its training's instructions and 0.8%
  /// on a held-out workload, and Lua 0.7% (docs/benchmarks.md, "Compile
  /// policy").
  bool ContextSensitiveCompile = false;

  /// \returns true if block layout measures, program by program, the
  /// default compile policy against alternativePolicy(): the replays of the
  /// training under callgrind count both programs' instructions, and the
  /// one that executes fewer is relinked with its block layout.
  bool measuresPolicy() const {
    return !PolicyChosen && usesContextSensitiveRelink() &&
           BlockLayout == PgoBlockLayoutSource::Callgrind && usesBlockLayout();
  }
  /// \returns true if the final links' backends get the context-sensitive
  /// profiles (when the relink's replays succeed).
  bool usesContextSensitiveCompile() const {
    return ContextSensitiveCompile && usesContextSensitiveRelink();
  }
  /// \returns true if the compiles optimize the code no training ran for
  /// size.
  bool usesUntrainedSize() const { return UntrainedSize && PartialTraining; }
  /// \returns true if the context-sensitive relink takes place.
  bool usesContextSensitiveRelink() const {
    return ContextSensitive && ThinLTO && Order;
  }
  /// \returns true if block layout takes place.
  bool usesBlockLayout() const {
    return BlockLayout != PgoBlockLayoutSource::Off && ThinLTO && Order;
  }
  /// \returns the weight of the compile profile's counts.
  /// PgoSplitProfileWeight where the splitter alone cuts the functions: it
  /// reads counts computed from block frequencies, which round a block that
  /// ran once down to 0. 1 where block layout takes place with a profiler
  /// at hand (\p HasBlockProfiler): it cuts every function the replays ran
  /// by its blocks' exact counts, so the rounding no longer decides there,
  /// and scaled counts are not neutral to LLVM's inliner (on jsoncpp x64
  /// cost 1.8% of the program's own instructions; docs/benchmarks.md, "The
  /// compile profile's scale").
  unsigned compileProfileWeight(bool HasBlockProfiler) const {
    if (!Split || (usesBlockLayout() && HasBlockProfiler))
      return 1;
    return PgoSplitProfileWeight;
  }
};

/// Where things are.
struct PgoToolPaths {
  std::string LLVMBinDir; ///< clang, ld.lld, llvm-profdata live here.
  std::string KilnLLD;    ///< kiln-lld.
  /// KilnPlugin-22.so, for the compiles: `--no-lto` splitting, the size
  /// of the code no training ran.
  std::string Plugin;
};

/// The flags one phase adds. The wrapper puts \c Leading before the user's
/// arguments (so the user's own `-O` wins) and the rest after them (so
/// Kiln's `-fuse-ld=` and profile flags win).
struct PgoPhaseFlags {
  std::vector<std::string> Leading; ///< Before the user's arguments.
  std::vector<std::string> Compile; ///< Commands that compile a source.
  /// Instead of \c Compile, for sources the profiles know nothing of
  /// (a configure check's conftest.c, a file added since the training).
  std::vector<std::string> UnprofiledCompile;
  std::vector<std::string> Link; ///< Every command that links.
  /// Links of one of the programs the instrumented build produced (the ones
  /// the profiles describe), after \c Link.
  std::vector<std::string> TargetLink;
};

/// The instrument phase: IR PGO with temporal traces (for the startup
/// scenario's first-execution order), linked by ld.lld. Raw profiles of
/// runs outside `kiln pgo run` go to \p UntrackedRawDir.
PgoPhaseFlags computeInstrumentFlags(const PgoToolPaths &Tools,
                                     const std::string &UntrackedRawDir);

/// The profiles the optimize phase uses ("" when there is none).
struct PgoProfiles {
  std::string Compile; ///< Every scenario, merged, times CompileWeight.
  std::string Startup; ///< The startup scenario (with temporal traces).
  std::string Steady;  ///< Every other scenario, merged.
  /// The weight of Compile's counts (PgoTransforms::compileProfileWeight).
  unsigned CompileWeight = 1;
};

/// The compile policy block layout measures beside \p Transforms' own:
/// stock CSPGO's (the context-sensitive profiles in the backends, LLVM's
/// promotion thresholds). With the context-sensitive profile the promoted
/// targets that get inlined are annotated as they run after inlining, and
/// on Lua's interpreter it executed 3.6% fewer instructions than the
/// default on the training and 0.3% fewer on held-out work; on zstd 2.2%
/// more on the training (docs/benchmarks.md, "Compile policy").
PgoTransforms alternativePolicy(const PgoTransforms &Transforms);

/// The share of the default's instructions the alternative policy must
/// save on the replays to be chosen: smaller differences are what the block
/// layout alone moves (docs/benchmarks.md).
inline constexpr double PgoPolicyMinSaving = 0.002;

/// \returns true if the alternative policy's replays, which executed
/// \p Alternative instructions, saved at least PgoPolicyMinSaving of the
/// default's \p Default.
bool prefersAlternativePolicy(uint64_t Default, uint64_t Alternative);

/// \returns true if the alternative policy cannot be preferred whatever its
/// replays measure: it changes only the profiled binary's code, which ran
/// \p Binary of the default replays' \p Default instructions, fewer than
/// PgoPolicyMinSaving of them.
bool alternativePolicyCannotPay(uint64_t Default, uint64_t Binary);

/// The LLVM options (without `-mllvm`) that say how the code no training
/// ran is compiled (PgoTransforms::ColdCodeForSpeed).
std::vector<std::string> coldCodeOptions(const PgoTransforms &Transforms);

/// The LLVM options (without `-mllvm`) of the compile policy of
/// \p Transforms, coldCodeOptions' among them: every compile and every
/// ThinLTO backend of the optimize phase gets them.
std::vector<std::string> compilePolicyOptions(const PgoTransforms &Transforms);

/// A sentence for `status` and the summary: the compile policy of
/// \p Transforms and why.
std::string describeCompilePolicy(const PgoTransforms &Transforms);

/// The optimize phase for \p Transforms.
PgoPhaseFlags computeOptimizeFlags(const PgoToolPaths &Tools,
                                   const PgoProfiles &Profiles,
                                   const PgoTransforms &Transforms);

/// \returns \p Final with the links of the profiled programs instrumented
/// for context-sensitive PGO instead (`-fcs-profile-generate`): the build of
/// a context-sensitive relink, whose compiles are the final ones. The links
/// stay kiln-lld's (with no profile of Kiln's, a plain link with the plugin
/// loaded), so that `-Wl,-mllvm,-kiln-...` options of the project's own link
/// flags act in the instrumented link as in the final one. Raw profiles of
/// runs outside the replay go to \p RawDir. Its backends compile the code
/// no training ran as \p Transforms' final links do (coldCodeOptions).
PgoPhaseFlags withContextSensitiveInstrumentation(
    const PgoToolPaths &Tools, const PgoPhaseFlags &Final,
    const PgoTransforms &Transforms, const std::string &RawDir);

/// What a link with the basic-block address map is for.
enum class AddressMapUse {
  /// The program itself: the final link, which callgrind's replays can
  /// profile as it is (a copy without debug info).
  Program,
  /// A binary for callgrind's replays only: without debug info.
  Callgrind,
  /// A binary for BOLT's instrumentation.
  Bolt,
};

/// \returns \p Final with the links of the profiled programs carrying the
/// basic-block address map (`--kiln-block-address-map`), which changes no
/// code; for \p Use Callgrind without debug info (Debian 12's valgrind
/// cannot read clang 22's DWARF 5); for Bolt with the relocations BOLT's
/// instrumentation needs and no function splitting (BOLT does not
/// instrument functions with split parts). Kiln's function order stays
/// (kiln-lld combines the two).
PgoPhaseFlags withBlockAddressMap(const PgoPhaseFlags &Final,
                                  AddressMapUse Use);

/// \returns \p Final with the links of the profiled programs laid out from
/// the block profile \p BlockProfile (`--kiln-block-profile=`) instead of
/// Kiln's function order, which kiln-lld refuses beside it (the block plan
/// orders the clusters by the same composite order). The link is strict
/// (`--kiln-strict`): an unusable block profile fails it instead of
/// linking without block layout.
PgoPhaseFlags withBlockLayout(const PgoPhaseFlags &Final,
                              const std::string &BlockProfile);

/// \returns the link options that make kiln-lld record, for `kiln report`,
/// the link of the \p Target-th profiled program: its JSON report
/// (`<ReportDir>/<Target>.json`: each function's order, group and counts)
/// and the same program linked without Kiln's order
/// (`<ReportDir>/<Target>.unordered`). None when \p ReportDir is empty or
/// \p Flags give that link no Kiln order.
std::vector<std::string> reportLinkFlags(const PgoPhaseFlags &Flags,
                                         const std::string &ReportDir,
                                         size_t Target);

/// What one compiler invocation does, as the wrapper sees it.
enum class CompilerMode {
  Query,   ///< No compile, no link (`--version`, `-E`, `-M`, no inputs).
  Compile, ///< `-c`, `-S` or `-fsyntax-only`.
  Link,    ///< Links (and compiles its source inputs, if any).
};

/// A compiler command line, classified.
struct CompilerInvocation {
  CompilerMode Mode = CompilerMode::Query;
  bool HasSources = false; ///< A source file (or `-x <lang>`) is an input.
  /// The output (`-o`), or "" when the compiler picks it (`a.out`,
  /// `<stem>.o` in the current directory).
  std::string Output;
  std::vector<std::string> Sources; ///< Source inputs, as given.
};

/// Classifies \p Args (the arguments after the program name).
CompilerInvocation classifyCompilerArgs(const std::vector<std::string> &Args);

/// \returns the command the wrapper runs: \p RealCompiler, the phase's
/// leading flags, \p Args, then the compile flags (\c Compile if
/// \p ProfiledSources, else \c UnprofiledCompile) and link flags the
/// invocation needs (none for a query), and \c TargetLink if \p IsTarget.
std::vector<std::string> composeCompilerCommand(
    const std::string &RealCompiler, const std::vector<std::string> &Args,
    const PgoPhaseFlags &Flags, bool IsTarget, bool ProfiledSources = true);

/// What the wrapper reads for a phase: the flags, the LLVM tools' directory,
/// the programs whose links get \c PgoPhaseFlags::TargetLink and the sources
/// the profiles describe.
struct PgoWrapperConfig {
  std::string LLVMBinDir;
  PgoPhaseFlags Flags;
  std::vector<std::string> Targets; ///< Absolute, lexically normal paths.
  /// The instrumented build's sources (absolute); empty: every source is.
  std::vector<std::string> ProfiledSources;
  /// If not empty, the wrapper records each link of the I-th target in
  /// `<RelinkDir>/<I>.args` (working directory, compiler, arguments, one a
  /// line) for the context-sensitive relink.
  std::string RelinkDir;
  /// If not empty, the link of the I-th target gets reportLinkFlags(Flags,
  /// ReportDir, I): what `kiln report` reads.
  std::string ReportDir;

  /// \returns true if every one of \p AbsoluteSources is profiled.
  bool areProfiled(const std::vector<std::string> &AbsoluteSources) const;
};

/// \returns \p Config as the wrapper's file: one `<key> <value>` line each
/// (`llvm-bin`, `leading`, `compile`, `unprofiled-compile`, `link`,
/// `target-link`, `target`, `source`, `relink-dir`, `report-dir`).
std::string serializeWrapperConfig(const PgoWrapperConfig &Config);

/// Parses serializeWrapperConfig's text; unknown keys are ignored.
PgoWrapperConfig parseWrapperConfig(const std::string &Text);

/// \returns \p Path made absolute against \p Cwd, with `.` and `..`
/// components and repeated slashes removed (no file system access).
std::string makeAbsoluteLexically(const std::string &Path,
                                  const std::string &Cwd);

/// \returns whether \p Line of `nm`'s output names a symbol that profile
/// instrumentation adds to an object (the counters, data and names of
/// `__profc_`/`__profd_`/..., the `__llvm_profile_` version, file name and
/// runtime hooks), in any of nm's formats (BSD, POSIX `-P`, with the file
/// name `-A`). The instrument phase's `nm` leaves such lines out: a build
/// that lists an object's symbols wants its own, as without
/// instrumentation. libtool's configure check turns a listed
/// `__llvm_profile_raw_version` into a C declaration, whose link then
/// fails; libtool then has no command to list symbols, and every library
/// linked with `-export-symbols-regex` fails to link.
bool namesInstrumentationSymbol(const std::string &Line);

} // namespace kiln

#endif // KILN_TOOLS_PGOFLAGS_H

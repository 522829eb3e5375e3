//===- kiln/Tools/PgoWorkspace.h - The kiln pgo workspace -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The workspace of `kiln pgo` (`.kiln/` by default) and its manifest, a
/// JSON file that says which phase the flow is in, what each build ran and
/// produced, and every training run with its command, exit status and raw
/// profiles. Layout (docs/CommandGuide/kiln-pgo.rst):
///
///   manifest.json         this file's model
///   bin/                  the wrapper's names (cc, gcc, ..., ar, nm, ld)
///   instrument/, optimize/  per phase: wrapper.conf, build.log
///   raw/<scenario>/run-<N>/     raw profiles of a run that is used
///   raw/<scenario>/failed-<N>/  ... of a run that failed (kept, not used)
///   profiles/             merged profiles (per scenario, and the ones the
///                         optimize phase uses)
///   optimize/link/<N>.json, <N>.unordered
///                         what the optimize link of the N-th profiled
///                         program recorded for `kiln report`: kiln-lld's
///                         report and the program linked without Kiln's order
///   optimize/block-layout/<N>/
///                         block layout of the N-th profiled program: its
///                         address-mapped link, the profiles of the replayed
///                         training runs, blocks.kbp, the relink's log
///   report/               `kiln report`'s report.html and report.json
///
/// Every file is written to a temporary name and renamed into place, so no
/// reader ever sees a half-written manifest or profile.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PGOWORKSPACE_H
#define KILN_TOOLS_PGOWORKSPACE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// A file as it was when recorded: to tell later whether it changed.
struct PgoFileStamp {
  std::string Path;  ///< Absolute.
  uint64_t Size = 0; ///< Bytes.
  int64_t MTime = 0; ///< Modification time, seconds since the epoch.
  std::string Hash;  ///< xxh3-64 of the contents, 16 hex digits ("": none).
};

/// What block layout (`kiln pgo optimize --block-layout=`) did for one
/// profiled program.
struct PgoBlockLayout {
  std::string Program; ///< Absolute.
  /// "done", or why the program kept its function-level layout.
  std::string Outcome;
  std::string Profile;  ///< The block profile (`.kbp`), when one was written.
  unsigned Replays = 0; ///< Training runs replayed on the profiled binary.
  /// The compile policy the program was relinked with: "default", or
  /// "alternative" (PgoTransforms::alternativePolicy) where the replays
  /// measured it better; "" where no policy was measured.
  std::string Policy;
  /// The instructions of the replays (callgrind's Ir, every replay of the
  /// program) with the default policy and with the alternative; 0 when not
  /// measured.
  uint64_t DefaultInstructions = 0;
  uint64_t AlternativeInstructions = 0;
  /// Of DefaultInstructions, those in the binary's own code: where fewer
  /// than the alternative would have to save, it is not measured.
  uint64_t BinaryInstructions = 0;
};

/// What the last link of a profiled program by `kiln pgo optimize` itself
/// (the context-sensitive relink or block layout's) cost.
struct PgoLinkCost {
  std::string Program; ///< Absolute.
  /// "context-sensitive relink" or "block layout relink".
  std::string Link;
  double WallSeconds = 0;
  /// User and system CPU time of the compiler driver and the linker.
  double CPUSeconds = 0;
  uint64_t PeakRSSKiB = 0; ///< The linker's peak resident memory.
};

/// One `kiln pgo instrument` or `kiln pgo optimize` build.
struct PgoBuild {
  std::vector<std::string> Command; ///< The user's build command.
  std::string Cwd;                  ///< Where it ran.
  std::string Time;                 ///< When it started (UTC, ISO 8601).
  int ExitStatus = 0;               ///< Its exit status (128+N: signal N).
  bool Succeeded = false;
  unsigned Generation = 0;            ///< Which instrumented build (1, 2, ...).
  unsigned Compiles = 0;              ///< Compiler commands the wrapper saw.
  unsigned Links = 0;                 ///< Link commands the wrapper saw.
  std::vector<PgoFileStamp> Programs; ///< Link outputs that exist at the end.
  std::vector<PgoFileStamp> Sources;  ///< Sources compiled (no hash).
  std::vector<std::string> Options;   ///< Switches given (`--no-split`, ...).
  std::vector<std::string> Flags;     ///< What the wrapper added, for status.
  /// The optimize phase's compile policy and why (describeCompilePolicy);
  /// "" for the instrumented build.
  std::string CompilePolicy;
  /// The context-sensitive relink: "" (none), "done", or why it fell back
  /// to the training profiles.
  std::string ContextSensitive;
  unsigned Replays = 0; ///< Training runs replayed for it.
  /// The profile of the final binary block layout comes from: "bolt",
  /// "callgrind", or "" when it was off.
  std::string BlockLayoutSource;
  std::vector<PgoBlockLayout> BlockLayouts; ///< Per profiled program.
  /// Per profiled program the optimize phase linked again, its last link.
  std::vector<PgoLinkCost> FinalLinks;
};

/// Records \p Cost as \p B's final link of its program, in place of an
/// earlier link of the same program.
void recordFinalLink(PgoBuild &B, PgoLinkCost Cost);

/// One `kiln pgo run`.
struct PgoRun {
  unsigned Id = 0;                  ///< 1, 2, ... over all scenarios.
  std::string Scenario;             ///< `--scenario=` name.
  std::vector<std::string> Command; ///< The training command.
  std::string Cwd;
  std::string Time; ///< When it started (UTC, ISO 8601).
  /// How long it ran (wall clock, seconds; 0 in a manifest from before it
  /// was recorded): what a replay under callgrind would cost is estimated
  /// from it.
  double Seconds = 0;
  int ExitStatus = 0; ///< 128+N when killed by signal N.
  /// "ok", "failed" (non-zero exit), "signal" (killed or interrupted),
  /// "no-profile" (wrote nothing: not an instrumented program).
  std::string Outcome;
  bool Used = false;                    ///< Its profiles go into the merge.
  unsigned Generation = 0;              ///< The instrumented build it ran.
  std::vector<std::string> RawProfiles; ///< Relative to the workspace.
  std::optional<PgoFileStamp> Program;  ///< argv[0], resolved, if a file.
  /// The file the run read as standard input (absolute; for a pipe, the
  /// workspace's copy of what went through it), replayed by the
  /// context-sensitive relink; "" for a terminal or /dev/null (replayed
  /// with /dev/null).
  std::string Stdin;
};

/// Where the optimize links record, relative to the workspace (see the
/// file comment).
inline constexpr const char PgoLinkRecordDir[] = "optimize/link";

/// Where block layout works, relative to the workspace (see the file
/// comment).
inline constexpr const char PgoBlockLayoutDir[] = "optimize/block-layout";

/// The manifest.
struct PgoManifest {
  static constexpr unsigned CurrentFormat = 1;
  unsigned Format = CurrentFormat;
  std::string KilnVersion;
  /// The workspace directory the manifest was made in (absolute, symbolic
  /// links resolved; "" in a manifest from before it was recorded). Builds,
  /// runs and outputs are recorded by absolute path, so a workspace copied
  /// or moved elsewhere still names the files of the tree it was made for.
  std::string Workspace;
  /// "new", "instrument-failed", "instrumented", "optimize-failed",
  /// "optimized".
  std::string Phase = "new";
  unsigned Generation = 0; ///< Instrumented builds so far.
  std::optional<PgoBuild> Instrument;
  std::optional<PgoBuild> Optimize;
  std::vector<PgoRun> Runs;

  /// \returns the names of the scenarios with a used run of the current
  /// instrumented build, in the order they were first run.
  std::vector<std::string> usableScenarios() const;
  /// \returns the runs of \p Scenario that go into its profile.
  std::vector<const PgoRun *> usedRuns(llvm::StringRef Scenario) const;
};

/// \returns true if \p Scenario is the startup kind (its profile orders the
/// startup group): the scenario named `startup`.
inline bool isStartupScenario(llvm::StringRef Scenario) {
  return Scenario == "startup";
}

/// \returns \p M as pretty-printed JSON.
std::string manifestToJSON(const PgoManifest &M);

/// Parses manifestToJSON's output; \p Path names the file in errors.
llvm::Expected<PgoManifest> manifestFromJSON(llvm::StringRef JSON,
                                             llvm::StringRef Path);

/// Reads the manifest at \p Path.
llvm::Expected<PgoManifest> readManifest(llvm::StringRef Path);

/// Writes \p Contents to \p Path through a temporary file in the same
/// directory and a rename: readers see the old file or the new one.
/// \returns an error naming \p Path.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// Writes the manifest atomically.
llvm::Error writeManifest(llvm::StringRef Path, const PgoManifest &M);

/// \returns the stamp of \p Path (with its hash if \p WithHash), or an error
/// if it cannot be read.
llvm::Expected<PgoFileStamp> stampFile(llvm::StringRef Path, bool WithHash);

/// Valid scenario names: letters, digits, `-`, `_` and `.`, not starting
/// with `.`; they name directories. \returns an error for others.
llvm::Error checkScenarioName(llvm::StringRef Name);

} // namespace kiln

#endif // KILN_TOOLS_PGOWORKSPACE_H

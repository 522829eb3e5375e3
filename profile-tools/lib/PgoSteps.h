//===- PgoSteps.h - The steps the phases of kiln pgo share ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to the kiln pgo implementation (profile-tools/lib/Pgo*.cpp): the
/// parsed command line, the workspace and its lock, running the user's
/// commands and LLVM's tools, the manifest, the build log the wrapper
/// writes, and the one build step every phase runs through the wrappers.
/// Each phase has its file: PgoInstrument.cpp, PgoRun.cpp, PgoOptimize.cpp
/// (with the context-sensitive relink; block layout is PgoBlockLayout.cpp),
/// PgoStatus.cpp; PgoCommand.cpp parses and dispatches.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_LIB_PGOSTEPS_H
#define KILN_TOOLS_LIB_PGOSTEPS_H

#include "kiln/Tools/PgoCommand.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/TrainingCoverage.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kiln::pgo {

/// What `kiln pgo <phase> [options] -- <command>` asked for.
struct PgoOptions {
  std::string Subcommand;
  std::string Workspace = ".kiln"; ///< `--workspace=`.
  std::string Scenario;
  bool KeepFailed = false;
  PgoTransforms Transforms;
  std::vector<std::string> Switches; ///< The optimize switches, as given.
  std::vector<std::string> Command;  ///< After `--`.
  bool HasCommand = false;
};

/// The time now, UTC, ISO 8601.
std::string nowUTC();
/// The current directory ("." if it cannot be read).
std::string currentDir();
/// \returns \p Command as a shell would read it back.
std::string joinCommand(llvm::ArrayRef<std::string> Command);
/// \returns how optimize's messages name \p R: `run <id> of scenario
/// '<name>' (<command>[ < <its standard input>])`.
std::string describeRun(const PgoRun &R);

/// The workspace's paths.
struct Workspace {
  std::string Root; ///< Absolute.
  explicit Workspace(llvm::StringRef Dir) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::fs::make_absolute(P);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Root = P.str().str();
  }
  std::string path(const llvm::Twine &Rel) const {
    return (Root + "/" + Rel).str();
  }
  std::string manifest() const { return path("manifest.json"); }
  /// \returns \p Abs relative to the workspace's parent when inside it, for
  /// shorter messages.
  std::string display(llvm::StringRef Abs) const {
    llvm::StringRef Parent = llvm::sys::path::parent_path(Root);
    llvm::StringRef Rel = Abs;
    if (!Parent.empty() && Rel.consume_front(Parent) &&
        Rel.consume_front("/") && Parent == currentDir())
      return Rel.str();
    return Abs.str();
  }
  /// \returns `kiln pgo <Subcommand>` as the user types it next, here: with
  /// `--workspace=` unless the workspace is `.kiln` in the current directory
  /// (kiln_pgo() and a user's own --workspace= put it elsewhere).
  std::string command(llvm::StringRef Subcommand) const {
    std::string Command = ("kiln pgo " + Subcommand).str();
    if (Root != currentDir() + "/.kiln")
      Command += " " + joinCommand({"--workspace=" + display(Root)});
    return Command;
  }
};

/// An exclusive lock on `<workspace>/lock`, held for its lifetime.
class WorkspaceLock {
public:
  static llvm::Expected<std::unique_ptr<WorkspaceLock>>
  acquire(const Workspace &WS, std::chrono::milliseconds Timeout);
  ~WorkspaceLock();

private:
  explicit WorkspaceLock(int FD) : FD(FD) {}
  int FD;
};

/// How a process ended (its exit status as a shell shows it: 128+N for
/// signal N) and what it cost.
struct ProcessResult {
  int ExitStatus = 0;
  bool Signaled = false;
  /// ProcessSetup::CopyStdinTo holds every byte the command was given.
  bool StdinCopied = false;
  double WallSeconds = 0; ///< From its start to its end.
  /// User and system CPU time of the process and the descendants it waited
  /// for (a compiler driver's linker).
  double CPUSeconds = 0;
  /// The largest resident set of the process or of any descendant it
  /// waited for (KiB): a link's peak memory is its linker's.
  uint64_t PeakRSSKiB = 0;
};

/// What the link \p P of \p Program cost, as the manifest records it
/// (\p Link: which of the optimize phase's links it was).
PgoLinkCost linkCost(llvm::StringRef Program, llvm::StringRef Link,
                     const ProcessResult &P);

/// Where a process runs and what its standard streams are ("": kiln's).
struct ProcessSetup {
  std::string Cwd;
  std::string Stdin, Stdout, Stderr;
  /// If not empty (and Stdin is), the command reads kiln's standard input
  /// through a pipe, and every byte it is given is also written to this
  /// file: a training run fed by a pipe can be replayed from the copy.
  std::string CopyStdinTo;
  /// If not empty, the file that runs, with the command's own argv[0]: a
  /// replay of a training run on another binary of the same program.
  std::string Executable;
};

/// \returns "unchanged", "changed since" or "missing now": \p Then against
/// the file as it is (by hash if \p Then has one, else size and mtime).
std::string describeNow(const PgoFileStamp &Then);

/// \returns how many of the sources \p B compiled changed since (or are
/// gone), and the first of them in \p Example.
unsigned countChangedSources(const PgoBuild &B, std::string &Example);

/// What a phase's build.log says the build did.
struct BuildLog {
  unsigned Compiles = 0, Objects = 0, Links = 0;
  std::vector<std::string> Sources, Outputs, Programs;
};

/// Runs \p Command (searched on PATH) with \p Overrides added to the
/// environment, in the foreground, and \returns how it ended.
llvm::Expected<ProcessResult>
runProcess(llvm::ArrayRef<std::string> Command,
           llvm::ArrayRef<std::pair<std::string, std::string>> Overrides,
           llvm::StringRef Step, const ProcessSetup &Setup = {});
/// Runs one of LLVM's tools; its failure is an error of \p Step naming
/// \p Whence.
llvm::Error runTool(llvm::ArrayRef<std::string> Command, llvm::StringRef Step,
                    llvm::StringRef Whence);
/// Merges \p Inputs, each weighted \p Weight, into \p Output (through a
/// temporary renamed into place) with kiln profile merge's code
/// (kiln/Tools/ProfileMerge.h); with \p Sparse, without the functions of
/// no count.
llvm::Error mergeProfiles(llvm::ArrayRef<std::string> Inputs, unsigned Weight,
                          llvm::StringRef Output, llvm::StringRef Step,
                          bool Sparse = false);
llvm::Error makeDirectory(llvm::StringRef Path, llvm::StringRef Step);
llvm::Expected<PgoManifest> loadManifest(const Workspace &WS, bool MustExist,
                                         llvm::StringRef Step);
llvm::Error saveManifest(const Workspace &WS, const PgoManifest &M,
                         llvm::StringRef Step);
BuildLog readBuildLog(llvm::StringRef Path);
/// Removes the objects and programs the previous phase's build wrote, so
/// that the build makes them again. \returns how many.
unsigned removeEarlierOutputs(const Workspace &WS);
/// Writes the directory of wrappers (kiln-cc under every name it answers).
llvm::Error writeWrapperDir(const Workspace &WS, const PgoEnvironment &Env);
/// The environment a phase's build runs in.
std::vector<std::pair<std::string, std::string>>
buildEnvironment(const Workspace &WS, llvm::StringRef Phase);
std::vector<std::string> flagsForStatus(const PgoPhaseFlags &F);
/// Runs the user's build command through the wrappers of \p Phase; the
/// target links record for `kiln report` under \p ReportDir (if not "").
llvm::Expected<PgoBuild>
runPhaseBuild(const Workspace &WS, const PgoEnvironment &Env,
              llvm::StringRef Phase, const PgoOptions &Opts,
              const PgoPhaseFlags &Flags, llvm::ArrayRef<std::string> Targets,
              llvm::ArrayRef<std::string> ProfiledSources,
              llvm::StringRef RelinkDir, llvm::StringRef ReportDir,
              llvm::raw_ostream &Out);
void printBuildSummary(llvm::StringRef Phase, const PgoBuild &B,
                       const Workspace &WS, llvm::raw_ostream &Out);
llvm::Error buildFailure(llvm::StringRef Phase, const PgoBuild &B,
                         const PgoManifest &M, const Workspace &WS);
/// The merged profile of \p Scenario in the workspace.
std::string scenarioProfile(const Workspace &WS, llvm::StringRef Scenario);

/// The training is thin when its steady-state runs executed fewer than this
/// share of the program's instrumented functions, or counted on fewer than
/// PgoThinCounterShare of their counters: most of the program is then, to
/// the compile profile, code that never runs, and a workload unlike the
/// training runs it optimized for size and laid out away from the hot code.
constexpr double PgoThinFunctionShare = 0.25;
constexpr double PgoThinCounterShare = 0.15;

/// The coverage of the steady-state training of \p M (its steady
/// scenarios' profiles together). \returns std::nullopt when no steady
/// scenario has a profile; an error if one cannot be read.
llvm::Expected<std::optional<TrainingCoverage>>
steadyTrainingCoverage(const Workspace &WS, const PgoManifest &M);
/// \returns whether \p C is thin by PgoThinFunctionShare and
/// PgoThinCounterShare.
bool isThinTraining(const TrainingCoverage &C);
/// Writes `<Prefix>steady-state training: ran <coverage>` and, when the
/// training is thin, what that costs and what to do about it: more runs of
/// the instrumented programs, or, once \p Optimized (the programs replaced
/// by the optimized build, which writes no profile), an instrumented build
/// first.
void describeTraining(const TrainingCoverage &C, const Workspace &WS,
                      llvm::StringRef Prefix, bool Optimized,
                      llvm::raw_ostream &OS);

/// A link of a profiled program as the wrapper recorded it.
struct RecordedLink {
  std::string Target; ///< The program (absolute).
  size_t Index = 0;   ///< Its place among the profiled programs.
  std::string Cwd, Compiler;
  std::vector<std::string> Args;
};

/// \returns the links of \p Targets that the wrapper recorded in
/// \p RelinkDir (programs the build did not link are left out).
std::vector<RecordedLink>
readRecordedLinks(llvm::StringRef RelinkDir,
                  llvm::ArrayRef<std::string> Targets);
/// \returns the command that links \p L again with \p Flags (the compile
/// flags of its sources as \p Final has them).
std::vector<std::string> composeRelinkCommand(const RecordedLink &L,
                                              const PgoPhaseFlags &Flags,
                                              const PgoWrapperConfig &Final);

/// A program the build copied from one it linked, or linked to it by
/// another name (a hard link).
struct ProgramCopy {
  std::string Copy, Target;
  bool HardLink = false;
};
/// \returns the programs of training runs that are not profiled programs
/// but have the bytes of one of \p Links' now: the build's copies.
std::vector<ProgramCopy> findProgramCopies(const PgoManifest &M,
                                           llvm::ArrayRef<RecordedLink> Links,
                                           llvm::ArrayRef<std::string> Targets);
/// \returns the other names that the build gave \p Links' programs in
/// their directories by hard links (`ln -f pigz unpigz`); call it before
/// any relink, which writes a new file and leaves such a name with the
/// build's bytes.
std::vector<ProgramCopy> findHardLinks(llvm::ArrayRef<RecordedLink> Links);
/// Copies \p From (with its permissions) to a temporary next to \p To and
/// renames it over \p To.
llvm::Error replaceFileAtomically(llvm::StringRef From, llvm::StringRef To,
                                  llvm::StringRef Step);
/// Gives each copy its program's bytes again (a hard link links to the
/// program again).
llvm::Error refreshProgramCopies(llvm::ArrayRef<ProgramCopy> Copies,
                                 const Workspace &WS, llvm::raw_ostream &Out);
/// Records \p Program's stamp as it is now in \p B.Programs.
void restampProgram(PgoBuild &B, llvm::StringRef Program);

/// \returns true if the profiler of \p Opts' block layout source is
/// installed (for the default, callgrind's or BOLT's, either of which
/// blockLayoutRelink takes).
bool hasBlockProfiler(const PgoTransforms &Opts, const PgoEnvironment &Env);

/// \returns true if blockLayoutRelink will profile with callgrind (the
/// source \p Opts asks for, or the default's choice for the training of
/// \p M): then the final links can carry the block address map, which
/// changes no code, and block layout profiles the programs as they are.
bool blockLayoutProfilesWithCallgrind(const PgoTransforms &Opts,
                                      const PgoManifest &M,
                                      const PgoEnvironment &Env);

/// Block layout after the final links (PgoBlockLayout.cpp): for each of
/// \p Links, the address-mapped link into the workspace (with
/// \p ProgramsHaveAddressMap, the final links carried the map: the program
/// without its debug info, and a program whose block layout fails loses
/// the map), the training runs
/// replayed on it under the profiler of \p Opts' block layout source (for
/// the default, BOLT's where valgrind is missing or the replays would take
/// longer than \p Opts' callgrind budget), the block profile, and the
/// relink with it over the program (and its \p Copies). A program whose
/// block layout fails keeps its function-level layout, with a warning on
/// \p Err; what each got is in \p B.BlockLayouts. With \p Alternative (the
/// flags of alternativePolicy(), when \p Opts measuresPolicy()), each
/// program is profiled with both policies' flags, and relinked with the
/// policy whose replays executed fewer instructions (the alternative's by
/// at least PgoPolicyMinSaving). \returns an error only for what fails the
/// optimize phase (the workspace cannot be written).
llvm::Error blockLayoutRelink(const Workspace &WS, const PgoEnvironment &Env,
                              const PgoManifest &M, const PgoTransforms &Opts,
                              llvm::ArrayRef<RecordedLink> Links,
                              llvm::ArrayRef<ProgramCopy> Copies,
                              const PgoWrapperConfig &Final,
                              const std::optional<PgoPhaseFlags> &Alternative,
                              bool ProgramsHaveAddressMap, PgoBuild &B,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Err);

/// The phases.
llvm::Error instrumentMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                           llvm::raw_ostream &Out);
llvm::Error runMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                    llvm::raw_ostream &Out);
llvm::Error optimizeMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                         llvm::raw_ostream &Out, llvm::raw_ostream &Err);
llvm::Error statusMain(const PgoOptions &Opts, llvm::raw_ostream &Out);

} // namespace kiln::pgo

#endif // KILN_TOOLS_LIB_PGOSTEPS_H

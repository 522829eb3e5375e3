//===- PgoOptimize.cpp - kiln pgo optimize --------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PgoSteps.h"
#include "kiln/Tools/ProgramStandIn.h"

#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/ProfileMerge.h"
#include "kiln/Tools/ReportCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

//===----------------------------------------------------------------------===//
// kiln pgo optimize
//===----------------------------------------------------------------------===//

std::vector<RecordedLink> readRecordedLinks(StringRef RelinkDir,
                                            ArrayRef<std::string> Targets) {
  std::vector<RecordedLink> Links;
  for (size_t I = 0; I < Targets.size(); ++I) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(RelinkDir + "/" + Twine(I) + ".args");
    if (!Buf)
      continue;
    SmallVector<StringRef, 0> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    if (Lines.size() < 2)
      continue;
    RecordedLink L;
    L.Target = Targets[I];
    L.Index = I;
    L.Cwd = Lines[0].str();
    L.Compiler = Lines[1].str();
    // The file ends with a newline: the last piece is empty.
    for (size_t J = 2; J + 1 < Lines.size(); ++J)
      L.Args.push_back(Lines[J].str());
    Links.push_back(std::move(L));
  }
  return Links;
}

std::vector<std::string> composeRelinkCommand(const RecordedLink &L,
                                              const PgoPhaseFlags &Flags,
                                              const PgoWrapperConfig &Final) {
  std::vector<std::string> Sources;
  for (const std::string &Src : classifyCompilerArgs(L.Args).Sources)
    Sources.push_back(makeAbsoluteLexically(Src, L.Cwd));
  return composeCompilerCommand(L.Compiler, L.Args, Flags, /*IsTarget=*/true,
                                Final.areProfiled(Sources));
}

std::vector<ProgramCopy> findProgramCopies(const PgoManifest &M,
                                           ArrayRef<RecordedLink> Links,
                                           ArrayRef<std::string> Targets) {
  std::vector<ProgramCopy> Copies;
  StringMap<std::string> TargetByHash;
  for (const RecordedLink &L : Links)
    if (Expected<PgoFileStamp> S = stampFile(L.Target, /*WithHash=*/true))
      TargetByHash[S->Hash] = L.Target;
    else
      consumeError(S.takeError());
  for (const PgoRun &R : M.Runs) {
    if (!R.Program || R.Generation != M.Generation ||
        is_contained(Targets, R.Program->Path) ||
        any_of(Copies,
               [&](const ProgramCopy &C) { return C.Copy == R.Program->Path; }))
      continue;
    Expected<PgoFileStamp> S = stampFile(R.Program->Path, /*WithHash=*/true);
    if (!S) {
      consumeError(S.takeError());
      continue;
    }
    auto It = TargetByHash.find(S->Hash);
    if (It != TargetByHash.end())
      Copies.push_back({R.Program->Path, It->second});
  }
  return Copies;
}

std::vector<ProgramCopy> findHardLinks(ArrayRef<RecordedLink> Links) {
  std::vector<ProgramCopy> HardLinks;
  for (const RecordedLink &L : Links) {
    sys::fs::file_status Target;
    if (sys::fs::status(L.Target, Target) || Target.getLinkCount() < 2)
      continue;
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator It(sys::path::parent_path(L.Target), EC),
         End;
         It != End && !EC; It.increment(EC)) {
      sys::fs::file_status Other;
      // A symbolic link names the program's path, which gets the relink.
      if (It->path() != L.Target &&
          !sys::fs::status(It->path(), Other, /*Follow=*/false) &&
          Other.type() == sys::fs::file_type::regular_file &&
          Other.getUniqueID() == Target.getUniqueID())
        Names.push_back(It->path());
    }
    llvm::sort(Names);
    for (std::string &Name : Names)
      HardLinks.push_back({std::move(Name), L.Target, /*HardLink=*/true});
  }
  return HardLinks;
}

Error replaceFileAtomically(StringRef From, StringRef To, StringRef Step) {
  std::string Temp = (To + ".kiln-tmp").str();
  if (std::error_code EC = sys::fs::copy_file(From, Temp))
    return makeToolError(Step + ": cannot copy " + From + ": " + EC.message(),
                         Temp);
  if (ErrorOr<sys::fs::perms> Perms = sys::fs::getPermissions(From))
    sys::fs::setPermissions(Temp, *Perms);
  if (std::error_code EC = sys::fs::rename(Temp, To)) {
    sys::fs::remove(Temp);
    return makeToolError(Step + ": cannot replace the file: " + EC.message(),
                         To);
  }
  return Error::success();
}

Error refreshProgramCopies(ArrayRef<ProgramCopy> Copies, const Workspace &WS,
                           raw_ostream &Out) {
  for (const ProgramCopy &C : Copies) {
    // A symbolic link to the program already names what the relink wrote.
    SmallString<256> Real, TargetReal;
    if (sys::fs::is_symlink_file(C.Copy) && !sys::fs::real_path(C.Copy, Real) &&
        !sys::fs::real_path(C.Target, TargetReal) && Real == TargetReal)
      continue;
    if (C.HardLink) {
      Out << "kiln: optimize: " << WS.display(C.Copy)
          << " is the build's hard link to " << WS.display(C.Target)
          << ": linking it to the final link\n";
      std::string Temp = C.Copy + ".kiln-tmp";
      sys::fs::remove(Temp);
      if (!sys::fs::create_hard_link(C.Target, Temp)) {
        if (std::error_code EC = sys::fs::rename(Temp, C.Copy)) {
          sys::fs::remove(Temp);
          return makeToolError(
              "optimize: cannot replace the file: " + EC.message(), C.Copy);
        }
        continue;
      }
      // Another file system since: a copy does as well.
    } else {
      Out << "kiln: optimize: " << WS.display(C.Copy)
          << " is the build's copy of " << WS.display(C.Target)
          << ": copying the final link over it\n";
    }
    if (Error E = replaceFileAtomically(C.Target, C.Copy, "optimize"))
      return E;
  }
  return Error::success();
}

void restampProgram(PgoBuild &B, StringRef Program) {
  for (PgoFileStamp &Prog : B.Programs) {
    if (Prog.Path != Program)
      continue;
    if (Expected<PgoFileStamp> S = stampFile(Program, /*WithHash=*/true))
      Prog = std::move(*S);
    else
      consumeError(S.takeError());
  }
}

namespace {
/// When the build wrote a file Kiln links again after it.
struct BuildTime {
  std::string Path;
  sys::TimePoint<> Access, Modification;
};
} // namespace

/// \returns the times of the programs of \p Links and of \p Copies as the
/// build left them.
static std::vector<BuildTime> recordBuildTimes(ArrayRef<RecordedLink> Links,
                                               ArrayRef<ProgramCopy> Copies) {
  std::vector<BuildTime> Times;
  auto Record = [&](StringRef Path) {
    sys::fs::file_status Status;
    if (!sys::fs::status(Path, Status))
      Times.push_back({Path.str(), Status.getLastAccessedTime(),
                       Status.getLastModificationTime()});
  };
  for (const RecordedLink &L : Links)
    Record(L.Target);
  for (const ProgramCopy &C : Copies)
    Record(C.Copy);
  return Times;
}

/// Gives the files Kiln linked again after the build the times the build
/// wrote them at, and restamps them in \p B. A build system that compares
/// times (make; ninja's restat, which Meson's symbol files use) then finds
/// its outputs as it left them: it does not link them again, without Kiln,
/// when the user runs it after `optimize` (to install, say).
static void restoreBuildTimes(ArrayRef<BuildTime> Times, PgoBuild &B) {
  for (const BuildTime &T : Times) {
    int FD;
    if (sys::fs::openFileForWrite(T.Path, FD, sys::fs::CD_OpenExisting,
                                  sys::fs::OF_Append))
      continue;
    std::error_code EC =
        sys::fs::setLastAccessAndModificationTime(FD, T.Access, T.Modification);
    sys::Process::SafelyCloseFileDescriptor(FD);
    if (!EC)
      restampProgram(B, T.Path);
  }
}

/// Why the context-sensitive relink cannot take place.
static Error fallbackError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// Replays the used training runs on the context-sensitive build and merges
/// each scenario's CS profile into \p Profiles (Startup and Steady).
/// \returns an error saying why the relink falls back if it cannot.
static Error replayForContextSensitiveProfiles(
    const Workspace &WS, const PgoEnvironment &Env, const PgoManifest &M,
    PgoProfiles &Profiles, unsigned &Replays, raw_ostream &Out) {
  std::vector<std::string> Steady;
  Profiles.Startup.clear();
  Profiles.Steady.clear();
  for (const std::string &S : M.usableScenarios()) {
    std::vector<std::string> Texts;
    for (const PgoRun *R : M.usedRuns(S)) {
      std::string Dir = WS.path("raw/cs/" + S + "/run-" + Twine(R->Id));
      sys::fs::remove_directories(Dir);
      if (std::error_code EC = sys::fs::create_directories(Dir))
        return fallbackError(Dir +
                             ": cannot create the directory: " + EC.message());
      ProcessSetup Setup;
      Setup.Cwd = R->Cwd;
      Setup.Stdin = R->Stdin.empty() ? "/dev/null" : R->Stdin;
      Setup.Stdout = "/dev/null";
      Setup.Stderr = Dir + "/stderr.txt";
      std::string What = describeRun(*R);
      Expected<ProcessResult> P = runProcess(
          R->Command, {{"LLVM_PROFILE_FILE", Dir + "/%p-%m.profraw"}},
          "optimize: replay", Setup);
      if (!P)
        return fallbackError("replaying " + What + ": " +
                             toString(P.takeError()));
      if (P->ExitStatus != R->ExitStatus)
        return fallbackError(
            "replaying " + What + " exited with status " +
            std::to_string(P->ExitStatus) + ", the training run with " +
            std::to_string(R->ExitStatus) + " (see " + Setup.Stderr + ")");
      ++Replays;
      Out << "kiln: optimize: replayed " << What
          << " on the context-sensitive build\n";
      std::error_code EC;
      for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
           It.increment(EC)) {
        StringRef Raw = It->path();
        if (!Raw.ends_with(".profraw"))
          continue;
        // Objects instrumented at link time only write a profile flagged
        // front-end, which the ThinLTO backends would ignore; as text with
        // the :csir header it is the context-sensitive profile it is.
        std::string Text = (Raw + ".proftext").str();
        if (Error E = runTool({Env.LLVMBinDir + "/llvm-profdata", "merge",
                               "--text", "-o", Text, Raw.str()},
                              "optimize: read the CS profile", Raw))
          return fallbackError(toString(std::move(E)));
        ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
            MemoryBuffer::getFile(Text);
        if (!Buf)
          return fallbackError(Text + ": cannot read");
        if (Error E = writeFileAtomically(
                Text, (":csir\n" + (*Buf)->getBuffer()).str()))
          return fallbackError(toString(std::move(E)));
        Texts.push_back(Text);
      }
    }
    if (Texts.empty())
      return fallbackError("the replays of scenario '" + S +
                           "' wrote no context-sensitive profile");
    std::string Profile = WS.path("profiles/cs-scenario-" + S + ".profdata");
    if (Error E =
            mergeProfiles(Texts, 1, Profile, "optimize: merge the CS profile"))
      return fallbackError(toString(std::move(E)));
    if (isStartupScenario(S))
      Profiles.Startup = Profile;
    else
      Steady.push_back(Profile);
  }
  if (Steady.size() == 1) {
    Profiles.Steady = Steady[0];
  } else if (Steady.size() > 1) {
    Profiles.Steady = WS.path("profiles/cs-steady.profdata");
    if (Error E = mergeProfiles(Steady, 1, Profiles.Steady,
                                "optimize: merge the CS steady scenarios"))
      return fallbackError(toString(std::move(E)));
  }
  return Error::success();
}

/// Stock CSPGO's second profile: \p CS's compile profile (the training's)
/// with the context-sensitive records of its startup and steady-state
/// profiles (the replays'), weighted as the compile profile is, so that the
/// final links' ThinLTO backends annotate each function as it is after
/// inlining. \p CS.Compile becomes the merged profile.
static Error addContextSensitiveRecords(const Workspace &WS,
                                        const PgoTransforms &Transforms,
                                        PgoProfiles &CS) {
  // One merge: the compile profile as it is, each context-sensitive
  // profile with the compile profile's weight.
  unsigned Weight = CS.CompileWeight;
  std::vector<WeightedProfileInput> Inputs{{CS.Compile, nullptr, 1}};
  for (const std::string &P : {CS.Startup, CS.Steady})
    if (!P.empty())
      Inputs.push_back({P, nullptr, Weight});
  if (Inputs.size() == 1)
    return fallbackError("the replays wrote no context-sensitive profile");
  std::string Compile = WS.path(Weight > 1 ? "profiles/compile-cs-x64.profdata"
                                           : "profiles/compile-cs.profdata");
  if (Expected<MergedProfile> M = mergeInstrProfilesToFile(
          Inputs, Compile, /*Sparse=*/Transforms.PartialTraining);
      !M)
    return fallbackError("optimize: merge the CS profiles into the compile "
                         "profile: " +
                         toString(M.takeError()));
  CS.Compile = Compile;
  return Error::success();
}

/// The context-sensitive relink after the optimize build: replay, merge,
/// link each profiled program of \p Links again, and \p Copies of them.
/// If the replay fails, the programs are linked with the training profiles
/// instead, with a warning. \returns the flags of the final links in
/// \p FinalFlags.
static Error contextSensitiveRelink(
    const Workspace &WS, const PgoEnvironment &Env, const PgoManifest &M,
    const PgoToolPaths &Tools, const PgoProfiles &Training,
    const PgoTransforms &Transforms, ArrayRef<RecordedLink> Links,
    ArrayRef<ProgramCopy> Copies, const PgoWrapperConfig &Final,
    bool WithAddressMap, PgoBuild &B, PgoPhaseFlags &FinalFlags,
    std::optional<PgoPhaseFlags> &Alternative, raw_ostream &Out,
    raw_ostream &Err) {
  std::string LinkRecordDir = WS.path(PgoLinkRecordDir);
  if (Links.empty()) {
    B.ContextSensitive = "no profiled program was linked";
    return Error::success();
  }
  PgoProfiles CS = Training;
  std::string Failure;
  if (Error E =
          replayForContextSensitiveProfiles(WS, Env, M, CS, B.Replays, Out))
    Failure = toString(std::move(E));
  // The context-sensitive records for the backends: the program's own
  // with --cs-compile; otherwise the alternative policy's, which block
  // layout measures against the default.
  bool CSCompile = Transforms.usesContextSensitiveCompile();
  if (Failure.empty() && (CSCompile || Transforms.measuresPolicy())) {
    PgoProfiles WithRecords = CS;
    if (Error E = addContextSensitiveRecords(WS, Transforms, WithRecords)) {
      if (CSCompile)
        Failure = toString(std::move(E));
      else
        Err << "kiln: warning: optimize: no other compile policy to measure: "
            << toString(std::move(E)) << '\n';
    } else if (CSCompile) {
      CS = WithRecords;
    } else {
      Alternative = computeOptimizeFlags(Tools, WithRecords,
                                         alternativePolicy(Transforms));
    }
  }
  const PgoProfiles &Use = Failure.empty() ? CS : Training;
  if (!Failure.empty())
    Err << "kiln: warning: optimize: context-sensitive profiles: " << Failure
        << "; linking with the training profiles instead\n";
  PgoPhaseFlags Flags = computeOptimizeFlags(Tools, Use, Transforms);
  // For block layout's callgrind replays, which then profile these very
  // programs; the status shows the flags without it.
  PgoPhaseFlags LinkFlags =
      WithAddressMap ? withBlockAddressMap(Flags, AddressMapUse::Program)
                     : Flags;
  for (const RecordedLink &L : Links) {
    std::vector<std::string> Cmd = composeRelinkCommand(L, LinkFlags, Final);
    append_range(Cmd, reportLinkFlags(Flags, LinkRecordDir, L.Index));
    ProcessSetup Setup;
    Setup.Cwd = L.Cwd;
    Setup.Stdout = Setup.Stderr =
        WS.path("optimize/relink/" + sys::path::filename(L.Target) + ".log");
    Out << "kiln: optimize: linking " << WS.display(L.Target) << " again\n";
    Expected<ProcessResult> P = runProcess(Cmd, {}, "optimize: relink", Setup);
    if (!P)
      return P.takeError();
    if (P->ExitStatus != 0)
      return makeToolError("optimize: the final link exited with status " +
                               Twine(P->ExitStatus) + " (its output is in " +
                               Setup.Stdout + ")",
                           WS.display(L.Target));
    restampProgram(B, L.Target);
    recordFinalLink(B, linkCost(L.Target, "context-sensitive relink", *P));
  }
  if (Error E = refreshProgramCopies(Copies, WS, Out))
    return E;
  B.Flags = flagsForStatus(Flags);
  B.ContextSensitive = Failure.empty() ? "done" : Failure;
  FinalFlags = std::move(Flags);
  return Error::success();
}

Error optimizeMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                   raw_ostream &Out, raw_ostream &Err) {
  Workspace WS(Opts.Workspace);
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "optimize");
  if (!M)
    return M.takeError();
  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::milliseconds(0));
  if (!Lock)
    return Lock.takeError();
  if (!M->Instrument || !M->Instrument->Succeeded)
    return makeToolError(
        "optimize: there is no instrumented build", WS.display(WS.manifest()),
        "run '" + WS.command("instrument") + " -- <build command>' first");
  // A block layout replay killed while stand-ins held a program's paths
  // left the programs beside them; the build below must see its own.
  {
    std::vector<std::string> Paths;
    for (const PgoFileStamp &P : M->Instrument->Programs)
      Paths.push_back(P.Path);
    for (const PgoRun &R : M->Runs)
      if (R.Program)
        Paths.push_back(R.Program->Path);
    if (Error E = restoreLeftOriginals(Paths, Out))
      return makeToolError("optimize: " + toString(std::move(E)), "",
                           "move it back by hand");
  }
  std::vector<std::string> Scenarios = M->usableScenarios();
  if (Scenarios.empty())
    return makeToolError("optimize: no training run of the instrumented build "
                         "has a usable profile",
                         WS.display(WS.manifest()),
                         "run '" + WS.command("run") +
                             " --scenario=<name> -- <command>' first "
                             "(--scenario=startup for the startup)");

  // The profiles: the startup scenario's, every other scenario merged (the
  // steady state), and all of them for the compile.
  PgoProfiles Profiles;
  std::vector<std::string> Steady, All;
  for (const std::string &S : Scenarios) {
    std::string P = scenarioProfile(WS, S);
    if (!sys::fs::exists(P))
      return makeToolError("optimize: the profile of scenario '" + S +
                               "' is missing",
                           P, "run its scenario again");
    All.push_back(P);
    if (isStartupScenario(S))
      Profiles.Startup = P;
    else
      Steady.push_back(P);
  }
  if (Steady.size() == 1) {
    Profiles.Steady = Steady[0];
  } else if (Steady.size() > 1) {
    Profiles.Steady = WS.path("profiles/steady.profdata");
    if (Error E = mergeProfiles(Steady, 1, Profiles.Steady,
                                "optimize: merge the steady scenarios"))
      return E;
  }
  // How much of the program the steady-state training ran: all the
  // transforms below read its zeros as "never runs".
  Expected<std::optional<TrainingCoverage>> Coverage =
      steadyTrainingCoverage(WS, *M);
  if (!Coverage)
    Err << "kiln: warning: optimize: cannot measure the training's coverage: "
        << toString(Coverage.takeError()) << '\n';
  else if (*Coverage)
    describeTraining(**Coverage, WS, "kiln: optimize: ", /*Optimized=*/true,
                     Err);
  unsigned Weight = Opts.Transforms.compileProfileWeight(
      hasBlockProfiler(Opts.Transforms, Env));
  Profiles.CompileWeight = Weight;
  Profiles.Compile = WS.path(Weight > 1 ? "profiles/compile-x64.profdata"
                                        : "profiles/compile.profdata");
  if (Error E = mergeProfiles(All, Weight, Profiles.Compile,
                              "optimize: merge the compile profile",
                              /*Sparse=*/Opts.Transforms.PartialTraining))
    return E;

  // Sources edited since the training: the order still comes from runs of
  // the new build (the context-sensitive replay), but the compile profile
  // is the old one, and splitting moves out the blocks the old training
  // never ran, which the new code may run (docs/benchmarks.md, "A stale
  // profile").
  std::string ChangedExample;
  if (unsigned Changed = countChangedSources(*M->Instrument, ChangedExample))
    Err << "kiln: warning: optimize: " << Changed << " of "
        << M->Instrument->Sources.size()
        << " source(s) changed since the instrumented build (" << ChangedExample
        << "): the training profiles may be stale"
        << (Opts.Transforms.Split
                ? "; function splitting moves out the code the training did "
                  "not run, which the new code may run"
                : "")
        << " (instrument and train again for fresh profiles"
        << (Opts.Transforms.Split ? ", or --no-split" : "") << ")\n";

  PgoToolPaths Tools{Env.LLVMBinDir, Env.KilnBinDir + "/kiln-lld", Env.Plugin};
  if (Opts.Transforms.UntrainedSize && !Opts.Transforms.PartialTraining)
    Err << "kiln: warning: optimize: --untrained-size does nothing with "
           "--no-partial-training: every function has a count, and the ones "
           "no training ran are already compiled for size\n";
  else if (Opts.Transforms.usesUntrainedSize() && Env.Plugin.empty())
    Err << "kiln: warning: optimize: --untrained-size: Kiln's plugin was not "
           "found beside kiln (or named by $KILN_PLUGIN); the code no "
           "training ran is compiled for speed\n";
  PgoPhaseFlags Flags = computeOptimizeFlags(Tools, Profiles, Opts.Transforms);
  std::vector<std::string> Targets, Sources;
  for (const PgoFileStamp &P : M->Instrument->Programs)
    Targets.push_back(P.Path);
  // The sources the profiles describe: those the instrumented build
  // compiled and that were still there at its end (not a configure check's).
  for (const PgoFileStamp &S : M->Instrument->Sources)
    Sources.push_back(S.Path);

  if (Targets.empty())
    Err << "kiln: warning: optimize: the instrumented build linked no program "
           "(or none is left): no link gets Kiln's order\n";
  // With the context-sensitive relink, the build links the profiled
  // programs instrumented (the compiles are the final ones), the training
  // runs are replayed on them, and they are linked again with the order
  // from those profiles.
  bool CS = Opts.Transforms.usesContextSensitiveRelink() && !Targets.empty();
  // Block layout relinks the final programs from their recorded links too.
  bool BlockLayout = Opts.Transforms.usesBlockLayout() && !Targets.empty();
  std::string RelinkDir = WS.path("optimize/relink");
  sys::fs::remove_directories(RelinkDir);
  sys::fs::remove_directories(WS.path(PgoBlockLayoutDir));
  if (CS || BlockLayout)
    if (Error E = makeDirectory(RelinkDir, "optimize"))
      return E;
  // What the target links record for `kiln report`; a record of an earlier
  // build must not pass for this one's.
  std::string LinkRecordDir = WS.path(PgoLinkRecordDir);
  sys::fs::remove_directories(LinkRecordDir);
  if (Error E = makeDirectory(LinkRecordDir, "optimize"))
    return E;
  PgoPhaseFlags BuildFlags =
      CS ? withContextSensitiveInstrumentation(Tools, Flags, Opts.Transforms,
                                               WS.path("raw/cs-untracked"))
         : Flags;

  M->Phase = "optimize-failed";
  if (Error E = saveManifest(WS, *M, "optimize"))
    return E;
  Expected<PgoBuild> B =
      runPhaseBuild(WS, Env, "optimize", Opts, BuildFlags, Targets, Sources,
                    CS || BlockLayout ? StringRef(RelinkDir) : StringRef(),
                    LinkRecordDir, Out);
  if (!B)
    return B.takeError();
  B->Generation = M->Generation;
  M->Optimize = *B;
  if (!B->Succeeded) {
    if (Error E = saveManifest(WS, *M, "optimize"))
      return E;
    return buildFailure("optimize", *B, *M, WS);
  }
  PgoWrapperConfig Final;
  Final.Flags = Flags;
  // The flags of the compile policy block layout measures beside Final's.
  std::optional<PgoPhaseFlags> Alternative;
  Final.ProfiledSources = Sources;
  std::vector<RecordedLink> Links;
  if (CS || BlockLayout)
    Links = readRecordedLinks(RelinkDir, Targets);
  // The context-sensitive relink links the programs with the block address
  // map when callgrind's replays will profile them: one ThinLTO link of
  // each program fewer (the address-mapped link of the same code). Block
  // layout copies them without debug info, or removes the map where it
  // fails, with llvm-objcopy; without it, it links its own binary.
  bool MappedFinalLinks =
      CS && BlockLayout &&
      blockLayoutProfilesWithCallgrind(Opts.Transforms, *M, Env) &&
      sys::fs::can_execute(Env.LLVMBinDir + "/llvm-objcopy");
  // A build may copy a program it linked (zstd's Makefile links
  // obj/<hash>/zstd and copies it to zstd): a program a training run ran
  // whose bytes are a linked program's is such a copy, and gets the final
  // link's bytes too.
  // The names the build hard-linked to a program: found now, before a
  // relink writes the program as a new file.
  std::vector<ProgramCopy> HardLinks = findHardLinks(Links);
  auto WithHardLinks = [&](std::vector<ProgramCopy> Copies) {
    // A training run's program with the same bytes may be one of them.
    for (const ProgramCopy &H : HardLinks) {
      llvm::erase_if(Copies,
                     [&](const ProgramCopy &C) { return C.Copy == H.Copy; });
      Copies.push_back(H);
    }
    return Copies;
  };
  std::vector<ProgramCopy> BuiltCopies =
      WithHardLinks(findProgramCopies(*M, Links, Targets));
  std::vector<BuildTime> BuiltAt = recordBuildTimes(Links, BuiltCopies);
  if (CS) {
    if (Error E = contextSensitiveRelink(
            WS, Env, *M, Tools, Profiles, Opts.Transforms, Links, BuiltCopies,
            Final, MappedFinalLinks, *B, Final.Flags, Alternative, Out, Err))
      return E;
    M->Optimize = *B;
  }
  if (BlockLayout) {
    // After the final links, whose bytes the copies now have.
    std::vector<ProgramCopy> Copies =
        WithHardLinks(findProgramCopies(*M, Links, Targets));
    if (Error E = blockLayoutRelink(WS, Env, *M, Opts.Transforms, Links, Copies,
                                    Final, Alternative, MappedFinalLinks, *B,
                                    Out, Err))
      return E;
    M->Optimize = *B;
  }
  restoreBuildTimes(BuiltAt, *B);
  M->Optimize = *B;
  M->Phase = "optimized";
  if (Error E = saveManifest(WS, *M, "optimize"))
    return E;
  printBuildSummary("optimize", *B, WS, Out);
  for (const std::string &T : Targets)
    if (none_of(B->Programs,
                [&](const PgoFileStamp &P) { return P.Path == T; }))
      Err << "kiln: warning: optimize: " << WS.display(T)
          << " was not linked again by this build: it is not optimized\n";
  Out << "kiln: optimize: scenarios " << join(Scenarios, ", ") << "; "
      << (Opts.Transforms.Order ? "Kiln's function order" : "no order") << ", "
      << (Opts.Transforms.Split ? "function splitting" : "no splitting") << ", "
      << (Opts.Transforms.ThinLTO ? "ThinLTO" : "no LTO");
  if (Opts.Transforms.Order)
    Out << ", "
        << (B->ContextSensitive == "done"
                ? "order from context-sensitive profiles"
                : "order from the training profiles");
  if (!Opts.Transforms.StringTables)
    Out << ", no string tables";
  if (BlockLayout) {
    size_t Done = count_if(B->BlockLayouts, [](const PgoBlockLayout &L) {
      return L.Outcome == "done";
    });
    Out << ", block layout from "
        << (B->BlockLayoutSource == "bolt" ? "BOLT's instrumentation"
                                           : "callgrind's trace")
        << " (" << Done << " of " << B->BlockLayouts.size() << " program(s))";
  }
  Out << '\n';
  Out << "kiln: optimize: compile policy: " << B->CompilePolicy << '\n';
  // The report reads what the build recorded; the build succeeded whether
  // or not it can be written.
  ReportOptions Report;
  Report.Workspace = WS.Root;
  auto Start = std::chrono::steady_clock::now();
  Expected<std::string> HTML = writeReport(Report, Err);
  if (!HTML) {
    Err << "kiln: warning: optimize: no report: " << toString(HTML.takeError())
        << '\n';
    return Error::success();
  }
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  Out << "kiln: optimize: report: " << WS.display(*HTML) << " ("
      << format("%.2f", Seconds) << " s; kiln report writes it again)\n";
  return Error::success();
}

} // namespace kiln::pgo

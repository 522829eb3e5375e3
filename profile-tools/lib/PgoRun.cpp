//===- PgoRun.cpp - kiln pgo run ------------------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PgoSteps.h"

#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <sys/stat.h>
#include <unistd.h>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

/// The copy of a piped standard input, in the run's raw-profile directory.
static constexpr const char PipedStdinName[] = "stdin";

//===----------------------------------------------------------------------===//
// kiln pgo run
//===----------------------------------------------------------------------===//

std::string scenarioProfile(const Workspace &WS, StringRef Scenario) {
  return WS.path("profiles/scenario-" + Scenario + ".profdata");
}

Error runMain(const PgoOptions &Opts, const PgoEnvironment &Env,
              raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  unsigned Generation;
  {
    Expected<std::unique_ptr<WorkspaceLock>> Lock =
        WorkspaceLock::acquire(WS, std::chrono::milliseconds(2000));
    Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "run");
    if (!M) {
      if (Lock)
        return M.takeError();
      consumeError(Lock.takeError());
      return M.takeError();
    }
    if (!Lock)
      return Lock.takeError();
    if (!M->Instrument || !M->Instrument->Succeeded)
      return makeToolError("run: there is no instrumented build to train",
                           WS.display(WS.manifest()),
                           "run '" + WS.command("instrument") +
                               " -- <build command>' first");
    Generation = M->Generation;
  }

  // The run's raw profiles go to a directory of their own, renamed into
  // place once the run is over: an interrupted run never reaches a merge.
  std::string Pending =
      WS.path("raw/" + Opts.Scenario + "/pending-" + Twine(::getpid()));
  sys::fs::remove_directories(Pending);
  if (Error E = makeDirectory(Pending, "run"))
    return E;

  std::optional<PgoFileStamp> Program;
  {
    std::string Exe = Opts.Command[0];
    if (StringRef(Exe).contains('/')) {
      Exe = makeAbsoluteLexically(Exe, currentDir());
    } else if (ErrorOr<std::string> Found = sys::findProgramByName(Exe)) {
      Exe = *Found;
    }
    if (Expected<PgoFileStamp> S = stampFile(Exe, /*WithHash=*/true))
      Program = std::move(*S);
    else
      consumeError(S.takeError());
  }

  PgoRun Run;
  // The context-sensitive relink replays the run with the same standard
  // input: a file (`< workload`) is read again from its path; what comes
  // through a pipe (`gen | kiln pgo run ...`) is copied into the run's
  // directory as the command reads it. A terminal is interactive: the
  // replay gets /dev/null.
  ProcessSetup Setup;
  struct stat StdinStat;
  bool StdinIsPipe = false;
  if (::fstat(0, &StdinStat) == 0) {
    if (S_ISREG(StdinStat.st_mode)) {
      SmallString<256> StdinPath;
      if (!sys::fs::real_path("/proc/self/fd/0", StdinPath))
        Run.Stdin = StdinPath.str().str();
    } else if (S_ISFIFO(StdinStat.st_mode) || S_ISSOCK(StdinStat.st_mode)) {
      StdinIsPipe = true;
      Setup.CopyStdinTo = Pending + "/" + PipedStdinName;
    }
  }
  Run.Scenario = Opts.Scenario;
  Run.Command = Opts.Command;
  Run.Cwd = currentDir();
  Run.Time = nowUTC();
  Run.Generation = Generation;
  Run.Program = Program;
  auto Start = std::chrono::steady_clock::now();
  Expected<ProcessResult> R = runProcess(
      Opts.Command, {{"LLVM_PROFILE_FILE", Pending + "/%p-%m.profraw"}}, "run",
      Setup);
  // To the millisecond: the estimate of a replay's cost needs no more.
  Run.Seconds = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - Start)
                    .count() /
                1000.0;
  if (!R) {
    sys::fs::remove_directories(Pending);
    sys::fs::remove(sys::path::parent_path(Pending)); // If empty.
    return R.takeError();
  }
  Run.ExitStatus = R->ExitStatus;

  std::vector<std::string> Raws;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Pending, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".profraw"))
      Raws.push_back(sys::path::filename(It->path()).str());
  llvm::sort(Raws);

  Run.Outcome = R->Signaled          ? "signal"
                : R->ExitStatus != 0 ? "failed"
                : Raws.empty()       ? "no-profile"
                                     : "ok";
  Run.Used = !Raws.empty() && (Run.Outcome == "ok" ||
                               (Run.Outcome == "failed" && Opts.KeepFailed));

  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::minutes(10));
  if (!Lock)
    return Lock.takeError();
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "run");
  if (!M)
    return M.takeError();
  Run.Id = 1;
  for (const PgoRun &Other : M->Runs)
    Run.Id = std::max(Run.Id, Other.Id + 1);
  if (M->Generation != Generation)
    Run.Used = false; // Instrumented again meanwhile.

  std::string Dir;
  if (!Raws.empty()) {
    std::string Rel = ("raw/" + Opts.Scenario + "/" +
                       (Run.Used ? "run-" : "failed-") + Twine(Run.Id))
                          .str();
    Dir = WS.path(Rel);
    if (std::error_code EC = sys::fs::rename(Pending, Dir))
      return makeToolError("run: cannot keep the raw profiles: " + EC.message(),
                           Dir);
    for (const std::string &Raw : Raws)
      Run.RawProfiles.push_back(Rel + "/" + Raw);
    if (StdinIsPipe && R->StdinCopied)
      Run.Stdin = Dir + "/" + PipedStdinName;
  } else {
    sys::fs::remove_directories(Pending);
  }

  std::string Profile = scenarioProfile(WS, Opts.Scenario);
  std::string MergeError;
  if (Run.Used) {
    std::vector<std::string> Inputs;
    for (const PgoRun *Used : M->usedRuns(Opts.Scenario))
      for (const std::string &Raw : Used->RawProfiles)
        Inputs.push_back(WS.path(Raw));
    for (const std::string &Raw : Run.RawProfiles)
      Inputs.push_back(WS.path(Raw));
    if (Error E = makeDirectory(WS.path("profiles"), "run"))
      return E;
    if (Error E = mergeProfiles(Inputs, 1, Profile, "run: merge")) {
      // A profile llvm-profdata cannot read is not used; the scenario's
      // profile stays as it was.
      MergeError = toString(std::move(E));
      Run.Used = false;
      Run.Outcome = "bad-profile";
      std::string Rel =
          ("raw/" + Opts.Scenario + "/failed-" + Twine(Run.Id)).str();
      if (!sys::fs::rename(Dir, WS.path(Rel))) {
        Run.RawProfiles.clear();
        for (const std::string &Raw : Raws)
          Run.RawProfiles.push_back(Rel + "/" + Raw);
        if (StdinIsPipe && !Run.Stdin.empty())
          Run.Stdin = WS.path(Rel) + "/" + PipedStdinName;
      }
    }
  }
  M->Runs.push_back(Run);
  if (Error E = saveManifest(WS, *M, "run"))
    return E;

  std::string What =
      "run " + std::to_string(Run.Id) + " of scenario '" + Opts.Scenario + "'";
  if (Run.Used && StdinIsPipe && Run.Stdin.empty())
    Out << "kiln: warning: run: " << What
        << ": the copy of its piped standard input is incomplete; the "
           "context-sensitive relink replays it with /dev/null\n";
  if (Run.Used) {
    Out << "kiln: run: " << What << ": exit status " << Run.ExitStatus << ", "
        << Run.RawProfiles.size() << " raw profile(s); " << WS.display(Profile)
        << " now holds " << M->usedRuns(Opts.Scenario).size() << " run(s)\n";
    return Error::success();
  }
  std::string Where =
      Run.RawProfiles.empty()
          ? std::string("it wrote no profile")
          : "its raw profiles are kept in " +
                WS.display(
                    WS.path(sys::path::parent_path(Run.RawProfiles[0]))) +
                " but not used";
  if (Run.Outcome == "bad-profile")
    return makeToolError("run: " + What + ": its profile cannot be merged; " +
                             Where + "\n" + MergeError,
                         joinCommand(Opts.Command));
  if (Run.Outcome == "signal")
    return makeToolError("run: " + What + " was killed by signal " +
                             Twine(Run.ExitStatus - 128) + " (exit status " +
                             Twine(Run.ExitStatus) + "); " + Where,
                         joinCommand(Opts.Command));
  if (Run.Outcome == "failed")
    return makeToolError("run: " + What + " exited with status " +
                             Twine(Run.ExitStatus) + "; " + Where,
                         joinCommand(Opts.Command),
                         "fix the command, or give --keep-failed to use the "
                         "profile of a run that fails on purpose");
  return makeToolError(
      "run: " + What +
          " exited with status 0 but wrote no "
          "profile: is it a program of the "
          "instrumented build?",
      joinCommand(Opts.Command),
      M->Phase == "optimized"
          ? "the build now holds the optimized programs: run "
            "'" +
                WS.command("instrument") + "' again to collect more"
          : "run a program that '" + WS.command("instrument") + "' built");
}

} // namespace kiln::pgo

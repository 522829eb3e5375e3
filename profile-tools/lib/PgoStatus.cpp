//===- PgoStatus.cpp - kiln pgo status ------------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LibtoolWrapper.h"
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
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

//===----------------------------------------------------------------------===//
// kiln pgo status
//===----------------------------------------------------------------------===//

Error statusMain(const PgoOptions &Opts, raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "status");
  if (!M)
    return M.takeError();
  Out << "workspace: " << WS.Root << " (kiln " << M->KilnVersion << ")\n";
  Out << "phase: " << M->Phase << '\n';
  if (const std::optional<PgoBuild> &B = M->Instrument) {
    Out << "instrumented build " << B->Generation << ": "
        << joinCommand(B->Command) << " in " << B->Cwd << ", " << B->Time
        << ", exit status " << B->ExitStatus << ", " << B->Compiles
        << " compile(s), " << B->Links << " link(s)\n";
    for (const PgoFileStamp &P : B->Programs) {
      std::string Now = describeNow(P);
      if (Now == "changed since" && M->Optimize)
        for (const PgoFileStamp &O : M->Optimize->Programs)
          if (O.Path == P.Path && describeNow(O) == "unchanged")
            Now = "replaced by the optimized build";
      Out << "  program " << P.Path << " (hash " << P.Hash << "): " << Now
          << '\n';
    }
    std::string Example;
    unsigned Changed = countChangedSources(*B, Example);
    Out << "  sources: " << B->Sources.size() << " compiled, ";
    if (Changed)
      Out << Changed << " changed since (" << Example
          << "): the profiles may be stale\n";
    else
      Out << "all unchanged\n";
  }
  // Scenarios in order of first run.
  std::vector<std::string> Names;
  for (const PgoRun &R : M->Runs)
    if (!is_contained(Names, R.Scenario))
      Names.push_back(R.Scenario);
  Out << "scenarios:" << (Names.empty() ? " none yet" : "") << '\n';
  for (const std::string &S : Names) {
    size_t Used = M->usedRuns(S).size();
    Out << "  " << S << " (" << (isStartupScenario(S) ? "startup" : "steady")
        << "): " << Used << " run(s) used";
    if (Used && sys::fs::exists(scenarioProfile(WS, S)))
      Out << ", profile " << WS.display(scenarioProfile(WS, S));
    Out << '\n';
    for (const PgoRun &R : M->Runs) {
      if (R.Scenario != S)
        continue;
      Out << "    run " << R.Id << ": exit status " << R.ExitStatus << ", "
          << R.Outcome << ", "
          << (R.Generation != M->Generation
                  ? "not used (an earlier instrumented build)"
              : R.Used ? "used"
                       : "not used")
          << ", " << R.RawProfiles.size()
          << " raw profile(s): " << joinCommand(R.Command)
          << (R.Stdin.empty() ? "" : " < " + R.Stdin) << '\n';
      if (R.Program) {
        std::string Match;
        auto IsBuilt = [&](StringRef Path) {
          return M->Instrument &&
                 any_of(M->Instrument->Programs,
                        [&](const PgoFileStamp &P) { return P.Path == Path; });
        };
        if (M->Instrument)
          for (const PgoFileStamp &P : M->Instrument->Programs) {
            if (P.Path == R.Program->Path)
              Match = P.Hash == R.Program->Hash
                          ? "the instrumented build's"
                          : "differs from the instrumented build's";
            else if (!IsBuilt(R.Program->Path) && P.Hash == R.Program->Hash)
              Match = "the instrumented build's " + P.Path +
                      " by another name (a copy or a link the build made)";
          }
        if (!IsBuilt(R.Program->Path))
          if (std::optional<LibtoolWrapper> W =
                  readLibtoolWrapper(R.Program->Path);
              W && IsBuilt(W->Program))
            Match = "libtool's wrapper script of the instrumented build's " +
                    W->Program;
        if (Match.empty()) {
          Match = "not a program of the instrumented build";
          // A script's run: its profiles are the programs' it started.
          if (R.Used)
            Match += " (a command that started the build's programs: block "
                     "layout replays it with a stand-in at each program's "
                     "path)";
        }
        Out << "      program " << R.Program->Path << ": " << Match << '\n';
      }
    }
  }
  Expected<std::optional<TrainingCoverage>> Coverage =
      steadyTrainingCoverage(WS, *M);
  if (!Coverage)
    Out << "  steady-state training: coverage unknown ("
        << toString(Coverage.takeError()) << ")\n";
  else if (*Coverage)
    describeTraining(**Coverage, WS, "  ", M->Phase == "optimized", Out);
  if (const std::optional<PgoBuild> &B = M->Optimize) {
    Out << "optimized build: " << joinCommand(B->Command) << ", " << B->Time
        << ", exit status " << B->ExitStatus;
    if (!B->Options.empty())
      Out << ", " << join(B->Options, " ");
    Out << '\n';
    if (!B->CompilePolicy.empty())
      Out << "  compile policy: " << B->CompilePolicy << '\n';
    if (B->ContextSensitive == "done")
      Out << "  context-sensitive relink: " << B->Replays
          << " training run(s) replayed, the order is from their profiles\n";
    else if (!B->ContextSensitive.empty())
      Out << "  context-sensitive relink: not used (" << B->ContextSensitive
          << ")\n";
    for (const PgoBlockLayout &L : B->BlockLayouts) {
      Out << "  block layout (" << B->BlockLayoutSource
          << "): " << WS.display(L.Program) << ": ";
      if (L.Outcome == "done")
        Out << L.Replays << " training run(s) replayed, relinked from "
            << WS.display(L.Profile) << '\n';
      else
        Out << "not used (" << L.Outcome << ")\n";
      if (!L.Policy.empty() && L.AlternativeInstructions)
        Out << "    compile policy: "
            << (L.Policy == "alternative" ? "the other" : "the default")
            << " (the replays executed " << L.DefaultInstructions
            << " instructions with the default, " << L.AlternativeInstructions
            << " with the other)\n";
      else if (!L.Policy.empty() && L.DefaultInstructions &&
               alternativePolicyCannotPay(L.DefaultInstructions,
                                          L.BinaryInstructions))
        Out << "    compile policy: the default (the other not measured: "
               "this binary's code executed "
            << L.BinaryInstructions << " of the replays' "
            << L.DefaultInstructions << " instructions)\n";
    }
    for (const PgoLinkCost &C : B->FinalLinks)
      Out << "  final link of " << WS.display(C.Program) << " (" << C.Link
          << "): " << format("%.2f", C.WallSeconds) << " s, CPU "
          << format("%.2f", C.CPUSeconds) << " s, peak memory "
          << (C.PeakRSSKiB + 512) / 1024 << " MiB\n";
    for (const std::string &F : B->Flags)
      Out << "  " << F << '\n';
    for (const PgoFileStamp &P : B->Programs)
      Out << "  program " << P.Path << ": " << describeNow(P) << '\n';
  }
  return Error::success();
}

#ifndef KILN_LLVM_BIN_DIR
#define KILN_LLVM_BIN_DIR "/usr/lib/llvm-22/bin"
#endif

} // namespace kiln::pgo

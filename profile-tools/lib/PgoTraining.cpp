//===- PgoTraining.cpp - How much of the program the training ran ---------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The guided flow's check of its training: `optimize` and `status` say how
// much of the program the steady-state runs executed, and warn when it is
// so little that the profile's zeros stop meaning "never runs".
//
//===----------------------------------------------------------------------===//

#include "PgoSteps.h"

#include "llvm/Support/Format.h"

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

Expected<std::optional<TrainingCoverage>>
steadyTrainingCoverage(const Workspace &WS, const PgoManifest &M) {
  std::vector<std::string> Profiles;
  for (const std::string &S : M.usableScenarios()) {
    std::string P = scenarioProfile(WS, S);
    if (!isStartupScenario(S) && sys::fs::exists(P))
      Profiles.push_back(P);
  }
  if (Profiles.empty())
    return std::nullopt;
  Expected<TrainingCoverage> C = readTrainingCoverage(Profiles);
  if (!C)
    return C.takeError();
  return std::optional<TrainingCoverage>(*C);
}

bool isThinTraining(const TrainingCoverage &C) {
  return C.isThin(PgoThinFunctionShare, PgoThinCounterShare);
}

void describeTraining(const TrainingCoverage &C, const Workspace &WS,
                      StringRef Prefix, bool Optimized, raw_ostream &OS) {
  OS << Prefix << "steady-state training: ran " << C.describe() << '\n';
  if (!isThinTraining(C))
    return;
  OS << "kiln: warning: thin training: the steady-state runs executed "
        "fewer than "
     << format("%.0f", 100 * PgoThinFunctionShare) << "% of the functions or "
     << format("%.0f", 100 * PgoThinCounterShare)
     << "% of the counters; to the compile profile the rest is code that "
        "never runs, and a workload unlike the training runs it slower\n"
     << "kiln: note: add steady-state runs that do what the program's users "
        "do ('"
     << WS.command("run")
     << " --scenario=<name> -- <command>', one scenario per kind of work), ";
  if (Optimized)
    OS << "after '" << WS.command("instrument")
       << " -- <build command>' again (the optimized build's programs "
          "write no profile), then '"
       << WS.command("optimize") << "'\n";
  else
    OS << "then '" << WS.command("optimize") << "' again\n";
}

} // namespace kiln::pgo

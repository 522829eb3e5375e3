//===- OrderCommand.cpp - The work of `kiln order` ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/OrderCommand.h"

#include "kiln/Order/LinkerPolicy.h"
#include "kiln/Order/OrderEmitter.h"
#include "kiln/Sources/EdgeList.h"
#include "kiln/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace kiln;

static Error runOrder(const OrderCommandOptions &Opts,
                      layout::PhaseTimes *Times, raw_ostream &Diag) {
  if (Opts.Inputs.empty() && Opts.EdgeLists.empty())
    return makeToolError("no input", "",
                         "give the objects and archives of the link (or the "
                         "linked binary) and --scenario=<kind>=<profile>");
  std::optional<layout::PhaseTimes::Scope> Phase;
  LinkerInputs Inputs;
  if (!Opts.Inputs.empty())
    Phase.emplace(Times, "read linker inputs");
  for (const std::string &Path : Opts.Inputs)
    if (Error E = readLinkerInput(Path, Inputs))
      return makeToolError(toString(std::move(E)));
  if (Inputs.Format == ObjectFormat::ELF)
    markLoadEntry(Inputs, Opts.EntrySymbol);
  PlanOptions Plan = Opts.Plan;
  Plan.Times = Times;
  Phase.emplace(Times, "read edge lists");
  Expected<std::vector<std::shared_ptr<const EdgeListData>>> Lists =
      loadEdgeLists(Opts.EdgeLists);
  if (!Lists)
    return makeToolError(toString(Lists.takeError()));
  Plan.EdgeLists = std::move(*Lists);
  // Without the link's inputs, an edge list's names are the functions
  // (sizes unknown): ordering from lld's own format alone.
  if (Opts.Inputs.empty()) {
    Phase.emplace(Times, "list edge-list functions");
    addEdgeListFunctions(Plan.EdgeLists, Inputs);
  }
  Phase.reset();

  Expected<std::vector<ScenarioSpec>> Scenarios =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Scenarios)
    return makeToolError(toString(Scenarios.takeError()), "--scenario");
  if (Scenarios->empty() && Plan.EdgeLists.empty() &&
      Inputs.NumInputsWithCallGraph == 0)
    return makeToolError("nothing to order by: no profile, no edge list, and "
                         "no input has a call graph profile section",
                         "", "add --scenario=steady=<file.profdata>");

  Phase.emplace(Times, "plan order");
  Expected<OrderPlan> Planned = planOrder(Inputs, *Scenarios, Plan);
  if (!Planned)
    return makeToolError(toString(Planned.takeError()));
  Phase.emplace(Times, "write order file");
  OrderEmission What;
  What.Tool = "kiln order";
  What.Program = "kiln";
  What.Provenance = {"command: " + Opts.CommandLine};
  What.OutputPath = Opts.Output;
  What.ReportPath = Opts.ReportPath;
  What.Format = Opts.Format ? *Opts.Format : getOrderFileFormat(Inputs.Format);
  What.WriteEdgeList = Opts.WriteEdgeList;
  What.SkipSharedNames = Opts.SkipSharedNames;
  What.Algorithm = Opts.Plan.Algorithm;
  What.PageSize = Opts.Plan.Composite.PageSize;
  Expected<OrderFileReport> Written = writePlannedOrder(What, *Planned, Inputs);
  if (!Written)
    return makeToolError(toString(Written.takeError()));
  Phase.emplace(Times, "report");
  Error E = reportPlannedOrder(What, *Planned, Inputs, *Written, Diag);
  if (E)
    E = makeToolError(toString(std::move(E)));
  // The plan and the inputs are destroyed before Phase: time that too.
  Phase.emplace(Times, "free memory");
  return E;
}

Error kiln::runOrderCommand(const OrderCommandOptions &Opts,
                            raw_ostream &Diag) {
  if (!Opts.TimePhases)
    return runOrder(Opts, nullptr, Diag);
  layout::PhaseTimes Times;
  Error E = [&] {
    layout::PhaseTimes::Scope Whole(&Times, "kiln order");
    return runOrder(Opts, &Times, Diag);
  }();
  // The times come last, after the summary, also when the command failed
  // (how far it got is worth knowing).
  Diag << "kiln order: phase times (seconds; thousands of page faults, "
          "i.e. memory touched first; the peak resident memory at the end "
          "of each phase)\n";
  Times.print(Diag);
  return E;
}

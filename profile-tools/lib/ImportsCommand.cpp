//===- ImportsCommand.cpp - kiln imports ----------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ImportsCommand.h"

#include "kiln/Imports/ImportGraphReader.h"
#include "kiln/Imports/ImportPlanOutput.h"
#include "kiln/Imports/ImportPlanner.h"
#include "kiln/Imports/InlinePlanFile.h"
#include "kiln/Imports/InlinePlanner.h"
#include "kiln/Order/OrderPlanner.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <limits>
#include <optional>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

static const char *const ToolName = "kiln";

static void printInlineSummary(const ImportGraph &Graph, const InlinePlan &Plan,
                               uint64_t Budget, raw_ostream &OS) {
  size_t NumDirect = count_if(Plan.Sites, [&](const PlannedSite &P) {
    return P.Into == Graph.CallSites[P.Site].Module;
  });
  OS << "  inline plan: " << Plan.Sites.size() << " call site(s), " << NumDirect
     << " of the " << Plan.NumCandidates
     << " cross-module one(s) the profile ran and "
     << Plan.Sites.size() - NumDirect << " in inlined callees; growth "
     << Plan.Growth << " of " << Budget << " instruction(s); "
     << Plan.NumIneligible
     << " site(s) with a callee that cannot be imported or is too large, "
     << Plan.NumNeverRun << " never run (not imported)\n";
}

Error kiln::runImportsCommand(const ImportsCommandOptions &Opts,
                              raw_ostream &Out, raw_ostream &Diag) {
  if (Opts.Inputs.empty())
    return makeToolError("no input", "",
                         "give the ThinLTO bitcode objects and archives of "
                         "the link");
  if (!Opts.InlinePlanPath.empty() && Opts.InlineBudget.empty())
    return makeToolError("--inline-plan needs --inline-budget", "",
                         "give the growth the planned inlining may add, "
                         "e.g. --inline-budget=2%");
  if (!Opts.InlineBudget.empty() &&
      (!Opts.Budget.empty() || !Opts.ModuleBudget.empty()))
    return makeToolError(
        "--inline-budget plans the imports its inline decisions need; "
        "--budget and --budget-per-module plan imports alone",
        "", "give one or the other");
  Expected<std::vector<ScenarioSpec>> Specs =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Specs)
    return makeToolError(toString(Specs.takeError()), "--scenario");
  // Before anything is written: no output may replace an input.
  std::vector<NamedFile> Read;
  for (const std::string &Path : Opts.Inputs)
    Read.push_back({Path, "input"});
  for (const ScenarioSpec &Spec : *Specs)
    Read.push_back({Spec.Path, "profile"});
  if (Error E = checkOutputPaths({{Opts.WorkloadPath, "--workload-def"},
                                  {Opts.ImportListDir, "--import-lists"},
                                  {Opts.ReportPath, "--report"},
                                  {Opts.InlinePlanPath, "--inline-plan"}},
                                 Read))
    return makeToolError(toString(std::move(E)));
  std::vector<LayoutProfile> Profiles;
  Profiles.reserve(Specs->size());
  std::vector<WeightedProfile> Weighted;
  for (const ScenarioSpec &Spec : *Specs) {
    Expected<LayoutProfile> P = readProfile(Spec.Path);
    if (!P)
      return makeToolError(toString(P.takeError()));
    Profiles.push_back(std::move(*P));
  }
  for (size_t I = 0; I < Profiles.size(); ++I)
    Weighted.push_back({&Profiles[I], (*Specs)[I].Weight});

  Expected<ImportInputs> Inputs =
      readImportInputs(Opts.Inputs, Weighted, [&](const Twine &Warning) {
        WithColor::warning(Diag, ToolName) << Warning << "\n";
      });
  if (!Inputs)
    return makeToolError(toString(Inputs.takeError()));
  for (const ProfileMatch &M : Inputs->Profiles)
    if (M.Matched * 2 < M.Executed)
      WithColor::warning(Diag, ToolName)
          << M.Path << ": only " << M.Matched << " of its " << M.Executed
          << " executed functions are defined in the ThinLTO modules\n";

  const ImportGraph &Graph = Inputs->Graph;
  uint64_t TotalInstructions = 0;
  for (const ImportFunction &F : Graph.Functions)
    if (!F.DefinedIn.empty())
      TotalInstructions += uint64_t(F.InstCount) * F.DefinedIn.size();

  ImportPlanConfig Config;
  Config.MaxImportSize = Opts.MaxImportSize;
  if (!Opts.Budget.empty()) {
    Expected<uint64_t> B = parseImportBudget(Opts.Budget, TotalInstructions);
    if (!B)
      return makeToolError(toString(B.takeError()), "--budget");
    Config.Budget = *B;
  }
  if (!Opts.ModuleBudget.empty()) {
    Expected<uint64_t> B =
        parseImportBudget(Opts.ModuleBudget, TotalInstructions);
    if (!B)
      return makeToolError(toString(B.takeError()), "--budget-per-module");
    Config.ModuleBudget = *B;
  }
  if (Config.Budget == 0 || Config.ModuleBudget == 0)
    WithColor::warning(Diag, ToolName)
        << "a budget of 0 plans no import: every module the workload "
           "definition names gets none, not even LLVM's default ones\n";

  std::optional<InlinePlan> Inline;
  if (!Opts.InlineBudget.empty()) {
    Expected<uint64_t> B =
        parseInlineBudget(Opts.InlineBudget, TotalInstructions);
    if (!B)
      return makeToolError(toString(B.takeError()), "--inline-budget");
    Config.Budget = *B;
    Inline = planInlining(Graph, {*B, Opts.MaxImportSize});
    if (Inline->NumCandidates == 0)
      WithColor::warning(Diag, ToolName)
          << "none of the " << Inline->NumNeverRun
          << " cross-module call site(s) ran in the profiles: the plan "
             "inlines nothing and imports nothing\n";
  }
  ImportPlan Plan = Inline ? Inline->Imports : planImports(Graph, Config);
  WorkloadPlan Workload = makeWorkloadPlan(Graph, Plan);
  for (ModuleId M = 0; M < Graph.Modules.size(); ++M)
    if (Workload.Roots[M] == NoFunction)
      WithColor::warning(Diag, ToolName)
          << Graph.Modules[M]
          << ": no function names this module alone in the thin link's "
             "index; it keeps LLVM's default imports\n";

  ReportContext Ctx;
  Ctx.Config = Config;
  Ctx.TotalInstructions = TotalInstructions;
  Ctx.Top = Opts.Top;
  Ctx.SourceFileNames = Inputs->SourceFileNames;
  // The workload definition and the report go to temporaries first and are
  // renamed into place at the end, so that a run that fails leaves both
  // previous files.
  std::vector<std::unique_ptr<OutputFile>> Pending;
  auto Prepare = [&](StringRef Path,
                     function_ref<void(raw_ostream &)> Write) -> Error {
    if (Path.empty())
      return Error::success();
    Expected<std::unique_ptr<OutputFile>> File =
        OutputFile::create(Path, sys::fs::OF_Text);
    if (!File)
      return File.takeError();
    Write((*File)->os());
    Pending.push_back(std::move(*File));
    return Error::success();
  };
  if (Error E = Prepare(Opts.WorkloadPath, [&](raw_ostream &OS) {
        writeWorkloadDefinition(Graph, Workload, OS);
      }))
    return E;
  if (Error E = Prepare(Opts.ReportPath, [&](raw_ostream &OS) {
        writeImportReport(Graph, Plan, Workload, Ctx, OS);
      }))
    return E;
  if (Inline)
    if (Error E = Prepare(Opts.InlinePlanPath, [&](raw_ostream &OS) {
          writeInlinePlanFile(makeInlinePlanFile(Graph, *Inline,
                                                 Inputs->SourceFileNames,
                                                 Config.Budget),
                              OS);
        }))
      return E;
  if (!Opts.ImportListDir.empty())
    if (Error E = writeImportLists(Graph, Workload, Opts.ImportListDir))
      return makeToolError(toString(std::move(E)), "--import-lists");
  for (std::unique_ptr<OutputFile> &File : Pending)
    if (Error E = File->commit())
      return E;
  if (!Opts.Quiet) {
    printImportSummary(Graph, Plan, Workload, Ctx, Out);
    if (Inline)
      printInlineSummary(Graph, *Inline, Config.Budget, Out);
  }
  return Error::success();
}

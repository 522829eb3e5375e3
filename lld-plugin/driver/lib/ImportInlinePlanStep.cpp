//===- ImportInlinePlanStep.cpp - Plan imports and inlining in kiln-lld ---===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ImportInlinePlanStep.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "kiln/Imports/ImportBudget.h"
#include "kiln/Imports/ImportGraphReader.h"
#include "kiln/Imports/ImportPlanOutput.h"
#include "kiln/Imports/InlinePlanFile.h"
#include "kiln/Imports/InlinePlanner.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

static Error planError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "--kiln-inline-plan: " + Message);
}

bool kiln::requestsInlinePlan(StringRef Value) {
  return !Value.empty() && Value != "off";
}

std::vector<std::string> kiln::parseThinModuleList(StringRef List,
                                                   StringRef Prefix) {
  std::vector<std::string> Paths;
  StringSet<> Seen;
  SmallVector<StringRef, 64> Lines;
  List.split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    Line.consume_front(Prefix);
    // lld names an archive member `archive(member at offset)`.
    if (Line.ends_with(")")) {
      size_t Open = Line.rfind('(');
      if (Open != StringRef::npos && Open > 0 &&
          Line.substr(Open).contains(" at "))
        Line = Line.take_front(Open);
    }
    if (!Line.empty() && Seen.insert(Line).second)
      Paths.push_back(Line.str());
  }
  return Paths;
}

// Asks lld which bitcode modules the link uses: an index-only thin link,
// its index files under the scratch directory, no backend run.
static Expected<std::vector<std::string>>
listThinModules(const InlinePlanStepContext &Ctx) {
  ScratchPaths Paths;
  Paths.Output = Ctx.ScratchDir + "/thin-index.out";
  Paths.LTOObjects = Ctx.ScratchDir + "/thin-index.lto.o";
  Paths.SideOutputs = Ctx.ScratchDir + "/thin-index";
  std::vector<std::string> Args =
      buildPreliminaryLinkArgs(Ctx.LinkerArgs, LinkerFlavor::ELF, Paths);
  std::string List = Ctx.ScratchDir + "/thin-modules.txt";
  Args.push_back("--thinlto-index-only=" + List);
  // The list names the modules as the index files' paths: the prefix
  // replaced.
  std::string Prefix = Ctx.ScratchDir + "/thin-index/";
  Args.push_back("--thinlto-prefix-replace=;" + Prefix);
  std::string Out, Err;
  raw_string_ostream OutStream(Out), ErrStream(Err);
  if (Ctx.RunLinker(Args, OutStream, ErrStream) != 0)
    return planError("the index-only link that lists the ThinLTO modules "
                     "failed");
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(List);
  if (!Buffer)
    return planError("lld wrote no list of ThinLTO modules: " +
                     Buffer.getError().message());
  std::vector<std::string> Modules =
      parseThinModuleList((*Buffer)->getBuffer(), Prefix);
  if (Modules.empty())
    return planError("the link has no ThinLTO module (compile with "
                     "-flto=thin)");
  return Modules;
}

static Error writeFile(StringRef Path,
                       function_ref<void(raw_ostream &)> Write) {
  return writeOutputFile(Path, Write, sys::fs::OF_Text);
}

Expected<std::vector<std::string>>
kiln::planImportsAndInlining(const InlinePlanStepContext &Ctx,
                             raw_ostream &Diag) {
  Expected<std::vector<std::string>> Modules = listThinModules(Ctx);
  if (!Modules)
    return Modules.takeError();

  std::vector<LayoutProfile> Profiles;
  Profiles.reserve(Ctx.Scenarios.size());
  for (const ScenarioSpec &S : Ctx.Scenarios) {
    Expected<LayoutProfile> P = readProfile(S.Path);
    if (!P)
      return planError(toString(P.takeError()));
    Profiles.push_back(std::move(*P));
  }
  std::vector<WeightedProfile> Weighted;
  for (size_t I = 0; I < Profiles.size(); ++I)
    Weighted.push_back({&Profiles[I], Ctx.Scenarios[I].Weight});

  Expected<ImportInputs> Inputs =
      readImportInputs(*Modules, Weighted, [&](const Twine &Warning) {
        WithColor::warning(Diag, "kiln-lld")
            << "--kiln-inline-plan: " << Warning << '\n';
      });
  if (!Inputs)
    return planError(toString(Inputs.takeError()));
  const ImportGraph &Graph = Inputs->Graph;
  uint64_t TotalInstructions = 0;
  for (const ImportFunction &F : Graph.Functions)
    TotalInstructions += uint64_t(F.InstCount) * F.DefinedIn.size();
  Expected<uint64_t> Budget = parseInlineBudget(Ctx.Budget, TotalInstructions);
  if (!Budget)
    return planError(toString(Budget.takeError()));

  InlinePlan Plan = planInlining(Graph, {*Budget, /*MaxCalleeSize=*/600});
  if (Plan.Sites.empty())
    return planError("none of the " + Twine(Plan.NumCandidates) +
                     " cross-module call site(s) the profiles ran fits the "
                     "plan (" +
                     Twine(Plan.NumNeverRun) + " never ran)");
  WorkloadPlan Workload = makeWorkloadPlan(Graph, Plan.Imports);
  std::string WorkloadPath = Ctx.ScratchDir + "/inline-plan.workload.json";
  std::string PlanPath = Ctx.ScratchDir + "/inline-plan.json";
  if (Error E = writeFile(WorkloadPath, [&](raw_ostream &OS) {
        writeWorkloadDefinition(Graph, Workload, OS);
      }))
    return planError(toString(std::move(E)));
  if (Error E = writeFile(PlanPath, [&](raw_ostream &OS) {
        writeInlinePlanFile(
            makeInlinePlanFile(Graph, Plan, Inputs->SourceFileNames, *Budget),
            OS);
      }))
    return planError(toString(std::move(E)));
  if (Ctx.Verbose)
    Diag << "kiln-lld: inline plan: " << Plan.Sites.size()
         << " call site(s) (of the " << Plan.NumCandidates
         << " cross-module ones the profiles ran, and in inlined callees), "
            "growth "
         << Plan.Growth << " of " << *Budget << " instruction(s), "
         << Plan.Imports.Imports.size() << " import(s) over "
         << Graph.Modules.size() << " module(s)\n";
  return std::vector<std::string>{"-mllvm",
                                  "-thinlto-workload-def=" + WorkloadPath,
                                  "-mllvm", "-kiln-inline-plan=" + PlanPath};
}

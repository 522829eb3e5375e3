//===- ImportPlanOutput.cpp - Write an import plan ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/ImportPlanOutput.h"

#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

WorkloadPlan kiln::imports::makeWorkloadPlan(const ImportGraph &Graph,
                                             const ImportPlan &Plan) {
  WorkloadPlan W;
  W.Roots.assign(Graph.Modules.size(), NoFunction);
  W.Imports.resize(Graph.Modules.size());
  for (FunctionId F = 0; F < Graph.Functions.size(); ++F) {
    const ImportFunction &Fn = Graph.Functions[F];
    if (!Fn.CanBeRoot || Fn.DefinedIn.size() != 1)
      continue;
    FunctionId &Root = W.Roots[Fn.DefinedIn.front()];
    if (Root != NoFunction) {
      const ImportFunction &Old = Graph.Functions[Root];
      if (Old.EntryCount > Fn.EntryCount ||
          (Old.EntryCount == Fn.EntryCount && Old.Name <= Fn.Name))
        continue;
    }
    Root = F;
  }
  for (const PlannedImport &I : Plan.Imports)
    W.Imports[I.Into].push_back(I.Function);
  for (std::vector<FunctionId> &List : W.Imports)
    llvm::sort(List, [&](FunctionId A, FunctionId B) {
      return Graph.Functions[A].Name < Graph.Functions[B].Name;
    });
  return W;
}

void kiln::imports::writeWorkloadDefinition(const ImportGraph &Graph,
                                            const WorkloadPlan &Workload,
                                            raw_ostream &OS) {
  std::vector<ModuleId> Order;
  for (ModuleId M = 0; M < Graph.Modules.size(); ++M)
    if (Workload.Roots[M] != NoFunction)
      Order.push_back(M);
  llvm::sort(Order, [&](ModuleId A, ModuleId B) {
    return Graph.Functions[Workload.Roots[A]].Name <
           Graph.Functions[Workload.Roots[B]].Name;
  });
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    for (ModuleId M : Order)
      J.attributeArray(Graph.Functions[Workload.Roots[M]].Name, [&] {
        for (FunctionId F : Workload.Imports[M])
          J.value(Graph.Functions[F].Name);
      });
  });
  OS << '\n';
}

std::string kiln::imports::getImportListStem(StringRef Dir,
                                             StringRef ModuleId) {
  SmallString<256> Path(Dir);
  SmallVector<StringRef, 8> Parts;
  ModuleId.split(Parts, '/', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts)
    sys::path::append(Path, Part == ".." ? "__" : Part == "." ? "_" : Part);
  return std::string(Path);
}

static Error writeTextFile(StringRef Path, const std::string &Text) {
  if (std::error_code EC =
          sys::fs::create_directories(sys::path::parent_path(Path)))
    return createStringError(EC, "%s: %s", Path.str().c_str(),
                             EC.message().c_str());
  return writeOutputFile(Path, [&](raw_ostream &OS) { OS << Text; });
}

Error kiln::imports::writeImportLists(const ImportGraph &Graph,
                                      const WorkloadPlan &Workload,
                                      StringRef Dir) {
  for (ModuleId M = 0; M < Graph.Modules.size(); ++M) {
    if (Workload.Roots[M] == NoFunction)
      continue;
    std::set<std::string> FromModules;
    std::vector<std::string> Lines;
    for (FunctionId F : Workload.Imports[M]) {
      const ImportFunction &Fn = Graph.Functions[F];
      const std::string &From = Graph.Modules[Fn.DefinedIn.front()];
      FromModules.insert(From);
      Lines.push_back(Fn.Name + " " + From + "\n");
    }
    llvm::sort(Lines);
    std::string Stem = getImportListStem(Dir, Graph.Modules[M]);
    std::string Modules;
    for (const std::string &From : FromModules)
      Modules += From + "\n";
    if (Error E = writeTextFile(Stem + ".imports", Modules))
      return E;
    if (Error E = writeTextFile(Stem + ".imports.functions", join(Lines, "")))
      return E;
  }
  return Error::success();
}

static const std::string &fromModule(const ImportGraph &Graph, FunctionId F) {
  return Graph.Modules[Graph.Functions[F].DefinedIn.front()];
}

void kiln::imports::writeImportReport(const ImportGraph &Graph,
                                      const ImportPlan &Plan,
                                      const WorkloadPlan &Workload,
                                      const ReportContext &Ctx,
                                      raw_ostream &OS) {
  auto Limit = [](uint64_t V) -> json::Value {
    if (V == std::numeric_limits<uint64_t>::max())
      return nullptr;
    return int64_t(V);
  };
  // Imports per module, in the order the planner chose them.
  std::vector<std::vector<const PlannedImport *>> ByModule(
      Graph.Modules.size());
  for (const PlannedImport &I : Plan.Imports)
    ByModule[I.Into].push_back(&I);
  size_t NumDefault = count(Workload.Roots, NoFunction);
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("budget", Limit(Ctx.Config.Budget));
    J.attribute("budget_per_module", Limit(Ctx.Config.ModuleBudget));
    J.attribute("max_import_size", int64_t(Ctx.Config.MaxImportSize));
    J.attributeObject("totals", [&] {
      J.attribute("modules", int64_t(Graph.Modules.size()));
      J.attribute("modules_with_root",
                  int64_t(Graph.Modules.size() - NumDefault));
      J.attribute("modules_left_to_default_importer", int64_t(NumDefault));
      J.attribute("imports", int64_t(Plan.Imports.size()));
      J.attribute("imported_instructions", int64_t(Plan.Cost));
      J.attribute("program_instructions", int64_t(Ctx.TotalInstructions));
      J.attribute("cross_module_call_weight", int64_t(Plan.CrossModuleWeight));
      J.attribute("planned_direct_call_weight",
                  int64_t(Plan.PlannedDirectWeight));
      J.attribute("left_out", int64_t(Plan.LeftOut.size()));
    });
    J.attributeArray("modules", [&] {
      for (ModuleId M = 0; M < Graph.Modules.size(); ++M)
        J.object([&] {
          J.attribute("module", Graph.Modules[M]);
          if (M < Ctx.SourceFileNames.size())
            J.attribute("source", Ctx.SourceFileNames[M]);
          if (Workload.Roots[M] == NoFunction)
            J.attribute("root", nullptr);
          else
            J.attribute("root", Graph.Functions[Workload.Roots[M]].Name);
          J.attribute("instructions", int64_t(Plan.ModuleCost[M]));
          J.attributeArray("imports", [&] {
            for (const PlannedImport *I : ByModule[M])
              J.object([&] {
                J.attribute("function", Graph.Functions[I->Function].Name);
                J.attribute("from", fromModule(Graph, I->Function));
                J.attribute("instructions",
                            int64_t(Graph.Functions[I->Function].InstCount));
                J.attribute("weight", int64_t(I->Weight));
                J.attribute("direct_weight", int64_t(I->DirectWeight));
                if (I->Via == NoFunction)
                  J.attribute("via", nullptr);
                else
                  J.attribute("via", Graph.Functions[I->Via].Name);
              });
          });
        });
    });
    J.attributeArray("left_out", [&] {
      size_t N = Ctx.Top ? std::min(Ctx.Top, Plan.LeftOut.size())
                         : Plan.LeftOut.size();
      for (size_t K = 0; K < N; ++K) {
        const LeftOutImport &L = Plan.LeftOut[K];
        const ImportFunction &Fn = Graph.Functions[L.Function];
        J.object([&] {
          J.attribute("module", Graph.Modules[L.Into]);
          J.attribute("function", Fn.Name);
          J.attribute("from", fromModule(Graph, L.Function));
          J.attribute("instructions", int64_t(Fn.InstCount));
          J.attribute("weight", int64_t(L.Weight));
          J.attribute("reason", getLeftOutReasonName(L.Reason));
          if (L.Reason == LeftOutReason::NotImportable)
            J.attribute("detail", Fn.NotImportable);
        });
      }
    });
  });
  OS << '\n';
}

static std::string formatLimit(uint64_t V) {
  if (V == std::numeric_limits<uint64_t>::max())
    return "unlimited";
  return std::to_string(V);
}

void kiln::imports::printImportSummary(const ImportGraph &Graph,
                                       const ImportPlan &Plan,
                                       const WorkloadPlan &Workload,
                                       const ReportContext &Ctx,
                                       raw_ostream &OS) {
  size_t NumDefault = count(Workload.Roots, NoFunction);
  OS << "kiln imports: " << Plan.Imports.size() << " import(s), " << Plan.Cost
     << " instruction(s) (budget " << formatLimit(Ctx.Config.Budget)
     << ", per module " << formatLimit(Ctx.Config.ModuleBudget)
     << ", largest importable " << Ctx.Config.MaxImportSize << "); program "
     << Ctx.TotalInstructions << " instruction(s) in " << Graph.Modules.size()
     << " module(s)\n";
  OS << "  profiled cross-module calls: " << Plan.CrossModuleWeight
     << ", made inlinable: " << Plan.PlannedDirectWeight;
  if (Plan.CrossModuleWeight)
    OS << format(" (%.1f%%)", 100.0 * double(Plan.PlannedDirectWeight) /
                                  double(Plan.CrossModuleWeight));
  OS << "\n";
  if (NumDefault)
    OS << "  " << NumDefault
       << " module(s) without a usable root keep LLVM's default importer\n";
  OS << "imported (module <- function [from], instructions, weight, why):\n";
  for (const PlannedImport &I : Plan.Imports) {
    const ImportFunction &Fn = Graph.Functions[I.Function];
    OS << "  " << Graph.Modules[I.Into] << " <- " << Fn.Name << " ["
       << fromModule(Graph, I.Function) << "], " << Fn.InstCount << ", "
       << I.Weight << ", ";
    if (I.Via == NoFunction)
      OS << "called " << I.DirectWeight << " time(s)\n";
    else
      OS << "called " << I.DirectWeight << " time(s) directly, the rest via "
         << Graph.Functions[I.Via].Name << "\n";
  }
  size_t N =
      Ctx.Top ? std::min(Ctx.Top, Plan.LeftOut.size()) : Plan.LeftOut.size();
  OS << "left out (" << Plan.LeftOut.size() << " candidate(s)";
  if (N < Plan.LeftOut.size())
    OS << ", the " << N << " heaviest";
  OS << "):\n";
  for (size_t K = 0; K < N; ++K) {
    const LeftOutImport &L = Plan.LeftOut[K];
    const ImportFunction &Fn = Graph.Functions[L.Function];
    OS << "  " << Graph.Modules[L.Into] << " <- " << Fn.Name << " ["
       << fromModule(Graph, L.Function) << "], " << Fn.InstCount << ", "
       << L.Weight << ", " << getLeftOutReasonName(L.Reason);
    if (L.Reason == LeftOutReason::NotImportable)
      OS << ": " << Fn.NotImportable;
    OS << "\n";
  }
}

InlinePlanFile kiln::imports::makeInlinePlanFile(
    const ImportGraph &Graph, const InlinePlan &Plan,
    const std::vector<std::string> &SourceFileNames, uint64_t Budget) {
  InlinePlanFile File;
  File.Budget = Budget;
  File.Growth = Plan.Growth;
  File.Modules.resize(Graph.Modules.size());
  for (ModuleId M = 0; M < Graph.Modules.size(); ++M) {
    File.Modules[M].Module = Graph.Modules[M];
    File.Modules[M].Source =
        M < SourceFileNames.size() && !SourceFileNames[M].empty()
            ? SourceFileNames[M]
            : Graph.Modules[M];
  }
  for (const PlannedSite &P : Plan.Sites) {
    const ImportCallSite &S = Graph.CallSites[P.Site];
    const ImportFunction &Callee = Graph.Functions[S.Callee];
    File.Modules[P.Into].Sites.push_back(
        {Graph.Functions[S.Caller].Name, Callee.Name, S.Ordinal, S.NumSites,
         P.Count, uint32_t(getInlineGrowth(Callee))});
  }
  for (InlinePlanModule &M : File.Modules)
    llvm::sort(M.Sites, [](const InlinePlanSite &A, const InlinePlanSite &B) {
      return std::tie(A.Caller, A.Callee, A.Ordinal) <
             std::tie(B.Caller, B.Callee, B.Ordinal);
    });
  llvm::sort(
      File.Modules, [](const InlinePlanModule &A, const InlinePlanModule &B) {
        return std::tie(A.Source, A.Module) < std::tie(B.Source, B.Module);
      });
  return File;
}

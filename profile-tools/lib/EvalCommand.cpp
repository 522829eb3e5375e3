//===- EvalCommand.cpp - The work of `kiln eval` --------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Functions are placed where the binary's symbol table says; a function
/// "ran" in a scenario when its profile counts it (see CallGraph::getExecuted)
/// after the profile's names are bound to the binary's symbols by the same
/// resolver `kiln order` uses. The ext-TSP score takes the functions back to
/// back in address order.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/EvalCommand.h"

#include "kiln/Layout/LayoutEvaluation.h"
#include "kiln/Order/OrderPlanner.h"
#include "kiln/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::layout;

static std::string formatSize(uint64_t Bytes) {
  if (Bytes % (1024 * 1024) == 0)
    return std::to_string(Bytes / (1024 * 1024)) + "M";
  if (Bytes % 1024 == 0)
    return std::to_string(Bytes / 1024) + "K";
  return std::to_string(Bytes);
}

/// Fills \p Figures.Heat: each executed node's bytes and count on every
/// page it overlaps, from \p E's first heatmap page on.
static void addPageHeat(const BinaryEvaluation &E, ArrayRef<uint64_t> Addresses,
                        ArrayRef<uint64_t> Sizes,
                        ArrayRef<uint64_t> CountOfNode,
                        const BitVector &Executed, ScenarioFigures &Figures) {
  Figures.Heat.assign(E.HeatPages, PageHeat());
  for (unsigned N : Executed.set_bits()) {
    if (Addresses[N] == UnplacedAddress || Sizes[N] == 0)
      continue;
    uint64_t Begin = Addresses[N], End = Addresses[N] + Sizes[N];
    for (uint64_t Page = Begin / E.HeatPageSize * E.HeatPageSize; Page < End;
         Page += E.HeatPageSize) {
      PageHeat &Cell = Figures.Heat[(Page - E.HeatFirstPage) / E.HeatPageSize];
      Cell.ExecutedBytes +=
          std::min(End, Page + E.HeatPageSize) - std::max(Begin, Page);
      Cell.Count = SaturatingAdd(Cell.Count, CountOfNode[N]);
    }
  }
}

static BinaryEvaluation evaluate(const LinkerInputs &Inputs,
                                 const ProfiledGraph &Profiled,
                                 ArrayRef<uint64_t> PageSizes,
                                 uint64_t HeatPageSize) {
  const CallGraph &G = Profiled.Graph;
  std::vector<uint64_t> Addresses(G.getNumNodes(), UnplacedAddress);
  std::vector<uint64_t> Sizes(G.getNumNodes(), 0);
  std::vector<NodeId> ByAddress;
  for (NodeId N = 0; N < G.getNumNodes(); ++N) {
    int64_t F = Profiled.FunctionOfNode[N];
    if (F < 0)
      continue;
    Addresses[N] = Inputs.Functions[F].Address;
    Sizes[N] = Inputs.Functions[F].Size;
    ByAddress.push_back(N);
  }
  BinaryEvaluation Result;
  for (NodeId N : ByAddress)
    Result.SplitParts +=
        !Inputs.Functions[Profiled.FunctionOfNode[N]].SplitFrom.empty();
  llvm::sort(ByAddress, [&](NodeId A, NodeId B) {
    return std::tie(Addresses[A], A) < std::tie(Addresses[B], B);
  });
  if (Result.SplitParts) {
    StringMap<NodeId> NodeByName;
    for (NodeId N : ByAddress)
      NodeByName.try_emplace(Inputs.Functions[Profiled.FunctionOfNode[N]].Name,
                             N);
    for (NodeId N : ByAddress) {
      const InputFunction &F = Inputs.Functions[Profiled.FunctionOfNode[N]];
      if (F.SplitFrom.empty())
        continue;
      SplitPartFigures Part;
      Part.Name = F.Name.str();
      Part.SplitFrom = F.SplitFrom;
      Part.Size = F.Size;
      auto Parent = NodeByName.find(F.SplitFrom);
      for (ScenarioId S = 0; S < G.getNumScenarios(); ++S)
        if (G.getScenario(S).Name != "edges")
          Part.ParentCounts.push_back(
              Parent == NodeByName.end() ? 0 : G.getCount(S, Parent->second));
      if (Parent != NodeByName.end())
        Part.ParentSize = Sizes[Parent->second];
      Result.Parts.push_back(std::move(Part));
    }
  }

  Result.Functions = ByAddress.size();
  Result.PageSizes.assign(PageSizes.begin(), PageSizes.end());
  if (HeatPageSize) {
    uint64_t Low = UnplacedAddress, High = 0;
    for (NodeId N : ByAddress)
      if (Sizes[N]) {
        Low = std::min(Low, Addresses[N]);
        High = std::max(High, Addresses[N] + Sizes[N]);
      }
    Result.HeatPageSize = HeatPageSize;
    if (Low < High) {
      Result.HeatFirstPage = Low / HeatPageSize * HeatPageSize;
      Result.HeatPages =
          (High - Result.HeatFirstPage + HeatPageSize - 1) / HeatPageSize;
    }
  }
  BitVector All(G.getNumNodes());
  std::vector<uint64_t> AllCounts(G.getNumNodes(), 0);
  for (ScenarioId S = 0; S < G.getNumScenarios(); ++S) {
    const Scenario &Sc = G.getScenario(S);
    if (Sc.Name == "edges")
      continue; // Calls only: says nothing about what ran.
    BitVector Executed = G.getExecuted(S);
    All |= Executed;
    ScenarioFigures Figures;
    Figures.Name = Sc.Name;
    Figures.Kind = getScenarioKindName(Sc.Kind).str();
    Figures.ExecutedFunctions = Executed.count();
    for (uint64_t PageSize : PageSizes)
      Figures.Pages.push_back(
          countTouchedPagesAt(Addresses, Sizes, Executed, PageSize));
    if (HeatPageSize) {
      std::vector<uint64_t> Counts(G.getNumNodes(), 0);
      for (NodeId N = 0; N < G.getNumNodes(); ++N) {
        Counts[N] = G.getCount(S, N);
        AllCounts[N] = SaturatingAdd(AllCounts[N], Counts[N]);
      }
      addPageHeat(Result, Addresses, Sizes, Counts, Executed, Figures);
    }
    Result.Scenarios.push_back(std::move(Figures));
  }
  if (Result.Scenarios.size() > 1) {
    ScenarioFigures Figures;
    Figures.Name = "all scenarios";
    Figures.Kind = "all";
    Figures.ExecutedFunctions = All.count();
    for (uint64_t PageSize : PageSizes)
      Figures.Pages.push_back(
          countTouchedPagesAt(Addresses, Sizes, All, PageSize));
    if (HeatPageSize)
      addPageHeat(Result, Addresses, Sizes, AllCounts, All, Figures);
    Result.Scenarios.push_back(std::move(Figures));
  }
  std::vector<Edge> Edges = G.getWeightedEdges();
  Result.Locality = computeCallLocalityAt(Addresses, Sizes, Edges);
  Result.ExtTspScore = computeExtTspScore(ByAddress, Sizes, Edges);
  return Result;
}

static void printText(const EvalCommandOptions &Opts, const BinaryEvaluation &E,
                      raw_ostream &OS) {
  OS << "kiln eval: " << Opts.Binary << ": " << E.Functions << " functions";
  if (E.SplitParts)
    OS << " (" << E.SplitParts << " of them parts split from their functions)";
  OS << '\n';
  for (const ScenarioFigures &S : E.Scenarios) {
    OS << "scenario " << S.Name << ": " << S.ExecutedFunctions
       << " functions ran";
    if (!S.Pages.empty())
      OS << ", " << S.Pages.front().ExecutedBytes << " bytes";
    OS << '\n';
    OS << "  page size     pages  lower bound  pages/bound\n";
    for (size_t I = 0; I < E.PageSizes.size(); ++I) {
      const PageStats &P = S.Pages[I];
      OS << format("  %-9s %9" PRIu64 "  %11" PRIu64 "  %11.3f\n",
                   formatSize(E.PageSizes[I]).c_str(), P.PagesTouched,
                   P.LowerBound,
                   P.LowerBound ? double(P.PagesTouched) / P.LowerBound : 1.0);
    }
  }
  const CallLocality &L = E.Locality;
  OS << "calls: " << L.TotalCount << " (weighted)";
  if (L.UnplacedCount)
    OS << ", " << L.UnplacedCount << " to or from functions not in the binary";
  OS << '\n';
  for (size_t I = 0; I < L.Distances.size(); ++I)
    OS << format("  within %-5s %6.2f%%\n", formatSize(L.Distances[I]).c_str(),
                 100.0 * L.getShare(I));
  OS << format("ext-TSP score: %.6g\n", E.ExtTspScore);
}

static void printJSON(const EvalCommandOptions &Opts, const BinaryEvaluation &E,
                      raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("binary", Opts.Binary);
    J.attribute("functions", E.Functions);
    J.attribute("split_parts", E.SplitParts);
    J.attributeArray("scenarios", [&] {
      for (const ScenarioFigures &S : E.Scenarios)
        J.object([&] {
          J.attribute("name", S.Name);
          J.attribute("kind", S.Kind);
          J.attribute("executed_functions", S.ExecutedFunctions);
          J.attributeArray("pages", [&] {
            for (size_t I = 0; I < E.PageSizes.size(); ++I)
              J.object([&] {
                J.attribute("page_size", E.PageSizes[I]);
                J.attribute("pages", S.Pages[I].PagesTouched);
                J.attribute("lower_bound", S.Pages[I].LowerBound);
                J.attribute("executed_bytes", S.Pages[I].ExecutedBytes);
              });
          });
        });
    });
    J.attributeObject("call_locality", [&] {
      J.attribute("total", E.Locality.TotalCount);
      J.attribute("outside_binary", E.Locality.UnplacedCount);
      J.attributeArray("within", [&] {
        for (size_t I = 0; I < E.Locality.Distances.size(); ++I)
          J.object([&] {
            J.attribute("distance", E.Locality.Distances[I]);
            J.attribute("count", E.Locality.WithinCount[I]);
            J.attribute("share", E.Locality.getShare(I));
          });
      });
    });
    J.attribute("ext_tsp_score", E.ExtTspScore);
  });
  OS << '\n';
}

Expected<BinaryEvaluation>
kiln::evaluateBinary(StringRef Binary, ArrayRef<ScenarioSpec> Scenarios,
                     ArrayRef<std::string> EdgeLists,
                     ArrayRef<uint64_t> PageSizes, uint64_t HeatPageSize,
                     raw_ostream &Diag, bool WarnOfBindings) {
  LinkerInputs Inputs;
  if (Error E = readLinkerInput(Binary, Inputs))
    return makeToolError(toString(std::move(E)));
  if (Inputs.NumRelocatable)
    return makeToolError("is a relocatable object, whose functions have no "
                         "addresses yet",
                         Binary, "give the linked program or library");
  PlanOptions Plan;
  Plan.UseObjectCallGraph = false;
  Expected<std::vector<std::shared_ptr<const EdgeListData>>> Lists =
      loadEdgeLists(EdgeLists);
  if (!Lists)
    return makeToolError(toString(Lists.takeError()));
  Plan.EdgeLists = std::move(*Lists);
  Expected<ProfiledGraph> Profiled =
      buildProfiledGraph(Inputs, Scenarios, Plan);
  if (!Profiled)
    return makeToolError(toString(Profiled.takeError()));
  std::vector<ProfileBinding> Bindings;
  for (const ProfileCoverage &C : Profiled->Coverage) {
    std::optional<std::string> Foreign =
        whyProfileIsForeign(C, Profiled->NumLinkFunctions);
    Bindings.push_back({C.Path, C.Executed, C.Unbound.size(),
                        Foreign.value_or(""), C.Bound, C.ExecutedWeight,
                        C.BoundWeight});
    if (WarnOfBindings && !C.Unbound.empty())
      WithColor::warning(Diag, "kiln")
          << C.Path << ": " << C.Unbound.size() << " of " << C.Executed
          << " executed functions are not in " << Binary
          << " under one name (inlined, discarded or ambiguous); they "
             "count as not run\n";
  }
  if (WarnOfBindings)
    warnOfForeignProfiles(*Profiled, "kiln", Diag);
  Expected<BinaryEvaluation> E =
      evaluate(Inputs, *Profiled, PageSizes, HeatPageSize);
  if (E)
    E->Bindings = std::move(Bindings);
  return E;
}

Error kiln::runEvalCommand(const EvalCommandOptions &Opts, raw_ostream &Out,
                           raw_ostream &Diag) {
  if (Opts.Binary.empty())
    return makeToolError("no input", "",
                         "give the linked program and "
                         "--scenario=<kind>=<profile>");
  if (Opts.Scenarios.empty())
    return makeToolError("no profile: nothing says which functions ran", "",
                         "add --scenario=startup=<profile> or "
                         "--scenario=steady=<profile>");
  Expected<std::vector<ScenarioSpec>> Scenarios =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Scenarios)
    return makeToolError(toString(Scenarios.takeError()), "--scenario");
  Expected<BinaryEvaluation> E =
      evaluateBinary(Opts.Binary, *Scenarios, Opts.EdgeLists, Opts.PageSizes,
                     /*HeatPageSize=*/0, Diag);
  if (!E)
    return E.takeError();
  if (Opts.JSON)
    printJSON(Opts, *E, Out);
  else
    printText(Opts, *E, Out);
  return Error::success();
}

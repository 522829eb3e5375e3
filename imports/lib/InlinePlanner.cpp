//===- InlinePlanner.cpp - Cross-module inline plan -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The greedy planner of InlinePlanner.h. Candidates are (module, call
/// site) pairs in a max-heap by count per instruction of growth. Counts
/// only grow (an accepted site offers its callee's sites to the module), so
/// the heap holds one entry per change and skips entries whose count is
/// stale.
///
//===----------------------------------------------------------------------===//

#include "kiln/Imports/InlinePlanner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>
#include <queue>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

namespace {
/// A call site considered for one module: the graph's site, run on the
/// module's behalf (its own site, or the site of a function the plan
/// already inlines there).
struct Candidate {
  uint64_t Count = 0;
  bool Accepted = false;
};

struct HeapEntry {
  ModuleId Into;
  size_t Site;
  uint64_t Count; ///< The candidate's count when pushed.
  uint64_t Growth;
};
} // namespace

static uint64_t candidateKey(ModuleId M, size_t Site) {
  return (uint64_t(M) << 40) | Site;
}

uint64_t kiln::imports::getInlineGrowth(const ImportFunction &Callee) {
  return Callee.InstCount > CallInstructions
             ? Callee.InstCount - CallInstructions
             : 0;
}

// A * B / C without overflow, saturating.
static uint64_t scaleCount(uint64_t A, uint64_t B, uint64_t C) {
  assert(C != 0 && "division by zero");
  unsigned __int128 Product = (unsigned __int128)A * B / C;
  if (Product > std::numeric_limits<uint64_t>::max())
    return std::numeric_limits<uint64_t>::max();
  return uint64_t(Product);
}

static bool definesFunction(const ImportFunction &F, ModuleId M) {
  return is_contained(F.DefinedIn, M);
}

InlinePlan kiln::imports::planInlining(const ImportGraph &Graph,
                                       const InlinePlanConfig &Config) {
  InlinePlan Plan;
  Plan.Imports.ModuleCost.assign(Graph.Modules.size(), 0);
  const size_t NumFunctions = Graph.Functions.size();

  // Each function's sites, and its flow (the larger of its entry count and
  // the counts of the sites that call it), which a transitive count is a
  // share of.
  std::vector<std::vector<size_t>> SitesOf(NumFunctions);
  std::vector<uint64_t> Flow(NumFunctions, 0);
  for (size_t I = 0; I < Graph.CallSites.size(); ++I) {
    const ImportCallSite &S = Graph.CallSites[I];
    assert(S.Module < Graph.Modules.size() && S.Caller < NumFunctions &&
           S.Callee < NumFunctions && "call site out of range");
    SitesOf[S.Caller].push_back(I);
    Flow[S.Callee] = SaturatingAdd(Flow[S.Callee], S.Count);
  }
  for (FunctionId F = 0; F < NumFunctions; ++F)
    Flow[F] = std::max({Flow[F], Graph.Functions[F].EntryCount, uint64_t(1)});

  auto IsEligible = [&](FunctionId F) {
    const ImportFunction &Fn = Graph.Functions[F];
    return Fn.NotImportable.empty() && Fn.InstCount <= Config.MaxCalleeSize;
  };
  // (module, callee) -> the reason it stays out if no site of it is planned.
  std::map<std::pair<ModuleId, FunctionId>, LeftOutImport> Pairs;
  for (const ImportCallSite &S : Graph.CallSites) {
    const ImportFunction &Callee = Graph.Functions[S.Callee];
    if (Callee.DefinedIn.empty() || definesFunction(Callee, S.Module))
      continue;
    if (S.Count == 0) {
      ++Plan.NumNeverRun;
      continue;
    }
    ++Plan.NumCandidates;
    Plan.Imports.CrossModuleWeight =
        SaturatingAdd(Plan.Imports.CrossModuleWeight, S.Count);
    LeftOutImport &L = Pairs[{S.Module, S.Callee}];
    L.Into = S.Module;
    L.Function = S.Callee;
    L.Weight = SaturatingAdd(L.Weight, S.Count);
    if (!Callee.NotImportable.empty())
      L.Reason = LeftOutReason::NotImportable;
    else if (Callee.InstCount > Config.MaxCalleeSize)
      L.Reason = LeftOutReason::TooLarge;
    else
      L.Reason = LeftOutReason::Budget;
    if (!IsEligible(S.Callee))
      ++Plan.NumIneligible;
  }

  // Denser first (a site that adds nothing is densest); then heavier; then
  // by caller, callee, module name, ordinal.
  auto Later = [&](const HeapEntry &A, const HeapEntry &B) {
    unsigned __int128 DensityA = (unsigned __int128)A.Count * B.Growth;
    unsigned __int128 DensityB = (unsigned __int128)B.Count * A.Growth;
    if (A.Growth == 0 || B.Growth == 0) {
      DensityA = A.Growth == 0;
      DensityB = B.Growth == 0;
    }
    if (DensityA != DensityB)
      return DensityA < DensityB;
    if (A.Count != B.Count)
      return A.Count < B.Count;
    const ImportCallSite &SA = Graph.CallSites[A.Site];
    const ImportCallSite &SB = Graph.CallSites[B.Site];
    auto Names = [&](const ImportCallSite &S, ModuleId Into) {
      return std::tie(Graph.Functions[S.Caller].Name,
                      Graph.Functions[S.Callee].Name, Graph.Modules[Into],
                      S.Ordinal);
    };
    if (Names(SA, A.Into) != Names(SB, B.Into))
      return Names(SA, A.Into) > Names(SB, B.Into);
    return std::make_pair(A.Into, A.Site) > std::make_pair(B.Into, B.Site);
  };
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, decltype(Later)> Heap(
      Later);
  DenseMap<uint64_t, Candidate> Candidates;
  auto Offer = [&](ModuleId Into, size_t Site, uint64_t Count) {
    const ImportCallSite &S = Graph.CallSites[Site];
    const ImportFunction &Callee = Graph.Functions[S.Callee];
    if (Count == 0 || Callee.DefinedIn.empty() ||
        definesFunction(Callee, Into) || !IsEligible(S.Callee))
      return;
    Candidate &C = Candidates[candidateKey(Into, Site)];
    if (C.Accepted)
      return;
    C.Count = SaturatingAdd(C.Count, Count);
    Heap.push({Into, Site, C.Count, getInlineGrowth(Callee)});
  };
  for (size_t I = 0; I < Graph.CallSites.size(); ++I)
    Offer(Graph.CallSites[I].Module, I, Graph.CallSites[I].Count);

  // (module, callee) -> its entry in Plan.Imports.Imports.
  DenseMap<uint64_t, size_t> ImportOf;
  while (!Heap.empty()) {
    HeapEntry Top = Heap.top();
    Heap.pop();
    Candidate &C = Candidates[candidateKey(Top.Into, Top.Site)];
    if (C.Accepted || C.Count != Top.Count)
      continue; // Stale: a newer entry carries the current count.
    if (Top.Growth > Config.GrowthBudget - Plan.Growth)
      continue;
    C.Accepted = true;
    const ImportCallSite &S = Graph.CallSites[Top.Site];
    Plan.Growth += Top.Growth;
    Plan.Sites.push_back({Top.Into, Top.Site, Top.Count});
    if (Top.Into == S.Module)
      Plan.Imports.PlannedDirectWeight =
          SaturatingAdd(Plan.Imports.PlannedDirectWeight, Top.Count);
    Pairs.erase({Top.Into, S.Callee});
    uint64_t Key = (uint64_t(Top.Into) << 32) | S.Callee;
    auto [It, New] = ImportOf.try_emplace(Key, Plan.Imports.Imports.size());
    if (New) {
      uint64_t Cost =
          std::max<uint64_t>(Graph.Functions[S.Callee].InstCount, 1);
      Plan.Imports.Imports.push_back(
          {Top.Into, S.Callee, 0, 0,
           Top.Into == S.Module ? NoFunction : S.Caller});
      Plan.Imports.Cost += Cost;
      Plan.Imports.ModuleCost[Top.Into] += Cost;
    }
    PlannedImport &Import = Plan.Imports.Imports[It->second];
    Import.Weight = SaturatingAdd(Import.Weight, Top.Count);
    if (Top.Into == S.Module)
      Import.DirectWeight = SaturatingAdd(Import.DirectWeight, Top.Count);
    // Inlined, the callee's own sites run on Top.Into's behalf.
    for (size_t Inner : SitesOf[S.Callee])
      Offer(
          Top.Into, Inner,
          scaleCount(Graph.CallSites[Inner].Count, Top.Count, Flow[S.Callee]));
  }

  for (const auto &[Key, L] : Pairs)
    Plan.Imports.LeftOut.push_back(L);
  llvm::sort(Plan.Imports.LeftOut,
             [&](const LeftOutImport &A, const LeftOutImport &B) {
               if (A.Weight != B.Weight)
                 return A.Weight > B.Weight;
               auto Key = [&](const LeftOutImport &L) {
                 return std::tie(Graph.Functions[L.Function].Name,
                                 Graph.Modules[L.Into], L.Into, L.Function);
               };
               return Key(A) < Key(B);
             });
  return Plan;
}

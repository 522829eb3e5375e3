//===- InlinePlanner.cpp - Cross-module inline plan -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The greedy planner of InlinePlanner.h. A site's density does not change
/// as others are accepted (the growth of a site is its callee's size
/// whatever else is inlined), so one sort orders the candidates.
///
//===----------------------------------------------------------------------===//

#include "kiln/Imports/InlinePlanner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <map>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

static bool isCrossModule(const ImportGraph &Graph, const ImportCallSite &S) {
  const ImportFunction &Callee = Graph.Functions[S.Callee];
  return !Callee.DefinedIn.empty() && !is_contained(Callee.DefinedIn, S.Module);
}

static uint64_t growthOf(const ImportGraph &Graph, const ImportCallSite &S) {
  return std::max<uint64_t>(Graph.Functions[S.Callee].InstCount, 1);
}

InlinePlan kiln::imports::planInlining(const ImportGraph &Graph,
                                       const InlinePlanConfig &Config) {
  InlinePlan Plan;
  Plan.Imports.ModuleCost.assign(Graph.Modules.size(), 0);

  // Candidates, and why the others are not.
  std::vector<size_t> Candidates;
  // (module, callee) -> the reason it stays out if no site of it is planned.
  std::map<std::pair<ModuleId, FunctionId>, LeftOutImport> Pairs;
  for (size_t I = 0; I < Graph.CallSites.size(); ++I) {
    const ImportCallSite &S = Graph.CallSites[I];
    assert(S.Module < Graph.Modules.size() &&
           S.Callee < Graph.Functions.size() && "call site out of range");
    if (!isCrossModule(Graph, S))
      continue;
    if (S.Count == 0) {
      ++Plan.NumNeverRun;
      continue;
    }
    ++Plan.NumCandidates;
    Plan.Imports.CrossModuleWeight =
        SaturatingAdd(Plan.Imports.CrossModuleWeight, S.Count);
    const ImportFunction &Callee = Graph.Functions[S.Callee];
    LeftOutImport &L = Pairs[{S.Module, S.Callee}];
    L.Into = S.Module;
    L.Function = S.Callee;
    L.Weight = SaturatingAdd(L.Weight, S.Count);
    if (!Callee.NotImportable.empty()) {
      L.Reason = LeftOutReason::NotImportable;
      ++Plan.NumIneligible;
      continue;
    }
    if (Callee.InstCount > Config.MaxCalleeSize) {
      L.Reason = LeftOutReason::TooLarge;
      ++Plan.NumIneligible;
      continue;
    }
    L.Reason = LeftOutReason::Budget;
    Candidates.push_back(I);
  }

  // Denser first; then heavier; then by caller, callee, module, ordinal.
  llvm::sort(Candidates, [&](size_t IA, size_t IB) {
    const ImportCallSite &A = Graph.CallSites[IA];
    const ImportCallSite &B = Graph.CallSites[IB];
    unsigned __int128 DensityA =
        (unsigned __int128)A.Count * growthOf(Graph, B);
    unsigned __int128 DensityB =
        (unsigned __int128)B.Count * growthOf(Graph, A);
    if (DensityA != DensityB)
      return DensityA > DensityB;
    if (A.Count != B.Count)
      return A.Count > B.Count;
    auto Names = [&](const ImportCallSite &S) {
      return std::tie(Graph.Functions[S.Caller].Name,
                      Graph.Functions[S.Callee].Name, Graph.Modules[S.Module],
                      S.Ordinal);
    };
    if (Names(A) != Names(B))
      return Names(A) < Names(B);
    return IA < IB;
  });

  // (module, callee) -> its entry in Plan.Imports.Imports.
  DenseMap<uint64_t, size_t> ImportOf;
  for (size_t I : Candidates) {
    const ImportCallSite &S = Graph.CallSites[I];
    uint64_t Growth = growthOf(Graph, S);
    if (Growth > Config.GrowthBudget - Plan.Growth)
      continue;
    Plan.Growth += Growth;
    Plan.Sites.push_back(I);
    Plan.Imports.PlannedDirectWeight =
        SaturatingAdd(Plan.Imports.PlannedDirectWeight, S.Count);
    Pairs.erase({S.Module, S.Callee});
    uint64_t Key = (uint64_t(S.Module) << 32) | S.Callee;
    auto [It, New] = ImportOf.try_emplace(Key, Plan.Imports.Imports.size());
    if (New) {
      uint64_t Cost =
          std::max<uint64_t>(Graph.Functions[S.Callee].InstCount, 1);
      Plan.Imports.Imports.push_back({S.Module, S.Callee, 0, 0, NoFunction});
      Plan.Imports.Cost += Cost;
      Plan.Imports.ModuleCost[S.Module] += Cost;
    }
    PlannedImport &Import = Plan.Imports.Imports[It->second];
    Import.Weight = SaturatingAdd(Import.Weight, S.Count);
    Import.DirectWeight = Import.Weight;
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

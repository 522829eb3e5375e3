//===- ImportPlanner.cpp - Budgeted ThinLTO import plan -------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The greedy planner of ImportPlanner.h. Candidates are (module, function)
/// pairs; a max-heap orders them by weight per instruction. Weights only
/// grow (an accepted import adds transitive weight to its callees), so the
/// heap holds one entry per change and skips entries whose weight is stale.
///
//===----------------------------------------------------------------------===//

#include "kiln/Imports/ImportPlanner.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <queue>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

namespace {

/// What the planner knows of one (module, function) pair.
struct Candidate {
  uint64_t Weight = 0;
  uint64_t DirectWeight = 0;
  /// The largest transitive contribution and where it came from.
  uint64_t ViaWeight = 0;
  FunctionId Via = NoFunction;
  bool Imported = false;
  /// Set when the budget turned it down (the last verdict counts).
  bool RejectedForModule = false;
  bool Rejected = false;
};

struct HeapEntry {
  ModuleId Into;
  FunctionId Function;
  uint64_t Weight; ///< The candidate's weight when pushed.
  uint32_t Cost;
};

} // namespace

static uint64_t pairKey(ModuleId M, FunctionId F) {
  return (uint64_t(M) << 32) | F;
}

static bool definesFunction(const ImportFunction &F, ModuleId M) {
  return is_contained(F.DefinedIn, M);
}

// A * B / C without overflow, saturating.
static uint64_t scaleCount(uint64_t A, uint64_t B, uint64_t C) {
  assert(C != 0 && "division by zero");
  unsigned __int128 Product = (unsigned __int128)A * B / C;
  if (Product > std::numeric_limits<uint64_t>::max())
    return std::numeric_limits<uint64_t>::max();
  return uint64_t(Product);
}

ImportPlan kiln::imports::planImports(const ImportGraph &Graph,
                                      const ImportPlanConfig &Config) {
  const size_t NumFunctions = Graph.Functions.size();
  ImportPlan Plan;
  Plan.ModuleCost.assign(Graph.Modules.size(), 0);

  // Calls made by each function's first copy (the one an import takes), and
  // every function's flow: the larger of its entry count and the calls
  // that reach it, which transitive weights are shares of.
  std::vector<std::vector<std::pair<FunctionId, uint64_t>>> OutCalls(
      NumFunctions);
  std::vector<uint64_t> Flow(NumFunctions, 0);
  DenseMap<uint64_t, Candidate> Candidates;
  for (const ImportCall &Call : Graph.Calls) {
    assert(Call.Caller < NumFunctions && Call.Callee < NumFunctions &&
           Call.Module < Graph.Modules.size() && "call out of range");
    if (Call.Count == 0)
      continue;
    const ImportFunction &Caller = Graph.Functions[Call.Caller];
    const ImportFunction &Callee = Graph.Functions[Call.Callee];
    Flow[Call.Callee] = SaturatingAdd(Flow[Call.Callee], Call.Count);
    if (!Caller.DefinedIn.empty() && Caller.DefinedIn.front() == Call.Module)
      OutCalls[Call.Caller].push_back({Call.Callee, Call.Count});
    // Calls to functions the module defines, or no input defines, need no
    // import.
    if (Callee.DefinedIn.empty() || definesFunction(Callee, Call.Module))
      continue;
    Candidate &C = Candidates[pairKey(Call.Module, Call.Callee)];
    C.Weight = SaturatingAdd(C.Weight, Call.Count);
    C.DirectWeight = SaturatingAdd(C.DirectWeight, Call.Count);
    Plan.CrossModuleWeight = SaturatingAdd(Plan.CrossModuleWeight, Call.Count);
  }
  for (FunctionId F = 0; F < NumFunctions; ++F)
    Flow[F] = std::max({Flow[F], Graph.Functions[F].EntryCount, uint64_t(1)});

  auto CostOf = [&](FunctionId F) {
    return std::max<uint32_t>(Graph.Functions[F].InstCount, 1);
  };
  auto IsEligible = [&](FunctionId F) {
    const ImportFunction &Fn = Graph.Functions[F];
    return Fn.NotImportable.empty() && Fn.InstCount <= Config.MaxImportSize;
  };
  // Denser first; then heavier; then by function name, then module name.
  auto Later = [&](const HeapEntry &A, const HeapEntry &B) {
    unsigned __int128 DensityA = (unsigned __int128)A.Weight * B.Cost;
    unsigned __int128 DensityB = (unsigned __int128)B.Weight * A.Cost;
    if (DensityA != DensityB)
      return DensityA < DensityB;
    if (A.Weight != B.Weight)
      return A.Weight < B.Weight;
    const std::string &NameA = Graph.Functions[A.Function].Name;
    const std::string &NameB = Graph.Functions[B.Function].Name;
    if (NameA != NameB)
      return NameA > NameB;
    if (Graph.Modules[A.Into] != Graph.Modules[B.Into])
      return Graph.Modules[A.Into] > Graph.Modules[B.Into];
    return std::make_pair(A.Into, A.Function) >
           std::make_pair(B.Into, B.Function);
  };
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, decltype(Later)> Heap(
      Later);
  auto Push = [&](ModuleId M, FunctionId F, const Candidate &C) {
    if (C.Weight > 0 && IsEligible(F))
      Heap.push({M, F, C.Weight, CostOf(F)});
  };
  // The DenseMap's order is not deterministic; push in key order.
  std::vector<uint64_t> Keys;
  Keys.reserve(Candidates.size());
  for (const auto &KV : Candidates)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  for (uint64_t Key : Keys)
    Push(ModuleId(Key >> 32), FunctionId(Key & 0xffffffffu), Candidates[Key]);

  while (!Heap.empty()) {
    HeapEntry Top = Heap.top();
    Heap.pop();
    Candidate &C = Candidates[pairKey(Top.Into, Top.Function)];
    if (C.Imported || C.Weight != Top.Weight)
      continue; // Stale: a newer entry carries the current weight.
    const uint64_t Cost = Top.Cost;
    if (Cost > Config.Budget - Plan.Cost) {
      C.Rejected = true;
      C.RejectedForModule = false;
      continue;
    }
    if (Cost > Config.ModuleBudget - Plan.ModuleCost[Top.Into]) {
      C.Rejected = true;
      C.RejectedForModule = true;
      continue;
    }
    C.Imported = true;
    C.Rejected = false;
    Plan.Cost += Cost;
    Plan.ModuleCost[Top.Into] += Cost;
    Plan.PlannedDirectWeight =
        SaturatingAdd(Plan.PlannedDirectWeight, C.DirectWeight);
    Plan.Imports.push_back({Top.Into, Top.Function, C.Weight, C.DirectWeight,
                            C.DirectWeight >= C.Weight ? NoFunction : C.Via});
    const uint64_t ImportedWeight = C.Weight;
    // Its calls now run on Top.Into's behalf.
    for (const auto &[Callee, Count] : OutCalls[Top.Function]) {
      const ImportFunction &G = Graph.Functions[Callee];
      if (G.DefinedIn.empty() || definesFunction(G, Top.Into))
        continue;
      uint64_t Share = scaleCount(Count, ImportedWeight, Flow[Top.Function]);
      if (Share == 0)
        continue;
      Candidate &D = Candidates[pairKey(Top.Into, Callee)];
      if (D.Imported)
        continue;
      D.Weight = SaturatingAdd(D.Weight, Share);
      if (Share > D.ViaWeight ||
          (Share == D.ViaWeight && D.Via != NoFunction &&
           Graph.Functions[Top.Function].Name < Graph.Functions[D.Via].Name)) {
        D.ViaWeight = Share;
        D.Via = Top.Function;
      }
      Push(Top.Into, Callee, D);
    }
  }

  // What the plan leaves out, heaviest first.
  Keys.clear();
  for (const auto &KV : Candidates)
    Keys.push_back(KV.first);
  llvm::sort(Keys);
  for (uint64_t Key : Keys) {
    const Candidate &C = Candidates[Key];
    if (C.Imported || C.Weight == 0)
      continue;
    LeftOutImport L;
    L.Into = ModuleId(Key >> 32);
    L.Function = FunctionId(Key & 0xffffffffu);
    L.Weight = C.Weight;
    const ImportFunction &F = Graph.Functions[L.Function];
    if (!F.NotImportable.empty())
      L.Reason = LeftOutReason::NotImportable;
    else if (F.InstCount > Config.MaxImportSize)
      L.Reason = LeftOutReason::TooLarge;
    else
      L.Reason = C.RejectedForModule ? LeftOutReason::ModuleBudget
                                     : LeftOutReason::Budget;
    Plan.LeftOut.push_back(L);
  }
  llvm::sort(Plan.LeftOut, [&](const LeftOutImport &A, const LeftOutImport &B) {
    if (A.Weight != B.Weight)
      return A.Weight > B.Weight;
    const std::string &NameA = Graph.Functions[A.Function].Name;
    const std::string &NameB = Graph.Functions[B.Function].Name;
    if (NameA != NameB)
      return NameA < NameB;
    if (Graph.Modules[A.Into] != Graph.Modules[B.Into])
      return Graph.Modules[A.Into] < Graph.Modules[B.Into];
    return std::make_pair(A.Into, A.Function) <
           std::make_pair(B.Into, B.Function);
  });
  return Plan;
}

const char *kiln::imports::getLeftOutReasonName(LeftOutReason Reason) {
  switch (Reason) {
  case LeftOutReason::NotImportable:
    return "not importable";
  case LeftOutReason::TooLarge:
    return "too large";
  case LeftOutReason::Budget:
    return "budget";
  case LeftOutReason::ModuleBudget:
    return "module budget";
  }
  return "unknown";
}

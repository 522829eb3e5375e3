//===- CallGraph.cpp - The profiled call graph ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace llvm;
using namespace kiln::layout;

StringRef kiln::layout::getScenarioKindName(ScenarioKind Kind) {
  switch (Kind) {
  case ScenarioKind::Startup:
    return "startup";
  case ScenarioKind::SteadyState:
    return "steady";
  }
  llvm_unreachable("unknown ScenarioKind");
}

NodeId CallGraph::getOrAddNode(StringRef Name, uint64_t Size,
                               StringRef Origin) {
  auto [It, Inserted] = NodeByName.try_emplace(Name, NodeId(Nodes.size()));
  if (Inserted) {
    Nodes.push_back(Node{Name.str(), Origin.str(), Size});
    return It->second;
  }
  Node &Existing = Nodes[It->second];
  if (Existing.Size == 0)
    Existing.Size = Size;
  if (Existing.Origin.empty())
    Existing.Origin = Origin.str();
  return It->second;
}

NodeId CallGraph::findNode(StringRef Name) const {
  auto It = NodeByName.find(Name);
  return It == NodeByName.end() ? InvalidNode : It->second;
}

ScenarioId CallGraph::addScenario(StringRef Name, ScenarioKind Kind,
                                  double Weight) {
  assert(Weight > 0 && "scenario weight must be positive");
  Scenario S;
  S.Name = Name.str();
  S.Kind = Kind;
  S.Weight = Weight;
  Scenarios.push_back(std::move(S));
  EdgeIndex.emplace_back();
  EdgeIndexValid.push_back(true);
  return ScenarioId(Scenarios.size() - 1);
}

void CallGraph::addCount(ScenarioId S, NodeId Node, uint64_t Count) {
  assert(Node < Nodes.size() && "unknown node");
  std::vector<uint64_t> &Counts = Scenarios[S].Counts;
  if (Counts.size() <= Node)
    Counts.resize(Nodes.size(), 0);
  Counts[Node] += Count;
}

void CallGraph::addEdge(ScenarioId S, NodeId Caller, NodeId Callee,
                        uint64_t Count) {
  if (!EdgeIndexValid[S]) {
    EdgeIndex[S].clear();
    for (size_t I = 0; I < Scenarios[S].Edges.size(); ++I) {
      const Edge &E = Scenarios[S].Edges[I];
      EdgeIndex[S][{E.Caller, E.Callee}] = I;
    }
    EdgeIndexValid[S] = true;
  }
  assert(Caller < Nodes.size() && Callee < Nodes.size() && "unknown node");
  auto [It, Inserted] =
      EdgeIndex[S].try_emplace({Caller, Callee}, Scenarios[S].Edges.size());
  if (Inserted)
    Scenarios[S].Edges.push_back(Edge{Caller, Callee, Count});
  else
    Scenarios[S].Edges[It->second].Count += Count;
}

void CallGraph::addEdges(ScenarioId S, ArrayRef<Edge> NewEdges) {
  std::vector<Edge> &Edges = Scenarios[S].Edges;
  Edges.insert(Edges.end(), NewEdges.begin(), NewEdges.end());
  // Sorting the edges themselves (no index, no hashing) keeps this fast for
  // millions of edges; duplicate pairs are then adjacent and merge.
  llvm::sort(Edges, [](const Edge &A, const Edge &B) {
    return std::tie(A.Caller, A.Callee) < std::tie(B.Caller, B.Callee);
  });
  size_t Out = 0;
  for (size_t I = 0; I < Edges.size(); ++I) {
    assert(Edges[I].Caller < Nodes.size() && Edges[I].Callee < Nodes.size() &&
           "unknown node");
    if (Out && Edges[Out - 1].Caller == Edges[I].Caller &&
        Edges[Out - 1].Callee == Edges[I].Callee) {
      Edges[Out - 1].Count += Edges[I].Count;
      continue;
    }
    Edges[Out++] = Edges[I];
  }
  Edges.resize(Out);
  EdgeIndexValid[S] = false;
}

void CallGraph::addTrace(ScenarioId S, Trace T) {
  assert(all_of(T.Nodes, [&](NodeId N) { return N < Nodes.size(); }) &&
         "unknown node in trace");
  Scenarios[S].Traces.push_back(std::move(T));
}

uint64_t CallGraph::getCount(ScenarioId S, NodeId Node) const {
  const std::vector<uint64_t> &Counts = Scenarios[S].Counts;
  return Node < Counts.size() ? Counts[Node] : 0;
}

uint64_t CallGraph::getWeightedCount(NodeId Node) const {
  double Sum = 0;
  for (ScenarioId S = 0; S < Scenarios.size(); ++S)
    Sum += Scenarios[S].Weight * double(getCount(S, Node));
  return uint64_t(Sum);
}

std::vector<Edge> CallGraph::getWeightedEdges() const {
  // Scale, concatenate, sort by pair and merge: no hashing, so millions of
  // edges stay cheap. Sums are kept in double until the end so that the
  // result does not depend on the order of scenarios.
  struct Weighted {
    NodeId Caller, Callee;
    double Count;
  };
  std::vector<Weighted> All;
  for (const Scenario &S : Scenarios)
    for (const Edge &E : S.Edges)
      All.push_back({E.Caller, E.Callee, S.Weight * double(E.Count)});
  llvm::sort(All, [](const Weighted &A, const Weighted &B) {
    return std::tie(A.Caller, A.Callee, A.Count) <
           std::tie(B.Caller, B.Callee, B.Count);
  });
  std::vector<Edge> Result;
  double Sum = 0;
  for (size_t I = 0; I < All.size(); ++I) {
    Sum += All[I].Count;
    bool Last = I + 1 == All.size() || All[I + 1].Caller != All[I].Caller ||
                All[I + 1].Callee != All[I].Callee;
    if (!Last)
      continue;
    Result.push_back(Edge{All[I].Caller, All[I].Callee, uint64_t(Sum)});
    Sum = 0;
  }
  return Result;
}

BitVector CallGraph::getExecuted(ScenarioId S) const {
  BitVector Executed(Nodes.size());
  const Scenario &Sc = Scenarios[S];
  for (NodeId N = 0; N < Sc.Counts.size(); ++N)
    if (Sc.Counts[N] > 0)
      Executed.set(N);
  for (const Edge &E : Sc.Edges) {
    if (E.Count == 0)
      continue;
    Executed.set(E.Caller);
    Executed.set(E.Callee);
  }
  for (const Trace &T : Sc.Traces)
    for (NodeId N : T.Nodes)
      Executed.set(N);
  return Executed;
}

std::vector<Edge> kiln::layout::normalizeEdges(ArrayRef<Edge> Edges) {
  std::vector<Edge> Result;
  Result.reserve(Edges.size());
  for (const Edge &E : Edges)
    if (E.Count != 0 && E.Caller != E.Callee)
      Result.push_back(E);
  llvm::sort(Result, [](const Edge &A, const Edge &B) {
    return std::tie(A.Caller, A.Callee) < std::tie(B.Caller, B.Callee);
  });
  // Sum the counts of equal pairs into the first edge of each run.
  size_t Out = 0;
  for (size_t I = 0; I < Result.size(); ++I) {
    if (Out > 0 && Result[Out - 1].Caller == Result[I].Caller &&
        Result[Out - 1].Callee == Result[I].Callee) {
      Result[Out - 1].Count =
          SaturatingAdd(Result[Out - 1].Count, Result[I].Count);
      continue;
    }
    Result[Out++] = Result[I];
  }
  Result.resize(Out);
  return Result;
}

//===- CallGraph.cpp - The profiled call graph ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/Counts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <cstring>

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

StringRef CallGraph::saveName(StringRef S) {
  if (S.empty())
    return StringRef();
  char *Copy = Strings.Allocate<char>(S.size());
  std::memcpy(Copy, S.data(), S.size());
  return StringRef(Copy, S.size());
}

StringRef CallGraph::saveOrigin(StringRef S) {
  if (S.empty())
    return StringRef();
  // Nodes come object by object: most have the last node's origin.
  if (S == LastOrigin)
    return LastOrigin;
  CachedHashStringRef Key(S);
  auto It = Origins.find(Key);
  if (It != Origins.end())
    return LastOrigin = It->val();
  StringRef Saved = saveName(S);
  Origins.insert(CachedHashStringRef(Saved, Key.hash()));
  return LastOrigin = Saved;
}

NodeId CallGraph::getOrAddNode(StringRef Name, uint64_t Size,
                               StringRef Origin) {
  auto NameOf = [&](NodeId N) { return Nodes[N].Name; };
  auto [Id, Inserted] = NodeByName.insert(Name, NameIndex::hash(Name),
                                          NodeId(Nodes.size()), NameOf);
  if (Inserted) {
    Nodes.push_back(Node{saveName(Name), saveOrigin(Origin), Size});
    return Id;
  }
  Node &Existing = Nodes[Id];
  if (Existing.Size == 0)
    Existing.Size = Size;
  if (Existing.Origin.empty())
    Existing.Origin = saveOrigin(Origin);
  return Id;
}

NodeId CallGraph::findNode(StringRef Name) const {
  uint32_t Id = NodeByName.find(Name, NameIndex::hash(Name),
                                [&](NodeId N) { return Nodes[N].Name; });
  return Id == NameIndex::NotFound ? InvalidNode : Id;
}

ScenarioId CallGraph::addScenario(StringRef Name, ScenarioKind Kind,
                                  double Weight) {
  assert(isValidScenarioWeight(Weight) && "scenario weight out of range");
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
  Counts[Node] = addCounts(Counts[Node], Count);
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
  if (Inserted) {
    Scenarios[S].Edges.push_back(Edge{Caller, Callee, Count});
    return;
  }
  uint64_t &Sum = Scenarios[S].Edges[It->second].Count;
  Sum = addCounts(Sum, Count);
}

namespace {
/// A counting sort of edges by caller: count each edge's caller, then place
/// each edge at the next slot of its caller's run. Linear in edges and
/// nodes, where comparison-sorting millions of edges is not; each caller's
/// run (a few edges) is then sorted on its own.
class CallerBuckets {
public:
  explicit CallerBuckets(size_t NumNodes) : Next(NumNodes + 1, 0) {}

  void count(NodeId Caller) { ++Next[size_t(Caller) + 1]; }
  /// Ends counting. \returns the number of edges counted.
  size_t startPlacing() {
    for (size_t I = 1; I < Next.size(); ++I)
      Next[I] += Next[I - 1];
    return Next.back();
  }
  /// \returns the slot of the next edge of \p Caller.
  size_t place(NodeId Caller) { return Next[Caller]++; }
  /// Once every edge is placed, calls \p Sort(Begin, End) on the run of
  /// each caller with more than one edge.
  template <typename SortT> void sortRuns(SortT Sort) const {
    // Placing moved each caller's slot to the end of its run.
    size_t Begin = 0;
    for (size_t C = 0; C + 1 < Next.size(); ++C) {
      size_t End = Next[C];
      if (End - Begin > 1)
        Sort(Begin, End);
      Begin = End;
    }
  }

private:
  std::vector<size_t> Next;
};
} // namespace

// Edges are placed in Buckets, by caller: sorts each caller's run by callee
// and merges the edges of a pair into one, summing (saturating) their counts.
static void sortAndMergePairs(const CallerBuckets &Buckets,
                              std::vector<Edge> &Edges) {
  Buckets.sortRuns([&](size_t Begin, size_t End) {
    std::sort(Edges.begin() + Begin, Edges.begin() + End,
              [](const Edge &A, const Edge &B) { return A.Callee < B.Callee; });
  });
  size_t Out = 0;
  for (size_t I = 0; I < Edges.size(); ++I) {
    if (Out && Edges[Out - 1].Caller == Edges[I].Caller &&
        Edges[Out - 1].Callee == Edges[I].Callee) {
      Edges[Out - 1].Count = addCounts(Edges[Out - 1].Count, Edges[I].Count);
      continue;
    }
    Edges[Out++] = Edges[I];
  }
  Edges.resize(Out);
}

// Map(Id) is the node of endpoint Id, or InvalidNode to leave its edges out.
template <typename MapT>
void CallGraph::addMappedEdges(ScenarioId S, ArrayRef<Edge> NewEdges,
                               MapT Map) {
  std::vector<Edge> &Edges = Scenarios[S].Edges;
  // Sorting the edges themselves (no index, no hashing) keeps this fast for
  // millions of edges; duplicate pairs are then adjacent and merge.
  std::vector<Edge> Old;
  Old.swap(Edges);
  CallerBuckets Buckets(Nodes.size());
  for (const Edge &E : Old)
    Buckets.count(E.Caller);
  for (const Edge &E : NewEdges) {
    NodeId Caller = Map(E.Caller), Callee = Map(E.Callee);
    if (Caller == InvalidNode || Callee == InvalidNode)
      continue;
    assert(Caller < Nodes.size() && Callee < Nodes.size() && "unknown node");
    Buckets.count(Caller);
  }
  Edges.resize(Buckets.startPlacing());
  for (const Edge &E : Old)
    Edges[Buckets.place(E.Caller)] = E;
  std::vector<Edge>().swap(Old);
  for (const Edge &E : NewEdges) {
    NodeId Caller = Map(E.Caller), Callee = Map(E.Callee);
    if (Caller != InvalidNode && Callee != InvalidNode)
      Edges[Buckets.place(Caller)] = Edge{Caller, Callee, E.Count};
  }
  sortAndMergePairs(Buckets, Edges);
  EdgeIndexValid[S] = false;
}

void CallGraph::addEdges(ScenarioId S, ArrayRef<Edge> NewEdges) {
  addMappedEdges(S, NewEdges, [&](NodeId N) {
    assert(N < Nodes.size() && "unknown node");
    return N;
  });
}

void CallGraph::addEdges(ScenarioId S, ArrayRef<Edge> NewEdges,
                         ArrayRef<NodeId> NodeOf) {
  addMappedEdges(S, NewEdges, [&](NodeId I) { return NodeOf[I]; });
}

void CallGraph::reserveNodes(size_t N) {
  Nodes.reserve(N);
  NodeByName.reserve(N);
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
  uint64_t Sum = 0;
  for (ScenarioId S = 0; S < Scenarios.size(); ++S)
    Sum = addCounts(Sum, scaleCount(getCount(S, Node), Scenarios[S].Weight));
  return Sum;
}

// Whether S's edges are sorted by (caller, callee), each pair once.
static bool hasSortedUniquePairs(const Scenario &S) {
  for (size_t I = 1; I < S.Edges.size(); ++I)
    if (std::tie(S.Edges[I - 1].Caller, S.Edges[I - 1].Callee) >=
        std::tie(S.Edges[I].Caller, S.Edges[I].Callee))
      return false;
  return true;
}

std::vector<ScenarioId> CallGraph::getAllScenarioIds() const {
  std::vector<ScenarioId> Ids(Scenarios.size());
  for (ScenarioId S = 0; S < Scenarios.size(); ++S)
    Ids[S] = S;
  return Ids;
}

std::vector<Edge> CallGraph::getWeightedEdges() const {
  return getWeightedEdges(getAllScenarioIds());
}

std::vector<Edge>
CallGraph::getWeightedEdges(ArrayRef<ScenarioId> Selected) const {
  std::vector<Edge> Result;
  if (Selected.size() == 1)
    Result.reserve(Scenarios[Selected.front()].Edges.size());
  forEachWeightedEdge(Selected, [&](const Edge &E) { Result.push_back(E); });
  return Result;
}

void CallGraph::forEachWeightedEdge(
    function_ref<void(const Edge &)> Visit) const {
  forEachWeightedEdge(getAllScenarioIds(), Visit);
}

void CallGraph::forEachWeightedEdge(
    ArrayRef<ScenarioId> Selected,
    function_ref<void(const Edge &)> Visit) const {
  // One scenario whose pairs are sorted and unique (as addEdges leaves
  // them) is its own merge: it only needs scaling.
  if (Selected.size() != 1 || !hasSortedUniquePairs(Scenarios[Selected[0]])) {
    for (const Edge &E : mergeWeightedEdges(Selected))
      Visit(E);
    return;
  }
  const Scenario &S = Scenarios[Selected.front()];
  for (const Edge &E : S.Edges)
    Visit(Edge{E.Caller, E.Callee, scaleCount(E.Count, S.Weight)});
}

std::vector<Edge>
CallGraph::mergeWeightedEdges(ArrayRef<ScenarioId> Selected) const {
  return getWeightedEdgesWithin(Selected, {}, Nodes.size());
}

std::vector<Edge>
CallGraph::getWeightedEdgesWithin(ArrayRef<ScenarioId> Selected,
                                  ArrayRef<NodeId> Renumber,
                                  size_t NumIds) const {
  // Scale, bucket by caller, sort each caller's edges by callee and merge:
  // no hashing and no global sort, so millions of edges stay cheap. Each
  // scenario's share is scaled to an exact count first, and saturating sums
  // of counts do not depend on the order of the scenarios.
  auto Map = [&](NodeId N) { return Renumber.empty() ? N : Renumber[N]; };
  CallerBuckets Buckets(NumIds);
  for (ScenarioId Id : Selected)
    for (const Edge &E : Scenarios[Id].Edges)
      if (Map(E.Caller) != InvalidNode && Map(E.Callee) != InvalidNode)
        Buckets.count(Map(E.Caller));
  std::vector<Edge> All(Buckets.startPlacing());
  for (ScenarioId Id : Selected) {
    const Scenario &S = Scenarios[Id];
    for (const Edge &E : S.Edges) {
      NodeId Caller = Map(E.Caller), Callee = Map(E.Callee);
      if (Caller != InvalidNode && Callee != InvalidNode)
        All[Buckets.place(Caller)] = {Caller, Callee,
                                      scaleCount(E.Count, S.Weight)};
    }
  }
  sortAndMergePairs(Buckets, All);
  return All;
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

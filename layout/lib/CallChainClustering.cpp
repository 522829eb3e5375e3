//===- CallChainClustering.cpp - C3 function order ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Call-chain clustering after Ottoni and Maher, CGO 2017 (the algorithm of
/// lld/ELF/CallGraphSort.cpp, written again here over plain arrays). Clusters
/// are circular linked lists threaded through per-node Next/Prev indices and
/// found through a union-find with path halving, and clusters are sorted by
/// density with a radix sort, so the whole run is about O(E + N) and
/// allocates O(N); the edges are read once, from an array or a stream.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallChainClustering.h"
#include "kiln/Layout/CompositeLayout.h"

#include "RadixSort.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <numeric>

using namespace llvm;
using namespace kiln::layout;

namespace {
/// A cluster, stored at the index of its leader node. Members of the cluster
/// form a circular list through Next/Prev, starting at the leader.
struct Cluster {
  double density() const { return double(Weight) / double(Size); }

  NodeId Next = 0;
  NodeId Prev = 0;
  /// Bytes of all members (each at least one).
  uint64_t Size = 1;
  /// Sum of the members' weights.
  uint64_t Weight = 0;
  /// Caller of the heaviest call into the leader; InvalidNode if none.
  NodeId BestPred = CallGraph::InvalidNode;
  uint64_t BestPredWeight = 0;
};
} // namespace

static NodeId getLeader(std::vector<NodeId> &Leaders, NodeId N) {
  while (Leaders[N] != N) {
    Leaders[N] = Leaders[Leaders[N]];
    N = Leaders[N];
  }
  return N;
}

// Appends the members of From (led by FromIdx) after those of Into.
static void appendCluster(std::vector<Cluster> &Clusters, NodeId IntoIdx,
                          NodeId FromIdx) {
  Cluster &Into = Clusters[IntoIdx];
  Cluster &From = Clusters[FromIdx];
  NodeId IntoTail = Into.Prev;
  NodeId FromTail = From.Prev;
  Into.Prev = FromTail;
  Clusters[FromTail].Next = IntoIdx;
  From.Prev = IntoTail;
  Clusters[IntoTail].Next = FromIdx;
  Into.Size = SaturatingAdd(Into.Size, From.Size);
  Into.Weight = SaturatingAdd(Into.Weight, From.Weight);
  From.Size = 0;
  From.Weight = 0;
}

// Sorts cluster leaders, given in increasing node id order, by decreasing
// density, then by increasing node id: a stable radix sort (a million
// clusters are sorted twice).
static void sortByDensity(std::vector<NodeId> &Leaders,
                          const std::vector<Cluster> &Clusters) {
  assert(llvm::is_sorted(Leaders) && "leaders must come in id order");
  radixSortByKey(Leaders, [&](NodeId L) {
    // Densities are non-negative: their inverted keys order them downwards.
    return ~getOrderKey(Clusters[L].density());
  });
}

std::vector<NodeId> kiln::layout::computeC3Order(ArrayRef<uint64_t> Sizes,
                                                 ArrayRef<uint64_t> Counts,
                                                 ArrayRef<Edge> Edges,
                                                 const C3Config &Config) {
  return computeC3OrderOfStream(
      Sizes, Counts,
      [&](function_ref<void(const Edge &)> Visit) {
        for (const Edge &E : Edges)
          Visit(E);
      },
      Config);
}

std::vector<NodeId> kiln::layout::computeC3OrderOfStream(
    ArrayRef<uint64_t> Sizes, ArrayRef<uint64_t> Counts, EdgeStream ForEachEdge,
    const C3Config &Config) {
  assert(Sizes.size() == Counts.size() && "one count per node expected");
  assert(Sizes.size() < CallGraph::InvalidNode && "too many nodes");
  assert(Config.MinCallProbability >= 0 && Config.MaxDensityDegradation > 0 &&
         "invalid C3 configuration");
  const size_t NumNodes = Sizes.size();

  std::vector<Cluster> Clusters(NumNodes);
  std::vector<uint64_t> InWeight(NumNodes, 0);
  for (NodeId N = 0; N < NumNodes; ++N) {
    Clusters[N].Next = Clusters[N].Prev = N;
    Clusters[N].Size = std::max<uint64_t>(Sizes[N], 1);
  }
  ForEachEdge([&](const Edge &E) {
    assert(E.Caller < NumNodes && E.Callee < NumNodes && "unknown node");
    if (E.Count == 0)
      return;
    InWeight[E.Callee] = SaturatingAdd(InWeight[E.Callee], E.Count);
    if (E.Caller == E.Callee)
      return;
    // The most likely caller: the heaviest call, then the smallest caller id,
    // whatever the order of the edges.
    Cluster &C = Clusters[E.Callee];
    if (C.BestPred == CallGraph::InvalidNode || E.Count > C.BestPredWeight ||
        (E.Count == C.BestPredWeight && E.Caller < C.BestPred)) {
      C.BestPred = E.Caller;
      C.BestPredWeight = E.Count;
    }
  });
  // InWeight becomes each node's weight before any merge.
  std::vector<uint64_t> &InitialWeight = InWeight;
  for (NodeId N = 0; N < NumNodes; ++N) {
    InitialWeight[N] = std::max(Counts[N], InWeight[N]);
    Clusters[N].Weight = InitialWeight[N];
  }

  std::vector<NodeId> Sorted(NumNodes);
  std::iota(Sorted.begin(), Sorted.end(), NodeId(0));
  sortByDensity(Sorted, Clusters);

  std::vector<NodeId> Leaders(NumNodes);
  std::iota(Leaders.begin(), Leaders.end(), NodeId(0));
  for (NodeId L : Sorted) {
    // L leads its cluster: it can only stop doing so when it is visited.
    Cluster &C = Clusters[L];
    if (C.BestPred == CallGraph::InvalidNode ||
        double(C.BestPredWeight) <=
            Config.MinCallProbability * double(InitialWeight[L]))
      continue;
    NodeId PredL = getLeader(Leaders, C.BestPred);
    if (PredL == L)
      continue;
    Cluster &PredC = Clusters[PredL];
    if (SaturatingAdd(C.Size, PredC.Size) > Config.MaxClusterSize)
      continue;
    double NewDensity = (double(PredC.Weight) + double(C.Weight)) /
                        (double(PredC.Size) + double(C.Size));
    if (NewDensity < PredC.density() / Config.MaxDensityDegradation)
      continue;
    Leaders[L] = PredL;
    appendCluster(Clusters, PredL, L);
  }

  Sorted.clear();
  for (NodeId N = 0; N < NumNodes; ++N)
    if (Leaders[N] == N)
      Sorted.push_back(N);
  sortByDensity(Sorted, Clusters);

  std::vector<NodeId> Order;
  Order.reserve(NumNodes);
  for (NodeId L : Sorted) {
    NodeId N = L;
    do {
      Order.push_back(N);
      N = Clusters[N].Next;
    } while (N != L);
  }
  assert(Order.size() == NumNodes && "C3 lost or duplicated a node");
  return Order;
}

// C3 reads each edge once: it takes a streamed subgraph's edges as they are
// renumbered, without a copy of millions of edges.
std::vector<NodeId>
kiln::layout::orderSubgraphByC3(const Subgraph &S,
                                const CompositeLayoutConfig &Config) {
  return computeC3OrderOfStream(
      S.Sizes, S.Counts,
      [&](function_ref<void(const Edge &)> Visit) { S.forEachEdge(Visit); },
      Config.C3);
}

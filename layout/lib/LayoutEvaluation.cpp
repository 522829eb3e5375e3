//===- LayoutEvaluation.cpp - Measure a function order --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Page, call-locality and ext-TSP metrics of a function order (Hoag et al.,
/// LCTES 2023; Ottoni and Maher, CGO 2017; Newell and Pupyrev, IEEE TC
/// 2020). Every metric is a single pass over the order and the edges.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/LayoutEvaluation.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Transforms/Utils/CodeLayout.h"

#include <cassert>
#include <limits>

using namespace llvm;
using namespace kiln::layout;

static constexpr uint64_t NoAddress = UnplacedAddress;

#ifndef NDEBUG
static bool hasNoRepeats(ArrayRef<NodeId> Order, size_t NumNodes) {
  BitVector Seen(NumNodes);
  for (NodeId N : Order) {
    if (N >= NumNodes || Seen.test(N))
      return false;
    Seen.set(N);
  }
  return true;
}
#endif

std::vector<uint64_t> kiln::layout::computeStartAddresses(
    ArrayRef<NodeId> Order, ArrayRef<uint64_t> Sizes, uint64_t Alignment) {
  assert(isPowerOf2_64(Alignment) && "alignment must be a power of two");
  assert(hasNoRepeats(Order, Sizes.size()) &&
         "order repeats a node or names an unknown one");
  std::vector<uint64_t> Starts;
  Starts.reserve(Order.size());
  uint64_t Addr = 0;
  for (NodeId N : Order) {
    Addr = alignTo(Addr, Alignment);
    Starts.push_back(Addr);
    Addr += Sizes[N];
  }
  return Starts;
}

// Returns, per node id, its start address, or NoAddress if not placed.
static std::vector<uint64_t> getAddressByNode(ArrayRef<NodeId> Order,
                                              ArrayRef<uint64_t> Sizes,
                                              uint64_t Alignment) {
  std::vector<uint64_t> Starts = computeStartAddresses(Order, Sizes, Alignment);
  std::vector<uint64_t> ByNode(Sizes.size(), NoAddress);
  for (size_t I = 0; I < Order.size(); ++I)
    ByNode[Order[I]] = Starts[I];
  return ByNode;
}

PageStats kiln::layout::countTouchedPages(ArrayRef<NodeId> Order,
                                          ArrayRef<uint64_t> Sizes,
                                          const BitVector &Executed,
                                          uint64_t PageSize,
                                          uint64_t Alignment) {
  assert(isPowerOf2_64(PageSize) && "page size must be a power of two");
  std::vector<uint64_t> Starts = computeStartAddresses(Order, Sizes, Alignment);
  auto IsExecuted = [&](NodeId N) {
    return N < Executed.size() && Executed.test(N);
  };

  PageStats Stats;
  // Starts grow along the order, so pages below FirstUncounted are exactly
  // the ones already counted.
  uint64_t FirstUncounted = 0;
  uint64_t PlacedExecuted = 0;
  for (size_t I = 0; I < Order.size(); ++I) {
    NodeId N = Order[I];
    if (!IsExecuted(N))
      continue;
    ++PlacedExecuted;
    if (Sizes[N] == 0)
      continue;
    Stats.ExecutedBytes += Sizes[N];
    uint64_t First = Starts[I] / PageSize;
    uint64_t Last = (Starts[I] + Sizes[N] - 1) / PageSize;
    if (Last < FirstUncounted)
      continue;
    Stats.PagesTouched += Last - std::max(First, FirstUncounted) + 1;
    FirstUncounted = Last + 1;
  }
  Stats.LowerBound = divideCeil(Stats.ExecutedBytes, PageSize);
  Stats.UnplacedExecuted = Executed.count() - PlacedExecuted;
  return Stats;
}

double CallLocality::getShare(size_t I) const {
  assert(I < WithinCount.size() && "no such distance");
  return TotalCount == 0 ? 0.0 : double(WithinCount[I]) / double(TotalCount);
}

CallLocality kiln::layout::computeCallLocality(ArrayRef<NodeId> Order,
                                               ArrayRef<uint64_t> Sizes,
                                               ArrayRef<Edge> Edges,
                                               ArrayRef<uint64_t> Distances,
                                               uint64_t Alignment) {
  return computeCallLocalityAt(getAddressByNode(Order, Sizes, Alignment), Sizes,
                               Edges, Distances);
}

CallLocality kiln::layout::computeCallLocalityAt(ArrayRef<uint64_t> Addr,
                                                 ArrayRef<uint64_t> Sizes,
                                                 ArrayRef<Edge> Edges,
                                                 ArrayRef<uint64_t> Distances) {
  assert(Addr.size() == Sizes.size() && "one address per node");
  CallLocality Result;
  Result.Distances.assign(Distances.begin(), Distances.end());
  Result.WithinCount.assign(Distances.size(), 0);
  for (const Edge &E : Edges) {
    assert(E.Caller < Sizes.size() && E.Callee < Sizes.size() &&
           "unknown node");
    if (E.Caller == E.Callee)
      continue;
    Result.TotalCount = SaturatingAdd(Result.TotalCount, E.Count);
    if (Addr[E.Caller] == NoAddress || Addr[E.Callee] == NoAddress) {
      Result.UnplacedCount = SaturatingAdd(Result.UnplacedCount, E.Count);
      continue;
    }
    uint64_t CallSite = Addr[E.Caller] + Sizes[E.Caller] / 2;
    uint64_t Target = Addr[E.Callee];
    uint64_t Dist = CallSite > Target ? CallSite - Target : Target - CallSite;
    for (size_t I = 0; I < Distances.size(); ++I)
      if (Dist < Distances[I])
        Result.WithinCount[I] = SaturatingAdd(Result.WithinCount[I], E.Count);
  }
  return Result;
}

PageStats kiln::layout::countTouchedPagesAt(ArrayRef<uint64_t> Addresses,
                                            ArrayRef<uint64_t> Sizes,
                                            const BitVector &Executed,
                                            uint64_t PageSize) {
  assert(isPowerOf2_64(PageSize) && "page size must be a power of two");
  assert(Addresses.size() == Sizes.size() && "one address per node");
  PageStats Stats;
  // Page intervals [first, last] of the executed nodes, merged after sorting.
  std::vector<std::pair<uint64_t, uint64_t>> Spans;
  for (NodeId N : Executed.set_bits()) {
    if (N >= Addresses.size())
      continue;
    if (Addresses[N] == NoAddress) {
      ++Stats.UnplacedExecuted;
      continue;
    }
    if (Sizes[N] == 0)
      continue;
    Stats.ExecutedBytes += Sizes[N];
    Spans.emplace_back(Addresses[N] / PageSize,
                       (Addresses[N] + Sizes[N] - 1) / PageSize);
  }
  llvm::sort(Spans);
  uint64_t FirstUncounted = 0;
  bool Any = false;
  for (auto [First, Last] : Spans) {
    if (Any && Last < FirstUncounted)
      continue;
    uint64_t From = Any ? std::max(First, FirstUncounted) : First;
    Stats.PagesTouched += Last - From + 1;
    FirstUncounted = Last + 1;
    Any = true;
  }
  Stats.LowerBound = divideCeil(Stats.ExecutedBytes, PageSize);
  return Stats;
}

double kiln::layout::computeExtTspScore(ArrayRef<NodeId> Order,
                                        ArrayRef<uint64_t> Sizes,
                                        ArrayRef<Edge> Edges,
                                        uint64_t Alignment) {
  if (Order.empty())
    return 0.0;
  std::vector<uint64_t> Starts = computeStartAddresses(Order, Sizes, Alignment);
  // Renumber the placed nodes by position; a node's size runs to the start
  // of the next one, padding included.
  std::vector<uint64_t> PaddedSizes(Order.size());
  for (size_t I = 0; I + 1 < Order.size(); ++I)
    PaddedSizes[I] = Starts[I + 1] - Starts[I];
  PaddedSizes.back() = Sizes[Order.back()];
  std::vector<NodeId> Position(Sizes.size(), CallGraph::InvalidNode);
  for (size_t I = 0; I < Order.size(); ++I)
    Position[Order[I]] = NodeId(I);

  std::vector<Edge> Placed;
  Placed.reserve(Edges.size());
  for (const Edge &E : Edges) {
    assert(E.Caller < Sizes.size() && E.Callee < Sizes.size() &&
           "unknown node");
    NodeId From = Position[E.Caller], To = Position[E.Callee];
    if (From != CallGraph::InvalidNode && To != CallGraph::InvalidNode)
      Placed.push_back(Edge{From, To, E.Count});
  }
  std::vector<codelayout::EdgeCount> Calls;
  for (const Edge &E : normalizeEdges(Placed))
    Calls.push_back({E.Caller, E.Callee, E.Count});
  return codelayout::calcExtTspScore(PaddedSizes, Calls);
}

LayoutMetrics kiln::layout::evaluateLayout(ArrayRef<NodeId> Order,
                                           ArrayRef<uint64_t> Sizes,
                                           const BitVector &Executed,
                                           ArrayRef<Edge> Edges,
                                           const EvaluationConfig &Config) {
  LayoutMetrics Metrics;
  Metrics.Pages = countTouchedPages(Order, Sizes, Executed, Config.PageSize,
                                    Config.Alignment);
  Metrics.Locality = computeCallLocality(
      Order, Sizes, Edges, Config.LocalityDistances, Config.Alignment);
  Metrics.ExtTspScore =
      computeExtTspScore(Order, Sizes, Edges, Config.Alignment);
  return Metrics;
}

//===- TracePartitioning.cpp - Startup order from traces ------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Balanced partitioning of temporal traces (Hoag et al., LCTES 2023,
/// arXiv:2211.09285) over NodeIds: the utility nodes of LLVM's
/// TemporalProfTraceTy::createBPFunctionNodes, duplicated by trace weight,
/// handed to llvm::BalancedPartitioning.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/TracePartitioning.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace llvm;
using namespace kiln::layout;

namespace {
/// The distinct nodes of a set of traces, in order of appearance, with the
/// earliest position at which a trace executes each.
struct TraceNodeSet {
  explicit TraceNodeSet(ArrayRef<TraceRef> Traces);

  static constexpr uint32_t None = std::numeric_limits<uint32_t>::max();
  /// NodeId -> index into Nodes, or None.
  std::vector<uint32_t> Index;
  std::vector<NodeId> Nodes;
  std::vector<uint64_t> FirstPos;

  /// \returns Nodes sorted by (FirstPos, node id).
  std::vector<uint32_t> sortedByFirstPosition() const;
};
} // namespace

TraceNodeSet::TraceNodeSet(ArrayRef<TraceRef> Traces) {
  NodeId MaxId = 0;
  for (const TraceRef &T : Traces)
    for (NodeId N : T.Nodes)
      MaxId = std::max(MaxId, N);
  Index.assign(size_t(MaxId) + 1, None);
  for (const TraceRef &T : Traces) {
    for (size_t Pos = 0; Pos < T.Nodes.size(); ++Pos) {
      NodeId N = T.Nodes[Pos];
      if (Index[N] == None) {
        Index[N] = uint32_t(Nodes.size());
        Nodes.push_back(N);
        FirstPos.push_back(Pos);
        continue;
      }
      uint64_t &First = FirstPos[Index[N]];
      First = std::min<uint64_t>(First, Pos);
    }
  }
}

std::vector<uint32_t> TraceNodeSet::sortedByFirstPosition() const {
  std::vector<uint32_t> Sorted(Nodes.size());
  for (uint32_t I = 0; I < Sorted.size(); ++I)
    Sorted[I] = I;
  llvm::sort(Sorted, [&](uint32_t L, uint32_t R) {
    return std::make_pair(FirstPos[L], Nodes[L]) <
           std::make_pair(FirstPos[R], Nodes[R]);
  });
  return Sorted;
}

std::vector<TraceRef> kiln::layout::makeTraceRefs(ArrayRef<Trace> Traces) {
  std::vector<TraceRef> Refs;
  Refs.reserve(Traces.size());
  for (const Trace &T : Traces)
    Refs.push_back(TraceRef{T.Nodes, double(T.Weight)});
  return Refs;
}

std::vector<NodeId>
kiln::layout::computeFirstExecutionOrder(ArrayRef<TraceRef> Traces) {
  TraceNodeSet Set(Traces);
  std::vector<NodeId> Order;
  Order.reserve(Set.Nodes.size());
  for (uint32_t I : Set.sortedByFirstPosition())
    Order.push_back(Set.Nodes[I]);
  return Order;
}

// Returns how many copies of its utility nodes a trace of weight Weight
// contributes when the lightest trace of positive weight has MinWeight.
static unsigned getUtilityCopies(double Weight, double MinWeight,
                                 unsigned MaxCopies) {
  if (!(Weight > 0))
    return 0;
  double Ratio = Weight / MinWeight;
  if (Ratio >= double(MaxCopies))
    return MaxCopies;
  return std::max(1u, unsigned(std::lround(Ratio)));
}

std::vector<TraceUtilityNodes>
kiln::layout::computeTraceUtilityNodes(ArrayRef<TraceRef> Traces,
                                       const TracePartitioningConfig &Config) {
  assert(Config.MaxUtilityCopies >= 1 && "at least one copy is needed");
  using UtilityNodeT = BPFunctionNode::UtilityNodeT;
  static_assert(sizeof(UtilityNodeT) == sizeof(uint32_t),
                "utility ids are stored as uint32_t");
  TraceNodeSet Set(Traces);
  if (Set.Nodes.empty())
    return {};

  double MinWeight = std::numeric_limits<double>::infinity();
  for (const TraceRef &T : Traces)
    if (T.Weight > 0)
      MinWeight = std::min(MinWeight, T.Weight);

  // Utility nodes, as createBPFunctionNodes builds them: positions are cut
  // into windows ending at 1, 2, 4, 8, ...; a node first executed in window
  // K of a trace gets that trace's utility nodes K, K+1, ..., last.
  std::vector<std::vector<uint32_t>> Utilities(Set.Nodes.size());
  std::vector<uint32_t> SeenInTrace(Set.Nodes.size(), TraceNodeSet::None);
  std::vector<std::pair<uint32_t, uint32_t>> FirstWindows;
  uint64_t NextUtility = 0;
  for (uint32_t TraceIdx = 0; TraceIdx < Traces.size(); ++TraceIdx) {
    const TraceRef &T = Traces[TraceIdx];
    unsigned Copies =
        getUtilityCopies(T.Weight, MinWeight, Config.MaxUtilityCopies);
    if (Copies == 0 || T.Nodes.empty())
      continue;
    FirstWindows.clear();
    uint32_t Window = 0;
    uint64_t Cutoff = 1;
    for (size_t Pos = 0; Pos < T.Nodes.size(); ++Pos) {
      if (Pos >= Cutoff) {
        ++Window;
        Cutoff = 2 * Pos;
      }
      uint32_t I = Set.Index[T.Nodes[Pos]];
      if (SeenInTrace[I] == TraceIdx)
        continue;
      SeenInTrace[I] = TraceIdx;
      FirstWindows.emplace_back(I, Window);
    }
    const uint64_t NumWindows = uint64_t(Window) + 1;
    for (auto [I, First] : FirstWindows)
      for (uint64_t W = First; W < NumWindows; ++W)
        for (unsigned C = 0; C < Copies; ++C)
          Utilities[I].push_back(uint32_t(NextUtility + W * Copies + C));
    NextUtility += NumWindows * Copies;
    assert(NextUtility <= std::numeric_limits<UtilityNodeT>::max() &&
           "too many utility nodes");
  }

  if (Config.RemoveOutlierUtilities) {
    std::vector<uint32_t> Frequency(NextUtility, 0);
    for (const std::vector<uint32_t> &UNs : Utilities)
      for (uint32_t UN : UNs)
        ++Frequency[UN];
    const uint64_t NumFunctions = Set.Nodes.size();
    for (std::vector<uint32_t> &UNs : Utilities)
      llvm::erase_if(UNs, [&](uint32_t UN) {
        return Frequency[UN] <= 1 || 2 * uint64_t(Frequency[UN]) > NumFunctions;
      });
  }

  // BalancedPartitioning is sensitive to its input order: fix it by first
  // execution, as LLVM does.
  std::vector<TraceUtilityNodes> Result;
  Result.reserve(Set.Nodes.size());
  for (uint32_t I : Set.sortedByFirstPosition())
    Result.push_back(TraceUtilityNodes{Set.Nodes[I], std::move(Utilities[I])});
  return Result;
}

std::vector<NodeId> kiln::layout::computeTracePartitioningOrder(
    ArrayRef<TraceRef> Traces, const TracePartitioningConfig &Config) {
  std::vector<BPFunctionNode> FunctionNodes;
  {
    std::vector<TraceUtilityNodes> Input =
        computeTraceUtilityNodes(Traces, Config);
    FunctionNodes.reserve(Input.size());
    for (const TraceUtilityNodes &N : Input)
      FunctionNodes.emplace_back(N.Node, N.Utilities);
  }
  BalancedPartitioning Partitioner(Config.BP);
  Partitioner.run(FunctionNodes);

  std::vector<NodeId> Order;
  Order.reserve(FunctionNodes.size());
  for (const BPFunctionNode &N : FunctionNodes)
    Order.push_back(NodeId(N.Id));
  return Order;
}

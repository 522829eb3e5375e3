//===- kiln/Layout/TracePartitioning.h - Startup order from traces -*- C++ -*-//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Orders the functions of temporal profile traces so that a startup touches
/// few pages, by balanced partitioning as in E. Hoag, K. Lee, J. Mestre, S.
/// Pupyrev and Y. Zhu, "Optimizing Function Layout for Mobile Applications",
/// LCTES 2023 (https://arxiv.org/abs/2211.09285), through
/// llvm::BalancedPartitioning.
///
/// The utility nodes are those of llvm::TemporalProfTraceTy::
/// createBPFunctionNodes, over NodeIds: each trace is cut into windows that
/// end at positions 1, 2, 4, 8, ... and every window is a utility node
/// shared by the functions first executed up to its end. LLVM ignores the
/// traces' weights (a TODO there); Kiln honours them by duplication: a trace
/// of weight W contributes round(W / Wmin) copies of each of its utility
/// nodes, at most MaxUtilityCopies, where Wmin is the smallest positive
/// weight. Copies multiply the trace's share of the objective, which is a
/// sum over utility nodes.
///
/// Determinism: llvm::BalancedPartitioning seeds each bisection's random
/// generator with that bisection's bucket number and bisections work on
/// disjoint slices, so the order is the same whether run() uses its thread
/// pool (TaskSplitDepth > 1) or not; the input order of the function nodes
/// is fixed by (first position in any trace, node id).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_TRACEPARTITIONING_H
#define KILN_LAYOUT_TRACEPARTITIONING_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/BalancedPartitioning.h"

#include <cstdint>
#include <vector>

namespace kiln::layout {

/// A view of a trace: nodes in first-execution order and a relative weight.
struct TraceRef {
  /// Nodes in first-execution order; a repeat counts at its first position.
  llvm::ArrayRef<NodeId> Nodes;
  /// Relative importance; traces of weight 0 order nothing but their nodes
  /// are still placed.
  double Weight = 1.0;
};

/// Tunables of the trace-based startup order.
struct TracePartitioningConfig {
  /// LLVM's partitioning parameters, LLVM's defaults (split depth 18, 40
  /// iterations per split, skip probability 0.1, thread pool for the first 9
  /// levels). TaskSplitDepth <= 1 keeps run() on the calling thread; the
  /// order is the same either way.
  llvm::BalancedPartitioningConfig BP;
  /// The most copies of one trace's utility nodes (see the file comment);
  /// 1 ignores the weights, as LLVM does.
  unsigned MaxUtilityCopies = 8;
  /// Drop utility nodes shared by a single function or by more than half of
  /// them, as LLVM does (RemoveOutlierUNs).
  bool RemoveOutlierUtilities = true;
};

/// A function node of the partitioning: a node and its utility nodes.
struct TraceUtilityNodes {
  NodeId Node = 0;
  /// Utility node ids, increasing, without repeats.
  std::vector<uint32_t> Utilities;

  bool operator==(const TraceUtilityNodes &O) const {
    return Node == O.Node && Utilities == O.Utilities;
  }
};

/// Builds the input of the partitioning (see the file comment).
///
/// \p Traces: nodes in first-execution order; a node repeated in one trace
///    counts at its first position.
/// \returns one entry per node that appears in some trace, sorted by the
/// earliest position at which a trace executes it, then by node id (the
/// input order BalancedPartitioning starts from). Utility ids are numbered
/// trace after trace, window after window, copy after copy.
std::vector<TraceUtilityNodes> computeTraceUtilityNodes(
    llvm::ArrayRef<TraceRef> Traces,
    const TracePartitioningConfig &Config = TracePartitioningConfig());

/// Orders the nodes of \p Traces by balanced partitioning of the function
/// nodes computeTraceUtilityNodes builds.
/// \returns every node that appears in some trace, once.
std::vector<NodeId> computeTracePartitioningOrder(
    llvm::ArrayRef<TraceRef> Traces,
    const TracePartitioningConfig &Config = TracePartitioningConfig());

/// Orders the nodes of \p Traces by first execution: by the earliest
/// position at which any trace executes them, then by node id. The order of
/// a single trace is the trace without repeats.
std::vector<NodeId> computeFirstExecutionOrder(llvm::ArrayRef<TraceRef> Traces);

/// \returns views of \p Traces with their own weights.
std::vector<TraceRef> makeTraceRefs(llvm::ArrayRef<Trace> Traces);

} // namespace kiln::layout

#endif // KILN_LAYOUT_TRACEPARTITIONING_H

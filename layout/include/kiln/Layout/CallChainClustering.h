//===- kiln/Layout/CallChainClustering.h - C3 function order ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Call-chain clustering (C3, "hfsort"), following G. Ottoni and B. Maher,
/// "Optimizing Function Placement for Large-Scale Data-Center Applications",
/// CGO 2017. This is the heuristic lld's ELF CallGraphSort implements:
///
/// * every function starts as its own cluster; a cluster's *weight* is the
///   sum of its functions' weights, its *density* weight / size;
/// * functions are visited once, by decreasing density; each one's cluster
///   is appended to the cluster of its most likely caller (the caller of its
///   heaviest incoming call), unless that call is too unlikely, the merged
///   cluster would exceed a maximum size, or the merge would dilute the
///   caller cluster's density too much;
/// * the surviving clusters are laid out by decreasing density.
///
/// Data in, order out: no LLVM IR and no lld types.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_CALLCHAINCLUSTERING_H
#define KILN_LAYOUT_CALLCHAINCLUSTERING_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <vector>

namespace kiln::layout {

/// Tunables of call-chain clustering. The defaults are lld's constants.
struct C3Config {
  /// The largest cluster, in bytes, a merge may create (lld:
  /// MAX_CLUSTER_SIZE = 1 MiB). The paper sizes clusters to the page the
  /// layout optimises for; the composite layout sets it to its page size.
  uint64_t MaxClusterSize = 1024 * 1024;
  /// A function joins its most likely caller's cluster only if that call
  /// carries more than this share of the function's weight (lld refuses when
  /// `bestPred.weight * 10 <= weight`, i.e. 0.1).
  double MinCallProbability = 0.1;
  /// A merge is refused when the merged cluster's density would fall below
  /// the caller cluster's density divided by this factor (lld:
  /// MAX_DENSITY_DEGRADATION = 8).
  double MaxDensityDegradation = 8.0;
};

/// Orders functions by call-chain clustering.
///
/// \p Sizes: the size in bytes of each node; node ids index this array.
///    Unknown (zero) sizes count as one byte, as in llvm::codelayout.
/// \p Counts: the execution count of each node (same length as \p Sizes).
///    A node's weight is the larger of its count and the sum of the counts
///    of its incoming calls (self-calls included, as lld does).
/// \p Edges: calls between the nodes, one edge per (caller, callee) pair
///    as CallGraph provides them (duplicates are not summed when choosing a
///    function's most likely caller). Self-calls add weight but never decide
///    a merge; zero counts are ignored.
/// \returns a permutation of all node ids. Ties (equal densities, equal
/// call counts) are broken by the smaller node id, so the result does not
/// depend on the order of \p Edges.
std::vector<NodeId> computeC3Order(llvm::ArrayRef<uint64_t> Sizes,
                                   llvm::ArrayRef<uint64_t> Counts,
                                   llvm::ArrayRef<Edge> Edges,
                                   const C3Config &Config = C3Config());

/// Calls its argument on every edge, once, in any order.
using EdgeStream =
    llvm::function_ref<void(llvm::function_ref<void(const Edge &)>)>;

/// computeC3Order over the edges \p ForEachEdge produces. C3 reads each
/// edge once, so a caller whose edges are not yet in the nodes' numbering
/// (a subgraph of a larger graph, millions of calls) can renumber them as
/// they are read instead of copying them first. Same result as
/// computeC3Order over the same edges.
std::vector<NodeId> computeC3OrderOfStream(llvm::ArrayRef<uint64_t> Sizes,
                                           llvm::ArrayRef<uint64_t> Counts,
                                           EdgeStream ForEachEdge,
                                           const C3Config &Config = C3Config());

} // namespace kiln::layout

#endif // KILN_LAYOUT_CALLCHAINCLUSTERING_H

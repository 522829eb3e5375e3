//===- kiln/Layout/PettisHansen.h - Pettis-Hansen function order -*- C++ -*-=//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Procedure positioning after K. Pettis and R. C. Hansen, "Profile Guided
/// Code Positioning", PLDI 1990, section 4:
///
/// * the call graph is made undirected: the weight of {A, B} is the count of
///   A -> B plus the count of B -> A;
/// * every function starts as a chain of its own; the heaviest edge between
///   two different chains merges them, and the edges of the two chains to
///   any third chain combine by adding their weights;
/// * the two chains are concatenated in the orientation (each possibly
///   reversed) that puts the endpoints of the heaviest original call
///   between them closest in bytes;
/// * merging stops when no edge joins two chains; the chains are then laid
///   out by decreasing density (weight per byte), as BOLT's implementation
///   does.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_PETTISHANSEN_H
#define KILN_LAYOUT_PETTISHANSEN_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <vector>

namespace kiln::layout {

/// Tunables of Pettis-Hansen procedure positioning.
struct PettisHansenConfig {
  /// Undirected edges lighter than this never merge chains (the paper only
  /// follows calls that were executed).
  uint64_t MinEdgeWeight = 1;
};

/// Orders functions by Pettis-Hansen procedure positioning.
///
/// \p Sizes: the size in bytes of each node; the orientation of a merge
///    measures distances with these sizes (zero-sized nodes take no room).
/// \p Counts: the execution count of each node. A node's weight, used for
///    the final density order (where sizes count at least one byte), is the
///    larger of its count and the sum of its incoming call counts.
/// \p Edges: calls between the nodes; self-calls and zero counts are
///    ignored, several edges for one pair add up.
/// \returns a permutation of all node ids. Ties are broken by node ids
/// (heaviest edge: by its smaller, then larger endpoint; chains: by their
/// smallest member), so the result does not depend on the order of \p Edges.
std::vector<NodeId> computePettisHansenOrder(
    llvm::ArrayRef<uint64_t> Sizes, llvm::ArrayRef<uint64_t> Counts,
    llvm::ArrayRef<Edge> Edges,
    const PettisHansenConfig &Config = PettisHansenConfig());

} // namespace kiln::layout

#endif // KILN_LAYOUT_PETTISHANSEN_H

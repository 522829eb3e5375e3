//===- CacheDirectedSort.cpp - cdsort function order ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Adapter from Kiln's arrays to llvm::codelayout::computeCacheDirectedLayout
/// (Newell and Pupyrev, IEEE TC 2020), mirroring lld's
/// computeCacheDirectedSortOrder: self-calls and zero counts dropped, call
/// offsets in the middle of the caller. LLVM accumulates floating-point gains
/// in edge order, so the edges are first brought to one canonical order.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CacheDirectedSort.h"
#include "kiln/Layout/CompositeLayout.h"

#include <cassert>

using namespace llvm;
using namespace kiln::layout;

std::vector<NodeId> kiln::layout::computeCDSortOrder(
    ArrayRef<uint64_t> Sizes, ArrayRef<uint64_t> Counts, ArrayRef<Edge> Edges,
    const codelayout::CDSortConfig &Config) {
  assert(Sizes.size() == Counts.size() && "one count per node expected");
  assert(Sizes.size() < CallGraph::InvalidNode && "too many nodes");
  if (Sizes.empty())
    return {};

  std::vector<Edge> Normal = normalizeEdges(Edges);
  std::vector<codelayout::EdgeCount> Calls;
  std::vector<uint64_t> CallOffsets;
  Calls.reserve(Normal.size());
  CallOffsets.reserve(Normal.size());
  for (const Edge &E : Normal) {
    assert(E.Caller < Sizes.size() && E.Callee < Sizes.size() &&
           "unknown node");
    Calls.push_back({E.Caller, E.Callee, E.Count});
    CallOffsets.push_back((Sizes[E.Caller] + 1) / 2);
  }

  std::vector<uint64_t> Result = codelayout::computeCacheDirectedLayout(
      Config, Sizes, Counts, Calls, CallOffsets);
  assert(Result.size() == Sizes.size() && "cdsort lost or duplicated a node");
  return std::vector<NodeId>(Result.begin(), Result.end());
}

std::vector<NodeId>
kiln::layout::orderSubgraphByCDSort(const Subgraph &S,
                                    const CompositeLayoutConfig &Config) {
  return computeCDSortOrder(S.Sizes, S.Counts, S.getEdges(), Config.CDSort);
}

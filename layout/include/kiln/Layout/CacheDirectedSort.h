//===- kiln/Layout/CacheDirectedSort.h - cdsort function order --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Cache-directed sort (cdsort), the function-ordering variant of the
/// ext-TSP chain-merging algorithm of A. Newell and S. Pupyrev, "Improved
/// Basic Block Reordering", IEEE Transactions on Computers 2020, as shipped
/// in llvm::codelayout::computeCacheDirectedLayout (the algorithm behind
/// lld's `--call-graph-profile-sort=cdsort`). This file only adapts Kiln's
/// data to LLVM's arrays the way lld does, and normalises the input so the
/// order does not depend on how the edges were listed.
///
/// Cost: LLVM's implementation grows about quadratically on large, densely
/// connected graphs (random graphs with five calls per function: about 1 s
/// for 10,000 functions, 70 s for 100,000, well over 10 minutes for
/// 1,000,000). Call it on hot subgraphs; CompositeLayout caps it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_CACHEDIRECTEDSORT_H
#define KILN_LAYOUT_CACHEDIRECTEDSORT_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Transforms/Utils/CodeLayout.h"

#include <cstdint>
#include <vector>

namespace kiln::layout {

/// Orders functions with LLVM's cache-directed sort.
///
/// \p Config: LLVM's tunables, used as given (no `-cds-*` flag overrides
///    them); its defaults model 16 cache entries of 2048 bytes and chains of
///    at most 128 functions.
/// \p Sizes: the size in bytes of each node (zero counts as one byte).
/// \p Counts: the execution count of each node; LLVM raises it to the sum
///    of the node's incoming call counts, or of its outgoing ones, when
///    either is larger.
/// \p Edges: calls between the nodes. Self-calls and zero counts are
///    dropped; duplicates are summed; each call is assumed to sit in the
///    middle of its caller, as lld assumes.
/// \returns a permutation of all node ids, independent of the order of
/// \p Edges.
std::vector<NodeId>
computeCDSortOrder(llvm::ArrayRef<uint64_t> Sizes,
                   llvm::ArrayRef<uint64_t> Counts, llvm::ArrayRef<Edge> Edges,
                   const llvm::codelayout::CDSortConfig &Config =
                       llvm::codelayout::CDSortConfig());

} // namespace kiln::layout

#endif // KILN_LAYOUT_CACHEDIRECTEDSORT_H

//===- kiln/Layout/LayoutEvaluation.h - Measure a function order -*- C++ -*-=//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Metrics of a function order, for `kiln eval` and the tests:
///
/// * pages touched: how many distinct pages the executed functions occupy,
///   against the function-granularity lower bound ceil(executed bytes /
///   page size) (the working-set view of startup layouts, as in Hoag et al.,
///   "Optimizing Function Layout for Mobile Applications", LCTES 2023);
/// * call locality: the share of the weighted call count whose call site
///   and callee are closer than a few distances (cache line, page, huge
///   page), the quantity C3 (Ottoni and Maher, CGO 2017) and cdsort improve;
/// * the ext-TSP score of the order (Newell and Pupyrev, IEEE TC 2020),
///   computed by llvm::codelayout::calcExtTspScore.
///
/// Address model, shared by all metrics: the functions of the order are
/// laid out contiguously from address 0 in order, each start rounded up to
/// a multiple of the alignment; nodes not in the order have no address.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_LAYOUTEVALUATION_H
#define KILN_LAYOUT_LAYOUTEVALUATION_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"

#include <cstdint>
#include <iterator>
#include <vector>

namespace kiln::layout {

/// Pages touched by the executed functions of an order.
struct PageStats {
  /// Distinct pages holding at least one byte of an executed, placed node.
  uint64_t PagesTouched = 0;
  /// ceil(ExecutedBytes / page size): no order of whole functions can touch
  /// fewer pages.
  uint64_t LowerBound = 0;
  /// Bytes of the executed, placed nodes.
  uint64_t ExecutedBytes = 0;
  /// Executed nodes that are not in the order (the linker places them).
  uint64_t UnplacedExecuted = 0;

  bool operator==(const PageStats &O) const {
    return PagesTouched == O.PagesTouched && LowerBound == O.LowerBound &&
           ExecutedBytes == O.ExecutedBytes &&
           UnplacedExecuted == O.UnplacedExecuted;
  }
};

/// The default distances of CallLocality: a 64-byte cache line, a 4 KiB and
/// a 2 MiB page.
inline constexpr uint64_t DefaultLocalityDistances[] = {64, 4096, 2 << 20};

/// How close calls land to their callers.
///
/// Distance of a call: |start(callee) - (start(caller) + size(caller) / 2)|
/// (integer division), i.e. from the middle of the caller, where profiles
/// without call offsets put the call site (lld's cdsort: (size + 1) / 2), to
/// the callee's entry. A call is *within D* if its distance is strictly less
/// than D bytes.
struct CallLocality {
  /// The distances, as given.
  std::vector<uint64_t> Distances;
  /// Per distance, the summed count of the calls within it.
  std::vector<uint64_t> WithinCount;
  /// Summed count of all calls (self-calls excluded), placed or not.
  uint64_t TotalCount = 0;
  /// Summed count of calls with an endpoint outside the order; they are
  /// never within any distance.
  uint64_t UnplacedCount = 0;

  /// \returns the share of TotalCount within Distances[I] (0 if no calls).
  double getShare(size_t I) const;

  bool operator==(const CallLocality &O) const {
    return Distances == O.Distances && WithinCount == O.WithinCount &&
           TotalCount == O.TotalCount && UnplacedCount == O.UnplacedCount;
  }
};

/// \returns the start address of each entry of \p Order under the address
/// model: contiguous from 0 in order, each start rounded up to a multiple
/// of \p Alignment (a power of two). \p Sizes is indexed by node id.
std::vector<uint64_t> computeStartAddresses(llvm::ArrayRef<NodeId> Order,
                                            llvm::ArrayRef<uint64_t> Sizes,
                                            uint64_t Alignment = 1);

/// Counts the pages touched by the executed nodes of \p Order.
///
/// \p Sizes: bytes per node id; a node of size 0 occupies no page.
/// \p Executed: per node id, whether it ran (e.g. CallGraph::getExecuted).
/// \p PageSize: a power of two.
/// \p Alignment: see computeStartAddresses.
PageStats countTouchedPages(llvm::ArrayRef<NodeId> Order,
                            llvm::ArrayRef<uint64_t> Sizes,
                            const llvm::BitVector &Executed, uint64_t PageSize,
                            uint64_t Alignment = 1);

/// Measures the call locality of \p Order for the calls \p Edges (counts
/// already weighted, e.g. CallGraph::getWeightedEdges) at each of
/// \p Distances. Self-calls are ignored: no order moves them.
CallLocality
computeCallLocality(llvm::ArrayRef<NodeId> Order,
                    llvm::ArrayRef<uint64_t> Sizes, llvm::ArrayRef<Edge> Edges,
                    llvm::ArrayRef<uint64_t> Distances =
                        llvm::ArrayRef<uint64_t>(DefaultLocalityDistances),
                    uint64_t Alignment = 1);

/// \returns the ext-TSP score of \p Order for the calls \p Edges, by
/// llvm::codelayout::calcExtTspScore (higher is better). Only calls between
/// placed nodes count; self-calls are dropped and duplicates summed. With an
/// alignment, each node's size includes the padding after it, so that LLVM
/// sees the same addresses as the other metrics.
double computeExtTspScore(llvm::ArrayRef<NodeId> Order,
                          llvm::ArrayRef<uint64_t> Sizes,
                          llvm::ArrayRef<Edge> Edges, uint64_t Alignment = 1);

/// The parameters of evaluateLayout.
/// The address of a node that a binary does not contain.
inline constexpr uint64_t UnplacedAddress = ~uint64_t(0);

/// Like countTouchedPages, for nodes at given addresses (a linked binary's
/// real layout) rather than laid out by an order: \p Addresses and \p Sizes
/// are indexed by NodeId, UnplacedAddress for nodes the binary lacks.
PageStats countTouchedPagesAt(llvm::ArrayRef<uint64_t> Addresses,
                              llvm::ArrayRef<uint64_t> Sizes,
                              const llvm::BitVector &Executed,
                              uint64_t PageSize);

/// Like computeCallLocality, for nodes at given addresses (see
/// countTouchedPagesAt).
CallLocality
computeCallLocalityAt(llvm::ArrayRef<uint64_t> Addresses,
                      llvm::ArrayRef<uint64_t> Sizes,
                      llvm::ArrayRef<Edge> Edges,
                      llvm::ArrayRef<uint64_t> Distances =
                          llvm::ArrayRef<uint64_t>(DefaultLocalityDistances));

struct EvaluationConfig {
  /// Page size for PageStats, a power of two.
  uint64_t PageSize = 4096;
  /// Every function start is rounded up to this (a power of two; 1 packs
  /// functions back to back; x86-64 compilers usually align functions to
  /// 16).
  uint64_t Alignment = 1;
  /// The distances of CallLocality.
  std::vector<uint64_t> LocalityDistances = {
      std::begin(DefaultLocalityDistances), std::end(DefaultLocalityDistances)};
};

/// All metrics of one order.
struct LayoutMetrics {
  PageStats Pages;
  CallLocality Locality;
  double ExtTspScore = 0.0;
};

/// Measures \p Order: countTouchedPages over \p Executed, and
/// computeCallLocality and computeExtTspScore over \p Edges, with the
/// parameters of \p Config.
LayoutMetrics
evaluateLayout(llvm::ArrayRef<NodeId> Order, llvm::ArrayRef<uint64_t> Sizes,
               const llvm::BitVector &Executed, llvm::ArrayRef<Edge> Edges,
               const EvaluationConfig &Config = EvaluationConfig());

} // namespace kiln::layout

#endif // KILN_LAYOUT_LAYOUTEVALUATION_H

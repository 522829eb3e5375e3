//===- DensitySort.cpp - Hottest bytes first ------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--algorithm=density`: nodes by decreasing count per byte, calls
/// ignored. The greedy answer to "fewest pages for the most executions",
/// and the baseline every call-graph algorithm should beat: what hot/cold
/// section prefixes approximate when the linker sorts within a section by
/// nothing but hotness. It is also the worked example of adding an
/// algorithm: this file plus one entry in LayoutAlgorithms.def.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/LayoutAlgorithm.h"

#include <algorithm>
#include <numeric>
#include <vector>

using namespace kiln::layout;

std::vector<NodeId>
kiln::layout::orderSubgraphByDensity(const Subgraph &S,
                                     const CompositeLayoutConfig &) {
  std::vector<double> Density(S.size());
  for (size_t I = 0; I < S.size(); ++I)
    Density[I] =
        double(S.Counts[I]) / double(std::max<uint64_t>(S.Sizes[I], 1));
  std::vector<NodeId> Order(S.size());
  std::iota(Order.begin(), Order.end(), NodeId(0));
  // Equal densities keep increasing node ids: the result depends on
  // nothing but the subgraph.
  std::sort(Order.begin(), Order.end(), [&](NodeId A, NodeId B) {
    return Density[A] != Density[B] ? Density[A] > Density[B] : A < B;
  });
  return Order;
}

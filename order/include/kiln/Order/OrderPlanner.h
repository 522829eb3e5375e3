//===- kiln/Order/OrderPlanner.h - From profiles to an order ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The whole ordering job behind `kiln order` and kiln-lld: the profiled
/// call graph of the link's inputs (built by buildProfiledGraph), ordered by
/// an algorithm of the layout engine's registry, comes back as indices of
/// input functions with their groups; the graph's coverage report says how
/// much of each profile could be bound to a symbol and what could not, and
/// why.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_ORDERPLANNER_H
#define KILN_ORDER_ORDERPLANNER_H

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/ProfiledGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// The `--algorithm=` values: the layout engine's registry.
using layout::OrderAlgorithm;

/// Parses an `--algorithm=` spelling; the error lists the valid ones.
llvm::Expected<OrderAlgorithm> parseOrderAlgorithm(llvm::StringRef Name);

/// Parses a page size: bytes, or with a K/M suffix (4K, 16K, 64K, 2M); it
/// must be a power of two.
llvm::Expected<uint64_t> parsePageSize(llvm::StringRef Text);

/// The graph to build and how to order it.
struct PlanOptions : GraphOptions {
  OrderAlgorithm Algorithm = OrderAlgorithm::Kiln;
  layout::CompositeLayoutConfig Composite;
};

/// The result of planning.
struct OrderPlan : ProfiledGraph {
  /// Indices into LinkerInputs::Functions, first to last.
  std::vector<size_t> Functions;
  /// The group of each entry of Functions (Hot for single algorithms).
  std::vector<layout::LayoutGroup> Groups;
  /// The layout: the composite's groups and summary for the Kiln
  /// algorithm, every node in the hot group for the others.
  layout::CompositeLayout Layout;
};

/// Plans the order of \p Inputs' functions for \p Scenarios. \returns an
/// error naming the file for unreadable profiles or edge lists, or when no
/// scenario gives any executed function.
llvm::Expected<OrderPlan> planOrder(const LinkerInputs &Inputs,
                                    llvm::ArrayRef<ScenarioSpec> Scenarios,
                                    const PlanOptions &Options);

} // namespace kiln

#endif // KILN_ORDER_ORDERPLANNER_H

//===- kiln/Order/OrderPlanner.h - From profiles to a function order -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The whole ordering job behind `kiln order` (and, later, `kiln-lld`): the
/// functions of the linker inputs become the call graph's nodes; each
/// scenario's profiles are resolved onto them (counts, indirect calls,
/// temporal traces) and the inputs' own call-graph sections add the direct
/// calls; a layout algorithm orders the graph; the order comes back as
/// indices of input functions, with a coverage report saying how much of
/// each profile could be bound to a symbol and what could not, and why.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_ORDERPLANNER_H
#define KILN_ORDER_ORDERPLANNER_H

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Sources/EdgeList.h"
#include "kiln/Sources/LinkerInputs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A profile that makes one scenario.
struct ScenarioSpec {
  layout::ScenarioKind Kind = layout::ScenarioKind::SteadyState;
  std::string Path; ///< An instrumented profile (.profdata or text).
  double Weight = 1.0;
};

/// Parses `<kind>=<path>[:<weight>]` where kind is `startup` or `steady`
/// (the `--scenario=` spelling of every kiln subcommand).
llvm::Expected<ScenarioSpec> parseScenarioSpec(llvm::StringRef Spec);

/// Parses each of \p Specs with parseScenarioSpec.
llvm::Expected<std::vector<ScenarioSpec>>
parseScenarioSpecs(llvm::ArrayRef<std::string> Specs);

/// The layout algorithms `kiln order --algorithm=` offers.
enum class OrderingAlgorithm {
  Kiln,         ///< The composite: startup, hot, warm (and cold) groups.
  C3,           ///< Call-chain clustering over all scenarios.
  CDSort,       ///< Cache-directed sort over all scenarios.
  PettisHansen, ///< Pettis-Hansen over all scenarios.
  Partitioning, ///< Balanced partitioning of the startup traces alone.
};

/// \returns the `--algorithm=` spelling.
llvm::StringRef getOrderingAlgorithmName(OrderingAlgorithm Algorithm);

/// Parses an `--algorithm=` spelling (the inverse of getOrderingAlgorithmName).
llvm::Expected<OrderingAlgorithm> parseOrderingAlgorithm(llvm::StringRef Name);

/// Parses a page size: bytes, or with a K/M suffix (4K, 16K, 64K, 2M); it
/// must be a power of two.
llvm::Expected<uint64_t> parsePageSize(llvm::StringRef Text);

struct PlanOptions {
  OrderingAlgorithm Algorithm = OrderingAlgorithm::Kiln;
  layout::CompositeLayoutConfig Composite;
  /// Use the inputs' call-graph-profile sections as a steady-state scenario.
  bool UseObjectCallGraph = true;
  /// lld edge lists (linker names), as one more steady-state scenario.
  std::vector<std::shared_ptr<const EdgeListData>> EdgeLists;
  /// Count load-time code (InputFunction::RunsAtLoad) as executed by the
  /// first startup scenario, so that it joins the startup group.
  bool PlaceLoadCodeAtStartup = true;
  /// Where to time the phases of planning (`--time-phases`); none if null.
  layout::PhaseTimes *Times = nullptr;
};

/// How one profile mapped onto the inputs.
struct ProfileCoverage {
  std::string Path;
  std::string Scenario;        ///< "startup" or "steady".
  uint64_t Executed = 0;       ///< Functions with a non-zero count.
  uint64_t Bound = 0;          ///< ... bound to one input function.
  uint64_t ExecutedWeight = 0; ///< Their summed counts.
  uint64_t BoundWeight = 0;    ///< ... of those bound.
  /// Executed profile names left out, with the reason.
  std::vector<std::pair<std::string, std::string>> Unbound;
};

/// The inputs' functions as a call graph, with the scenarios' profiles bound
/// onto them.
struct ProfiledGraph {
  layout::CallGraph Graph;
  /// Per graph node, its input function, or -1 for callees no input
  /// defines (shared-library functions).
  std::vector<int64_t> FunctionOfNode;
  std::vector<ProfileCoverage> Coverage;
  /// Load-time functions (indices into LinkerInputs::Functions) that no
  /// startup profile counted, counted once by PlanOptions::
  /// PlaceLoadCodeAtStartup.
  std::vector<size_t> LoadCodeAtStartup;
};

/// Builds the ProfiledGraph of \p Inputs: one node per function, the
/// inputs' call-graph sections as a steady-state scenario "objects" (if
/// \p Options.UseObjectCallGraph), one scenario per profile of \p Scenarios,
/// and \p Options.EdgeLists as a scenario "edges". \returns an error naming
/// the file for unreadable profiles or edge lists.
llvm::Expected<ProfiledGraph>
buildProfiledGraph(const LinkerInputs &Inputs,
                   llvm::ArrayRef<ScenarioSpec> Scenarios,
                   const PlanOptions &Options);

/// The result of planning.
struct OrderPlan : ProfiledGraph {
  /// Indices into LinkerInputs::Functions, first to last.
  std::vector<size_t> Functions;
  /// The group of each entry of Functions (Hot for single algorithms).
  std::vector<layout::LayoutGroup> Groups;
  /// The composite's summary, for the Kiln algorithm.
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

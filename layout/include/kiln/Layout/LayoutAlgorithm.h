//===- kiln/Layout/LayoutAlgorithm.h - The ordering algorithms --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one entry point to Kiln's ordering algorithms, generated from the
/// registry LayoutAlgorithms.def: the OrderAlgorithm enum and its names, the
/// Subgraph that every graph algorithm orders (a set of nodes renumbered
/// densely, with their counts and the weighted calls between them), the
/// dispatch orderSubgraph, and orderCallGraph, which orders a whole call
/// graph with any algorithm. The composite, `kiln order`, kiln-lld and the
/// plugin's full-LTO layout all order through here.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_LAYOUTALGORITHM_H
#define KILN_LAYOUT_LAYOUTALGORITHM_H

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/PhaseTimes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::layout {

struct CompositeLayout;
struct CompositeLayoutConfig;

/// An ordering algorithm (see LayoutAlgorithms.def).
enum class OrderAlgorithm : uint8_t {
#define LAYOUT_ALGORITHM(Enum, Name, Description) Enum,
#include "kiln/Layout/LayoutAlgorithms.def"
};

/// Every OrderAlgorithm, in registry order.
llvm::ArrayRef<OrderAlgorithm> getOrderAlgorithms();
/// \returns the `--algorithm=` spelling of \p Algorithm.
llvm::StringRef getOrderAlgorithmName(OrderAlgorithm Algorithm);
/// \returns the one-line help text of \p Algorithm.
llvm::StringRef getOrderAlgorithmDescription(OrderAlgorithm Algorithm);
/// \returns the algorithm spelled \p Name, if any.
std::optional<OrderAlgorithm> findOrderAlgorithm(llvm::StringRef Name);
/// \returns the names of all algorithms, comma-separated ("kiln, c3, ...").
std::string listOrderAlgorithmNames();
/// \returns whether \p Algorithm orders a Subgraph (so it can order a group
/// of the composite), rather than the whole graph in its own way.
bool isGraphAlgorithm(OrderAlgorithm Algorithm);

/// A set of a call graph's nodes, renumbered densely in increasing node-id
/// order (local ids), with a count per node and the weighted calls between
/// members, one edge per pair, no zero counts. A graph algorithm sees only
/// this. Built by a SubgraphBuilder, valid while the builder lives and until
/// it builds the next one.
class Subgraph {
public:
  /// Local id -> graph node, increasing.
  std::vector<NodeId> Members;
  /// Per local id: the node's size and count.
  std::vector<uint64_t> Sizes;
  std::vector<uint64_t> Counts;

  size_t size() const { return Members.size(); }
  /// Calls \p Visit on each edge (local ids), in an unspecified order.
  void forEachEdge(llvm::function_ref<void(const Edge &)> Visit) const;
  /// \returns the edges forEachEdge visits, as an array.
  std::vector<Edge> getEdges() const;

private:
  friend class SubgraphBuilder;
  /// The edges, unless they are streamed from one scenario.
  std::vector<Edge> Edges;
  /// If not null, Edges is empty and the edges are this scenario's between
  /// members, renumbered through LocalIndex and scaled by the scenario's
  /// weight as they are read: millions of edges are not copied.
  const Scenario *Streamed = nullptr;
  llvm::ArrayRef<NodeId> LocalIndex;
};

/// Builds Subgraphs of one call graph, reusing one node -> local id index.
class SubgraphBuilder {
public:
  explicit SubgraphBuilder(const CallGraph &G);

  /// \returns the subgraph of \p Members (sorted by node id), each member
  /// counted by \p CountOf, with the calls of scenarios \p Scenarios merged
  /// as CallGraph::getWeightedEdges merges them. The previous subgraph of
  /// this builder is invalid from now on.
  Subgraph build(llvm::ArrayRef<NodeId> Members,
                 llvm::function_ref<uint64_t(NodeId)> CountOf,
                 llvm::ArrayRef<ScenarioId> Scenarios);

private:
  const CallGraph &G;
  /// NodeId -> local id of the last subgraph built, InvalidNode elsewhere.
  std::vector<NodeId> LocalIndex;
  /// The members of the last subgraph built (to reset LocalIndex).
  std::vector<NodeId> LastMembers;
};

/// Orders \p S with the graph algorithm \p Algorithm. \returns the members'
/// graph nodes in layout order.
std::vector<NodeId> orderSubgraph(OrderAlgorithm Algorithm, const Subgraph &S,
                                  const CompositeLayoutConfig &Config);

/// Orders \p G with \p Algorithm, timing its phases into \p Times if not
/// null: the composite for OrderAlgorithm::Kiln; balanced partitioning of
/// the startup scenarios' traces for Partitioning; for a graph algorithm,
/// the executed nodes (of any scenario) ordered over all scenarios' calls,
/// counts weighted. Single algorithms place every node in the hot group.
CompositeLayout orderCallGraph(const CallGraph &G, OrderAlgorithm Algorithm,
                               const CompositeLayoutConfig &Config,
                               PhaseTimes *Times = nullptr);

#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn)               \
  std::vector<NodeId> OrderFn(const Subgraph &S,                               \
                              const CompositeLayoutConfig &Config);
#include "kiln/Layout/LayoutAlgorithms.def"

} // namespace kiln::layout

#endif // KILN_LAYOUT_LAYOUTALGORITHM_H

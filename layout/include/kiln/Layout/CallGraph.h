//===- kiln/Layout/CallGraph.h - The profiled call graph --------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The input of Kiln's layout engine: functions (nodes) with sizes, and for
/// each profiling *scenario* (startup, steady state, ...) their execution
/// counts, the call edges with counts, and temporal traces (functions in
/// first-execution order). The engine knows nothing of where this came from:
/// adapters fill it from `.profdata`, sample profiles, object files'
/// call-graph sections or edge lists; no LLVM IR or lld type appears here.
///
/// Node names are opaque keys for the engine (the name mapper resolves them
/// to linker symbols). Everything is stored in insertion order and every
/// query is deterministic.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_CALLGRAPH_H
#define KILN_LAYOUT_CALLGRAPH_H

#include "kiln/Layout/NameIndex.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/CachedHashString.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::layout {

/// Index of a function in a CallGraph.
using NodeId = uint32_t;
/// Index of a scenario in a CallGraph.
using ScenarioId = uint32_t;

/// What a scenario's profile describes, which decides where its code goes.
enum class ScenarioKind {
  Startup,     ///< Code run while the program starts: placed first, together.
  SteadyState, ///< Code run while it works: ordered for cache/TLB locality.
};

/// \returns "startup" or "steady".
llvm::StringRef getScenarioKindName(ScenarioKind Kind);

/// A function. Its strings belong to the CallGraph (valid while it lives).
struct Node {
  llvm::StringRef Name;   ///< Key given by the adapter (profile or symbol).
  llvm::StringRef Origin; ///< Object, file or section it came from; may be "".
  uint64_t Size = 0;      ///< Code size in bytes; 0 when unknown.
};

/// A call edge with its count in one scenario.
struct Edge {
  NodeId Caller = 0;
  NodeId Callee = 0;
  uint64_t Count = 0;
};

/// Functions in the order a run first executed them (a temporal profile
/// trace), with the weight the trace carries.
struct Trace {
  std::vector<NodeId> Nodes;
  uint64_t Weight = 1;
};

/// One scenario's profile over the graph's nodes.
struct Scenario {
  std::string Name;
  ScenarioKind Kind = ScenarioKind::SteadyState;
  /// Relative importance when scenarios are combined (> 0).
  double Weight = 1.0;
  /// Execution count of each node (entry count or samples), indexed by
  /// NodeId; nodes added after the scenario read as 0.
  std::vector<uint64_t> Counts;
  /// Call edges, one per (caller, callee) pair, counts summed; in insertion
  /// order, or sorted by (caller, callee) after CallGraph::addEdges.
  std::vector<Edge> Edges;
  /// Temporal traces, in the order they were added.
  std::vector<Trace> Traces;
};

/// A weighted, directed graph of functions with per-scenario profiles.
class CallGraph {
public:
  CallGraph() = default;
  CallGraph(const CallGraph &) = delete;
  CallGraph &operator=(const CallGraph &) = delete;
  CallGraph(CallGraph &&) = default;
  CallGraph &operator=(CallGraph &&) = default;

  /// \returns the node named \p Name, adding it (with \p Size and \p Origin)
  /// if it does not exist. For an existing node a non-zero \p Size replaces
  /// an unknown (zero) size, and a non-empty \p Origin an empty one.
  NodeId getOrAddNode(llvm::StringRef Name, uint64_t Size = 0,
                      llvm::StringRef Origin = "");
  /// \returns the node named \p Name, or -1 cast to NodeId if there is none.
  NodeId findNode(llvm::StringRef Name) const;
  static constexpr NodeId InvalidNode = ~NodeId(0);

  /// Adds a scenario. \p Weight must satisfy isValidScenarioWeight
  /// (kiln/Layout/Counts.h).
  ScenarioId addScenario(llvm::StringRef Name, ScenarioKind Kind,
                         double Weight = 1.0);

  /// Adds \p Count to \p Node's execution count in scenario \p S
  /// (saturating, as every count sum of the graph).
  void addCount(ScenarioId S, NodeId Node, uint64_t Count);
  /// Adds \p Count to the edge \p Caller -> \p Callee in scenario \p S
  /// (one edge per pair; self-calls are kept: they matter to no layout but
  /// are part of the profile).
  void addEdge(ScenarioId S, NodeId Caller, NodeId Callee, uint64_t Count);
  /// Adds many edges at once, with addEdge's meaning, in O(E + N) without
  /// per-edge hashing: the way to load millions of edges. The scenario's
  /// edges are left sorted by (caller, callee).
  void addEdges(ScenarioId S, llvm::ArrayRef<Edge> NewEdges);
  /// As addEdges, for edges whose endpoints are indices into \p NodeOf,
  /// which maps them to nodes; an edge with an endpoint mapped to
  /// InvalidNode is left out. Spares the caller a renumbered copy of
  /// millions of edges.
  void addEdges(ScenarioId S, llvm::ArrayRef<Edge> NewEdges,
                llvm::ArrayRef<NodeId> NodeOf);
  /// Makes room for \p N nodes in all: when the number is known, this
  /// spares growing the node table and the name index step by step.
  void reserveNodes(size_t N);
  /// Appends a temporal trace to scenario \p S.
  void addTrace(ScenarioId S, Trace T);

  size_t getNumNodes() const { return Nodes.size(); }
  size_t getNumScenarios() const { return Scenarios.size(); }
  const Node &getNode(NodeId N) const { return Nodes[N]; }
  Node &getNode(NodeId N) { return Nodes[N]; }
  const std::vector<Node> &getNodes() const { return Nodes; }
  const Scenario &getScenario(ScenarioId S) const { return Scenarios[S]; }
  const std::vector<Scenario> &getScenarios() const { return Scenarios; }

  /// \returns \p Node's count in scenario \p S (0 if never counted).
  uint64_t getCount(ScenarioId S, NodeId Node) const;
  /// \returns the sum over scenarios of Weight x count (each scenario's
  /// share rounded down; saturating: see kiln/Layout/Counts.h).
  uint64_t getWeightedCount(NodeId Node) const;
  /// \returns the edges of the scenarios \p Selected (all by default)
  /// merged, one per (caller, callee) pair, each scenario's count scaled by
  /// its weight and the shares summed as getWeightedCount does, sorted by
  /// (caller, callee): independent of the order of the scenarios.
  std::vector<Edge> getWeightedEdges() const;
  std::vector<Edge> getWeightedEdges(llvm::ArrayRef<ScenarioId> Selected) const;
  /// Calls \p Visit on each edge getWeightedEdges returns, in its order,
  /// without building the list when a single scenario's edges are it
  /// already (as addEdges leaves them).
  void forEachWeightedEdge(llvm::function_ref<void(const Edge &)> Visit) const;
  void forEachWeightedEdge(llvm::ArrayRef<ScenarioId> Selected,
                           llvm::function_ref<void(const Edge &)> Visit) const;
  /// As getWeightedEdges(\p Selected), of the edges between nodes that
  /// \p Renumber maps to an id below \p NumIds (rather than InvalidNode),
  /// renumbered by it; an empty \p Renumber keeps node ids.
  std::vector<Edge> getWeightedEdgesWithin(llvm::ArrayRef<ScenarioId> Selected,
                                           llvm::ArrayRef<NodeId> Renumber,
                                           size_t NumIds) const;
  /// \returns the ids of every scenario, in order.
  std::vector<ScenarioId> getAllScenarioIds() const;
  /// \returns, per node, whether it was executed in scenario \p S: a
  /// non-zero count, an edge with a non-zero count touching it, or a trace
  /// entry. Linear in the scenario's size.
  llvm::BitVector getExecuted(ScenarioId S) const;

private:
  /// \returns a copy of \p S owned by the graph; origins, which many nodes
  /// share, are stored once.
  llvm::StringRef saveName(llvm::StringRef S);
  llvm::StringRef saveOrigin(llvm::StringRef S);
  template <typename MapT>
  void addMappedEdges(ScenarioId S, llvm::ArrayRef<Edge> NewEdges, MapT Map);
  std::vector<Edge>
  mergeWeightedEdges(llvm::ArrayRef<ScenarioId> Selected) const;

  std::vector<Node> Nodes;
  /// Holds the bytes of node names and origins: one allocation per slab
  /// rather than per string, and nodes stay small.
  llvm::BumpPtrAllocator Strings;
  /// Node names -> nodes.
  NameIndex NodeByName;
  /// The distinct origins, in Strings.
  llvm::DenseSet<llvm::CachedHashStringRef> Origins;
  /// The origin saved last (in Strings).
  llvm::StringRef LastOrigin;
  std::vector<Scenario> Scenarios;
  /// Per scenario: (caller, callee) -> index into Scenario::Edges. Built on
  /// the first addEdge after a bulk addEdges, which does not keep it.
  std::vector<llvm::DenseMap<std::pair<NodeId, NodeId>, size_t>> EdgeIndex;
  /// Per scenario: EdgeIndex indexes every edge.
  std::vector<bool> EdgeIndexValid;
};

/// \returns \p Edges without self-calls and zero counts, one edge per
/// (caller, callee) pair with counts summed (saturating), sorted by
/// (caller, callee): the form in which the layout algorithms hand edges to
/// LLVM, whatever order they were listed in.
std::vector<Edge> normalizeEdges(llvm::ArrayRef<Edge> Edges);

} // namespace kiln::layout

#endif // KILN_LAYOUT_CALLGRAPH_H

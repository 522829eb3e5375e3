//===- kiln/Layout/CompositeLayout.h - Kiln's function layout ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's layout of a whole program: four contiguous groups, each ordered by
/// the algorithm that suits it.
///
/// 1. *Startup*: every node executed in a Startup scenario. Ordered by
///    balanced partitioning of the startup traces (Hoag et al., LCTES 2023)
///    when there are at least MinTracesForPartitioning of them, by first
///    execution when there are fewer, and by StartupAlgorithm over the
///    startup calls when there are none; startup nodes that no trace names
///    follow the traced ones, ordered by StartupAlgorithm. The startup nodes
///    the steady state runs too close the group, ordered like the hot group
///    (HotStartupCodeLast) and, unless the traces are partitioned, its warm
///    ones before them, ordered like the warm group (WarmStartupCodeLast):
///    the steady state then runs through one range from them to the warm
///    group.
/// 2. *Hot*: nodes executed in a steady-state scenario, not at startup,
///    whose heat reaches the hot threshold. Heat is the steady-state
///    weighted count, raised to the weighted incoming or outgoing call count
///    if larger (as cdsort does); the threshold is derived like LLVM's
///    profile summary: the heat of the hottest nodes that together cover
///    HotCutoff parts per million of the total heat of all steady-state
///    nodes (startup ones included: it is a property of the program, not of
///    the group). Ordered by
///    HotAlgorithm (cdsort, Newell and Pupyrev, by default) over
///    steady-state calls.
/// 3. *Warm*: the other executed nodes, ordered by WarmAlgorithm (C3,
///    Ottoni and Maher, CGO 2017, by default) over steady-state calls.
/// 4. *Cold*: never executed; omitted ("left to the linker") or placed last
///    in node-id order.
///
/// The page size shapes the models: with FitModelsToPageSize, C3 clusters
/// are limited to one page and cdsort's cache model uses page-sized lines,
/// so both optimise for the page the program will be mapped with; the
/// result also reports how many pages each group spans.
///
/// Scale: LLVM's cdsort grows about quadratically with the graph (on random
/// graphs with five calls per function: 1 s for 10,000 functions, 70 s for
/// 100,000 on this project's build machine), so it only ever sees the
/// MaxCDSortNodes hottest nodes of a group; the rest of the group follows,
/// ordered by C3, and the result says so. C3 (about O(E + N)),
/// Pettis-Hansen (O(E log E)) and balanced partitioning (O(M log^2 N) for M
/// utility-node entries) scale near-linearly.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_COMPOSITELAYOUT_H
#define KILN_LAYOUT_COMPOSITELAYOUT_H

#include "kiln/Layout/CallChainClustering.h"
#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/LayoutAlgorithm.h"
#include "kiln/Layout/PettisHansen.h"
#include "kiln/Layout/PhaseTimes.h"
#include "kiln/Layout/TracePartitioning.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Transforms/Utils/CodeLayout.h"

#include <array>
#include <cstdint>
#include <vector>

namespace kiln::layout {

/// The group a placed node belongs to, in layout order.
enum class LayoutGroup : uint8_t { Startup, Hot, Warm, Cold };
/// The number of LayoutGroup values.
inline constexpr unsigned NumLayoutGroups = 4;

/// \returns "startup", "hot", "warm" or "cold".
llvm::StringRef getLayoutGroupName(LayoutGroup Group);

/// How a group was actually ordered: by a graph algorithm of the registry
/// (LayoutAlgorithms.def), or one of the composite's own methods.
enum class OrderMethod : uint8_t {
  None,           ///< The group is empty or omitted.
  Partitioning,   ///< Balanced partitioning of traces.
  FirstExecution, ///< First-execution order of traces.
  ById,           ///< Increasing node id (cold code).
#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn) Enum,
#include "kiln/Layout/LayoutAlgorithms.def"
};

/// \returns the method that records \p Algorithm (not Kiln: the composite
/// is several methods).
OrderMethod getOrderMethod(OrderAlgorithm Algorithm);

/// \returns the lower-case name of \p Method ("partitioning", "c3", ...).
llvm::StringRef getOrderMethodName(OrderMethod Method);

/// Tunables of the composite layout.
struct CompositeLayoutConfig {
  /// Bytes per page of the target mapping: 4096, 16384, 65536 or 2 MiB are
  /// typical; a power of two.
  uint64_t PageSize = 4096;
  /// Hot nodes cover this many parts per million of the total steady-state
  /// heat (LLVM's profile summary calls 990000 hot).
  uint32_t HotCutoff = 990000;
  /// Orders startup nodes without traces. The group algorithms must be
  /// graph algorithms (isGraphAlgorithm).
  OrderAlgorithm StartupAlgorithm = OrderAlgorithm::C3;
  /// Orders the hot group.
  OrderAlgorithm HotAlgorithm = OrderAlgorithm::CDSort;
  /// Orders the warm group.
  OrderAlgorithm WarmAlgorithm = OrderAlgorithm::C3;
  /// cdsort orders at most this many nodes of a group, the hottest (by heat,
  /// then node id); the others follow, ordered by C3.
  uint64_t MaxCDSortNodes = 2048;
  /// With fewer startup traces than this, first-execution order replaces
  /// balanced partitioning (one trace has nothing to balance).
  unsigned MinTracesForPartitioning = 2;
  /// Balanced partitioning orders at most this many traced nodes, the first
  /// executed; the others follow in first-execution order (partitioning
  /// takes about 2 s for 200,000 nodes and 11 s for 1,000,000).
  uint64_t MaxPartitioningNodes = 100000;
  /// A startup node that is hot in the steady state goes to the hot group
  /// (ordered for locality, right after the startup group) instead of the
  /// startup group. Off by default: measured, it lowered I1 misses on zstd
  /// (whose startup and steady state share their hot code) but spread the
  /// sample application's startup over 21% more pages (docs/benchmarks.md).
  bool HotStartupCodeGoesHot = false;
  /// Otherwise, startup nodes that are hot in the steady state close the
  /// startup group, ordered like the hot group (HotAlgorithm, steady-state
  /// profile), so that the hot code of both groups is one region in front
  /// of the cache. Startup still runs through the same contiguous range of
  /// the same nodes: its page count does not change.
  bool HotStartupCodeLast = true;
  /// Likewise, startup nodes that the steady state runs below the hot
  /// threshold (its warm code: parsers, planners, setup run once per request)
  /// come right before those, ordered like the warm group (WarmAlgorithm,
  /// steady-state profile), instead of among the code only startup runs.
  /// The steady state then runs through one range from them to the warm
  /// group, not through lines and pages it shares with startup-only code.
  /// Startup runs the same nodes through the same range: its page count does
  /// not change. Needs HotStartupCodeLast. Not when the startup traces are
  /// partitioned (MinTracesForPartitioning or more): then each trace's pages
  /// are what the partitioning minimizes, and the warm code stays with it.
  bool WarmStartupCodeLast = true;
  /// Place never-executed nodes last, or leave them out of the order.
  bool PlaceColdNodes = false;
  /// Replace C3.MaxClusterSize and CDSort.CacheSize by PageSize.
  bool FitModelsToPageSize = true;
  C3Config C3;
  llvm::codelayout::CDSortConfig CDSort;
  PettisHansenConfig PettisHansen;
  TracePartitioningConfig Partitioning;
};

/// A node of the layout and the group that placed it.
struct PlacedNode {
  NodeId Node = 0;
  LayoutGroup Group = LayoutGroup::Cold;

  bool operator==(const PlacedNode &O) const {
    return Node == O.Node && Group == O.Group;
  }
};

/// A run of consecutive nodes of a group, ordered by one method.
struct GroupSegment {
  OrderMethod Method = OrderMethod::None;
  uint64_t NumNodes = 0;

  bool operator==(const GroupSegment &O) const {
    return Method == O.Method && NumNodes == O.NumNodes;
  }
};

/// What the composite did for one group. NumNodes and Bytes count the
/// group's nodes even when the group is omitted (cold code left to the
/// linker).
struct GroupSummary {
  /// The group's main method: that of its first segment (None if empty).
  OrderMethod Method = OrderMethod::None;
  /// The group in layout order is the concatenation of these segments: one
  /// for a plainly ordered group; more when a method had to stop (traced
  /// startup nodes beyond MaxPartitioningNodes, hot nodes beyond
  /// MaxCDSortNodes) or did not apply (startup nodes no trace names).
  /// Empty for an empty or omitted group.
  std::vector<GroupSegment> Segments;
  uint64_t NumNodes = 0;
  /// Sum of the nodes' sizes.
  uint64_t Bytes = 0;
  /// Pages the group spans when all groups are laid out contiguously from
  /// address 0 (shared boundary pages count for both groups).
  uint64_t Pages = 0;
};

/// The composite layout of a call graph.
struct CompositeLayout {
  /// The placed nodes, startup first, then hot, warm and cold.
  std::vector<PlacedNode> Order;
  /// The heat at or above which a steady-state node is hot.
  uint64_t HotThreshold = 0;
  /// Indexed by LayoutGroup.
  std::array<GroupSummary, NumLayoutGroups> Groups;

  /// \returns the node ids of Order.
  std::vector<NodeId> getNodeOrder() const;
  /// \returns the summary of group \p G.
  const GroupSummary &getGroup(LayoutGroup G) const {
    return Groups[unsigned(G)];
  }
};

/// Computes Kiln's layout of \p G, timing its phases into \p Times if not
/// null.
/// \returns every executed node once (and the cold ones with
/// PlaceColdNodes), independent of thread count and hash seeds.
CompositeLayout computeCompositeLayout(
    const CallGraph &G,
    const CompositeLayoutConfig &Config = CompositeLayoutConfig(),
    PhaseTimes *Times = nullptr);

/// \returns the hot threshold of \p Heat: the smallest heat among the
/// hottest nodes that together reach \p Cutoff parts per million of the
/// total (0 if all heats are 0). Exact integer arithmetic, as LLVM's
/// ProfileSummaryBuilder.
uint64_t computeHotThreshold(llvm::ArrayRef<uint64_t> Heat, uint32_t Cutoff);

} // namespace kiln::layout

#endif // KILN_LAYOUT_COMPOSITELAYOUT_H

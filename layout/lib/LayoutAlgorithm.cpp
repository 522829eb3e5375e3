//===- LayoutAlgorithm.cpp - The ordering algorithm registry --------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/LayoutAlgorithm.h"

#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Layout/Counts.h"
#include "kiln/Layout/TracePartitioning.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <cassert>

using namespace llvm;
using namespace kiln::layout;

namespace {
struct AlgorithmInfo {
  OrderAlgorithm Algorithm;
  StringRef Name;
  StringRef Description;
  bool OrdersSubgraphs;
};
} // namespace

static constexpr AlgorithmInfo Registry[] = {
#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn)               \
  {OrderAlgorithm::Enum, Name, Description, true},
#define WHOLE_GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description)                  \
  {OrderAlgorithm::Enum, Name, Description, false},
#include "kiln/Layout/LayoutAlgorithms.def"
};

static const AlgorithmInfo &getInfo(OrderAlgorithm Algorithm) {
  assert(size_t(Algorithm) < std::size(Registry) &&
         Registry[size_t(Algorithm)].Algorithm == Algorithm &&
         "the registry lists every algorithm in enum order");
  return Registry[size_t(Algorithm)];
}

ArrayRef<OrderAlgorithm> kiln::layout::getOrderAlgorithms() {
  static constexpr OrderAlgorithm All[] = {
#define LAYOUT_ALGORITHM(Enum, Name, Description) OrderAlgorithm::Enum,
#include "kiln/Layout/LayoutAlgorithms.def"
  };
  return All;
}

StringRef kiln::layout::getOrderAlgorithmName(OrderAlgorithm Algorithm) {
  return getInfo(Algorithm).Name;
}

StringRef kiln::layout::getOrderAlgorithmDescription(OrderAlgorithm Algorithm) {
  return getInfo(Algorithm).Description;
}

std::optional<OrderAlgorithm> kiln::layout::findOrderAlgorithm(StringRef Name) {
  for (const AlgorithmInfo &Info : Registry)
    if (Info.Name == Name)
      return Info.Algorithm;
  return std::nullopt;
}

std::string kiln::layout::listOrderAlgorithmNames() {
  std::string List;
  for (const AlgorithmInfo &Info : Registry)
    List += (List.empty() ? "" : ", ") + Info.Name.str();
  return List;
}

bool kiln::layout::isGraphAlgorithm(OrderAlgorithm Algorithm) {
  return getInfo(Algorithm).OrdersSubgraphs;
}

//===----------------------------------------------------------------------===//
// Subgraphs
//===----------------------------------------------------------------------===//

void Subgraph::forEachEdge(function_ref<void(const Edge &)> Visit) const {
  if (!Streamed) {
    for (const Edge &E : Edges)
      Visit(E);
    return;
  }
  // A scenario's pairs are unique already; only members' calls count.
  for (const Edge &E : Streamed->Edges) {
    NodeId From = LocalIndex[E.Caller], To = LocalIndex[E.Callee];
    if (From == CallGraph::InvalidNode || To == CallGraph::InvalidNode)
      continue;
    if (uint64_t C = scaleCount(E.Count, Streamed->Weight))
      Visit(Edge{From, To, C});
  }
}

std::vector<Edge> Subgraph::getEdges() const {
  if (!Streamed)
    return Edges;
  // Counting first sizes the array once.
  size_t Count = 0;
  forEachEdge([&](const Edge &) { ++Count; });
  std::vector<Edge> Result;
  Result.reserve(Count);
  forEachEdge([&](const Edge &E) { Result.push_back(E); });
  return Result;
}

SubgraphBuilder::SubgraphBuilder(const CallGraph &G) : G(G) {
  LocalIndex.assign(G.getNumNodes(), CallGraph::InvalidNode);
}

Subgraph SubgraphBuilder::build(ArrayRef<NodeId> Members,
                                function_ref<uint64_t(NodeId)> CountOf,
                                ArrayRef<ScenarioId> Scenarios) {
  assert(llvm::is_sorted(Members) && "members must be sorted");
  for (NodeId N : LastMembers)
    LocalIndex[N] = CallGraph::InvalidNode;
  LastMembers.assign(Members.begin(), Members.end());

  Subgraph S;
  S.Members.assign(Members.begin(), Members.end());
  S.Sizes.reserve(Members.size());
  S.Counts.reserve(Members.size());
  for (NodeId I = 0; I < Members.size(); ++I) {
    NodeId N = Members[I];
    LocalIndex[N] = I;
    S.Sizes.push_back(G.getNode(N).Size);
    S.Counts.push_back(CountOf(N));
  }
  if (Scenarios.size() == 1) {
    S.Streamed = &G.getScenario(Scenarios.front());
    S.LocalIndex = LocalIndex;
    return S;
  }
  S.Edges = G.getWeightedEdgesWithin(Scenarios, LocalIndex, Members.size());
  llvm::erase_if(S.Edges, [](const Edge &E) { return E.Count == 0; });
  return S;
}

std::vector<NodeId>
kiln::layout::orderSubgraph(OrderAlgorithm Algorithm, const Subgraph &S,
                            const CompositeLayoutConfig &Config) {
  std::vector<NodeId> Local;
  switch (Algorithm) {
#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn)               \
  case OrderAlgorithm::Enum:                                                   \
    Local = OrderFn(S, Config);                                                \
    break;
#define WHOLE_GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description)                  \
  case OrderAlgorithm::Enum:                                                   \
    llvm_unreachable("not a graph algorithm: it orders whole graphs");
#include "kiln/Layout/LayoutAlgorithms.def"
  }
  assert(Local.size() == S.size() && "an algorithm lost or duplicated a node");
  for (NodeId &N : Local)
    N = S.Members[N];
  return Local;
}

//===----------------------------------------------------------------------===//
// Whole graphs
//===----------------------------------------------------------------------===//

// Balanced partitioning of the startup scenarios' traces (what lld's
// --bp-startup-sort=function does with a temporal profile).
static std::vector<NodeId>
partitionStartupTraces(const CallGraph &G,
                       const CompositeLayoutConfig &Config) {
  std::vector<Trace> Traces;
  for (const Scenario &S : G.getScenarios())
    if (S.Kind == ScenarioKind::Startup)
      append_range(Traces, S.Traces);
  return computeTracePartitioningOrder(makeTraceRefs(Traces),
                                       Config.Partitioning);
}

// The executed part of the graph (code that never ran is left to the
// linker), ordered over all scenarios' calls.
static std::vector<NodeId>
orderExecutedNodes(const CallGraph &G, OrderAlgorithm Algorithm,
                   const CompositeLayoutConfig &Config, PhaseTimes *Times) {
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Times, "subgraph");
  BitVector Executed(G.getNumNodes());
  for (ScenarioId S = 0; S < G.getNumScenarios(); ++S)
    Executed |= G.getExecuted(S);
  std::vector<NodeId> Members;
  for (unsigned N : Executed.set_bits())
    Members.push_back(N);
  SubgraphBuilder Builder(G);
  Subgraph S = Builder.build(
      Members, [&](NodeId N) { return G.getWeightedCount(N); },
      G.getAllScenarioIds());
  Phase.emplace(Times, getOrderAlgorithmName(Algorithm));
  return orderSubgraph(Algorithm, S, Config);
}

CompositeLayout
kiln::layout::orderCallGraph(const CallGraph &G, OrderAlgorithm Algorithm,
                             const CompositeLayoutConfig &Config,
                             PhaseTimes *Times) {
  if (Algorithm == OrderAlgorithm::Kiln)
    return computeCompositeLayout(G, Config, Times);
  std::vector<NodeId> Nodes =
      Algorithm == OrderAlgorithm::Partitioning
          ? partitionStartupTraces(G, Config)
          : orderExecutedNodes(G, Algorithm, Config, Times);
  CompositeLayout Result;
  GroupSummary &Hot = Result.Groups[unsigned(LayoutGroup::Hot)];
  Hot.NumNodes = Nodes.size();
  for (NodeId N : Nodes) {
    Result.Order.push_back(PlacedNode{N, LayoutGroup::Hot});
    Hot.Bytes += G.getNode(N).Size;
  }
  if (!Nodes.empty()) {
    Hot.Method = getOrderMethod(Algorithm);
    Hot.Segments.push_back({Hot.Method, Hot.NumNodes});
    Hot.Pages = divideCeil(Hot.Bytes, Config.PageSize);
  }
  return Result;
}

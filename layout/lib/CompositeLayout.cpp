//===- CompositeLayout.cpp - Kiln's function layout -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The composite layout: classify nodes into startup / hot / warm / cold,
/// then order each group with balanced partitioning of traces (Hoag et al.,
/// LCTES 2023), cdsort (Newell and Pupyrev, IEEE TC 2020), C3 (Ottoni and
/// Maher, CGO 2017) or Pettis-Hansen (PLDI 1990) over the group's own
/// subgraph. Each group's subgraph is renumbered densely, so the algorithms
/// only ever see the nodes they order.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CompositeLayout.h"

#include "kiln/Layout/Counts.h"

#include "RadixSort.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <optional>
#include <tuple>

using namespace llvm;
using namespace kiln::layout;

StringRef kiln::layout::getLayoutGroupName(LayoutGroup Group) {
  switch (Group) {
  case LayoutGroup::Startup:
    return "startup";
  case LayoutGroup::Hot:
    return "hot";
  case LayoutGroup::Warm:
    return "warm";
  case LayoutGroup::Cold:
    return "cold";
  }
  llvm_unreachable("unknown LayoutGroup");
}

StringRef kiln::layout::getOrderMethodName(OrderMethod Method) {
  switch (Method) {
  case OrderMethod::None:
    return "none";
  case OrderMethod::Partitioning:
    return "partitioning";
  case OrderMethod::FirstExecution:
    return "first-execution";
  case OrderMethod::ById:
    return "by-id";
#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn)               \
  case OrderMethod::Enum:                                                      \
    return Name;
#include "kiln/Layout/LayoutAlgorithms.def"
  }
  llvm_unreachable("unknown OrderMethod");
}

OrderMethod kiln::layout::getOrderMethod(OrderAlgorithm Algorithm) {
  switch (Algorithm) {
#define GRAPH_LAYOUT_ALGORITHM(Enum, Name, Description, OrderFn)               \
  case OrderAlgorithm::Enum:                                                   \
    return OrderMethod::Enum;
#include "kiln/Layout/LayoutAlgorithms.def"
  case OrderAlgorithm::Partitioning:
    return OrderMethod::Partitioning;
  case OrderAlgorithm::Kiln:
    break;
  }
  llvm_unreachable("the composite is not one method");
}

std::vector<NodeId> CompositeLayout::getNodeOrder() const {
  std::vector<NodeId> Nodes;
  Nodes.reserve(Order.size());
  for (const PlacedNode &P : Order)
    Nodes.push_back(P.Node);
  return Nodes;
}

uint64_t kiln::layout::computeHotThreshold(ArrayRef<uint64_t> Heat,
                                           uint32_t Cutoff) {
  constexpr uint32_t Scale = 1000000;
  assert(Cutoff <= Scale && "cutoff is in parts per million");
  std::vector<uint64_t> Sorted;
  APInt Total(128, 0);
  for (uint64_t H : Heat) {
    if (H == 0)
      continue;
    Sorted.push_back(H);
    Total += H;
  }
  if (Sorted.empty())
    return 0;
  radixSortDescending(Sorted); // Hottest first.
  APInt Desired = (Total * APInt(128, Cutoff)).udiv(APInt(128, Scale));
  APInt Sum(128, 0);
  for (uint64_t H : Sorted) {
    Sum += H;
    if (Sum.uge(Desired))
      return H;
  }
  return Sorted.back();
}

namespace {
/// The profile of one scenario kind, accumulated over its scenarios with
/// their weights.
struct KindProfile {
  /// Per node: executed in some scenario of the kind.
  BitVector Executed;
  /// Per node: max(weighted count, weighted incoming calls, weighted
  /// outgoing calls), self-calls excluded. Empty if no scenario is of the
  /// kind (then no node is executed in it, and none has a heat to read).
  std::vector<uint64_t> Heat;
  /// The scenarios of the kind.
  std::vector<ScenarioId> Scenarios;
};

/// Builds and orders the groups.
class CompositeBuilder {
public:
  CompositeBuilder(const CallGraph &G, const CompositeLayoutConfig &Config,
                   PhaseTimes *Times);
  CompositeLayout run();

private:
  KindProfile collectProfile(ScenarioKind Kind) const;
  std::vector<NodeId> orderNodes(ArrayRef<NodeId> Members, const KindProfile &P,
                                 OrderAlgorithm Alg);
  std::vector<NodeId> orderGroup(ArrayRef<NodeId> Members, const KindProfile &P,
                                 OrderAlgorithm Alg, GroupSummary &Summary);
  bool partitions(size_t NumTraces) const;
  std::vector<NodeId> partitionTraces(ArrayRef<TraceRef> Traces,
                                      GroupSummary &Summary) const;
  std::vector<NodeId> orderStartup(ArrayRef<NodeId> Members,
                                   GroupSummary &Summary);
  void place(ArrayRef<NodeId> Nodes, LayoutGroup Group);

  const CallGraph &G;
  CompositeLayoutConfig Config;
  PhaseTimes *Times;
  KindProfile Startup;
  KindProfile Steady;
  SubgraphBuilder Subgraphs;
  CompositeLayout Result;
  uint64_t NextAddress = 0;
};
} // namespace

CompositeBuilder::CompositeBuilder(const CallGraph &G,
                                   const CompositeLayoutConfig &Config,
                                   PhaseTimes *Times)
    : G(G), Config(Config), Times(Times), Subgraphs(G) {
  assert(isPowerOf2_64(Config.PageSize) && "page size must be a power of two");
  if (Config.FitModelsToPageSize) {
    this->Config.C3.MaxClusterSize = Config.PageSize;
    this->Config.CDSort.CacheSize = unsigned(std::min<uint64_t>(
        Config.PageSize, std::numeric_limits<unsigned>::max()));
  }
}

KindProfile CompositeBuilder::collectProfile(ScenarioKind Kind) const {
  const size_t N = G.getNumNodes();
  KindProfile P;
  P.Executed.resize(N);
  for (ScenarioId S = 0; S < G.getNumScenarios(); ++S)
    if (G.getScenario(S).Kind == Kind)
      P.Scenarios.push_back(S);
  if (P.Scenarios.empty())
    return P; // Nothing executed: no heat to sum (or read).
  std::vector<uint64_t> Count(N, 0), In(N, 0), Out(N, 0);
  for (ScenarioId S : P.Scenarios) {
    const Scenario &Sc = G.getScenario(S);
    P.Executed |= G.getExecuted(S);
    for (NodeId I = 0; I < Sc.Counts.size(); ++I)
      Count[I] = addCounts(Count[I], scaleCount(Sc.Counts[I], Sc.Weight));
    for (const Edge &E : Sc.Edges) {
      if (E.Caller == E.Callee)
        continue;
      uint64_t C = scaleCount(E.Count, Sc.Weight);
      In[E.Callee] = addCounts(In[E.Callee], C);
      Out[E.Caller] = addCounts(Out[E.Caller], C);
    }
  }
  P.Heat.resize(N);
  for (size_t I = 0; I < N; ++I)
    P.Heat[I] = std::max({Count[I], In[I], Out[I]});
  return P;
}

// Orders Members (sorted by id) with Alg over their own calls.
std::vector<NodeId> CompositeBuilder::orderNodes(ArrayRef<NodeId> Members,
                                                 const KindProfile &P,
                                                 OrderAlgorithm Alg) {
  if (Members.empty())
    return {};
  assert(isGraphAlgorithm(Alg) && "a group needs a graph algorithm");
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Times, "subgraph");
  Subgraph S = Subgraphs.build(
      Members, [&](NodeId N) { return P.Heat[N]; }, P.Scenarios);
  Phase.emplace(Times, getOrderAlgorithmName(Alg));
  return orderSubgraph(Alg, S, Config);
}

std::vector<NodeId> CompositeBuilder::orderGroup(ArrayRef<NodeId> Members,
                                                 const KindProfile &P,
                                                 OrderAlgorithm Alg,
                                                 GroupSummary &Summary) {
  if (Members.empty())
    return {};
  if (Alg == OrderAlgorithm::CDSort && Config.MaxCDSortNodes == 0)
    Alg = OrderAlgorithm::C3;
  if (Alg != OrderAlgorithm::CDSort ||
      Members.size() <= Config.MaxCDSortNodes) {
    Summary.Segments.push_back({getOrderMethod(Alg), Members.size()});
    return orderNodes(Members, P, Alg);
  }

  // Too big for cdsort: its hottest nodes (then smallest ids) get cdsort,
  // the rest follow, ordered by C3.
  std::vector<NodeId> ByHeat(Members.begin(), Members.end());
  auto Hotter = [&](NodeId L, NodeId R) {
    return std::make_pair(P.Heat[R], L) < std::make_pair(P.Heat[L], R);
  };
  auto Mid = ByHeat.begin() + Config.MaxCDSortNodes;
  std::nth_element(ByHeat.begin(), Mid, ByHeat.end(), Hotter);
  // Split Members, which are sorted, rather than sorting both parts.
  BitVector InHead(G.getNumNodes());
  for (auto It = ByHeat.begin(); It != Mid; ++It)
    InHead.set(*It);
  std::vector<NodeId>().swap(ByHeat);
  std::vector<NodeId> Head, Tail;
  Head.reserve(Config.MaxCDSortNodes);
  Tail.reserve(Members.size() - Config.MaxCDSortNodes);
  for (NodeId N : Members)
    (InHead.test(N) ? Head : Tail).push_back(N);
  Summary.Segments.push_back({OrderMethod::CDSort, Head.size()});
  Summary.Segments.push_back({OrderMethod::C3, Tail.size()});
  std::vector<NodeId> Order = orderNodes(Head, P, OrderAlgorithm::CDSort);
  llvm::append_range(Order, orderNodes(Tail, P, OrderAlgorithm::C3));
  return Order;
}

// Whether balanced partitioning orders this many startup traces (else first
// execution does).
bool CompositeBuilder::partitions(size_t NumTraces) const {
  return NumTraces >= Config.MinTracesForPartitioning &&
         Config.MaxPartitioningNodes > 0;
}

std::vector<NodeId>
CompositeBuilder::partitionTraces(ArrayRef<TraceRef> Traces,
                                  GroupSummary &Summary) const {
  std::vector<NodeId> FirstExecution = computeFirstExecutionOrder(Traces);
  if (!partitions(Traces.size())) {
    Summary.Segments.push_back(
        {OrderMethod::FirstExecution, FirstExecution.size()});
    return FirstExecution;
  }
  if (FirstExecution.size() <= Config.MaxPartitioningNodes) {
    Summary.Segments.push_back(
        {OrderMethod::Partitioning, FirstExecution.size()});
    return computeTracePartitioningOrder(Traces, Config.Partitioning);
  }

  // Too many for partitioning: it orders the first executed nodes, within
  // the traces cut down to them; the rest follow by first execution.
  const size_t Head = Config.MaxPartitioningNodes;
  BitVector InHead(G.getNumNodes());
  for (size_t I = 0; I < Head; ++I)
    InHead.set(FirstExecution[I]);
  std::vector<std::vector<NodeId>> Cut(Traces.size());
  std::vector<TraceRef> CutRefs;
  for (size_t T = 0; T < Traces.size(); ++T) {
    for (NodeId N : Traces[T].Nodes)
      if (InHead.test(N))
        Cut[T].push_back(N);
    CutRefs.push_back(TraceRef{Cut[T], Traces[T].Weight});
  }
  std::vector<NodeId> Order =
      computeTracePartitioningOrder(CutRefs, Config.Partitioning);
  assert(Order.size() == Head && "partitioning lost or duplicated a node");
  Order.insert(Order.end(), FirstExecution.begin() + Head,
               FirstExecution.end());
  Summary.Segments.push_back({OrderMethod::Partitioning, Head});
  Summary.Segments.push_back(
      {OrderMethod::FirstExecution, FirstExecution.size() - Head});
  return Order;
}

std::vector<NodeId> CompositeBuilder::orderStartup(ArrayRef<NodeId> Members,
                                                   GroupSummary &Summary) {
  // Traces restricted to the group: a traced node may belong to another
  // group (startup code that is hot in the steady state).
  BitVector IsMember(G.getNumNodes());
  for (NodeId N : Members)
    IsMember.set(N);
  std::vector<std::vector<NodeId>> Kept;
  std::vector<double> Weights;
  for (ScenarioId Id : Startup.Scenarios) {
    const Scenario &Sc = G.getScenario(Id);
    for (const Trace &T : Sc.Traces) {
      std::vector<NodeId> Nodes;
      for (NodeId N : T.Nodes)
        if (IsMember.test(N))
          Nodes.push_back(N);
      if (Nodes.empty())
        continue;
      Kept.push_back(std::move(Nodes));
      Weights.push_back(double(T.Weight) * Sc.Weight);
    }
  }
  std::vector<TraceRef> Traces;
  for (size_t I = 0; I < Kept.size(); ++I)
    Traces.push_back(TraceRef{Kept[I], Weights[I]});
  if (Traces.empty())
    return orderGroup(Members, Startup, Config.StartupAlgorithm, Summary);
  std::vector<NodeId> Order = partitionTraces(Traces, Summary);

  // Startup nodes no trace names (counted or called only) follow.
  BitVector Traced(G.getNumNodes());
  for (NodeId N : Order)
    Traced.set(N);
  std::vector<NodeId> Rest;
  for (NodeId N : Members)
    if (!Traced.test(N))
      Rest.push_back(N);
  llvm::append_range(
      Order, orderGroup(Rest, Startup, Config.StartupAlgorithm, Summary));
  return Order;
}

void CompositeBuilder::place(ArrayRef<NodeId> Nodes, LayoutGroup Group) {
  GroupSummary &Summary = Result.Groups[unsigned(Group)];
  Summary.NumNodes = Nodes.size();
  const uint64_t Start = NextAddress;
  for (NodeId N : Nodes) {
    Result.Order.push_back(PlacedNode{N, Group});
    Summary.Bytes += G.getNode(N).Size;
  }
  NextAddress += Summary.Bytes;
  if (NextAddress > Start)
    Summary.Pages =
        (NextAddress - 1) / Config.PageSize - Start / Config.PageSize + 1;
}

CompositeLayout CompositeBuilder::run() {
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Times, "collect profiles");
  Startup = collectProfile(ScenarioKind::Startup);
  Steady = collectProfile(ScenarioKind::SteadyState);
  Phase.emplace(Times, "classify");

  // The threshold is a whole-program property: every steady-state node
  // counts, including those placed with startup code.
  std::vector<uint64_t> SteadyHeat;
  for (unsigned N : Steady.Executed.set_bits())
    SteadyHeat.push_back(Steady.Heat[N]);
  Result.HotThreshold = computeHotThreshold(SteadyHeat, Config.HotCutoff);

  std::vector<NodeId> StartupNodes, StartupWarmNodes, StartupHotNodes, HotNodes,
      WarmNodes, ColdNodes;
  auto IsSteadyHot = [&](NodeId N) {
    return Steady.Executed.test(N) && Result.HotThreshold > 0 &&
           Steady.Heat[N] >= Result.HotThreshold;
  };
  // Where a node startup runs goes in the startup group: code the steady
  // state runs closes the group, its warm code then its hot code, ordered
  // for the steady state's cache next to the hot group, which follows; the
  // rest is ordered by the startup traces. Startup still runs through one
  // contiguous range.
  // The warm code stays with the traces when they are partitioned: each
  // startup trace then runs through as few pages as the partitioning can
  // give it, which an order for the steady state would undo. With fewer
  // traces the group's order changes none of its pages.
  size_t NumStartupTraces = 0;
  for (ScenarioId Id : Startup.Scenarios)
    NumStartupTraces += G.getScenario(Id).Traces.size();
  const bool WarmLast =
      Config.WarmStartupCodeLast && !partitions(NumStartupTraces);
  auto StartupPart = [&](NodeId N) -> std::vector<NodeId> & {
    if (!Config.HotStartupCodeLast || !Steady.Executed.test(N))
      return StartupNodes;
    if (IsSteadyHot(N))
      return StartupHotNodes;
    return WarmLast ? StartupWarmNodes : StartupNodes;
  };
  for (NodeId N = 0; N < G.getNumNodes(); ++N) {
    // Code that startup runs but that is also the steady state's hot code
    // can instead join the hot group (HotStartupCodeGoesHot).
    if (Startup.Executed.test(N) &&
        !(Config.HotStartupCodeGoesHot && IsSteadyHot(N)))
      StartupPart(N).push_back(N);
    else if (!Steady.Executed.test(N))
      ColdNodes.push_back(N);
    else if (Result.HotThreshold > 0 && Steady.Heat[N] >= Result.HotThreshold)
      HotNodes.push_back(N);
    else
      WarmNodes.push_back(N);
  }

  auto &Groups = Result.Groups;
  Phase.emplace(Times, "startup group");
  GroupSummary &StartupSummary = Groups[unsigned(LayoutGroup::Startup)];
  std::vector<NodeId> Order = orderStartup(StartupNodes, StartupSummary);
  llvm::append_range(Order, orderGroup(StartupWarmNodes, Steady,
                                       Config.WarmAlgorithm, StartupSummary));
  llvm::append_range(Order, orderGroup(StartupHotNodes, Steady,
                                       Config.HotAlgorithm, StartupSummary));
  place(Order, LayoutGroup::Startup);
  Phase.emplace(Times, "hot group");
  Order = orderGroup(HotNodes, Steady, Config.HotAlgorithm,
                     Groups[unsigned(LayoutGroup::Hot)]);
  place(Order, LayoutGroup::Hot);
  Phase.emplace(Times, "warm group");
  Order = orderGroup(WarmNodes, Steady, Config.WarmAlgorithm,
                     Groups[unsigned(LayoutGroup::Warm)]);
  place(Order, LayoutGroup::Warm);
  Phase.reset();
  if (Config.PlaceColdNodes && !ColdNodes.empty()) {
    Groups[unsigned(LayoutGroup::Cold)].Segments.push_back(
        {OrderMethod::ById, ColdNodes.size()});
    place(ColdNodes, LayoutGroup::Cold);
  } else {
    GroupSummary &Cold = Groups[unsigned(LayoutGroup::Cold)];
    Cold.NumNodes = ColdNodes.size();
    for (NodeId N : ColdNodes)
      Cold.Bytes += G.getNode(N).Size;
  }

  for (GroupSummary &Summary : Groups)
    if (!Summary.Segments.empty())
      Summary.Method = Summary.Segments.front().Method;

  assert(Result.Order.size() ==
             StartupNodes.size() + StartupWarmNodes.size() +
                 StartupHotNodes.size() + HotNodes.size() + WarmNodes.size() +
                 (Config.PlaceColdNodes ? ColdNodes.size() : 0) &&
         "a group lost or duplicated a node");
  return std::move(Result);
}

CompositeLayout
kiln::layout::computeCompositeLayout(const CallGraph &G,
                                     const CompositeLayoutConfig &Config,
                                     PhaseTimes *Times) {
  return CompositeBuilder(G, Config, Times).run();
}

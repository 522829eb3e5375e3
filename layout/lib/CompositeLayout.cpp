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

#include "kiln/Layout/CacheDirectedSort.h"

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
  case OrderMethod::C3:
    return "c3";
  case OrderMethod::CDSort:
    return "cdsort";
  case OrderMethod::PettisHansen:
    return "pettis-hansen";
  case OrderMethod::ById:
    return "by-id";
  }
  llvm_unreachable("unknown OrderMethod");
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

/// A group's subgraph, renumbered densely in increasing node-id order.
struct SubGraph {
  std::vector<NodeId> Members;
  std::vector<uint64_t> Sizes;
  std::vector<uint64_t> Counts;
  std::vector<Edge> Edges;
  /// If not null, Edges is empty: the subgraph's edges are this scenario's
  /// edges between members, renumbered as they are read (through the
  /// builder's LocalIndex) rather than copied.
  const Scenario *Streamed = nullptr;
};

/// Builds and orders the groups.
class CompositeBuilder {
public:
  CompositeBuilder(const CallGraph &G, const CompositeLayoutConfig &Config,
                   PhaseTimes *Times);
  CompositeLayout run();

private:
  KindProfile collectProfile(ScenarioKind Kind) const;
  SubGraph makeSubGraph(ArrayRef<NodeId> Members, const KindProfile &P,
                        bool MayStream);
  void releaseSubGraph(const SubGraph &S);
  std::vector<NodeId> orderSubGraph(const SubGraph &S,
                                    OrderAlgorithm Alg) const;
  std::vector<NodeId> orderNodes(ArrayRef<NodeId> Members, const KindProfile &P,
                                 OrderAlgorithm Alg);
  std::vector<NodeId> orderGroup(ArrayRef<NodeId> Members, const KindProfile &P,
                                 OrderAlgorithm Alg, GroupSummary &Summary);
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
  /// NodeId -> index in the current subgraph, InvalidNode elsewhere (from
  /// makeSubGraph to releaseSubGraph).
  std::vector<NodeId> LocalIndex;
  CompositeLayout Result;
  uint64_t NextAddress = 0;
};
} // namespace

CompositeBuilder::CompositeBuilder(const CallGraph &G,
                                   const CompositeLayoutConfig &Config,
                                   PhaseTimes *Times)
    : G(G), Config(Config), Times(Times) {
  assert(isPowerOf2_64(Config.PageSize) && "page size must be a power of two");
  if (Config.FitModelsToPageSize) {
    this->Config.C3.MaxClusterSize = Config.PageSize;
    this->Config.CDSort.CacheSize = unsigned(std::min<uint64_t>(
        Config.PageSize, std::numeric_limits<unsigned>::max()));
  }
  LocalIndex.assign(G.getNumNodes(), CallGraph::InvalidNode);
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
  P.Heat.resize(N);
  std::vector<double> Count(N, 0.0), In(N, 0.0), Out(N, 0.0);
  for (ScenarioId S : P.Scenarios) {
    const Scenario &Sc = G.getScenario(S);
    P.Executed |= G.getExecuted(S);
    for (NodeId I = 0; I < Sc.Counts.size(); ++I)
      Count[I] += Sc.Weight * double(Sc.Counts[I]);
    for (const Edge &E : Sc.Edges) {
      if (E.Caller == E.Callee)
        continue;
      In[E.Callee] += Sc.Weight * double(E.Count);
      Out[E.Caller] += Sc.Weight * double(E.Count);
    }
  }
  for (size_t I = 0; I < N; ++I) {
    double H = std::max({Count[I], In[I], Out[I]});
    P.Heat[I] = H >= 0x1p64 ? UINT64_MAX : uint64_t(H);
  }
  return P;
}

static uint64_t toCount(double C) {
  return C >= 0x1p64 ? UINT64_MAX : uint64_t(C);
}

// Calls Visit on each call of Sc between nodes of the subgraph (LocalIndex
// not InvalidNode), renumbered, weighted; its pairs are unique already.
template <typename VisitT>
static void forEachScenarioEdge(const Scenario &Sc, ArrayRef<NodeId> LocalIndex,
                                VisitT Visit) {
  for (const Edge &E : Sc.Edges) {
    NodeId From = LocalIndex[E.Caller], To = LocalIndex[E.Callee];
    if (From == CallGraph::InvalidNode || To == CallGraph::InvalidNode ||
        E.Count == 0)
      continue;
    if (uint64_t C = toCount(Sc.Weight * double(E.Count)))
      Visit(Edge{From, To, C});
  }
}

// Appends the edges forEachScenarioEdge visits to Out.
static void addScenarioEdges(const Scenario &Sc, ArrayRef<NodeId> LocalIndex,
                             std::vector<Edge> &Out) {
  // Counting first sizes Out once.
  size_t Count = 0;
  forEachScenarioEdge(Sc, LocalIndex, [&](const Edge &) { ++Count; });
  Out.reserve(Out.size() + Count);
  forEachScenarioEdge(Sc, LocalIndex, [&](const Edge &E) { Out.push_back(E); });
}

// As addScenarioEdges for several scenarios: sum the weighted counts per
// pair in double, like CallGraph::getWeightedEdges, after sorting.
static void addMergedEdges(const CallGraph &G, ArrayRef<ScenarioId> Ids,
                           ArrayRef<NodeId> LocalIndex,
                           std::vector<Edge> &Out) {
  std::vector<std::tuple<NodeId, NodeId, double>> Weighted;
  for (ScenarioId Id : Ids) {
    const Scenario &Sc = G.getScenario(Id);
    for (const Edge &E : Sc.Edges) {
      NodeId From = LocalIndex[E.Caller], To = LocalIndex[E.Callee];
      if (From == CallGraph::InvalidNode || To == CallGraph::InvalidNode ||
          E.Count == 0)
        continue;
      Weighted.emplace_back(From, To, Sc.Weight * double(E.Count));
    }
  }
  llvm::sort(Weighted, [](const auto &L, const auto &R) {
    return std::tie(std::get<0>(L), std::get<1>(L)) <
           std::tie(std::get<0>(R), std::get<1>(R));
  });
  for (size_t I = 0; I < Weighted.size();) {
    auto [From, To, Sum] = Weighted[I];
    size_t J = I + 1;
    for (; J < Weighted.size() && std::get<0>(Weighted[J]) == From &&
           std::get<1>(Weighted[J]) == To;
         ++J)
      Sum += std::get<2>(Weighted[J]);
    if (uint64_t C = toCount(Sum))
      Out.push_back(Edge{From, To, C});
    I = J;
  }
}

// With MayStream, the edges of a single scenario are not copied (see
// SubGraph::Streamed). Until releaseSubGraph, LocalIndex numbers Members.
SubGraph CompositeBuilder::makeSubGraph(ArrayRef<NodeId> Members,
                                        const KindProfile &P, bool MayStream) {
  SubGraph S;
  S.Members.assign(Members.begin(), Members.end());
  assert(llvm::is_sorted(S.Members) && "members must be sorted");
  S.Sizes.reserve(Members.size());
  S.Counts.reserve(Members.size());
  for (NodeId I = 0; I < S.Members.size(); ++I) {
    NodeId N = S.Members[I];
    LocalIndex[N] = I;
    S.Sizes.push_back(G.getNode(N).Size);
    S.Counts.push_back(P.Heat[N]);
  }
  // Calls inside the group.
  if (P.Scenarios.size() == 1 && MayStream)
    S.Streamed = &G.getScenario(P.Scenarios.front());
  else if (P.Scenarios.size() == 1)
    addScenarioEdges(G.getScenario(P.Scenarios.front()), LocalIndex, S.Edges);
  else
    addMergedEdges(G, P.Scenarios, LocalIndex, S.Edges);
  return S;
}

void CompositeBuilder::releaseSubGraph(const SubGraph &S) {
  for (NodeId N : S.Members)
    LocalIndex[N] = CallGraph::InvalidNode;
}

static OrderMethod getOrderMethod(OrderAlgorithm Alg) {
  switch (Alg) {
  case OrderAlgorithm::C3:
    return OrderMethod::C3;
  case OrderAlgorithm::CDSort:
    return OrderMethod::CDSort;
  case OrderAlgorithm::PettisHansen:
    return OrderMethod::PettisHansen;
  }
  llvm_unreachable("unknown OrderAlgorithm");
}

std::vector<NodeId> CompositeBuilder::orderSubGraph(const SubGraph &S,
                                                    OrderAlgorithm Alg) const {
  std::vector<NodeId> Local;
  switch (Alg) {
  case OrderAlgorithm::C3:
    if (!S.Streamed) {
      Local = computeC3Order(S.Sizes, S.Counts, S.Edges, Config.C3);
      break;
    }
    Local = computeC3OrderOfStream(
        S.Sizes, S.Counts,
        [&](function_ref<void(const Edge &)> Visit) {
          forEachScenarioEdge(*S.Streamed, LocalIndex, Visit);
        },
        Config.C3);
    break;
  case OrderAlgorithm::CDSort:
    assert(!S.Streamed && "cdsort reads an array of edges");
    Local = computeCDSortOrder(S.Sizes, S.Counts, S.Edges, Config.CDSort);
    break;
  case OrderAlgorithm::PettisHansen:
    assert(!S.Streamed && "Pettis-Hansen reads an array of edges");
    Local = computePettisHansenOrder(S.Sizes, S.Counts, S.Edges,
                                     Config.PettisHansen);
    break;
  }
  for (NodeId &N : Local)
    N = S.Members[N];
  return Local;
}

// Orders Members (sorted by id) with Alg over their own calls.
std::vector<NodeId> CompositeBuilder::orderNodes(ArrayRef<NodeId> Members,
                                                 const KindProfile &P,
                                                 OrderAlgorithm Alg) {
  if (Members.empty())
    return {};
  SubGraph S;
  {
    PhaseTimes::Scope Phase(Times, "subgraph");
    // C3 reads each edge once: it can take them renumbered on the fly.
    S = makeSubGraph(Members, P, /*MayStream=*/Alg == OrderAlgorithm::C3);
  }
  PhaseTimes::Scope Phase(Times, getOrderMethodName(getOrderMethod(Alg)));
  std::vector<NodeId> Order = orderSubGraph(S, Alg);
  releaseSubGraph(S);
  return Order;
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

std::vector<NodeId>
CompositeBuilder::partitionTraces(ArrayRef<TraceRef> Traces,
                                  GroupSummary &Summary) const {
  std::vector<NodeId> FirstExecution = computeFirstExecutionOrder(Traces);
  if (Traces.size() < Config.MinTracesForPartitioning ||
      Config.MaxPartitioningNodes == 0) {
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

  std::vector<NodeId> StartupNodes, StartupHotNodes, HotNodes, WarmNodes,
      ColdNodes;
  auto IsSteadyHot = [&](NodeId N) {
    return Steady.Executed.test(N) && Result.HotThreshold > 0 &&
           Steady.Heat[N] >= Result.HotThreshold;
  };
  for (NodeId N = 0; N < G.getNumNodes(); ++N) {
    // Code that startup runs but that is also the steady state's hot code
    // is ordered with the hot code, for the cache: the hot group follows
    // the startup group, so startup still runs through one contiguous
    // range.
    if (Startup.Executed.test(N) &&
        !(Config.HotStartupCodeGoesHot && IsSteadyHot(N)))
      (Config.HotStartupCodeLast && IsSteadyHot(N) ? StartupHotNodes
                                                   : StartupNodes)
          .push_back(N);
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
             StartupNodes.size() + StartupHotNodes.size() + HotNodes.size() +
                 WarmNodes.size() +
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

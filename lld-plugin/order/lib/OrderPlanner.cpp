//===- OrderPlanner.cpp - From profiles to a function order ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderPlanner.h"

#include "kiln/Layout/CacheDirectedSort.h"
#include "kiln/Layout/CallChainClustering.h"
#include "kiln/Layout/PettisHansen.h"
#include "kiln/Layout/TracePartitioning.h"
#include "kiln/Sources/EdgeList.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/SymbolResolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::layout;

Expected<ScenarioSpec> kiln::parseScenarioSpec(StringRef Spec) {
  auto [KindName, Rest] = Spec.split('=');
  ScenarioSpec Result;
  if (KindName == "startup")
    Result.Kind = ScenarioKind::Startup;
  else if (KindName == "steady")
    Result.Kind = ScenarioKind::SteadyState;
  else
    return createStringError(inconvertibleErrorCode(),
                             "scenario '%s': the kind must be 'startup' or "
                             "'steady' (<kind>=<profile>[:<weight>])",
                             Spec.str().c_str());
  if (Rest.empty())
    return createStringError(inconvertibleErrorCode(),
                             "scenario '%s': no profile (<kind>=<profile>"
                             "[:<weight>])",
                             Spec.str().c_str());
  // A trailing ":<number>" is the weight; other colons belong to the path.
  auto [Path, WeightText] = Rest.rsplit(':');
  double Weight;
  if (!WeightText.empty() && WeightText != Rest &&
      !WeightText.getAsDouble(Weight)) {
    if (!(Weight > 0))
      return createStringError(inconvertibleErrorCode(),
                               "scenario '%s': the weight must be positive",
                               Spec.str().c_str());
    Result.Path = Path.str();
    Result.Weight = Weight;
    return Result;
  }
  Result.Path = Rest.str();
  return Result;
}

Expected<std::vector<ScenarioSpec>>
kiln::parseScenarioSpecs(ArrayRef<std::string> Specs) {
  std::vector<ScenarioSpec> Result;
  for (const std::string &Text : Specs) {
    Expected<ScenarioSpec> Spec = parseScenarioSpec(Text);
    if (!Spec)
      return Spec.takeError();
    Result.push_back(std::move(*Spec));
  }
  return Result;
}

StringRef kiln::getOrderingAlgorithmName(OrderingAlgorithm Algorithm) {
  switch (Algorithm) {
  case OrderingAlgorithm::Kiln:
    return "kiln";
  case OrderingAlgorithm::C3:
    return "c3";
  case OrderingAlgorithm::CDSort:
    return "cdsort";
  case OrderingAlgorithm::PettisHansen:
    return "pettis-hansen";
  case OrderingAlgorithm::Partitioning:
    return "bp";
  }
  llvm_unreachable("unknown OrderingAlgorithm");
}

Expected<uint64_t> kiln::parsePageSize(StringRef Text) {
  uint64_t Multiplier = 1;
  StringRef Number = Text;
  if (Number.consume_back_insensitive("k"))
    Multiplier = 1024;
  else if (Number.consume_back_insensitive("m"))
    Multiplier = 1024 * 1024;
  uint64_t Value;
  if (Number.getAsInteger(10, Value) || Value == 0 ||
      !isPowerOf2_64(Value * Multiplier))
    return createStringError(inconvertibleErrorCode(),
                             "page size '%s' is not a power of two (bytes, "
                             "or with K/M: 4K, 16K, 64K, 2M)",
                             Text.str().c_str());
  return Value * Multiplier;
}

Expected<OrderingAlgorithm> kiln::parseOrderingAlgorithm(StringRef Name) {
  for (OrderingAlgorithm A :
       {OrderingAlgorithm::Kiln, OrderingAlgorithm::C3,
        OrderingAlgorithm::CDSort, OrderingAlgorithm::PettisHansen,
        OrderingAlgorithm::Partitioning})
    if (Name == getOrderingAlgorithmName(A))
      return A;
  return createStringError(inconvertibleErrorCode(),
                           "unknown layout algorithm '%s' (one of kiln, c3, "
                           "cdsort, pettis-hansen, bp)",
                           Name.str().c_str());
}

namespace {
/// Builds the call graph over the inputs' functions.
class GraphBuilder {
public:
  GraphBuilder(const LinkerInputs &Inputs, ProfiledGraph &Plan)
      : Inputs(Inputs), Plan(Plan), Resolver(Inputs) {
    Plan.Graph.reserveNodes(Inputs.Functions.size());
    NodeOfFunction.reserve(Inputs.Functions.size());
    Plan.FunctionOfNode.reserve(Inputs.Functions.size());
    for (size_t I = 0; I < Inputs.Functions.size(); ++I) {
      const InputFunction &F = Inputs.Functions[I];
      // A global's key is its name: no need to build it.
      NodeId N = F.IsLocal
                     ? Plan.Graph.getOrAddNode(getNodeKey(F), F.Size, F.Object)
                     : Plan.Graph.getOrAddNode(F.Name, F.Size, F.Object);
      NodeOfFunction.push_back(N);
      if (N == Plan.FunctionOfNode.size())
        Plan.FunctionOfNode.push_back(int64_t(I));
    }
  }

  void addObjectCallGraph() {
    ScenarioId S = Plan.Graph.addScenario("objects", ScenarioKind::SteadyState);
    addToCallGraph(Inputs, Plan.Graph, S);
    Plan.FunctionOfNode.resize(Plan.Graph.getNumNodes(), -1);
  }

  Error addProfile(const ScenarioSpec &Spec) {
    Expected<LayoutProfile> Profile = readProfile(Spec.Path);
    if (!Profile)
      return Profile.takeError();
    ScenarioId S = Plan.Graph.addScenario(getScenarioKindName(Spec.Kind).str() +
                                              ":" + Spec.Path,
                                          Spec.Kind, Spec.Weight);
    ProfileCoverage Coverage;
    Coverage.Path = Spec.Path;
    Coverage.Scenario = getScenarioKindName(Spec.Kind).str();
    for (const ProfiledFunction &F : Profile->Functions) {
      if (F.Weight == 0)
        continue;
      ++Coverage.Executed;
      Coverage.ExecutedWeight += F.Weight;
      std::optional<NodeId> N = resolve(F.Name, &Coverage);
      if (!N)
        continue;
      ++Coverage.Bound;
      Coverage.BoundWeight += F.Weight;
      Plan.Graph.addCount(S, *N, F.Weight);
    }
    for (const ProfiledCall &Call : Profile->Calls) {
      std::optional<NodeId> Caller = resolve(Call.Caller, nullptr);
      std::optional<NodeId> Callee = resolve(Call.Callee, nullptr);
      if (Caller && Callee)
        Plan.Graph.addEdge(S, *Caller, *Callee, Call.Count);
    }
    for (const ProfiledTrace &T : Profile->Traces) {
      Trace Resolved;
      Resolved.Weight = T.Weight;
      for (const std::string &Name : T.Functions)
        if (std::optional<NodeId> N = resolve(Name, nullptr))
          Resolved.Nodes.push_back(*N);
      if (!Resolved.Nodes.empty())
        Plan.Graph.addTrace(S, std::move(Resolved));
    }
    Plan.Coverage.push_back(std::move(Coverage));
    return Error::success();
  }

  void addEdgeLists(ArrayRef<std::shared_ptr<const EdgeListData>> Lists,
                    PhaseTimes *Times) {
    if (Lists.empty())
      return;
    ScenarioId S = Plan.Graph.addScenario("edges", ScenarioKind::SteadyState);
    for (const std::shared_ptr<const EdgeListData> &List : Lists) {
      // Edge lists name linker symbols, which are resolved like profile
      // names (exact globals, unique statics); each name once.
      std::optional<PhaseTimes::Scope> Phase;
      Phase.emplace(Times, "resolve names");
      std::vector<NodeId> NodeOf;
      NodeOf.reserve(List->Names.size());
      for (StringRef Name : List->Names)
        NodeOf.push_back(
            resolve(Name, nullptr).value_or(CallGraph::InvalidNode));
      Phase.emplace(Times, "merge edges");
      std::vector<uint64_t> CalleeCounts(List->Names.size(), 0);
      for (const Edge &E : List->Edges)
        if (NodeOf[E.Caller] != CallGraph::InvalidNode &&
            NodeOf[E.Callee] != CallGraph::InvalidNode)
          CalleeCounts[E.Callee] += E.Count;
      Plan.Graph.addEdges(S, List->Edges, NodeOf);
      for (size_t I = 0; I < CalleeCounts.size(); ++I)
        if (CalleeCounts[I])
          Plan.Graph.addCount(S, NodeOf[I], CalleeCounts[I]);
    }
  }

  /// Load-time code (InputFunction::RunsAtLoad) runs at every startup, but
  /// no profile counts it: the C runtime and the entry point are not
  /// instrumented. Counted once in the first startup scenario, it joins the
  /// startup group instead of costing a page of its own. Nothing changes
  /// without a startup scenario: then there is no startup group to join.
  void addLoadCode() {
    std::vector<ScenarioId> Startup;
    for (ScenarioId S = 0; S < Plan.Graph.getNumScenarios(); ++S)
      if (Plan.Graph.getScenario(S).Kind == ScenarioKind::Startup)
        Startup.push_back(S);
    if (Startup.empty())
      return;
    for (size_t I = 0; I < Inputs.Functions.size(); ++I) {
      if (!Inputs.Functions[I].RunsAtLoad)
        continue;
      NodeId N = NodeOfFunction[I];
      if (any_of(Startup,
                 [&](ScenarioId S) { return Plan.Graph.getCount(S, N); }))
        continue;
      Plan.Graph.addCount(Startup.front(), N, 1);
      Plan.LoadCodeAtStartup.push_back(I);
    }
  }

private:
  std::optional<NodeId> resolve(StringRef ProfileName,
                                ProfileCoverage *Coverage) {
    Resolution R = Resolver.resolve(ProfileName);
    if (R.Status != Resolution::Bound) {
      if (Coverage)
        Coverage->Unbound.emplace_back(ProfileName.str(), R.Reason);
      return std::nullopt;
    }
    return NodeOfFunction[R.Function];
  }

  const LinkerInputs &Inputs;
  ProfiledGraph &Plan;
  SymbolResolver Resolver;
  /// Per input function, its node: what findNode(getNodeKey(F)) would
  /// return, without building the key again.
  std::vector<NodeId> NodeOfFunction;
};
} // namespace

/// Orders the executed part of the graph with one of the single algorithms:
/// code that never ran is left to the linker, and the algorithms only see
/// the (usually small) executed subgraph, renumbered densely.
static std::vector<NodeId> orderWithSingleAlgorithm(const CallGraph &G,
                                                    const PlanOptions &Opts) {
  if (Opts.Algorithm == OrderingAlgorithm::Partitioning) {
    std::vector<Trace> Traces;
    for (const Scenario &S : G.getScenarios())
      if (S.Kind == ScenarioKind::Startup)
        append_range(Traces, S.Traces);
    return computeTracePartitioningOrder(makeTraceRefs(Traces),
                                         Opts.Composite.Partitioning);
  }
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Opts.Times, "subgraph");

  BitVector Executed(G.getNumNodes());
  for (ScenarioId S = 0; S < G.getNumScenarios(); ++S)
    Executed |= G.getExecuted(S);
  std::vector<NodeId> Global; // Dense id -> graph node.
  std::vector<NodeId> Dense(G.getNumNodes(), CallGraph::InvalidNode);
  std::vector<uint64_t> Sizes, Counts;
  for (NodeId N : Executed.set_bits()) {
    Dense[N] = NodeId(Global.size());
    Global.push_back(N);
    Sizes.push_back(G.getNode(N).Size);
    Counts.push_back(G.getWeightedCount(N));
  }
  // The executed nodes' edges, renumbered. C3 reads them once, as they
  // are renumbered; the others take an array.
  auto ForEachEdge = [&](function_ref<void(const Edge &)> Visit) {
    G.forEachWeightedEdge([&](const Edge &E) {
      if (Dense[E.Caller] != CallGraph::InvalidNode &&
          Dense[E.Callee] != CallGraph::InvalidNode)
        Visit(Edge{Dense[E.Caller], Dense[E.Callee], E.Count});
    });
  };
  std::vector<Edge> Edges;
  if (Opts.Algorithm != OrderingAlgorithm::C3)
    ForEachEdge([&](const Edge &E) { Edges.push_back(E); });

  Phase.emplace(Opts.Times, getOrderingAlgorithmName(Opts.Algorithm));
  std::vector<NodeId> Order;
  switch (Opts.Algorithm) {
  case OrderingAlgorithm::C3:
    Order =
        computeC3OrderOfStream(Sizes, Counts, ForEachEdge, Opts.Composite.C3);
    break;
  case OrderingAlgorithm::CDSort:
    Order = computeCDSortOrder(Sizes, Counts, Edges, Opts.Composite.CDSort);
    break;
  case OrderingAlgorithm::PettisHansen:
    Order = computePettisHansenOrder(Sizes, Counts, Edges,
                                     Opts.Composite.PettisHansen);
    break;
  case OrderingAlgorithm::Partitioning:
  case OrderingAlgorithm::Kiln:
    llvm_unreachable("handled by the caller");
  }
  for (NodeId &N : Order)
    N = Global[N];
  return Order;
}

Expected<ProfiledGraph>
kiln::buildProfiledGraph(const LinkerInputs &Inputs,
                         ArrayRef<ScenarioSpec> Scenarios,
                         const PlanOptions &Options) {
  ProfiledGraph Result;
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Options.Times, "index symbols, add input functions");
  GraphBuilder Builder(Inputs, Result);
  Phase.reset();
  if (Options.UseObjectCallGraph && Inputs.NumInputsWithCallGraph) {
    PhaseTimes::Scope Phase(Options.Times, "add object call graphs");
    Builder.addObjectCallGraph();
  }
  for (const ScenarioSpec &Spec : Scenarios) {
    PhaseTimes::Scope Phase(Options.Times, "add profile " + Spec.Path);
    if (Error E = Builder.addProfile(Spec))
      return std::move(E);
  }
  if (Options.PlaceLoadCodeAtStartup)
    Builder.addLoadCode();
  if (!Options.EdgeLists.empty()) {
    PhaseTimes::Scope Phase(Options.Times, "add edge lists");
    Builder.addEdgeLists(Options.EdgeLists, Options.Times);
  }
  Result.FunctionOfNode.resize(Result.Graph.getNumNodes(), -1);
  return std::move(Result);
}

Expected<OrderPlan> kiln::planOrder(const LinkerInputs &Inputs,
                                    ArrayRef<ScenarioSpec> Scenarios,
                                    const PlanOptions &Options) {
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Options.Times, "build graph");
  Expected<ProfiledGraph> Profiled =
      buildProfiledGraph(Inputs, Scenarios, Options);
  if (!Profiled)
    return Profiled.takeError();
  // Balanced partitioning orders by startup traces alone: without any, it
  // has nothing to order, whatever the profiles bind.
  if (Options.Algorithm == OrderingAlgorithm::Partitioning &&
      none_of(Profiled->Graph.getScenarios(), [](const Scenario &S) {
        return S.Kind == ScenarioKind::Startup && !S.Traces.empty();
      }))
    return createStringError(
        inconvertibleErrorCode(),
        "the bp algorithm orders by temporal profile traces, and no startup "
        "profile has any: give a startup profile of a build made with "
        "-ftemporal-profile (--scenario=startup=<profile>), or choose "
        "another algorithm");
  OrderPlan Plan;
  static_cast<ProfiledGraph &>(Plan) = std::move(*Profiled);
  Phase.emplace(Options.Times,
                "layout (" + getOrderingAlgorithmName(Options.Algorithm) + ")");

  std::vector<NodeId> Nodes;
  std::vector<LayoutGroup> Groups;
  if (Options.Algorithm == OrderingAlgorithm::Kiln) {
    Plan.Layout =
        computeCompositeLayout(Plan.Graph, Options.Composite, Options.Times);
    for (const PlacedNode &P : Plan.Layout.Order) {
      Nodes.push_back(P.Node);
      Groups.push_back(P.Group);
    }
  } else {
    Nodes = orderWithSingleAlgorithm(Plan.Graph, Options);
    Groups.assign(Nodes.size(), LayoutGroup::Hot);
  }
  Phase.emplace(Options.Times, "map nodes to functions");
  for (size_t I = 0; I < Nodes.size(); ++I) {
    int64_t Function = Plan.FunctionOfNode[Nodes[I]];
    if (Function < 0)
      continue; // Defined outside the inputs: not ours to place.
    Plan.Functions.push_back(size_t(Function));
    Plan.Groups.push_back(Groups[I]);
  }
  if (Plan.Functions.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no function of the inputs was executed in any "
                             "profile (profiles of another program?): nothing "
                             "to order");
  return std::move(Plan);
}

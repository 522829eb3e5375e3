//===- ProfiledGraph.cpp - The one graph builder --------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/ProfiledGraph.h"

#include "kiln/Layout/Counts.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/SymbolResolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

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
    if (Path.empty())
      return createStringError(inconvertibleErrorCode(),
                               "scenario '%s': no profile (<kind>=<profile>"
                               "[:<weight>])",
                               Spec.str().c_str());
    if (!(Weight > 0))
      return createStringError(inconvertibleErrorCode(),
                               "scenario '%s': the weight must be positive",
                               Spec.str().c_str());
    if (!isValidScenarioWeight(Weight))
      return createStringError(
          inconvertibleErrorCode(),
          "scenario '%s': the weight is out of range (it must be from %g "
          "to %g)",
          Spec.str().c_str(), MinScenarioWeight, MaxScenarioWeight);
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

std::optional<std::string>
kiln::whyProfileIsForeign(const ProfileCoverage &C, uint64_t NumLinkFunctions) {
  if (C.Executed == 0)
    return std::nullopt; // Nothing ran: nothing to mistake.
  auto Share = [](uint64_t Part, uint64_t Whole) {
    return Whole ? 100.0 * double(Part) / double(Whole) : 0.0;
  };
  std::string Shares;
  raw_string_ostream OS(Shares);
  OS << C.Bound << " of its " << C.Executed << " executed functions bind ("
     << format("%.1f", Share(C.BoundWeight, C.ExecutedWeight))
     << "% of its counts) to this link's " << NumLinkFunctions << " functions";
  // Halves compared exactly, whatever the counts.
  bool MostCountsBind = C.BoundWeight >= C.ExecutedWeight - C.BoundWeight;
  uint64_t MinBound =
      NumLinkFunctions < ProfileMinLinkFunctions ? 1 : ProfileMinBoundFunctions;
  if (MostCountsBind && C.Bound >= MinBound)
    return std::nullopt;
  return "a profile of another program? " + Shares + " (Kiln uses a profile " +
         "when its bound functions carry at least half its counts and " +
         "number at least " + std::to_string(MinBound) + ")";
}

void kiln::writeCoverageJSON(json::OStream &J, const ProfileCoverage &C,
                             function_ref<void()> Extra) {
  J.attribute("path", C.Path);
  J.attribute("scenario", C.Scenario);
  J.attribute("executed_functions", C.Executed);
  J.attribute("bound_functions", C.Bound);
  J.attribute("executed_count", C.ExecutedWeight);
  J.attribute("bound_count", C.BoundWeight);
  if (Extra)
    Extra();
  J.attributeArray("unbound", [&] {
    for (const std::pair<std::string, std::string> &U : C.Unbound)
      J.object([&] {
        J.attribute("name", U.first);
        J.attribute("reason", U.second);
      });
  });
}

unsigned kiln::warnOfForeignProfiles(const ProfiledGraph &G, StringRef Program,
                                     raw_ostream &Diag) {
  unsigned Warned = 0;
  for (const ProfileCoverage &C : G.Coverage)
    if (std::optional<std::string> Why =
            whyProfileIsForeign(C, G.NumLinkFunctions)) {
      WithColor::warning(Diag, Program) << C.Path << ": " << *Why << '\n';
      ++Warned;
    }
  return Warned;
}

std::string kiln::getNodeKey(const InputFunction &F) {
  if (!F.IsLocal)
    return F.Name.str();
  return (F.Object + ":" + F.Name).str();
}

void kiln::addCallsWithCalleeCounts(CallGraph &G, ScenarioId S,
                                    ArrayRef<Edge> Calls,
                                    ArrayRef<NodeId> NodeOf) {
  std::vector<uint64_t> CalleeCounts(NodeOf.size(), 0);
  for (const Edge &E : Calls)
    if (NodeOf[E.Caller] != CallGraph::InvalidNode &&
        NodeOf[E.Callee] != CallGraph::InvalidNode)
      CalleeCounts[E.Callee] = addCounts(CalleeCounts[E.Callee], E.Count);
  G.addEdges(S, Calls, NodeOf);
  for (size_t I = 0; I < CalleeCounts.size(); ++I)
    if (CalleeCounts[I])
      G.addCount(S, NodeOf[I], CalleeCounts[I]);
}

namespace {
/// Builds the call graph over the inputs' functions.
class GraphBuilder {
public:
  GraphBuilder(const LinkerInputs &Inputs, ProfiledGraph &Result)
      : Inputs(Inputs), Result(Result), Resolver(Inputs) {
    Result.Graph.reserveNodes(Inputs.Functions.size());
    NodeOfFunction.reserve(Inputs.Functions.size());
    Result.FunctionOfNode.reserve(Inputs.Functions.size());
    for (size_t I = 0; I < Inputs.Functions.size(); ++I) {
      const InputFunction &F = Inputs.Functions[I];
      // A global's key is its name: no need to build it.
      NodeId N =
          F.IsLocal ? Result.Graph.getOrAddNode(getNodeKey(F), F.Size, F.Object)
                    : Result.Graph.getOrAddNode(F.Name, F.Size, F.Object);
      NodeOfFunction.push_back(N);
      if (N == Result.FunctionOfNode.size()) {
        Result.FunctionOfNode.push_back(int64_t(I));
        ++Result.NumLinkFunctions;
      }
    }
  }

  /// The inputs' call-graph sections. A callee no input defines becomes a
  /// node of its own, keyed by its name, in the order the calls name them.
  void addObjectCallGraph() {
    ScenarioId S =
        Result.Graph.addScenario("objects", ScenarioKind::SteadyState);
    // Endpoints: the input functions, then one slot per call endpoint that
    // names a function of no input.
    std::vector<NodeId> NodeOf = NodeOfFunction;
    auto EndpointOf = [&](int64_t Index, StringRef Name) {
      if (Index >= 0)
        return NodeId(Index);
      NodeOf.push_back(Result.Graph.getOrAddNode(Name));
      return NodeId(NodeOf.size() - 1);
    };
    std::vector<Edge> Calls;
    Calls.reserve(Inputs.Edges.size());
    for (const InputCallEdge &E : Inputs.Edges) {
      NodeId Caller = EndpointOf(E.Caller, E.CallerName);
      NodeId Callee = EndpointOf(E.Callee, E.CalleeName);
      Calls.push_back(Edge{Caller, Callee, E.Count});
    }
    addCallsWithCalleeCounts(Result.Graph, S, Calls, NodeOf);
    Result.FunctionOfNode.resize(Result.Graph.getNumNodes(), -1);
  }

  Error addProfile(const ScenarioSpec &Spec) {
    Expected<LayoutProfile> Profile = readProfile(Spec.Path);
    if (!Profile)
      return Profile.takeError();
    ScenarioId S = Result.Graph.addScenario(
        getScenarioKindName(Spec.Kind).str() + ":" + Spec.Path, Spec.Kind,
        Spec.Weight);
    ProfileCoverage Coverage;
    Coverage.Path = Spec.Path;
    Coverage.Scenario = getScenarioKindName(Spec.Kind).str();
    for (const ProfiledFunction &F : Profile->Functions) {
      if (F.Weight == 0)
        continue;
      ++Coverage.Executed;
      Coverage.ExecutedWeight = addCounts(Coverage.ExecutedWeight, F.Weight);
      std::optional<NodeId> N = resolve(F.Name, &Coverage);
      if (!N)
        continue;
      ++Coverage.Bound;
      Coverage.BoundWeight = addCounts(Coverage.BoundWeight, F.Weight);
      Result.Graph.addCount(S, *N, F.Weight);
    }
    for (const ProfiledCall &Call : Profile->Calls) {
      std::optional<NodeId> Caller = resolve(Call.Caller, nullptr);
      std::optional<NodeId> Callee = resolve(Call.Callee, nullptr);
      if (Caller && Callee)
        Result.Graph.addEdge(S, *Caller, *Callee, Call.Count);
    }
    for (const ProfiledTrace &T : Profile->Traces) {
      Trace Resolved;
      Resolved.Weight = T.Weight;
      for (const std::string &Name : T.Functions)
        if (std::optional<NodeId> N = resolve(Name, nullptr))
          Resolved.Nodes.push_back(*N);
      if (!Resolved.Nodes.empty())
        Result.Graph.addTrace(S, std::move(Resolved));
    }
    Result.Coverage.push_back(std::move(Coverage));
    return Error::success();
  }

  void addEdgeLists(ArrayRef<std::shared_ptr<const EdgeListData>> Lists,
                    PhaseTimes *Times) {
    if (Lists.empty())
      return;
    ScenarioId S = Result.Graph.addScenario("edges", ScenarioKind::SteadyState);
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
      addCallsWithCalleeCounts(Result.Graph, S, List->Edges, NodeOf);
    }
  }

  /// Load-time code (InputFunction::RunsAtLoad) runs at every startup, but
  /// no profile counts it: the C runtime and the entry point are not
  /// instrumented. Counted once in the first startup scenario, it joins the
  /// startup group instead of costing a page of its own. Nothing changes
  /// without a startup scenario: then there is no startup group to join.
  void addLoadCode() {
    std::vector<ScenarioId> Startup;
    for (ScenarioId S = 0; S < Result.Graph.getNumScenarios(); ++S)
      if (Result.Graph.getScenario(S).Kind == ScenarioKind::Startup)
        Startup.push_back(S);
    if (Startup.empty())
      return;
    for (size_t I = 0; I < Inputs.Functions.size(); ++I) {
      if (!Inputs.Functions[I].RunsAtLoad)
        continue;
      NodeId N = NodeOfFunction[I];
      if (any_of(Startup,
                 [&](ScenarioId S) { return Result.Graph.getCount(S, N); }))
        continue;
      Result.Graph.addCount(Startup.front(), N, 1);
      Result.LoadCodeAtStartup.push_back(I);
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
  ProfiledGraph &Result;
  SymbolResolver Resolver;
  /// Per input function, its node: what findNode(getNodeKey(F)) would
  /// return, without building the key again.
  std::vector<NodeId> NodeOfFunction;
};
} // namespace

Expected<ProfiledGraph>
kiln::buildProfiledGraph(const LinkerInputs &Inputs,
                         ArrayRef<ScenarioSpec> Scenarios,
                         const GraphOptions &Options) {
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

//===- LayoutAlgorithmTest.cpp - Tests of the algorithm registry ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/LayoutAlgorithm.h"

#include "LayoutTestUtils.h"

#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Layout/Counts.h"

#include "llvm/ADT/StringSet.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln::layout;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

namespace {

MATCHER_P3(IsEdge, Caller, Callee, Count, "") {
  return arg.Caller == NodeId(Caller) && arg.Callee == NodeId(Callee) &&
         arg.Count == uint64_t(Count);
}

TEST(LayoutAlgorithm, RegistryNamesRoundTrip) {
  StringSet<> Names;
  for (OrderAlgorithm A : getOrderAlgorithms()) {
    StringRef Name = getOrderAlgorithmName(A);
    EXPECT_TRUE(Names.insert(Name).second) << "duplicate name " << Name.str();
    EXPECT_EQ(findOrderAlgorithm(Name), A);
    EXPECT_FALSE(getOrderAlgorithmDescription(A).empty());
  }
  EXPECT_EQ(findOrderAlgorithm("fastest"), std::nullopt);
  EXPECT_EQ(listOrderAlgorithmNames(),
            "kiln, c3, cdsort, pettis-hansen, density, bp");
  EXPECT_FALSE(isGraphAlgorithm(OrderAlgorithm::Kiln));
  EXPECT_FALSE(isGraphAlgorithm(OrderAlgorithm::Partitioning));
  EXPECT_TRUE(isGraphAlgorithm(OrderAlgorithm::Density));
  // Graph algorithms are the composite's group methods, by the same name.
  EXPECT_EQ(getOrderMethodName(getOrderMethod(OrderAlgorithm::CDSort)),
            "cdsort");
}

// Three nodes a, b, c with sizes 10, 100, 10.
CallGraph makeGraph() {
  CallGraph G;
  G.getOrAddNode("a", 10);
  G.getOrAddNode("b", 100);
  G.getOrAddNode("c", 10);
  return G;
}

TEST(LayoutAlgorithm, SubgraphMergesScenariosInAnyOrder) {
  // The weighted calls of a subgraph do not depend on the order in which
  // the scenarios were given.
  for (bool Swapped : {false, true}) {
    CallGraph G = makeGraph();
    ScenarioId One = G.addScenario("one", ScenarioKind::SteadyState, 0.5);
    ScenarioId Two = G.addScenario("two", ScenarioKind::SteadyState, 3);
    G.addEdge(One, 0, 2, 5);
    G.addEdge(Two, 0, 2, 1);
    G.addEdge(Two, 2, 1, 7); // b is not a member: left out.
    SubgraphBuilder Builder(G);
    std::vector<ScenarioId> Scenarios = {One, Two};
    if (Swapped)
      std::swap(Scenarios[0], Scenarios[1]);
    Subgraph S =
        Builder.build({0, 2}, [](NodeId N) { return N + 1; }, Scenarios);
    EXPECT_THAT(S.Members, ElementsAre(0u, 2u));
    EXPECT_THAT(S.Sizes, ElementsAre(10u, 10u));
    EXPECT_THAT(S.Counts, ElementsAre(1u, 3u));
    // 0.5 x 5 rounds down to 2, 3 x 1 = 3: local ids 0 -> 1.
    EXPECT_THAT(S.getEdges(), ElementsAre(IsEdge(0, 1, 5)));
  }
}

TEST(LayoutAlgorithm, SubgraphStreamsOneScenario) {
  CallGraph G = makeGraph();
  ScenarioId S = G.addScenario("s", ScenarioKind::SteadyState, 2);
  G.addEdge(S, 2, 0, 4);
  G.addEdge(S, 1, 0, 9);
  G.addEdge(S, 0, 2, 0); // Zero counts are left out.
  SubgraphBuilder Builder(G);
  Subgraph Sub = Builder.build({0, 2}, [](NodeId) { return 1; }, {S});
  EXPECT_THAT(Sub.getEdges(), ElementsAre(IsEdge(1, 0, 8)));
  // A second subgraph renumbers afresh.
  Subgraph Next = Builder.build({0, 1}, [](NodeId) { return 1; }, {S});
  EXPECT_THAT(Next.getEdges(), ElementsAre(IsEdge(1, 0, 18)));
}

TEST(LayoutAlgorithm, DensityPutsHottestBytesFirst) {
  CallGraph G = makeGraph();
  ScenarioId S = G.addScenario("s", ScenarioKind::SteadyState);
  G.addCount(S, 0, 10);  // 1 per byte
  G.addCount(S, 1, 500); // 5 per byte
  G.addCount(S, 2, 10);  // 1 per byte: after a, by id
  CompositeLayout L =
      orderCallGraph(G, OrderAlgorithm::Density, CompositeLayoutConfig());
  EXPECT_THAT(L.getNodeOrder(), ElementsAre(1u, 0u, 2u));
  const GroupSummary &Hot = L.getGroup(LayoutGroup::Hot);
  EXPECT_EQ(Hot.Method, OrderMethod::Density);
  EXPECT_EQ(Hot.NumNodes, 3u);
  EXPECT_EQ(Hot.Bytes, 120u);
}

TEST(LayoutAlgorithm, EveryGraphAlgorithmOrdersEveryExecutedNode) {
  CallGraph G = makeGraph();
  G.getOrAddNode("never", 10);
  ScenarioId S = G.addScenario("s", ScenarioKind::SteadyState);
  G.addEdge(S, 0, 1, 100);
  G.addEdge(S, 1, 2, 10);
  for (OrderAlgorithm A : getOrderAlgorithms()) {
    if (!isGraphAlgorithm(A))
      continue;
    CompositeLayout L = orderCallGraph(G, A, CompositeLayoutConfig());
    EXPECT_THAT(L.getNodeOrder(), UnorderedElementsAre(0u, 1u, 2u))
        << getOrderAlgorithmName(A).str();
    // The composite takes it for a group.
    CompositeLayoutConfig Config;
    Config.HotAlgorithm = Config.WarmAlgorithm = A;
    EXPECT_THAT(computeCompositeLayout(G, Config).getNodeOrder(),
                UnorderedElementsAre(0u, 1u, 2u))
        << getOrderAlgorithmName(A).str();
  }
}

TEST(Counts, SaturateAtTheTop) {
  constexpr uint64_t Max = UINT64_MAX;
  EXPECT_EQ(addCounts(Max - 1, 1), Max);
  EXPECT_EQ(addCounts(Max, Max), Max);
  EXPECT_EQ(scaleCount(Max, 1.0), Max);
  EXPECT_EQ(scaleCount(Max, 2.0), Max);
  EXPECT_EQ(scaleCount((1ull << 63) + 5, 1.0), (1ull << 63) + 5);
  EXPECT_EQ(scaleCount((1ull << 62) + 3, 2.0), (1ull << 63) + 6);
  EXPECT_EQ(scaleCount(Max, 0.5), 1ull << 63);
  EXPECT_EQ(scaleCount(7, 0.5), 3u);
  EXPECT_EQ(toCount(1e30), Max);
  EXPECT_EQ(toCount(-1), 0u);
  EXPECT_EQ(toCount(std::nan("")), 0u);
  EXPECT_TRUE(isValidScenarioWeight(1));
  EXPECT_TRUE(isValidScenarioWeight(MaxScenarioWeight));
  EXPECT_FALSE(isValidScenarioWeight(0));
  EXPECT_FALSE(isValidScenarioWeight(1e30));
  EXPECT_FALSE(isValidScenarioWeight(INFINITY));
  EXPECT_FALSE(isValidScenarioWeight(std::nan("")));
}

TEST(Counts, GraphSumsSaturateAndStayExact) {
  constexpr uint64_t Max = UINT64_MAX;
  CallGraph G = makeGraph();
  ScenarioId S = G.addScenario("s", ScenarioKind::SteadyState);
  G.addCount(S, 0, Max - 1);
  G.addCount(S, 0, 5);
  G.addEdge(S, 0, 1, Max);
  G.addEdge(S, 0, 1, Max);
  G.addEdge(S, 1, 2, (1ull << 63) + 5);
  G.addEdges(S, {Edge{0, 1, 3}});
  EXPECT_EQ(G.getCount(S, 0), Max);
  EXPECT_EQ(G.getWeightedCount(0), Max);
  // 2^63 + 5 stays exact and sorts above 10^19's neighbours; 2^64 - 1 is
  // the hottest.
  EXPECT_THAT(G.getWeightedEdges(),
              ElementsAre(IsEdge(0, 1, Max), IsEdge(1, 2, (1ull << 63) + 5)));
  ScenarioId Twice = G.addScenario("twice", ScenarioKind::SteadyState, 2);
  G.addEdge(Twice, 1, 2, Max / 2);
  EXPECT_THAT(G.getWeightedEdges(),
              ElementsAre(IsEdge(0, 1, Max), IsEdge(1, 2, Max)));
}

} // namespace

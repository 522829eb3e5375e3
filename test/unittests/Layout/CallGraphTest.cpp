//===- CallGraphTest.cpp - Tests of the layout engine's input -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallGraph.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

TEST(CallGraph, NormalizeEdges) {
  // Self-calls and zero counts go, pairs are summed and sorted.
  std::vector<Edge> Edges = {{2, 0, 5}, {1, 1, 9}, {0, 1, 3},
                             {2, 0, 7}, {0, 2, 0}, {0, 1, 1}};
  EXPECT_THAT(normalizeEdges(Edges),
              ElementsAre(IsEdge(0, 1, 4), IsEdge(2, 0, 12)));
  EXPECT_THAT(normalizeEdges({}), IsEmpty());
  // Sums saturate.
  std::vector<Edge> Big = {{0, 1, UINT64_MAX}, {0, 1, 2}};
  EXPECT_THAT(normalizeEdges(Big), ElementsAre(IsEdge(0, 1, UINT64_MAX)));
}

TEST(CallGraph, NodesOwnTheirNames) {
  CallGraph G;
  NodeId A, B;
  {
    // The caller's strings die here; the graph keeps copies.
    std::string Name = "a_function_with_a_long_name";
    std::string Object = "lib/libsomething.a(object.o)";
    A = G.getOrAddNode(Name, 0, Object);
    B = G.getOrAddNode(Name + "_too", 8, Object);
  }
  EXPECT_EQ(G.getNode(A).Name, "a_function_with_a_long_name");
  EXPECT_EQ(G.getNode(A).Origin, "lib/libsomething.a(object.o)");
  // Nodes of one object share one copy of its name.
  EXPECT_EQ(G.getNode(A).Origin.data(), G.getNode(B).Origin.data());
  // The same name is the same node; an unknown size and an empty origin are
  // filled in later, a known one is not replaced.
  EXPECT_EQ(G.getOrAddNode("a_function_with_a_long_name", 32, "other.o"), A);
  EXPECT_EQ(G.getNode(A).Size, 32u);
  EXPECT_EQ(G.getNode(A).Origin, "lib/libsomething.a(object.o)");
  NodeId C = G.getOrAddNode("c");
  EXPECT_EQ(G.getNode(C).Origin, "");
  EXPECT_EQ(G.getOrAddNode("c", 4, "c.o"), C);
  EXPECT_EQ(G.getNode(C).Origin, "c.o");
  EXPECT_EQ(G.findNode("a_function_with_a_long_name_too"), B);
  EXPECT_EQ(G.findNode("missing"), CallGraph::InvalidNode);
  // Names survive moving the graph.
  CallGraph Moved = std::move(G);
  EXPECT_EQ(Moved.getNode(B).Name, "a_function_with_a_long_name_too");
  EXPECT_EQ(Moved.findNode("c"), C);
}

TEST(CallGraph, AddEdgesSortsAndMerges) {
  CallGraph G;
  for (const char *Name : {"a", "b", "c", "d"})
    G.getOrAddNode(Name);
  ScenarioId S = G.addScenario("s", ScenarioKind::SteadyState);
  // Any order, duplicate pairs, self-calls kept.
  std::vector<Edge> First = {{3, 0, 1}, {1, 2, 4}, {0, 3, 2}, {1, 0, 7},
                             {1, 2, 1}, {2, 2, 5}, {0, 1, 3}};
  G.addEdges(S, First);
  EXPECT_THAT(G.getScenario(S).Edges,
              ElementsAre(IsEdge(0, 1, 3), IsEdge(0, 3, 2), IsEdge(1, 0, 7),
                          IsEdge(1, 2, 5), IsEdge(2, 2, 5), IsEdge(3, 0, 1)));
  // A second batch merges with the first.
  std::vector<Edge> Second = {{3, 0, 10}, {2, 1, 1}, {0, 1, 1}};
  G.addEdges(S, Second);
  EXPECT_THAT(G.getScenario(S).Edges,
              ElementsAre(IsEdge(0, 1, 4), IsEdge(0, 3, 2), IsEdge(1, 0, 7),
                          IsEdge(1, 2, 5), IsEdge(2, 1, 1), IsEdge(2, 2, 5),
                          IsEdge(3, 0, 11)));
  // addEdge after addEdges finds the merged pairs.
  G.addEdge(S, 1, 2, 100);
  G.addEdge(S, 3, 3, 1);
  EXPECT_THAT(G.getScenario(S).Edges,
              ElementsAre(IsEdge(0, 1, 4), IsEdge(0, 3, 2), IsEdge(1, 0, 7),
                          IsEdge(1, 2, 105), IsEdge(2, 1, 1), IsEdge(2, 2, 5),
                          IsEdge(3, 0, 11), IsEdge(3, 3, 1)));
  G.addEdges(S, {});
  EXPECT_EQ(G.getScenario(S).Edges.size(), 8u);
}

TEST(CallGraph, WeightedEdgesMergeScenarios) {
  CallGraph G;
  for (const char *Name : {"a", "b", "c"})
    G.getOrAddNode(Name);
  ScenarioId One = G.addScenario("one", ScenarioKind::SteadyState, 0.5);
  ScenarioId Two = G.addScenario("two", ScenarioKind::Startup, 3);
  G.addEdge(One, 2, 0, 3);
  G.addEdge(One, 0, 1, 5);
  G.addEdge(Two, 0, 1, 1);
  G.addEdge(Two, 1, 2, 2);
  // Sorted by (caller, callee); 0.5 * 5 + 3 * 1 = 5.5 and 0.5 * 3 = 1.5
  // round down.
  EXPECT_THAT(G.getWeightedEdges(),
              ElementsAre(IsEdge(0, 1, 5), IsEdge(1, 2, 6), IsEdge(2, 0, 1)));
  std::vector<Edge> Visited;
  G.forEachWeightedEdge([&](const Edge &E) { Visited.push_back(E); });
  EXPECT_THAT(Visited,
              ElementsAre(IsEdge(0, 1, 5), IsEdge(1, 2, 6), IsEdge(2, 0, 1)));
  EXPECT_THAT(CallGraph().getWeightedEdges(), IsEmpty());

  // One scenario, in the order addEdge left its pairs, then sorted by
  // addEdges: the same weighted edges (2.5 * 3 = 7.5, 2.5 * 1 = 2.5).
  CallGraph Single;
  for (const char *Name : {"a", "b", "c"})
    Single.getOrAddNode(Name);
  ScenarioId S = Single.addScenario("s", ScenarioKind::SteadyState, 2.5);
  Single.addEdge(S, 2, 1, 3);
  Single.addEdge(S, 0, 2, 1);
  EXPECT_THAT(Single.getWeightedEdges(),
              ElementsAre(IsEdge(0, 2, 2), IsEdge(2, 1, 7)));
  Single.addEdges(S, {});
  EXPECT_THAT(Single.getWeightedEdges(),
              ElementsAre(IsEdge(0, 2, 2), IsEdge(2, 1, 7)));
  Visited.clear();
  Single.forEachWeightedEdge([&](const Edge &E) { Visited.push_back(E); });
  EXPECT_THAT(Visited, ElementsAre(IsEdge(0, 2, 2), IsEdge(2, 1, 7)));
}

} // namespace

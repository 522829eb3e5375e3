//===- EdgeListTest.cpp - Tests of the lld edge-list reader ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/EdgeList.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;

namespace {

TEST(EdgeList, ReadsEdgesAndCalleeCounts) {
  layout::CallGraph G;
  layout::ScenarioId S = G.addScenario("s", layout::ScenarioKind::SteadyState);
  MemoryBufferRef Buf("a b 10\n# comment\n\nb c 3 # trailing\na b 5\n",
                      "e.txt");
  ASSERT_THAT_ERROR(readEdgeList(Buf, G, S), Succeeded());
  ASSERT_EQ(G.getNumNodes(), 3u);
  const auto &Edges = G.getScenario(S).Edges;
  ASSERT_EQ(Edges.size(), 2u);
  // Duplicate pairs add up.
  EXPECT_EQ(Edges[0].Count, 15u);
  EXPECT_EQ(G.getCount(S, G.findNode("b")), 15u);
  EXPECT_EQ(G.getCount(S, G.findNode("c")), 3u);
}

TEST(EdgeList, BadLineLeavesGraphUntouched) {
  layout::CallGraph G;
  layout::ScenarioId S = G.addScenario("s", layout::ScenarioKind::SteadyState);
  MemoryBufferRef Buf("a b 1\nc d x\n", "e.txt");
  EXPECT_THAT_ERROR(readEdgeList(Buf, G, S),
                    FailedWithMessage("e.txt:2: count 'x' is not an "
                                      "unsigned integer"));
  EXPECT_EQ(G.getNumNodes(), 0u);
}

TEST(EdgeList, NamesInOrderOfFirstAppearance) {
  layout::CallGraph G;
  layout::ScenarioId S = G.addScenario("s", layout::ScenarioKind::SteadyState);
  // Tabs, CRLF, repeated blanks and comments are separators; the order of
  // first appearance (caller before callee) numbers the nodes.
  MemoryBufferRef Buf("  z\ty 1\r\n#x w 1\nw   z 2 # w x\n\t\ny x "
                      "18446744073709551615\n",
                      "e.txt");
  ASSERT_THAT_ERROR(readEdgeList(Buf, G, S), Succeeded());
  ASSERT_EQ(G.getNumNodes(), 4u);
  EXPECT_EQ(G.getNode(0).Name, "z");
  EXPECT_EQ(G.getNode(1).Name, "y");
  EXPECT_EQ(G.getNode(2).Name, "w");
  EXPECT_EQ(G.getNode(3).Name, "x");
  EXPECT_EQ(G.getCount(S, 3), UINT64_MAX);
}

TEST(EdgeList, ManyNames) {
  // More names than the interner first makes room for, each met many times
  // and at distances longer than the lines it keeps in flight.
  constexpr unsigned N = 5000;
  std::string Text;
  for (unsigned Round = 0; Round < 3; ++Round)
    for (unsigned I = 0; I < N; ++I)
      Text += "fn" + std::to_string(I) + " fn" +
              std::to_string((I * 7919 + Round) % N) + " " +
              std::to_string(Round + 1) + "\n";
  layout::CallGraph G;
  layout::ScenarioId S = G.addScenario("s", layout::ScenarioKind::SteadyState);
  ASSERT_THAT_ERROR(readEdgeList(MemoryBufferRef(Text, "e.txt"), G, S),
                    Succeeded());
  ASSERT_EQ(G.getNumNodes(), N);
  // fn0 first, then its callee fn0 (7919 * 0 % N), fn1, fn7919 % N, ...
  EXPECT_EQ(G.getNode(0).Name, "fn0");
  EXPECT_EQ(G.getNode(1).Name, "fn1");
  EXPECT_EQ(G.getNode(2).Name, "fn" + std::to_string(7919 % N));
  for (layout::NodeId Id = 0; Id < N; ++Id)
    EXPECT_EQ(G.findNode(G.getNode(Id).Name), Id);
  // Every caller calls three callees (or one, three times), once per round.
  uint64_t Total = 0;
  for (const layout::Edge &E : G.getScenario(S).Edges)
    Total += E.Count;
  EXPECT_EQ(Total, uint64_t(N) * (1 + 2 + 3));
}

TEST(EdgeList, BadCounts) {
  layout::CallGraph G;
  layout::ScenarioId S = G.addScenario("s", layout::ScenarioKind::SteadyState);
  EXPECT_THAT_ERROR(
      readEdgeList(MemoryBufferRef("a b 18446744073709551616\n", "e.txt"), G,
                   S),
      FailedWithMessage("e.txt:1: count '18446744073709551616' "
                        "is not an unsigned integer"));
  EXPECT_THAT_ERROR(
      readEdgeList(MemoryBufferRef("a b 1\n\na b -1\n", "e.txt"), G, S),
      FailedWithMessage("e.txt:3: count '-1' is not an unsigned integer"));
  EXPECT_THAT_ERROR(
      readEdgeList(MemoryBufferRef("a b 1 2\n", "e.txt"), G, S),
      FailedWithMessage("e.txt:1: expected 'caller callee count', found 4 "
                        "field(s)"));
  EXPECT_EQ(G.getNumNodes(), 0u);
}

} // namespace

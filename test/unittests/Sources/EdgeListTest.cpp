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

} // namespace

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

} // namespace

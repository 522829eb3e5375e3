//===- CacheDirectedSortTest.cpp - Tests of the cdsort adapter ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CacheDirectedSort.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

TEST(CacheDirectedSort, EmptyGraph) {
  EXPECT_THAT(computeCDSortOrder({}, {}, {}), IsEmpty());
}

TEST(CacheDirectedSort, CallerPrecedesCallee) {
  // 2 calls 0 a hundred times; 1 ran once. With the call in the middle of
  // the caller, 2 right before 0 puts the call 50 bytes from its target
  // (0 before 2: 150), so the chain is [2 0]; chains follow by density:
  // [2 0] (200 / 200) before [1] (1 / 100).
  std::vector<uint64_t> Sizes = {100, 100, 100};
  std::vector<uint64_t> Counts = {0, 1, 0};
  std::vector<Edge> Edges = {{2, 0, 100}};
  EXPECT_THAT(computeCDSortOrder(Sizes, Counts, Edges),
              ElementsAreArray({2, 0, 1}));
}

TEST(CacheDirectedSort, SelfCallsAndZeroCountsAreDropped) {
  // A self-call does not make 0 hot (cdsort ignores recursion) and a
  // zero-count call does not tie 1 to 2: 3, which ran, comes first, the
  // cold rest by id.
  std::vector<uint64_t> Sizes = {100, 100, 100, 100};
  std::vector<uint64_t> Counts = {0, 0, 0, 5};
  std::vector<Edge> Edges = {{0, 0, 1000}, {1, 2, 0}};
  EXPECT_THAT(computeCDSortOrder(Sizes, Counts, Edges),
              ElementsAreArray({3, 0, 1, 2}));
}

TEST(CacheDirectedSort, IndependentOfEdgeOrder) {
  // A small call graph listed in two orders, with a duplicated pair (summed
  // by the adapter): the order must be the same.
  std::vector<uint64_t> Sizes = {64, 128, 32, 256, 64, 16};
  std::vector<uint64_t> Counts = {10, 0, 0, 0, 0, 0};
  std::vector<Edge> Edges = {{0, 1, 40}, {1, 2, 30}, {0, 3, 20}, {3, 4, 20},
                             {4, 5, 5},  {2, 5, 5},  {1, 2, 10}};
  std::vector<Edge> Shuffled = {{2, 5, 5}, {1, 2, 10}, {3, 4, 20}, {0, 1, 40},
                                {4, 5, 5}, {1, 2, 30}, {0, 3, 20}};
  std::vector<NodeId> Order = computeCDSortOrder(Sizes, Counts, Edges);
  EXPECT_EQ(Order.size(), Sizes.size());
  EXPECT_THAT(computeCDSortOrder(Sizes, Counts, Shuffled),
              ElementsAreArray(Order));
}

} // namespace

//===- PettisHansenTest.cpp - Tests of the Pettis-Hansen order ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/PettisHansen.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

TEST(PettisHansen, EmptyGraph) {
  EXPECT_THAT(computePettisHansenOrder({}, {}, {}), IsEmpty());
}

TEST(PettisHansen, OrientationBringsEndpointsTogether) {
  // {0,1}: 100 makes [0 1], {2,3}: 90 makes [2 3]. The last edge {0,3}: 50
  // joins them; of the four orientations, [1 0] + [3 2] puts 0 and 3 side
  // by side (0 bytes apart, against 100 or 200), so both chains flip.
  // 4 ran 1000 times alone (density 10) and leads; the chain (weight
  // 100 + 140, 400 bytes) follows; 5 never ran.
  std::vector<uint64_t> Sizes(6, 100);
  std::vector<uint64_t> Counts = {0, 0, 0, 0, 1000, 0};
  std::vector<Edge> Edges = {{0, 1, 100}, {2, 3, 90}, {0, 3, 50}};
  EXPECT_THAT(computePettisHansenOrder(Sizes, Counts, Edges),
              ElementsAreArray({4, 1, 0, 3, 2, 5}));
}

TEST(PettisHansen, MergedEdgesCombine) {
  // {0,1}: 40 first makes [0 1]. Node 2 is tied to 0 and to 1 by 12 each:
  // once [0 1] exists these combine to 24, which beats {2,3}: 22, so 2
  // joins [0 1] next, beside 0 (the heaviest call, smaller endpoints
  // first): [1 0 2]. Then {2,3}: 22 appends 3 after 2, and {2,4}: 21
  // appends 4 at the end (100 bytes from 2 either way; ties do not flip).
  // Without combining, [3 2 4] would form first and meet [0 1] through
  // {0,2}: [1 0 3 2 4].
  std::vector<uint64_t> Sizes(5, 100);
  std::vector<uint64_t> Counts(5, 0);
  std::vector<Edge> Edges = {
      {0, 1, 40}, {0, 2, 12}, {1, 2, 12}, {2, 3, 22}, {2, 4, 21}};
  EXPECT_THAT(computePettisHansenOrder(Sizes, Counts, Edges),
              ElementsAreArray({1, 0, 2, 3, 4}));
}

TEST(PettisHansen, BothDirectionsAddUp) {
  // 0 -> 1 (30) and 1 -> 0 (30) make {0,1}: 60, heavier than {1,2}: 50:
  // [0 1] forms first, then 2 goes next to 1.
  std::vector<uint64_t> Sizes(3, 100);
  std::vector<Edge> Edges = {{0, 1, 30}, {1, 0, 30}, {2, 1, 50}};
  EXPECT_THAT(computePettisHansenOrder(Sizes, {0, 0, 0}, Edges),
              ElementsAreArray({0, 1, 2}));
}

TEST(PettisHansen, SizesDecideOrientation) {
  // After [0 1] (0 is 1000 bytes), 2 joins through {0,2}. Appending 2 as
  // is leaves 1 (10 bytes) between 0 and 2; flipping [0 1] to [1 0] makes
  // 0 and 2 adjacent: [1 0 2].
  std::vector<uint64_t> Sizes = {1000, 10, 10};
  std::vector<Edge> Edges = {{0, 1, 9}, {0, 2, 5}};
  EXPECT_THAT(computePettisHansenOrder(Sizes, {0, 0, 0}, Edges),
              ElementsAreArray({1, 0, 2}));
}

TEST(PettisHansen, SelfAndLightEdgesIgnored) {
  // Self-calls and zero counts never merge; with MinEdgeWeight 10 the
  // 5-count call does not either, so all stay single and sort by density
  // (weights: 1 has 5 incoming, 0 has 0; 2 ran 1000 times).
  std::vector<uint64_t> Sizes(3, 100);
  std::vector<uint64_t> Counts = {0, 0, 1000};
  std::vector<Edge> Edges = {{0, 0, 99}, {1, 2, 0}, {0, 1, 5}};
  PettisHansenConfig Config;
  Config.MinEdgeWeight = 10;
  EXPECT_THAT(computePettisHansenOrder(Sizes, Counts, Edges, Config),
              ElementsAreArray({2, 1, 0}));
  // With the default, {0,1} merges: [0 1], density 5 / 200 -> after 2.
  EXPECT_THAT(computePettisHansenOrder(Sizes, Counts, Edges),
              ElementsAreArray({2, 0, 1}));
}

TEST(PettisHansen, ZeroSizes) {
  // Unknown sizes take no room: every orientation is equally close, so
  // nothing flips: [0 1], then 2 after 1.
  std::vector<uint64_t> Sizes(3, 0);
  std::vector<Edge> Edges = {{0, 1, 10}, {1, 2, 5}};
  EXPECT_THAT(computePettisHansenOrder(Sizes, {0, 0, 0}, Edges),
              ElementsAreArray({0, 1, 2}));
}

TEST(PettisHansen, IndependentOfEdgeOrder) {
  std::vector<uint64_t> Sizes = {64, 128, 32, 256, 64, 16, 8};
  std::vector<uint64_t> Counts(7, 0);
  std::vector<Edge> Edges = {{0, 1, 40}, {1, 2, 30}, {0, 3, 20}, {3, 4, 20},
                             {4, 5, 5},  {2, 5, 5},  {6, 0, 20}};
  std::vector<Edge> Shuffled(Edges.rbegin(), Edges.rend());
  std::vector<NodeId> Order = computePettisHansenOrder(Sizes, Counts, Edges);
  EXPECT_EQ(Order.size(), Sizes.size());
  EXPECT_THAT(computePettisHansenOrder(Sizes, Counts, Shuffled),
              ElementsAreArray(Order));
}

} // namespace

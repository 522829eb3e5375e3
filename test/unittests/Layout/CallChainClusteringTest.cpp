//===- CallChainClusteringTest.cpp - Tests of the C3 order ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallChainClustering.h"

#include "LayoutTestUtils.h"

#include "llvm/ADT/STLExtras.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln::layout;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

TEST(CallChainClustering, EmptyGraph) {
  EXPECT_THAT(computeC3Order({}, {}, {}), IsEmpty());
}

TEST(CallChainClustering, CalleesJoinTheirCallersCluster) {
  // 3 calls 0 (100 times), 0 calls 2 (60 times); 1 runs 10 times, alone.
  // Weights (incoming calls): 0:100, 2:60, 1:10, 3:0; sizes 100, 100, 1000,
  // 100. Visiting by density: 0 (1.0) joins 3's cluster -> [3 0]; 2 (0.6)
  // joins the cluster of 0, now led by 3 -> [3 0 2] (density 160/300).
  // Clusters by density: [3 0 2] then [1] (0.01).
  std::vector<uint64_t> Sizes = {100, 1000, 100, 100};
  std::vector<uint64_t> Counts = {0, 10, 0, 0};
  std::vector<Edge> Edges = {{3, 0, 100}, {0, 2, 60}};
  EXPECT_THAT(computeC3Order(Sizes, Counts, Edges),
              ElementsAreArray({3, 0, 2, 1}));

  // Clusters are capped: [3 0] is 200 bytes, adding 2 would make 300.
  // [2] (0.6) is now denser than [3 0] (0.5).
  C3Config Small;
  Small.MaxClusterSize = 250;
  EXPECT_THAT(computeC3Order(Sizes, Counts, Edges, Small),
              ElementsAreArray({2, 3, 0, 1}));
}

TEST(CallChainClustering, UnlikelyCallsDoNotMerge) {
  // 1 runs 1000 times but only 100 of them come from 0: lld's rule refuses
  // the merge when 100 * 10 <= 1000, so 1 (density 10) and 0 (0) stay apart.
  std::vector<uint64_t> Sizes = {100, 100};
  std::vector<Edge> Edges = {{0, 1, 100}};
  EXPECT_THAT(computeC3Order(Sizes, {0, 1000}, Edges),
              ElementsAreArray({1, 0}));
  // At 999 runs the call is likely enough: 1 joins 0 -> [0 1].
  EXPECT_THAT(computeC3Order(Sizes, {0, 999}, Edges), ElementsAreArray({0, 1}));
}

TEST(CallChainClustering, DensityDegradationRefusesMerge) {
  // 1 (size 100, 8000 runs, density 80) calls the big 0 (10000 bytes,
  // density 0.1); 2 is in between (density 5). Merging 0 into [1] would
  // drop the density to 9000 / 10100 < 80 / 8, so the clusters stay
  // apart: 1, 2, 0.
  std::vector<uint64_t> Sizes = {10000, 100, 100};
  std::vector<uint64_t> Counts = {0, 8000, 500};
  std::vector<Edge> Edges = {{1, 0, 1000}};
  EXPECT_THAT(computeC3Order(Sizes, Counts, Edges),
              ElementsAreArray({1, 2, 0}));
  // Tolerating a 100x degradation merges them; [1 0] (0.89) then follows 2.
  C3Config Tolerant;
  Tolerant.MaxDensityDegradation = 100;
  EXPECT_THAT(computeC3Order(Sizes, Counts, Edges, Tolerant),
              ElementsAreArray({2, 1, 0}));
}

TEST(CallChainClustering, SelfCallsAddWeightOnly) {
  // 1 calls itself 500 times: weight 500 beats 0's 100 runs, but a
  // self-call never makes a cluster.
  std::vector<Edge> Edges = {{1, 1, 500}};
  EXPECT_THAT(computeC3Order({100, 100}, {100, 0}, Edges),
              ElementsAreArray({1, 0}));
}

TEST(CallChainClustering, ZeroSizeCountsAsOneByte) {
  // Unknown sizes must not make densities infinite or zero: 0 (size 0 ->
  // 1 byte, 10 runs) is denser than 1 (100 bytes, 100 runs).
  EXPECT_THAT(computeC3Order({0, 100}, {10, 100}, {}),
              ElementsAreArray({0, 1}));
  // All sizes unknown: densities are the counts.
  EXPECT_THAT(computeC3Order({0, 0, 0}, {1, 3, 2}, {}),
              ElementsAreArray({1, 2, 0}));
}

TEST(CallChainClustering, TiesBreakByNodeId) {
  // 2 is called 50 times by 0 and by 1: the smaller caller, 0, wins; 1 and
  // the rest tie at density 0 and follow by id.
  std::vector<uint64_t> Sizes = {100, 100, 100, 100};
  std::vector<uint64_t> Counts = {0, 0, 0, 0};
  std::vector<Edge> Edges = {{1, 2, 50}, {0, 2, 50}};
  EXPECT_THAT(computeC3Order(Sizes, Counts, Edges),
              ElementsAreArray({0, 2, 1, 3}));
  // Listing the edges the other way round changes nothing.
  std::vector<Edge> Reversed = {{0, 2, 50}, {1, 2, 50}};
  EXPECT_THAT(computeC3Order(Sizes, Counts, Reversed),
              ElementsAreArray({0, 2, 1, 3}));
}

TEST(CallChainClustering, StreamedEdgesGiveTheSameOrder) {
  // A pseudo-random graph with duplicate pairs, self-calls and zero counts:
  // the edges as an array, and streamed backwards (as a caller renumbering
  // a larger graph's edges would), give one order.
  std::vector<uint64_t> Sizes, Counts;
  std::vector<Edge> Edges;
  uint64_t State = 1;
  auto Next = [&] { return State = State * 6364136223846793005u + 1; };
  for (unsigned N = 0; N < 300; ++N) {
    Sizes.push_back(Next() >> 54);
    Counts.push_back(Next() >> 58);
  }
  for (unsigned I = 0; I < 1500; ++I)
    Edges.push_back(
        {NodeId(Next() >> 33) % 300, NodeId(Next() >> 33) % 300, Next() >> 57});
  C3Config Config;
  Config.MaxClusterSize = 4096;
  std::vector<NodeId> Order = computeC3Order(Sizes, Counts, Edges, Config);
  unsigned Visited = 0;
  EXPECT_THAT(computeC3OrderOfStream(
                  Sizes, Counts,
                  [&](function_ref<void(const Edge &)> Visit) {
                    for (const Edge &E : llvm::reverse(Edges)) {
                      ++Visited;
                      Visit(E);
                    }
                  },
                  Config),
              ElementsAreArray(Order));
  EXPECT_EQ(Visited, Edges.size()); // Read once.
}

TEST(CallChainClustering, DisconnectedNodesAndZeroCounts) {
  // Nothing ran and nothing calls: every density is 0, the order is by id.
  EXPECT_THAT(computeC3Order({8, 4, 2}, {0, 0, 0}, {{0, 1, 0}}),
              ElementsAreArray({0, 1, 2}));
}

} // namespace

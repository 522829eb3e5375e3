//===- LayoutEvaluationTest.cpp - Tests of the layout metrics -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/LayoutEvaluation.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using llvm::BitVector;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

BitVector executed(size_t NumNodes, std::initializer_list<unsigned> Nodes) {
  BitVector Result(NumNodes);
  for (unsigned N : Nodes)
    Result.set(N);
  return Result;
}

TEST(LayoutEvaluation, StartAddresses) {
  // Contiguous in order, each start rounded up to 16: 2 at 0 (5 bytes), 0 at
  // 16 (10 bytes, ends at 26), 1 at 32.
  std::vector<uint64_t> Sizes = {10, 20, 5};
  EXPECT_THAT(computeStartAddresses({2, 0, 1}, Sizes, 16),
              ElementsAre(0, 16, 32));
  EXPECT_THAT(computeStartAddresses({2, 0, 1}, Sizes), ElementsAre(0, 5, 15));
  EXPECT_THAT(computeStartAddresses({}, Sizes), IsEmpty());
}

TEST(LayoutEvaluation, PagesTouched) {
  // Four 3000-byte functions, 0 and 2 executed. In id order 0 sits in page
  // 0 and 2 in [6000, 9000), pages 1 and 2: 3 pages for 6000 bytes, whose
  // bound is 2.
  std::vector<uint64_t> Sizes(4, 3000);
  BitVector Ran = executed(4, {0, 2});
  EXPECT_EQ(countTouchedPages({0, 1, 2, 3}, Sizes, Ran, 4096),
            (PageStats{3, 2, 6000, 0}));
  // Putting 2 right after 0 fills [0, 6000): pages 0 and 1, the bound.
  EXPECT_EQ(countTouchedPages({0, 2, 1, 3}, Sizes, Ran, 4096),
            (PageStats{2, 2, 6000, 0}));
  // One 16 KiB page holds everything.
  EXPECT_EQ(countTouchedPages({0, 1, 2, 3}, Sizes, Ran, 16384),
            (PageStats{1, 1, 6000, 0}));
}

TEST(LayoutEvaluation, PagesTouchedEdgeCases) {
  // With 4096-byte alignment: 0 covers [0, 5000), pages 0 and 1; 2 starts
  // at 8192 (page 2); 3 has size 0 and occupies nothing; 1 ran but is not
  // placed. 3 pages against a bound of ceil(5001 / 4096) = 2.
  std::vector<uint64_t> Sizes = {5000, 100, 1, 0};
  BitVector Ran = executed(4, {0, 1, 2, 3});
  EXPECT_EQ(countTouchedPages({0, 2, 3}, Sizes, Ran, 4096, 4096),
            (PageStats{3, 2, 5001, 1}));
  // Nothing executed, nothing placed.
  EXPECT_EQ(countTouchedPages({}, Sizes, BitVector(4), 4096),
            (PageStats{0, 0, 0, 0}));
}

TEST(LayoutEvaluation, CallLocality) {
  // 100-byte functions at 0, 100, 200; calls are measured from the middle
  // of the caller. 0 -> 1: |100 - 50| = 50 (< 64); 0 -> 2: 150 (< 4096);
  // 2 -> 0: 250 (< 4096); 1 -> 1 is a self-call (ignored); 1 -> 3: 3 is not
  // placed. Total 10 + 5 + 1 + 4 = 20.
  std::vector<uint64_t> Sizes(4, 100);
  std::vector<Edge> Edges = {
      {0, 1, 10}, {0, 2, 5}, {2, 0, 1}, {1, 1, 7}, {1, 3, 4}};
  CallLocality L = computeCallLocality({0, 1, 2}, Sizes, Edges);
  EXPECT_EQ(L, (CallLocality{{64, 4096, 2 << 20}, {10, 16, 16}, 20, 4}));
  EXPECT_DOUBLE_EQ(L.getShare(0), 0.5);
  EXPECT_DOUBLE_EQ(L.getShare(1), 0.8);

  // Distances are strict: a call exactly 50 bytes away is not within 50.
  CallLocality Strict = computeCallLocality({0, 1, 2}, Sizes, Edges, {50, 51});
  EXPECT_EQ(Strict, (CallLocality{{50, 51}, {0, 10}, 20, 4}));

  // No calls: shares are 0, not NaN.
  CallLocality None = computeCallLocality({0, 1}, Sizes, {});
  EXPECT_DOUBLE_EQ(None.getShare(2), 0.0);
}

TEST(LayoutEvaluation, ExtTspScore) {
  // LLVM's ext-TSP weights: a fall-through from the only call of 0 scores
  // 1.05 per call; 0 after 1 makes a backward jump of 200 bytes (end of 0
  // to start of 1), worth 0.1 * (1 - 200 / 640) = 0.06875 per call.
  std::vector<uint64_t> Sizes = {100, 100};
  std::vector<Edge> Edges = {{0, 1, 10}};
  EXPECT_DOUBLE_EQ(computeExtTspScore({0, 1}, Sizes, Edges), 10.5);
  EXPECT_DOUBLE_EQ(computeExtTspScore({1, 0}, Sizes, Edges), 0.6875);
  // Padding belongs to the function before it: 90 bytes aligned to 128 is
  // still a fall-through.
  std::vector<uint64_t> Odd = {90, 100};
  EXPECT_DOUBLE_EQ(computeExtTspScore({0, 1}, Odd, Edges, 128), 10.5);
  // Calls to unplaced nodes and self-calls do not count.
  EXPECT_DOUBLE_EQ(computeExtTspScore({0}, Sizes, Edges), 0.0);
  EXPECT_DOUBLE_EQ(computeExtTspScore({0, 1}, Sizes, {{0, 0, 50}}), 0.0);
  EXPECT_DOUBLE_EQ(computeExtTspScore({}, Sizes, Edges), 0.0);
}

TEST(LayoutEvaluation, AllMetricsWithAlignment) {
  // 0 (100 bytes) calls 1 (3000 bytes) and both ran. 16-byte alignment
  // puts 1 at 112: the call, from byte 50, is 62 bytes away (within 64), 1
  // ends at 3112 (one 4 KiB page), and 0 -> 1 is a fall-through once the
  // padding counts as 0's: 1.05 * 7.
  std::vector<uint64_t> Sizes = {100, 3000, 50};
  std::vector<Edge> Edges = {{0, 1, 7}};
  EvaluationConfig Config;
  Config.Alignment = 16;
  LayoutMetrics M =
      evaluateLayout({0, 1, 2}, Sizes, executed(3, {0, 1}), Edges, Config);
  EXPECT_EQ(M.Pages, (PageStats{1, 1, 3100, 0}));
  EXPECT_EQ(M.Locality, (CallLocality{{64, 4096, 2 << 20}, {7, 7, 7}, 7, 0}));
  EXPECT_DOUBLE_EQ(M.ExtTspScore, 7.35);
}

TEST(LayoutEvaluation, PagesAtRealAddresses) {
  // A binary's layout: 0 at 0x1ff0 (straddles pages 1 and 2), 1 at 0x5000,
  // 2 unplaced (the binary lacks it), 3 at 0x2100 (page 2 again). Nodes are
  // visited in id order, not address order, and pages still count once.
  std::vector<uint64_t> Addresses = {0x1ff0, 0x5000, UnplacedAddress, 0x2100};
  std::vector<uint64_t> Sizes = {0x20, 0x10, 8, 0x100};
  PageStats Stats =
      countTouchedPagesAt(Addresses, Sizes, executed(4, {0, 1, 2, 3}), 4096);
  // Pages 1, 2 and 5; 0x130 executed bytes fit in one page.
  EXPECT_EQ(Stats, (PageStats{3, 1, 0x130, 1}));
  // 16 KiB pages: 0x1ff0..0x2200 and 0x5000 are both in page 0 and 1.
  EXPECT_EQ(
      countTouchedPagesAt(Addresses, Sizes, executed(4, {0, 1, 3}), 16384),
      (PageStats{2, 1, 0x130, 0}));
}

TEST(LayoutEvaluation, CallLocalityAtRealAddresses) {
  // 0 at 0 (size 100) calls 1 at 5000 and 2 at 80; 2 is unplaced once.
  std::vector<uint64_t> Sizes = {100, 10, 10};
  std::vector<Edge> Edges = {{0, 1, 3}, {0, 2, 5}};
  CallLocality Near = computeCallLocalityAt({0, 5000, 80}, Sizes, Edges);
  // From byte 50: 2 is 30 bytes away, 1 is 4950 (within 2 MiB only).
  EXPECT_EQ(Near, (CallLocality{{64, 4096, 2 << 20}, {5, 5, 8}, 8, 0}));
  CallLocality Unplaced =
      computeCallLocalityAt({0, 5000, UnplacedAddress}, Sizes, Edges);
  EXPECT_EQ(Unplaced.UnplacedCount, 5u);
  EXPECT_EQ(Unplaced.TotalCount, 8u);
}

} // namespace

//===- TracePartitioningTest.cpp - Tests of the trace-based order ---------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/TracePartitioning.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using testing::ElementsAre;
using testing::ElementsAreArray;
using testing::IsEmpty;
using testing::UnorderedElementsAreArray;

namespace {

TraceUtilityNodes un(NodeId N, std::vector<uint32_t> Utilities) {
  return TraceUtilityNodes{N, std::move(Utilities)};
}

TEST(TracePartitioning, NoTraces) {
  EXPECT_THAT(computeTracePartitioningOrder({}), IsEmpty());
  EXPECT_THAT(computeFirstExecutionOrder({}), IsEmpty());
  std::vector<NodeId> Empty;
  EXPECT_THAT(computeTracePartitioningOrder({TraceRef{Empty, 1.0}}), IsEmpty());
}

TEST(TracePartitioning, UtilityNodesFollowWindowsAndWeights) {
  // X = [3 1 2 0] (weight 1) has windows {pos 0}, {1}, {2, 3}: utility
  // nodes 0, 1, 2; a node first run in window K gets K..2.
  // Y = [2 5] (weight 3) has windows {0}, {1}, each copied 3 times: ids
  // 3-5 for window 0 and 6-8 for window 1; 2 gets both, 5 the second.
  // Nodes come sorted by earliest position, then id: 2 and 3 (0), 1 and 5
  // (1), 0 (3).
  std::vector<NodeId> X = {3, 1, 2, 0}, Y = {2, 5};
  std::vector<TraceRef> Traces = {{X, 1.0}, {Y, 3.0}};
  TracePartitioningConfig Raw;
  Raw.RemoveOutlierUtilities = false;
  EXPECT_THAT(computeTraceUtilityNodes(Traces, Raw),
              ElementsAre(un(2, {2, 3, 4, 5, 6, 7, 8}), un(3, {0, 1, 2}),
                          un(1, {1, 2}), un(5, {6, 7, 8}), un(0, {2})));

  // Outliers go, as in LLVM: utility nodes of one function (0, 3, 4, 5) and
  // of more than half of the 5 functions (2, shared by 4).
  EXPECT_THAT(computeTraceUtilityNodes(Traces),
              ElementsAre(un(2, {6, 7, 8}), un(3, {1}), un(1, {1}),
                          un(5, {6, 7, 8}), un(0, {})));

  // Copies are capped: Y contributes 2 copies per window (ids 3-6).
  Raw.MaxUtilityCopies = 2;
  EXPECT_THAT(computeTraceUtilityNodes(Traces, Raw),
              ElementsAre(un(2, {2, 3, 4, 5, 6}), un(3, {0, 1, 2}),
                          un(1, {1, 2}), un(5, {5, 6}), un(0, {2})));
}

TEST(TracePartitioning, WeightsAreRelative) {
  // Weights 10 and 30 duplicate like 1 and 3; weight 0 contributes no
  // utility node but its nodes are still ordered.
  std::vector<NodeId> X = {0, 1}, Y = {1, 2}, Z = {7};
  TracePartitioningConfig Raw;
  Raw.RemoveOutlierUtilities = false;
  EXPECT_THAT(computeTraceUtilityNodes({{X, 10.0}, {Y, 30.0}, {Z, 0.0}}, Raw),
              ElementsAre(un(0, {0, 1}), un(1, {1, 2, 3, 4, 5, 6, 7}),
                          un(7, {}), un(2, {5, 6, 7})));
}

TEST(TracePartitioning, RepeatsCountAtFirstPosition) {
  // [4 4 7]: the repeat still takes position 1, so 7 (position 2) is in
  // window 2; 4 gets windows 0-2.
  std::vector<NodeId> T = {4, 4, 7};
  TracePartitioningConfig Raw;
  Raw.RemoveOutlierUtilities = false;
  EXPECT_THAT(computeTraceUtilityNodes({{T, 1.0}}, Raw),
              ElementsAre(un(4, {0, 1, 2}), un(7, {2})));
  EXPECT_THAT(computeFirstExecutionOrder({{T, 1.0}}), ElementsAre(4, 7));
}

TEST(TracePartitioning, SingleTraceKeepsItsOrder) {
  // One trace has nothing to balance: after outlier removal only utility 1
  // remains, shared by 3 and 1, which the first split already puts
  // together; no move gains, so the order is the trace's.
  std::vector<NodeId> T = {3, 1, 2, 0};
  EXPECT_THAT(computeTracePartitioningOrder({{T, 1.0}}),
              ElementsAreArray({3, 1, 2, 0}));
}

TEST(TracePartitioning, FirstExecutionOrder) {
  // Earliest position over all traces, ties by id: 3 and 5 (0), 7 (1), 9.
  std::vector<NodeId> A = {5, 3, 9}, B = {3, 7, 5};
  EXPECT_THAT(computeFirstExecutionOrder({{A, 1.0}, {B, 1.0}}),
              ElementsAreArray({3, 5, 7, 9}));
}

/// Deterministic pseudo-random traces over 300 functions: each trace runs a
/// shuffled prefix of a common startup sequence.
std::vector<Trace> makeTraces() {
  std::vector<Trace> Traces;
  uint64_t State = 12345;
  auto Next = [&] {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(State >> 33);
  };
  for (unsigned T = 0; T < 6; ++T) {
    Trace Tr;
    for (NodeId N = 0; N < 300; ++N)
      if (Next() % 4 != 0)
        Tr.Nodes.push_back((N * 7 + T) % 300);
    for (size_t I = 0; I + 1 < Tr.Nodes.size(); ++I)
      if (Next() % 3 == 0)
        std::swap(Tr.Nodes[I], Tr.Nodes[I + 1]);
    Tr.Weight = 1 + T % 3;
    Traces.push_back(std::move(Tr));
  }
  return Traces;
}

TEST(TracePartitioning, SameOrderWithAndWithoutThreads) {
  std::vector<Trace> Traces = makeTraces();
  std::vector<TraceRef> Refs = makeTraceRefs(Traces);
  TracePartitioningConfig Threads;
  Threads.BP.TaskSplitDepth = 9;
  TracePartitioningConfig NoThreads;
  NoThreads.BP.TaskSplitDepth = 0;
  std::vector<NodeId> Order = computeTracePartitioningOrder(Refs, Threads);

  std::vector<NodeId> All;
  for (const Trace &T : Traces)
    All.insert(All.end(), T.Nodes.begin(), T.Nodes.end());
  llvm::sort(All);
  All.erase(std::unique(All.begin(), All.end()), All.end());
  EXPECT_THAT(Order, UnorderedElementsAreArray(All));

  EXPECT_THAT(computeTracePartitioningOrder(Refs, NoThreads),
              ElementsAreArray(Order));
  EXPECT_THAT(computeTracePartitioningOrder(Refs, Threads),
              ElementsAreArray(Order));
}

} // namespace

//===- BlockLayoutTest.cpp - Tests of the block planner -------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/BlockLayout.h"

#include "BlockProfileBuilder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <initializer_list>

using namespace kiln::layout;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

using ProfileBuilder = kiln::layout::test::BlockProfileBuilder;

/// \returns the cluster of function \p F of kind \p Kind, or null.
const BlockCluster *findCluster(const BlockLayout &L, uint32_t F,
                                ClusterKind Kind) {
  for (const BlockCluster &C : L.Clusters)
    if (C.Function == F && C.Kind == Kind)
      return &C;
  return nullptr;
}

/// \returns the IDs of \p C's blocks, in layout order.
std::vector<uint32_t> blockIDs(const BlockProfile &P, const BlockCluster &C) {
  std::vector<uint32_t> IDs;
  for (uint32_t B : C.Blocks)
    IDs.push_back(P.Functions[C.Function].Blocks[B].ID);
  return IDs;
}

/// \returns the symbol names of L.Order.
std::vector<std::string> orderedNames(const BlockProfile &P,
                                      const BlockLayout &L) {
  std::vector<std::string> Names;
  for (uint32_t I : L.Order)
    Names.push_back(getClusterSymbolName(
        P.Functions[L.Clusters[I].Function].Name, L.Clusters[I]));
  return Names;
}

TEST(BlockLayout, SplitsAFunctionFourWays) {
  // 0 runs at startup and in the steady state, 1 only at startup, 2 only in
  // the steady state, 3 never.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {1, 5});
  B.block(1, 32, {1, 0});
  B.block(2, 32, {0, 5});
  B.block(3, 32, {0, 0});
  B.edge(0, 1, {1, 0});
  B.edge(0, 2, {0, 5});
  BlockLayout L = planBlockLayout(B.P);

  ASSERT_EQ(L.Functions.size(), 1u);
  ASSERT_EQ(L.Clusters.size(), 4u);
  const BlockCluster *Shared = findCluster(L, F, ClusterKind::Shared);
  const BlockCluster *Startup = findCluster(L, F, ClusterKind::Startup);
  const BlockCluster *Steady = findCluster(L, F, ClusterKind::Steady);
  const BlockCluster *Cold = findCluster(L, F, ClusterKind::Cold);
  ASSERT_TRUE(Shared && Startup && Steady && Cold);
  EXPECT_THAT(blockIDs(B.P, *Shared), ElementsAre(0u));
  EXPECT_THAT(blockIDs(B.P, *Startup), ElementsAre(1u));
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(2u));
  EXPECT_THAT(blockIDs(B.P, *Cold), ElementsAre(3u));
  // The entry cluster is `c` line 0 and named as the function; the others
  // follow in kind order.
  EXPECT_EQ(getClusterSymbolName("f", *Shared), "f");
  EXPECT_EQ(getClusterSymbolName("f", *Startup), "f.__part.1");
  EXPECT_EQ(getClusterSymbolName("f", *Steady), "f.__part.2");
  EXPECT_EQ(getClusterSymbolName("f", *Cold), "f.cold");
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Shared)], 32u);
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Startup)], 32u);
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Steady)], 32u);
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Cold)], 32u);
  EXPECT_EQ(L.getStartupRunBytes(), 64u);
}

TEST(BlockLayout, NamesThePartsOfAPromotedStatic) {
  BlockCluster Part;
  Part.Number = 1;
  EXPECT_EQ(getClusterSymbolName("helper.llvm.42", Part),
            "helper.llvm.42.__part.1");
  BlockCluster Cold;
  EXPECT_EQ(getClusterSymbolName("helper.llvm.42", Cold),
            "helper.llvm.42.cold");
}

TEST(BlockLayout, EveryRunOfAFunctionRunsItsEntry) {
  // Startup ran only block 2 (the entry has no startup count: a sampled
  // profile); the steady state ran the entry. Startup entered the function
  // too, so the entry is shared, and begins `c` line 0.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {0, 7});
  B.block(1, 32, {0, 7});
  B.block(2, 32, {3, 0});
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Shared = findCluster(L, F, ClusterKind::Shared);
  const BlockCluster *Startup = findCluster(L, F, ClusterKind::Startup);
  const BlockCluster *Steady = findCluster(L, F, ClusterKind::Steady);
  ASSERT_TRUE(Shared && Startup && Steady);
  EXPECT_EQ(Shared->Number, 0u);
  EXPECT_THAT(blockIDs(B.P, *Shared), ElementsAre(0u));
  EXPECT_EQ(Startup->Number, 1u);
  EXPECT_THAT(blockIDs(B.P, *Startup), ElementsAre(2u));
  EXPECT_EQ(Steady->Number, 2u);
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(1u));

  // An entry no count names joins the kind of the function's runs.
  ProfileBuilder B2;
  B2.function("g");
  B2.block(0, 32, {0, 0});
  B2.block(1, 32, {0, 7});
  BlockLayout L2 = planBlockLayout(B2.P);
  ASSERT_EQ(L2.Clusters.size(), 1u);
  EXPECT_EQ(L2.Clusters[0].Kind, ClusterKind::Steady);
  EXPECT_THAT(blockIDs(B2.P, L2.Clusters[0]), ElementsAre(0u, 1u));
}

TEST(BlockLayout, OrdersADiamondByItsCounts) {
  // 0 -> 1 (rare) -> 3 and 0 -> 2 (hot) -> 3: the hot path falls through,
  // the rare block goes last.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {0, 100});
  B.block(1, 32, {0, 1});
  B.block(2, 32, {0, 99});
  B.block(3, 32, {0, 100});
  B.edge(0, 1, {0, 1});
  B.edge(0, 2, {0, 99});
  B.edge(1, 3, {0, 1});
  B.edge(2, 3, {0, 99});
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Steady = findCluster(L, F, ClusterKind::Steady);
  ASSERT_TRUE(Steady);
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(0u, 2u, 3u, 1u));
}

TEST(BlockLayout, OrdersALoopByItsCounts) {
  // Laid out by address as entry, exit, latch, header. ext-TSP rotates the
  // loop: the latch comes first so that the back edge (1000 times) falls
  // through into the header, and the header falls through to the exit;
  // only the loop's entry (10 times) and the header's short backward branch
  // to the latch are jumps.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  uint32_t Entry = B.block(0, 16, {0, 10});
  uint32_t Exit = B.block(3, 16, {0, 10});
  uint32_t Latch = B.block(2, 16, {0, 1000});
  uint32_t Header = B.block(1, 16, {0, 1010});
  B.edge(Entry, Header, {0, 10});
  B.edge(Latch, Header, {0, 1000});
  B.edge(Header, Exit, {0, 10});
  B.edge(Header, Latch, {0, 1000});
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Steady = findCluster(L, F, ClusterKind::Steady);
  ASSERT_TRUE(Steady);
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(0u, 2u, 1u, 3u));
}

TEST(BlockLayout, APartBeginsWithTheBlockEnteredMostFromOutside) {
  // The steady-only part {1, 2, 3} is entered at 3 (40 times) more than at
  // 1 (2 times), though 2 runs most.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {1, 42});
  B.block(1, 32, {0, 2});
  B.block(2, 32, {0, 100});
  B.block(3, 32, {0, 40});
  B.edge(0, 1, {0, 2});
  B.edge(0, 3, {0, 40});
  B.edge(3, 2, {0, 40});
  B.edge(1, 2, {0, 2});
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Steady = findCluster(L, F, ClusterKind::Steady);
  ASSERT_TRUE(Steady);
  EXPECT_EQ(blockIDs(B.P, *Steady).front(), 3u);
}

TEST(BlockLayout, KeepsSmallPartsWithTheirFunction) {
  // An 8-byte steady-only part and a 4-byte never-run part are cheaper
  // kept than split off: both stay in the shared cluster.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {1, 1});
  B.block(1, 8, {0, 1});
  B.block(2, 4, {0, 0});
  BlockLayout L = planBlockLayout(B.P);
  ASSERT_EQ(L.Clusters.size(), 1u);
  EXPECT_EQ(L.Clusters[0].Kind, ClusterKind::Shared);
  EXPECT_EQ(L.Clusters[0].Bytes, 44u);
  EXPECT_EQ(L.NumTinyPartsKept, 2u);
  // The bytes that ran are counted as they ran.
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Shared)], 32u);
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Steady)], 8u);

  // With no minimum, every part is split.
  BlockLayoutConfig Config;
  Config.MinSplitBytes = 0;
  BlockLayout Split = planBlockLayout(B.P, Config);
  EXPECT_EQ(Split.Clusters.size(), 3u);
  EXPECT_EQ(Split.NumTinyPartsKept, 0u);

  // A small never-run part stays with the last executed cluster, the
  // steady one here, which is big enough to be split.
  ProfileBuilder B2;
  B2.function("g");
  B2.block(0, 32, {1, 1});
  B2.block(1, 32, {0, 1});
  B2.block(2, 4, {0, 0});
  BlockLayout L2 = planBlockLayout(B2.P);
  const BlockCluster *Steady = findCluster(L2, F, ClusterKind::Steady);
  ASSERT_TRUE(Steady);
  EXPECT_THAT(blockIDs(B2.P, *Steady), ElementsAre(1u, 2u));
  EXPECT_EQ(findCluster(L2, F, ClusterKind::Cold), nullptr);

  // A small startup-only part stays with the shared one; a small shared
  // part with the startup-only one; a small steady-only part with the
  // startup-only one when there is no shared one.
  ProfileBuilder B3;
  B3.function("h");
  B3.block(0, 32, {1, 1});
  B3.block(1, 8, {1, 0});
  B3.block(2, 32, {0, 1});
  BlockLayout L3 = planBlockLayout(B3.P);
  const BlockCluster *Shared3 = findCluster(L3, 0, ClusterKind::Shared);
  ASSERT_TRUE(Shared3);
  EXPECT_THAT(blockIDs(B3.P, *Shared3), testing::UnorderedElementsAre(0u, 1u));
  EXPECT_EQ(findCluster(L3, 0, ClusterKind::Startup), nullptr);

  ProfileBuilder B4;
  B4.function("k");
  B4.block(0, 32, {1, 0});
  B4.block(1, 8, {1, 1});
  B4.block(2, 8, {0, 1});
  B4.edge(0, 1, {1, 0});
  BlockLayout L4 = planBlockLayout(B4.P);
  // The entry is shared (both kinds ran the function); 1 is shared too, 2
  // steady-only and small: it stays with them. Block 0's startup-only
  // count is overruled by the entry rule, so one cluster remains.
  ASSERT_EQ(L4.Clusters.size(), 1u);
  EXPECT_EQ(L4.Clusters[0].Kind, ClusterKind::Shared);
}

TEST(BlockLayout, KeepsANeverRunTailBeforeTheBlockItFallsInto) {
  // 1 and 2 never ran and fall through, 2 into 3, which only the steady
  // state ran (a jump from the entry): they lead its cluster into it, so a
  // later run that takes them needs no jump back. 4 never ran either but
  // leads into nothing that ran: it goes to the cold cluster.
  auto Build = [](uint64_t TailSize, bool FallsThrough) {
    ProfileBuilder B;
    B.function("f");
    B.block(0, 32, {1, 1});
    B.block(1, 4, {0, 0});
    B.block(2, TailSize, {0, 0});
    B.block(3, 32, {0, 5});
    B.block(4, 32, {0, 0});
    if (FallsThrough) {
      B.fallsThrough(1);
      B.fallsThrough(2);
    }
    B.fallsThrough(3);
    B.edge(0, 3, {0, 5});
    return B;
  };
  ProfileBuilder B = Build(8, true);
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Steady = findCluster(L, 0, ClusterKind::Steady);
  const BlockCluster *Cold = findCluster(L, 0, ClusterKind::Cold);
  ASSERT_TRUE(Steady && Cold);
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(1u, 2u, 3u));
  EXPECT_EQ(Steady->Bytes, 44u);
  EXPECT_THAT(blockIDs(B.P, *Cold), ElementsAre(4u));
  EXPECT_EQ(L.NumFallThroughsKept, 2u);
  EXPECT_EQ(L.NumFallThroughsOverRun, 0u);
  // They ran as they ran: never.
  EXPECT_EQ(L.RunBytes[unsigned(ClusterKind::Cold)], 44u);

  // Only the blocks right before it, up to the limit: 16 bytes keep 2 (8)
  // and 1 (4); a 16-byte 2 alone fills it, and 1 goes cold.
  ProfileBuilder Big = Build(16, true);
  BlockLayout LB = planBlockLayout(Big.P);
  EXPECT_THAT(blockIDs(Big.P, *findCluster(LB, 0, ClusterKind::Steady)),
              ElementsAre(2u, 3u));
  EXPECT_THAT(blockIDs(Big.P, *findCluster(LB, 0, ClusterKind::Cold)),
              ElementsAre(1u, 4u));

  // Blocks not known to fall through, or a limit of 0, send them all to
  // the cold cluster.
  ProfileBuilder NoFlag = Build(8, false);
  BlockLayout LN = planBlockLayout(NoFlag.P);
  EXPECT_THAT(blockIDs(NoFlag.P, *findCluster(LN, 0, ClusterKind::Cold)),
              ElementsAre(1u, 2u, 4u));
  BlockLayoutConfig Off;
  Off.MaxFallThroughBytes = 0;
  BlockLayout LO = planBlockLayout(B.P, Off);
  EXPECT_THAT(blockIDs(B.P, *findCluster(LO, 0, ClusterKind::Steady)),
              ElementsAre(3u));
  EXPECT_EQ(LO.NumFallThroughsKept, 0u);
}

/// f: the entry, which both kinds of scenario ran; 1, 8 bytes, never run,
/// falling through into 2; 2, which the entry jumps to as often as it runs
/// (\p Counts2); 3, \p Size3 bytes, never run.
ProfileBuilder neverRunTailProfile(ScenarioCounts Counts2, uint64_t Size3) {
  ProfileBuilder B;
  B.function("f");
  B.block(0, 32, {1, 1});
  B.block(1, 8, {0, 0});
  B.block(2, 32, Counts2);
  B.block(3, Size3, {0, 0});
  B.fallsThrough(1);
  B.edge(0, 2, Counts2);
  return B;
}

TEST(BlockLayout, KeepsTheCompilersFallThroughAtAMerge) {
  // 1 never ran and falls into 2; the entry ran into 2, and ext-TSP puts
  // it right before 2. 1 goes there all the same, as the compiler had it:
  // the entry jumps to 2, which is what it did in the compiler's order,
  // and a run that takes 1 needs no jump back.
  ProfileBuilder B = neverRunTailProfile({1, 1}, 32);
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Shared = findCluster(L, 0, ClusterKind::Shared);
  const BlockCluster *Cold = findCluster(L, 0, ClusterKind::Cold);
  ASSERT_TRUE(Shared && Cold);
  EXPECT_THAT(blockIDs(B.P, *Shared), ElementsAre(0u, 1u, 2u));
  EXPECT_EQ(Shared->Bytes, 72u);
  EXPECT_THAT(blockIDs(B.P, *Cold), ElementsAre(3u));
  EXPECT_EQ(Cold->Bytes, 32u);
  EXPECT_EQ(L.NumFallThroughsKept, 1u);
  EXPECT_EQ(L.NumFallThroughsOverRun, 1u);
}

TEST(BlockLayout, AColdClusterLeftTooSmallJoinsTheFunction) {
  // 1 moves before 2, which it falls into; 3, 12 bytes, is all that is left
  // of the cold cluster: too small for a section of its own, it joins the
  // last executed cluster.
  ProfileBuilder B = neverRunTailProfile({0, 5}, 12);
  BlockLayout L = planBlockLayout(B.P);
  ASSERT_EQ(L.Clusters.size(), 2u);
  const BlockCluster *Steady = findCluster(L, 0, ClusterKind::Steady);
  ASSERT_TRUE(Steady);
  EXPECT_THAT(blockIDs(B.P, *Steady), ElementsAre(1u, 2u, 3u));
  EXPECT_EQ(Steady->Bytes, 52u);
  EXPECT_EQ(findCluster(L, 0, ClusterKind::Cold), nullptr);
  EXPECT_EQ(L.NumFallThroughsKept, 1u);
  EXPECT_EQ(L.NumTinyPartsKept, 1u);
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_EQ(L.Functions[0].Clusters.size(), 2u);
}

TEST(BlockLayout, KeepsLandingPadsInOneCluster) {
  // Pad 2 ran at startup, pad 3 never: LLVM would move both to `f.eh`, so
  // the planner keeps pad 3 with pad 2.
  ProfileBuilder B;
  uint32_t F = B.function("f");
  B.block(0, 32, {1, 0});
  B.block(1, 32, {0, 0});
  B.block(2, 32, {1, 0}, /*IsEHPad=*/true);
  B.block(3, 32, {0, 0}, /*IsEHPad=*/true);
  BlockLayout L = planBlockLayout(B.P);
  const BlockCluster *Startup = findCluster(L, F, ClusterKind::Startup);
  const BlockCluster *Cold = findCluster(L, F, ClusterKind::Cold);
  ASSERT_TRUE(Startup && Cold);
  EXPECT_THAT(blockIDs(B.P, *Cold), ElementsAre(1u));
  std::vector<uint32_t> StartupIDs = blockIDs(B.P, *Startup);
  EXPECT_EQ(StartupIDs.front(), 0u);
  EXPECT_THAT(StartupIDs, testing::UnorderedElementsAre(0u, 2u, 3u));
  EXPECT_EQ(L.NumEHPadsMoved, 1u);

  // Pads that all never ran stay cold together: nothing moves.
  ProfileBuilder Cool;
  Cool.function("g");
  Cool.block(0, 32, {1, 0});
  Cool.block(1, 32, {0, 0}, /*IsEHPad=*/true);
  Cool.block(2, 32, {0, 0}, /*IsEHPad=*/true);
  BlockLayout LC = planBlockLayout(Cool.P);
  EXPECT_EQ(LC.NumEHPadsMoved, 0u);
  const BlockCluster *ColdPads = findCluster(LC, 0, ClusterKind::Cold);
  ASSERT_TRUE(ColdPads);
  EXPECT_THAT(blockIDs(Cool.P, *ColdPads), ElementsAre(1u, 2u));
}

TEST(BlockLayout, LeavesOutFunctionsNoScenarioRan) {
  ProfileBuilder B;
  B.function("unused");
  B.block(0, 32, {0, 0});
  B.block(1, 32, {0, 0});
  uint32_t Used = B.function("used");
  B.block(0, 32, {0, 3});
  BlockLayout L = planBlockLayout(B.P);
  EXPECT_EQ(L.NumNotRun, 1u);
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_EQ(L.Functions[0].Function, Used);
  ASSERT_EQ(L.Clusters.size(), 1u);
  EXPECT_THAT(L.Skipped, IsEmpty());
}

/// Startup code in `main` and `init`; `main`'s steady-state part calls
/// the hot `work`; `rare` ran a little in the steady state.
BlockProfile makeProgram() {
  ProfileBuilder B;
  B.function("rare");
  B.block(0, 64, {0, 1});
  B.function("work");
  B.block(0, 64, {0, 5000});
  B.function("main");
  B.block(0, 64, {1, 1});
  B.block(1, 64, {1, 0});
  B.block(2, 64, {0, 5000});
  B.edge(0, 1, {1, 0});
  B.edge(0, 2, {0, 1});
  B.edge(2, 2, {0, 4999});
  B.call(1, 3, {1, 0});
  B.call(2, 1, {0, 5000});
  B.call(2, 0, {0, 1});
  B.function("init");
  B.block(0, 64, {1, 0});
  return std::move(B.P);
}

TEST(BlockLayout, PlacesStartupClustersFirst) {
  BlockProfile P = makeProgram();
  BlockLayout L = planBlockLayout(P);
  ASSERT_EQ(L.Order.size(), 6u);
  // Startup clusters first, together: main's shared entry, its
  // startup-only part, init; then the hot steady-state part and the
  // function it calls; the rarely run one after them.
  std::vector<std::string> Names = orderedNames(P, L);
  EXPECT_THAT(std::vector<std::string>(Names.begin(), Names.begin() + 3),
              testing::UnorderedElementsAre("main", "main.__part.1", "init"));
  EXPECT_THAT(std::vector<std::string>(Names.begin() + 3, Names.begin() + 5),
              testing::UnorderedElementsAre("main.__part.2", "work"));
  EXPECT_EQ(Names[5], "rare");
  for (unsigned I = 0; I < 3; ++I)
    EXPECT_EQ(L.Clusters[L.Order[I]].Group, LayoutGroup::Startup);
  EXPECT_EQ(L.Clusters[L.Order[3]].Group, LayoutGroup::Hot);
  EXPECT_EQ(L.Composite.getGroup(LayoutGroup::Startup).Bytes, 192u);
}

TEST(BlockLayout, IsDeterministic) {
  BlockProfile P = makeProgram();
  BlockLayout A = planBlockLayout(P);
  BlockLayout B = planBlockLayout(P);
  EXPECT_EQ(A.Order, B.Order);
  ASSERT_EQ(A.Clusters.size(), B.Clusters.size());
  for (size_t I = 0; I < A.Clusters.size(); ++I) {
    EXPECT_EQ(A.Clusters[I].Blocks, B.Clusters[I].Blocks);
    EXPECT_EQ(A.Clusters[I].Number, B.Clusters[I].Number);
    EXPECT_EQ(A.Clusters[I].Group, B.Clusters[I].Group);
  }
}

TEST(BlockLayout, SkipsFunctionsItCannotName) {
  ProfileBuilder B;
  B.function("dup");
  B.block(0, 32, {1, 1});
  B.function("dup");
  B.block(0, 32, {1, 1});
  B.function("two words");
  B.block(0, 32, {1, 1});
  B.function("same-ids");
  B.block(0, 32, {1, 1});
  B.block(0, 32, {1, 1});
  B.function("f");
  B.block(0, 32, {1, 1});
  B.function("f.cold");
  B.block(0, 32, {1, 1});
  B.function("empty");
  BlockLayout L = planBlockLayout(B.P);
  std::vector<std::pair<uint32_t, SkipReason>> Skipped;
  for (const SkippedFunction &S : L.Skipped)
    Skipped.push_back({S.Function, S.Reason});
  EXPECT_THAT(Skipped, ElementsAre(std::pair(0u, SkipReason::DuplicateName),
                                   std::pair(1u, SkipReason::DuplicateName),
                                   std::pair(2u, SkipReason::BadName),
                                   std::pair(3u, SkipReason::DuplicateBlockID),
                                   std::pair(4u, SkipReason::ClusterNameTaken),
                                   std::pair(6u, SkipReason::NoBlocks)));
  // `f.cold` itself is a function like any other.
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_EQ(L.Functions[0].Function, 5u);
}

/// Block 1 branches to 2 (\p ToTwo times, 1000 unless given) or 3
/// (\p ToThree, 900), which both go on to 4; by address, 3 comes before 2.
/// With block 2 aligned by the compiler (it starts on a 16-byte boundary
/// after padding, after 3, which jumps to 4), falling into it would run the
/// padding every time: ext-TSP should make 3 the fall-through instead.
/// Without the padding, 2 is.
BlockProfile twoSuccessors(bool Padded, uint64_t Base = 0x1000,
                           uint64_t ToTwo = 1000, uint64_t ToThree = 900) {
  ProfileBuilder B(/*WithScenarios=*/true, Base);
  B.function("diamond");
  uint32_t Zero = B.block(0, 16, {0, ToTwo + ToThree}); // 0x1000
  uint32_t One = B.block(1, 16, {0, ToTwo + ToThree});  // 0x1010
  uint32_t Three = B.block(3, 16, {0, ToThree});        // 0x1020
  if (Padded)
    B.pad(16);
  uint32_t Two = B.block(2, 16, {0, ToTwo}); // 0x1040 when padded
  uint32_t Four = B.block(4, 16, {0, ToTwo + ToThree});
  // In (From, To) order of the indices, as a block profile keeps them.
  B.edge(Zero, One, {0, ToTwo + ToThree});
  B.edge(One, Three, {0, ToThree});
  B.edge(One, Two, {0, ToTwo});
  B.edge(Three, Four, {0, ToThree});
  B.edge(Two, Four, {0, ToTwo});
  return std::move(B.P);
}

TEST(BlockLayout, JumpsIntoAlignedBlocksRatherThanFallingThroughPadding) {
  BlockProfile Aligned = twoSuccessors(/*Padded=*/true);
  BlockLayout L = planBlockLayout(Aligned);
  EXPECT_THAT(blockIDs(Aligned, L.Clusters[0]), ElementsAre(0, 1, 3, 2, 4));

  BlockProfile Unaligned = twoSuccessors(/*Padded=*/false);
  BlockLayout U = planBlockLayout(Unaligned);
  EXPECT_THAT(blockIDs(Unaligned, U.Clusters[0]), ElementsAre(0, 1, 2, 4, 3));
}

TEST(BlockLayout, JumpsIntoAnAlignedBlockHoweverRarelyTheOtherSuccessorRan) {
  // Falling into 2 runs its padding as often as the training took 1 -> 2;
  // jumping there costs no instruction when 3 is the fall-through, however
  // rarely the training went to 3: a workload that goes to 3 more often
  // loses nothing either.
  BlockProfile Skewed = twoSuccessors(/*Padded=*/true, 0x1000,
                                      /*ToTwo=*/100000, /*ToThree=*/100);
  std::vector<uint32_t> IDs =
      blockIDs(Skewed, planBlockLayout(Skewed).Clusters[0]);
  auto At = [&](uint32_t ID) { return llvm::find(IDs, ID) - IDs.begin(); };
  EXPECT_EQ(At(3), At(1) + 1);
}

TEST(BlockLayout, FallsIntoTheOtherSuccessorWhereTheAlignedBlocksPairIsCold) {
  // As above, but the block the compiler aligned 2 after (5, by address
  // between 3 and 2) never ran and is in the cold cluster: 1 falls into 3
  // all the same.
  ProfileBuilder B(/*WithScenarios=*/true);
  B.function("diamond");
  uint32_t Zero = B.block(0, 16, {0, 100100});
  uint32_t One = B.block(1, 16, {0, 100100});
  uint32_t Three = B.block(3, 16, {0, 100});
  B.block(5, 16, {0, 0});
  B.pad(16);
  uint32_t Two = B.block(2, 16, {0, 100000});
  uint32_t Four = B.block(4, 16, {0, 100100});
  B.edge(Zero, One, {0, 100100});
  B.edge(One, Three, {0, 100});
  B.edge(One, Two, {0, 100000});
  B.edge(Three, Four, {0, 100});
  B.edge(Two, Four, {0, 100000});
  BlockLayout L = planBlockLayout(B.P);
  ASSERT_EQ(L.Clusters.size(), 2u);
  std::vector<uint32_t> IDs = blockIDs(B.P, L.Clusters[0]);
  auto At = [&](uint32_t ID) { return llvm::find(IDs, ID) - IDs.begin(); };
  EXPECT_EQ(At(3), At(1) + 1);
  EXPECT_THAT(blockIDs(B.P, L.Clusters[1]), ElementsAre(5));
}

/// twoSuccessors without padding, with a loop back from 4 to 2, and 2 at
/// a 16-byte boundary (0x1030, right after 3) or one byte off it.
BlockProfile loopTopAfterItsPredecessor(bool OnBoundary) {
  BlockProfile P =
      twoSuccessors(/*Padded=*/false, OnBoundary ? 0x1000 : 0x1001);
  // Blocks 4 and 2 are the fifth and the fourth by address; the edge is the
  // last in (From, To) order.
  P.Functions[0].Edges.push_back({4, 3, {0, 10}});
  return P;
}

TEST(BlockLayout, ALoopTopWithoutPaddingCountsAsAligned) {
  // The compiler aligns a loop's top (2, which 4 jumps back to); at a
  // 16-byte boundary right after 3 it needed no padding in the profiled
  // binary, but it keeps its alignment in the relink, where falling into
  // it would run the padding: 3 becomes 1's fall-through.
  BlockProfile OnBoundary = loopTopAfterItsPredecessor(true);
  std::vector<uint32_t> IDs =
      blockIDs(OnBoundary, planBlockLayout(OnBoundary).Clusters[0]);
  auto At = [&](uint32_t ID) { return llvm::find(IDs, ID) - IDs.begin(); };
  EXPECT_EQ(At(3), At(1) + 1);
  // Off the boundary it is not aligned, and the more frequent 2 is.
  BlockProfile Off = loopTopAfterItsPredecessor(false);
  IDs = blockIDs(Off, planBlockLayout(Off).Clusters[0]);
  EXPECT_EQ(At(2), At(1) + 1);
}

TEST(BlockLayout, FallsIntoAlignedBlocksWhenTheRelinkDoesNotAlign) {
  // For a relink given -align-loops=1 the compiler's padding is gone:
  // the padded diamond is laid out as the unpadded one, and the loop's top
  // (aligned without padding) is the more frequent 2, 1's fall-through.
  BlockLayoutConfig Unaligned;
  Unaligned.KeepsBlockAlignment = false;
  BlockProfile Padded = twoSuccessors(/*Padded=*/true);
  EXPECT_THAT(blockIDs(Padded, planBlockLayout(Padded, Unaligned).Clusters[0]),
              ElementsAre(0, 1, 2, 4, 3));
  BlockProfile OnBoundary = loopTopAfterItsPredecessor(true);
  std::vector<uint32_t> IDs =
      blockIDs(OnBoundary, planBlockLayout(OnBoundary, Unaligned).Clusters[0]);
  auto At = [&](uint32_t ID) { return llvm::find(IDs, ID) - IDs.begin(); };
  EXPECT_EQ(At(2), At(1) + 1);
}

TEST(BlockLayout, SharedNamesStayWholeAndOutOfTheSectionsProfile) {
  ProfileBuilder B;
  B.function("init");
  B.P.Functions.back().SharedName = true;
  B.block(0, 16, {1, 0});
  B.block(1, 64, {0, 5});
  B.block(2, 64, {0, 0});
  B.edge(0, 1, {0, 5});
  BlockLayout L = planBlockLayout(B.P);
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_TRUE(L.Functions[0].Whole);
  EXPECT_EQ(L.NumSharedNames, 1u);
  // One cluster of every block, in the compiler's order: shared, as
  // both kinds of scenario ran the function.
  ASSERT_EQ(L.Clusters.size(), 1u);
  EXPECT_EQ(L.Clusters[0].Kind, ClusterKind::Shared);
  EXPECT_THAT(blockIDs(B.P, L.Clusters[0]), ElementsAre(0, 1, 2));
  EXPECT_EQ(getClusterSymbolName("init", L.Clusters[0]), "init");
}

TEST(BlockLayout, AFunctionSeenOnlyAtItsEntryStaysWhole) {
  // llvm-bolt -instrument gives a function it cannot rewrite (an
  // interpreter's dispatch loop) its entry's count and nothing else: the
  // rest of it is not known never to run, so it is not moved to fn.cold.
  ProfileBuilder B;
  B.function("dispatch");
  B.block(0, 16, {2, 40});
  B.block(1, 64, {0, 0});
  B.block(2, 64, {0, 0});
  BlockLayout L = planBlockLayout(B.P);
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_TRUE(L.Functions[0].Whole);
  EXPECT_EQ(L.NumInsideUnseen, 1u);
  EXPECT_EQ(L.NumSharedNames, 0u);
  ASSERT_EQ(L.Clusters.size(), 1u);
  EXPECT_EQ(L.Clusters[0].Kind, ClusterKind::Shared);
  EXPECT_THAT(blockIDs(B.P, L.Clusters[0]), ElementsAre(0, 1, 2));
}

TEST(BlockLayout, AFunctionSeenInsideIsCut) {
  // The same entry count with one edge out of the entry, or a call from
  // another block, or that block's own count: the profile saw inside, and
  // the block no run executed goes to the cold part.
  for (int Evidence = 0; Evidence < 3; ++Evidence) {
    ProfileBuilder B;
    B.function("callee");
    B.block(0, 16, {0, 0});
    B.function("work");
    B.block(0, 16, {2, 40});
    B.block(1, 64, {0, Evidence == 2 ? 40u : 0u});
    B.block(2, 64, {0, 0});
    if (Evidence == 0)
      B.edge(0, 1, {2, 40});
    if (Evidence == 1)
      B.call(1, 0, {2, 40});
    BlockLayout L = planBlockLayout(B.P);
    EXPECT_EQ(L.NumInsideUnseen, 0u) << "evidence " << Evidence;
    ASSERT_FALSE(L.Functions.empty());
    EXPECT_FALSE(L.Functions.back().Whole) << "evidence " << Evidence;
    EXPECT_EQ(L.getNumClusters(ClusterKind::Cold), 1u)
        << "evidence " << Evidence;
  }
}

TEST(BlockLayout, AOneBlockFunctionIsNotUnseen) {
  ProfileBuilder B;
  B.function("leaf");
  B.block(0, 32, {1, 9});
  BlockLayout L = planBlockLayout(B.P);
  EXPECT_EQ(L.NumInsideUnseen, 0u);
  ASSERT_EQ(L.Functions.size(), 1u);
  EXPECT_FALSE(L.Functions[0].Whole);
}

} // namespace

//===- BlockProfileMatchingTest.cpp - Tests of stale profile matching -----===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/BlockProfileMatching.h"

#include "kiln/Layout/BlockLayout.h"

#include "BlockProfileBuilder.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace kiln::layout;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

/// An address map block hash from its four parts (LLVM's BlendedBlockHash
/// layout: instruction offset in the low bits, then opcodes, instructions,
/// neighbours).
uint64_t blockHash(uint16_t Offset, uint16_t Opcodes, uint16_t Instructions,
                   uint16_t Neighbours) {
  return uint64_t(Offset) | uint64_t(Opcodes) << 16 |
         uint64_t(Instructions) << 32 | uint64_t(Neighbours) << 48;
}

using ProfileBuilder = kiln::layout::test::BlockProfileBuilder;

const uint64_t HashA = blockHash(3, 0xa, 0xa1, 0xa2);
const uint64_t HashB = blockHash(4, 0xb, 0xb1, 0xb2);
const uint64_t HashC = blockHash(5, 0xc, 0xc1, 0xc2);
const uint64_t HashD = blockHash(2, 0xd, 0xd1, 0xd2);
const uint64_t HashNew = blockHash(2, 0xe, 0xe1, 0xe2);

/// \returns the per-block {start, work} counts of function \p F of \p P.
std::vector<ScenarioCounts> countsOf(const BlockProfile &P, uint32_t F) {
  std::vector<ScenarioCounts> Counts;
  for (const ProfiledBlock &B : P.Functions[F].Blocks)
    Counts.push_back(B.Counts);
  return Counts;
}

std::vector<std::pair<uint32_t, uint32_t>> edgesOf(const BlockProfile &P,
                                                   uint32_t F) {
  std::vector<std::pair<uint32_t, uint32_t>> Edges;
  for (const BlockEdge &E : P.Functions[F].Edges)
    Edges.emplace_back(E.From, E.To);
  return Edges;
}

TEST(BlockProfileMatching, SameBlocksAndHashesAreExact) {
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {1, 10});
  Old.hashedBlock(1, HashB, {1, 0});
  Old.hashedBlock(2, HashC, {0, 10});
  Old.edge(0, 1, {1, 0});
  Old.edge(0, 2, {0, 10});
  // The same function elsewhere in a new build (another function before it).
  ProfileBuilder New(/*WithScenarios=*/false, 0x2000);
  New.P.BuildID = "beef";
  New.function("g");
  New.hashedBlock(0, HashD);
  New.function("f");
  New.hashedBlock(0, HashA);
  New.hashedBlock(1, HashB);
  New.hashedBlock(2, HashC);

  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  ASSERT_EQ(M.Functions.size(), 1u);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::Exact);
  EXPECT_EQ(M.Functions[0].Build, 1u);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 3u);
  EXPECT_EQ(M.Functions[0].PairedCount, 22u);
  EXPECT_EQ(M.getNum(FunctionMatchKind::Exact), 1u);
  EXPECT_EQ(M.NumDroppedBlocks, 0u);
  // The build's functions and addresses, the profile's counts and edges.
  EXPECT_EQ(M.Profile.BuildID, "beef");
  ASSERT_EQ(M.Profile.Functions.size(), 2u);
  EXPECT_EQ(M.Profile.Functions[1].Address, 0x2010u);
  EXPECT_THAT(countsOf(M.Profile, 1),
              ElementsAre(ScenarioCounts{1, 10}, ScenarioCounts{1, 0},
                          ScenarioCounts{0, 10}));
  EXPECT_THAT(edgesOf(M.Profile, 1),
              ElementsAre(std::make_pair(0u, 1u), std::make_pair(0u, 2u)));
  // g is not in the profile: it has no counts.
  EXPECT_THAT(countsOf(M.Profile, 0), ElementsAre(ScenarioCounts{0, 0}));
}

TEST(BlockProfileMatching, OperandHashesDoNotDecide) {
  // LLVM 22 hashes a call's operands differently in every process: the same
  // block with another operand hash is still exact. Another size is not.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {1, 10});
  Old.hashedBlock(1, blockHash(4, 0xb, 0xb1, 0xb2), {1, 0});
  ProfileBuilder Relinked(/*WithScenarios=*/false);
  Relinked.function("f");
  Relinked.hashedBlock(0, HashA);
  Relinked.hashedBlock(1, blockHash(4, 0xb, 0x55, 0xb2));
  BlockProfileMatch M = matchBlockProfile(Old.P, Relinked.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::Exact);

  ProfileBuilder Grown(/*WithScenarios=*/false);
  Grown.function("f");
  Grown.hashedBlock(0, HashA);
  Grown.hashedBlock(1, blockHash(4, 0xb, 0xb1, 0xb2), {}, 20);
  M = matchBlockProfile(Old.P, Grown.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::ByHash);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 2u);
}

TEST(BlockProfileMatching, AnAddedBlockRenumbersTheOthers) {
  // The new build gained block 2 (a new branch): the old 2 and 3 are now 3
  // and 4, with their hashes unchanged.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {1, 10});
  Old.hashedBlock(1, HashB, {1, 0});
  Old.hashedBlock(2, HashC, {0, 10});
  Old.hashedBlock(3, HashD, {0, 3});
  Old.edge(0, 2, {0, 10});
  Old.edge(2, 3, {0, 3});
  ProfileBuilder New(/*WithScenarios=*/false);
  New.function("f");
  New.hashedBlock(0, HashA);
  New.hashedBlock(1, HashB);
  New.hashedBlock(2, HashNew);
  // The offset parts grew by the new block's two instructions.
  New.hashedBlock(3, HashC + 2);
  New.hashedBlock(4, HashD + 2);

  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  ASSERT_EQ(M.Functions.size(), 1u);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::ByHash);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 4u);
  EXPECT_EQ(M.NumDroppedBlocks, 0u);
  EXPECT_THAT(countsOf(M.Profile, 0),
              ElementsAre(ScenarioCounts{1, 10}, ScenarioCounts{1, 0},
                          ScenarioCounts{0, 0}, ScenarioCounts{0, 10},
                          ScenarioCounts{0, 3}));
  EXPECT_THAT(edgesOf(M.Profile, 0),
              ElementsAre(std::make_pair(0u, 3u), std::make_pair(3u, 4u)));
}

TEST(BlockProfileMatching, NearestBlockOfTheSameOpcodes) {
  // Block 1's successor changed, so its neighbour hash did; its opcodes did
  // not. It pairs with the block of the same opcodes, not with the one
  // whose opcodes differ.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {0, 10});
  Old.hashedBlock(1, blockHash(4, 0xb, 0xb1, 0xb2), {0, 10});
  ProfileBuilder New(/*WithScenarios=*/false);
  New.function("f");
  New.hashedBlock(0, HashA);
  New.hashedBlock(1, HashNew);
  New.hashedBlock(2, blockHash(4, 0xb, 0xb1, 0x99));

  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::ByHash);
  EXPECT_THAT(countsOf(M.Profile, 0),
              ElementsAre(ScenarioCounts{0, 10}, ScenarioCounts{0, 0},
                          ScenarioCounts{0, 10}));

  // Of two candidates, the nearer one: same operands beat other operands.
  ProfileBuilder Two(/*WithScenarios=*/false);
  Two.function("f");
  Two.hashedBlock(0, HashA);
  Two.hashedBlock(1, blockHash(4, 0xb, 0x77, 0x99));
  Two.hashedBlock(2, blockHash(4, 0xb, 0xb1, 0x99));
  M = matchBlockProfile(Old.P, Two.P);
  EXPECT_THAT(countsOf(M.Profile, 0),
              ElementsAre(ScenarioCounts{0, 10}, ScenarioCounts{0, 0},
                          ScenarioCounts{0, 10}));
}

TEST(BlockProfileMatching, EquallyNearCopiesPairOnlyByID) {
  // Two identical candidates: neither is the profiled block more than the
  // other, unless one has its ID.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {0, 10});
  Old.hashedBlock(1, blockHash(4, 0xb, 0xb1, 0xb2), {0, 10});
  uint64_t Copy = blockHash(4, 0xb, 0xb1, 0x99);
  ProfileBuilder New(/*WithScenarios=*/false);
  New.function("f");
  New.hashedBlock(0, HashA);
  New.hashedBlock(2, Copy);
  New.hashedBlock(3, Copy);
  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 1u);
  EXPECT_EQ(M.NumDroppedBlocks, 1u);
  EXPECT_EQ(M.Functions[0].PairedCount, 10u);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::ByHash);

  ProfileBuilder WithID(/*WithScenarios=*/false);
  WithID.function("f");
  WithID.hashedBlock(0, HashA);
  WithID.hashedBlock(2, Copy);
  WithID.hashedBlock(1, Copy);
  M = matchBlockProfile(Old.P, WithID.P);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 2u);
  EXPECT_THAT(countsOf(M.Profile, 0),
              ElementsAre(ScenarioCounts{0, 10}, ScenarioCounts{0, 0},
                          ScenarioCounts{0, 10}));
}

TEST(BlockProfileMatching, TooLittlePairedIsStale) {
  // Only the entry pairs: it holds 10 of 100 counts.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, HashA, {0, 10});
  Old.hashedBlock(1, HashB, {0, 90});
  Old.edge(0, 1, {0, 10});
  ProfileBuilder New(/*WithScenarios=*/false);
  New.function("f");
  New.hashedBlock(0, HashA);
  New.hashedBlock(1, HashNew);

  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::Stale);
  EXPECT_EQ(M.Functions[0].PairedCount, 10u);
  EXPECT_EQ(M.Functions[0].Count, 100u);
  EXPECT_EQ(M.getNum(FunctionMatchKind::Stale), 1u);
  // Left without counts: the planner leaves it to function-level layout.
  EXPECT_THAT(countsOf(M.Profile, 0),
              ElementsAre(ScenarioCounts{0, 0}, ScenarioCounts{0, 0}));
  EXPECT_THAT(M.Profile.Functions[0].Edges, IsEmpty());
  EXPECT_THAT(planBlockLayout(M.Profile).Functions, IsEmpty());

  // A share of 10% is enough when the threshold says so.
  BlockProfileMatchConfig Lenient;
  Lenient.MinPairedShare = 0.1;
  M = matchBlockProfile(Old.P, New.P, Lenient);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::ByHash);
  EXPECT_EQ(M.NumDroppedBlocks, 1u);
  EXPECT_THAT(M.Profile.Functions[0].Edges, IsEmpty());
}

TEST(BlockProfileMatching, MissingFunctionsAndCallsByName) {
  // main calls f; f is first in the new build, gone is not in it.
  ProfileBuilder Old;
  uint32_t Main = Old.function("main");
  Old.hashedBlock(0, HashA, {1, 0});
  uint32_t Gone = Old.function("gone");
  Old.hashedBlock(0, HashD, {1, 0});
  uint32_t F = Old.function("f");
  Old.hashedBlock(0, HashB, {1, 0});
  Old.P.Functions[Main].Calls.push_back({0, Gone, {1, 0}});
  Old.P.Functions[Main].Calls.push_back({0, F, {1, 0}});
  ProfileBuilder New(/*WithScenarios=*/false);
  New.function("f");
  New.hashedBlock(0, HashB);
  New.function("main");
  New.hashedBlock(0, HashA);

  BlockProfileMatch M = matchBlockProfile(Old.P, New.P);
  ASSERT_EQ(M.Functions.size(), 3u);
  EXPECT_EQ(M.Functions[1].Kind, FunctionMatchKind::Missing);
  EXPECT_FALSE(M.Functions[1].Build.has_value());
  EXPECT_EQ(M.getNum(FunctionMatchKind::Exact), 2u);
  EXPECT_EQ(M.getNum(FunctionMatchKind::Missing), 1u);
  // main's call to f now names f's index in the build; the call to the
  // missing function is dropped.
  ASSERT_EQ(M.Profile.Functions[1].Calls.size(), 1u);
  EXPECT_EQ(M.Profile.Functions[1].Calls[0].Callee, 0u);
}

TEST(BlockProfileMatching, WithoutHashesOnlyIdenticalSizesMatch) {
  // A profile of a map without hashes: the same IDs and sizes are exact,
  // anything else cannot be paired and is stale.
  ProfileBuilder Old;
  Old.function("f");
  Old.hashedBlock(0, 0, {1, 0}, 16);
  Old.hashedBlock(1, 0, {1, 0}, 8);
  ProfileBuilder Same(/*WithScenarios=*/false);
  Same.function("f");
  Same.hashedBlock(0, HashA, {}, 16);
  Same.hashedBlock(1, HashB, {}, 8);
  BlockProfileMatch M = matchBlockProfile(Old.P, Same.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::Exact);
  EXPECT_TRUE(M.Functions[0].WithoutHashes);

  ProfileBuilder Grown(/*WithScenarios=*/false);
  Grown.function("f");
  Grown.hashedBlock(0, HashA, {}, 16);
  Grown.hashedBlock(1, HashB, {}, 12);
  M = matchBlockProfile(Old.P, Grown.P);
  EXPECT_EQ(M.Functions[0].Kind, FunctionMatchKind::Stale);
  EXPECT_EQ(M.Functions[0].PairedBlocks, 0u);
}

TEST(BlockProfileMatching, ExactMatchPlansTheSameLayout) {
  // Re-mapping a profile onto its own build changes nothing the planner
  // sees: the same clusters, blocks and order.
  ProfileBuilder Old;
  uint32_t Main = Old.function("main");
  Old.hashedBlock(0, HashA, {1, 0}, 32);
  Old.hashedBlock(1, HashB, {0, 0}, 32);
  uint32_t F = Old.function("f");
  Old.hashedBlock(0, HashC, {1, 50}, 32);
  Old.hashedBlock(1, HashD, {1, 0}, 32);
  Old.hashedBlock(2, HashB, {0, 50}, 32);
  Old.hashedBlock(3, HashNew, {0, 0}, 32);
  Old.edge(0, 1, {1, 0});
  Old.edge(0, 2, {0, 50});
  Old.P.Functions[Main].Calls.push_back({0, F, {1, 0}});
  BlockProfile Build = Old.P;
  Build.Scenarios.clear();
  for (BlockFunction &Fn : Build.Functions) {
    Fn.Edges.clear();
    Fn.Calls.clear();
    for (ProfiledBlock &B : Fn.Blocks)
      B.Counts.clear();
  }

  BlockProfileMatch M = matchBlockProfile(Old.P, Build);
  EXPECT_EQ(M.getNum(FunctionMatchKind::Exact), 2u);
  BlockLayout Before = planBlockLayout(Old.P);
  BlockLayout After = planBlockLayout(M.Profile);
  ASSERT_EQ(Before.Clusters.size(), After.Clusters.size());
  for (size_t I = 0; I < Before.Clusters.size(); ++I) {
    EXPECT_EQ(Before.Clusters[I].Blocks, After.Clusters[I].Blocks);
    EXPECT_EQ(Before.Clusters[I].Kind, After.Clusters[I].Kind);
  }
  EXPECT_EQ(Before.Order, After.Order);
}

} // namespace

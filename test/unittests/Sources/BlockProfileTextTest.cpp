//===- BlockProfileTextTest.cpp - Tests of the block profile text form ----===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileText.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Testing/Support/Error.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace kiln::layout;
using namespace llvm;

namespace {

Expected<BlockProfile> parse(StringRef Text) {
  return parseBlockProfile(MemoryBufferRef(Text, "test.kbp"));
}

std::string print(const BlockProfile &Profile) {
  std::string Text;
  raw_string_ostream OS(Text);
  writeBlockProfile(Profile, OS);
  return Text;
}

constexpr StringLiteral Canonical = "kiln-block-profile 2\n"
                                    "build-id 0a1b\n"
                                    "scenario start startup 1\n"
                                    "scenario work steady 2.5\n"
                                    "function main 0x1000\n"
                                    "block 0 0x1000 16 0x0 - 1 4\n"
                                    "block 3 0x1010 8 0x0 ft 0 4\n"
                                    "block 2 0x1018 4 0x0 eh 0 0\n"
                                    "block 5 0x101c 4 0x0 eh,ft 0 0\n"
                                    "edge 0 3 0 4\n"
                                    "edge 3 2 0 0\n"
                                    "call 3 helper 0 9\n"
                                    "function helper 0x2000 shared\n"
                                    "block 0 0x2000 32 0xff - 0 9\n";

TEST(BlockProfileText, RoundTripsCanonicalText) {
  Expected<BlockProfile> Profile = parse(Canonical);
  ASSERT_THAT_EXPECTED(Profile, Succeeded());
  EXPECT_EQ(Profile->BuildID, "0a1b");
  ASSERT_EQ(Profile->Scenarios.size(), 2u);
  EXPECT_EQ(Profile->Scenarios[0].Kind, ScenarioKind::Startup);
  EXPECT_EQ(Profile->Scenarios[1].Weight, 2.5);
  ASSERT_EQ(Profile->Functions.size(), 2u);
  const BlockFunction &Main = Profile->Functions[0];
  ASSERT_EQ(Main.Blocks.size(), 4u);
  EXPECT_EQ(Main.Blocks[1].ID, 3u);
  EXPECT_FALSE(Main.Blocks[0].FallsThrough);
  EXPECT_TRUE(Main.Blocks[1].FallsThrough);
  EXPECT_FALSE(Main.Blocks[1].IsEHPad);
  EXPECT_TRUE(Main.Blocks[2].IsEHPad);
  EXPECT_FALSE(Main.Blocks[2].FallsThrough);
  EXPECT_TRUE(Main.Blocks[3].IsEHPad);
  EXPECT_TRUE(Main.Blocks[3].FallsThrough);
  ASSERT_EQ(Main.Edges.size(), 2u);
  EXPECT_EQ(Main.Edges[0].From, 0u);
  EXPECT_EQ(Main.Edges[0].To, 1u); // Index of block 3.
  ASSERT_EQ(Main.Calls.size(), 1u);
  EXPECT_EQ(Main.Calls[0].Callee, 1u);
  EXPECT_EQ(Main.Calls[0].Counts[1], 9u);
  EXPECT_EQ(Profile->Functions[1].Blocks[0].Hash, 0xffu);
  EXPECT_FALSE(Profile->Functions[0].SharedName);
  EXPECT_TRUE(Profile->Functions[1].SharedName);
  EXPECT_EQ(print(*Profile), Canonical);
}

TEST(BlockProfileText, ReadsVersionOneWithoutFallThroughs) {
  // Version 1 had no `ft` flag: its blocks are not known to fall through,
  // and the profile is written back as version 2.
  Expected<BlockProfile> Profile =
      parse("kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
            "block 0 0x1 1 0x0 - 1\nblock 1 0x2 1 0x0 eh 0\n");
  ASSERT_THAT_EXPECTED(Profile, Succeeded());
  EXPECT_FALSE(Profile->Functions[0].Blocks[0].FallsThrough);
  EXPECT_TRUE(Profile->Functions[0].Blocks[1].IsEHPad);
  EXPECT_EQ(StringRef(print(*Profile)).take_front(21),
            "kiln-block-profile 2\n");
}

TEST(BlockProfileText, AcceptsCommentsBlanksAndTabs) {
  Expected<BlockProfile> Profile = parse(
      "# a comment\n\nkiln-block-profile 1 # trailing\n"
      "scenario s\tsteady 1\r\nfunction f 0x10\nblock 0 0x10 1 0x0 - 7\n");
  ASSERT_THAT_EXPECTED(Profile, Succeeded());
  EXPECT_TRUE(Profile->BuildID.empty());
  EXPECT_EQ(Profile->Functions[0].Blocks[0].Counts[0], 7u);
}

TEST(BlockProfileText, SortsEdgesAndCalls) {
  Expected<BlockProfile> Profile =
      parse("kiln-block-profile 1\nscenario s steady 1\n"
            "function f 0x10\nblock 0 0x10 1 0x0 - 1\nblock 1 0x11 1 0x0 - 1\n"
            "edge 1 0 5\nedge 0 1 6\n");
  ASSERT_THAT_EXPECTED(Profile, Succeeded());
  EXPECT_EQ(Profile->Functions[0].Edges[0].Counts[0], 6u);
}

struct BadInput {
  const char *Text;
  const char *Message;
};

class BlockProfileTextBadInput : public testing::TestWithParam<BadInput> {};

TEST_P(BlockProfileTextBadInput, IsRefusedWithTheLine) {
  Expected<BlockProfile> Profile = parse(GetParam().Text);
  ASSERT_FALSE(static_cast<bool>(Profile));
  EXPECT_EQ(toString(Profile.takeError()), GetParam().Message);
}

INSTANTIATE_TEST_SUITE_P(
    All, BlockProfileTextBadInput,
    testing::Values(
        BadInput{"", "test.kbp: empty file, not a Kiln block profile"},
        BadInput{"function f 0x1\n",
                 "test.kbp:1: not a Kiln block profile (expected "
                 "'kiln-block-profile 2')"},
        BadInput{"kiln-block-profile 3\n",
                 "test.kbp:1: unsupported block profile version 3 (this Kiln "
                 "reads versions 1 to 2)"},
        BadInput{"kiln-block-profile 1\n",
                 "test.kbp: the profile has no scenario"},
        BadInput{"kiln-block-profile 1\nscenario s warm 1\n",
                 "test.kbp:2: scenario kind 'warm' is neither 'startup' nor "
                 "'steady'"},
        BadInput{"kiln-block-profile 1\nscenario s steady 0\n",
                 "test.kbp:2: scenario weight '0' is not a number from 1e-6 "
                 "to 1e6"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\n"
                 "scenario s startup 1\n",
                 "test.kbp:3: scenario 's' appears twice"},
        BadInput{"kiln-block-profile 1\nfunction f 0x1\n",
                 "test.kbp:2: function before any scenario"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\n"
                 "function f 0x1 static\n",
                 "test.kbp:3: expected 'function <symbol> 0x<address> "
                 "[shared]'"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 1\n",
                 "test.kbp:3: address '1' is not 0x<hex>"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n",
                 "test.kbp:3: function 'f' has no blocks"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1 2\n",
                 "test.kbp:4: expected 1 count(s), one per scenario, found 2"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - -1\n",
                 "test.kbp:4: count '-1' is not an unsigned integer"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 x 1\n",
                 "test.kbp:4: block flags 'x' are not '-' or a list of 'eh' "
                 "and 'ft', each once"},
        BadInput{"kiln-block-profile 2\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 ft,ft 1\n",
                 "test.kbp:4: block flags 'ft,ft' are not '-' or a list of "
                 "'eh' and 'ft', each once"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\nblock 0 0x2 1 0x0 - 1\n",
                 "test.kbp:5: block 0 appears twice in 'f'"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\nedge 0 4 1\n",
                 "test.kbp:5: block 4 is not a block of 'f'"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\nedge 0 0 1\nblock 1 0x2 1 0x0 - 1\n",
                 "test.kbp:6: block after the function's edges or calls"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\nedge 0 0 1\nedge 0 0 2\n",
                 "test.kbp: edges of 'f' are not sorted and unique (0 -> 0)"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\ncall 0 g 1\n",
                 "test.kbp:5: callee 'g' is not a function of the profile"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x2\n"
                 "block 0 0x2 1 0x0 - 1\nfunction g 0x1\n"
                 "block 0 0x1 1 0x0 - 1\n",
                 "test.kbp: function 'g' is not in address order"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nfunction f 0x1\n"
                 "block 0 0x1 1 0x0 - 1\nfunction f 0x2\n"
                 "block 0 0x2 1 0x0 - 1\n",
                 "test.kbp: function 'f' appears twice"},
        BadInput{"kiln-block-profile 1\nscenario s steady 1\nloop 1\n",
                 "test.kbp:3: unknown record 'loop'"}));

TEST(BlockProfile, WeightedCountSumsOneKind) {
  Expected<BlockProfile> Profile = parse(Canonical);
  ASSERT_THAT_EXPECTED(Profile, Succeeded());
  ScenarioCounts Counts = {3, 4};
  EXPECT_EQ(getWeightedCount(*Profile, Counts, ScenarioKind::Startup), 3u);
  EXPECT_EQ(getWeightedCount(*Profile, Counts, ScenarioKind::SteadyState), 10u);
}

} // namespace

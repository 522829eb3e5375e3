//===- BlockProfileSourcesTest.cpp - Tests of the block profile readers ---===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The address map's look-ups, the range walk, and the three profile
/// readers on one small hand-made map, so that each reader is seen to give
/// the same counts for the same run of the same code.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "kiln/Sources/BlockProfileText.h"

#include "llvm/Testing/Support/Error.h"

#include "gtest/gtest.h"

using namespace kiln;
using namespace llvm;

namespace {

/// `f` at 0x1000: an entry block that falls into a loop block (0x1008,
/// whose branch at 0x100e jumps back to itself), then a block that calls
/// `g` at 0x1010 and returns. `g` at 0x2000 is one block. Code without a
/// map runs up to 0x3000.
BlockAddressMap makeMap() {
  MappedFunction F;
  F.Name = "f";
  F.Address = 0x1000;
  F.Blocks = {{0, 0x1000, 8, 0, false, true, false, 1u},
              {1, 0x1008, 8, 0, false, true, false, 2u},
              {2, 0x1010, 4, 0, false, false, true, std::nullopt}};
  MappedFunction G;
  G.Name = "g";
  G.Address = 0x2000;
  G.Blocks = {{0, 0x2000, 16, 0, false, false, true, std::nullopt}};
  return BlockAddressMap::fromFunctions({G, F}, {{0x1000, 0x3000}});
}

constexpr BlockRef FEntry{0, 0}, FLoop{0, 1}, FExit{0, 2}, GEntry{1, 0};
constexpr uint32_t G = 1;

/// The counts every reader must give for one call of f whose loop block
/// runs three times: f's blocks 1, 3, 1; the loop's back edge 2, its
/// fall-throughs 1 and 1; one call of g.
void expectOneRunOfF(const BlockCounts &C) {
  EXPECT_EQ(C.getBlockCount(FEntry), 1u);
  EXPECT_EQ(C.getBlockCount(FLoop), 3u);
  EXPECT_EQ(C.getBlockCount(FExit), 1u);
  EXPECT_EQ(C.getBlockCount(GEntry), 1u);
  EXPECT_EQ(C.getEdgeCount(FEntry, FLoop), 1u);
  EXPECT_EQ(C.getEdgeCount(FLoop, FLoop), 2u);
  EXPECT_EQ(C.getEdgeCount(FLoop, FExit), 1u);
  EXPECT_EQ(C.getCallCount(FExit, G), 1u);
  EXPECT_EQ(C.getEdges().size(), 3u);
  EXPECT_EQ(C.getCalls().size(), 1u);
}

TEST(BlockAddressMap, FindsBlocksByAddress) {
  BlockAddressMap Map = makeMap();
  ASSERT_EQ(Map.getFunctions().size(), 2u);
  EXPECT_EQ(Map.getFunctions()[0].Name, "f");
  EXPECT_EQ(Map.findBlock(0x1009), std::optional<BlockRef>(FLoop));
  EXPECT_EQ(Map.findBlock(0x1013), std::optional<BlockRef>(FExit));
  EXPECT_EQ(Map.findBlock(0x1014), std::nullopt); // Padding after f.
  EXPECT_EQ(Map.findBlock(0xfff), std::nullopt);
  EXPECT_EQ(Map.findBlockStart(0x1008), std::optional<BlockRef>(FLoop));
  EXPECT_EQ(Map.findBlockStart(0x1009), std::nullopt);
  EXPECT_EQ(Map.findFunctionEntry(0x2000), std::optional<uint32_t>(G));
  EXPECT_EQ(Map.findFunctionEntry(0x1008), std::nullopt);
  EXPECT_EQ(Map.findSymbol("g"), std::optional<uint64_t>(0x2000));
  EXPECT_EQ(Map.findSymbol("h"), std::nullopt);
  EXPECT_TRUE(Map.isCode(0x2800));
  EXPECT_FALSE(Map.isCode(0x3000));
}

TEST(BlockRangeWalk, CountsEveryBlockOfAStraightRun) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  // From inside the entry block to the call: three blocks, two
  // fall-throughs.
  EXPECT_TRUE(addStraightRun(Map, 0x1004, 0x1010, 2, C));
  EXPECT_EQ(C.getBlockCount(FEntry), 2u);
  EXPECT_EQ(C.getBlockCount(FLoop), 2u);
  EXPECT_EQ(C.getBlockCount(FExit), 2u);
  EXPECT_EQ(C.getEdgeCount(FEntry, FLoop), 2u);
  EXPECT_EQ(C.getEdgeCount(FLoop, FExit), 2u);
  // A run within one block counts it alone.
  EXPECT_TRUE(addStraightRun(Map, 0x1008, 0x100e, 1, C));
  EXPECT_EQ(C.getBlockCount(FLoop), 3u);
  EXPECT_EQ(C.getEdges().size(), 2u);
}

TEST(BlockRangeWalk, RefusesRunsThatCannotHappen) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  EXPECT_FALSE(addStraightRun(Map, 0x1010, 0x1008, 1, C)); // Backwards.
  EXPECT_FALSE(addStraightRun(Map, 0x1010, 0x2004, 1, C)); // Two functions.
  EXPECT_FALSE(addStraightRun(Map, 0x1010, 0x1014, 1, C)); // Into padding.
  EXPECT_FALSE(addStraightRun(Map, 0x2800, 0x2804, 1, C)); // No map there.
  EXPECT_EQ(C.getBlockCount(FExit), 0u);
  EXPECT_TRUE(C.getEdges().empty());
}

constexpr StringLiteral Callgrind =
    "# callgrind format\n"
    "version: 1\n"
    "cmd: /bin/prog\n"
    "positions: instr line\n"
    "events: Ir\n"
    "ob=(1) /bin/prog\n"
    "fl=(1) f.c\n"
    "fn=(1) f\n"
    "0x1000 3 1\n"
    "+4 * 1\n"
    // The loop block, split across two cost lines as callgrind does.
    "+4 +1 2\n"
    "* * 1\n"
    "+6 * 3\n"
    "jcnd=2/3 -6 *\n"
    "* *\n"
    "+2 +1 1\n"
    "cfn=(2) g\n"
    "calls=1 0x2000 7\n"
    // The call's inclusive cost: not executions of 0x1010.
    "* * 40\n"
    "+2 * 1\n"
    "fn=(2)\n"
    "0x2000 7 1\n"
    // Code of the binary without a map, and another object's code.
    "0x2800 0 5\n"
    "ob=(2) /lib/libc.so.6\n"
    "fn=(3) puts\n"
    "0x1000 0 100\n";

Error readCallgrind(StringRef Text, StringRef Binary, BlockCounts &C,
                    BlockReadStats &Stats, const BlockAddressMap &Map) {
  return readCallgrindProfile(MemoryBufferRef(Text, "cg.out"), Binary, Map, C,
                              Stats);
}

TEST(CallgrindBlockReader, CountsBlocksEdgesAndCalls) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(readCallgrind(Callgrind, "/build/prog", C, Stats, Map),
                    Succeeded());
  expectOneRunOfF(C);
  // Eight instructions and one jump of the binary, one instruction without
  // a map; libc's costs are not the binary's records.
  EXPECT_EQ(Stats.Records, 9u);
  EXPECT_EQ(Stats.Mapped, 8u);
  EXPECT_EQ(Stats.UnmappedCode, 1u);
  EXPECT_EQ(Stats.Outside, 0u);
}

TEST(CallgrindBlockReader, CountsTheBinarysInstructions) {
  // Its cost lines, mapped or not (1+1+2+1+3+1+1 in f, 1 and 5 in g); not
  // the call's inclusive 40, not libc's 100.
  EXPECT_THAT_EXPECTED(readCallgrindBinaryInstructions(
                           MemoryBufferRef(Callgrind, "cg.out"), "/build/prog"),
                       HasValue(16u));
  // A run that did not load it.
  EXPECT_THAT_EXPECTED(readCallgrindBinaryInstructions(
                           MemoryBufferRef(Callgrind, "cg.out"), "/bin/other"),
                       HasValue(0u));
  EXPECT_THAT_EXPECTED(
      readCallgrindBinaryInstructions(MemoryBufferRef("version: 1\n", "x.out"),
                                      "/build/prog"),
      Failed());
}

TEST(CallgrindBlockReader, RefusesAnotherProgram) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  EXPECT_THAT_ERROR(
      readCallgrind(Callgrind, "/bin/other", C, Stats, Map),
      FailedWithMessage("cg.out: a callgrind profile of another program "
                        "(command '/bin/prog', objects: /bin/prog, "
                        "/lib/libc.so.6); none of its objects is /bin/other"));
}

TEST(CallgrindBlockReader, ReportsMalformedInputWithTheLine) {
  BlockAddressMap Map = makeMap();
  auto Fails = [&](StringRef Text) {
    BlockCounts C(Map);
    BlockReadStats Stats;
    return readCallgrind(Text, "prog", C, Stats, Map);
  };
  EXPECT_THAT_ERROR(
      Fails("positions: line\nevents: Ir\n"),
      FailedWithMessage("cg.out:1: positions are 'line': the profile has no "
                        "instruction addresses (run callgrind with "
                        "--dump-instr=yes)"));
  EXPECT_THAT_ERROR(
      Fails("positions: instr\nevents: Ir\nob=(4)\n"),
      FailedWithMessage("cg.out:3: name (4) is used before it is defined"));
  EXPECT_THAT_ERROR(
      Fails("positions: instr\nevents: Ir\nob=(1) prog\n0x10 1\n"
            "calls=1 0x20\n"),
      FailedWithMessage("cg.out:5: truncated: the file ends before the site "
                        "of its last record"));
  EXPECT_THAT_ERROR(
      Fails("positions: instr\nevents: Ir\nob=(1) prog\n+x 1\n"),
      FailedWithMessage("cg.out:4: malformed relative position '+x'"));
  EXPECT_THAT_ERROR(
      Fails("events: Ir\npositions: instr\nob=(1) prog\n0x1000 1\n"
            "positions: line\n"),
      FailedWithMessage("cg.out:5: 'positions:' after the first cost line"));
  EXPECT_THAT_ERROR(
      Fails("positions: instr\nevents: Ir\nob=(1) prog\n0x1000 1\n"),
      FailedWithMessage("cg.out: has no jump records (run callgrind with "
                        "--collect-jumps=yes)"));
}

constexpr StringLiteral Fdata = "1 f 4 1 f 8 0 1\n"
                                "1 f e 1 f 8 0 2\n"
                                "1 f e 1 f 10 0 1\n"
                                "1 f 10 1 g 0 0 1\n"
                                "0 [unknown] 0 1 f 0 0 1\n"
                                // From a symbol the binary does not have.
                                "1 _start 4 0 [unknown] 0 0 1\n"
                                // A memory access record: skipped.
                                "4 f 2 4 data 10 1\n";

TEST(FdataBlockReader, CountsBlocksFromEdgesAndEntries) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(
      readFdataProfile(MemoryBufferRef(Fdata, "a.fdata"), Map, C, Stats),
      Succeeded());
  expectOneRunOfF(C);
  EXPECT_EQ(Stats.Records, 6u);
  EXPECT_EQ(Stats.Mapped, 5u);
  // `_start` is not a symbol of this map's binary: outside.
  EXPECT_EQ(Stats.Outside, 1u);
}

TEST(FdataBlockReader, ReadsThePartsOfASplitFunctionAsOneFunction) {
  // h's entry block at 0x1100 and its cold part's block at 0x1800, named
  // by the local symbol h.cold; _start is code without a map.
  MappedFunction H;
  H.Name = "h";
  H.Address = 0x1100;
  H.Blocks = {{0, 0x1100, 8, 0, false, false, false, std::nullopt},
              {1, 0x1800, 8, 0, false, false, true, std::nullopt}};
  MappedFunction G;
  G.Name = "g";
  G.Address = 0x2000;
  G.Blocks = {{0, 0x2000, 16, 0, false, false, true, std::nullopt}};
  BlockAddressMap Map = BlockAddressMap::fromFunctions(
      {H, G}, {{0x1000, 0x3000}}, {{"h.cold", 0x1800}, {"_start", 0x2800}});
  BlockCounts C(Map);
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(
      readFdataProfile(MemoryBufferRef("1 _start 4 1 h 0 0 2\n"
                                       "1 h 6 2 h.cold/1 0 0 2\n"
                                       "2 h.cold/1 4 1 g 0 0 2\n"
                                       "1 _start 4 1 _start 8 0 5\n"
                                       "1 h 6 1 puts@PLT 0 0 1\n",
                                       "a.fdata"),
                       Map, C, Stats),
      Succeeded());
  EXPECT_EQ(C.getBlockCount({0, 0}), 2u);
  EXPECT_EQ(C.getBlockCount({0, 1}), 2u);
  EXPECT_EQ(C.getEdgeCount({0, 0}, {0, 1}), 2u);
  EXPECT_EQ(C.getCallCount({0, 1}, 1), 2u);
  EXPECT_EQ(C.getBlockCount({1, 0}), 2u);
  EXPECT_EQ(Stats.Records, 5u);
  EXPECT_EQ(Stats.Mapped, 4u);
  EXPECT_EQ(Stats.UnmappedCode, 1u);
}

TEST(FdataBlockReader, ReadsFallThroughsFromPaddingAsTheBlockBefore) {
  // Block 0 ends at 0x1006; alignment nops run up to block 1 at 0x1008, and
  // BOLT records the fall-through from them.
  MappedFunction F;
  F.Name = "f";
  F.Address = 0x1000;
  F.Blocks = {{0, 0x1000, 6, 0, false, true, false, 1u},
              {1, 0x1008, 8, 0, false, false, true, std::nullopt}};
  BlockAddressMap Map = BlockAddressMap::fromFunctions({F}, {{0x1000, 0x1100}});
  EXPECT_EQ(Map.findBlock(0x1006), std::nullopt);
  EXPECT_EQ(Map.findBlockOrPadding(0x1006), std::optional<BlockRef>(FEntry));
  EXPECT_EQ(Map.findBlockOrPadding(0x1010), std::nullopt);
  BlockCounts C(Map);
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(readFdataProfile(MemoryBufferRef("0 [unknown] 0 1 f 0 0 3\n"
                                                     "1 f 6 1 f 8 0 3\n",
                                                     "a.fdata"),
                                     Map, C, Stats),
                    Succeeded());
  EXPECT_EQ(C.getEdgeCount(FEntry, {0, 1}), 3u);
  EXPECT_EQ(C.getBlockCount({0, 1}), 3u);
  EXPECT_EQ(Stats.Mapped, 2u);
}

TEST(FdataBlockReader, CountsBranchesIntoTheMiddleOfABlock) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(readFdataProfile(MemoryBufferRef("1 f 4 1 f 9 0 5\n"
                                                     "1 f 4 1 f 8 0 1\n",
                                                     "a.fdata"),
                                     Map, C, Stats),
                    Succeeded());
  EXPECT_EQ(Stats.NotAtBlockStart, 1u);
  EXPECT_EQ(C.getEdgeCount(FEntry, FLoop), 1u);
}

TEST(FdataBlockReader, RefusesWhatItCannotUse) {
  BlockAddressMap Map = makeMap();
  auto Fails = [&](StringRef Text) {
    BlockCounts C(Map);
    BlockReadStats Stats;
    return readFdataProfile(MemoryBufferRef(Text, "a.fdata"), Map, C, Stats);
  };
  EXPECT_THAT_ERROR(
      Fails("no_lbr cycles\n1 f 4 10\n"),
      FailedWithMessage("a.fdata:1: a 'no_lbr' profile (sampled addresses "
                        "without branches) has no edges; profile with "
                        "llvm-bolt -instrument, or perf record -b and "
                        "perf2bolt"));
  EXPECT_THAT_ERROR(
      Fails("boltedcollection\n1 f 4 1 f 8 0 1\n"),
      FailedWithMessage("a.fdata:1: a 'boltedcollection' profile was "
                        "collected on a BOLT-optimized binary, whose "
                        "addresses are not this binary's; profile the "
                        "address-mapped binary itself"));
  EXPECT_THAT_ERROR(
      Fails("---\nheader:\n"),
      FailedWithMessage("a.fdata:1: a YAML BOLT profile "
                        "(--profile-format=yaml); write the .fdata form "
                        "(perf2bolt's default, and what instrumented "
                        "binaries write)"));
  EXPECT_THAT_ERROR(Fails("1 f 4 1 f 8 0 1\n1 f 4 1 f\n"),
                    FailedWithMessage("a.fdata:2: expected 8 fields in a "
                                      "branch record, found 5"));
  EXPECT_THAT_ERROR(Fails("1 f 4z 1 f 8 0 1\n"),
                    FailedWithMessage("a.fdata:1: offset '4z' is not a "
                                      "hexadecimal number"));
  EXPECT_THAT_ERROR(Fails("\n"),
                    FailedWithMessage("a.fdata: no branch records (not a "
                                      "BOLT .fdata profile, or an empty one)"));
}

TEST(PerfBranchBlockReader, WalksTheRangesBetweenRecords) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  // Newest first: the call of g, the loop's back edge, the entry's jump
  // from code without a map.
  StringRef Text = "  2004 0x1010/0x2000/P/-/-/3 0x100e/0x1008/P/-/-/9 "
                   "0x2800/0x1000/M/-/-/1\n";
  ASSERT_THAT_ERROR(
      readPerfBranchProfile(MemoryBufferRef(Text, "perf.txt"), Map, C, Stats),
      Succeeded());
  EXPECT_EQ(C.getBlockCount(FEntry), 1u);
  EXPECT_EQ(C.getBlockCount(FLoop), 2u);
  EXPECT_EQ(C.getBlockCount(FExit), 1u);
  EXPECT_EQ(C.getEdgeCount(FEntry, FLoop), 1u);
  EXPECT_EQ(C.getEdgeCount(FLoop, FLoop), 1u);
  EXPECT_EQ(C.getEdgeCount(FLoop, FExit), 1u);
  EXPECT_EQ(C.getCallCount(FExit, G), 1u);
  EXPECT_EQ(Stats.Records, 3u);
  EXPECT_EQ(Stats.Mapped, 3u);
  EXPECT_EQ(Stats.BrokenRanges, 0u);
}

TEST(PerfBranchBlockReader, ReportsMalformedEntriesWithTheLine) {
  BlockAddressMap Map = makeMap();
  BlockCounts C(Map);
  BlockReadStats Stats;
  EXPECT_THAT_ERROR(
      readPerfBranchProfile(
          MemoryBufferRef("1000 0x1010/0x2000/P\n1000 0x1010/zz/P\n", "p.txt"),
          Map, C, Stats),
      FailedWithMessage("p.txt:2: malformed branch stack entry "
                        "'0x1010/zz/P'"));
  EXPECT_THAT_ERROR(readPerfBranchProfile(
                        MemoryBufferRef("1000 2000\n", "p.txt"), Map, C, Stats),
                    FailedWithMessage("p.txt:1: expected a branch stack entry "
                                      "'0x<from>/0x<to>/...', found '2000'"));
}

TEST(BlockProfileSources, DetectsTheFormat) {
  auto Detect = [](StringRef Text) {
    return detectBlockProfileFormat(MemoryBufferRef(Text, "p"));
  };
  EXPECT_THAT_EXPECTED(Detect(Callgrind),
                       HasValue(BlockProfileFormat::Callgrind));
  EXPECT_THAT_EXPECTED(Detect(Fdata), HasValue(BlockProfileFormat::Fdata));
  EXPECT_THAT_EXPECTED(Detect("\n 1000 0x1/0x2/P/-/-/0\n"),
                       HasValue(BlockProfileFormat::Perf));
  EXPECT_THAT_EXPECTED(Detect("hello\n"),
                       FailedWithMessage("p: not a callgrind output, BOLT "
                                         ".fdata or perf script brstack text "
                                         "(give --format= if it is one)"));
}

TEST(BlockProfileSources, BuildsAVerifiedProfileOfEveryScenario) {
  BlockAddressMap Map = makeMap();
  std::vector<BlockCounts> Counts(2, BlockCounts(Map));
  BlockReadStats Stats;
  ASSERT_THAT_ERROR(readFdataProfile(MemoryBufferRef(Fdata, "a.fdata"), Map,
                                     Counts[1], Stats),
                    Succeeded());
  Counts[0].addBlock(FEntry, 7);
  layout::BlockProfile Profile =
      buildBlockProfile(Map,
                        {{"start", layout::ScenarioKind::Startup, 1.0},
                         {"work", layout::ScenarioKind::SteadyState, 2.0}},
                        Counts);
  ASSERT_THAT_ERROR(verifyBlockProfile(Profile), Succeeded());
  std::string Text;
  raw_string_ostream OS(Text);
  writeBlockProfile(Profile, OS);
  // Blocks 0 and 1 fall through into the next; 2 returns.
  EXPECT_EQ(Text, "kiln-block-profile 2\n"
                  "build-id -\n"
                  "scenario start startup 1\n"
                  "scenario work steady 2\n"
                  "function f 0x1000\n"
                  "block 0 0x1000 8 0x0 ft 7 1\n"
                  "block 1 0x1008 8 0x0 ft 0 3\n"
                  "block 2 0x1010 4 0x0 - 0 1\n"
                  "edge 0 1 0 1\n"
                  "edge 1 1 0 2\n"
                  "edge 1 2 0 1\n"
                  "call 2 g 0 1\n"
                  "function g 0x2000\n"
                  "block 0 0x2000 16 0x0 - 0 1\n");
}

} // namespace

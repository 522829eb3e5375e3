//===- BlockSectionsTest.cpp - Tests of the basic-block sections checks ---===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What kiln-lld accepts of a v1 basic-block sections profile, what it
/// refuses per function and for the whole file (the rules of LLVM 22's
/// reader), and how it matches functions to the link's names; the links are
/// tested in test/kiln-lld/block-sections*.test.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/BlockSections.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

BlockSectionsProfile parse(StringRef Text) {
  Expected<BlockSectionsProfile> P = parseBlockSectionsProfile("p.txt", Text);
  EXPECT_THAT_EXPECTED(P, Succeeded());
  return P ? std::move(*P) : BlockSectionsProfile();
}

std::string refusalOf(StringRef Text) {
  BlockSectionsProfile P = parse(Text);
  EXPECT_EQ(P.Functions.size(), 1u);
  return P.Functions.empty() ? "" : P.Functions.front().Refusal;
}

TEST(BlockSections, ParsesEveryLineKindOfLLVM22) {
  BlockSectionsProfile P = parse("# comment\n"
                                 "\n"
                                 "v1\n"
                                 "@ ignored\n"
                                 "m ./dir/a.c\n"
                                 "f work work_alias\n"
                                 "c 0 1\n"
                                 "c 2 3.1  \n"
                                 "p 1 3\n"
                                 "g 0:10,1:9,2:1 1:9  2:1\n"
                                 "h 0:ab12 1:FF\n"
                                 "t 1,1\n"
                                 "f other\n"
                                 "c 0\n");
  ASSERT_EQ(P.Functions.size(), 2u);
  const BlockSectionsFunction &F = P.Functions[0];
  EXPECT_THAT(F.Names, ElementsAre("work", "work_alias"));
  // LLVM matches the module name without a leading ./.
  EXPECT_EQ(F.Module, "dir/a.c");
  EXPECT_EQ(F.Line, 6u);
  EXPECT_THAT(F.Lines,
              ElementsAre("c 0 1", "c 2 3.1", "p 1 3",
                          "g 0:10,1:9,2:1 1:9  2:1", "h 0:ab12 1:FF", "t 1,1"));
  EXPECT_THAT(F.Refusal, IsEmpty());
  // An `m` line names the module of the next function only.
  EXPECT_THAT(P.Functions[1].Module, IsEmpty());
}

TEST(BlockSections, RefusesTheWholeFileForWhatLLVMRejectsEverywhere) {
  auto Error = [](StringRef Text) {
    Expected<BlockSectionsProfile> P = parseBlockSectionsProfile("p.txt", Text);
    return P ? std::string() : toString(P.takeError());
  };
  EXPECT_THAT(Error(""), HasSubstr("p.txt:1: the profile is empty"));
  // The v0 format (`!fn`, `!!1 2`) and versions LLVM 22 does not know.
  EXPECT_THAT(Error("!work\n!!0 1\n"),
              HasSubstr("p.txt:1: not a v1 basic-block sections profile "
                        "(the first line is '!work', not 'v1')"));
  EXPECT_THAT(Error("v2\nf a\n"), HasSubstr("not a v1"));
  EXPECT_THAT(Error("v1 \nf a\n"), HasSubstr("not a v1"));
  // `i` (prefetch hints) is newer than LLVM 22.
  EXPECT_THAT(Error("v1\nf a\ni 1,1 a,2,0\n"),
              HasSubstr("p.txt:3: unknown line 'i 1,1 a,2,0'"));
  // An indented line: LLVM reads the space as the specifier.
  EXPECT_THAT(Error("v1\nf a\n c 0\n"), HasSubstr("p.txt:3: unknown line"));
  EXPECT_THAT(Error("v1\nm a.c b.c\nf a\n"),
              HasSubstr("p.txt:2: 'm' takes one debug-info file name"));
}

TEST(BlockSections, RefusesOneFunctionForWhatLLVMRejectsInItsModule) {
  // LLVM aborts the backend on these; Kiln leaves the function out.
  EXPECT_EQ(refusalOf("v1\nf a\nc 0 1 1\n"),
            "line 3: block 1 is in the clusters twice");
  EXPECT_EQ(refusalOf("v1\nf a\nc 0 1\nc 2 1\n"),
            "line 4: block 1 is in the clusters twice");
  EXPECT_EQ(refusalOf("v1\nf a\nc 0  1\n"),
            "line 3: '' is not a block id (<n> or <n>.<clone>)");
  EXPECT_EQ(refusalOf("v1\nf a\nc\n"),
            "line 3: '' is not a block id (<n> or <n>.<clone>)");
  EXPECT_EQ(refusalOf("v1\nf a\nc 0 1.2.3\n"),
            "line 3: '1.2.3' is not a block id (<n> or <n>.<clone>)");
  // LLVM would truncate it to another block.
  EXPECT_EQ(refusalOf("v1\nf a\nc 0 4294967296\n"),
            "line 3: '4294967296' is not a block id (<n> or <n>.<clone>)");
  EXPECT_EQ(refusalOf("v1\nf a\np 1 2 2\n"),
            "line 3: block 2 is cloned twice in one path");
  EXPECT_EQ(refusalOf("v1\nf a\ng 0:x\n"),
            "line 3: '0:x' is not <block id>:<count>");
  EXPECT_EQ(refusalOf("v1\nf a\nh 0:zz\n"),
            "line 3: '0:zz' is not <block number>:<hex hash>");
  EXPECT_EQ(refusalOf("v1\nf a\nt 1\n"),
            "line 3: '1' is not <block id>,<callsite index>");
  // Only the first refusal is kept.
  EXPECT_EQ(refusalOf("v1\nf a\nc 0 0\nc x\n"),
            "line 3: block 0 is in the clusters twice");
}

TEST(BlockSections, RefusesAnEntryBlockOutsideTheStartOfTheFirstCluster) {
  // LLVM would still put the entry first (its part becomes `a`, the first
  // listed cluster `a.__part.0`): not the layout the file describes.
  std::string Entry = "the entry block (0) is not the first block of the "
                      "first cluster";
  EXPECT_EQ(refusalOf("v1\nf a\nc 2 3\nc 0 1\n"), "line 3: " + Entry);
  EXPECT_EQ(refusalOf("v1\nf a\nc 1 0\n"), "line 3: " + Entry);
  EXPECT_EQ(refusalOf("v1\nf a\nc 1 2\n"), "line 3: " + Entry);
  // A clone of the entry block is another block.
  EXPECT_THAT(refusalOf("v1\nf a\nc 0 0.1\n"), IsEmpty());
  // A function without clusters is not laid out by the profile at all.
  EXPECT_THAT(refusalOf("v1\nf a\ng 0:1\n"), IsEmpty());
}

TEST(BlockSections, RefusesAFunctionProfiledTwice) {
  BlockSectionsProfile P = parse("v1\nf a\nc 0 1\nf b a\nc 0 2\nf c\nc 0\n");
  ASSERT_EQ(P.Functions.size(), 3u);
  EXPECT_THAT(P.Functions[0].Refusal, IsEmpty());
  EXPECT_EQ(P.Functions[1].Refusal, "'a' is profiled already (line 2)");
  EXPECT_THAT(P.Functions[2].Refusal, IsEmpty());
}

TEST(BlockSections, IgnoresLinesBeforeTheFirstFunctionAsLLVMDoes) {
  BlockSectionsProfile P = parse("v1\nc 0 0\nf a\nc 0\n");
  ASSERT_EQ(P.Functions.size(), 1u);
  EXPECT_THAT(P.Functions[0].Lines, ElementsAre("c 0"));
}

TEST(BlockSections, KeepsTheFunctionsOfTheLink) {
  BlockSectionsProfile P = parse("v1\n"
                                 "f main\nc 0 1\n"
                                 "f gone\nc 0\n"
                                 "f bad\nc 1 0\n"
                                 "f helper\nc 0 2\n"
                                 "f stat.llvm.42\nc 0 3\n"
                                 "f stat.llvm.7\nc 0\n"
                                 "f ambiguous\nc 0\n");
  LinkFunctionNames Names;
  for (StringRef Name : {"main", "bad", "helper", "stat", "ambiguous"})
    Names.Defined.insert(Name);
  Names.PromotedNames["helper"] = "helper.llvm.99";
  Names.PromotedNames["stat"] = "stat.llvm.42";
  FilteredBlockSections F = filterBlockSections(P, Names);

  ASSERT_EQ(F.Kept.size(), 4u);
  EXPECT_THAT(F.Kept[0].Names, ElementsAre("main"));
  // A local ThinLTO may promote: both names reach the backend.
  EXPECT_THAT(F.Kept[1].Names, ElementsAre("helper", "helper.llvm.99"));
  // The promoted name of this very module: the plain one too.
  EXPECT_THAT(F.Kept[2].Names, ElementsAre("stat.llvm.42", "stat"));
  // A local two modules define gets no alias: it could be the other one.
  EXPECT_THAT(F.Kept[3].Names, ElementsAre("ambiguous"));
  // Another module hash: another build of `stat`, not in the link.
  EXPECT_EQ(F.NotInLink, 2u);
  ASSERT_EQ(F.Refused.size(), 1u);
  EXPECT_THAT(F.Refused[0].Names, ElementsAre("bad"));
}

TEST(BlockSections, RefusesANameOfSeveralLocalsWithoutItsModule) {
  // A static inline function of a header, compiled into three modules:
  // LLVM would apply the entry's block ids to all three.
  BlockSectionsProfile P = parse("v1\n"
                                 "f shared\nc 0 1\n"
                                 "m b.c\nf shared\nc 0 2\n");
  LinkFunctionNames Names;
  Names.Defined.insert("shared");
  Names.AmbiguousNames["shared"] = 3;
  FilteredBlockSections F = filterBlockSections(P, Names);
  ASSERT_EQ(F.Refused.size(), 2u);
  EXPECT_EQ(F.Refused[0].Refusal,
            "'shared' names 3 functions of different modules, which LLVM "
            "would all lay out by this entry (an 'm <source file>' line "
            "before it says which; it needs -g)");
  // The second entry is refused as a second profile of the name; an `m`
  // line alone would have been kept.
  EXPECT_EQ(F.Refused[1].Refusal, "'shared' is profiled already (line 2)");
  FilteredBlockSections WithModule =
      filterBlockSections(parse("v1\nm b.c\nf shared\nc 0 2\n"), Names);
  ASSERT_EQ(WithModule.Kept.size(), 1u);
  EXPECT_EQ(WithModule.Kept[0].Module, "b.c");
}

TEST(BlockSections, FollowsTheModuleOfAnEntryToItsRenamedFunction) {
  LinkFunctionNames Names;
  Names.Defined.insert("shared");
  Names.Defined.insert("shared.__uniq.1");
  Names.Defined.insert("shared.__uniq.2");
  Names.AmbiguousNames["shared"] = 2;
  Names.UniqueNames["shared"] = {{"./a.c", "shared.__uniq.1"},
                                 {"b.c", "shared.__uniq.2"}};
  FilteredBlockSections F = filterBlockSections(
      parse("v1\nm a.c\nf shared\nc 0 1\nm b.c\nf other\nc 0\n"), Names);
  // `m a.c` is `./a.c`'s module (LLVM drops a leading `./` too).
  ASSERT_EQ(F.Kept.size(), 1u);
  EXPECT_THAT(F.Kept[0].Names, ElementsAre("shared", "shared.__uniq.1"));
  EXPECT_EQ(F.NotInLink, 1u);
  // No module of c.c defines `shared`: the entry keeps the name LLVM
  // matches by itself.
  FilteredBlockSections Other =
      filterBlockSections(parse("v1\nm c.c\nf shared\nc 0\n"), Names);
  ASSERT_EQ(Other.Kept.size(), 1u);
  EXPECT_THAT(Other.Kept[0].Names, ElementsAre("shared"));
  // The unique name alone, as a profile of the binary names it.
  FilteredBlockSections ByUnique =
      filterBlockSections(parse("v1\nf shared.__uniq.2\nc 0\n"), Names);
  ASSERT_EQ(ByUnique.Kept.size(), 1u);
  EXPECT_TRUE(ByUnique.Refused.empty());
}

TEST(BlockSections, WritesWhatItParsed) {
  std::string Text = "v1\nm a.c\nf work w2\nc 0 1\nc 2\np 1 2\nf b\nc 0\n";
  BlockSectionsProfile P = parse(Text);
  std::string Written;
  raw_string_ostream OS(Written);
  writeBlockSectionsProfile(P.Functions, OS);
  EXPECT_EQ(Written, Text);
}

} // namespace

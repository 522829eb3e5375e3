//===- LinkBitcodeTest.cpp - Tests of reading a link's bitcode functions --===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which files of a link kiln-lld reads for its functions, and which names
/// it expects the LTO backends to give them. That the promoted names are
/// lld's is tested on real links (test/kiln-lld/block-sections-thinlto.test).
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LinkBitcode.h"
#include "../Support/TempFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Analysis/ModuleSummaryAnalysis.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;
using testing::MatchesRegex;

namespace {

/// \returns the bitcode of the IR \p Source, with a ThinLTO summary and
/// module hash when \p Thin.
std::string writeBitcode(StringRef Source, bool Thin) {
  LLVMContext Context;
  SMDiagnostic Diag;
  std::unique_ptr<Module> M = parseAssemblyString(Source, Diag, Context);
  EXPECT_TRUE(M) << Diag.getMessage().str();
  std::string Bytes;
  raw_string_ostream OS(Bytes);
  if (!M)
    return Bytes;
  if (!Thin) {
    WriteBitcodeToFile(*M, OS);
    return Bytes;
  }
  ProfileSummaryInfo PSI(*M);
  ModuleSummaryIndex Index = buildModuleSummaryIndex(*M, nullptr, &PSI);
  WriteBitcodeToFile(*M, OS, /*ShouldPreserveUseListOrder=*/false, &Index,
                     /*GenerateHash=*/true);
  return Bytes;
}

constexpr StringLiteral Target =
    "target triple = \"x86_64-unknown-linux-gnu\"\n";

TEST(LinkBitcode, FindsFilesAndLibrariesOfTheCommandLine) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("kiln-link-bitcode", Dir));
  auto Touch = [&](StringRef Name) {
    SmallString<128> Path(Dir);
    sys::path::append(Path, Name);
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    return Path.str().str();
  };
  std::string A = Touch("a.o");
  std::string LibFoo = Touch("libfoo.a");
  std::string Exact = Touch("exact.a");
  Touch("libbar.so");
  std::string D = Dir.str().str();
  EXPECT_THAT(
      findLinkInputFiles({"ld", A, "-o", "/nonexistent/app", "-L", D, "-lfoo",
                          "-lbar", "-l:exact.a", A, "--library", "foo"}),
      ElementsAre(A, LibFoo, Exact));
  EXPECT_THAT(findLinkInputFiles({"ld", "--library-path=" + D, "-l", "foo"}),
              ElementsAre(LibFoo));
  sys::fs::remove_directories(Dir);
}

TEST(LinkBitcode, NamesThePromotionsOfUnambiguousLocals) {
  std::string One =
      writeBitcode((Target + "define internal void @helper() { ret void }\n"
                             "define internal void @twice() { ret void }\n"
                             "define internal void @clash() { ret void }\n"
                             "define void @api() { ret void }\n"
                             "declare void @external()\n")
                       .str(),
                   /*Thin=*/true);
  std::string Two =
      writeBitcode((Target + "define internal void @twice() { ret void }\n"
                             "define void @clash() { ret void }\n")
                       .str(),
                   /*Thin=*/true);
  std::string Full = writeBitcode(
      (Target + "define internal void @fullonly() { ret void }\n").str(),
      /*Thin=*/false);
  test::TempFile F1("one", "bc", One), F2("two", "bc", Two),
      F3("full", "bc", Full),
      Native("native", "o",
             "\x7f"
             "ELF");
  Expected<LinkBitcode> Read = readLinkBitcode(
      {F1.path().str(), F2.path().str(), F3.path().str(), Native.path().str()});
  ASSERT_THAT_EXPECTED(Read, Succeeded());
  EXPECT_EQ(Read->NumModules, 3u);
  for (StringRef Name : {"helper", "twice", "clash", "api", "fullonly"})
    EXPECT_TRUE(Read->Names.Defined.contains(Name)) << Name.str();
  EXPECT_FALSE(Read->Names.Defined.contains("external"));
  // Only `helper` can be named by its promotion: `twice` has two
  // definitions, `clash` an external namesake, and full LTO's `fullonly`
  // is never promoted.
  ASSERT_EQ(Read->Names.PromotedNames.size(), 1u);
  EXPECT_EQ(Read->Names.AmbiguousNames.lookup("twice"), 2u);
  EXPECT_EQ(Read->Names.AmbiguousNames.lookup("clash"), 2u);
  EXPECT_EQ(Read->Names.AmbiguousNames.size(), 2u);
  EXPECT_THAT(Read->Names.PromotedNames.lookup("helper"),
              MatchesRegex("helper\\.llvm\\.[0-9]+"));
}

TEST(LinkBitcode, GivesSameNamedLocalsOfThinLTOModulesUniqueNames) {
  auto Module = [](StringRef Source, StringRef Body) {
    return ("source_filename = \"" + Source + "\"\n" + Target + Body).str();
  };
  test::TempFile One(
      "one", "bc",
      writeBitcode(Module("one.c", "define internal void @twice() { "
                                   "ret void }\n"
                                   "define internal void @clash() { "
                                   "ret void }\n"),
                   /*Thin=*/true)),
      Two("two", "bc",
          writeBitcode(Module("two.c", "define internal void @twice() { "
                                       "ret void }\n"
                                       "define void @clash() { ret void }\n"),
                       /*Thin=*/true)),
      Full("full", "bc",
           writeBitcode(
               Module("full.c", "define internal void @twice() { ret void }\n"),
               /*Thin=*/false)),
      Dup1("dup1", "bc",
           writeBitcode(
               Module("dup.c", "define internal void @same() { ret void }\n"),
               /*Thin=*/true)),
      Dup2("dup2", "bc",
           writeBitcode(Module("dup.c", "define internal void @same() { "
                                        "ret void }\n"
                                        "define void @dup2() { ret void }\n"),
                        /*Thin=*/true));
  Expected<LinkBitcode> Read =
      readLinkBitcode({One.path().str(), Two.path().str(), Full.path().str(),
                       Dup1.path().str(), Dup2.path().str()});
  ASSERT_THAT_EXPECTED(Read, Succeeded());
  // Full LTO renames nothing; two modules of dup.c would get one name.
  EXPECT_THAT(Read->UniqueLocals, ElementsAre(UniqueLocal{"clash", "one.c"},
                                              UniqueLocal{"twice", "one.c"},
                                              UniqueLocal{"twice", "two.c"}));
  std::string OneTwice = "twice" + getUniqueLocalSuffix("one.c");
  std::string TwoTwice = "twice" + getUniqueLocalSuffix("two.c");
  EXPECT_TRUE(Read->Names.Defined.contains(OneTwice));
  EXPECT_TRUE(Read->Names.Defined.contains(TwoTwice));
  EXPECT_TRUE(Read->Names.Defined.contains("twice"));
  EXPECT_EQ(Read->Names.AmbiguousNames.lookup("twice"), 3u);
  EXPECT_EQ(Read->Names.AmbiguousNames.lookup("same"), 2u);
  using Pair = std::pair<std::string, std::string>;
  EXPECT_THAT(Read->Names.UniqueNames.lookup("twice"),
              ElementsAre(Pair("one.c", OneTwice), Pair("two.c", TwoTwice)));
  EXPECT_FALSE(Read->Names.UniqueNames.contains("same"));
  // Each ThinLTO module's promotion of an ambiguous local is its own name.
  unsigned Promoted = 0;
  for (const auto &Name : Read->Names.Defined)
    if (StringRef(Name.getKey()).starts_with("twice.llvm.") ||
        StringRef(Name.getKey()).starts_with("same.llvm."))
      ++Promoted;
  EXPECT_EQ(Promoted, 4u);
}

TEST(LinkBitcode, NamesTheFileItCannotRead) {
  test::TempFile Bad("bad", "bc",
                     "BC\xc0\xde"
                     "garbage");
  Expected<LinkBitcode> Read = readLinkBitcode({Bad.path().str()});
  EXPECT_THAT_EXPECTED(
      Read, FailedWithMessage(testing::StartsWith(Bad.path().str() + ": ")));
}

} // namespace

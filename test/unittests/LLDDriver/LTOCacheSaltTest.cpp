//===- LTOCacheSaltTest.cpp - Tests of kiln-lld's ThinLTO cache salt ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which options are Kiln's, which are a ThinLTO cache directory, and when
/// kiln-lld moves the cache to a per-configuration subdirectory; the links
/// themselves are tested in test/kiln-lld/thinlto-cache-salt.test.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LTOCacheSalt.h"
#include "../Support/TempFile.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using kiln::LinkerFlavor;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;
using testing::MatchesRegex;

namespace {

TEST(LTOCacheSalt, KilnOptionsInEverySpelling) {
  EXPECT_THAT(
      kiln::collectKilnOptions(
          {"ld", "-mllvm", "-kiln-a", "--mllvm", "--kiln-b", "-mllvm=-kiln-c",
           "--plugin-opt=-kiln-d", "-plugin-opt", "-kiln-e", "-mllvm",
           "-inline-threshold=5", "-kiln-f.o", "--kiln-profile=p.profdata",
           "-mllvm"}),
      ElementsAre("-kiln-a", "--kiln-b", "-kiln-c", "-kiln-d", "-kiln-e"));
  // The program name is not an option.
  EXPECT_THAT(kiln::collectKilnOptions({"-kiln-x"}), IsEmpty());
}

TEST(LTOCacheSalt, CacheOptions) {
  std::vector<std::string> ELF = {"ld",
                                  "--thinlto-cache-dir=c1",
                                  "a.o",
                                  "-plugin-opt=cache-dir=c2",
                                  "--thinlto-cache-dir",
                                  "not-a-cache"};
  // ld.lld has no separate form of --thinlto-cache-dir.
  EXPECT_THAT(kiln::saltLTOCacheDirectories(ELF, LinkerFlavor::ELF, "s"),
              ElementsAre("ld", "--thinlto-cache-dir=c1/kiln-s", "a.o",
                          "-plugin-opt=cache-dir=c2/kiln-s",
                          "--thinlto-cache-dir", "not-a-cache"));
  EXPECT_EQ(kiln::findUserLTOCache(ELF, LinkerFlavor::ELF), "c2");

  std::vector<std::string> MachO = {"ld64", "-cache_path_lto", "/tmp/c", "x.o"};
  EXPECT_THAT(kiln::saltLTOCacheDirectories(MachO, LinkerFlavor::MachO, "s"),
              ElementsAre("ld64", "-cache_path_lto", "/tmp/c/kiln-s", "x.o"));

  std::vector<std::string> None = {"ld", "-o", "app", "a.o"};
  EXPECT_EQ(kiln::saltLTOCacheDirectories(None, LinkerFlavor::ELF, "s"), None);
}

TEST(LTOCacheSalt, SaltsOnlyWhenKilnIsActive) {
  kiln::test::TempFile Plugin("kiln-plugin", "so", "not really a plugin");
  std::string Diag;
  raw_string_ostream DiagOS(Diag);
  auto Apply = [&](LinkerFlavor Flavor, std::vector<std::string> Args,
                   StringRef PluginPath) {
    EXPECT_THAT_ERROR(kiln::applyLTOCacheSalt(Flavor, Args, PluginPath,
                                              /*BlockSections=*/"",
                                              /*Verbose=*/true, DiagOS),
                      Succeeded());
    return Args;
  };
  std::vector<std::string> Plain = {"ld", "--thinlto-cache-dir=c", "a.o"};
  std::vector<std::string> WithKiln = {"ld", "--thinlto-cache-dir=c", "a.o",
                                       "-mllvm", "-kiln-strtab"};

  // No Kiln option, no plugin, or a flavor whose LTO runs no plugin: the
  // cache stays the user's, shared with plain lld.
  EXPECT_EQ(Apply(LinkerFlavor::ELF, Plain, Plugin.path()), Plain);
  EXPECT_EQ(Apply(LinkerFlavor::ELF, WithKiln, ""), WithKiln);
  std::vector<std::string> COFF = {"lld-link", "/lldltocache:c",
                                   "/mllvm:-kiln-strtab"};
  EXPECT_EQ(Apply(LinkerFlavor::COFF, COFF, Plugin.path()), COFF);
  EXPECT_THAT(Diag, IsEmpty());

  std::vector<std::string> Salted =
      Apply(LinkerFlavor::ELF, WithKiln, Plugin.path());
  EXPECT_THAT(Salted[1],
              MatchesRegex("--thinlto-cache-dir=c/kiln-[0-9a-f]{32}"));
  EXPECT_THAT(Diag, HasSubstr("kiln-lld: note: ThinLTO cache: c/kiln-"));
  // Deterministic, and specific to the options.
  EXPECT_EQ(Apply(LinkerFlavor::ELF, WithKiln, Plugin.path())[1], Salted[1]);
  std::vector<std::string> Other = WithKiln;
  Other.back() = "-kiln-section-placement";
  EXPECT_NE(Apply(LinkerFlavor::ELF, Other, Plugin.path())[1], Salted[1]);

  // A plugin that cannot be read cannot key the cache.
  std::vector<std::string> Args = WithKiln;
  EXPECT_THAT_ERROR(kiln::applyLTOCacheSalt(LinkerFlavor::ELF, Args,
                                            "/nonexistent/KilnPlugin-22.so",
                                            /*BlockSections=*/"",
                                            /*Verbose=*/false, DiagOS),
                    FailedWithMessage(HasSubstr("cannot key the ThinLTO cache "
                                                "on Kiln's configuration")));
}

TEST(LTOCacheSalt, KeyedOnTheBlockSectionsProfile) {
  std::string Diag;
  raw_string_ostream DiagOS(Diag);
  auto Apply = [&](std::vector<std::string> Args, StringRef PluginPath,
                   StringRef BlockSections) {
    EXPECT_THAT_ERROR(kiln::applyLTOCacheSalt(LinkerFlavor::ELF, Args,
                                              PluginPath, BlockSections,
                                              /*Verbose=*/true, DiagOS),
                      Succeeded());
    return Args;
  };
  std::vector<std::string> Plain = {"ld", "--thinlto-cache-dir=c", "a.o"};
  // lld's key covers the profile's file name, which is new in every run,
  // not its content: the salt is the content, with or without the plugin.
  std::vector<std::string> One = Apply(Plain, "", "v1\nf f\nc 0 1\n");
  EXPECT_THAT(One[1], MatchesRegex("--thinlto-cache-dir=c/kiln-[0-9a-f]{32}"));
  EXPECT_THAT(Diag, HasSubstr("keyed on the block sections profile)"));
  EXPECT_EQ(Apply(Plain, "", "v1\nf f\nc 0 1\n")[1], One[1]);
  EXPECT_NE(Apply(Plain, "", "v1\nf f\nc 0\nc 1\n")[1], One[1]);
  // No profile and no Kiln option: the user's cache.
  EXPECT_EQ(Apply(Plain, "", ""), Plain);
}

} // namespace

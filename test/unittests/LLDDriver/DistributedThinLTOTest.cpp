//===- DistributedThinLTOTest.cpp - Tests of Kiln in DTLTO jobs -----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How kiln-lld reads a link's distributed-ThinLTO options and which
/// remote-compiler arguments it adds; the links themselves are tested in
/// test/kiln-lld/distributed-thinlto.test.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/DistributedThinLTO.h"

#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace llvm;
using kiln::LinkerFlavor;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

TEST(DistributedThinLTO, OptionsInEverySpelling) {
  kiln::DistributedThinLTOSetup Setup = kiln::findDistributedThinLTOSetup(
      {"ld", "--thinlto-distributor", "d.py", "-thinlto-remote-compiler=kiln",
       "--thinlto-remote-compiler-prepend-arg=thin-backend",
       "-thinlto-remote-compiler-prepend-arg", "-x",
       "--thinlto-remote-compiler-arg=-y", "--thinlto-distributor-arg=a"});
  EXPECT_EQ(Setup.Distributor, "d.py");
  EXPECT_EQ(Setup.RemoteCompiler, "kiln");
  EXPECT_THAT(Setup.PrependArgs, ElementsAre("thin-backend", "-x"));
  EXPECT_TRUE(Setup.remoteCompilerIsKilnThinBackend());
}

TEST(DistributedThinLTO, RecognizesKilnThinBackendOnly) {
  kiln::DistributedThinLTOSetup Setup;
  Setup.RemoteCompiler = "/opt/kiln/bin/kiln";
  EXPECT_FALSE(Setup.remoteCompilerIsKilnThinBackend());
  Setup.PrependArgs = {"order"};
  EXPECT_FALSE(Setup.remoteCompilerIsKilnThinBackend());
  Setup.PrependArgs = {"thin-backend"};
  EXPECT_TRUE(Setup.remoteCompilerIsKilnThinBackend());
  Setup.RemoteCompiler = "/usr/bin/clang";
  EXPECT_FALSE(Setup.remoteCompilerIsKilnThinBackend());
  // A separate value at the end of the command line is no option.
  EXPECT_TRUE(kiln::findDistributedThinLTOSetup({"ld", "--thinlto-distributor"})
                  .Distributor.empty());
}

TEST(DistributedThinLTO, ArgsForKilnThinBackendStartStatic) {
  kiln::DistributedThinLTOSetup Setup;
  Setup.RemoteCompiler = "kiln";
  Setup.PrependArgs = {"thin-backend"};
  EXPECT_THAT(
      kiln::remoteCompilerArgsForKiln(Setup, "/p/KilnPlugin-22.so",
                                      {"-kiln-a", "-kiln-b=f.txt"}),
      ElementsAre(
          "--thinlto-remote-compiler-prepend-arg=--relocation-model=static",
          "--thinlto-remote-compiler-arg=-fpass-plugin=/p/KilnPlugin-22.so",
          "--thinlto-remote-compiler-arg=-mllvm",
          "--thinlto-remote-compiler-arg=-kiln-a",
          "--thinlto-remote-compiler-arg=-mllvm",
          "--thinlto-remote-compiler-arg=-kiln-b=f.txt"));
  // The link's profile (clang's spelling for a -fprofile-use link, or
  // lld's) goes to kiln thin-backend's jobs too.
  for (const char *Spelling : {"-plugin-opt=cs-profile-path=/w/app.profdata",
                               "--lto-cs-profile-file=/w/app.profdata"}) {
    kiln::DistributedThinLTOSetup WithProfile =
        kiln::findDistributedThinLTOSetup(
            {"ld", "--thinlto-distributor=d", "--thinlto-remote-compiler=kiln",
             "--thinlto-remote-compiler-prepend-arg=thin-backend", Spelling});
    EXPECT_EQ(WithProfile.CSProfileFile, "/w/app.profdata");
    EXPECT_THAT(
        kiln::remoteCompilerArgsForKiln(WithProfile, "/p/K.so", {}),
        ElementsAre(
            "--thinlto-remote-compiler-prepend-arg=--relocation-model=static",
            "--thinlto-remote-compiler-arg=-fpass-plugin=/p/K.so",
            "--thinlto-remote-compiler-arg=--lto-cs-profile-file=/w/"
            "app.profdata"));
  }
  Setup.RemoteCompiler = "clang";
  Setup.PrependArgs.clear();
  // Not for another remote compiler, which has no such option.
  Setup.CSProfileFile = "/w/app.profdata";
  EXPECT_THAT(kiln::remoteCompilerArgsForKiln(Setup, "/p/K.so", {"-kiln-a"}),
              ElementsAre("--thinlto-remote-compiler-arg=-fpass-plugin=/p/K.so",
                          "--thinlto-remote-compiler-arg=-mllvm",
                          "--thinlto-remote-compiler-arg=-kiln-a"));
}

TEST(DistributedThinLTO, CarriesOnlyWhenKilnIsActiveInAnELFDistributedLink) {
  unsetenv("KILN_OPTIONS");
  std::string Diag;
  raw_string_ostream OS(Diag);
  const std::vector<std::string> Distributed = {
      "ld", "--thinlto-distributor=d", "--thinlto-remote-compiler=clang",
      "-mllvm", "-kiln-a"};
  // No plugin, another flavor, no distributor, no Kiln option: unchanged.
  std::vector<std::string> Args = Distributed;
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::ELF, Args, "", false, OS);
  EXPECT_EQ(Args, Distributed);
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::COFF, Args, "/p", false,
                                      OS);
  EXPECT_EQ(Args, Distributed);
  std::vector<std::string> InProcess = {"ld", "-mllvm", "-kiln-a"};
  Args = InProcess;
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::ELF, Args, "/p", false, OS);
  EXPECT_EQ(Args, InProcess);
  std::vector<std::string> NoKiln = {"ld", "--thinlto-distributor=d", "-mllvm",
                                     "-other"};
  Args = NoKiln;
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::ELF, Args, "/p", false, OS);
  EXPECT_EQ(Args, NoKiln);
  EXPECT_THAT(Diag, IsEmpty());

  // Kiln active, clang remote: carried, with a warning.
  Args = Distributed;
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::ELF, Args, "/p", false, OS);
  EXPECT_THAT(
      Args, ElementsAre("ld", "--thinlto-distributor=d",
                        "--thinlto-remote-compiler=clang", "-mllvm", "-kiln-a",
                        "--thinlto-remote-compiler-arg=-fpass-plugin=/p",
                        "--thinlto-remote-compiler-arg=-mllvm",
                        "--thinlto-remote-compiler-arg=-kiln-a"));
  EXPECT_THAT(Diag, HasSubstr("warning: the ThinLTO remote compiler 'clang' "
                              "is not kiln thin-backend"));

  // KILN_OPTIONS travel too.
  setenv("KILN_OPTIONS", "-kiln-env", 1);
  Args = NoKiln;
  kiln::carryKilnToDistributedThinLTO(LinkerFlavor::ELF, Args, "/p", false, OS);
  unsetenv("KILN_OPTIONS");
  EXPECT_THAT(Args,
              testing::Contains("--thinlto-remote-compiler-arg=-kiln-env"));
}

} // namespace

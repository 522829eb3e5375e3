//===- LinkerInvocationTest.cpp - Tests of kiln-lld's lld command ---------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using kiln::LinkerFlavor;
using testing::ElementsAre;

namespace {

LinkerFlavor flavorOf(std::initializer_list<const char *> Args) {
  return kiln::detectFlavor(std::vector<const char *>(Args));
}

TEST(LinkerInvocation, FlavorFromProgramName) {
  // lld's own rule: any '-'-separated part of the name that lld knows.
  EXPECT_EQ(flavorOf({"kiln-ld.lld"}), LinkerFlavor::ELF);
  EXPECT_EQ(flavorOf({"/opt/kiln/bin/kiln-ld.lld", "a.o"}), LinkerFlavor::ELF);
  EXPECT_EQ(flavorOf({"kiln-lld-link"}), LinkerFlavor::COFF);
  EXPECT_EQ(flavorOf({"kiln-lld-link.exe"}), LinkerFlavor::COFF);
  EXPECT_EQ(flavorOf({"kiln-ld64.lld"}), LinkerFlavor::MachO);
  // kiln-lld itself is ld.lld: clang -fuse-ld=<path> passes GNU arguments.
  EXPECT_EQ(flavorOf({"/usr/bin/kiln-lld", "-o", "a"}), LinkerFlavor::ELF);
  EXPECT_EQ(flavorOf({"some-linker"}), LinkerFlavor::Unknown);
}

TEST(LinkerInvocation, ExplicitFlavorWins) {
  EXPECT_EQ(flavorOf({"kiln-lld", "-flavor", "link"}), LinkerFlavor::COFF);
  EXPECT_EQ(flavorOf({"kiln-lld", "-flavor", "darwin"}), LinkerFlavor::MachO);
  EXPECT_EQ(flavorOf({"kiln-ld.lld", "-flavor", "ld64"}), LinkerFlavor::MachO);
  EXPECT_EQ(flavorOf({"kiln-lld", "-flavor", "wasm"}), LinkerFlavor::Unknown);
}

TEST(LinkerInvocation, PEEmulationMeansMinGW) {
  EXPECT_EQ(flavorOf({"kiln-lld", "-m", "i386pep", "a.o"}),
            LinkerFlavor::MinGW);
  EXPECT_EQ(flavorOf({"kiln-lld", "-m", "elf_x86_64", "a.o"}),
            LinkerFlavor::ELF);
}

TEST(LinkerInvocation, OwnNameGetsGnuFlavorAndPlugin) {
  kiln::LinkerInvocation I = kiln::buildLinkerInvocation(
      {"/x/kiln-lld", "a.o", "-o", "a"}, "/p/KilnPlugin-22.so");
  EXPECT_EQ(I.Flavor, LinkerFlavor::ELF);
  EXPECT_TRUE(I.AddedPassPlugin);
  EXPECT_THAT(I.Args,
              ElementsAre("/x/kiln-lld", "-flavor", "gnu", "a.o", "-o", "a",
                          "--load-pass-plugin=/p/KilnPlugin-22.so"));
}

TEST(LinkerInvocation, KnownNameIsPassedThrough) {
  kiln::LinkerInvocation I =
      kiln::buildLinkerInvocation({"kiln-ld64.lld", "a.o"}, "/p/K.so");
  EXPECT_EQ(I.Flavor, LinkerFlavor::MachO);
  EXPECT_THAT(I.Args, ElementsAre("kiln-ld64.lld", "a.o",
                                  "--load-pass-plugin=/p/K.so"));
}

TEST(LinkerInvocation, NoPluginForCOFFAndMinGW) {
  // lld-link has no --load-pass-plugin; the MinGW driver would reject it.
  kiln::LinkerInvocation COFF =
      kiln::buildLinkerInvocation({"kiln-lld-link", "a.obj"}, "/p/K.so");
  EXPECT_FALSE(COFF.AddedPassPlugin);
  EXPECT_THAT(COFF.Args, ElementsAre("kiln-lld-link", "a.obj"));
  kiln::LinkerInvocation MinGW = kiln::buildLinkerInvocation(
      {"kiln-lld", "-m", "i386pep", "a.o"}, "/p/K.so");
  EXPECT_FALSE(MinGW.AddedPassPlugin);
  EXPECT_THAT(MinGW.Args, ElementsAre("kiln-lld", "-flavor", "gnu", "-m",
                                      "i386pep", "a.o"));
}

TEST(LinkerInvocation, NoPluginPathMeansPlainLld) {
  kiln::LinkerInvocation I = kiln::buildLinkerInvocation({"kiln-ld.lld"}, "");
  EXPECT_FALSE(I.AddedPassPlugin);
  EXPECT_THAT(I.Args, ElementsAre("kiln-ld.lld"));
}

TEST(LinkerInvocation, UserNamedSamePluginIsNotRepeated) {
  kiln::LinkerInvocation Same = kiln::buildLinkerInvocation(
      {"kiln-ld.lld", "--load-pass-plugin=/p/K.so"}, "/p/K.so");
  EXPECT_FALSE(Same.AddedPassPlugin);
  // Another spelling of the same file, recognized by the callback.
  kiln::LinkerInvocation Link = kiln::buildLinkerInvocation(
      {"kiln-ld.lld", "--load-pass-plugin=/link/K.so"}, "/p/K.so",
      [](StringRef, StringRef) { return true; });
  EXPECT_FALSE(Link.AddedPassPlugin);
  // A different plugin does not stop Kiln's from being added.
  kiln::LinkerInvocation Other = kiln::buildLinkerInvocation(
      {"kiln-ld.lld", "--load-pass-plugin=/q/Other.so"}, "/p/K.so");
  EXPECT_TRUE(Other.AddedPassPlugin);
}

TEST(LinkerInvocation, RecognizesKilnOptions) {
  EXPECT_TRUE(kiln::requestsKilnOptions(
      {"kiln-lld", "-mllvm", "-kiln-print-function-profile"}));
  EXPECT_TRUE(
      kiln::requestsKilnOptions({"kiln-lld", "-mllvm=-kiln-profile-remarks"}));
  EXPECT_TRUE(kiln::requestsKilnOptions(
      {"kiln-lld", "--plugin-opt=-kiln-profile-remarks"}));
  EXPECT_TRUE(kiln::requestsKilnOptions(
      {"kiln-lld-link", "/mllvm:-kiln-profile-remarks"}));
  EXPECT_FALSE(kiln::requestsKilnOptions(
      {"kiln-lld", "-mllvm", "-enable-ext-tsp-block-placement"}));
  // An output file named like an option is not an option.
  EXPECT_FALSE(kiln::requestsKilnOptions({"kiln-lld", "-o", "-kiln-x"}));
}

TEST(LinkerInvocation, FindsTheELFEntrySymbol) {
  using Args = std::vector<std::string>;
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "-pie", "a.o"}), "_start");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "-e", "go", "a.o"}), "go");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "--entry=go"}), "go");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "--entry", "go"}), "go");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "-entry=a", "-e", "b"}),
            "b");
  // No entry point runs at load in a shared library or a relocatable link.
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "-shared", "a.o"}), "");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "--shared", "-e", "x"}), "");
  EXPECT_EQ(kiln::getELFEntrySymbol(Args{"ld.lld", "-r", "a.o"}), "");
  // Options that start like -e are not the entry.
  EXPECT_EQ(kiln::getELFEntrySymbol(
                Args{"ld.lld", "--eh-frame-hdr", "-export-dynamic", "a.o"}),
            "_start");
}

} // namespace

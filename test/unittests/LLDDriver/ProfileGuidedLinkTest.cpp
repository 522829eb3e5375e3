//===- ProfileGuidedLinkTest.cpp - Tests of kiln-lld's two links ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Option splitting and the command lines of the preliminary and final links,
// per flavor; the links themselves are tested in test/kiln-lld.
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/KilnLinkOptions.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "llvm/Testing/Support/Error.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using kiln::LinkerFlavor;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

Expected<kiln::SplitLinkCommand>
split(std::vector<const char *> Args, LinkerFlavor Flavor = LinkerFlavor::ELF) {
  return kiln::splitKilnLinkOptions(Args, Flavor);
}

std::string errorOf(Expected<kiln::SplitLinkCommand> Split) {
  if (Split)
    return "";
  return toString(Split.takeError());
}

TEST(KilnLinkOptions, TakesKilnOptionsOut) {
  Expected<kiln::SplitLinkCommand> S =
      split({"kiln-lld", "-o", "app", "--kiln-profile=app.profdata", "a.o",
             "--kiln-startup-profile=start.profdata",
             "--kiln-scenario=steady=more.profdata:2", "--kiln-algorithm=c3",
             "--kiln-page-size=16K", "--kiln-order-out=order.txt",
             "--kiln-report=r.json", "--kiln-preread-out=p.json",
             "--kiln-strict", "--kiln-verbose", "--kiln-save-temps"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->LinkerArgs, ElementsAre("kiln-lld", "-o", "app", "a.o"));
  EXPECT_THAT(S->Kiln.Scenarios,
              ElementsAre("steady=app.profdata", "startup=start.profdata",
                          "steady=more.profdata:2"));
  EXPECT_EQ(S->Kiln.Algorithm, "c3");
  EXPECT_EQ(S->Kiln.PageSize, "16K");
  EXPECT_EQ(S->Kiln.OrderOut, "order.txt");
  EXPECT_EQ(S->Kiln.ReportOut, "r.json");
  EXPECT_EQ(S->Kiln.PrereadOut, "p.json");
  EXPECT_TRUE(S->Kiln.Strict);
  EXPECT_TRUE(S->Kiln.Verbose);
  EXPECT_TRUE(S->Kiln.SaveTemps);
  EXPECT_TRUE(S->Kiln.requestsProfileGuidedLink());
}

TEST(KilnLinkOptions, BlockLayoutNeedsNoProfile) {
  Expected<kiln::SplitLinkCommand> S =
      split({"kiln-lld", "a.o", "--kiln-block-address-map",
             "--kiln-block-sections=clusters.txt", "-o", "app"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->LinkerArgs, ElementsAre("kiln-lld", "a.o", "-o", "app"));
  EXPECT_TRUE(S->Kiln.BlockAddressMap);
  EXPECT_EQ(S->Kiln.BlockSections, "clusters.txt");
  EXPECT_FALSE(S->Kiln.requestsProfileGuidedLink());
  EXPECT_EQ(errorOf(split({"kiln-lld", "--kiln-block-address-map=yes"})),
            "--kiln-block-address-map=yes: takes no value");
  EXPECT_EQ(errorOf(split({"kiln-lld", "--kiln-block-sections="})),
            "--kiln-block-sections=: needs a value (block-sections=<value>)");
}

TEST(KilnLinkOptions, RepeatedScenarioCountsOnce) {
  // A Makefile that repeats LDFLAGS gives each option twice; the same
  // spelling is the same scenario, so the link plans as if it was given once.
  Expected<kiln::SplitLinkCommand> S = split(
      {"kiln-lld", "--kiln-profile=app.profdata",
       "--kiln-startup-profile=start.profdata", "a.o",
       "--kiln-profile=app.profdata", "--kiln-startup-profile=start.profdata",
       "--kiln-scenario=steady=app.profdata"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->Kiln.Scenarios,
              ElementsAre("steady=app.profdata", "startup=start.profdata"));
  // Another weight or another file is another scenario.
  S = split({"kiln-lld", "--kiln-profile=a.profdata",
             "--kiln-scenario=steady=a.profdata:2",
             "--kiln-profile=b.profdata"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->Kiln.Scenarios,
              ElementsAre("steady=a.profdata", "steady=a.profdata:2",
                          "steady=b.profdata"));
}

TEST(KilnLinkOptions, LeavesPluginOptionsAlone) {
  // `-kiln-x` after -mllvm belongs to the plugin; even `--kiln-x` there does.
  Expected<kiln::SplitLinkCommand> S =
      split({"kiln-lld", "-mllvm", "-kiln-print-function-profile", "-mllvm",
             "--kiln-profile=x", "--plugin-opt=-kiln-profile-remarks"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_EQ(S->LinkerArgs.size(), 6u);
  EXPECT_FALSE(S->Kiln.requestsProfileGuidedLink());
  // The program name is never an option.
  S = split({"--kiln-profile=x"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_FALSE(S->Kiln.requestsProfileGuidedLink());
}

TEST(KilnLinkOptions, COFFSpelling) {
  Expected<kiln::SplitLinkCommand> S =
      split({"kiln-lld-link", "/out:a.exe", "/kiln-profile:app.profdata",
             "/kiln-order-out:o.txt"},
            LinkerFlavor::COFF);
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->LinkerArgs, ElementsAre("kiln-lld-link", "/out:a.exe"));
  EXPECT_THAT(S->Kiln.Scenarios, ElementsAre("steady=app.profdata"));
  EXPECT_EQ(S->Kiln.OrderOut, "o.txt");
  // `/kiln-` is only lld-link's spelling: to ld.lld it is a path.
  S = split({"kiln-lld", "/kiln-profile:x"});
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_EQ(S->LinkerArgs.size(), 2u);
}

TEST(KilnLinkOptions, Errors) {
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-profle=x"})),
              HasSubstr("--kiln-profle=x: unknown kiln-lld option"));
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-profile"})),
              HasSubstr("--kiln-profile: needs a value"));
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-strict=yes"})),
              HasSubstr("takes no value"));
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-order-out=o.txt"})),
              HasSubstr("only take effect with a profile"));
  // The prefix with no name is Kiln's too, not an argument for lld (found
  // by the link-command fuzzer).
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-"})),
              HasSubstr("--kiln-: unknown kiln-lld option"));
  EXPECT_THAT(errorOf(split({"kiln-lld", "--kiln-=x"})),
              HasSubstr("--kiln-=x: unknown kiln-lld option"));
  EXPECT_THAT(errorOf(split({"kiln-lld-link", "/kiln-:x"}, LinkerFlavor::COFF)),
              HasSubstr("/kiln-:x: unknown kiln-lld option"));
}

TEST(KilnLinkOptions, ConflictingOrders) {
  using kiln::findConflictingOrderOptions;
  std::vector<std::string> ELF = {"ld",
                                  "--symbol-ordering-file=o.txt",
                                  "-call-graph-ordering-file",
                                  "e.txt",
                                  "--bp-startup-sort=function",
                                  "--call-graph-profile-sort=cdsort",
                                  "a.o"};
  EXPECT_THAT(findConflictingOrderOptions(ELF, LinkerFlavor::ELF),
              ElementsAre("--symbol-ordering-file=o.txt",
                          "-call-graph-ordering-file",
                          "--bp-startup-sort=function"));
  std::vector<std::string> COFF = {"lld-link", "/ORDER:@o.txt", "-order:@x",
                                   "/out:a.exe"};
  EXPECT_THAT(findConflictingOrderOptions(COFF, LinkerFlavor::COFF),
              ElementsAre("/ORDER:@o.txt", "-order:@x"));
  std::vector<std::string> MachO = {"ld64", "-order_file", "o.txt", "-o", "a"};
  EXPECT_THAT(findConflictingOrderOptions(MachO, LinkerFlavor::MachO),
              ElementsAre("-order_file"));
}

TEST(ProfileGuidedLinkSteps, OutputPath) {
  using kiln::findOutputPath;
  EXPECT_EQ(findOutputPath({"ld", "a.o"}, LinkerFlavor::ELF), "a.out");
  EXPECT_EQ(findOutputPath({"ld", "-o", "x", "-oy"}, LinkerFlavor::ELF), "y");
  EXPECT_EQ(findOutputPath({"ld", "--output=z", "-oformat=binary"},
                           LinkerFlavor::ELF),
            "z");
  EXPECT_EQ(findOutputPath({"ld", "--output", "w"}, LinkerFlavor::ELF), "w");
  EXPECT_EQ(findOutputPath({"lld-link", "/OUT:a.exe"}, LinkerFlavor::COFF),
            "a.exe");
  EXPECT_EQ(findOutputPath({"lld-link", "a.obj"}, LinkerFlavor::COFF), "");
  EXPECT_EQ(findOutputPath({"ld64", "-o", "m"}, LinkerFlavor::MachO), "m");
}

TEST(ProfileGuidedLinkSteps, UserCache) {
  using kiln::findUserLTOCache;
  EXPECT_EQ(
      findUserLTOCache({"ld", "--thinlto-cache-dir=c"}, LinkerFlavor::ELF),
      "c");
  EXPECT_EQ(
      findUserLTOCache({"ld", "--plugin-opt=cache-dir=d"}, LinkerFlavor::ELF),
      "d");
  EXPECT_EQ(
      findUserLTOCache({"lld-link", "/lldltocache:e"}, LinkerFlavor::COFF),
      "e");
  EXPECT_EQ(
      findUserLTOCache({"ld64", "-cache_path_lto", "f"}, LinkerFlavor::MachO),
      "f");
  EXPECT_EQ(findUserLTOCache({"ld", "a.o"}, LinkerFlavor::ELF), "");
}

TEST(ProfileGuidedLinkSteps, CommandLines) {
  kiln::ScratchPaths Scratch{"/s/out", "/s/lto.o", "/s/cache",
                             /*SideOutputs=*/""};
  std::vector<std::string> Args = {"ld", "-o", "app", "a.o"};
  EXPECT_THAT(kiln::buildPreliminaryLinkArgs(Args, LinkerFlavor::ELF, Scratch),
              ElementsAre("ld", "-o", "app", "a.o", "-o", "/s/out", "--trace",
                          "--lto-obj-path=/s/lto.o",
                          "--thinlto-cache-dir=/s/cache"));
  EXPECT_THAT(
      kiln::buildFinalLinkArgs(Args, LinkerFlavor::ELF, "o.txt", "/s/cache"),
      ElementsAre("ld", "-o", "app", "a.o", "--symbol-ordering-file=o.txt",
                  "--no-warn-symbol-ordering", "--thinlto-cache-dir=/s/cache"));
  std::vector<std::string> COFF = {"lld-link", "/out:a.exe", "a.obj"};
  EXPECT_THAT(kiln::buildFinalLinkArgs(COFF, LinkerFlavor::COFF, "o.txt", ""),
              ElementsAre("lld-link", "/out:a.exe", "a.obj", "/order:@o.txt",
                          "/ignore:4037"));
  std::vector<std::string> MachO = {"ld64", "-o", "m", "a.o"};
  EXPECT_THAT(
      kiln::buildPreliminaryLinkArgs(MachO, LinkerFlavor::MachO, Scratch),
      ElementsAre("ld64", "-o", "m", "a.o", "-o", "/s/out", "-t",
                  "-object_path_lto", "/s/lto.o", "-cache_path_lto",
                  "/s/cache"));
}

TEST(ProfileGuidedLinkSteps, SideOutputsOfThePreliminaryLink) {
  kiln::ScratchPaths Scratch{"/s/out", "/s/lto.o", "", "/s/p"};
  // Every spelling the linker takes, each option once (the last wins), in
  // the order of Kiln's table; options without a file are left alone.
  std::vector<std::string> ELF = {"ld",
                                  "-Map=a.map",
                                  "--Map",
                                  "b.map",
                                  "--why-extract=w",
                                  "-Mapx",
                                  "--plugin-opt=opt-remarks-filename=r.yaml",
                                  "--print-map"};
  EXPECT_THAT(kiln::buildPreliminaryLinkArgs(ELF, LinkerFlavor::ELF, Scratch),
              ElementsAre("ld", "-Map=a.map", "--Map", "b.map",
                          "--why-extract=w", "-Mapx",
                          "--plugin-opt=opt-remarks-filename=r.yaml",
                          "--print-map", "-o", "/s/out", "--trace",
                          "--lto-obj-path=/s/lto.o", "--Map=/s/p.Map",
                          "--why-extract=/s/p.why-extract",
                          "--plugin-opt=opt-remarks-filename=/s/p.opt-remarks-"
                          "filename"));
  std::vector<std::string> COFF = {"lld-link", "/map", "-implib:x.lib",
                                   "/PDB:x.pdb"};
  EXPECT_THAT(kiln::buildPreliminaryLinkArgs(COFF, LinkerFlavor::COFF, Scratch),
              ElementsAre("lld-link", "/map", "-implib:x.lib", "/PDB:x.pdb",
                          "/out:/s/out", "/verbose", "/lto-obj-path:/s/lto.o",
                          "/implib:/s/p.implib", "/pdb:/s/p.pdb"));
  std::vector<std::string> MachO = {"ld64", "-map", "m.map"};
  EXPECT_THAT(
      kiln::buildPreliminaryLinkArgs(MachO, LinkerFlavor::MachO, Scratch),
      ElementsAre("ld64", "-map", "m.map", "-o", "/s/out", "-t",
                  "-object_path_lto", "/s/lto.o", "-map", "/s/p.map"));
  // Without a side-output prefix nothing is moved (the steps' callers that
  // have no scratch directory).
  kiln::ScratchPaths NoPrefix{"/s/out", "/s/lto.o", "", ""};
  EXPECT_THAT(kiln::buildPreliminaryLinkArgs({"ld", "-Map=a.map"},
                                             LinkerFlavor::ELF, NoPrefix),
              ElementsAre("ld", "-Map=a.map", "-o", "/s/out", "--trace",
                          "--lto-obj-path=/s/lto.o"));
}

TEST(ProfileGuidedLinkSteps, TracedInputs) {
  using kiln::TracedInput;
  std::vector<TracedInput> ELF = kiln::parseTracedInputs(
      "crt1.o\nmain.o\nlibx.a(x.o)\n/dir (1)/y.o\nlibx.a(x.o)\n\n", "",
      LinkerFlavor::ELF);
  EXPECT_THAT(ELF,
              ElementsAre(TracedInput{"crt1.o", ""}, TracedInput{"main.o", ""},
                          TracedInput{"libx.a", "x.o"},
                          TracedInput{"/dir (1)/y.o", ""}));
  std::vector<TracedInput> COFF = kiln::parseTracedInputs(
      "",
      "lld-link: Reading m.obj\nlld-link: Loaded w.lib(a.obj) for g\n"
      "lld-link: Reading w.lib(a.obj)\n",
      LinkerFlavor::COFF);
  EXPECT_THAT(COFF, ElementsAre(TracedInput{"m.obj", ""},
                                TracedInput{"w.lib", "a.obj"}));
  EXPECT_THAT(kiln::parseTracedInputs("a.o\n", "", LinkerFlavor::COFF),
              IsEmpty());
  // `()` names no member: `x.o()` is a path of its own, not x.o a second
  // time (found by the link-command fuzzer).
  EXPECT_THAT(
      kiln::parseTracedInputs("x.o\nx.o()\n(y)\n", "", LinkerFlavor::ELF),
      ElementsAre(TracedInput{"x.o", ""}, TracedInput{"x.o()", ""},
                  TracedInput{"(y)", ""}));
}

} // namespace

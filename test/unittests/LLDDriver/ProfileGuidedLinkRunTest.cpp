//===- ProfileGuidedLinkRunTest.cpp - Tests of the two-link flow ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// runProfileGuidedLink with a stand-in for lld: which links it runs, and
/// that every way Kiln cannot help ends in the user's own link (or, with
/// --kiln-strict, an error), never in a lost link.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ProfileGuidedLink.h"
#include "kiln/LLDDriver/ScratchDirectory.h"

#include "TempFile.h"

#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

/// Records every link it is asked to run; each returns the next status.
struct FakeLinker {
  std::vector<std::vector<std::string>> Links;
  std::vector<int> Statuses;
  std::string Stderr;

  int operator()(ArrayRef<std::string> Args, raw_ostream &, raw_ostream &Err) {
    Links.emplace_back(Args.begin(), Args.end());
    Err << Stderr;
    return Links.size() <= Statuses.size() ? Statuses[Links.size() - 1] : 0;
  }
};

const std::vector<std::string> UserLink = {"ld.lld", "a.o", "-o", "app"};

int run(FakeLinker &Linker, const KilnLinkOptions &Options, std::string &Diag) {
  raw_string_ostream DiagOS(Diag);
  std::string Out;
  raw_string_ostream OutOS(Out);
  ScratchDirectory Scratch;
  return runProfileGuidedLink(
      LinkerFlavor::ELF, UserLink, Options, Scratch,
      [&](ArrayRef<std::string> Args, raw_ostream &O, raw_ostream &E) {
        return Linker(Args, O, E);
      },
      OutOS, DiagOS);
}

TEST(ProfileGuidedLinkRun, MissingProfileLinksWithoutKiln) {
  FakeLinker Linker;
  Linker.Statuses = {7};
  KilnLinkOptions Options;
  Options.Scenarios = {"steady=/nonexistent/p.profdata"};
  std::string Diag;
  // The user's own link runs, as written, and its status is the result.
  EXPECT_EQ(run(Linker, Options, Diag), 7);
  EXPECT_THAT(Linker.Links, ElementsAre(UserLink));
  EXPECT_THAT(Diag, HasSubstr("kiln-lld: warning: /nonexistent/p.profdata: "
                              "no such profile; linking without Kiln's "
                              "order"));
}

TEST(ProfileGuidedLinkRun, StrictRefusesInstead) {
  FakeLinker Linker;
  KilnLinkOptions Options;
  Options.Scenarios = {"steady=/nonexistent/p.profdata"};
  Options.Strict = true;
  std::string Diag;
  EXPECT_EQ(run(Linker, Options, Diag), 1);
  EXPECT_THAT(Linker.Links, IsEmpty());
  EXPECT_THAT(Diag, HasSubstr("kiln-lld: error: /nonexistent/p.profdata"));
}

TEST(ProfileGuidedLinkRun, FailingLinkFailsAsItIs) {
  test::TempFile Profile("p", "profdata", "");
  FakeLinker Linker;
  Linker.Statuses = {3};
  Linker.Stderr = "ld.lld: error: undefined symbol: f\n";
  KilnLinkOptions Options;
  Options.Scenarios = {("steady=" + Profile.path()).str()};
  std::string Diag;
  // Only the preliminary link runs (with the trace Kiln reads); its error
  // is the user's.
  EXPECT_EQ(run(Linker, Options, Diag), 3);
  ASSERT_EQ(Linker.Links.size(), 1u);
  EXPECT_THAT(Linker.Links[0], Contains("--trace"));
  EXPECT_THAT(Diag, HasSubstr("undefined symbol: f"));
}

TEST(ProfileGuidedLinkRun, NothingToOrderLinksWithoutKiln) {
  test::TempFile Profile("p", "profdata", "");
  FakeLinker Linker;
  KilnLinkOptions Options;
  Options.Scenarios = {("steady=" + Profile.path()).str()};
  std::string Diag;
  // The preliminary link traces no input Kiln can read: the plain link.
  EXPECT_EQ(run(Linker, Options, Diag), 0);
  ASSERT_EQ(Linker.Links.size(), 2u);
  EXPECT_EQ(Linker.Links[1], UserLink);
  EXPECT_THAT(Diag, HasSubstr("the link has no native function Kiln could "
                              "order; linking without Kiln's order"));
}

TEST(ProfileGuidedLinkRun, BadAlgorithmNamesTheValidOnes) {
  test::TempFile Profile("p", "profdata", "");
  FakeLinker Linker;
  KilnLinkOptions Options;
  Options.Scenarios = {("steady=" + Profile.path()).str()};
  Options.Algorithm = "fastest";
  std::string Diag;
  EXPECT_EQ(run(Linker, Options, Diag), 0);
  EXPECT_THAT(Linker.Links, ElementsAre(UserLink));
  EXPECT_THAT(Diag, HasSubstr("unknown layout algorithm 'fastest' (one of "
                              "kiln, c3, cdsort, pettis-hansen, density, "
                              "bp)"));
}

} // namespace

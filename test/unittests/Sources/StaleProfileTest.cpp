//===- StaleProfileTest.cpp - The rule for stale profiles -----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// findStaleFunctions and describeStaleProfile on hand-made profiles and
/// compiled functions (the bitcode side is tested end to end by
/// test/kiln-lld/profile-link-stale.test).
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/StaleProfile.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln;
using testing::ElementsAre;

static LayoutProfile makeProfile(
    std::initializer_list<std::pair<const char *, uint64_t>> Functions) {
  LayoutProfile P;
  for (const auto &[Name, Weight] : Functions)
    P.Functions.push_back(ProfiledFunction{Name, Weight});
  return P;
}

static ProfileUseFunction compiled(std::vector<std::string> Names,
                                   bool HasEntryCount, bool Mismatch = false) {
  ProfileUseFunction F;
  F.PGONames = std::move(Names);
  F.HasEntryCount = HasEntryCount;
  F.HashMismatch = Mismatch;
  return F;
}

TEST(StaleProfile, Rule) {
  LayoutProfile P = makeProfile(
      {{"main", 100}, {"work", 600}, {"a.c;helper", 300}, {"idle", 0}});
  {
    // Every function with counts was compiled with them: nothing stale.
    StaleProfileFinding F = findStaleFunctions(
        P, {compiled({"main"}, true), compiled({"work"}, true),
            compiled({"a.c;helper", "a.c:helper"}, true)});
    EXPECT_EQ(F.CompiledFunctions, 3u);
    EXPECT_EQ(F.StaleFunctions, 0u);
    EXPECT_EQ(F.TotalWeight, 1000u);
    EXPECT_EQ(describeStaleProfile("p.profdata", F), "");
  }
  {
    // No entry count, or LLVM's annotation (even with an entry count), is
    // stale; heaviest first. `idle` has no counts and is not compared; a
    // function the profile does not know is not counted.
    StaleProfileFinding F = findStaleFunctions(
        P, {compiled({"main"}, false), compiled({"work"}, true, true),
            compiled({"a.c;helper", "a.c:helper"}, true),
            compiled({"idle"}, false), compiled({"new"}, false)});
    EXPECT_EQ(F.CompiledFunctions, 3u);
    EXPECT_EQ(F.StaleFunctions, 2u);
    EXPECT_EQ(F.StaleWeight, 700u);
    EXPECT_THAT(F.StaleNames, ElementsAre("work", "main"));
    EXPECT_EQ(describeStaleProfile("p.profdata", F),
              "p.profdata: stale profile: 2 of the 3 functions it has counts "
              "for (70.0% of its counts) were compiled without them, their "
              "code having changed since the profile was taken (clang's hash "
              "mismatch): work, main; Kiln still orders them by name; take "
              "the profile again");
  }
  {
    // A front-end profile names a static `a.c:helper`; a function defined
    // in two modules (linkonce_odr) counts once, stale if either copy is.
    StaleProfileFinding F =
        findStaleFunctions(P, {compiled({"a.c;helper", "a.c:helper"}, true),
                               compiled({"a.c;helper", "a.c:helper"}, false)});
    EXPECT_EQ(F.CompiledFunctions, 1u);
    EXPECT_THAT(F.StaleNames, ElementsAre("a.c;helper"));
    LayoutProfile FrontEnd = makeProfile({{"a.c:helper", 5}});
    StaleProfileFinding G = findStaleFunctions(
        FrontEnd, {compiled({"a.c;helper", "a.c:helper"}, false)});
    EXPECT_THAT(G.StaleNames, ElementsAre("a.c:helper"));
  }
}

TEST(StaleProfile, SparseCompileProfile) {
  // With the build's own sparse compile profile, no entry count means the
  // compile profile's runs did not count the function: only LLVM's
  // annotation is stale.
  LayoutProfile P = makeProfile({{"main", 100}, {"dtor", 3}, {"work", 600}});
  StaleProfileFinding F =
      findStaleFunctions(P,
                         {compiled({"main"}, true), compiled({"dtor"}, false),
                          compiled({"work"}, true, true)},
                         /*SparseCompileProfile=*/true);
  EXPECT_EQ(F.CompiledFunctions, 3u);
  EXPECT_THAT(F.StaleNames, ElementsAre("work"));
}

TEST(StaleProfile, ManyNamesAreCut) {
  LayoutProfile P =
      makeProfile({{"a", 4}, {"b", 3}, {"c", 2}, {"d", 1}, {"e", 0}});
  StaleProfileFinding F =
      findStaleFunctions(P, {compiled({"a"}, false), compiled({"b"}, false),
                             compiled({"c"}, false), compiled({"d"}, false)});
  EXPECT_EQ(describeStaleProfile("p", F),
            "p: stale profile: 4 of the 4 functions it has counts for (100.0% "
            "of its counts) were compiled without them, their code having "
            "changed since the profile was taken (clang's hash mismatch): a, "
            "b, c, ...; Kiln still orders them by name; take the profile "
            "again");
}

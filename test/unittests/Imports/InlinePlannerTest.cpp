//===- InlinePlannerTest.cpp - Tests of the cross-module inline plan ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/InlinePlanner.h"
#include "kiln/Imports/ImportPlanOutput.h"
#include "kiln/Imports/InlinePlanFile.h"

#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace kiln::imports;
using testing::ElementsAre;
using testing::IsEmpty;

namespace {

/// A literal graph of call sites: modules by name, functions defined in one
/// module each.
struct SiteGraph {
  ImportGraph G;

  ModuleId module(const std::string &Name) {
    G.Modules.push_back(Name);
    return G.Modules.size() - 1;
  }
  FunctionId function(const std::string &Name, ModuleId In, uint32_t Size,
                      const char *NotImportable = "", uint64_t Entry = 0) {
    ImportFunction F;
    F.Name = Name;
    F.DefinedIn.push_back(In);
    F.InstCount = Size;
    F.EntryCount = Entry;
    F.NotImportable = NotImportable;
    F.CanBeRoot = true;
    G.Functions.push_back(F);
    return G.Functions.size() - 1;
  }
  void site(FunctionId Caller, FunctionId Callee, uint32_t Ordinal,
            uint32_t NumSites, uint64_t Count) {
    G.CallSites.push_back({G.Functions[Caller].DefinedIn.front(), Caller,
                           Callee, Ordinal, NumSites, Count});
  }
};

// "caller->callee#ordinal" per planned site, in the order chosen, with
// "@module:count" when the site is inlined in another module.
std::vector<std::string> sites(const ImportGraph &G, const InlinePlan &P) {
  std::vector<std::string> Out;
  for (const PlannedSite &PS : P.Sites) {
    const ImportCallSite &S = G.CallSites[PS.Site];
    std::string Text = G.Functions[S.Caller].Name + "->" +
                       G.Functions[S.Callee].Name + "#" +
                       std::to_string(S.Ordinal);
    if (PS.Into != S.Module)
      Text += "@" + G.Modules[PS.Into] + ":" + std::to_string(PS.Count);
    Out.push_back(Text);
  }
  return Out;
}

std::vector<std::string> imports(const ImportGraph &G, const InlinePlan &P) {
  std::vector<std::string> Out;
  for (const PlannedImport &I : P.Imports.Imports)
    Out.push_back(G.Modules[I.Into] + "<-" + G.Functions[I.Function].Name +
                  ":" + std::to_string(I.Weight));
  return Out;
}

TEST(InlinePlanner, DensestSitesFirstWithinTheGrowthBudget) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Small = B.function("small", L, 10);
  FunctionId Big = B.function("big", L, 100);
  // Growth is the callee's size less the call's 4 instructions. small:
  // 1000 per 6 instructions at each of two sites; big: 5000 per 96. A
  // budget of 100 takes both small sites (166/instruction), then big
  // (52/instruction) does not fit in the 88 left.
  B.site(Main, Small, 0, 2, 1000);
  B.site(Main, Small, 1, 2, 1000);
  B.site(Main, Big, 0, 1, 5000);
  InlinePlan P = planInlining(B.G, {100, 600});
  EXPECT_THAT(sites(B.G, P), ElementsAre("main->small#0", "main->small#1"));
  EXPECT_EQ(P.Growth, 12u);
  // One import of small serves both sites; its cost is counted once.
  EXPECT_THAT(imports(B.G, P), ElementsAre("a.o<-small:2000"));
  EXPECT_EQ(P.Imports.Cost, 10u);
  ASSERT_EQ(P.Imports.LeftOut.size(), 1u);
  EXPECT_EQ(B.G.Functions[P.Imports.LeftOut[0].Function].Name, "big");
  EXPECT_EQ(P.Imports.LeftOut[0].Reason, LeftOutReason::Budget);

  // With room for everything, big follows.
  P = planInlining(B.G, {200, 600});
  EXPECT_THAT(sites(B.G, P),
              ElementsAre("main->small#0", "main->small#1", "main->big#0"));
  EXPECT_EQ(P.Growth, 108u);
}

TEST(InlinePlanner, NeverRunSitesAreNeitherInlinedNorImported) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Hot = B.function("hot", L, 20);
  FunctionId Cold = B.function("cold", L, 5);
  B.site(Main, Hot, 0, 1, 800);
  // The densest site of all if it had run once; it never did.
  B.site(Main, Cold, 0, 1, 0);
  InlinePlan P = planInlining(B.G, {1000, 600});
  EXPECT_THAT(sites(B.G, P), ElementsAre("main->hot#0"));
  EXPECT_THAT(imports(B.G, P), ElementsAre("a.o<-hot:800"));
  EXPECT_EQ(P.NumNeverRun, 1u);
  EXPECT_EQ(P.NumCandidates, 1u);
  EXPECT_THAT(P.Imports.LeftOut, IsEmpty());
}

TEST(InlinePlanner, SameModuleCallsAndIneligibleCalleesAreNotPlanned) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Local = B.function("local", A, 5);
  FunctionId Huge = B.function("huge", L, 700);
  FunctionId Pinned = B.function("pinned", L, 5, "noinline");
  B.site(Main, Local, 0, 1, 900); // The backend has it anyway.
  B.site(Main, Huge, 0, 1, 900);  // Above MaxCalleeSize.
  B.site(Main, Pinned, 0, 1, 900);
  InlinePlan P = planInlining(B.G, {100000, 600});
  EXPECT_THAT(P.Sites, IsEmpty());
  EXPECT_EQ(P.NumCandidates, 2u);
  EXPECT_EQ(P.NumIneligible, 2u);
  std::vector<std::string> Reasons;
  for (const LeftOutImport &L : P.Imports.LeftOut)
    Reasons.push_back(B.G.Functions[L.Function].Name + ":" +
                      getLeftOutReasonName(L.Reason));
  EXPECT_THAT(Reasons, ElementsAre("huge:too large", "pinned:not importable"));
}

TEST(InlinePlanner, CalleesNoLargerThanACallCostNoBudget) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Get = B.function("get", L, 4);
  FunctionId Work = B.function("work", L, 20);
  B.site(Main, Work, 0, 1, 100000);
  B.site(Main, Get, 0, 1, 3);
  // get adds nothing where it is inlined: it comes first, whatever its
  // count, and fits a budget that work (16) does not.
  InlinePlan P = planInlining(B.G, {10, 600});
  EXPECT_THAT(sites(B.G, P), ElementsAre("main->get#0"));
  EXPECT_EQ(P.Growth, 0u);
}

TEST(InlinePlanner, InlinedCalleesSitesRunOnTheModulesBehalf) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o"), U = B.module("util.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Other = B.function("other", U, 50);
  FunctionId Work = B.function("work", L, 20, "", /*Entry=*/1000);
  FunctionId Helper = B.function("helper", U, 10);
  FunctionId Local = B.function("local", A, 10);
  // main makes 600 of work's 1000 entries; work calls helper 2000 times
  // and local (main's module's own function) 2000 times.
  B.site(Main, Work, 0, 1, 600);
  B.site(Other, Work, 0, 1, 400);
  B.site(Work, Helper, 0, 1, 2000);
  B.site(Work, Local, 0, 1, 2000);
  InlinePlan P = planInlining(B.G, {1000, 600});
  // lib.o's own sites first (densest), then main's call to work; once it
  // is inlined, work's call to helper runs 600/1000 of 2000 times in a.o
  // (offered only then), and its call to local needs no import there
  // (a.o has local: LLVM decides). Likewise in util.o for local.
  EXPECT_THAT(sites(B.G, P),
              ElementsAre("work->helper#0", "work->local#0", "main->work#0",
                          "work->helper#0@a.o:1200", "other->work#0",
                          "work->local#0@util.o:800"));
  EXPECT_THAT(imports(B.G, P),
              ElementsAre("lib.o<-helper:2000", "lib.o<-local:2000",
                          "a.o<-work:600", "a.o<-helper:1200",
                          "util.o<-work:400", "util.o<-local:800"));
}

TEST(InlinePlanner, TiesAreBrokenByName) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Zeta = B.function("zeta", L, 10);
  FunctionId Alpha = B.function("alpha", L, 10);
  B.site(Main, Zeta, 0, 1, 100);
  B.site(Main, Alpha, 0, 1, 100);
  InlinePlan P = planInlining(B.G, {6, 600});
  EXPECT_THAT(sites(B.G, P), ElementsAre("main->alpha#0"));
}

TEST(InlinePlanFile, RoundTripsThroughJSON) {
  SiteGraph B;
  ModuleId A = B.module("a.o"), L = B.module("lib.o");
  FunctionId Main = B.function("main", A, 50);
  FunctionId Work = B.function("work", L, 30);
  B.site(Main, Work, 1, 2, 4000);
  InlinePlan P = planInlining(B.G, {100, 600});
  InlinePlanFile File = makeInlinePlanFile(B.G, P, {"a.c", "lib.c"}, 100);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeInlinePlanFile(File, OS);

  llvm::Expected<InlinePlanFile> Read = parseInlinePlanFile(Text);
  ASSERT_THAT_EXPECTED(Read, llvm::Succeeded());
  EXPECT_EQ(Read->Budget, 100u);
  EXPECT_EQ(Read->Growth, 26u);
  ASSERT_EQ(Read->Modules.size(), 2u);
  EXPECT_EQ(Read->Modules[0].Source, "a.c");
  EXPECT_EQ(Read->Modules[0].Module, "a.o");
  ASSERT_EQ(Read->Modules[0].Sites.size(), 1u);
  const InlinePlanSite &S = Read->Modules[0].Sites[0];
  EXPECT_EQ(S.Caller, "main");
  EXPECT_EQ(S.Callee, "work");
  EXPECT_EQ(S.Ordinal, 1u);
  EXPECT_EQ(S.NumSites, 2u);
  EXPECT_EQ(S.Count, 4000u);
  EXPECT_EQ(S.Growth, 26u);
  // Every module is listed, planned sites or not.
  EXPECT_EQ(Read->Modules[1].Source, "lib.c");
  EXPECT_THAT(Read->Modules[1].Sites, IsEmpty());
}

TEST(InlinePlanFile, RefusesWhatIsNotAPlan) {
  EXPECT_THAT_EXPECTED(
      parseInlinePlanFile("{"),
      llvm::FailedWithMessage(testing::StartsWith("not JSON")));
  EXPECT_THAT_EXPECTED(
      parseInlinePlanFile("{\"root\": [\"f\"]}"),
      llvm::FailedWithMessage(testing::StartsWith("not a Kiln inline plan")));
  EXPECT_THAT_EXPECTED(
      parseInlinePlanFile(
          "{\"kiln-inline-plan\": 1, \"budget\": 1, \"growth\": 1, "
          "\"modules\": [{\"source\": \"a.c\", \"module\": \"a.o\", "
          "\"sites\": [{\"caller\": \"main\", \"callee\": \"f\", \"site\": 2, "
          "\"sites\": 2, \"count\": 1, \"growth\": 1}]}]}"),
      llvm::FailedWithMessage("module 1, site 1: site 2 of 2 call(s)"));
  EXPECT_THAT_EXPECTED(
      parseInlinePlanFile("{\"kiln-inline-plan\": 1, \"budget\": -1, "
                          "\"growth\": 1, \"modules\": []}"),
      llvm::FailedWithMessage("the plan: 'budget' is not a count"));
}

} // namespace

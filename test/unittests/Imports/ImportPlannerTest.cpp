//===- ImportPlannerTest.cpp - Tests of the ThinLTO import planner --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/ImportPlanner.h"
#include "kiln/Imports/ImportPlanOutput.h"

#include "llvm/Support/raw_ostream.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace kiln::imports;
using testing::ElementsAre;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

/// A literal graph: modules by name, functions defined in one module.
struct GraphBuilder {
  ImportGraph G;

  ModuleId module(const std::string &Name) {
    G.Modules.push_back(Name);
    return G.Modules.size() - 1;
  }
  FunctionId function(const std::string &Name, ModuleId In, uint32_t Size,
                      uint64_t Entry = 0) {
    ImportFunction F;
    F.Name = Name;
    if (In != NoModule)
      F.DefinedIn.push_back(In);
    F.InstCount = Size;
    F.EntryCount = Entry;
    F.CanBeRoot = In != NoModule;
    G.Functions.push_back(F);
    return G.Functions.size() - 1;
  }
  void call(FunctionId Caller, FunctionId Callee, uint64_t Count) {
    G.Calls.push_back(
        {G.Functions[Caller].DefinedIn.front(), Caller, Callee, Count});
  }
};

// "module<-function" per import, in the order chosen.
std::vector<std::string> imports(const ImportGraph &G, const ImportPlan &P) {
  std::vector<std::string> Out;
  for (const PlannedImport &I : P.Imports)
    Out.push_back(G.Modules[I.Into] + "<-" + G.Functions[I.Function].Name);
  return Out;
}

// "module<-function:reason" per left-out candidate.
std::vector<std::string> leftOut(const ImportGraph &G, const ImportPlan &P) {
  std::vector<std::string> Out;
  for (const LeftOutImport &L : P.LeftOut)
    Out.push_back(G.Modules[L.Into] + "<-" + G.Functions[L.Function].Name +
                  ":" + getLeftOutReasonName(L.Reason));
  return Out;
}

ImportPlanConfig
budget(uint64_t Total,
       uint64_t PerModule = std::numeric_limits<uint64_t>::max()) {
  ImportPlanConfig C;
  C.Budget = Total;
  C.ModuleBudget = PerModule;
  return C;
}

TEST(ImportPlanner, EmptyGraph) {
  ImportGraph G;
  ImportPlan P = planImports(G, ImportPlanConfig());
  EXPECT_THAT(P.Imports, IsEmpty());
  EXPECT_THAT(P.LeftOut, IsEmpty());
  EXPECT_EQ(P.Cost, 0u);
}

TEST(ImportPlanner, DensestFirstUntilTheBudgetIsSpent) {
  // main (in a) calls three functions of b. Weight per instruction: f 100,
  // g 50, h 2. A budget of 110 takes f (10) and g (100); h (5) no longer
  // fits.
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b");
  FunctionId Main = B.function("main", A, 20, 1);
  FunctionId F = B.function("f", Bm, 10);
  FunctionId G = B.function("g", Bm, 100);
  FunctionId H = B.function("h", Bm, 5);
  B.call(Main, F, 1000);
  B.call(Main, G, 5000);
  B.call(Main, H, 10);
  ImportPlan P = planImports(B.G, budget(110));
  EXPECT_THAT(imports(B.G, P), ElementsAre("a<-f", "a<-g"));
  EXPECT_THAT(leftOut(B.G, P), ElementsAre("a<-h:budget"));
  EXPECT_EQ(P.Cost, 110u);
  EXPECT_EQ(P.CrossModuleWeight, 6010u);
  EXPECT_EQ(P.PlannedDirectWeight, 6000u);

  // Unlimited: all three, densest first.
  P = planImports(B.G, ImportPlanConfig());
  EXPECT_THAT(imports(B.G, P), ElementsAre("a<-f", "a<-g", "a<-h"));
  EXPECT_THAT(P.LeftOut, IsEmpty());
}

TEST(ImportPlanner, BudgetZeroPlansNothing) {
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b");
  FunctionId Main = B.function("main", A, 20, 1);
  FunctionId F = B.function("f", Bm, 10);
  B.call(Main, F, 1000);
  ImportPlan P = planImports(B.G, budget(0));
  EXPECT_THAT(P.Imports, IsEmpty());
  EXPECT_THAT(leftOut(B.G, P), ElementsAre("a<-f:budget"));
  ImportPlan Q = planImports(B.G, budget(100, 0));
  EXPECT_THAT(Q.Imports, IsEmpty());
  EXPECT_THAT(leftOut(B.G, Q), ElementsAre("a<-f:module budget"));
}

TEST(ImportPlanner, ModuleBudgetIsPerImportingModule) {
  // a and c both call f and g of b. Each module may import 10
  // instructions: each takes its denser candidate.
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b"), C = B.module("c");
  FunctionId MainA = B.function("main", A, 20, 1);
  FunctionId UserC = B.function("user", C, 20, 1);
  FunctionId F = B.function("f", Bm, 10);
  FunctionId G = B.function("g", Bm, 10);
  B.call(MainA, F, 100);
  B.call(MainA, G, 50);
  B.call(UserC, F, 30);
  B.call(UserC, G, 40);
  ImportPlan P = planImports(B.G, budget(1000, 10));
  EXPECT_THAT(imports(B.G, P), ElementsAre("a<-f", "c<-g"));
  EXPECT_THAT(leftOut(B.G, P),
              ElementsAre("a<-g:module budget", "c<-f:module budget"));
  EXPECT_THAT(P.ModuleCost, ElementsAre(10u, 0u, 10u));
}

TEST(ImportPlanner, WhatCannotOrNeedNotBeImported) {
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b");
  FunctionId Main = B.function("main", A, 20, 1);
  FunctionId Local = B.function("local", A, 5);      // main's own module
  FunctionId Libc = B.function("puts", NoModule, 0); // no definition
  FunctionId Never = B.function("never", Bm, 5);     // never called
  FunctionId NoInline = B.function("noinl", Bm, 5);
  B.G.Functions[NoInline].NotImportable = "noinline";
  FunctionId Big = B.function("big", Bm, 601);
  FunctionId Ok = B.function("ok", Bm, 5);
  B.call(Main, Local, 100);
  B.call(Main, Libc, 100);
  B.call(Main, Never, 0);
  B.call(Main, NoInline, 300);
  B.call(Main, Big, 200);
  B.call(Main, Ok, 100);
  ImportPlan P = planImports(B.G, ImportPlanConfig());
  EXPECT_THAT(imports(B.G, P), ElementsAre("a<-ok"));
  EXPECT_THAT(leftOut(B.G, P),
              ElementsAre("a<-noinl:not importable", "a<-big:too large"));
  // Only calls into other modules' definitions are cross-module weight.
  EXPECT_EQ(P.CrossModuleWeight, 600u);
}

TEST(ImportPlanner, TransitiveImportsFollowTheImportedCalls) {
  // main (a) calls f (b) 100 times, f calls g (c) 200 times per 100
  // entries. b imports g for its own calls (density 20); once a imports f
  // (density 10), f's calls to g run on a's behalf: a's share is all 200.
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b"), C = B.module("c");
  FunctionId Main = B.function("main", A, 20, 1);
  FunctionId F = B.function("f", Bm, 10, 100);
  FunctionId G = B.function("g", C, 10, 200);
  B.call(Main, F, 100);
  B.call(F, G, 200);
  ImportPlan P = planImports(B.G, ImportPlanConfig());
  EXPECT_THAT(imports(B.G, P), ElementsAre("b<-g", "a<-f", "a<-g"));
  ASSERT_EQ(P.Imports.size(), 3u);
  EXPECT_EQ(P.Imports[2].Weight, 200u);
  EXPECT_EQ(P.Imports[2].DirectWeight, 0u);
  EXPECT_EQ(P.Imports[2].Via, F);

  // With room for two imports, the transitive one is left out.
  P = planImports(B.G, budget(20));
  EXPECT_THAT(imports(B.G, P), ElementsAre("b<-g", "a<-f"));
  EXPECT_THAT(leftOut(B.G, P), ElementsAre("a<-g:budget"));

  // Half of f's entries come from elsewhere: a's share of f's calls to g
  // is half.
  FunctionId Other = B.function("other", Bm, 10, 1);
  B.call(Other, F, 100);
  P = planImports(B.G, ImportPlanConfig());
  ASSERT_EQ(P.Imports.size(), 3u);
  EXPECT_EQ(B.G.Modules[P.Imports[2].Into], "a");
  EXPECT_EQ(P.Imports[2].Weight, 100u);
}

TEST(ImportPlanner, TiesBreakByFunctionThenModuleName) {
  // Equal density and weight everywhere: by function name, then module.
  GraphBuilder B;
  ModuleId Z = B.module("z"), A = B.module("a"), Bm = B.module("b");
  FunctionId InZ = B.function("zmain", Z, 20, 1);
  FunctionId InA = B.function("amain", A, 20, 1);
  FunctionId Beta = B.function("beta", Bm, 10);
  FunctionId Alpha = B.function("alpha", Bm, 10);
  B.call(InZ, Beta, 50);
  B.call(InZ, Alpha, 50);
  B.call(InA, Beta, 50);
  B.call(InA, Alpha, 50);
  ImportPlan P = planImports(B.G, ImportPlanConfig());
  EXPECT_THAT(imports(B.G, P),
              ElementsAre("a<-alpha", "z<-alpha", "a<-beta", "z<-beta"));
  // Room for three: z<-beta is left out.
  P = planImports(B.G, budget(30));
  EXPECT_THAT(leftOut(B.G, P), ElementsAre("z<-beta:budget"));
}

TEST(ImportPlanner, WorkloadDefinitionNamesEveryModuleWithARoot) {
  // Each module is named by its most entered function that can be a root;
  // a module with no such function keeps the default importer (no entry).
  GraphBuilder B;
  ModuleId A = B.module("a"), Bm = B.module("b");
  B.module("c");
  FunctionId Main = B.function("main", A, 20, 1);
  FunctionId Init = B.function("init", A, 20, 5);
  B.G.Functions[Init].CanBeRoot = false; // e.g. its name is ambiguous
  FunctionId F = B.function("f", Bm, 10, 7);
  FunctionId G = B.function("g", Bm, 10, 3);
  B.call(Main, F, 100);
  B.call(Init, G, 0);
  ImportPlan P = planImports(B.G, ImportPlanConfig());
  WorkloadPlan W = makeWorkloadPlan(B.G, P);
  EXPECT_THAT(W.Roots, ElementsAre(Main, F, NoFunction));
  std::string JSON;
  llvm::raw_string_ostream OS(JSON);
  writeWorkloadDefinition(B.G, W, OS);
  EXPECT_EQ(JSON, "{\n  \"f\": [],\n  \"main\": [\n    \"f\"\n  ]\n}\n");
}

TEST(ImportPlanner, ImportListStemsStayInTheDirectory) {
  EXPECT_EQ(getImportListStem("out", "obj/a.o"), "out/obj/a.o");
  EXPECT_EQ(getImportListStem("out", "/abs/b.o"), "out/abs/b.o");
  EXPECT_EQ(getImportListStem("out", "../x/./c.o"), "out/__/x/_/c.o");
  EXPECT_EQ(getImportListStem("out", "lib.a(m.o)"), "out/lib.a(m.o)");
}

} // namespace

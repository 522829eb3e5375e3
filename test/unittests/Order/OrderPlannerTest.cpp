//===- OrderPlannerTest.cpp - Tests of planning and writing an order ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderPlanner.h"
#include "kiln/Order/OrderEmitter.h"

#include "TempFile.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Testing/Support/Error.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

namespace {

InputFunction makeFunction(LinkerInputs &Inputs, StringRef Name,
                           StringRef Object, bool IsLocal, uint64_t Size) {
  InputFunction F;
  F.Name = Inputs.save(Name);
  F.Object = Inputs.save(Object);
  F.Section = Inputs.save((".text." + Name).str());
  F.Size = Size;
  F.IsLocal = IsLocal;
  F.HasOwnSection = true;
  return F;
}

// An ELF link of two objects: main -> parse (hot) -> helper (a static of
// b.o), main -> cold (never called), and a same-named static in a.o.
LinkerInputs makeInputs() {
  LinkerInputs Inputs;
  Inputs.Format = ObjectFormat::ELF;
  Inputs.Functions = {
      makeFunction(Inputs, "main", "a.o", false, 64),
      makeFunction(Inputs, "cold", "a.o", false, 64),
      makeFunction(Inputs, "helper", "a.o", true, 16),
      makeFunction(Inputs, "parse", "b.o", false, 128),
      makeFunction(Inputs, "helper", "b.o", true, 32),
  };
  auto Call = [](int64_t Caller, int64_t Callee, const char *CallerName,
                 const char *CalleeName, uint64_t Count) {
    return InputCallEdge{Caller, Callee, CallerName, CalleeName, Count};
  };
  Inputs.Edges = {Call(0, 3, "main", "parse", 1000),
                  Call(3, 4, "parse", "helper", 900),
                  Call(0, -1, "main", "puts", 5)};
  Inputs.NumInputsWithCallGraph = 2;
  return Inputs;
}

TEST(OrderPlanner, ObjectCallGraphBuildsTheGraph) {
  LinkerInputs Inputs = makeInputs();
  Expected<ProfiledGraph> G = buildProfiledGraph(Inputs, {}, GraphOptions());
  ASSERT_THAT_EXPECTED(G, Succeeded());
  // One node per function (statics keyed by object), then the external
  // callee; calls count as their callees' executions.
  ASSERT_EQ(G->Graph.getNumNodes(), 6u);
  EXPECT_EQ(G->Graph.getNode(2).Name, "a.o:helper");
  EXPECT_EQ(G->Graph.getNode(4).Name, "b.o:helper");
  EXPECT_EQ(G->Graph.getNode(5).Name, "puts");
  EXPECT_THAT(G->FunctionOfNode, ElementsAre(0, 1, 2, 3, 4, -1));
  EXPECT_EQ(G->Graph.getCount(0, 3), 1000u);
  EXPECT_EQ(G->Graph.getCount(0, 4), 900u);
  EXPECT_EQ(G->Graph.getCount(0, 0), 0u);
}

TEST(OrderPlanner, PlansOnlyInputFunctions) {
  LinkerInputs Inputs = makeInputs();
  PlanOptions Options;
  Options.Algorithm = OrderAlgorithm::C3;
  Expected<OrderPlan> Plan = planOrder(Inputs, {}, Options);
  ASSERT_THAT_EXPECTED(Plan, Succeeded());
  // C3 chains main -> parse -> helper; puts is no input's, cold never ran.
  EXPECT_THAT(Plan->Functions, ElementsAre(0u, 3u, 4u));
  EXPECT_THAT(Plan->Groups,
              ElementsAre(layout::LayoutGroup::Hot, layout::LayoutGroup::Hot,
                          layout::LayoutGroup::Hot));
}

TEST(OrderPlanner, NothingExecutedIsAnError) {
  LinkerInputs Inputs = makeInputs();
  PlanOptions Options;
  Options.UseObjectCallGraph = false;
  EXPECT_THAT_EXPECTED(planOrder(Inputs, {}, Options),
                       FailedWithMessage(HasSubstr("nothing to order")));
}

TEST(OrderPlanner, ScenarioSpecs) {
  Expected<ScenarioSpec> Spec = parseScenarioSpec("startup=a:b.profdata:2.5");
  ASSERT_THAT_EXPECTED(Spec, Succeeded());
  EXPECT_EQ(Spec->Kind, layout::ScenarioKind::Startup);
  EXPECT_EQ(Spec->Path, "a:b.profdata");
  EXPECT_EQ(Spec->Weight, 2.5);
  EXPECT_THAT_EXPECTED(parseScenarioSpec("steady=p:0"),
                       FailedWithMessage(HasSubstr("must be positive")));
  EXPECT_THAT_EXPECTED(parseScenarioSpec("steady=p:1e400"),
                       FailedWithMessage(HasSubstr("out of range")));
  EXPECT_THAT_EXPECTED(parseOrderAlgorithm("fastest"),
                       FailedWithMessage(HasSubstr(
                           "(one of kiln, c3, cdsort, pettis-hansen, density, "
                           "bp)")));
}

std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  EXPECT_TRUE(bool(Buffer)) << Path.str();
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

TEST(OrderEmitter, WritesHeaderAndFormatNames) {
  LinkerInputs Inputs = makeInputs();
  PlanOptions Options;
  Options.Algorithm = OrderAlgorithm::C3;
  Expected<OrderPlan> Plan = planOrder(Inputs, {}, Options);
  ASSERT_THAT_EXPECTED(Plan, Succeeded());
  test::TempFile Out("order", "txt", "");
  OrderEmission What;
  What.Tool = "kiln order";
  What.Provenance = {"command: test"};
  What.OutputPath = Out.path().str();
  What.Algorithm = Options.Algorithm;

  // ELF names a static by its name: both helpers move (reported as shared).
  Expected<OrderFileReport> Written = writePlannedOrder(What, *Plan, Inputs);
  ASSERT_THAT_EXPECTED(Written, Succeeded());
  std::string Text = readFile(Out.path());
  EXPECT_THAT(Text, StartsWith("# Generated by kiln order "));
  EXPECT_THAT(Text, HasSubstr("\n# command: test\n# format: elf; algorithm: "
                              "c3; page size: 4096\nmain\nparse\nhelper\n"));
  EXPECT_EQ(Written->Written, 3u);
  ASSERT_EQ(Written->Shared.size(), 1u);
  EXPECT_EQ(Written->Shared[0].Function, 4u);

  // Mach-O qualifies statics by object and prefixes nothing it did not
  // read; the edge list names lld's callers and callees.
  What.Format = OrderFileFormat::MachO;
  ASSERT_THAT_EXPECTED(writePlannedOrder(What, *Plan, Inputs), Succeeded());
  EXPECT_THAT(readFile(Out.path()),
              HasSubstr("format: macho; algorithm: c3; page size: 4096\n"
                        "main\nparse\nb.o:helper\n"));
  What.WriteEdgeList = true;
  ASSERT_THAT_EXPECTED(writePlannedOrder(What, *Plan, Inputs), Succeeded());
  EXPECT_THAT(readFile(Out.path()),
              HasSubstr("format: edges; algorithm: c3; page size: 4096\n"));

  // The summary names the tool and the file.
  std::string Summary;
  raw_string_ostream Diag(Summary);
  What.WriteEdgeList = false;
  What.Format = OrderFileFormat::ELF;
  ASSERT_THAT_ERROR(reportPlannedOrder(What, *Plan, Inputs, *Written, Diag),
                    Succeeded());
  EXPECT_THAT(Summary, StartsWith("kiln order: wrote 3 entries"));
}

TEST(OrderEmitter, UnwritableOutputIsAnError) {
  LinkerInputs Inputs = makeInputs();
  Expected<OrderPlan> Plan = planOrder(Inputs, {}, PlanOptions());
  ASSERT_THAT_EXPECTED(Plan, Succeeded());
  OrderEmission What;
  What.Tool = "kiln order";
  What.OutputPath = "/nonexistent-dir/order.txt";
  EXPECT_THAT_EXPECTED(
      writePlannedOrder(What, *Plan, Inputs),
      FailedWithMessage(StartsWith("/nonexistent-dir/order.txt: ")));
}

} // namespace

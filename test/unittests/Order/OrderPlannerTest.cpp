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
  // A weight is no profile (found by the option fuzzer).
  EXPECT_THAT_EXPECTED(parseScenarioSpec("steady=:2"),
                       FailedWithMessage(HasSubstr("no profile")));
  // Without a weight, a trailing colon belongs to the path.
  Spec = parseScenarioSpec("steady=:");
  ASSERT_THAT_EXPECTED(Spec, Succeeded());
  EXPECT_EQ(Spec->Path, ":");
  EXPECT_THAT_EXPECTED(parseOrderAlgorithm("fastest"),
                       FailedWithMessage(HasSubstr(
                           "(one of kiln, c3, cdsort, pettis-hansen, density, "
                           "bp)")));
}

TEST(OrderPlanner, PageSizes) {
  EXPECT_THAT_EXPECTED(parsePageSize("4K"), HasValue(4096u));
  EXPECT_THAT_EXPECTED(parsePageSize("2m"), HasValue(2u << 20));
  EXPECT_THAT_EXPECTED(parsePageSize("65536"), HasValue(65536u));
  EXPECT_THAT_EXPECTED(parsePageSize("9223372036854775808"),
                       HasValue(uint64_t(1) << 63));
  EXPECT_THAT_EXPECTED(parsePageSize("3K"),
                       FailedWithMessage(HasSubstr("not a power of two")));
  // Products of 2^64 or more are refused, not wrapped: 3 * 2^53 K wraps to
  // 2^63 and 2^54 K to 0.
  EXPECT_THAT_EXPECTED(parsePageSize("27021597764222976K"),
                       FailedWithMessage(HasSubstr("too large")));
  EXPECT_THAT_EXPECTED(parsePageSize("18014398509481984K"),
                       FailedWithMessage(HasSubstr("too large")));
  EXPECT_THAT_EXPECTED(parsePageSize("26388279066624M"),
                       FailedWithMessage(HasSubstr("too large")));
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

  // Writes the file, then puts it in place and prints the summary.
  auto Emit = [&](std::string &Summary) -> Expected<OrderFileReport> {
    Expected<PendingOrder> Written = writePlannedOrder(What, *Plan, Inputs);
    if (!Written)
      return Written.takeError();
    raw_string_ostream Diag(Summary);
    if (Error E = finishPlannedOrder(What, *Plan, Inputs, *Written, Diag))
      return std::move(E);
    return std::move(Written->Report);
  };

  // ELF names a static by its name: both helpers move (reported as shared).
  std::string Summary;
  Expected<OrderFileReport> Written = Emit(Summary);
  ASSERT_THAT_EXPECTED(Written, Succeeded());
  std::string Text = readFile(Out.path());
  EXPECT_THAT(Text, StartsWith("# Generated by kiln order "));
  EXPECT_THAT(Text, HasSubstr("\n# command: test\n# format: elf; algorithm: "
                              "c3; page size: 4096\nmain\nparse\nhelper\n"));
  EXPECT_EQ(Written->Written, 3u);
  ASSERT_EQ(Written->Shared.size(), 1u);
  EXPECT_EQ(Written->Shared[0].Function, 4u);
  // The summary names the tool and the file.
  EXPECT_THAT(Summary, StartsWith("kiln order: wrote 3 entries"));

  // Mach-O qualifies statics by object; the edge list names lld's callers
  // and callees.
  What.Format = OrderFileFormat::MachO;
  What.PrintSummary = false;
  ASSERT_THAT_EXPECTED(Emit(Summary), Succeeded());
  EXPECT_THAT(readFile(Out.path()),
              HasSubstr("format: macho; algorithm: c3; page size: 4096\n"
                        "main\nparse\nb.o:helper\n"));
  What.WriteEdgeList = true;
  ASSERT_THAT_EXPECTED(Emit(Summary), Succeeded());
  EXPECT_THAT(readFile(Out.path()),
              HasSubstr("format: edges; algorithm: c3; page size: 4096\n"));
}

TEST(OrderEmitter, AFailedReportLeavesThePreviousOrder) {
  LinkerInputs Inputs = makeInputs();
  Expected<OrderPlan> Plan = planOrder(Inputs, {}, PlanOptions());
  ASSERT_THAT_EXPECTED(Plan, Succeeded());
  test::TempFile Out("order", "txt", "previous\n");
  OrderEmission What;
  What.Tool = "kiln order";
  What.OutputPath = Out.path().str();
  What.ReportPath = "/nonexistent-dir/report.json";
  Expected<PendingOrder> Written = writePlannedOrder(What, *Plan, Inputs);
  ASSERT_THAT_EXPECTED(Written, Succeeded());
  std::string Summary;
  raw_string_ostream Diag(Summary);
  EXPECT_THAT_ERROR(
      finishPlannedOrder(What, *Plan, Inputs, *Written, Diag),
      FailedWithMessage(StartsWith("/nonexistent-dir/report.json: ")));
  EXPECT_EQ(readFile(Out.path()), "previous\n");
  EXPECT_EQ(Summary, "");
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

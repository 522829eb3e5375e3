//===- OrderReport.cpp - What an order covers, for users ------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderReport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

/// Unbound names listed in the summary per profile; the JSON report has all.
static constexpr size_t MaxListedProblems = 10;

static double percent(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 100.0;
}

void kiln::printOrderSummary(const OrderReportContext &Context,
                             const OrderPlan &Plan, const LinkerInputs &Inputs,
                             const OrderFileReport &Report, raw_ostream &Diag) {
  Diag << Context.Tool << ": wrote " << Report.Written << " entries ("
       << Report.BytesWritten << " bytes of code) to " << Context.OutputName
       << '\n';
  if (Context.Algorithm == OrderAlgorithm::Kiln && Context.ShowGroups)
    for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
      const layout::GroupSummary &S = Plan.Layout.Groups[G];
      if (!Plan.FunctionsPerGroup[G])
        continue;
      Diag << "  " << layout::getLayoutGroupName(layout::LayoutGroup(G)) << ": "
           << Plan.FunctionsPerGroup[G] << " functions, " << S.Bytes
           << " bytes, " << S.Pages << " pages, by "
           << layout::getOrderMethodName(S.Method) << '\n';
    }
  for (const ProfileCoverage &C : Plan.Coverage) {
    Diag << "  profile " << C.Path << " (" << C.Scenario << "): bound "
         << C.Bound << " of " << C.Executed << " executed functions ("
         << format("%.1f", percent(C.BoundWeight, C.ExecutedWeight))
         << "% of their counts)\n";
    if (C.Unbound.empty())
      continue;
    WithColor::warning(Diag, Context.Program)
        << C.Path << ": " << C.Unbound.size()
        << " executed function(s) could not be bound to one symbol of the "
           "inputs and are not ordered\n";
    for (size_t I = 0; I < std::min(C.Unbound.size(), MaxListedProblems); ++I)
      Diag << "    " << C.Unbound[I].first << ": " << C.Unbound[I].second
           << '\n';
    if (C.Unbound.size() > MaxListedProblems)
      Diag << "    ... and " << C.Unbound.size() - MaxListedProblems
           << " more (see --report)\n";
  }
  warnOfForeignProfiles(Plan, Context.Program, Diag);
  if (!Plan.LoadCodeAtStartup.empty()) {
    Diag << "  load-time code placed with startup (no profile counts it):";
    for (size_t I = 0;
         I < std::min(Plan.LoadCodeAtStartup.size(), MaxListedProblems); ++I)
      Diag << ' ' << Inputs.Functions[Plan.LoadCodeAtStartup[I]].Name;
    if (Plan.LoadCodeAtStartup.size() > MaxListedProblems)
      Diag << " ... and " << Plan.LoadCodeAtStartup.size() - MaxListedProblems
           << " more";
    Diag << '\n';
  }
  auto ListIssues = [&](ArrayRef<OrderFileIssue> Issues, StringRef What) {
    if (Issues.empty())
      return;
    WithColor::warning(Diag, Context.Program)
        << What << ": " << Issues.size() << '\n';
    for (size_t I = 0; I < std::min(Issues.size(), MaxListedProblems); ++I) {
      const InputFunction &F = Inputs.Functions[Issues[I].Function];
      Diag << "    " << F.Name << " [" << F.Object << "]: " << Issues[I].Reason
           << '\n';
    }
    if (Issues.size() > MaxListedProblems)
      Diag << "    ... and " << Issues.size() - MaxListedProblems
           << " more (see --report)\n";
  };
  ListIssues(Report.Skipped, "functions left out of the ordering file");
  ListIssues(Report.Shared,
             "entries whose name other functions share (they move too)");
}

void kiln::writeOrderReportJSON(const OrderReportContext &Context,
                                const OrderPlan &Plan,
                                const LinkerInputs &Inputs,
                                const OrderFileReport &Report,
                                raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/2);
  auto Issues = [&](ArrayRef<OrderFileIssue> List) {
    J.array([&] {
      for (const OrderFileIssue &I : List)
        J.object([&] {
          J.attribute("symbol", Inputs.Functions[I.Function].Name);
          J.attribute("object", Inputs.Functions[I.Function].Object);
          J.attribute("reason", I.Reason);
        });
    });
  };
  J.object([&] {
    J.attribute("format", Context.Format);
    J.attribute("algorithm", getOrderAlgorithmName(Context.Algorithm));
    J.attribute("page_size", Context.PageSize);
    J.attribute("entries_written", Report.Written);
    J.attribute("bytes_written", Report.BytesWritten);
    if (Context.Algorithm == OrderAlgorithm::Kiln)
      J.attributeArray("groups", [&] {
        for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
          const layout::GroupSummary &S = Plan.Layout.Groups[G];
          J.object([&] {
            J.attribute("group",
                        layout::getLayoutGroupName(layout::LayoutGroup(G)));
            J.attribute("functions", Plan.FunctionsPerGroup[G]);
            J.attribute("bytes", S.Bytes);
            J.attribute("pages", S.Pages);
            J.attribute("method", layout::getOrderMethodName(S.Method));
          });
        }
      });
    // Every decision with the counts that caused it: each entry of the
    // order, in order, with its group and its count in every scenario.
    J.attributeArray("scenarios", [&] {
      for (const layout::Scenario &S : Plan.Graph.getScenarios())
        J.object([&] {
          J.attribute("name", S.Name);
          J.attribute("kind", layout::getScenarioKindName(S.Kind));
          J.attribute("weight", S.Weight);
        });
    });
    std::vector<int64_t> NodeOfFunction(Inputs.Functions.size(), -1);
    for (size_t N = 0; N < Plan.FunctionOfNode.size(); ++N)
      if (Plan.FunctionOfNode[N] >= 0)
        NodeOfFunction[Plan.FunctionOfNode[N]] = int64_t(N);
    J.attributeArray("functions", [&] {
      for (size_t I = 0; I < Plan.Functions.size(); ++I)
        J.object([&] {
          const InputFunction &F = Inputs.Functions[Plan.Functions[I]];
          // No object: for LTO code it is kiln-lld's scratch file, and the
          // report must be the same from one link to the next.
          J.attribute("name", F.Name);
          if (I < Plan.Groups.size())
            J.attribute("group", layout::getLayoutGroupName(Plan.Groups[I]));
          J.attribute("size", F.Size);
          if (!F.SplitFrom.empty())
            J.attribute("split_from", F.SplitFrom);
          int64_t Node = NodeOfFunction[Plan.Functions[I]];
          J.attributeArray("counts", [&] {
            for (layout::ScenarioId S = 0; S < Plan.Graph.getNumScenarios();
                 ++S)
              J.value(Node < 0 ? 0 : Plan.Graph.getCount(S, Node));
          });
        });
    });
    J.attributeArray("profiles", [&] {
      for (const ProfileCoverage &C : Plan.Coverage)
        J.object([&] { writeCoverageJSON(J, C); });
    });
    J.attributeArray("load_code_at_startup", [&] {
      for (size_t I : Plan.LoadCodeAtStartup)
        J.object([&] {
          const InputFunction &F = Inputs.Functions[I];
          J.attribute("name", F.Name);
          J.attribute("object", F.Object);
        });
    });
    J.attributeBegin("skipped");
    Issues(Report.Skipped);
    J.attributeEnd();
    J.attributeBegin("shared_names");
    Issues(Report.Shared);
    J.attributeEnd();
  });
  OS << '\n';
}

//===- OrderCommand.cpp - The work of `kiln order` ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/OrderCommand.h"

#include "kiln/Sources/EdgeList.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Support/Version.inc"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

/// Unbound names listed on stderr per profile; the JSON report has all.
static constexpr size_t MaxListedProblems = 10;

Expected<uint64_t> kiln::parsePageSize(StringRef Text) {
  uint64_t Multiplier = 1;
  StringRef Number = Text;
  if (Number.consume_back_insensitive("k"))
    Multiplier = 1024;
  else if (Number.consume_back_insensitive("m"))
    Multiplier = 1024 * 1024;
  uint64_t Value;
  if (Number.getAsInteger(10, Value) || Value == 0 ||
      !isPowerOf2_64(Value * Multiplier))
    return createStringError(inconvertibleErrorCode(),
                             "page size '%s' is not a power of two (bytes, "
                             "or with K/M: 4K, 16K, 64K, 2M)",
                             Text.str().c_str());
  return Value * Multiplier;
}

static OrderFileFormat getDefaultFormat(ObjectFormat Format) {
  switch (Format) {
  case ObjectFormat::COFF:
    return OrderFileFormat::COFF;
  case ObjectFormat::MachO:
    return OrderFileFormat::MachO;
  case ObjectFormat::ELF:
  case ObjectFormat::Unknown:
    return OrderFileFormat::ELF;
  }
  llvm_unreachable("unknown ObjectFormat");
}

static double percent(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 100.0;
}

static void printSummary(const OrderCommandOptions &Opts, const OrderPlan &Plan,
                         const LinkerInputs &Inputs,
                         const OrderFileReport &Report, raw_ostream &Diag) {
  Diag << "kiln order: wrote " << Report.Written << " entries ("
       << Report.BytesWritten << " bytes of code) to "
       << (Opts.Output == "-" ? "<stdout>" : Opts.Output) << '\n';
  if (Opts.Plan.Algorithm == OrderingAlgorithm::Kiln && !Opts.WriteEdgeList)
    for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
      const layout::GroupSummary &S = Plan.Layout.Groups[G];
      if (!S.NumNodes)
        continue;
      Diag << "  " << layout::getLayoutGroupName(layout::LayoutGroup(G)) << ": "
           << S.NumNodes << " functions, " << S.Bytes << " bytes, " << S.Pages
           << " pages, by " << layout::getOrderMethodName(S.Method) << '\n';
    }
  for (const ProfileCoverage &C : Plan.Coverage) {
    Diag << "  profile " << C.Path << " (" << C.Scenario << "): bound "
         << C.Bound << " of " << C.Executed << " executed functions ("
         << format("%.1f", percent(C.BoundWeight, C.ExecutedWeight))
         << "% of their counts)\n";
    if (C.Unbound.empty())
      continue;
    WithColor::warning(Diag, "kiln")
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
  auto ListIssues = [&](ArrayRef<OrderFileIssue> Issues, StringRef What) {
    if (Issues.empty())
      return;
    WithColor::warning(Diag, "kiln") << What << ": " << Issues.size() << '\n';
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

static Error writeJSONReport(const OrderCommandOptions &Opts,
                             const OrderPlan &Plan, const LinkerInputs &Inputs,
                             const OrderFileReport &Report) {
  std::error_code EC;
  ToolOutputFile Out(Opts.ReportPath, EC, sys::fs::OF_TextWithCRLF);
  if (EC)
    return makeToolError(EC.message(), Opts.ReportPath);
  json::OStream J(Out.os(), /*IndentSize=*/2);
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
    J.attribute("format", Opts.WriteEdgeList
                              ? "edges"
                              : getOrderFileFormatName(*Opts.Format));
    J.attribute("algorithm", getOrderingAlgorithmName(Opts.Plan.Algorithm));
    J.attribute("page_size", Opts.Plan.Composite.PageSize);
    J.attribute("entries_written", Report.Written);
    J.attribute("bytes_written", Report.BytesWritten);
    if (Opts.Plan.Algorithm == OrderingAlgorithm::Kiln)
      J.attributeArray("groups", [&] {
        for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
          const layout::GroupSummary &S = Plan.Layout.Groups[G];
          J.object([&] {
            J.attribute("group",
                        layout::getLayoutGroupName(layout::LayoutGroup(G)));
            J.attribute("functions", S.NumNodes);
            J.attribute("bytes", S.Bytes);
            J.attribute("pages", S.Pages);
            J.attribute("method", layout::getOrderMethodName(S.Method));
          });
        }
      });
    J.attributeArray("profiles", [&] {
      for (const ProfileCoverage &C : Plan.Coverage)
        J.object([&] {
          J.attribute("path", C.Path);
          J.attribute("scenario", C.Scenario);
          J.attribute("executed_functions", C.Executed);
          J.attribute("bound_functions", C.Bound);
          J.attribute("executed_count", C.ExecutedWeight);
          J.attribute("bound_count", C.BoundWeight);
          J.attributeArray("unbound", [&] {
            for (const std::pair<std::string, std::string> &U : C.Unbound)
              J.object([&] {
                J.attribute("name", U.first);
                J.attribute("reason", U.second);
              });
          });
        });
    });
    J.attributeBegin("skipped");
    Issues(Report.Skipped);
    J.attributeEnd();
    J.attributeBegin("shared_names");
    Issues(Report.Shared);
    J.attributeEnd();
  });
  Out.os() << '\n';
  Out.keep();
  return Error::success();
}

Error kiln::runOrderCommand(const OrderCommandOptions &Opts,
                            raw_ostream &Diag) {
  if (Opts.Inputs.empty() && Opts.EdgeLists.empty())
    return makeToolError("no input", "",
                         "give the objects and archives of the link (or the "
                         "linked binary) and --scenario=<kind>=<profile>");
  LinkerInputs Inputs;
  for (const std::string &Path : Opts.Inputs)
    if (Error E = readLinkerInput(Path, Inputs))
      return makeToolError(toString(std::move(E)));
  PlanOptions Plan = Opts.Plan;
  Expected<std::vector<std::shared_ptr<const EdgeListData>>> Lists =
      loadEdgeLists(Opts.EdgeLists);
  if (!Lists)
    return makeToolError(toString(Lists.takeError()));
  Plan.EdgeLists = std::move(*Lists);
  // Without the link's inputs, an edge list's names are the functions
  // (sizes unknown): ordering from lld's own format alone.
  if (Opts.Inputs.empty())
    addEdgeListFunctions(Plan.EdgeLists, Inputs);

  Expected<std::vector<ScenarioSpec>> Scenarios =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Scenarios)
    return makeToolError(toString(Scenarios.takeError()), "--scenario");
  if (Scenarios->empty() && Plan.EdgeLists.empty() &&
      Inputs.NumInputsWithCallGraph == 0)
    return makeToolError("nothing to order by: no profile, no edge list, and "
                         "no input has a call graph profile section",
                         "", "add --scenario=steady=<file.profdata>");

  Expected<OrderPlan> Planned = planOrder(Inputs, *Scenarios, Plan);
  if (!Planned)
    return makeToolError(toString(Planned.takeError()));

  OrderCommandOptions Resolved = Opts;
  if (!Resolved.Format)
    Resolved.Format = getDefaultFormat(Inputs.Format);
  OrderFileOptions FileOpts;
  FileOpts.Format = *Resolved.Format;
  FileOpts.SkipSharedNames = Opts.SkipSharedNames;
  FileOpts.Header = {
      "Generated by kiln order " KILN_VERSION_STRING
      " (LLVM " KILN_LLVM_VERSION_STRING ")",
      "command: " + Opts.CommandLine,
      ("format: " +
       (Opts.WriteEdgeList ? StringRef("edges")
                           : getOrderFileFormatName(FileOpts.Format)) +
       "; algorithm: " + getOrderingAlgorithmName(Opts.Plan.Algorithm) +
       "; page size: " + Twine(Opts.Plan.Composite.PageSize))
          .str()};

  std::error_code EC;
  ToolOutputFile Out(Opts.Output, EC, sys::fs::OF_TextWithCRLF);
  if (EC)
    return makeToolError(EC.message(), Opts.Output);
  OrderFileReport Report;
  if (Opts.WriteEdgeList) {
    std::vector<NamedEdge> Edges;
    for (const layout::Edge &E : Planned->Graph.getWeightedEdges()) {
      int64_t Caller = Planned->FunctionOfNode[E.Caller];
      int64_t Callee = Planned->FunctionOfNode[E.Callee];
      if (Caller >= 0 && Callee >= 0 && E.Count > 0 && Caller != Callee)
        Edges.push_back({size_t(Caller), size_t(Callee), E.Count});
    }
    Report = writeEdgeList(Inputs, Edges, FileOpts, Out.os());
  } else {
    Report = writeOrderFile(Inputs, Planned->Functions, FileOpts, Out.os());
  }
  Out.keep();
  printSummary(Resolved, *Planned, Inputs, Report, Diag);
  if (!Opts.ReportPath.empty())
    return writeJSONReport(Resolved, *Planned, Inputs, Report);
  return Error::success();
}

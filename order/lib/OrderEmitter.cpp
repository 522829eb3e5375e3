//===- OrderEmitter.cpp - Writing a planned order -------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderEmitter.h"

#include "kiln/Order/OrderFileText.h"
#include "kiln/Order/OrderReport.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

OrderFileFormat kiln::getOrderFileFormat(ObjectFormat Format) {
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

// The calls between input functions, weighted over all scenarios, as lld's
// edge list names them.
static std::vector<NamedEdge> getNamedEdges(const OrderPlan &Plan) {
  std::vector<NamedEdge> Edges;
  size_t MaxEdges = 0; // Reserving address space only: be generous.
  for (const layout::Scenario &S : Plan.Graph.getScenarios())
    MaxEdges += S.Edges.size();
  Edges.reserve(MaxEdges);
  Plan.Graph.forEachWeightedEdge([&](const layout::Edge &E) {
    int64_t Caller = Plan.FunctionOfNode[E.Caller];
    int64_t Callee = Plan.FunctionOfNode[E.Callee];
    if (Caller >= 0 && Callee >= 0 && E.Count > 0 && Caller != Callee)
      Edges.push_back({size_t(Caller), size_t(Callee), E.Count});
  });
  return Edges;
}

static StringRef getFormatName(const OrderEmission &What) {
  return What.WriteEdgeList ? StringRef("edges")
                            : getOrderFileFormatName(What.Format);
}

Expected<OrderFileReport> kiln::writePlannedOrder(const OrderEmission &What,
                                                  const OrderPlan &Plan,
                                                  const LinkerInputs &Inputs) {
  OrderFileOptions FileOpts;
  FileOpts.Format = What.Format;
  FileOpts.SkipSharedNames = What.SkipSharedNames;
  FileOpts.Header.push_back(getOrderFileTitle(What.Tool));
  FileOpts.Header.insert(FileOpts.Header.end(), What.Provenance.begin(),
                         What.Provenance.end());
  FileOpts.Header.push_back(
      ("format: " + getFormatName(What) +
       "; algorithm: " + layout::getOrderAlgorithmName(What.Algorithm) +
       "; page size: " + Twine(What.PageSize))
          .str());
  OrderFileReport Written;
  if (Error E = writeTextOutput(What.OutputPath, [&](raw_ostream &OS) {
        Written = What.WriteEdgeList
                      ? writeEdgeList(Inputs, getNamedEdges(Plan), FileOpts, OS)
                      : writeOrderFile(Inputs, Plan.Functions, FileOpts, OS);
      }))
    return std::move(E);
  return Written;
}

Error kiln::reportPlannedOrder(const OrderEmission &What, const OrderPlan &Plan,
                               const LinkerInputs &Inputs,
                               const OrderFileReport &Written,
                               raw_ostream &Diag) {
  OrderReportContext Context;
  Context.Tool = What.Tool;
  Context.Program = What.Program;
  Context.OutputName = What.OutputPath == "-" ? StringRef("<stdout>")
                                              : StringRef(What.OutputPath);
  Context.Format = getFormatName(What);
  Context.Algorithm = What.Algorithm;
  Context.PageSize = What.PageSize;
  Context.ShowGroups = !What.WriteEdgeList;
  if (What.PrintSummary)
    printOrderSummary(Context, Plan, Inputs, Written, Diag);
  if (What.ReportPath.empty())
    return Error::success();
  return writeTextOutput(What.ReportPath, [&](raw_ostream &OS) {
    writeOrderReportJSON(Context, Plan, Inputs, Written, OS);
  });
}

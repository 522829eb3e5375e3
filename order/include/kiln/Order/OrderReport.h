//===- kiln/Order/OrderReport.h - What an order covers, for users -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two reports of an ordering job, shared by `kiln order` and
/// `kiln-lld --kiln-profile=`: a short human summary (groups, how much of
/// each profile was bound, what could not be written) and the complete JSON
/// report (`--report=`, `--kiln-report=`).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_ORDERREPORT_H
#define KILN_ORDER_ORDERREPORT_H

#include "kiln/Order/OrderFile.h"
#include "kiln/Order/OrderPlanner.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// How an order was produced, for the reports.
struct OrderReportContext {
  llvm::StringRef Tool;       ///< "kiln order", "kiln-lld": the summary's.
  llvm::StringRef Program;    ///< "kiln", "kiln-lld": prefix of warnings.
  llvm::StringRef OutputName; ///< Where the ordering file went.
  llvm::StringRef Format;     ///< "elf", "coff", "macho" or "edges".
  OrderAlgorithm Algorithm = OrderAlgorithm::Kiln;
  uint64_t PageSize = 4096;
  /// Print the composite's groups (not for edge lists).
  bool ShowGroups = true;
};

/// Prints the summary to \p Diag: entries written, the groups, each
/// profile's coverage, and the first few unbound, skipped and shared names.
void printOrderSummary(const OrderReportContext &Context, const OrderPlan &Plan,
                       const LinkerInputs &Inputs,
                       const OrderFileReport &Report, llvm::raw_ostream &Diag);

/// Writes the complete report as JSON to \p OS (deterministic).
void writeOrderReportJSON(const OrderReportContext &Context,
                          const OrderPlan &Plan, const LinkerInputs &Inputs,
                          const OrderFileReport &Report, llvm::raw_ostream &OS);

} // namespace kiln

#endif // KILN_ORDER_ORDERREPORT_H

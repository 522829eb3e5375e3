//===- kiln/Order/OrderEmitter.h - Writing a planned order ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one emitter of a planned order, used by `kiln order` and kiln-lld:
/// the ordering file (its header, the names each format's linker matches,
/// or lld's edge list), the summary and the JSON report, from one
/// description of what to write and what produced it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_ORDEREMITTER_H
#define KILN_ORDER_ORDEREMITTER_H

#include "kiln/Order/OrderFile.h"
#include "kiln/Order/OrderPlanner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// What to write, and what produced it.
struct OrderEmission {
  /// "kiln order", "kiln-lld": names the header and the summary.
  llvm::StringRef Tool;
  /// "kiln", "kiln-lld": the prefix of the summary's warnings.
  llvm::StringRef Program;
  /// Header lines between the title and the format line ("command: ...").
  std::vector<std::string> Provenance;
  /// The ordering file, "-" for stdout.
  std::string OutputPath = "-";
  /// The JSON report; none if empty.
  std::string ReportPath;
  OrderFileFormat Format = OrderFileFormat::ELF;
  /// Write lld's call-graph edge list (lld sorts) instead of an order.
  bool WriteEdgeList = false;
  /// ELF/COFF: leave out statics whose name other functions share.
  bool SkipSharedNames = false;
  OrderAlgorithm Algorithm = OrderAlgorithm::Kiln;
  uint64_t PageSize = 4096;
  /// Print the summary to the diagnostics stream.
  bool PrintSummary = true;
};

/// \returns the ordering-file format a link of \p Format reads.
OrderFileFormat getOrderFileFormat(ObjectFormat Format);

/// Writes the ordering file of \p Plan of \p Inputs as \p What says.
/// \returns what the file holds, or an error naming the file that could not
/// be written.
llvm::Expected<OrderFileReport> writePlannedOrder(const OrderEmission &What,
                                                  const OrderPlan &Plan,
                                                  const LinkerInputs &Inputs);

/// Reports the order writePlannedOrder wrote (\p Written): the summary to
/// \p Diag if What.PrintSummary, the JSON report if What.ReportPath is set.
/// \returns an error naming the report if it cannot be written.
llvm::Error reportPlannedOrder(const OrderEmission &What, const OrderPlan &Plan,
                               const LinkerInputs &Inputs,
                               const OrderFileReport &Written,
                               llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_ORDER_ORDEREMITTER_H

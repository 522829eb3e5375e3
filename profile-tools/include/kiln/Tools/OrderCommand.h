//===- kiln/Tools/OrderCommand.h - The work of `kiln order` -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln order`: read the linker inputs and the scenario profiles, plan the
/// order (kiln/Order/OrderPlanner.h), write the ordering file in the
/// requested dialect, and report coverage: on stderr as a summary, and in
/// full as JSON when asked.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_ORDERCOMMAND_H
#define KILN_TOOLS_ORDERCOMMAND_H

#include "kiln/Order/OrderFile.h"
#include "kiln/Order/OrderPlanner.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln {

struct OrderCommandOptions {
  std::vector<std::string> Inputs;    ///< Objects, archives or a binary.
  std::vector<std::string> Scenarios; ///< `<kind>=<profile>[:<weight>]`.
  /// Output dialect; by default the inputs' format (edges: lld edge list).
  std::optional<OrderFileFormat> Format;
  bool WriteEdgeList = false;
  std::vector<std::string> EdgeLists; ///< lld edge lists (paths).
  /// Algorithm and layout options (its EdgeLists are loaded from the above).
  PlanOptions Plan;
  bool SkipSharedNames = false;
  /// ELF: the entry symbol, load-time code like `.init_array` targets.
  std::string EntrySymbol = "_start";
  /// EntrySymbol was given by the user: warn if no input defines it.
  bool EntryGiven = false;
  std::string Output = "-"; ///< The ordering file ("-": stdout).
  std::string ReportPath;   ///< JSON report, if non-empty.
  /// Print the time and memory of each phase to the diagnostics stream.
  bool TimePhases = false;
  std::string CommandLine; ///< For the file header.
};

/// Runs `kiln order`. \returns an error (naming the file) for unusable
/// input; partial mapping is a warning on \p Diag.
llvm::Error runOrderCommand(const OrderCommandOptions &Opts,
                            llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_TOOLS_ORDERCOMMAND_H

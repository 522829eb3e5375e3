//===- kiln/Tools/ReportCommand.h - The work of `kiln report` ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln report`: what Kiln did in a build, as one JSON file and one static
/// HTML page that opens from disk. It gathers what the build recorded, never
/// more: the order and group of each function with its counts per scenario
/// (kiln-lld's `--kiln-report=`), the split parts, which kinds of decision
/// the build did not make or did not record and why, and the code layout of
/// the program before Kiln's order (kiln-lld's preliminary link, kept by
/// `--kiln-unordered-out=`) and after it, measured by `kiln eval`'s
/// evaluator: per scenario the pages of code that ran against their lower
/// bound, and a heatmap of the pages.
///
/// Inputs: a `kiln pgo` workspace after `kiln pgo optimize`, or, outside
/// the flow, the linked program, the same program without Kiln's order and
/// kiln-lld's report, each given on the command line.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_REPORTCOMMAND_H
#define KILN_TOOLS_REPORTCOMMAND_H

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// The page size of the report's heatmap and its first figures: the page
/// size Kiln's order packs startup code for by default.
inline constexpr uint64_t ReportPageSize = 4096;

/// What `kiln report` reads and where it writes.
struct ReportOptions {
  /// The `kiln pgo` workspace (used unless Binary is given).
  std::string Workspace = ".kiln";
  /// Where report.html and report.json go ("": `<workspace>/report`).
  std::string OutputDir;
  /// Outside the flow: the linked program (after Kiln's order)...
  std::string Binary;
  /// ...the same program linked without it (optional)...
  std::string Unordered;
  /// ...kiln-lld's `--kiln-report=` JSON of its link (optional)...
  std::string LinkReport;
  /// ...and the scenarios' profiles, `<kind>=<profile>[:<weight>]`.
  std::vector<std::string> Scenarios;
};

/// Reads what the build recorded and \returns the report as JSON. Warnings
/// of the evaluator go to \p Diag.
llvm::Expected<llvm::json::Value> gatherReport(const ReportOptions &Opts,
                                               llvm::raw_ostream &Diag);

/// Writes \p Report as one self-contained HTML page: the data embedded as
/// JSON, the summary table in plain HTML (readable without JavaScript), the
/// heatmaps and the per-function tables drawn by an inline script that logs
/// `kiln-report: rendered` to the console when it is done.
void writeReportHTML(const llvm::json::Value &Report, llvm::raw_ostream &OS);

/// Gathers the report and writes report.json and report.html. \returns the
/// path of report.html.
llvm::Expected<std::string> writeReport(const ReportOptions &Opts,
                                        llvm::raw_ostream &Diag);

/// Runs `kiln report`: writes the report and prints the two paths to \p Out.
llvm::Error runReportCommand(const ReportOptions &Opts, llvm::raw_ostream &Out,
                             llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_TOOLS_REPORTCOMMAND_H

//===- kiln/Tools/ImportsCommand.h - kiln imports ---------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln imports`: reads the ThinLTO objects and profiles, plans the imports
/// under a budget (KilnImports) and writes the workload definition, the
/// per-module import lists, the report and a summary.
/// Documentation: docs/CommandGuide/kiln-imports.rst.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_IMPORTSCOMMAND_H
#define KILN_TOOLS_IMPORTSCOMMAND_H

#include "kiln/Imports/ImportBudget.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

struct ImportsCommandOptions {
  std::vector<std::string> Inputs;    ///< Bitcode objects and archives.
  std::vector<std::string> Scenarios; ///< `<kind>=<profile>[:<weight>]`.
  /// `--budget`: instructions, or `<P>%` of the program's instructions.
  std::string Budget;
  std::string ModuleBudget; ///< `--budget-per-module`, same spelling.
  uint32_t MaxImportSize = 600;
  std::string WorkloadPath;  ///< `--workload-def`, if non-empty.
  std::string ImportListDir; ///< `--import-lists`, if non-empty.
  std::string ReportPath;    ///< `--report`, if non-empty.
  /// `--inline-budget`: plan inlining and the imports it needs; same
  /// spelling as Budget. Empty: plan imports alone.
  std::string InlineBudget;
  std::string InlinePlanPath; ///< `--inline-plan`, if non-empty.
  size_t Top = 20;            ///< Left-out candidates listed (0: all).
  bool Quiet = false;         ///< No summary on \p Out.
};

/// Runs `kiln imports`. \returns an error naming the file for unusable
/// input; warnings go to \p Diag, the summary to \p Out.
llvm::Error runImportsCommand(const ImportsCommandOptions &Opts,
                              llvm::raw_ostream &Out, llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_TOOLS_IMPORTSCOMMAND_H

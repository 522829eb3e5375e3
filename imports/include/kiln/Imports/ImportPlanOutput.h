//===- kiln/Imports/ImportPlanOutput.h - Plan outputs -----------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An ImportPlan in the forms its users read:
///  - the workload definition for `-thinlto-workload-def` (in-process and
///    index-only thin links): one root per module, whose list replaces the
///    default importer's decisions for that module, so each list holds all
///    of the module's planned imports, transitive ones included;
///  - per-module import lists for distributed ThinLTO;
///  - a JSON report and a text summary: what is imported, why, and what the
///    budget left out;
///  - with an inline plan, the InlinePlanFile the backends follow.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_IMPORTPLANOUTPUT_H
#define KILN_IMPORTS_IMPORTPLANOUTPUT_H

#include "kiln/Imports/ImportPlanner.h"
#include "kiln/Imports/InlinePlanFile.h"
#include "kiln/Imports/InlinePlanner.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {
namespace imports {

/// The plan per module, as the workload file expresses it.
struct WorkloadPlan {
  /// Per module: the function that names it in the workload file, or
  /// NoFunction when no function can (every name it defines is shared or
  /// defined elsewhere too); such a module keeps LLVM's default importer.
  std::vector<FunctionId> Roots;
  /// Per module: the functions to import, sorted by name.
  std::vector<std::vector<FunctionId>> Imports;
};

/// Chooses each module's root: of the functions only that module defines
/// and whose name the thin link resolves to them, the most often entered
/// (ties: the smaller name).
WorkloadPlan makeWorkloadPlan(const ImportGraph &Graph, const ImportPlan &Plan);

/// Writes the `-thinlto-workload-def` JSON: `{"root": ["callee", ...]}`,
/// roots sorted by name.
void writeWorkloadDefinition(const ImportGraph &Graph,
                             const WorkloadPlan &Workload,
                             llvm::raw_ostream &OS);

/// \returns the path under \p Dir of module \p ModuleId's import lists,
/// without extension: the module id with a leading `/` dropped and `..`
/// components renamed `__`, so that it stays under \p Dir.
std::string getImportListStem(llvm::StringRef Dir, llvm::StringRef ModuleId);

/// Writes, for each module with a root, `<stem>.imports` (the modules it
/// imports from, one per line, sorted: the format of lld's
/// `--thinlto-emit-imports-files`) and `<stem>.imports.functions`
/// (`<function> <module>` lines, sorted).
llvm::Error writeImportLists(const ImportGraph &Graph,
                             const WorkloadPlan &Workload, llvm::StringRef Dir);

/// What the report and summary say about the run besides the plan.
struct ReportContext {
  ImportPlanConfig Config;
  /// Defined functions' instructions over all modules.
  uint64_t TotalInstructions = 0;
  /// How many left-out candidates to list (0: all).
  size_t Top = 20;
  std::vector<std::string> SourceFileNames;
};

/// Writes the JSON report (see docs/CommandGuide/kiln-imports.rst).
void writeImportReport(const ImportGraph &Graph, const ImportPlan &Plan,
                       const WorkloadPlan &Workload, const ReportContext &Ctx,
                       llvm::raw_ostream &OS);

/// Prints the text summary.
void printImportSummary(const ImportGraph &Graph, const ImportPlan &Plan,
                        const WorkloadPlan &Workload, const ReportContext &Ctx,
                        llvm::raw_ostream &OS);

/// \returns the file form of \p Plan: every module of \p Graph under its
/// source file name (\p SourceFileNames, per module), the planned sites by
/// name, \p Budget as given.
InlinePlanFile
makeInlinePlanFile(const ImportGraph &Graph, const InlinePlan &Plan,
                   const std::vector<std::string> &SourceFileNames,
                   uint64_t Budget);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_IMPORTPLANOUTPUT_H

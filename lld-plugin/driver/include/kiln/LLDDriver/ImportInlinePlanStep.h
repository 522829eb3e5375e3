//===- kiln/LLDDriver/ImportInlinePlanStep.h - Plan in kiln-lld -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-lld --kiln-profile=... --kiln-inline-plan=<budget>`: before its
/// links, kiln-lld plans the ThinLTO imports and cross-module inlining as
/// `kiln imports --inline-budget=<budget>` would, over the bitcode modules
/// the link really uses. It asks lld which they are with an index-only thin
/// link (`--thinlto-index-only=<list>`, index files written under the
/// scratch directory, no backend run), plans over them with the profiles,
/// and hands the plan to the links that follow: `-mllvm
/// -thinlto-workload-def=<imports>` for the thin link, `-mllvm
/// -kiln-inline-plan=<plan>` for the backends.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_IMPORTINLINEPLANSTEP_H
#define KILN_LLDDRIVER_IMPORTINLINEPLANSTEP_H

#include "kiln/Order/OrderPlanner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// \returns true if \p Value (of `--kiln-inline-plan=`) asks for a plan.
bool requestsInlinePlan(llvm::StringRef Value);

/// \returns the module paths lld's `--thinlto-index-only=` list names as
/// the planner's inputs: \p Prefix (the `--thinlto-prefix-replace` new
/// prefix lld put in front) taken off, a file as it is, an archive member
/// (`lib.a(member.o at 1234)`) as its archive, once each, in list order.
std::vector<std::string> parseThinModuleList(llvm::StringRef List,
                                             llvm::StringRef Prefix);

/// What the step needs from kiln-lld.
struct InlinePlanStepContext {
  llvm::ArrayRef<std::string> LinkerArgs; ///< argv, program name first.
  llvm::ArrayRef<ScenarioSpec> Scenarios;
  std::string Budget;     ///< `--kiln-inline-plan=`'s value.
  std::string ScratchDir; ///< Where the plan and the index files go.
  bool Verbose = false;
  /// Runs lld with argv; output captured by the callee.
  llvm::function_ref<int(llvm::ArrayRef<std::string>, llvm::raw_ostream &,
                         llvm::raw_ostream &)>
      RunLinker;
};

/// Plans imports and inlining for the link in \p Ctx. \returns the options
/// to add to the links, or an error saying why there is no plan (the link
/// then keeps LLVM's default importer). Warnings of the planner and, with
/// Verbose, its summary go to \p Diag.
llvm::Expected<std::vector<std::string>>
planImportsAndInlining(const InlinePlanStepContext &Ctx,
                       llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_LLDDRIVER_IMPORTINLINEPLANSTEP_H

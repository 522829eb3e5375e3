//===- kiln/Passes/ImportShaping.h - Pre-link import shaping ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-import-shaping`: a module pass for the end of the ThinLTO pre-link
/// compile, before the module summary is built and written. It shapes the
/// call edges the summary records, which the thin link's function importer
/// reads, from the profile the compile attached (`-fprofile-use`):
///  - a hot call site whose callee is defined in another module, and that
///    the ThinLTO backend's inliner could inline, gets the callee's GUID in
///    its caller's import list (the extra operands of the caller's
///    `function_entry_count`), which the summary records as a `critical`
///    edge: the importer then allows `-import-critical-multiplier` times
///    `-import-instr-limit` instructions for it instead of the hot
///    multiplier. The same for the promotable targets of a hot indirect call
///    (its value profile) that are defined elsewhere;
///  - hot call sites the backend cannot inline (a `noinline` call or callee,
///    an `optnone` or size-optimized caller, a library function, an
///    indirect-call target that promotion will not make direct) and callees
///    defined in this module are left alone, with a missed remark;
///  - cold call sites already make `cold` edges, which the importer never
///    takes (`-import-cold-multiplier` is 0); Kiln says so in an analysis
///    remark and changes nothing;
///  - a local function without an entry count whose every use is a direct
///    call from a profiled function gets the sum of those call sites' counts
///    as its entry count (0 when none of them ran), so that the summary
///    records the hotness of its own calls; an entry count lower than the
///    calls this module makes to the function is reported, not changed.
/// Nothing is done without a profile summary, or when the profile has counts
/// for none of the module's functions: one warning says why (an error under
/// `-kiln-strict`). Every change is an optimization remark of pass
/// `kiln-import-shaping`. See docs/Passes/ImportShaping.rst.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_IMPORTSHAPING_H
#define KILN_PASSES_IMPORTSHAPING_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// The `kiln-import-shaping` pass. It changes only profile metadata (entry
/// counts and their import lists), never code.
class ImportShapingPass : public llvm::PassInfoMixin<ImportShapingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace kiln

#endif // KILN_PASSES_IMPORTSHAPING_H

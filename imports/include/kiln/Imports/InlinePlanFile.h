//===- kiln/Imports/InlinePlanFile.h - The inline plan file -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The file that carries `kiln imports`' inline decisions to the ThinLTO
/// backends (`-mllvm -kiln-inline-plan=<file>`), next to the workload
/// definition that carries its imports to the thin link. JSON:
///
///   {"kiln-inline-plan": 1, "budget": 1200, "growth": 1130,
///    "modules": [{"source": "a.c", "module": "a.o",
///                 "sites": [{"caller": "main", "callee": "work",
///                            "site": 0, "sites": 2, "count": 5000,
///                            "growth": 120}]}]}
///
/// Every module of the program is listed, planned sites or not, by its
/// source file name (what a backend's Module::getSourceFileName() says,
/// whatever the module id of the link is); `site` is the call's ordinal
/// among the caller's direct calls to the callee, `sites` how many there
/// are. Kept free of LLVM IR so that the pass plugin can read it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_INLINEPLANFILE_H
#define KILN_IMPORTS_INLINEPLANFILE_H

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

/// One call site to inline.
struct InlinePlanSite {
  /// Function names as the thin link's index has them (a local's plain
  /// name): a backend strips ThinLTO's promotion suffix before matching.
  std::string Caller;
  std::string Callee;
  uint32_t Ordinal = 0;  ///< `site`.
  uint32_t NumSites = 1; ///< `sites`.
  uint64_t Count = 0;    ///< The site's profiled count.
  uint32_t Growth = 0;   ///< The callee's instructions.
};

/// One module of the program and its planned sites.
struct InlinePlanModule {
  std::string Source;
  std::string Module;
  std::vector<InlinePlanSite> Sites;
};

/// The whole plan.
struct InlinePlanFile {
  uint64_t Budget = 0;
  uint64_t Growth = 0;
  /// Sorted by Source; sites sorted by caller, callee, ordinal.
  std::vector<InlinePlanModule> Modules;
};

/// Writes \p Plan as JSON to \p OS.
void writeInlinePlanFile(const InlinePlanFile &Plan, llvm::raw_ostream &OS);

/// Parses the JSON \p Text. \returns an error saying what is wrong (not
/// JSON, not an inline plan, a field missing or of the wrong type, a site
/// whose ordinal is not below its count).
llvm::Expected<InlinePlanFile> parseInlinePlanFile(llvm::StringRef Text);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_INLINEPLANFILE_H

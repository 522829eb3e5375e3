//===- kiln/Tools/BlockLayoutCommand.h - `kiln block-layout` ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln block-layout`: read a block profile (`.kbp`, from `kiln
/// block-profile`), with `--binary=` re-map it onto the blocks of a later
/// build (kiln/Layout/BlockProfileMatching.h), plan the block layout
/// (kiln/Layout/BlockLayout.h), and write LLVM's basic-block-sections
/// profile for the relink, the linker's symbol ordering file of the
/// clusters, a summary on the diagnostics stream and, when asked, a JSON
/// report.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_BLOCKLAYOUTCOMMAND_H
#define KILN_TOOLS_BLOCKLAYOUTCOMMAND_H

#include "kiln/Layout/BlockLayout.h"
#include "kiln/Layout/BlockProfileMatching.h"

#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

struct BlockLayoutCommandOptions {
  std::string Input;  ///< The block profile.
  std::string Output; ///< The basic-block-sections profile ("-": stdout).
  /// The symbol ordering file; none if empty.
  std::string SymbolOrderingFile;
  std::string ReportPath; ///< JSON report, if non-empty.
  /// The address-mapped binary of the build to lay out, when it is not the
  /// profiled one; empty: the profiled build.
  std::string Binary;
  /// Which functions of a profile of another build are kept.
  layout::BlockProfileMatchConfig Match;
  /// The planner's tunables (the page size is Layout.Composite.PageSize).
  layout::BlockLayoutConfig Layout;
  std::string CommandLine; ///< For the files' headers.
};

/// Runs `kiln block-layout`. \returns an error naming the file or option
/// for unusable input; skipped functions are a warning on \p Diag.
llvm::Error runBlockLayoutCommand(const BlockLayoutCommandOptions &Opts,
                                  llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_TOOLS_BLOCKLAYOUTCOMMAND_H

//===- kiln/Tools/RelocsCommand.h - The work of `kiln relocs` ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln relocs`: a relocation audit of a linked ELF shared library or PIE
/// (or of a PE image's base relocations, a Mach-O image's rebases and
/// binds).
/// Prints the totals of its dynamic relocations by type, by class (string,
/// function, data or other pointer) and by patched section, then the data
/// objects with relocations, largest first and most relocated first, each
/// with its counts per class and whether kiln-strtab could remove them. The
/// analysis is RelocationAudit.h; this is the command line's view of it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_RELOCSCOMMAND_H
#define KILN_TOOLS_RELOCSCOMMAND_H

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

struct RelocsCommandOptions {
  std::string Input;       ///< The linked library or PIE.
  uint64_t Top = 20;       ///< Objects per list (0: all).
  bool JSON = false;       ///< JSON instead of text.
  bool Demangle = true;    ///< Demangle C++ names.
  std::string ClassFilter; ///< Only this class's relocations ("": all).
  std::string Output = "-";
  /// kiln-strtab's YAML remark files of the build, if any.
  std::vector<std::string> Remarks;
};

/// Runs `kiln relocs`, writing the report to Opts.Output.
llvm::Error runRelocsCommand(const RelocsCommandOptions &Opts);

} // namespace kiln

#endif // KILN_TOOLS_RELOCSCOMMAND_H

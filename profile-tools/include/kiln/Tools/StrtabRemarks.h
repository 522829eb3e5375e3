//===- kiln/Tools/StrtabRemarks.h - kiln-strtab's decisions -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What kiln-strtab decided about each table, read back from the YAML
/// optimization remarks of a build (`clang -fsave-optimization-record`, lld
/// `--opt-remarks-filename`). A linked binary cannot show whether a use of a
/// table escapes; the pass's own record can, so `kiln relocs --remarks`
/// reports the tables it refused with their reason.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_STRTABREMARKS_H
#define KILN_TOOLS_STRTABREMARKS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kiln {

/// One missed remark of kiln-strtab: a table left alone, and why.
struct StrtabRefusal {
  std::string Table;    ///< The table's IR name (its symbol name).
  std::string Reason;   ///< The remark name, e.g. "Escape".
  std::string Text;     ///< The pass's explanation.
  std::string Function; ///< The function a call refusal names, or "".
};

/// The decisions of all remark files read, deduplicated and sorted.
struct StrtabDecisions {
  unsigned NumFiles = 0;
  /// Names of the tables lowered in some module, sorted, unique.
  std::vector<std::string> Lowered;
  /// Refusals sorted by table, reason, function; duplicates (a header's
  /// table refused in every translation unit) appear once.
  std::vector<StrtabRefusal> Refused;

  /// \returns the refusals of the table named \p Table.
  llvm::ArrayRef<StrtabRefusal> getRefusals(llvm::StringRef Table) const;
};

/// Reads the kiln-strtab remarks of the YAML remark files \p Paths; remarks
/// of other passes are skipped. \returns an error naming the file if one
/// cannot be read or is not a YAML remark file.
llvm::Expected<StrtabDecisions>
readStrtabRemarks(llvm::ArrayRef<std::string> Paths);

} // namespace kiln

#endif // KILN_TOOLS_STRTABREMARKS_H

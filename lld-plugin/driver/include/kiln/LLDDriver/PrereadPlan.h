//===- kiln/LLDDriver/PrereadPlan.h - A binary's startup range --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// After a Kiln layout the startup functions are one contiguous range of
/// the binary. This finds that range in the linked file (its addresses and
/// file offset), writes it as the pre-read plan (`--kiln-preread-out=`), and
/// records it in the binary for the runtime helper (`kiln_preread()`, see
/// lld-plugin/runtime), which pre-faults exactly those pages at process
/// start instead of taking one major fault per page as execution reaches
/// them.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_PREREADPLAN_H
#define KILN_LLDDRIVER_PREREADPLAN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// The startup range of a linked binary.
struct PrereadRange {
  std::string Binary;
  std::string Format; ///< "ELF", "COFF", "Mach-O".
  uint64_t PageSize = 4096;
  uint64_t VirtualAddress = 0; ///< Start of the first startup function.
  uint64_t FileOffset = 0;     ///< Where that address is in the file.
  uint64_t Length = 0;         ///< Bytes up to the end of the last one.
  uint64_t FunctionBytes = 0;  ///< Bytes of the startup functions found.
  unsigned Requested = 0;      ///< Startup functions asked for.
  unsigned Found = 0;          ///< ... found once in the binary.
  /// Names not found, or found more than once (their address is ambiguous).
  std::vector<std::string> Missing;
  /// Pages of PageSize the range touches.
  uint64_t getPages() const;
};

/// Finds the range of \p StartupSymbols (symbol-table names, as in the
/// ordering file) in the linked \p BinaryPath. \returns an error naming the
/// file if it cannot be read, has no symbol table, or holds none of them.
llvm::Expected<PrereadRange>
findPrereadRange(llvm::StringRef BinaryPath,
                 llvm::ArrayRef<std::string> StartupSymbols, uint64_t PageSize);

/// Writes \p Range as the JSON pre-read plan.
void writePrereadPlanJSON(const PrereadRange &Range, llvm::raw_ostream &OS);

/// The symbol of the runtime helper's plan record, and its magic bytes.
inline constexpr llvm::StringLiteral PrereadRecordSymbol = "kiln_preread_plan";
inline constexpr llvm::StringLiteral PrereadRecordMagic = "KILNPRE1";

/// Writes \p Range into the runtime helper's plan record of the ELF binary
/// at \p BinaryPath (the record's distance to the range and its length), so
/// `kiln_preread()` finds the range in memory. \returns false if the binary
/// does not contain the helper (nothing to do), an error if the record is
/// not what the helper defines or the format cannot be patched safely
/// (Mach-O: code signature).
llvm::Expected<bool> recordPrereadRange(llvm::StringRef BinaryPath,
                                        const PrereadRange &Range);

} // namespace kiln

#endif // KILN_LLDDRIVER_PREREADPLAN_H

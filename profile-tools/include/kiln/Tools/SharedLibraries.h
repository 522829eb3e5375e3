//===- kiln/Tools/SharedLibraries.h - Programs, libraries -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The dynamic section of a linked ELF binary as block layout needs it: is it
/// a shared library, the name programs load it by (DT_SONAME, or its file
/// name when it has none), and the names it loads (DT_NEEDED). With the
/// libraries a build linked, that says whether a program the training ran
/// loads one of them, directly or through another.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_SHAREDLIBRARIES_H
#define KILN_TOOLS_SHAREDLIBRARIES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace kiln::pgo {

/// What the dynamic loader reads of one binary.
struct DynamicLinkInfo {
  /// ET_DYN without an interpreter and without DF_1_PIE.
  bool IsSharedLibrary = false;
  /// DT_SONAME, or the file name where the library has none.
  std::string LoadName;
  std::vector<std::string> Needed; ///< DT_NEEDED, in order.
};

/// \returns \p Path's dynamic-link information, or std::nullopt if it is not
/// a 64-bit little-endian ELF binary that can be read.
std::optional<DynamicLinkInfo> readDynamicLinkInfo(llvm::StringRef Path);

/// One shared library a build linked.
struct BuildLibrary {
  std::string Path; ///< The linked file.
  DynamicLinkInfo Info;
};

/// \returns whether the binary \p Info belongs to needs the library loaded
/// by \p LoadName, directly or through the needs of \p Libraries (the
/// build's, by their load names).
bool needsLibrary(const DynamicLinkInfo &Info, llvm::StringRef LoadName,
                  llvm::ArrayRef<BuildLibrary> Libraries);

} // namespace kiln::pgo

#endif // KILN_TOOLS_SHAREDLIBRARIES_H

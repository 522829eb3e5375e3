//===- kiln/LLDDriver/LinkerInvocation.h - kiln-lld's lld command -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns the command line `kiln-lld` was started with into the one it hands
/// to lld's library entry point: which lld flavor runs (from `-flavor` or the
/// program name, the way lld decides, except that `kiln-lld` itself means
/// ELF so that `clang -fuse-ld=/path/to/kiln-lld` works), and how Kiln's pass
/// plugin is named to that flavor's LTO. Kept apart from main() so it can be
/// unit-tested without running a link.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_LINKERINVOCATION_H
#define KILN_LLDDRIVER_LINKERINVOCATION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace kiln {

/// The lld drivers kiln-lld can run.
enum class LinkerFlavor {
  Unknown, ///< Neither `-flavor` nor the program name says.
  ELF,     ///< ld.lld (GNU-style arguments).
  MinGW,   ///< ld.lld with a PE emulation (`-m i386pep`): lld's MinGW driver.
  COFF,    ///< lld-link (MSVC-style arguments).
  MachO,   ///< ld64.lld.
};

/// \returns the user-facing name of \p Flavor ("ELF", "COFF", ...).
llvm::StringRef getFlavorName(LinkerFlavor Flavor);

/// Decides the flavor from \p Args (argv, program name first) as lld does:
/// `-flavor gnu|link|darwin` as the first argument wins; otherwise each
/// '-'-separated part of the program name is tried (`kiln-ld.lld`,
/// `kiln-lld-link`, `kiln-ld64.lld`). A program name of just `kiln-lld`
/// (any directory, optional `.exe`) means ELF. GNU-style arguments with a PE
/// emulation (`-m i386pep`, `-marm64pe`, ...) select MinGW.
LinkerFlavor detectFlavor(llvm::ArrayRef<const char *> Args);

/// The command line kiln-lld passes to lld::lldMain.
struct LinkerInvocation {
  LinkerFlavor Flavor = LinkerFlavor::Unknown;
  std::vector<std::string> Args; ///< argv for lld, program name first.
  /// True if Kiln's plugin was added to the LTO pass plugins of this link.
  bool AddedPassPlugin = false;
};

/// Builds the lld command line from kiln-lld's \p Args. Inserts `-flavor
/// gnu` when lld could not tell the flavor from the program name, and, for
/// the flavors whose LTO accepts pass plugins (ELF, Mach-O), appends
/// `--load-pass-plugin=<PluginPath>` unless \p PluginPath is empty or the
/// user already named the same file (\p IsSamePlugin decides, so tests need
/// no file system). Everything else is passed through unchanged.
LinkerInvocation buildLinkerInvocation(
    llvm::ArrayRef<const char *> Args, llvm::StringRef PluginPath,
    bool (*IsSamePlugin)(llvm::StringRef, llvm::StringRef) = nullptr);

/// \returns the entry symbol of the ELF link \p Args (lld's argv): the last
/// `-e <symbol>`/`--entry[=]<symbol>` value, else `_start` for an
/// executable; "" for a shared library or a relocatable output (`-shared`,
/// `-r`), which have no entry point that runs at load.
std::string getELFEntrySymbol(llvm::ArrayRef<std::string> Args);

/// \returns true if any argument asks for a Kiln option (`-kiln-...` given
/// through `-mllvm`, `--plugin-opt=`, `/mllvm:`), which needs the plugin.
bool requestsKilnOptions(llvm::ArrayRef<const char *> Args);

} // namespace kiln

#endif // KILN_LLDDRIVER_LINKERINVOCATION_H

//===- LibtoolWrapper.h - libtool's wrapper scripts of programs -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Private to the kiln pgo implementation. A program that libtool links
/// against a shared library of the same build is written to
/// `<dir>/.libs/<name>`, and `<dir>/<name>` is a shell script that runs it
/// with the build's library directories on LD_LIBRARY_PATH. The training
/// runs the script; a replay that profiles the program itself needs what
/// the script would have run, and how.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_LIB_LIBTOOLWRAPPER_H
#define KILN_TOOLS_LIB_LIBTOOLWRAPPER_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kiln::pgo {

/// What a libtool wrapper script runs.
struct LibtoolWrapper {
  std::string Program; ///< Absolute: `<script's dir>/.libs/<name>`.
  /// The directories the script puts in front of LD_LIBRARY_PATH, joined
  /// by ':' ("" when it adds none).
  std::string LibraryPath;
};

/// \returns what the script \p Text (the file at \p Path) runs, or
/// std::nullopt if it is not a libtool wrapper Kiln can follow: libtool's
/// header, `program='<name>'` run from `$thisdir/.libs`, and no relink
/// on first use (a wrapper with a `relink_command` would run a program that
/// does not exist yet).
std::optional<LibtoolWrapper> parseLibtoolWrapper(llvm::StringRef Path,
                                                  llvm::StringRef Text);

/// Reads the file at \p Path and parses it (parseLibtoolWrapper); a file
/// that cannot be read, or is not a script, is not a wrapper.
std::optional<LibtoolWrapper> readLibtoolWrapper(llvm::StringRef Path);

/// \returns \p LibraryPath in front of \p Inherited as the wrapper sets
/// LD_LIBRARY_PATH (without the colon an empty \p Inherited would leave).
std::string libtoolLibraryPath(llvm::StringRef LibraryPath,
                               llvm::StringRef Inherited);

} // namespace kiln::pgo

#endif // KILN_TOOLS_LIB_LIBTOOLWRAPPER_H

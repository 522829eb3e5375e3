//===- StartupFunctions.h - The functions a startup run executes -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The startup scenario of the passes that place code (kiln-section-placement,
/// kiln-function-order), from either or both of:
///  - `-kiln-startup-functions=<file>`: one IR name per line, `#` comments;
///  - `-kiln-startup-profile=<profdata>`: the temporal traces of an indexed
///    profile of a startup run (`-ftemporal-profile`), which name functions
///    by the MD5 of their profile names.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_STARTUPFUNCTIONS_H
#define KILN_PASSES_LIB_STARTUPFUNCTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Module;
} // namespace llvm

namespace kiln {

/// The startup functions of one module. Either path is empty when not given.
struct StartupFunctions {
  std::string ListPath;
  llvm::StringSet<> ListedNames;
  std::string ProfilePath;
  /// The functions of this module that some trace names.
  llvm::StringSet<> TracedNames;
  unsigned NumTraces = 0;
  /// Distinct functions over all traces, in this module or not.
  unsigned NumTracedFunctions = 0;
  /// This module's startup functions (IR names), in the order of the first
  /// trace that names them, then in list order.
  std::vector<std::string> FirstExecutionOrder;

  /// \returns true if neither a list nor a profile was given.
  bool empty() const { return ListPath.empty() && ProfilePath.empty(); }
  bool contains(llvm::StringRef Name) const {
    return ListedNames.contains(Name) || TracedNames.contains(Name);
  }
};

/// Loads the startup functions of \p M named by the options (or by
/// \p ListOverride instead of `-kiln-startup-functions=`). \returns
/// std::nullopt, after a warning that names the file, the reason and
/// \p PassName, if a source was given but cannot be used: the pass then does
/// nothing (a build never fails because a profile artifact went missing).
std::optional<StartupFunctions>
loadStartupFunctions(llvm::Module &M, llvm::StringRef PassName,
                     llvm::StringRef ListOverride = "");

} // namespace kiln

#endif // KILN_PASSES_LIB_STARTUPFUNCTIONS_H

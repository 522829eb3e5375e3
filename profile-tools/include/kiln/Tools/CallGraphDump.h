//===- kiln/Tools/CallGraphDump.h - Print a call graph ----------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln callgraph`'s output: the edges of a CallGraph, heaviest first, as
/// text, JSON or Graphviz DOT, with demangled names. Static functions, whose
/// node keys are `<object>:<name>`, are shown with their object.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_CALLGRAPHDUMP_H
#define KILN_TOOLS_CALLGRAPHDUMP_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace kiln {

enum class DumpFormat { Text, JSON, DOT };

struct CallGraphDumpOptions {
  DumpFormat Format = DumpFormat::Text;
  /// Print at most this many edges (0: all).
  uint64_t Top = 0;
  /// Omit edges whose weighted count is below this.
  uint64_t MinCount = 0;
  /// Demangle C++ (Itanium, MSVC) names.
  bool Demangle = true;
  /// Names carry Mach-O's leading underscore, which is not shown.
  bool StripLeadingUnderscore = false;
};

/// Prints the weighted edges of \p G (all scenarios, scaled by their
/// weights), sorted by count, descending, then by caller and callee key.
void dumpCallGraph(const layout::CallGraph &G, const CallGraphDumpOptions &Opts,
                   llvm::raw_ostream &OS);

/// \returns the display name of node key \p Key: demangled if asked, with a
/// static function's object as ` [object]`.
std::string getDisplayName(llvm::StringRef Key, llvm::StringRef Origin,
                           const CallGraphDumpOptions &Opts);

} // namespace kiln

#endif // KILN_TOOLS_CALLGRAPHDUMP_H

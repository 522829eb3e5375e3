//===- kiln/Sources/InstrProfile.h - Read instrumented profiles -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What Kiln's layout takes from an instrumented profile (`.profdata`, or its
/// text form), through LLVM's InstrProfReader: which functions ran and how
/// much, the indirect calls' targets (value profiles), and temporal traces
/// (first-execution order, from `-ftemporal-profile`). Both instrumentation
/// kinds are read: IR (`-fprofile-generate`, static functions named
/// `file.c;fn`) and clang front-end (`-fprofile-instr-generate`, `file.c:fn`).
/// Names stay profile names here; ProfileNames.h and SymbolResolver.h map
/// them to the linker's.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_INSTRPROFILE_H
#define KILN_SOURCES_INSTRPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A function the profile has a record for.
struct ProfiledFunction {
  std::string Name; ///< The PGO name.
  /// Sum of the function's counters: how much it ran. (IR instrumentation
  /// counts spanning-tree edges, not the entry, so no counter is the entry
  /// count in general; zero means it never ran.)
  uint64_t Weight = 0;
};

/// An indirect call observed by value profiling.
struct ProfiledCall {
  std::string Caller; ///< PGO name of the calling function.
  std::string Callee; ///< PGO name of the target.
  uint64_t Count = 0;
};

/// A temporal trace: functions by first execution.
struct ProfiledTrace {
  std::vector<std::string> Functions;
  uint64_t Weight = 1;
};

/// The layout-relevant content of one instrumented profile.
struct InstrProfile {
  std::string Path;
  bool IsIRLevel = false; ///< IR (`;` names) rather than front-end (`:`).
  /// Records, in the profile's order; one per name (context-sensitive and
  /// duplicate-hash records are summed into it).
  std::vector<ProfiledFunction> Functions;
  std::vector<ProfiledCall> IndirectCalls;
  std::vector<ProfiledTrace> Traces;
  /// Value-profile targets whose names the profile does not contain.
  unsigned NumUnnamedTargets = 0;
};

/// Reads the indexed, text or raw instrumented profile at \p Path.
/// \returns an error naming the file for missing, corrupt, truncated or
/// empty profiles and for files that are not instrumented profiles. Tools
/// should enable llvm::CrashRecoveryContext: LLVM's reader can fault on
/// corrupt data, which then becomes an error too.
llvm::Expected<InstrProfile> readInstrProfile(llvm::StringRef Path);

} // namespace kiln

#endif // KILN_SOURCES_INSTRPROFILE_H

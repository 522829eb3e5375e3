//===- kiln/Sources/Profile.h - Read profiles for layout ---------*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What Kiln's layout takes from a profile, read with LLVM's readers:
///  - instrumented profiles (`.profdata`, its text form, raw), both kinds: IR
///    (`-fprofile-generate`, static functions named `file.c;fn`) and clang
///    front-end (`-fprofile-instr-generate`, `file.c:fn`): which functions
///    ran and how much, indirect calls' targets (value profiles), and
///    temporal traces (first-execution order, `-ftemporal-profile`);
///  - sample profiles (AutoFDO / llvm-profgen, text, binary and extended
///    binary): top-level functions' samples, and the calls their bodies
///    (inlined code included) made, from the call-target records.
/// Names stay profile names here; SymbolResolver.h maps them to the
/// linker's.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_PROFILE_H
#define KILN_SOURCES_PROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A function the profile has a record for.
struct ProfiledFunction {
  std::string Name; ///< The PGO name.
  /// How much it ran: the sum of its counters (IR instrumentation counts
  /// spanning-tree edges, so no counter is the entry count in general), or
  /// its total samples. Zero means it never ran.
  uint64_t Weight = 0;
  /// How often it was entered, as far as the profile tells: a sample
  /// profile's head samples (estimated from its body when zero), a front-end
  /// profile's first counter (the function body's region), an IR profile's
  /// first counter when it instruments the entry block (`entry_first`) or
  /// has a single counter. Otherwise an IR profile counts spanning-tree
  /// edges only and the entry is not one of them: the largest counter stands
  /// in (exact for straight-line code, too high for loops).
  uint64_t EntryCount = 0;
  /// EntryCount is the profile's own figure, not the stand-in.
  bool EntryCountIsExact = false;
};

/// A call the profile observed.
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

/// The kinds of profile Kiln reads.
enum class ProfileKind { Instrumented, Sample };

/// The layout-relevant content of one profile.
struct LayoutProfile {
  std::string Path;
  ProfileKind Kind = ProfileKind::Instrumented;
  bool IsIRLevel = false; ///< IR (`;` names) rather than front-end (`:`).
  /// Records, in the profile's order; one per name (context-sensitive and
  /// duplicate-hash records are summed into it).
  std::vector<ProfiledFunction> Functions;
  /// Value-profiled indirect calls (instrumented), or every call target
  /// record (sample).
  std::vector<ProfiledCall> Calls;
  std::vector<ProfiledTrace> Traces;
  /// Value-profile targets whose names the profile does not contain.
  unsigned NumUnnamedTargets = 0;
};

/// Reads the instrumented or sample profile at \p Path (the kind is told by
/// its contents). \returns an error naming the file for missing, corrupt,
/// truncated or empty profiles and for files that are neither kind. Tools
/// should enable llvm::CrashRecoveryContext: LLVM's readers can fault on
/// corrupt data, which then becomes an error too.
llvm::Expected<LayoutProfile> readProfile(llvm::StringRef Path);

/// Reads an instrumented profile (see readProfile).
llvm::Expected<LayoutProfile> readInstrProfile(llvm::StringRef Path);

/// Reads a sample profile (see readProfile).
llvm::Expected<LayoutProfile> readSampleProfile(llvm::StringRef Path);

} // namespace kiln

#endif // KILN_SOURCES_PROFILE_H

//===- kiln/Sources/StaleProfile.h - Profiles older than code ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A stale instrumented profile: one taken of an older build, whose
/// functions' control flow has changed since. Clang compares each function's
/// CFG hash with the profile's when it compiles with `-fprofile-use` and, on
/// a mismatch, warns and compiles the function without its counts. The
/// warning is gone by link time; what remains in the bitcode is:
///  - the module's `ProfileSummary` flag (InstrProf): it was compiled with
///    an instrumented profile;
///  - on each function whose counts were dropped, the annotation
///    `instr_prof_hash_mismatch` (LLVM's IR PGO), and no profile-derived
///    entry count (`function_entry_count`), which every function whose
///    counts were applied carries.
/// The rule: a function the profile has counts for (by PGO name), defined
/// in such a module, is stale if it carries the annotation or no entry
/// count. Plain objects, and bitcode compiled without `-fprofile-use`,
/// carry no such signal; sample profiles have no CFG hash to compare.
/// Where the modules were compiled with a sparse profile of the same build
/// (`kiln pgo`'s partial training), a function without an entry count is
/// one the compile profile's runs did not count and the ordering profile's
/// runs did (a replay of the training, which may take other paths): only
/// the annotation says stale there.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_STALEPROFILE_H
#define KILN_SOURCES_STALEPROFILE_H

#include "kiln/Sources/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A function defined in a module compiled with an instrumented profile.
struct ProfileUseFunction {
  /// The names the profile may know it by: the IR PGO name, and the
  /// front-end one when it differs (`file.c;f`, `file.c:f` for statics).
  std::vector<std::string> PGONames;
  bool HasEntryCount = false; ///< `function_entry_count` metadata.
  bool HashMismatch = false;  ///< Annotated `instr_prof_hash_mismatch`.
};

/// Reads the functions that every module of the bitcode file \p Buffer
/// compiled with an instrumented profile defines (none for a module without
/// an InstrProf `ProfileSummary`). \returns an error naming \p Path for
/// bitcode LLVM cannot read.
llvm::Expected<std::vector<ProfileUseFunction>>
readProfileUseFunctions(llvm::StringRef Path, llvm::MemoryBufferRef Buffer);

/// What a profile's names found in the compiled functions.
struct StaleProfileFinding {
  /// Functions of the profile with counts that the modules define.
  uint64_t CompiledFunctions = 0;
  /// ... of which compiled without their counts.
  uint64_t StaleFunctions = 0;
  /// The profile's counts (ProfiledFunction::Weight) over all its
  /// functions, and those of the stale functions.
  uint64_t TotalWeight = 0;
  uint64_t StaleWeight = 0;
  /// The stale functions' profile names, heaviest first (ties by name).
  std::vector<std::string> StaleNames;
};

/// Applies the rule of the file comment to \p Profile and \p Compiled.
StaleProfileFinding
findStaleFunctions(const LayoutProfile &Profile,
                   llvm::ArrayRef<ProfileUseFunction> Compiled,
                   bool SparseCompileProfile = false);

/// \returns the warning for \p Finding of the profile at \p Path, or "" if
/// no function is stale: the shares of stale functions and of their counts,
/// up to three of their names, and what Kiln still uses.
std::string describeStaleProfile(llvm::StringRef Path,
                                 const StaleProfileFinding &Finding);

} // namespace kiln

#endif // KILN_SOURCES_STALEPROFILE_H

//===- kiln/Imports/ImportGraphReader.h - Import graph ----------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the ImportGraph of a ThinLTO link from its bitcode objects (and
/// archives of them) and profiles:
///  - the summaries, merged into one combined index as the thin link merges
///    them (module ids are the object paths, `lib.a(member.o)` for archive
///    members): functions, where they are defined, instruction counts,
///    the flags that forbid an import, the names the workload file matches;
///  - call counts: each call site's block frequency relative to its
///    function's entry (BlockFrequencyInfo over the bitcode's IR, so over
///    the branch weights `-fprofile-use` left there) times the function's
///    entry count, plus indirect calls' value-profile targets. The entry
///    count is the IR's own (`function_entry_count`) when the objects were
///    compiled with a profile, else the profiles' (see
///    ProfiledFunction::EntryCount).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_IMPORTGRAPHREADER_H
#define KILN_IMPORTS_IMPORTGRAPHREADER_H

#include "kiln/Imports/ImportPlanner.h"
#include "kiln/Sources/Profile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kiln {
namespace imports {

/// A profile and its weight (`--scenario=kind=path:weight`).
struct WeightedProfile {
  const LayoutProfile *Profile = nullptr;
  double Weight = 1.0;
};

/// How well one profile matched the objects.
struct ProfileMatch {
  std::string Path;
  size_t Executed = 0; ///< Functions with a non-zero entry count.
  size_t Matched = 0;  ///< Of those, functions the objects define.
};

/// The graph and what reading it found.
struct ImportInputs {
  ImportGraph Graph;
  /// Per module: the source file name (what `-print-imports` prints).
  std::vector<std::string> SourceFileNames;
  std::vector<ProfileMatch> Profiles;
  unsigned NumInputFiles = 0;
  /// Defined functions whose entry count came from the IR, from a profile.
  size_t NumCountsFromIR = 0;
  size_t NumCountsFromProfile = 0;
};

/// Reads \p Paths (bitcode objects, archives of them; native objects are
/// skipped with a warning) and weighs their calls with the IR's counts or
/// \p Profiles. Problems that leave part of the inputs unplanned go to
/// \p Warn ("file: ...") as they are found. \returns an error naming the
/// file for unreadable inputs, when no input has a ThinLTO summary, when
/// neither the objects nor the profiles give counts, and when a profile
/// names none of the objects' functions.
llvm::Expected<ImportInputs>
readImportInputs(llvm::ArrayRef<std::string> Paths,
                 llvm::ArrayRef<WeightedProfile> Profiles,
                 llvm::function_ref<void(const llvm::Twine &)> Warn);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_IMPORTGRAPHREADER_H

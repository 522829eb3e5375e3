//===- kiln/Tools/ProfileMerge.h - Weighted instrumented merges -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Merging and scaling instrumented profiles in process, with LLVM's
/// InstrProfReader and InstrProfWriter, the way `llvm-profdata merge` does
/// with its defaults (the same writer settings: at most 100 temporal traces
/// of at most 10000 functions each), so that `kiln profile merge`,
/// `kiln profile scale` and the guided flow (`kiln pgo`) share one
/// implementation and no user needs `llvm-profdata --weighted-input`.
///
/// Weights multiply counts, saturating at LLVM's largest count (never
/// wrapping). Temporal profile traces are kept as they are, each with its
/// own weight (a raw profile's weigh 1): a trace's weight counts runs, not
/// executions, so multiplying counts must not change it. The profile kind
/// (IR or front-end, context-sensitive, entry-first, temporal) is kept;
/// inputs of kinds LLVM cannot merge are refused.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PROFILEMERGE_H
#define KILN_TOOLS_PROFILEMERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// One instrumented profile (raw, indexed or text) to merge.
struct WeightedProfileInput {
  std::string Path; ///< Read from, and named in messages.
  /// When set, the profile's bytes (Path then only names it).
  const llvm::MemoryBuffer *Contents = nullptr;
  uint64_t Weight = 1; ///< Multiplies every count; at least 1.
};

/// A merged profile, indexed, in memory.
struct MergedProfile {
  std::unique_ptr<llvm::MemoryBuffer> Indexed;
  uint64_t Functions = 0;      ///< Records (name and hash) written.
  uint64_t TemporalTraces = 0; ///< Traces written.
  uint64_t EmptyRawInputs = 0; ///< Raw profiles without data, skipped.
  bool IsIRLevel = false;
  bool IsContextSensitive = false;
  /// `<input>: <what>` for what LLVM merged with a loss: saturated counts,
  /// functions whose hash or counter count differ between inputs (the
  /// later input's record is dropped, as llvm-profdata does).
  std::vector<std::string> Warnings;
};

/// \returns \p A times \p B, or UINT64_MAX if the product does not fit.
uint64_t multiplySaturating(uint64_t A, uint64_t B);

/// Merges \p Inputs, each's counts multiplied by its weight. \returns the
/// indexed profile, or an error `<input>: <reason>` if an input cannot be
/// read (missing, corrupt, a sample profile), has a weight of 0, or is of a
/// kind that cannot be merged with the others; or if no input has data.
/// With \p Sparse, functions whose every count is zero are left out (as
/// `llvm-profdata merge --sparse` does): the compiler then knows nothing of
/// them, rather than that they never run.
llvm::Expected<MergedProfile>
mergeInstrProfiles(llvm::ArrayRef<WeightedProfileInput> Inputs,
                   bool Sparse = false);

/// Merges \p Inputs into \p Output, written through an OutputFile (a
/// temporary renamed into place). \returns the merge's summary (without the
/// bytes), or the error of the merge or of the write.
llvm::Expected<MergedProfile>
mergeInstrProfilesToFile(llvm::ArrayRef<WeightedProfileInput> Inputs,
                         llvm::StringRef Output, bool Sparse = false);

} // namespace kiln

#endif // KILN_TOOLS_PROFILEMERGE_H

//===- kiln/Tools/TrainingCoverage.h - How much a profile ran ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The coverage of an instrumented profile: how many of the program's
/// instrumented functions its runs executed, and how many of their
/// counters (IR PGO places about one on each branch edge that a spanning
/// tree does not imply) counted anything. An instrumented program writes a
/// record for every instrumented function, run or not, so the profile alone
/// gives both the numerator and the denominator.
///
/// The guided flow uses it to say when the training is thin: every
/// function and branch the training never ran is, to the compile profile,
/// code that never runs (optimized for size, split into a cold part, laid
/// out away from the hot code), and a workload that runs it pays for that.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_TRAININGCOVERAGE_H
#define KILN_TOOLS_TRAININGCOVERAGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace kiln {

/// What a profile's runs executed of the instrumented program.
struct TrainingCoverage {
  uint64_t Functions = 0;         ///< Records (name and hash) in the profile.
  uint64_t ExecutedFunctions = 0; ///< Records with a non-zero counter.
  uint64_t Counters = 0;          ///< Counters of all records.
  uint64_t NonZeroCounters = 0;   ///< Counters that counted anything.

  /// \returns the share, in [0, 1], of the functions that ran (0 for an
  /// empty profile).
  double functionShare() const;
  /// \returns the share, in [0, 1], of the counters that counted.
  double counterShare() const;
  /// \returns whether the training covers too little of the program for
  /// its zero counts to mean "never runs": fewer than
  /// \p MinFunctionShare of the functions, or fewer than
  /// \p MinCounterShare of the counters, ran.
  bool isThin(double MinFunctionShare, double MinCounterShare) const;
  /// \returns `N of M functions (P%), K% of their counters`.
  std::string describe() const;
};

/// The coverage of the instrumented profiles at \p Paths (indexed, raw or
/// text) together: a function ran, or a counter counted, if it did in any
/// of them; a function is one record (name and structural hash) however
/// many profiles hold it. \returns an error `<path>: <reason>` for the
/// first profile that cannot be read or is not an instrumented profile.
llvm::Expected<TrainingCoverage>
readTrainingCoverage(llvm::ArrayRef<std::string> Paths);

} // namespace kiln

#endif // KILN_TOOLS_TRAININGCOVERAGE_H

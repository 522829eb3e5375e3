//===- kiln/Layout/Counts.h - Saturating count arithmetic -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one place where the layout engine does arithmetic on execution and
/// call counts. Counts are exact unsigned 64-bit integers end to end: sums
/// saturate at UINT64_MAX instead of wrapping (a profile of 2^64-1 calls
/// stays the hottest edge), a count scaled by an integral scenario weight is
/// an exact product, and the only conversion from floating point (a
/// fractional weight) is checked. Scenario weights are range-checked where
/// they are parsed, with isValidScenarioWeight.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_COUNTS_H
#define KILN_LAYOUT_COUNTS_H

#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace kiln::layout {

/// The largest and smallest scenario weights accepted: a factor of a
/// million either way is more than any mix of scenarios needs, and keeps
/// every scaled count far from floating-point trouble.
inline constexpr double MaxScenarioWeight = 1e6;
inline constexpr double MinScenarioWeight = 1e-6;

/// \returns whether \p Weight can weigh a scenario: finite and within
/// [MinScenarioWeight, MaxScenarioWeight].
inline bool isValidScenarioWeight(double Weight) {
  return Weight >= MinScenarioWeight && Weight <= MaxScenarioWeight;
}

/// \returns \p A + \p B, or UINT64_MAX if the sum does not fit.
inline uint64_t addCounts(uint64_t A, uint64_t B) {
  return llvm::SaturatingAdd(A, B);
}

/// \returns \p Value rounded down to a count: 0 for negative or NaN values,
/// UINT64_MAX for values of 2^64 and above.
inline uint64_t toCount(double Value) {
  if (!(Value > 0))
    return 0;
  return Value >= 0x1p64 ? UINT64_MAX : uint64_t(Value);
}

/// \returns \p Count x \p Weight, rounded down, saturating: exact when the
/// weight is an integer (1 included), through toCount otherwise.
inline uint64_t scaleCount(uint64_t Count, double Weight) {
  if (Weight == 1.0)
    return Count;
  if (Weight >= 1.0 && Weight < 0x1p64 && Weight == double(uint64_t(Weight)))
    return llvm::SaturatingMultiply(Count, uint64_t(Weight));
  return toCount(Weight * double(Count));
}

} // namespace kiln::layout

#endif // KILN_LAYOUT_COUNTS_H

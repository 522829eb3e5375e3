//===- BlockProfile.cpp - Machine basic block profile ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/BlockProfile.h"

#include "kiln/Layout/Counts.h"

#include <algorithm>

namespace kiln::layout {

uint64_t getWeightedCount(const BlockProfile &Profile,
                          const ScenarioCounts &Counts, ScenarioKind Kind) {
  uint64_t Total = 0;
  for (size_t S = 0, E = std::min(Counts.size(), Profile.Scenarios.size());
       S != E; ++S)
    if (Profile.Scenarios[S].Kind == Kind)
      Total =
          addCounts(Total, scaleCount(Counts[S], Profile.Scenarios[S].Weight));
  return Total;
}

} // namespace kiln::layout

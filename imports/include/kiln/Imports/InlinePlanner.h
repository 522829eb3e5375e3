//===- kiln/Imports/InlinePlanner.h - Cross-module inline plan --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One plan for ThinLTO's two cross-module decisions: which hot call sites
/// into other modules the backends inline, under a growth budget summed over
/// the whole program, and the imports exactly those decisions need. Data
/// only, over the ImportGraph of ImportPlanner.h.
///
/// The model: inlining call site S of module M into callee F (defined in
/// another module) adds F's instruction count to the program (the growth;
/// the imported body itself is available_externally and dropped after the
/// backend) and needs F imported into M. Greedy by profiled count per
/// instruction of growth; a site whose growth does not fit is skipped and
/// smaller ones are still tried. A site the profile never ran (count 0) is
/// never planned, so the plan imports nothing that no scenario executes.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_INLINEPLANNER_H
#define KILN_IMPORTS_INLINEPLANNER_H

#include "kiln/Imports/ImportPlanner.h"

#include <cstdint>
#include <vector>

namespace kiln {
namespace imports {

/// The inline planner's limits.
struct InlinePlanConfig {
  /// Instructions the planned inlining adds, summed over the program.
  uint64_t GrowthBudget = 0;
  /// Callees with more instructions are never planned (see
  /// ImportPlanConfig::MaxImportSize).
  uint32_t MaxCalleeSize = 600;
};

/// The inline decisions and the imports they need.
struct InlinePlan {
  /// Indices into ImportGraph::CallSites of the sites to inline, in the
  /// order chosen.
  std::vector<size_t> Sites;
  /// One import per (module, callee) the sites need; Weight is the planned
  /// sites' count. LeftOut lists the (module, callee) pairs with profiled
  /// cross-module sites of which none is planned, with the reason.
  ImportPlan Imports;
  /// Instructions the planned inlining adds.
  uint64_t Growth = 0;
  /// Cross-module direct call sites the profile ran, and of those, the ones
  /// no budget could plan (callee not importable or too large).
  size_t NumCandidates = 0;
  size_t NumIneligible = 0;
  /// Cross-module direct call sites the profile never ran: never planned.
  size_t NumNeverRun = 0;
};

/// Plans cross-module inlining over \p Graph's call sites within \p Config.
/// Deterministic: ties between equally dense sites go to the heavier, then
/// by caller, callee and module name, then ordinal.
InlinePlan planInlining(const ImportGraph &Graph,
                        const InlinePlanConfig &Config);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_INLINEPLANNER_H

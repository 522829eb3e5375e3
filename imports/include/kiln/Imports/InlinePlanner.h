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
/// another module) needs F imported into M and adds F's instructions, less
/// the call it replaces, to the program (the growth; the imported body is
/// available_externally and dropped after the backend). Once S is inlined,
/// F's own call sites run on M's behalf: each becomes a candidate of M with
/// the share of its count that S's count is of F's flow, so the plan
/// inlines (and imports) transitively, as LLVM's importer imports. Greedy
/// by count per instruction of growth; a site whose growth does not fit is
/// skipped and smaller ones are still tried. A site the profile never ran
/// (count 0) is never planned, so the plan imports nothing that no
/// scenario executes.
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

/// Instructions a call costs at its site (the call, argument and result
/// moves): inlining a callee of at most this many adds nothing.
constexpr uint32_t CallInstructions = 4;

/// \returns the instructions inlining \p Callee adds at one site.
uint64_t getInlineGrowth(const ImportFunction &Callee);

/// One site to inline.
struct PlannedSite {
  /// The module whose backend inlines it: the site's own module, or one
  /// into which the plan inlines the site's caller.
  ModuleId Into = NoModule;
  size_t Site = 0; ///< Index into ImportGraph::CallSites.
  /// Its count on Into's behalf.
  uint64_t Count = 0;
};

/// The inline decisions and the imports they need.
struct InlinePlan {
  /// The sites to inline, in the order chosen.
  std::vector<PlannedSite> Sites;
  /// One import per (module, callee) the sites need; Weight is the planned
  /// sites' count, DirectWeight the part of the module's own sites, Via the
  /// caller of a transitive site. LeftOut lists the (module, callee) pairs with
  /// profiled cross-module sites of which none is planned, with the reason.
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
/// by caller, callee and module name, then ordinal. NumCandidates,
/// NumIneligible and NumNeverRun count the modules' own sites.
InlinePlan planInlining(const ImportGraph &Graph,
                        const InlinePlanConfig &Config);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_INLINEPLANNER_H

//===- kiln/Imports/ImportPlanner.h - Import plan ---------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which functions each ThinLTO module should import, chosen over the whole
/// profiled call graph under an instruction budget. The interface is data
/// only (names, sizes, counts in; a plan out), with no LLVM IR or summary
/// types, so that the algorithm can be tested on literal graphs;
/// ImportGraphReader.h fills the graph from bitcode objects.
///
/// The model: a call from module M to a function F defined in another
/// module can be inlined only if F's body is imported into M. Importing F
/// into M costs F's instruction count (the summary's instCount) and makes
/// the profiled count of M's calls to F inlinable. Once F is imported, F's
/// own calls execute on M's behalf: a callee G of F gains the share of F's
/// calls to G that M's calls to F account for, which is how the plan
/// imports transitively, as LLVM's default importer does. Greedy by
/// weight per instruction, with stable tie-breaks by name.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_IMPORTPLANNER_H
#define KILN_IMPORTS_IMPORTPLANNER_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace kiln {
namespace imports {

/// Index into ImportGraph::Modules.
using ModuleId = uint32_t;
/// Index into ImportGraph::Functions.
using FunctionId = uint32_t;
constexpr ModuleId NoModule = std::numeric_limits<ModuleId>::max();
constexpr FunctionId NoFunction = std::numeric_limits<FunctionId>::max();

/// A global function of the link.
struct ImportFunction {
  /// The name as the thin link's index has it (a local function's plain
  /// name), which is what `-thinlto-workload-def` matches.
  std::string Name;
  /// Modules that define it, the copy an import takes first (the linker's
  /// prevailing copy is the first in link order). Empty for functions the
  /// inputs only call.
  std::vector<ModuleId> DefinedIn;
  /// The summary's instruction count of that copy.
  uint32_t InstCount = 0;
  /// Empty if the definition may be imported; otherwise why not
  /// ("noinline", "interposable linkage", ...).
  std::string NotImportable;
  /// The workload file can name it as a root: its name finds it in the
  /// index, and it has exactly one definition.
  bool CanBeRoot = false;
  /// How often it ran (entry count), for the flow of transitive weights.
  uint64_t EntryCount = 0;
};

/// Calls made in one module from one function to another (merged over call
/// sites).
struct ImportCall {
  ModuleId Module = NoModule;
  FunctionId Caller = NoFunction;
  FunctionId Callee = NoFunction;
  uint64_t Count = 0;
};

/// One direct call site, as the inline planner sees it. Its identity is the
/// caller, the callee and the site's ordinal among the caller's direct calls
/// to that callee in instruction order (of the pre-link bitcode the thin
/// link reads), which the backend can count again.
struct ImportCallSite {
  ModuleId Module = NoModule;
  FunctionId Caller = NoFunction;
  FunctionId Callee = NoFunction;
  /// 0 for the caller's first direct call to Callee.
  uint32_t Ordinal = 0;
  /// The caller's direct calls to Callee, this one included.
  uint32_t NumSites = 1;
  /// The site's profiled count.
  uint64_t Count = 0;
};

/// The profiled call graph of a ThinLTO link.
struct ImportGraph {
  std::vector<std::string> Modules;
  std::vector<ImportFunction> Functions;
  std::vector<ImportCall> Calls;
  /// Direct call sites with their own counts (Calls merges them per caller
  /// and callee and adds indirect calls), sorted by module, caller, callee
  /// and ordinal. Only the first copy of a caller defined in several modules
  /// has its sites here, as in Calls.
  std::vector<ImportCallSite> CallSites;
};

/// The planner's limits.
struct ImportPlanConfig {
  /// Instructions imported over all modules together.
  uint64_t Budget = std::numeric_limits<uint64_t>::max();
  /// Instructions imported into any one module.
  uint64_t ModuleBudget = std::numeric_limits<uint64_t>::max();
  /// Functions with more instructions are never imported: the inliner
  /// would not inline them even at a hot call site (LLVM's
  /// inline-hot-callsite-threshold, 3000, over its cost of 5 per
  /// instruction).
  uint32_t MaxImportSize = 600;
};

/// One planned import.
struct PlannedImport {
  ModuleId Into = NoModule;
  FunctionId Function = NoFunction;
  /// Profiled calls into it on Into's behalf when it was chosen: Into's own
  /// calls plus the share of calls made by functions imported before it.
  uint64_t Weight = 0;
  /// Of Weight, the part from Into's own calls.
  uint64_t DirectWeight = 0;
  /// The imported function that contributed most of the transitive weight
  /// (NoFunction when Into calls it directly only).
  FunctionId Via = NoFunction;
};

/// Why a candidate was not imported.
enum class LeftOutReason {
  NotImportable, ///< ImportFunction::NotImportable says why.
  TooLarge,      ///< Larger than ImportPlanConfig::MaxImportSize.
  Budget,        ///< It did not fit in the total budget.
  ModuleBudget,  ///< It did not fit in its module's budget.
};

/// A (module, function) pair with profiled calls that the plan does not
/// import.
struct LeftOutImport {
  ModuleId Into = NoModule;
  FunctionId Function = NoFunction;
  uint64_t Weight = 0;
  LeftOutReason Reason = LeftOutReason::Budget;
};

/// The plan: imports in the order chosen, and what was left out.
struct ImportPlan {
  std::vector<PlannedImport> Imports;
  /// Heaviest first (ties by module, then function name).
  std::vector<LeftOutImport> LeftOut;
  /// Instructions imported, in total and per module.
  uint64_t Cost = 0;
  std::vector<uint64_t> ModuleCost;
  /// Profiled calls into other modules' functions (the candidates' direct
  /// weight) and the part of it the plan makes inlinable.
  uint64_t CrossModuleWeight = 0;
  uint64_t PlannedDirectWeight = 0;
};

/// Plans imports over \p Graph within \p Config's limits. Candidates with
/// no profiled call are never imported, so a budget of 0 or a graph
/// without counts plans nothing. Deterministic: ties between equally dense
/// candidates go to the heavier, then by function name, then module name.
ImportPlan planImports(const ImportGraph &Graph,
                       const ImportPlanConfig &Config);

/// \returns a short text for \p Reason ("budget", "too large", ...).
const char *getLeftOutReasonName(LeftOutReason Reason);

} // namespace imports
} // namespace kiln

#endif // KILN_IMPORTS_IMPORTPLANNER_H

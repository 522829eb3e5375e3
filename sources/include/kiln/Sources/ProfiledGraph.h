//===- kiln/Sources/ProfiledGraph.h - The one graph builder -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one builder of Kiln's profiled call graph from what users have: the
/// functions of a link's inputs become the nodes (the key rule: a global by
/// its name, a static by `<object>:<name>`); each scenario's profile is
/// resolved onto them (counts, indirect calls, temporal traces) through the
/// SymbolResolver; the inputs' call-graph sections and lld edge lists add
/// calls, under the count rule of call-only sources (addCallsWithCallee
/// Counts); load-time code joins the first startup scenario. `kiln order`,
/// `kiln callgraph`, `kiln eval` and kiln-lld all build their graph here,
/// and every profile reports how much of it bound to a function.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_PROFILEDGRAPH_H
#define KILN_SOURCES_PROFILEDGRAPH_H

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/PhaseTimes.h"
#include "kiln/Sources/EdgeList.h"
#include "kiln/Sources/LinkerInputs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace llvm::json {
class OStream;
} // namespace llvm::json

namespace kiln {

/// A profile that makes one scenario.
struct ScenarioSpec {
  layout::ScenarioKind Kind = layout::ScenarioKind::SteadyState;
  std::string Path; ///< An instrumented profile (.profdata or text).
  double Weight = 1.0;
};

/// Parses `<kind>=<path>[:<weight>]` where kind is `startup` or `steady`
/// and the weight is within layout::isValidScenarioWeight's range (the
/// `--scenario=` spelling of every kiln subcommand).
llvm::Expected<ScenarioSpec> parseScenarioSpec(llvm::StringRef Spec);

/// Parses each of \p Specs with parseScenarioSpec.
llvm::Expected<std::vector<ScenarioSpec>>
parseScenarioSpecs(llvm::ArrayRef<std::string> Specs);

/// What goes into the graph besides the scenarios' profiles.
struct GraphOptions {
  /// Use the inputs' call-graph-profile sections as a steady-state scenario.
  bool UseObjectCallGraph = true;
  /// lld edge lists (linker names), as one more steady-state scenario.
  std::vector<std::shared_ptr<const EdgeListData>> EdgeLists;
  /// Count load-time code (InputFunction::RunsAtLoad) as executed by the
  /// first startup scenario, so that it joins the startup group.
  bool PlaceLoadCodeAtStartup = true;
  /// Where to time the phases of building (`--time-phases`); none if null.
  layout::PhaseTimes *Times = nullptr;
};

/// How one profile mapped onto the inputs.
struct ProfileCoverage {
  std::string Path;
  std::string Scenario;        ///< "startup" or "steady".
  uint64_t Executed = 0;       ///< Functions with a non-zero count.
  uint64_t Bound = 0;          ///< ... bound to one input function.
  uint64_t ExecutedWeight = 0; ///< Their summed counts (saturating).
  uint64_t BoundWeight = 0;    ///< ... of those bound.
  /// Executed profile names left out, with the reason.
  std::vector<std::pair<std::string, std::string>> Unbound;
};

/// Kiln's rule for "this profile does not belong to this link", applied by
/// every command that binds a profile to a link's functions. A profile
/// belongs when both hold:
///  - most of its execution binds: the functions that bind carry at least
///    half of its counts (a profile of another program, or of a very old
///    version, spends its counts in functions the link does not have);
///  - it names enough of the link: at least ProfileMinBoundFunctions of its
///    executed functions bind, or, in a link of fewer functions
///    than ProfileMinLinkFunctions, at least one (another program that
///    shares `main` and a helper binds a handful of a large link's
///    functions, and ordering those replaces the linker's own sort with a
///    worse one).
inline constexpr uint64_t ProfileMinBoundFunctions = 8;
inline constexpr uint64_t ProfileMinLinkFunctions = 100;

/// \returns why the profile of \p Coverage does not belong to a link of
/// \p NumLinkFunctions functions (the shares that bound), or std::nullopt
/// if it does.
std::optional<std::string> whyProfileIsForeign(const ProfileCoverage &Coverage,
                                               uint64_t NumLinkFunctions);

/// Writes \p C's attributes into the JSON object being written to \p J:
/// path, scenario, the executed and bound functions and counts, then what
/// \p Extra writes, then every unbound name with its reason (the one JSON
/// spelling of a profile's coverage, for every report).
void writeCoverageJSON(llvm::json::OStream &J, const ProfileCoverage &C,
                       llvm::function_ref<void()> Extra = {});

struct ProfiledGraph;

/// Warns on \p Diag (as \p Program) of each profile of \p G that does not
/// belong to its link (whyProfileIsForeign). \returns how many it warned
/// of.
unsigned warnOfForeignProfiles(const ProfiledGraph &G, llvm::StringRef Program,
                               llvm::raw_ostream &Diag);

/// The inputs' functions as a call graph, with the scenarios' profiles bound
/// onto them.
struct ProfiledGraph {
  layout::CallGraph Graph;
  /// Per graph node, its input function, or -1 for callees no input
  /// defines (shared-library functions).
  std::vector<int64_t> FunctionOfNode;
  std::vector<ProfileCoverage> Coverage;
  /// The link's functions (graph nodes of input functions), for
  /// whyProfileIsForeign.
  uint64_t NumLinkFunctions = 0;
  /// Load-time functions (indices into LinkerInputs::Functions) that no
  /// startup profile counted, counted once by GraphOptions::
  /// PlaceLoadCodeAtStartup.
  std::vector<size_t> LoadCodeAtStartup;
};

/// Builds the ProfiledGraph of \p Inputs: one node per function, the
/// inputs' call-graph sections as a steady-state scenario "objects" (if
/// \p Options.UseObjectCallGraph), one scenario per profile of \p Scenarios,
/// and \p Options.EdgeLists as a scenario "edges". \returns an error naming
/// the file for unreadable profiles or edge lists.
llvm::Expected<ProfiledGraph>
buildProfiledGraph(const LinkerInputs &Inputs,
                   llvm::ArrayRef<ScenarioSpec> Scenarios,
                   const GraphOptions &Options);

/// \returns the CallGraph key of \p F: its name if it is global, and
/// `<object>:<name>` if it is local, so that same-named statics of
/// different objects stay distinct nodes.
std::string getNodeKey(const InputFunction &F);

/// The count rule of sources that record calls only (object call-graph
/// sections, lld edge lists): each call is also an execution of its callee,
/// so a callee's count in scenario \p S grows by its incoming calls. Adds
/// \p Calls (endpoints are indices into \p NodeOf; a call with an endpoint
/// mapped to InvalidNode is left out) as edges and those counts.
void addCallsWithCalleeCounts(layout::CallGraph &G, layout::ScenarioId S,
                              llvm::ArrayRef<layout::Edge> Calls,
                              llvm::ArrayRef<layout::NodeId> NodeOf);

} // namespace kiln

#endif // KILN_SOURCES_PROFILEDGRAPH_H

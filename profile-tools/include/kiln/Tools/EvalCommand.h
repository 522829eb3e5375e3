//===- kiln/Tools/EvalCommand.h - The work of `kiln eval` -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln eval`: how good is the code layout of a linked program for a
/// profile? Per scenario, the distinct code pages holding functions that ran
/// (the startup page-fault and iTLB working-set proxy) at several page sizes,
/// beside the function-granularity lower bound; the share of call weight
/// within 64 B / 4 KiB / 2 MiB; the ext-TSP score of the layout.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_EVALCOMMAND_H
#define KILN_TOOLS_EVALCOMMAND_H

#include "kiln/Layout/LayoutEvaluation.h"
#include "kiln/Sources/ProfiledGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// How much of one page of code ran in a scenario: the heatmap's cell.
struct PageHeat {
  /// Bytes of the page that belong to executed functions; a page with none
  /// is not touched (the cells with bytes are layout::PageStats's pages).
  uint64_t ExecutedBytes = 0;
  /// The summed execution counts (entry counts or samples) of the executed
  /// functions on the page.
  uint64_t Count = 0;
};

/// The figures of one scenario of an evaluation.
struct ScenarioFigures {
  std::string Name; ///< As the graph names it (`<kind>:<profile>`).
  std::string Kind; ///< "startup", "steady", or "all" for the union.
  uint64_t ExecutedFunctions = 0;
  std::vector<layout::PageStats> Pages; ///< Per page size.
  /// Per page of the code (BinaryEvaluation::HeatPages from
  /// HeatFirstPage), when a heatmap was asked for.
  std::vector<PageHeat> Heat;
};

/// A cold part of a split function in the binary, with what the profile
/// says of the function it was split from (a part has no count of its own).
struct SplitPartFigures {
  std::string Name;      ///< `fn.cold`.
  std::string SplitFrom; ///< `fn`.
  uint64_t Size = 0;
  uint64_t ParentSize = 0; ///< 0 if the binary has no `fn`.
  /// The parent's count in each scenario of BinaryEvaluation::Scenarios
  /// but the union.
  std::vector<uint64_t> ParentCounts;
};

/// Everything `kiln eval` measures of a linked binary.
/// How many of the functions a profile says ran are functions of the
/// evaluated binary under one name: a function inlined into all its
/// callers, discarded, or of a name several functions share is not, and
/// counts as not run.
struct ProfileBinding {
  std::string Profile;   ///< The profile's path.
  uint64_t Executed = 0; ///< Functions with a non-zero count.
  uint64_t Unbound = 0;  ///< ... that are not in the binary under one name.
  /// Why the profile looks like another program's (whyProfileIsForeign), or
  /// "" when it belongs to the binary.
  std::string Foreign;
  uint64_t Bound = 0; ///< Executed functions that bind to the binary's.
  /// The executed functions' counts, and the share of the bound ones.
  uint64_t ExecutedCount = 0, BoundCount = 0;
};

struct BinaryEvaluation {
  uint64_t Functions = 0;
  /// Of Functions, the cold parts of split functions (`fn.cold`): evaluated
  /// as code of their own, so the figures are at part granularity.
  uint64_t SplitParts = 0;
  std::vector<uint64_t> PageSizes;
  std::vector<ScenarioFigures> Scenarios;
  layout::CallLocality Locality;
  double ExtTspScore = 0;
  /// The heatmap's page size (0: no heatmap), its first page (the page of
  /// the lowest function, as an address) and how many pages it spans, up
  /// to the page of the highest function's last byte.
  uint64_t HeatPageSize = 0;
  uint64_t HeatFirstPage = 0;
  uint64_t HeatPages = 0;
  /// The split parts, in address order.
  std::vector<SplitPartFigures> Parts;
  /// Per profile given, in order.
  std::vector<ProfileBinding> Bindings;
};

/// Evaluates the linked \p Binary for \p Scenarios (and \p EdgeLists for
/// the call locality) at \p PageSizes, with a heatmap at \p HeatPageSize
/// (a power of two; 0 for none). With \p WarnOfBindings, executed functions
/// of a profile that bind to no function of the binary, and profiles that
/// look like another program's, are warned of on \p Diag;
/// BinaryEvaluation::Bindings records both either way.
llvm::Expected<BinaryEvaluation>
evaluateBinary(llvm::StringRef Binary, llvm::ArrayRef<ScenarioSpec> Scenarios,
               llvm::ArrayRef<std::string> EdgeLists,
               llvm::ArrayRef<uint64_t> PageSizes, uint64_t HeatPageSize,
               llvm::raw_ostream &Diag, bool WarnOfBindings = true);

struct EvalCommandOptions {
  std::string Binary;                 ///< The linked program or library.
  std::vector<std::string> Scenarios; ///< `<kind>=<profile>[:<weight>]`.
  std::vector<std::string> EdgeLists; ///< Calls for the locality figures.
  std::vector<uint64_t> PageSizes = {4096, 16384, 65536};
  bool JSON = false;
};

/// Runs `kiln eval`, printing to \p Out; warnings go to \p Diag.
llvm::Error runEvalCommand(const EvalCommandOptions &Opts,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_TOOLS_EVALCOMMAND_H

//===- kiln/Tools/ProfileMergeCommand.h - kiln profile merge ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln profile merge` and `kiln profile scale`, over ProfileMerge.h.
///
/// merge takes named, weighted scenarios
/// (`--scenario=<name>=<profile>[,<profile>...][:<weight>]`, the spelling of
/// every kiln subcommand's `--scenario=` with a name in place of the kind;
/// the scenario named `startup` is the startup kind, the others are steady)
/// and writes, in the output directory, each scenario's own indexed profile
/// `scenario-<name>.profdata` (its inputs merged unweighted: the identity
/// kiln-lld and kiln order need to order by scenario) and
/// `compile.profdata`, every scenario with its weight, times `--scale`, for
/// -fprofile-use. It prints the `--scenario=` arguments that order with the
/// scenario profiles and their weights.
///
/// scale multiplies one profile's counts by `--factor` (function splitting
/// wants the compile profile x64, docs/Passes/FunctionSplitting.rst).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PROFILEMERGECOMMAND_H
#define KILN_TOOLS_PROFILEMERGECOMMAND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// One `--scenario=` of kiln profile merge.
struct MergeScenario {
  std::string Name;
  std::vector<std::string> Profiles;
  uint64_t Weight = 1;
};

/// Parses `<name>=<profile>[,<profile>...][:<weight>]`: a scenario name
/// (checkScenarioName), its profiles, and a whole weight from 1 to
/// layout::MaxScenarioWeight (a trailing `:<digits>`; other colons belong to
/// the path).
llvm::Expected<MergeScenario> parseMergeScenario(llvm::StringRef Spec);

/// Parses the value of \p Option as a whole number of at least 1.
llvm::Expected<uint64_t> parseCountOption(llvm::StringRef Option,
                                          llvm::StringRef Value);

struct ProfileMergeOptions {
  std::vector<std::string> Scenarios; ///< The `--scenario=` specs.
  std::string Scale = "1";            ///< `--scale=`, as given.
  std::string OutputDir;              ///< `-o`.
};

/// Runs kiln profile merge; the summary goes to \p Out, warnings to \p Err.
/// Nothing is written unless every scenario merges.
llvm::Error runProfileMerge(const ProfileMergeOptions &Opts,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err);

struct ProfileScaleOptions {
  std::vector<std::string> Inputs; ///< Exactly one.
  std::string Factor;              ///< `--factor=`, as given.
  std::string Output;              ///< `-o`.
};

/// Runs kiln profile scale; the summary goes to \p Out, warnings to \p Err.
llvm::Error runProfileScale(const ProfileScaleOptions &Opts,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace kiln

#endif // KILN_TOOLS_PROFILEMERGECOMMAND_H

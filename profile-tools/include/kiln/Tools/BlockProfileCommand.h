//===- kiln/Tools/BlockProfileCommand.h - kiln block-profile ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln block-profile`: reads a linked binary's basic-block address map
/// and, per scenario, one or more profiles of that binary (callgrind, BOLT
/// `.fdata`, `perf script` branch stacks), and writes the block profile
/// (kiln/Sources/BlockProfileText.h) that `kiln block-layout` plans from.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_BLOCKPROFILECOMMAND_H
#define KILN_TOOLS_BLOCKPROFILECOMMAND_H

#include "kiln/Layout/CallGraph.h"
#include "kiln/Sources/BlockProfileSources.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kiln {

/// One `--scenario=` of kiln block-profile.
struct BlockScenarioSpec {
  layout::ScenarioKind Kind = layout::ScenarioKind::SteadyState;
  /// The scenario's name: the one given, or the kind's (`startup`,
  /// `steady`).
  std::string Name;
  std::vector<std::string> Files;
  double Weight = 1.0;
};

/// Parses `<kind>[:<name>]=<file>[,<file>...][:<weight>]`: kind `startup`
/// or `steady`, a scenario name (checkScenarioName), the profiles, and a
/// weight within layout::isValidScenarioWeight (a trailing `:<number>`;
/// other colons belong to the path).
llvm::Expected<BlockScenarioSpec> parseBlockScenarioSpec(llvm::StringRef Spec);

struct BlockProfileOptions {
  std::string Binary;                 ///< `--binary=`.
  std::vector<std::string> Scenarios; ///< The `--scenario=` specs.
  BlockProfileFormat Format = BlockProfileFormat::Auto;
  std::string Output = "-"; ///< `-o`.
  /// A profile none of whose records maps to a block adds nothing instead
  /// of failing, as long as one profile's do: the runs of a program that
  /// profile a shared library it loads need not reach the library's code.
  bool AcceptUnmappedFiles = false;
};

/// Runs kiln block-profile: one summary line per scenario to \p Out,
/// warnings to \p Err. Nothing is written unless every profile was read.
llvm::Error runBlockProfile(const BlockProfileOptions &Opts,
                            llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace kiln

#endif // KILN_TOOLS_BLOCKPROFILECOMMAND_H

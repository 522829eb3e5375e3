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

#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

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

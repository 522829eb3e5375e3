//===- kiln/Tools/ProfileCheckCommand.h - kiln profile check ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln profile check`: how well each scenario's profile matches a build
/// (its objects and archives, or the linked program): the executed functions
/// that bind to one function of the build and the share of the counts they
/// carry, why the others do not bind, and the verdict of Kiln's rule for a
/// profile that does not belong (kiln/Sources/ProfiledGraph.h). What binds is
/// what Kiln's order and reports use from a stale profile; the rest is
/// ignored. Exit status 1 when a profile does not belong.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PROFILECHECKCOMMAND_H
#define KILN_TOOLS_PROFILECHECKCOMMAND_H

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kiln {

struct ProfileCheckOptions {
  /// The build: objects and archives of the link, or the linked program.
  std::vector<std::string> Inputs;
  std::vector<std::string> Scenarios; ///< `<kind>=<profile>[:<weight>]`.
  bool JSON = false;
};

/// Prints the check to \p Out. \returns an error if an input or profile
/// cannot be read, or if a profile does not belong to the build.
llvm::Error runProfileCheck(const ProfileCheckOptions &Opts,
                            llvm::raw_ostream &Out);

} // namespace kiln

#endif // KILN_TOOLS_PROFILECHECKCOMMAND_H

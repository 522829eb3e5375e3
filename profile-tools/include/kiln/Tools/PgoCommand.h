//===- kiln/Tools/PgoCommand.h - The work of `kiln pgo` ---------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln pgo instrument|run|optimize|status`: the guided flow from a
/// project's own build command to a Kiln-optimized build
/// (docs/CommandGuide/kiln-pgo.rst). The phases run the user's build with
/// Kiln's compiler wrapper (kiln-cc) in CC/CXX and first on PATH; the
/// workspace and its manifest are PgoWorkspace.h, the flags PgoFlags.h.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PGOCOMMAND_H
#define KILN_TOOLS_PGOCOMMAND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// Where the flow's tools are.
struct PgoEnvironment {
  std::string KilnBinDir;  ///< kiln-cc and kiln-lld live here.
  std::string Plugin;      ///< KilnPlugin-22.so.
  std::string LLVMBinDir;  ///< clang, ld.lld, llvm-profdata, llvm-ar, ...
  std::string KilnVersion; ///< Recorded in the manifest.
};

/// Runs `kiln pgo <Args...>` (\p Args starts with the subcommand). `status`
/// and `--help` go to \p Out; progress and warnings to \p Err, so that the
/// output of the build and of the training command stays theirs. \returns an
/// error naming the step and the file for anything that fails, including a
/// build or training command that exits non-zero.
llvm::Error runPgoCommand(llvm::ArrayRef<std::string> Args,
                          const PgoEnvironment &Env, llvm::raw_ostream &Out,
                          llvm::raw_ostream &Err);

} // namespace kiln

#endif // KILN_TOOLS_PGOCOMMAND_H

//===- kiln/Passes/UntrainedCodeSize.h - Untrained code for size -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `-kiln-untrained-size-profile=<profdata>`: before the inliner of a compile
/// or ThinLTO pre-link compile, marks `optsize` every function the indexed
/// profile has no record of. With a sparse profile (partial training: the
/// functions no training ran are left out, so they are compiled as without
/// a profile rather than as never run) that is the code no training ran:
/// it keeps the branch weights and the inliner's call-site thresholds of a
/// compile without a profile, and is not unrolled, vectorized or aligned
/// for speed. The position is before PGO annotates the module, so the pass
/// reads the profile itself, by the names the annotation looks up.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_UNTRAINEDCODESIZE_H
#define KILN_PASSES_UNTRAINEDCODESIZE_H

#include "llvm/IR/PassManager.h"

#include <string>

namespace kiln {

/// \returns true if `-kiln-untrained-size-profile=` names a profile.
bool isUntrainedCodeSizeRequested();

/// Adds `optsize` to the defined functions the profile does not know. An
/// unreadable profile is reported (a warning naming it) and nothing changes.
class UntrainedCodeSizePass : public llvm::PassInfoMixin<UntrainedCodeSizePass> {
public:
  /// \p ProfilePath overrides `-kiln-untrained-size-profile=` when not empty.
  explicit UntrainedCodeSizePass(std::string ProfilePath = "")
      : ProfilePath(std::move(ProfilePath)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  std::string ProfilePath;
};

/// \returns true under `-kiln-untrained-size-after-inlining`.
bool isUntrainedCodeSizeAfterInliningRequested();

/// Adds `optsize` to a function without an entry count in a module with a
/// profile summary, once inlining into it is done.
class UntrainedCodeSizeAfterInliningPass
    : public llvm::PassInfoMixin<UntrainedCodeSizeAfterInliningPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &);
};

} // namespace kiln

#endif // KILN_PASSES_UNTRAINEDCODESIZE_H

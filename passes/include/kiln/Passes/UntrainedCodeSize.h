//===- kiln/Passes/UntrainedCodeSize.h - Untrained code, small -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `-kiln-untrained-size`: once the inliner is done with a function that has
/// no entry count in a module compiled with an instrumentation profile, the
/// function is optimized for size (`optsize`). With a sparse profile
/// (partial training: the functions no training ran are left out, so they
/// are compiled as without a profile rather than as never run) that is the
/// code no training ran. Its call sites keep the inliner's thresholds of a
/// compile without a profile, which is where partial training wins most of
/// its instructions; its own code is no longer unrolled, vectorized or
/// aligned for speed. The pass runs at the CGSCC optimizer's late extension
/// point: after the inliner, before the function simplification pipeline,
/// of each function in turn. docs/Passes/UntrainedCodeSize.rst has what it
/// costs and saves.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_UNTRAINEDCODESIZE_H
#define KILN_PASSES_UNTRAINEDCODESIZE_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// \returns true under `-kiln-untrained-size`.
bool isUntrainedCodeSizeRequested();

/// Adds `optsize` to a function without an entry count in a module with a
/// profile summary.
class UntrainedCodeSizePass
    : public llvm::PassInfoMixin<UntrainedCodeSizePass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace kiln

#endif // KILN_PASSES_UNTRAINEDCODESIZE_H

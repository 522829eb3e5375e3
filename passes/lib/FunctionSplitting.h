//===- FunctionSplitting.h - Kiln's settings for machine function splitting
//===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `-kiln-split-functions`: turns on LLVM's machine function splitter in the
/// code generation of the plugin's host (clang, the ThinLTO backends and full
/// LTO in lld) with Kiln's threshold -- only blocks that no training run
/// executed go to the function's cold part. Code generation runs under the
/// legacy pass manager, where a pass plugin cannot add passes, so Kiln sets
/// the splitter's own options instead. It does so from a module pass at the
/// end of the optimization pipeline, where the target is known: the splitter
/// supports ELF on x86-64 and AArch64 only (LLVM 22 crashes splitting COFF or
/// Mach-O code), and the options must be set before code generation reads
/// them, which every host does after the optimization pipeline.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_FUNCTIONSPLITTING_H
#define KILN_PASSES_LIB_FUNCTIONSPLITTING_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// \returns true if `-kiln-split-functions` was given.
bool isFunctionSplittingRequested();

/// Sets LLVM's splitter options when the module's target supports splitting
/// (for every module, since a host may reset options between compilations;
/// options the user gave explicitly are kept); otherwise, or when those
/// options keep the splitter from splitting by the profile, warns that the
/// module's functions are not split. Changes no IR.
class FunctionSplittingSetupPass
    : public llvm::PassInfoMixin<FunctionSplittingSetupPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace kiln

#endif // KILN_PASSES_LIB_FUNCTIONSPLITTING_H

//===- UntrainedCodeSize.cpp - Optimize the code no training ran for size -===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// kiln-untrained-size: see kiln/Passes/UntrainedCodeSize.h. Each function it
/// marks gets a `kiln-untrained-size` analysis remark
/// (`-pass-remarks-analysis=kiln-untrained-size`).
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/UntrainedCodeSize.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "kiln-untrained-size"

static cl::opt<bool> UntrainedSize(
    "kiln-untrained-size", cl::init(false),
    cl::desc("once the inliner is done with a function that has no entry "
             "count in a module compiled with an instrumentation profile, "
             "optimize it for size (optsize): with a sparse profile, the code "
             "no training ran"));

bool kiln::isUntrainedCodeSizeRequested() { return UntrainedSize; }

// \returns true if \p M was compiled with an instrumentation profile: only
// there does a function without an entry count mean one no training ran (a
// sample profile leaves unsampled functions without one too).
static bool hasInstrumentationProfile(const Module &M) {
  Metadata *Summary = M.getProfileSummary(/*IsCS=*/false);
  if (!Summary)
    return false;
  std::unique_ptr<ProfileSummary> PS(ProfileSummary::getFromMD(Summary));
  return PS && PS->getKind() == ProfileSummary::PSK_Instr;
}

PreservedAnalyses
kiln::UntrainedCodeSizePass::run(Function &F, FunctionAnalysisManager &FAM) {
  if (F.isDeclaration() || F.hasOptSize() || F.hasOptNone() ||
      F.getEntryCount() || !hasInstrumentationProfile(*F.getParent()))
    return PreservedAnalyses::all();
  F.addFnAttr(Attribute::OptimizeForSize);
  OptimizationRemarkEmitter &ORE =
      FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Untrained", &F)
           << "no entry count (no training ran it): optimized for size";
  });
  // An attribute: the analyses of the function's code still hold.
  return PreservedAnalyses::all();
}

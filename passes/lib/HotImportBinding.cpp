//===- HotImportBinding.cpp - Hot imports called through the GOT ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// kiln-bind-hot-imports: see kiln/Passes/HotImportBinding.h. Each function
/// it marks gets a `kiln-bind-hot-imports` analysis remark
/// (`-pass-remarks-analysis=kiln-bind-hot-imports`) at the first hot call
/// that made it.
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/HotImportBinding.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

#define DEBUG_TYPE "kiln-bind-hot-imports"

static cl::opt<bool> BindHotImports(
    "kiln-bind-hot-imports", cl::init(false),
    cl::desc("at the end of each optimization pipeline with an "
             "instrumentation profile, call the functions another object "
             "provides through their GOT entries (nonlazybind) where a hot "
             "block calls them, instead of their PLT entries"));

bool kiln::isHotImportBindingRequested() { return BindHotImports; }

/// \returns true if a call of \p F goes through its PLT entry unless it is
/// marked: a function the module declares, that the program may not define
/// (a `dso_local` one is called directly), that is not an intrinsic.
static bool calledThroughPLT(const Function &F) {
  return F.isDeclaration() && !F.isIntrinsic() && !F.isDSOLocal() &&
         !F.hasFnAttribute(Attribute::NonLazyBind);
}

PreservedAnalyses kiln::HotImportBindingPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  ProfileSummaryInfo &PSI = MAM.getResult<ProfileSummaryAnalysis>(M);
  if (!PSI.hasInstrumentationProfile())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &Caller : M) {
    if (Caller.isDeclaration() || !Caller.getEntryCount())
      continue;
    BlockFrequencyInfo *BFI = nullptr;
    for (BasicBlock &BB : Caller)
      for (Instruction &I : BB) {
        auto *Call = dyn_cast<CallBase>(&I);
        Function *Callee = Call ? Call->getCalledFunction() : nullptr;
        if (!Callee || !calledThroughPLT(*Callee))
          continue;
        if (!BFI)
          BFI = &FAM.getResult<BlockFrequencyAnalysis>(Caller);
        if (!PSI.isHotBlock(&BB, BFI))
          continue;
        Callee->addFnAttr(Attribute::NonLazyBind);
        OptimizationRemarkEmitter &ORE =
            FAM.getResult<OptimizationRemarkEmitterAnalysis>(Caller);
        ORE.emit([&] {
          return OptimizationRemarkAnalysis(DEBUG_TYPE, "BoundAtLoad", Call)
                 << ore::NV("Callee", Callee)
                 << " called through its GOT entry: a hot block calls it";
        });
      }
  }
  // An attribute of declarations: no analysis of a function's code changes.
  return PreservedAnalyses::all();
}

//===- UntrainedCodeSize.cpp - Optimize the code no training ran for size -===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// kiln-untrained-size: see kiln/Passes/UntrainedCodeSize.h. Each function
/// marked gets a `kiln-untrained-size` analysis remark
/// (`-pass-remarks-analysis=kiln-untrained-size`).
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/UntrainedCodeSize.h"
#include "Diagnostics.h"

#include "kiln/Support/InputFile.h"

#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;

#define DEBUG_TYPE "kiln-untrained-size"

static cl::opt<std::string> UntrainedSizeProfile(
    "kiln-untrained-size-profile", cl::value_desc("profdata"), cl::init(""),
    cl::desc("before the inliner of a compile or ThinLTO pre-link compile, "
             "optimize for size (optsize) the functions this indexed profile "
             "has no record of: with a sparse profile, the code no training "
             "ran"));

static cl::opt<bool> UntrainedSizeAfterInlining(
    "kiln-untrained-size-after-inlining", cl::init(false),
    cl::desc("once the inliner is done with a function that has no entry "
             "count in a module with an instrumentation profile, optimize it "
             "for size (optsize): the code no training ran keeps the "
             "inlining of a compile without a profile"));

bool kiln::isUntrainedCodeSizeAfterInliningRequested() {
  return UntrainedSizeAfterInlining;
}

PreservedAnalyses
kiln::UntrainedCodeSizeAfterInliningPass::run(Function &F,
                                              FunctionAnalysisManager &) {
  Metadata *Summary = F.getParent()->getProfileSummary(/*IsCS=*/false);
  if (!Summary || F.hasOptSize() || F.hasOptNone() || F.getEntryCount())
    return PreservedAnalyses::all();
  F.addFnAttr(Attribute::OptimizeForSize);
  return PreservedAnalyses::none();
}

bool kiln::isUntrainedCodeSizeRequested() {
  return !UntrainedSizeProfile.empty();
}

// \returns true if \p Reader has a record under \p Name, whatever its hash.
static bool hasRecord(IndexedInstrProfReader &Reader, StringRef Name) {
  // The hash is not known before PGO computes it; a wrong one still tells a
  // name the profile has (hash_mismatch) from one it has not.
  Expected<NamedInstrProfRecord> Record =
      Reader.getInstrProfRecord(Name, /*FuncHash=*/0);
  if (Record)
    return true;
  bool Known = true;
  handleAllErrors(Record.takeError(), [&](const InstrProfError &E) {
    Known = E.get() != instrprof_error::unknown_function;
  });
  return Known;
}

// The names PGO annotation looks F up by in a compile or pre-link compile:
// the IR-instrumentation name (`file;local` for locals) and the older one.
static bool isTrained(IndexedInstrProfReader &Reader, const Function &F) {
  return hasRecord(Reader, getIRPGOFuncName(F)) ||
         hasRecord(Reader, getPGOFuncName(F));
}

PreservedAnalyses kiln::UntrainedCodeSizePass::run(Module &M,
                                                   ModuleAnalysisManager &MAM) {
  std::string Path =
      ProfilePath.empty() ? UntrainedSizeProfile.getValue() : ProfilePath;
  if (Path.empty())
    return PreservedAnalyses::all();
  auto Warn = [&](const Twine &Why) {
    reportUnusableInput(M.getContext(),
                        Twine(DEBUG_TYPE) + ": cannot use the profile '" +
                            Path + "': " + Why +
                            "; no function is optimized for size");
  };
  if (std::error_code EC = checkRegularFile(Path)) {
    Warn(EC.message());
    return PreservedAnalyses::all();
  }
  IntrusiveRefCntPtr<vfs::FileSystem> FS = vfs::getRealFileSystem();
  Expected<std::unique_ptr<IndexedInstrProfReader>> Reader =
      IndexedInstrProfReader::create(Path, *FS);
  if (!Reader) {
    Warn(toString(Reader.takeError()));
    return PreservedAnalyses::all();
  }
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  bool Changed = false;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasOptSize() || F.hasOptNone() ||
        isTrained(**Reader, F))
      continue;
    F.addFnAttr(Attribute::OptimizeForSize);
    Changed = true;
    OptimizationRemarkEmitter &ORE =
        FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "Untrained", &F)
             << "no training ran '" << ore::NV("Function", F.getName())
             << "': optimized for size";
    });
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

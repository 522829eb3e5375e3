//===- FunctionProfile.cpp - Per-function profile view --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION
///   Collects, for each defined function, the entry count from its
///   `function_entry_count` metadata and the temperature the module's
///   ProfileSummary gives it. Nothing here reads a profile file: the profile
///   reached the IR through `-fprofile-use` / `-fprofile-sample-use`.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so \
///       -passes='print<kiln-function-profile>' -disable-output in.ll
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-profile-remarks \
///       -pass-remarks-analysis=kiln-profile -disable-output in.ll
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/FunctionProfile.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

#define DEBUG_TYPE "kiln-profile"

AnalysisKey kiln::FunctionProfileAnalysis::Key;

StringRef kiln::getTemperatureName(ProfileTemperature T) {
  switch (T) {
  case ProfileTemperature::NoProfile:
    return "none";
  case ProfileTemperature::Unknown:
    return "unknown";
  case ProfileTemperature::Cold:
    return "cold";
  case ProfileTemperature::Warm:
    return "warm";
  case ProfileTemperature::Hot:
    return "hot";
  }
  llvm_unreachable("unknown ProfileTemperature");
}

static StringRef getSummaryKind(const ProfileSummaryInfo &PSI) {
  if (!PSI.hasProfileSummary())
    return "none";
  if (PSI.hasCSInstrumentationProfile())
    return "cs-instr";
  if (PSI.hasInstrumentationProfile())
    return "instr";
  if (PSI.hasSampleProfile())
    return "sample";
  return "unknown";
}

// Classifies the function's code, not only its entry: a function entered
// rarely whose loop runs hot is hot code for layout, so the block counts
// (BFI scaled by the entry count) count too, as PSI's *InCallGraph do.
// BFI is computed only for functions that have a count to scale it by.
static kiln::ProfileTemperature classify(Function &F,
                                         const ProfileSummaryInfo &PSI,
                                         FunctionAnalysisManager &FAM) {
  using kiln::ProfileTemperature;
  if (!PSI.hasProfileSummary())
    return ProfileTemperature::NoProfile;
  if (!F.getEntryCount())
    return ProfileTemperature::Unknown;
  BlockFrequencyInfo &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  if (PSI.isFunctionHotInCallGraph(&F, BFI))
    return ProfileTemperature::Hot;
  if (PSI.isFunctionColdInCallGraph(&F, BFI))
    return ProfileTemperature::Cold;
  return ProfileTemperature::Warm;
}

kiln::FunctionProfile
kiln::FunctionProfileAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  const ProfileSummaryInfo &PSI = MAM.getResult<ProfileSummaryAnalysis>(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  FunctionProfile Result;
  Result.SummaryKind = getSummaryKind(PSI).str();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    FunctionProfileRecord Record;
    Record.Name = F.getName().str();
    if (std::optional<Function::ProfileCount> Count = F.getEntryCount()) {
      Record.EntryCount = Count->getCount();
      Record.SyntheticCount = Count->isSynthetic();
    }
    Record.Temperature = classify(F, PSI, FAM);
    Record.NumBlocks = F.size();
    Record.NumInstructions = F.getInstructionCount();
    Result.Functions.push_back(std::move(Record));
  }
  return Result;
}

PreservedAnalyses
kiln::FunctionProfilePrinterPass::run(Module &M, ModuleAnalysisManager &MAM) {
  const FunctionProfile &Profile = MAM.getResult<FunctionProfileAnalysis>(M);
  OS << "kiln-function-profile: module '" << M.getModuleIdentifier()
     << "' summary=" << Profile.SummaryKind;
  if (!Where.empty())
    OS << " at=" << Where;
  OS << '\n';
  for (const FunctionProfileRecord &Record : Profile.Functions) {
    OS << "  " << Record.Name << ": entry=";
    if (Record.EntryCount)
      OS << *Record.EntryCount << (Record.SyntheticCount ? " (synthetic)" : "");
    else
      OS << '-';
    OS << " temperature=" << getTemperatureName(Record.Temperature)
       << " blocks=" << Record.NumBlocks << " insts=" << Record.NumInstructions
       << '\n';
  }
  return PreservedAnalyses::all();
}

PreservedAnalyses kiln::ProfileRemarksPass::run(Module &M,
                                                ModuleAnalysisManager &MAM) {
  const FunctionProfile &Profile = MAM.getResult<FunctionProfileAnalysis>(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (const FunctionProfileRecord &Record : Profile.Functions) {
    Function *F = M.getFunction(Record.Name);
    if (!F)
      continue;
    OptimizationRemarkEmitter &ORE =
        FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F);
    ORE.emit([&] {
      OptimizationRemarkAnalysis Remark(DEBUG_TYPE, "FunctionProfile", F);
      Remark << "entry count ";
      if (Record.EntryCount)
        Remark << ore::NV("EntryCount", *Record.EntryCount);
      else
        Remark << ore::NV("EntryCount", "none");
      Remark << ", temperature "
             << ore::NV("Temperature", getTemperatureName(Record.Temperature))
             << ", " << ore::NV("Instructions", Record.NumInstructions)
             << " instructions";
      return Remark;
    });
  }
  return PreservedAnalyses::all();
}

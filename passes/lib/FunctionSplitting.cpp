//===- FunctionSplitting.cpp - Kiln's settings for machine function splitting //
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Why these settings (docs/Passes/FunctionSplitting.rst has the figures):
/// LLVM's default splits a block when its count is cold by the profile
/// summary's 99.995th percentile (`-mfs-psi-cutoff=999950`). Code that runs
/// once -- the whole startup path -- is cold by that measure, so startup
/// executes its functions' cold parts, which sit far away: the sample
/// application's startup touched 182 pages instead of 91. Kiln asks for
/// count-based splitting (`-mfs-psi-cutoff=0`): a block moves out only
/// when its profile count is below `-mfs-count-threshold` (1), i.e. no
/// training scenario executed it.
///
//===----------------------------------------------------------------------===//

#include "FunctionSplitting.h"
#include "Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>

using namespace llvm;

static cl::opt<bool> SplitFunctions(
    "kiln-split-functions", cl::init(false),
    cl::desc("split the blocks of profiled functions that no training run "
             "executed into a separate cold part (`fn.cold`) in code "
             "generation: LLVM's machine function splitter with a count "
             "threshold instead of a percentile (ELF, x86-64 and AArch64)"));

bool kiln::isFunctionSplittingRequested() { return SplitFunctions; }

/// Gives LLVM option \p Name the value \p Value unless the user set it.
static void setDefault(DenseMap<StringRef, cl::Option *> &Options,
                       StringRef Name, StringRef Value) {
  cl::Option *Opt = Options.lookup(Name);
  if (Opt && Opt->getNumOccurrences() == 0)
    Opt->addOccurrence(/*pos=*/0, Opt->ArgStr, Value);
}

/// \returns false if this LLVM has no splitter options.
static bool setSplitterOptions() {
  DenseMap<StringRef, cl::Option *> &Options = cl::getRegisteredOptions();
  // Both or nothing: a cutoff without the splitter would be pointless.
  if (!Options.count("enable-split-machine-functions") ||
      !Options.count("mfs-psi-cutoff"))
    return false;
  setDefault(Options, "enable-split-machine-functions", "true");
  setDefault(Options, "mfs-psi-cutoff", "0");
  return true;
}

/// \returns whether `-enable-split-machine-functions` was explicitly turned
/// off (a user's value is kept, and then nothing is split).
static bool splitterTurnedOff() {
  cl::Option *Opt =
      cl::getRegisteredOptions().lookup("enable-split-machine-functions");
  return Opt && Opt->getNumOccurrences() &&
         !static_cast<cl::opt<bool> *>(Opt)->getValue();
}

/// \returns whether the user turned on `-mfs-split-ehcode`. In LLVM 22 it
/// replaces profile-based splitting: the splitter then moves only EH pads
/// and the blocks only they reach, never a block because no run executed it.
static bool splitsOnlyEHCode() {
  cl::Option *Opt = cl::getRegisteredOptions().lookup("mfs-split-ehcode");
  return Opt && Opt->getNumOccurrences() &&
         static_cast<cl::opt<bool> *>(Opt)->getValue();
}

static bool canSplit(const Triple &T) {
  return T.isOSBinFormatELF() && (T.isX86() || T.isAArch64());
}

/// LLVM 22's splitter can break exception handling: a program whose split
/// functions have landing pads terminates with an exception its handlers
/// should catch (found by bench/differential.py on bench/eh_program.py's
/// programs, also with stock -fsplit-machine-functions). Until that is
/// understood, a function with landing pads is not split. The splitter
/// skips a function with an explicit section (TargetInstrInfo::
/// isFunctionSafeToSplit), and a section prefix would not do (CodeGenPrepare
/// sets hot and cold prefixes again), so such a function gets the section
/// `-ffunction-sections` would give it without a prefix, `.text.<name>`:
/// the same code in a section of its own, which the linker orders like any
/// other. \returns how many functions it kept whole.
static unsigned keepFunctionsWithLandingPadsWhole(Module &M) {
  unsigned Kept = 0;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasSection() || !F.hasPersonalityFn())
      continue;
    bool HasLandingPad = any_of(F, [](const BasicBlock &BB) {
      return BB.isEHPad() || isa<InvokeInst>(BB.getTerminator());
    });
    if (!HasLandingPad)
      continue;
    F.setSection((".text." + F.getName()).str());
    ++Kept;
  }
  return Kept;
}

PreservedAnalyses
kiln::FunctionSplittingSetupPass::run(Module &M, ModuleAnalysisManager &) {
  if (!SplitFunctions)
    return PreservedAnalyses::all();
  Triple T(M.getTargetTriple());
  if (!canSplit(T)) {
    reportUnusableInput(M.getContext(),
                        "kiln-split-functions: LLVM's machine function "
                        "splitter supports ELF on x86-64 and AArch64, not '" +
                            T.str() + "'; '" + M.getModuleIdentifier() +
                            "' is not split");
    return PreservedAnalyses::all();
  }
  // For every code generation, not once per process: a host may reset all
  // options between two of them (lld after each link; kiln-lld links twice
  // in one process). Setting an option that is already set is a no-op, so
  // only the first module after a reset writes them; the lock orders that
  // write before the code generation of every ThinLTO backend thread, each
  // of which runs this pass first.
  static std::mutex Lock;
  bool HaveSplitter, TurnedOff;
  {
    std::lock_guard<std::mutex> Guard(Lock);
    HaveSplitter = setSplitterOptions();
    TurnedOff = HaveSplitter && splitterTurnedOff();
  }
  if (!HaveSplitter)
    reportUnusableInput(M.getContext(),
                        "kiln-split-functions: this LLVM has no machine "
                        "function splitter options; '" +
                            M.getModuleIdentifier() + "' is not split");
  unsigned KeptWhole =
      HaveSplitter && !TurnedOff ? keepFunctionsWithLandingPadsWhole(M) : 0;
  if (TurnedOff)
    reportUnusableInput(M.getContext(),
                        "kiln-split-functions: -enable-split-machine-functions="
                        "false is set; '" +
                            M.getModuleIdentifier() + "' is not split");
  else if (splitsOnlyEHCode())
    reportUnusableInput(M.getContext(),
                        "kiln-split-functions: -mfs-split-ehcode is set, so "
                        "LLVM's splitter moves only exception-handling code, "
                        "not the blocks the profile says never ran; '" +
                            M.getModuleIdentifier() +
                            "' is not split by the profile");
  return KeptWhole ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

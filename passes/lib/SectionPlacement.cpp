//===- SectionPlacement.cpp - Functions into profile-driven section groups ===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION
///   Chooses a section group per defined function (startup, hot, warm, cold)
///   and expresses it in the object format's own mechanism:
///    - ELF: section prefixes `hot` and `unlikely`, the ones CodeGenPrepare
///      also sets from the same profile predicates and that lld groups into
///      `.text.hot` / `.text.unlikely` with `-z keep-text-section-prefix`.
///      Startup functions get an explicit `.text.startup.<name>` section
///      instead of a `startup` prefix: CodeGenPrepare overwrites the prefix
///      of every hot or cold function, and startup functions, run once, are
///      usually cold. The name stays unique per function so the linker can
///      still order or discard each one.
///    - COFF: explicit sections `.text$k1startup` ... `.text$k4cold`. lld-link
///      (like link.exe) merges `.text$*` into `.text` sorted by the suffix,
///      which the digit keeps in group order.
///    - Mach-O: nothing; ld64 and lld's Mach-O port take placement from the
///      order file, so the pass says so in a missed remark.
///   A function that already has an explicit section or a section prefix is
///   the user's (or another pass's) decision and is left alone.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-section-placement \
///       -kiln-startup-functions=startup.txt \
///       -pass-remarks=kiln-section-placement
///   clang -fprofile-use=app.profdata -fpass-plugin=KilnPlugin-22.so \
///       -mllvm -kiln-section-placement \
///       -mllvm -kiln-startup-profile=startup.profdata ...
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/SectionPlacement.h"
#include "StartupFunctions.h"

#include "kiln/Passes/FunctionProfile.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using kiln::StartupFunctions;

#define DEBUG_TYPE "kiln-section-placement"

StringRef kiln::getSectionGroupName(SectionGroup Group) {
  switch (Group) {
  case SectionGroup::Startup:
    return "startup";
  case SectionGroup::Hot:
    return "hot";
  case SectionGroup::Warm:
    return "warm";
  case SectionGroup::Cold:
    return "cold";
  case SectionGroup::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown SectionGroup");
}

static kiln::SectionGroup chooseGroup(const kiln::FunctionProfileRecord &Record,
                                      const StartupFunctions &Startup) {
  using kiln::ProfileTemperature;
  using kiln::SectionGroup;
  // Startup first: a startup function that is also hot in steady state is
  // still needed before anything else, and keeping the startup set dense is
  // what saves page faults at launch.
  if (Startup.contains(Record.Name))
    return SectionGroup::Startup;
  switch (Record.Temperature) {
  case ProfileTemperature::Hot:
    return SectionGroup::Hot;
  case ProfileTemperature::Warm:
    return SectionGroup::Warm;
  case ProfileTemperature::Cold:
    return SectionGroup::Cold;
  case ProfileTemperature::Unknown:
  case ProfileTemperature::NoProfile:
    return SectionGroup::Unknown;
  }
  llvm_unreachable("unknown ProfileTemperature");
}

// The COFF section of a group: the digit after `$k` fixes lld-link's sort
// order, the word keeps the map file readable.
static StringRef getCOFFSection(kiln::SectionGroup Group) {
  switch (Group) {
  case kiln::SectionGroup::Startup:
    return ".text$k1startup";
  case kiln::SectionGroup::Hot:
    return ".text$k2hot";
  case kiln::SectionGroup::Warm:
    return ".text$k3warm";
  case kiln::SectionGroup::Cold:
    return ".text$k4cold";
  case kiln::SectionGroup::Unknown:
    break;
  }
  llvm_unreachable("unknown functions are never placed");
}

// Places F in Group for an ELF target. \returns the section (or section-name
// prefix) the function ends up in, for the remark.
static std::string placeForELF(Function &F, kiln::SectionGroup Group) {
  switch (Group) {
  case kiln::SectionGroup::Startup:
    F.setSection((".text.startup." + F.getName()).str());
    return F.getSection().str();
  case kiln::SectionGroup::Hot:
    F.setSectionPrefix("hot");
    return ".text.hot.";
  case kiln::SectionGroup::Warm:
    // Warm code is the default: plain .text, between the groups lld puts
    // before it (hot, startup) and after it (unlikely).
    return ".text";
  case kiln::SectionGroup::Cold:
    F.setSectionPrefix("unlikely");
    return ".text.unlikely.";
  case kiln::SectionGroup::Unknown:
    break;
  }
  llvm_unreachable("unknown functions are never placed");
}

// Emits the remark saying why F was not placed; Why is its text.
static void emitNotPlaced(OptimizationRemarkEmitter &ORE, const Function &F,
                          StringRef RemarkName, StringRef Why) {
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, RemarkName, &F)
           << "not placed: " << Why;
  });
}

// Analysis remarks on the module's first placeable function: how much of
// the startup list and of the startup profile's traces this module defines.
// Functions of other translation units are expected, so this is
// information, not a warning.
static void emitStartupSummary(OptimizationRemarkEmitter &ORE,
                               const Function &F,
                               const StartupFunctions &Startup,
                               unsigned NumListedDefinedHere) {
  if (!Startup.ListPath.empty())
    ORE.emit([&] {
      unsigned NumListed = Startup.ListedNames.size();
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "StartupList", &F)
             << "startup list '" << ore::NV("File", Startup.ListPath)
             << "': " << ore::NV("Listed", NumListed) << " names, "
             << ore::NV("DefinedHere", NumListedDefinedHere)
             << " defined in this module, "
             << ore::NV("Unknown", NumListed - NumListedDefinedHere) << " not";
    });
  if (!Startup.ProfilePath.empty())
    ORE.emit([&] {
      unsigned NumTracedHere = Startup.TracedNames.size();
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "StartupProfile", &F)
             << "startup profile '" << ore::NV("File", Startup.ProfilePath)
             << "': " << ore::NV("Traced", Startup.NumTracedFunctions)
             << " functions in " << ore::NV("Traces", Startup.NumTraces)
             << " traces, " << ore::NV("DefinedHere", NumTracedHere)
             << " defined in this module";
    });
}

PreservedAnalyses kiln::SectionPlacementPass::run(Module &M,
                                                  ModuleAnalysisManager &MAM) {
  std::optional<StartupFunctions> Loaded =
      loadStartupFunctions(M, DEBUG_TYPE, StartupFunctionsFile);
  if (!Loaded)
    return PreservedAnalyses::all();
  const StartupFunctions &Startup = *Loaded;

  const Triple &TargetTriple = M.getTargetTriple();
  const FunctionProfile &Profile = MAM.getResult<FunctionProfileAnalysis>(M);
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();

  unsigned NumListedDefinedHere = 0;
  for (const FunctionProfileRecord &Record : Profile.Functions) {
    const Function *F = M.getFunction(Record.Name);
    if (F && !F->hasAvailableExternallyLinkage() &&
        Startup.ListedNames.contains(Record.Name))
      ++NumListedDefinedHere;
  }

  bool Changed = false;
  bool SummaryEmitted = Startup.empty();
  for (const FunctionProfileRecord &Record : Profile.Functions) {
    Function *F = M.getFunction(Record.Name);
    // An available_externally body is a copy for inlining; the function is
    // emitted, and placed, by the module that defines it.
    if (!F || F->isDeclaration() || F->hasAvailableExternallyLinkage())
      continue;
    OptimizationRemarkEmitter &ORE =
        FAM.getResult<OptimizationRemarkEmitterAnalysis>(*F);
    if (!SummaryEmitted) {
      emitStartupSummary(ORE, *F, Startup, NumListedDefinedHere);
      SummaryEmitted = true;
    }

    if (F->hasSection()) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "ExplicitSection", F)
               << "not placed: the function already has the explicit section '"
               << ore::NV("Section", F->getSection()) << "'";
      });
      continue;
    }
    if (std::optional<StringRef> Prefix = F->getSectionPrefix()) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "SectionPrefix", F)
               << "not placed: the function already has the section prefix '"
               << ore::NV("SectionPrefix", *Prefix) << "'";
      });
      continue;
    }

    SectionGroup Group = chooseGroup(Record, Startup);
    if (Group == SectionGroup::Unknown) {
      emitNotPlaced(ORE, *F, "NoProfile",
                    Record.Temperature == ProfileTemperature::NoProfile
                        ? "the module has no profile summary"
                        : "the profile has no entry count for the function");
      continue;
    }
    if (TargetTriple.isOSBinFormatMachO()) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NoSectionGroups", F)
               << "not placed in "
               << ore::NV("Group", getSectionGroupName(Group))
               << ": Mach-O has no section groups for code; the order file "
                  "carries the placement";
      });
      continue;
    }

    std::string Section;
    if (TargetTriple.isOSBinFormatELF()) {
      Section = placeForELF(*F, Group);
    } else if (TargetTriple.isOSBinFormatCOFF()) {
      F->setSection(getCOFFSection(Group));
      Section = getCOFFSection(Group).str();
    } else {
      emitNotPlaced(ORE, *F, "UnsupportedFormat",
                    "the object format has no section groups Kiln knows");
      continue;
    }
    // Warm code on ELF stays in plain .text: nothing was set.
    if (Group != SectionGroup::Warm || !TargetTriple.isOSBinFormatELF())
      Changed = true;

    ORE.emit([&] {
      OptimizationRemark Remark(DEBUG_TYPE, "Placed", F);
      Remark << "placed in " << ore::NV("Group", getSectionGroupName(Group))
             << " (" << ore::NV("Section", Section) << "): ";
      if (Group == SectionGroup::Startup) {
        if (Startup.ListedNames.contains(Record.Name))
          Remark << "listed in '" << ore::NV("StartupList", Startup.ListPath)
                 << "'";
        else
          Remark << "in a temporal trace of '"
                 << ore::NV("StartupProfile", Startup.ProfilePath) << "'";
        return Remark;
      }
      Remark << "temperature "
             << ore::NV("Temperature", getTemperatureName(Record.Temperature))
             << ", entry count " << ore::NV("EntryCount", *Record.EntryCount);
      return Remark;
    });
  }

  if (!Changed)
    return PreservedAnalyses::all();
  // Sections and prefixes are no input of any IR analysis, and no
  // instruction or block changed.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

//===- PipelineExtensions.cpp - Kiln passes in the default pipelines ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The positions Kiln uses, and why:
///  - OptimizerLast, in every phase but full-LTO pre-link: the end of a
///    per-TU `-O2` compile, of the ThinLTO pre-link compile (before the
///    summary is written) and of each ThinLTO backend. Profile metadata is
///    final there, and in the backends imports have landed.
///  - FullLinkTimeOptimizationLast: the end of the merged module's pipeline
///    in full LTO, where one pass sees the whole program.
/// Full-LTO pre-link is skipped: its module is optimized again after the
/// merge, so work done there would be repeated or undone.
///
/// `kiln-strtab` (on unless -kiln-strtab=false) must run before LLVM's
/// RelLookupTableConverter sees the tables. OptimizerLast comes before it in
/// buildModuleOptimizationPipeline (and after the late SimplifyCFG that turns
/// switches into lookup tables, so those are lowered too). In LLVM 22's full
/// LTO pipeline the converter runs *before* FullLinkTimeOptimizationLast, so
/// there the pass uses FullLinkTimeOptimizationEarly, which follows
/// internalization. It is not added at -O0 (no optimization was asked for).
/// See docs/Passes/StringTables.rst.
///
/// `kiln-import-shaping` (-kiln-import-shaping) runs at OptimizerLast of the
/// ThinLTO pre-link compile only: buildThinLTOPreLinkDefaultPipeline invokes
/// that extension point after its simplification pipeline and before
/// canonicalize-aliases and name-anon-globals; the summary is built after the
/// whole pipeline (ThinLTOBitcodeWriterPass), so it records what the pass
/// left in the profile metadata. Nowhere else is a summary written for the
/// thin link. See docs/Passes/ImportShaping.rst.
///
//===----------------------------------------------------------------------===//

#include "PipelineExtensions.h"
#include "FunctionSplitting.h"

#include "kiln/Passes/CallGraphProfile.h"
#include "kiln/Passes/FunctionOrder.h"
#include "kiln/Passes/FunctionProfile.h"
#include "kiln/Passes/HotImportBinding.h"
#include "kiln/Passes/ImportShaping.h"
#include "kiln/Passes/SectionPlacement.h"
#include "kiln/Passes/StringTableLowering.h"
#include "kiln/Passes/UniqueLocalNames.h"
#include "kiln/Passes/UntrainedCodeSize.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<bool> PrintFunctionProfile(
    "kiln-print-function-profile", cl::init(false),
    cl::desc("print Kiln's per-function profile view to stderr at the end of "
             "each optimization pipeline (compile, ThinLTO pre-link and "
             "backends, full LTO)"));

static cl::opt<bool> EmitProfileRemarks(
    "kiln-profile-remarks", cl::init(false),
    cl::desc("emit a 'kiln-profile' analysis remark per function with its "
             "entry count and temperature at the end of each optimization "
             "pipeline"));

static cl::opt<bool> RecordCallGraphProfile(
    "kiln-callgraph-profile", cl::init(false),
    cl::desc("write Kiln's call graph (all value-profiled indirect targets "
             "included) into the 'CG Profile' module flag at the end of full "
             "LTO, replacing the one LLVM's CGProfile pass wrote there"));

static cl::opt<bool> PlaceSections(
    "kiln-section-placement", cl::init(false),
    cl::desc("put each function into its profile's section group (startup, "
             "hot, warm, cold) at the end of the compile, ThinLTO backend and "
             "full-LTO pipelines"));

static cl::opt<bool> OrderFunctions(
    "kiln-function-order", cl::init(false),
    cl::desc("at the end of full LTO, order the merged module's functions by "
             "Kiln's layout of its profile (code generation then emits them "
             "in that order)"));

// On by default: wherever the plugin is loaded, at -O1 and above. It never
// grows a table, the dynamic relocations or the code's instruction count on
// the benchmarks (docs/benchmarks.md, "String tables"); -kiln-strtab=false
// turns it off.
static cl::opt<bool> LowerStringTables(
    "kiln-strtab", cl::init(true),
    cl::desc("lower local constant tables of string pointers into a "
             "character blob and integer offsets (no relocation per entry) "
             "at the end of each optimization pipeline (default: on; "
             "-kiln-strtab=false turns it off)"));

static cl::opt<bool> ShapeImports(
    "kiln-import-shaping", cl::init(false),
    cl::desc("at the end of the ThinLTO pre-link compile, mark the hot "
             "cross-module calls the backend can inline as critical edges of "
             "the module summary, and supply entry counts the module proves, "
             "from the profile (-fprofile-use)"));

static const char *getPhaseName(ThinOrFullLTOPhase Phase) {
  switch (Phase) {
  case ThinOrFullLTOPhase::None:
    return "compile";
  case ThinOrFullLTOPhase::ThinLTOPreLink:
    return "thinlto-prelink";
  case ThinOrFullLTOPhase::ThinLTOPostLink:
    return "thinlto-backend";
  case ThinOrFullLTOPhase::FullLTOPreLink:
    return "fulllto-prelink";
  case ThinOrFullLTOPhase::FullLTOPostLink:
    return "fulllto";
  }
  llvm_unreachable("unknown ThinOrFullLTOPhase");
}

/// Adds the passes Kiln runs once a module's optimization is complete.
static void addEndOfPipelinePasses(ModulePassManager &MPM,
                                   ThinOrFullLTOPhase Phase) {
  // First, so the profile printer and remarks show the counts it supplied;
  // only in ThinLTO pre-link, the one phase whose summary the thin link reads.
  if (ShapeImports && Phase == ThinOrFullLTOPhase::ThinLTOPreLink)
    MPM.addPass(kiln::ImportShapingPass());
  // Before anything names a section after a function: the backend's code
  // generation, the profile it is given and the linker's order file all
  // know the function by its new name. Only in the backends kiln-lld
  // writes the list for; full LTO's merged module has unique names.
  if (kiln::isUniqueLocalNamesRequested() &&
      Phase == ThinOrFullLTOPhase::ThinLTOPostLink)
    MPM.addPass(kiln::UniqueLocalNamesPass());
  if (EmitProfileRemarks)
    MPM.addPass(kiln::ProfileRemarksPass());
  if (PrintFunctionProfile)
    MPM.addPass(kiln::FunctionProfilePrinterPass(errs(), getPhaseName(Phase)));
  // Not in ThinLTO pre-link: the backend reruns the pipeline on the module
  // after importing and inlining, and would take a pre-link placement for the
  // user's own and refuse to revise it.
  if (PlaceSections && Phase != ThinOrFullLTOPhase::ThinLTOPreLink)
    MPM.addPass(kiln::SectionPlacementPass());
  // Only at the end of full LTO, the one position that follows CGProfilePass:
  // everywhere else CGProfilePass runs after OptimizerLast (compile, ThinLTO
  // backends) or later on the same module (ThinLTO pre-link bitcode), and it
  // appends its flag without looking, so a flag written here would make the
  // module invalid (two "CG Profile" flags). Replace, not merge: the flag
  // CGProfilePass just wrote counts the same calls. See
  // docs/Passes/CallGraph.rst.
  if (RecordCallGraphProfile && Phase == ThinOrFullLTOPhase::FullLTOPostLink)
    MPM.addPass(kiln::RecordCallGraphPass(
        kiln::RecordCallGraphPass::ExistingFlag::Replace));
  // Last: the order is final only when nothing will move functions again,
  // and it removes the 'CG Profile' flag it has used.
  if (OrderFunctions && Phase == ThinOrFullLTOPhase::FullLTOPostLink)
    MPM.addPass(kiln::FunctionOrderPass());
  // Where code generation follows, after the backends' inlining: the calls
  // it left are the ones the code makes.
  if (kiln::isHotImportBindingRequested() &&
      Phase != ThinOrFullLTOPhase::ThinLTOPreLink)
    MPM.addPass(kiln::HotImportBindingPass());
  // Code generation follows in compile, ThinLTO backends and full LTO; the
  // splitter's options must be set before it starts (FunctionSplitting.h).
  if (kiln::isFunctionSplittingRequested() &&
      Phase != ThinOrFullLTOPhase::ThinLTOPreLink)
    MPM.addPass(kiln::FunctionSplittingSetupPass());
}

void kiln::registerPipelineExtensions(PassBuilder &PB) {
  // After the inliner is done with each function, so its call sites keep
  // the thresholds of a compile without a profile; before the function's
  // simplification, which then optimizes it for size. Wherever the option
  // is given: `kiln pgo optimize --untrained-size` gives it to the compiles
  // (ThinLTO pre-link), whose attribute the backends keep.
  PB.registerCGSCCOptimizerLateEPCallback([](CGSCCPassManager &CGPM,
                                             OptimizationLevel Level) {
    if (kiln::isUntrainedCodeSizeRequested() && Level != OptimizationLevel::O0)
      CGPM.addPass(
          createCGSCCToFunctionPassAdaptor(kiln::UntrainedCodeSizePass()));
  });
  PB.registerOptimizerLastEPCallback([](ModulePassManager &MPM,
                                        OptimizationLevel Level,
                                        ThinOrFullLTOPhase Phase) {
    if (LowerStringTables && Level != OptimizationLevel::O0 &&
        Phase != ThinOrFullLTOPhase::FullLTOPreLink)
      MPM.addPass(kiln::StringTableLoweringPass());
  });
  PB.registerFullLinkTimeOptimizationEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        if (LowerStringTables && Level != OptimizationLevel::O0)
          MPM.addPass(kiln::StringTableLoweringPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel, ThinOrFullLTOPhase Phase) {
        if (Phase == ThinOrFullLTOPhase::FullLTOPreLink)
          return;
        addEndOfPipelinePasses(MPM, Phase);
      });
  PB.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        addEndOfPipelinePasses(MPM, ThinOrFullLTOPhase::FullLTOPostLink);
      });
}

//===- PassRegistry.cpp - Register Kiln with a PassBuilder ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's passes are reachable in three ways, all registered here:
///  1. by name in a textual pipeline (`opt -passes=kiln-...`,
///     `ld.lld --lto-newpm-passes=...`), from Passes.def;
///  2. as analyses in the analysis managers (`require<kiln-...>` too);
///  3. at extension points of the default pipelines (PipelineExtensions.cpp).
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/PassRegistry.h"
#include "EnvironmentOptions.h"
#include "PipelineExtensions.h"

#include "kiln/Passes/CallGraphProfile.h"
#include "kiln/Passes/FunctionOrder.h"
#include "kiln/Passes/FunctionProfile.h"
#include "kiln/Passes/HotImportBinding.h"
#include "kiln/Passes/ImportShaping.h"
#include "kiln/Passes/ProfileInlineAdvisor.h"
#include "kiln/Passes/SectionPlacement.h"
#include "kiln/Passes/StringTableLowering.h"
#include "kiln/Passes/UniqueLocalNames.h"
#include "kiln/Passes/UntrainedCodeSize.h"
#include "kiln/Support/Version.inc"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

static bool parseModulePipelineElement(StringRef Name, ModulePassManager &MPM,
                                       ArrayRef<PassBuilder::PipelineElement>) {
#define MODULE_PASS(NAME, CREATE_PASS)                                         \
  if (Name == NAME) {                                                          \
    MPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#define MODULE_ANALYSIS(NAME, CREATE_PASS)                                     \
  if (Name == "require<" NAME ">") {                                           \
    MPM.addPass(                                                               \
        RequireAnalysisPass<std::remove_reference_t<decltype(CREATE_PASS)>,    \
                            Module>());                                        \
    return true;                                                               \
  }                                                                            \
  if (Name == "invalidate<" NAME ">") {                                        \
    MPM.addPass(InvalidateAnalysisPass<                                        \
                std::remove_reference_t<decltype(CREATE_PASS)>>());            \
    return true;                                                               \
  }
#include "kiln/Passes/Passes.def"
  return false;
}

// The function-pass counterpart of parseModulePipelineElement.
static bool
parseFunctionPipelineElement(StringRef Name, FunctionPassManager &FPM,
                             ArrayRef<PassBuilder::PipelineElement>) {
#define FUNCTION_PASS(NAME, CREATE_PASS)                                       \
  if (Name == NAME) {                                                          \
    FPM.addPass(CREATE_PASS);                                                  \
    return true;                                                               \
  }
#include "kiln/Passes/Passes.def"
  return false;
}

/// \returns true if \p PB already knows Kiln's pass names, i.e. this plugin's
/// callbacks were registered with it before (the module was named twice, for
/// instance by `kiln-lld` and again by `--load-pass-plugin=`). Registering
/// twice would run every extension-point pass twice.
static bool isAlreadyRegistered(PassBuilder &PB) {
  ModulePassManager Probe;
  return !errorToBool(PB.parsePassPipeline(Probe, "kiln-profile-remarks"));
}

void kiln::registerKilnPassBuilderCallbacks(PassBuilder &PB) {
  if (isAlreadyRegistered(PB))
    return;
  // Before the pipelines are built, so the options shape them.
  applyEnvironmentOptions();

  PB.registerAnalysisRegistrationCallback([](ModuleAnalysisManager &MAM) {
#define MODULE_ANALYSIS(NAME, CREATE_PASS)                                     \
  MAM.registerPass([] { return CREATE_PASS; });
#include "kiln/Passes/Passes.def"
    // The inliner's plugin advisor; only under -kiln-inline (see
    // ProfileInlineAdvisor.cpp).
    registerProfileInlineAdvisor(MAM);
  });
  PB.registerPipelineParsingCallback(parseModulePipelineElement);
  PB.registerPipelineParsingCallback(parseFunctionPipelineElement);
  registerPipelineExtensions(PB);
}

PassPluginLibraryInfo kiln::getKilnPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "Kiln", KILN_VERSION_STRING,
          registerKilnPassBuilderCallbacks};
}

//===- kiln/Passes/PassRegistry.h - Register Kiln with a PassBuilder -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The entry points the plugin module (and any tool that links Kiln's passes
/// statically) uses to make Kiln's passes known to a PassBuilder: by name for
/// textual pipelines, as analyses in the analysis managers, and at the
/// default pipelines' extension points.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PASSREGISTRY_H
#define KILN_PASSES_PASSREGISTRY_H

#include "llvm/Plugins/PassPlugin.h"

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace kiln {

/// Registers every Kiln pass name (Passes.def), analysis, and pipeline
/// extension-point callback with \p PB. Calling it again for the same
/// PassBuilder (the plugin loaded twice) registers nothing more.
void registerKilnPassBuilderCallbacks(llvm::PassBuilder &PB);

/// \returns the plugin descriptor that `llvmGetPassPluginInfo` hands to
/// clang, opt and lld.
llvm::PassPluginLibraryInfo getKilnPluginInfo();

} // namespace kiln

#endif // KILN_PASSES_PASSREGISTRY_H

//===- Plugin.cpp - The entry point of Kiln's pass-plugin module ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The only code that exists just for the loadable module: the symbol that
/// clang (`-fpass-plugin=`), opt (`-load-pass-plugin=`) and lld
/// (`--load-pass-plugin=`) look up. Everything else lives in KilnPasses.
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/PassRegistry.h"

extern "C" LLVM_ATTRIBUTE_WEAK llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return kiln::getKilnPluginInfo();
}

//===- kiln/Passes/HotImportBinding.h - Hot imports by the GOT -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `-kiln-bind-hot-imports`: a function another object provides (the C
/// library's `memcpy`, libstdc++'s `operator new`) is called through its
/// PLT entry, one jump more per call, and bound on its first call. Marked
/// `nonlazybind`, it is called through its GOT entry instead (`call
/// *f@GOTPCREL(%rip)`, what `-fno-plt` does for every function) and bound
/// when the program loads. The pass marks the functions that a block the
/// profile calls hot calls: what the training calls most, which a run
/// binds on an early call anyway, so the load-time binding costs little,
/// where `-fno-plt` binds every import a program has at every start. Only
/// in a module compiled with an instrumentation profile, and only
/// declarations the program does not define (`dso_local` ones are called
/// directly). docs/Passes/HotImportBinding.rst has what it saves.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_HOTIMPORTBINDING_H
#define KILN_PASSES_HOTIMPORTBINDING_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// \returns true under `-kiln-bind-hot-imports`.
bool isHotImportBindingRequested();

/// Marks `nonlazybind` the imported functions that hot blocks call.
class HotImportBindingPass : public llvm::PassInfoMixin<HotImportBindingPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace kiln

#endif // KILN_PASSES_HOTIMPORTBINDING_H

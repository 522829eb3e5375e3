//===- kiln/Passes/FunctionOrder.h - Kiln's layout in full LTO --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-function-order`: in full LTO the merged module is the whole
/// program's code, and code generation emits its functions in module order,
/// which lld keeps for the LTO object's sections when nothing else orders
/// them. So this pass computes Kiln's layout (the composite of the layout
/// engine: startup, hot, warm, cold) from the module's profile -- entry
/// counts and the kiln-callgraph analysis' call counts and code sizes, the
/// startup functions of `-kiln-startup-functions=`/`-kiln-startup-profile=`
/// -- and reorders the module's function list accordingly. It also writes the
/// order as an ordering file (`-kiln-function-order-out=`) for the next link,
/// and removes the `CG Profile` module flag it has taken into account, so that
/// lld's call-graph sort does not reorder the result (a remark says so).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_FUNCTIONORDER_H
#define KILN_PASSES_FUNCTIONORDER_H

#include "llvm/IR/PassManager.h"

namespace kiln {

class FunctionOrderPass : public llvm::PassInfoMixin<FunctionOrderPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace kiln

#endif // KILN_PASSES_FUNCTIONORDER_H

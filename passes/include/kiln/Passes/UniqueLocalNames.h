//===- kiln/Passes/UniqueLocalNames.h - Unique statics' names --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `-kiln-unique-local-names=<list>`: in a ThinLTO backend, gives each local
/// function the list names for the module's source file the name clang's
/// `-funique-internal-linkage-names` would give it, so a block layout
/// profile and a symbol ordering file can tell it from the other functions
/// of its name (kiln/Support/UniqueLocalNames.h). kiln-lld writes the list
/// from the link's bitcode: it holds the locals whose name another function
/// of the link has, in modules that no other module shares a source file
/// name with.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_UNIQUELOCALNAMES_H
#define KILN_PASSES_UNIQUELOCALNAMES_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// \returns true if `-kiln-unique-local-names=` names a list.
bool isUniqueLocalNamesRequested();

/// Renames the module's local functions the list names for its source file.
/// An unreadable list is reported (a warning) and nothing is renamed.
class UniqueLocalNamesPass : public llvm::PassInfoMixin<UniqueLocalNamesPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
};

} // namespace kiln

#endif // KILN_PASSES_UNIQUELOCALNAMES_H

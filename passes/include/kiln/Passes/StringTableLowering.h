//===- kiln/Passes/StringTableLowering.h - String table pass ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-strtab`: rewrites a module-local constant table of string pointers
/// (`static const char *errors[] = {"no error", "on fire"}`), or a table of
/// structs with string-pointer fields, into one character blob plus a table
/// of integer offsets into it, so that position-independent code needs no
/// pointer and no dynamic relocation per entry. Every use of the table must
/// be understood, or the table is left alone with a missed remark saying why.
/// docs/Passes/StringTables.rst describes shapes, refusals and positions.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_STRINGTABLELOWERING_H
#define KILN_PASSES_STRINGTABLELOWERING_H

#include "llvm/IR/PassManager.h"

namespace kiln {

/// Lowers string tables into a character blob and an offset table.
class StringTableLoweringPass
    : public llvm::PassInfoMixin<StringTableLoweringPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace kiln

#endif // KILN_PASSES_STRINGTABLELOWERING_H

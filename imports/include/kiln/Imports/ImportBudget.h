//===- kiln/Imports/ImportBudget.h - Import and inline budgets --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The spelling of the planners' budgets, shared by `kiln imports` and
/// kiln-lld: a count of instructions, or `<P>%` of the program's.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_IMPORTS_IMPORTBUDGET_H
#define KILN_IMPORTS_IMPORTBUDGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace kiln {

/// Parses a budget: a count of instructions, or `<P>%` of \p Total.
llvm::Expected<uint64_t> parseImportBudget(llvm::StringRef Text,
                                           uint64_t Total);

/// Parses an inline growth budget as parseImportBudget does, and refuses
/// the budgets that plan nothing (0) or everything (the whole program's
/// \p Total instructions or more, 100% included).
llvm::Expected<uint64_t> parseInlineBudget(llvm::StringRef Text,
                                           uint64_t Total);

} // namespace kiln

#endif // KILN_IMPORTS_IMPORTBUDGET_H

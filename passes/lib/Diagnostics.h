//===- Diagnostics.h - How Kiln's passes report unusable input --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A Kiln pass that cannot use its input (a missing or corrupt profile, a
/// bad option value) skips its transformation and says why: a warning, so the
/// build goes on without Kiln -- or, with `-kiln-strict`, an error, for
/// builds that must not silently lose their profile.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_DIAGNOSTICS_H
#define KILN_PASSES_LIB_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace kiln {

/// Reports \p Message ("<pass>: <what>; <what is skipped>") through
/// \p Context's diagnostic handler, as a warning, or as an error under
/// `-kiln-strict`.
void reportUnusableInput(llvm::LLVMContext &Context,
                         const llvm::Twine &Message);

} // namespace kiln

#endif // KILN_PASSES_LIB_DIAGNOSTICS_H

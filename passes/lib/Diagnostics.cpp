//===- Diagnostics.cpp - How Kiln's passes report unusable input ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;

static cl::opt<bool> Strict(
    "kiln-strict", cl::init(false),
    cl::desc("make a Kiln pass's unusable input (missing or corrupt profile "
             "or startup list, bad option value) an error instead of a "
             "warning"));

void kiln::reportUnusableInput(LLVMContext &Context, const Twine &Message) {
  Context.diagnose(
      DiagnosticInfoGeneric(Message, Strict ? DS_Error : DS_Warning));
}

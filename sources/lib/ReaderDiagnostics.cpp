//===- ReaderDiagnostics.cpp - Errors of LLVM's readers -------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/ReaderDiagnostics.h"

#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace llvm;
using namespace kiln;

namespace {
/// Takes the errors; leaves everything else to LLVMContext::diagnose.
struct ErrorKeeper : DiagnosticHandler {
  explicit ErrorKeeper(std::string &FirstError) : FirstError(FirstError) {}

  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return false;
    if (FirstError.empty()) {
      raw_string_ostream OS(FirstError);
      DiagnosticPrinterRawOStream Printer(OS);
      DI.print(Printer);
      if (FirstError.empty())
        FirstError = "error diagnosed by LLVM";
    }
    return true;
  }

  std::string &FirstError;
};
} // namespace

ReaderDiagnostics::ReaderDiagnostics(LLVMContext &Context) {
  Context.setDiagnosticHandler(std::make_unique<ErrorKeeper>(FirstError),
                               /*RespectFilters=*/true);
}

//===- ToolError.cpp - Errors of Kiln's tools -----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/ToolError.h"

#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

char kiln::ToolError::ID = 0;

void kiln::ToolError::log(raw_ostream &OS) const {
  if (!Whence.empty())
    OS << Whence << ": ";
  OS << Message;
}

std::error_code kiln::ToolError::convertToErrorCode() const {
  return inconvertibleErrorCode();
}

Error kiln::makeToolError(const Twine &Message, const Twine &Whence,
                          const Twine &Hint) {
  return make_error<ToolError>(Message, Whence, Hint);
}

int kiln::reportToolError(StringRef ToolName, Error E) {
  if (!E)
    return 0;
  handleAllErrors(
      std::move(E),
      [&](const ToolError &TE) {
        WithColor::error(errs(), ToolName) << TE.message() << '\n';
        if (!TE.getHint().empty())
          WithColor::note(errs(), ToolName) << TE.getHint() << '\n';
      },
      [&](const ErrorInfoBase &EI) {
        WithColor::error(errs(), ToolName) << EI.message() << '\n';
      });
  return 1;
}

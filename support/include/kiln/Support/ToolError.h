//===- kiln/Support/ToolError.h - Errors of Kiln's tools --------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One error type for Kiln's command-line tools, after llvm-profdata's
/// ProfdataError: a message, the file or option it is about ("whence"), and
/// an optional hint telling the user what to do. Tools return these as
/// llvm::Error from their subcommands and print them once, in main, as
/// `<tool>: error: <whence>: <message>` followed by `note: <hint>`.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_TOOLERROR_H
#define KILN_SUPPORT_TOOLERROR_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace kiln {

/// An error reported to the user of a Kiln tool.
class ToolError : public llvm::ErrorInfo<ToolError> {
public:
  static char ID;

  /// \p Message starts lowercase and has no trailing period; \p Whence is the
  /// file or option concerned (may be empty); \p Hint is printed as a note.
  ToolError(const llvm::Twine &Message, const llvm::Twine &Whence = "",
            const llvm::Twine &Hint = "")
      : Message(Message.str()), Whence(Whence.str()), Hint(Hint.str()) {}

  void log(llvm::raw_ostream &OS) const override;
  std::error_code convertToErrorCode() const override;

  llvm::StringRef getMessage() const { return Message; }
  llvm::StringRef getWhence() const { return Whence; }
  llvm::StringRef getHint() const { return Hint; }

private:
  std::string Message;
  std::string Whence;
  std::string Hint;
};

/// Creates a ToolError; see ToolError's constructor for the parameters.
llvm::Error makeToolError(const llvm::Twine &Message,
                          const llvm::Twine &Whence = "",
                          const llvm::Twine &Hint = "");

/// Prints every error in \p E as `<ToolName>: error: ...` (with color when
/// stderr is a terminal), hints as notes. \returns 0 if \p E is success and 1
/// otherwise, so `main` can `return reportToolError(...)`.
int reportToolError(llvm::StringRef ToolName, llvm::Error E);

} // namespace kiln

#endif // KILN_SUPPORT_TOOLERROR_H

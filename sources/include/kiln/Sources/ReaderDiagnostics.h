//===- kiln/Sources/ReaderDiagnostics.h - Readers' errors -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Some of LLVM's readers report a corrupt input through their LLVMContext
/// (the sample profile reader's `Truncated profile data`, the bitcode
/// reader's), and an LLVMContext without a diagnostic handler prints an
/// error diagnostic and calls exit(1): the tool would end without Kiln's
/// diagnostic, and kiln-lld would end the link. Every LLVMContext a Kiln
/// reader creates installs a ReaderDiagnostics, which keeps the error for
/// the reader to return.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_READERDIAGNOSTICS_H
#define KILN_SOURCES_READERDIAGNOSTICS_H

#include "llvm/IR/LLVMContext.h"

#include <string>

namespace kiln {

/// Keeps the error diagnostics of \p Context (the first one's message);
/// warnings and remarks are printed as LLVM prints them. It must outlive
/// the reader's use of the context.
class ReaderDiagnostics {
public:
  explicit ReaderDiagnostics(llvm::LLVMContext &Context);

  /// \returns whether an error was diagnosed.
  bool hasError() const { return !FirstError.empty(); }
  /// \returns the first error's message ("" if none).
  const std::string &getFirstError() const { return FirstError; }

private:
  std::string FirstError;
};

/// For a tool that enables llvm::CrashRecoveryContext, once, before its
/// reads: from then on an allocation that fails inside a guarded read (a
/// corrupt file's size that an LLVM reader believes) ends that read as a
/// fault does, and the caller reports the file as corrupt, instead of LLVM
/// printing `LLVM ERROR: out of memory` first. Hosts such as clang and lld
/// never call it, so their own handlers stay.
void enableQuietAllocationFailuresInGuardedReads();

} // namespace kiln

#endif // KILN_SOURCES_READERDIAGNOSTICS_H

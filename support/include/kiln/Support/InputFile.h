//===- kiln/Support/InputFile.h - Read regular files only -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Every file Kiln reads (profiles, objects, edge lists, bitcode, lists) is a
/// regular file. Reading a character device or a FIFO as one would hang
/// (`/dev/zero` never ends, a FIFO waits for a writer) or exhaust memory, so
/// such a path is refused before it is opened, with an error code whose
/// message is "not a regular file". Call sites keep their usual
/// `<file>: <EC.message()>` reporting.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_INPUTFILE_H
#define KILN_SUPPORT_INPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ErrorOr.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <system_error>

namespace kiln {

/// The error of an input that exists but is not a regular file or a
/// directory; its message is "not a regular file".
std::error_code makeNotRegularFileError();

/// \returns success if \p Path (after symbolic links) is a regular file;
/// otherwise the error of looking it up (e.g. no such file),
/// errc::is_a_directory, or makeNotRegularFileError(). Never opens the file.
std::error_code checkRegularFile(llvm::StringRef Path);

/// MemoryBuffer::getFile, for regular files only (see checkRegularFile()).
llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
getInputFile(llvm::StringRef Path, bool IsText = false,
             bool RequiresNullTerminator = true);

} // namespace kiln

#endif // KILN_SUPPORT_INPUTFILE_H

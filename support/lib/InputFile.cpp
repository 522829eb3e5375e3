//===- InputFile.cpp - Read regular files only ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/InputFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"

#include <string>

using namespace llvm;

namespace {
class InputFileCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "kiln-input"; }
  std::string message(int) const override { return "not a regular file"; }
};
} // namespace

std::error_code kiln::makeNotRegularFileError() {
  static const InputFileCategory Category;
  return std::error_code(1, Category);
}

std::error_code kiln::checkRegularFile(StringRef Path) {
  // status() follows symbolic links and, unlike open(), never blocks on a
  // FIFO.
  sys::fs::file_status Status;
  if (std::error_code EC = sys::fs::status(Path, Status))
    return EC;
  switch (Status.type()) {
  case sys::fs::file_type::regular_file:
    return std::error_code();
  case sys::fs::file_type::directory_file:
    return make_error_code(errc::is_a_directory);
  default:
    return makeNotRegularFileError();
  }
}

bool kiln::isAllNulBytes(StringRef Bytes) {
  return !Bytes.empty() && Bytes.find_first_not_of('\0') == StringRef::npos;
}

ErrorOr<std::unique_ptr<MemoryBuffer>>
kiln::getInputFile(StringRef Path, bool IsText, bool RequiresNullTerminator) {
  if (std::error_code EC = checkRegularFile(Path))
    return EC;
  return MemoryBuffer::getFile(Path, IsText, RequiresNullTerminator);
}

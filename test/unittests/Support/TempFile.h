//===- TempFile.h - A temporary file for one test --------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A file with given contents that exists for the scope of a test: what
/// tests of cache keys hash in place of a real plugin.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNITTESTS_SUPPORT_TEMPFILE_H
#define KILN_TEST_UNITTESTS_SUPPORT_TEMPFILE_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

namespace kiln::test {

/// Creates `<Prefix>-*.<Suffix>` in the temporary directory with \p Contents
/// and removes it when the test's scope ends.
class TempFile {
public:
  TempFile(llvm::StringRef Prefix, llvm::StringRef Suffix,
           llvm::StringRef Contents) {
    EXPECT_FALSE(llvm::sys::fs::createTemporaryFile(Prefix, Suffix, Path));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC) << Path.str().str() << ": " << EC.message();
    OS << Contents;
  }
  ~TempFile() { llvm::sys::fs::remove(Path); }
  TempFile(const TempFile &) = delete;
  TempFile &operator=(const TempFile &) = delete;

  llvm::StringRef path() const { return Path; }

private:
  llvm::SmallString<128> Path;
};

} // namespace kiln::test

#endif // KILN_TEST_UNITTESTS_SUPPORT_TEMPFILE_H

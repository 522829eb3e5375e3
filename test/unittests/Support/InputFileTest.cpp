//===- InputFileTest.cpp - Tests of kiln::getInputFile --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/InputFile.h"

#include "TempFile.h"

#include "llvm/Support/Errc.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

using namespace llvm;

namespace {

TEST(InputFile, ReadsRegularFiles) {
  kiln::test::TempFile File("kiln-input", "txt", "contents");
  EXPECT_FALSE(kiln::checkRegularFile(File.path()));
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(File.path());
  ASSERT_TRUE(bool(Buffer));
  EXPECT_EQ((*Buffer)->getBuffer(), "contents");
}

TEST(InputFile, RefusesDevices) {
  // /dev/zero would never end.
  if (!sys::fs::exists("/dev/zero"))
    GTEST_SKIP() << "no /dev/zero";
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile("/dev/zero");
  ASSERT_FALSE(bool(Buffer));
  EXPECT_EQ(Buffer.getError(), kiln::makeNotRegularFileError());
  EXPECT_EQ(Buffer.getError().message(), "not a regular file");
}

TEST(InputFile, KeepsTheLookupError) {
  EXPECT_EQ(kiln::checkRegularFile("/no/such/kiln/file"),
            make_error_code(errc::no_such_file_or_directory));
  EXPECT_EQ(kiln::checkRegularFile("/"), make_error_code(errc::is_a_directory));
}

} // namespace

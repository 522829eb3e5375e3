//===- ToolErrorTest.cpp - Tests of kiln::ToolError -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/ToolError.h"

#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;

namespace {

TEST(ToolError, MessageNamesWhence) {
  // The file comes first, as in `kiln: error: a.profdata: not a profile`.
  EXPECT_THAT_ERROR(kiln::makeToolError("not a profile", "a.profdata"),
                    FailedWithMessage("a.profdata: not a profile"));
  // Without a whence there is no dangling separator.
  EXPECT_THAT_ERROR(kiln::makeToolError("no input"),
                    FailedWithMessage("no input"));
}

TEST(ToolError, KeepsHint) {
  Error E = kiln::makeToolError("bad", "x", "try --help");
  bool Seen = false;
  handleAllErrors(std::move(E), [&](const kiln::ToolError &TE) {
    EXPECT_EQ(TE.getHint(), "try --help");
    EXPECT_EQ(TE.getWhence(), "x");
    EXPECT_EQ(TE.getMessage(), "bad");
    Seen = true;
  });
  EXPECT_TRUE(Seen);
}

TEST(ToolError, ReportReturnsExitCode) {
  EXPECT_EQ(kiln::reportToolError("kiln", Error::success()), 0);
  EXPECT_EQ(kiln::reportToolError("kiln", kiln::makeToolError("bad")), 1);
  EXPECT_EQ(kiln::reportToolError(
                "kiln", createStringError(inconvertibleErrorCode(), "other")),
            1);
}

} // namespace

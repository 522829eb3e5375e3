//===- ImportBudgetTest.cpp - Tests of kiln imports' budget values --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ImportsCommand.h"

#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstdint>

using namespace llvm;
using ::testing::HasSubstr;

namespace {

TEST(ImportBudget, CountsAndPercentages) {
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget("5000", 100), HasValue(5000u));
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget("10%", 1000), HasValue(100u));
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget(" 0% ", 1000), HasValue(0u));
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget("100%", 1000), HasValue(1000u));
  // double(UINT64_MAX) is 2^64: the budget saturates instead of converting
  // a value out of range.
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget("100%", UINT64_MAX),
                       HasValue(UINT64_MAX));
}

TEST(ImportBudget, PercentagesOutOfRange) {
  // Each of these converted a double that is not finite, or out of
  // uint64_t's range, to an integer: undefined behaviour.
  for (const char *Text : {"inf%", "-inf%", "nan%", "1e30%", "101%", "-1%"})
    EXPECT_THAT_EXPECTED(
        kiln::parseImportBudget(Text, 1000),
        FailedWithMessage(HasSubstr("is not a percentage (from 0% to 100%)")))
        << Text;
  EXPECT_THAT_EXPECTED(kiln::parseImportBudget("lots", 1000),
                       FailedWithMessage(HasSubstr("is not a number")));
}

} // namespace

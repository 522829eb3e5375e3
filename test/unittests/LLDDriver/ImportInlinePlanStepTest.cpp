//===- ImportInlinePlanStepTest.cpp - Tests of kiln-lld's plan step -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ImportInlinePlanStep.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using testing::ElementsAre;
using testing::IsEmpty;

namespace {

TEST(ImportInlinePlanStep, OffAndEmptyPlanNothing) {
  EXPECT_FALSE(kiln::requestsInlinePlan(""));
  EXPECT_FALSE(kiln::requestsInlinePlan("off"));
  EXPECT_TRUE(kiln::requestsInlinePlan("2%"));
  // A bad budget still asks for a plan: the planner says what is wrong.
  EXPECT_TRUE(kiln::requestsInlinePlan("0"));
}

TEST(ImportInlinePlanStep, ModuleListBecomesThePlannersInputs) {
  // lld writes the index files' paths: the new prefix before the module's
  // path, relative or absolute.
  EXPECT_THAT(
      kiln::parseThinModuleList("/s/idx/a.o\n/s/idx//abs/b.o\n", "/s/idx/"),
      ElementsAre("a.o", "/abs/b.o"));
  // Archive members stand for their archive, once.
  EXPECT_THAT(kiln::parseThinModuleList(
                  "/s/idx/lib.a(x.o at 120)\n/s/idx/lib.a(y.o at 900)\n"
                  "/s/idx/c.o\r\n",
                  "/s/idx/"),
              ElementsAre("lib.a", "c.o"));
  // A path with parentheses that is not a member is kept as it is.
  EXPECT_THAT(kiln::parseThinModuleList("dir(1)/d.o\n", "/s/idx/"),
              ElementsAre("dir(1)/d.o"));
  EXPECT_THAT(kiln::parseThinModuleList("\n\n", "/s/idx/"), IsEmpty());
}

} // namespace

//===- SplitPartNameTest.cpp - Tests of split-part symbol names -----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/LinkerInputs.h"

#include "gtest/gtest.h"

using namespace kiln;

namespace {

TEST(SplitParentName, MachineFunctionSplitterAndGCC) {
  EXPECT_EQ(getSplitParentName("main.cold"), "main");
  EXPECT_EQ(getSplitParentName("_ZN2ks5alloc10fold_queueEP6ks_ctxm.cold"),
            "_ZN2ks5alloc10fold_queueEP6ks_ctxm");
  // A promoted or uniquified static keeps its suffix in the parent's name.
  EXPECT_EQ(getSplitParentName("helper.llvm.1234.cold"), "helper.llvm.1234");
}

TEST(SplitParentName, BOLTFragments) {
  EXPECT_EQ(getSplitParentName("f.cold.0"), "f");
  EXPECT_EQ(getSplitParentName("f.cold.12"), "f");
}

TEST(SplitParentName, BasicBlockSections) {
  EXPECT_EQ(getSplitParentName("main.__part.1"), "main");
  EXPECT_EQ(getSplitParentName("main.__part.12"), "main");
  EXPECT_EQ(getSplitParentName("main.eh"), "main");
  EXPECT_EQ(getSplitParentName("_ZN1a1fEv.__part.2"), "_ZN1a1fEv");
  // The clusters of a ThinLTO-promoted static keep its suffix.
  EXPECT_EQ(getSplitParentName("helper.llvm.1234.__part.1"),
            "helper.llvm.1234");
  EXPECT_EQ(getSplitParentName("helper.llvm.1234.eh"), "helper.llvm.1234");
}

TEST(SplitParentName, NotAColdPart) {
  EXPECT_EQ(getSplitParentName("cold"), "");
  EXPECT_EQ(getSplitParentName(".cold"), "");
  EXPECT_EQ(getSplitParentName("f.cold.x"), "");
  EXPECT_EQ(getSplitParentName("f.coldish"), "");
  EXPECT_EQ(getSplitParentName("f.part.0"), "");
  EXPECT_EQ(getSplitParentName("f.12"), "");
  EXPECT_EQ(getSplitParentName(""), "");
  EXPECT_EQ(getSplitParentName(".__part.1"), "");
  EXPECT_EQ(getSplitParentName("f.__part."), "");
  EXPECT_EQ(getSplitParentName("f.__part.x"), "");
  EXPECT_EQ(getSplitParentName("f.__part"), "");
  EXPECT_EQ(getSplitParentName(".eh"), "");
  EXPECT_EQ(getSplitParentName("f.eh.1"), "");
  EXPECT_EQ(getSplitParentName("f.ehx"), "");
  // A promoted static is a whole function.
  EXPECT_EQ(getSplitParentName("helper.llvm.1234"), "");
}

} // namespace

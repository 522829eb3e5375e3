//===- SharedLibrariesTest.cpp - Which program loads which library --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// needsLibrary on literal dynamic sections: a program needs a build library
/// directly, through another build library, not at all, and through a cycle
/// of libraries that need each other. readDynamicLinkInfo is exercised by
/// test/kiln/pgo-shared-library.test on real links.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/SharedLibraries.h"

#include "gtest/gtest.h"

using namespace kiln::pgo;

namespace {

DynamicLinkInfo info(std::string LoadName, std::vector<std::string> Needed,
                     bool IsSharedLibrary = true) {
  DynamicLinkInfo I;
  I.IsSharedLibrary = IsSharedLibrary;
  I.LoadName = std::move(LoadName);
  I.Needed = std::move(Needed);
  return I;
}

TEST(SharedLibrariesTest, DirectAndTransitiveNeeds) {
  std::vector<BuildLibrary> Libraries = {
      {"/b/lib/libfront.so.1.0", info("libfront.so.1", {"libcore.so.2"})},
      {"/b/lib/libcore.so.2.3", info("libcore.so.2", {"libc.so.6"})},
      {"/b/lib/libother.so", info("libother.so", {"libc.so.6"})}};
  DynamicLinkInfo Program =
      info("app", {"libfront.so.1", "libc.so.6"}, /*IsSharedLibrary=*/false);
  EXPECT_TRUE(needsLibrary(Program, "libfront.so.1", Libraries));
  // Through libfront.so.1's own DT_NEEDED.
  EXPECT_TRUE(needsLibrary(Program, "libcore.so.2", Libraries));
  EXPECT_FALSE(needsLibrary(Program, "libother.so", Libraries));
  // A name the build did not link is not followed any further.
  EXPECT_FALSE(needsLibrary(info("tool", {"libz.so.1"}, false), "libcore.so.2",
                            Libraries));
}

TEST(SharedLibrariesTest, CyclesEnd) {
  std::vector<BuildLibrary> Libraries = {
      {"/b/liba.so", info("liba.so", {"libb.so"})},
      {"/b/libb.so", info("libb.so", {"liba.so"})}};
  DynamicLinkInfo Program = info("app", {"liba.so"}, false);
  EXPECT_TRUE(needsLibrary(Program, "libb.so", Libraries));
  EXPECT_FALSE(needsLibrary(Program, "libc.so", Libraries));
}

} // namespace

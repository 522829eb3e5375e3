//===- PluginLocationTest.cpp - Tests of the plugin lookup ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/PluginLocation.h"
#include "ScopedEnv.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstdlib>

using namespace llvm;

namespace {

static int AddressInTest;

using kiln::test::ScopedEnv;

TEST(PluginLocation, BundledPathIsLibBesideBin) {
  // The test binary lives in <build>/test/Unit/Support; the rule is the same
  // for every executable: <dir>/../lib/<plugin file name>.
  std::string Path = kiln::getBundledPluginPath("SupportTests", &AddressInTest);
  EXPECT_TRUE(sys::path::is_absolute(Path));
  EXPECT_EQ(sys::path::filename(Path), kiln::getPluginFileName());
  EXPECT_EQ(sys::path::filename(sys::path::parent_path(Path)), "lib");
  EXPECT_THAT(kiln::getPluginFileName(), testing::StartsWith("KilnPlugin-"));
}

TEST(PluginLocation, EnvironmentOverrides) {
  SmallString<128> File;
  ASSERT_FALSE(sys::fs::createTemporaryFile("kiln-plugin", "so", File));
  {
    ScopedEnv Env(kiln::PluginPathEnvVar, File.c_str());
    Expected<std::string> Found = kiln::findPlugin("x", &AddressInTest);
    ASSERT_THAT_EXPECTED(Found, Succeeded());
    SmallString<128> Real;
    ASSERT_FALSE(sys::fs::real_path(File, Real));
    EXPECT_EQ(*Found, std::string(Real));
  }
  sys::fs::remove(File);
}

TEST(PluginLocation, MissingFileIsAnErrorNamingIt) {
  ScopedEnv Env(kiln::PluginPathEnvVar, "/nonexistent/KilnPlugin-22.so");
  EXPECT_THAT_EXPECTED(kiln::findPlugin("x", &AddressInTest),
                       FailedWithMessage(testing::AllOf(
                           testing::HasSubstr("/nonexistent/KilnPlugin-22.so"),
                           testing::HasSubstr("$KILN_PLUGIN"))));
}

TEST(PluginLocation, DirectoryIsNotAPlugin) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("kiln-plugin-dir", Dir));
  {
    ScopedEnv Env(kiln::PluginPathEnvVar, Dir.c_str());
    EXPECT_THAT_EXPECTED(
        kiln::findPlugin("x", &AddressInTest),
        FailedWithMessage(testing::HasSubstr("is not a regular file")));
  }
  sys::fs::remove(Dir);
}

} // namespace

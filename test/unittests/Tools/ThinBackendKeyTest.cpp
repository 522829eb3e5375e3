//===- ThinBackendKeyTest.cpp - Tests of kiln thin-backend's cache key ----===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The cache key of a backend job changes with each input of the job and
/// with nothing else; the job itself is tested in test/kiln.
///
//===----------------------------------------------------------------------===//

#include "../Support/TempFile.h"
#include "kiln/Tools/ThinBackend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <functional>

using namespace llvm;
using testing::HasSubstr;

namespace {

std::string keyOf(const kiln::ThinBackendKeyInputs &Inputs) {
  Expected<std::string> Key = kiln::computeThinBackendCacheKey(Inputs);
  EXPECT_THAT_EXPECTED(Key, Succeeded());
  return Key ? *Key : "";
}

TEST(ThinBackendKey, ChangesWithEachInput) {
  kiln::test::TempFile Plugin("kiln-plugin", "so", "plugin bytes");
  kiln::ThinBackendKeyInputs Base;
  Base.PluginPath = Plugin.path();
  Base.Options = {"-kiln-section-placement"};
  Base.Input = "a.o";
  Base.InputBytes = "module a";
  Base.IndexBytes = "index of a";
  Base.Imports = {{"b.o", "module b"}, {"c.o", "module c"}};
  std::string Key = keyOf(Base);
  EXPECT_EQ(Key.size(), 32u);
  EXPECT_EQ(keyOf(Base), Key);

  // Imports are listed in the index's order, which is not the key's.
  kiln::ThinBackendKeyInputs Reordered = Base;
  std::swap(Reordered.Imports[0], Reordered.Imports[1]);
  EXPECT_EQ(keyOf(Reordered), Key);

  std::vector<std::function<void(kiln::ThinBackendKeyInputs &)>> Changes = {
      [](auto &I) { I.Options.push_back("-kiln-strtab"); },
      [](auto &I) { I.Options.clear(); },
      [](auto &I) { I.OptLevel = 3; },
      [](auto &I) { I.RelocModel = Reloc::Static; },
      [](auto &I) { I.CPU = "znver3"; },
      [](auto &I) { I.Input = "./a.o"; },
      [](auto &I) { I.InputBytes = "module a, rebuilt"; },
      [](auto &I) { I.IndexBytes = "index of a, relinked"; },
      [](auto &I) { I.Imports[1].second = "module c, rebuilt"; },
      [](auto &I) { I.Imports.pop_back(); },
      [](auto &I) { I.Imports[0].first = "d.o"; },
      [](auto &I) { I.CSProfileBytes = llvm::StringRef("profile"); },
  };
  for (size_t I = 0; I < Changes.size(); ++I) {
    kiln::ThinBackendKeyInputs Changed = Base;
    Changes[I](Changed);
    EXPECT_NE(keyOf(Changed), Key) << "change " << I;
  }

  // The profile counts by its bytes: another one changes the key, an empty
  // one is not the same as none.
  kiln::ThinBackendKeyInputs WithProfile = Base;
  WithProfile.CSProfileBytes = llvm::StringRef("profile");
  kiln::ThinBackendKeyInputs OtherProfile = Base;
  OtherProfile.CSProfileBytes = llvm::StringRef("profile, retrained");
  kiln::ThinBackendKeyInputs EmptyProfile = Base;
  EmptyProfile.CSProfileBytes = llvm::StringRef();
  EXPECT_NE(keyOf(WithProfile), keyOf(OtherProfile));
  EXPECT_NE(keyOf(EmptyProfile), Key);
}

TEST(ThinBackendKey, NeedsThePlugin) {
  kiln::ThinBackendKeyInputs Inputs;
  Inputs.PluginPath = "/nonexistent/KilnPlugin-22.so";
  EXPECT_THAT_EXPECTED(kiln::computeThinBackendCacheKey(Inputs),
                       FailedWithMessage(HasSubstr("cannot read "
                                                   "/nonexistent/"
                                                   "KilnPlugin-22.so")));
}

} // namespace

//===- ConfigurationDigestTest.cpp - Tests of Kiln's cache-key digest -----===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The digest must change with everything that changes Kiln's output (the
/// plugin's bytes, an option, the contents of a file an option reads) and
/// with nothing else (the order of different options, an output file).
///
//===----------------------------------------------------------------------===//

#include "kiln/Support/ConfigurationDigest.h"
#include "ScopedEnv.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstdlib>
#include <optional>

using namespace llvm;
using testing::ElementsAre;
using testing::HasSubstr;
using testing::IsEmpty;

namespace {

/// A file with the given contents, removed at the end of the test.
class TempFile {
public:
  explicit TempFile(StringRef Contents) {
    EXPECT_FALSE(sys::fs::createTemporaryFile("kiln-digest", "txt", Path));
    write(Contents);
  }
  ~TempFile() { sys::fs::remove(Path); }
  void write(StringRef Contents) {
    std::error_code EC;
    raw_fd_ostream OS(Path, EC);
    EXPECT_FALSE(EC);
    OS << Contents;
  }
  std::string path() const { return Path.str().str(); }

private:
  SmallString<128> Path;
};

using kiln::test::ScopedEnv;

std::string digestOf(StringRef Plugin, std::vector<std::string> Options) {
  kiln::StableDigest Digest;
  Error E = kiln::addKilnConfiguration(Digest, Plugin, Options);
  EXPECT_THAT_ERROR(std::move(E), Succeeded());
  return Digest.hex();
}

TEST(ConfigurationDigest, OptionNames) {
  EXPECT_EQ(kiln::getOptionName("-kiln-startup-functions=a.txt"),
            "kiln-startup-functions");
  EXPECT_EQ(kiln::getOptionName("--kiln-strtab"), "kiln-strtab");
  EXPECT_EQ(kiln::getOptionName("-mcpu=znver3"), "mcpu");
  EXPECT_TRUE(kiln::isOutputOption("-kiln-function-order-out=o.txt"));
  EXPECT_FALSE(kiln::isOutputOption("-kiln-startup-profile=out.profdata"));
}

TEST(ConfigurationDigest, CanonicalOrderKeepsRepeatedOptionsInOrder) {
  // Different names sort; the occurrences of one name keep their order,
  // because the last one wins.
  EXPECT_THAT(kiln::canonicalizeOptions(
                  {"-kiln-strtab", "-kiln-b=2", "-kiln-a", "-kiln-b=1"}),
              ElementsAre("-kiln-a", "-kiln-b=2", "-kiln-b=1", "-kiln-strtab"));
  EXPECT_THAT(kiln::canonicalizeOptions({}), IsEmpty());
}

TEST(ConfigurationDigest, FieldsAreDelimited) {
  kiln::StableDigest A, B, C;
  A.add("x", "ab");
  A.add("y", "c");
  B.add("x", "a");
  B.add("y", "bc");
  C.add("x", "ab");
  C.add("y", "c");
  EXPECT_NE(A.hex(), B.hex());
  EXPECT_EQ(A.hex(), C.hex());
  EXPECT_EQ(A.hex().size(), 32u);
  EXPECT_EQ(A.hex(), StringRef(A.hex()).lower());
  EXPECT_EQ(kiln::hashBytes("kiln"), kiln::hashBytes("kiln"));
  EXPECT_NE(kiln::hashBytes("kiln"), kiln::hashBytes("kilm"));
}

TEST(ConfigurationDigest, CoversPluginOptionsAndTheirFiles) {
  TempFile Plugin("plugin v1");
  TempFile Startup("main\n");
  TempFile Order("an output\n");
  std::string Use = "-kiln-startup-functions=" + Startup.path();
  std::string Out = "-kiln-function-order-out=" + Order.path();

  std::string Base = digestOf(Plugin.path(), {"-kiln-section-placement", Use});
  // Same configuration, same digest; different options in another order too.
  EXPECT_EQ(digestOf(Plugin.path(), {"-kiln-section-placement", Use}), Base);
  EXPECT_EQ(digestOf(Plugin.path(), {Use, "-kiln-section-placement"}), Base);
  // Another option.
  EXPECT_NE(digestOf(Plugin.path(), {"-kiln-strtab", Use}), Base);
  EXPECT_NE(digestOf(Plugin.path(), {Use}), Base);

  // The file an option reads, changed under the same name.
  Startup.write("init\n");
  std::string NewList =
      digestOf(Plugin.path(), {"-kiln-section-placement", Use});
  EXPECT_NE(NewList, Base);

  // The plugin rebuilt.
  Plugin.write("plugin v2");
  std::string NewPlugin =
      digestOf(Plugin.path(), {"-kiln-section-placement", Use});
  EXPECT_NE(NewPlugin, NewList);

  // An output file's contents are not an input.
  std::string WithOut = digestOf(Plugin.path(), {Out});
  Order.write("another output\n");
  EXPECT_EQ(digestOf(Plugin.path(), {Out}), WithOut);
}

TEST(ConfigurationDigest, KeysKilnLldsNewListsByContentOnly) {
  // kiln-lld writes the list anew, at a new path, in each link.
  TempFile Plugin("plugin");
  TempFile First("kiln-unique-local-names v1\nf a.c\n");
  TempFile Second("kiln-unique-local-names v1\nf a.c\n");
  auto Digest = [&](const TempFile &List) {
    return digestOf(Plugin.path(), {"-kiln-unique-local-names=" + List.path()});
  };
  EXPECT_EQ(Digest(First), Digest(Second));
  Second.write("kiln-unique-local-names v1\nf b.c\n");
  EXPECT_NE(Digest(First), Digest(Second));
}

TEST(ConfigurationDigest, UnreadablePluginIsAnError) {
  kiln::StableDigest Digest;
  EXPECT_THAT_ERROR(
      kiln::addKilnConfiguration(Digest, "/nonexistent/KilnPlugin-22.so", {}),
      FailedWithMessage(HasSubstr("the Kiln plugin: cannot read "
                                  "/nonexistent/KilnPlugin-22.so")));
}

TEST(ConfigurationDigest, KilnOptionsVariable) {
  {
    ScopedEnv Env(kiln::KilnOptionsEnvVar,
                  "-kiln-section-placement '-kiln-startup-functions=a b.txt'");
    EXPECT_THAT(kiln::getKilnOptionsFromEnvironment(),
                ElementsAre("-kiln-section-placement",
                            "-kiln-startup-functions=a b.txt"));
  }
  {
    // The plugin ignores the variable when a word is not Kiln's.
    ScopedEnv Env(kiln::KilnOptionsEnvVar, "-kiln-strtab -inline-threshold=9");
    EXPECT_THAT(kiln::getKilnOptionsFromEnvironment(), IsEmpty());
  }
  {
    ScopedEnv Env(kiln::KilnOptionsEnvVar, "   ");
    EXPECT_THAT(kiln::getKilnOptionsFromEnvironment(), IsEmpty());
  }
}

} // namespace

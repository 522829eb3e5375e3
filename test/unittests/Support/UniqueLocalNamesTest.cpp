//===- UniqueLocalNamesTest.cpp - Tests of the unique names of statics ----===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;

namespace {

TEST(UniqueLocalNames, SuffixIsClangsUniqueInternalLinkageName) {
  // `clang -funique-internal-linkage-names -c a.c` names a static of a.c
  // `...__uniq.189702194130118823156495581805298510048`.
  EXPECT_EQ(getUniqueLocalSuffix("a.c"),
            ".__uniq.189702194130118823156495581805298510048");
  EXPECT_NE(getUniqueLocalSuffix("a.c"), getUniqueLocalSuffix("./a.c"));
}

TEST(UniqueLocalNames, ListRoundTrips) {
  std::vector<UniqueLocal> Locals = {{"init", "src/a b.c"},
                                     {"_ZN12_GLOBAL__N_14initEv", "b.cpp"}};
  std::string Text;
  raw_string_ostream OS(Text);
  writeUniqueLocalNames(Locals, OS);
  EXPECT_EQ(Text, "kiln-unique-local-names v1\ninit src/a b.c\n"
                  "_ZN12_GLOBAL__N_14initEv b.cpp\n");
  Expected<std::vector<UniqueLocal>> Read =
      parseUniqueLocalNames("list.txt", Text);
  ASSERT_THAT_EXPECTED(Read, Succeeded());
  EXPECT_EQ(*Read, Locals);
}

TEST(UniqueLocalNames, RefusesWhatIsNotAList) {
  EXPECT_THAT_EXPECTED(parseUniqueLocalNames("l.txt", ""),
                       FailedWithMessage("l.txt:1: empty file"));
  EXPECT_THAT_EXPECTED(
      parseUniqueLocalNames("l.txt", "v1\nf a.c\n"),
      FailedWithMessage("l.txt:1: not a list of local names to make unique "
                        "(the first line is not 'kiln-unique-local-names "
                        "v1')"));
  EXPECT_THAT_EXPECTED(
      parseUniqueLocalNames("l.txt", "kiln-unique-local-names v1\n\nf\n"),
      FailedWithMessage("l.txt:3: 'f' is not '<name> <source file name>'"));
  Expected<std::vector<UniqueLocal>> Empty =
      parseUniqueLocalNames("l.txt", "kiln-unique-local-names v1\n");
  ASSERT_THAT_EXPECTED(Empty, Succeeded());
  EXPECT_TRUE(Empty->empty());
}

} // namespace

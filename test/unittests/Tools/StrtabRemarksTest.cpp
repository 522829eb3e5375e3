//===- StrtabRemarksTest.cpp - Tests of kiln-strtab's remark reader -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// readStrtabRemarks on hand-written YAML remark files: which remarks count,
/// how decisions from several files are merged (sorted, duplicates once),
/// the per-table lookup `kiln relocs` uses, and the errors.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/StrtabRemarks.h"

#include "../Support/TempFile.h"

#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using namespace kiln;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

// One remark document of kiln-strtab with the given type, name and
// arguments (each "Key: value" line of the Args list).
std::string remark(StringRef Type, StringRef Pass, StringRef Name,
                   StringRef Table, StringRef Extra = "") {
  return ("--- !" + Type + "\nPass: " + Pass + "\nName: " + Name +
          "\nFunction: f\nArgs:\n  - String: 'string table '\n  - Table: " +
          Table + "\n" + Extra)
      .str();
}

std::string missed(StringRef Name, StringRef Table, StringRef Reason,
                   StringRef Function = "") {
  std::string Extra = ("  - Reason: '" + Reason + "'\n").str();
  if (!Function.empty())
    Extra += ("  - Function: " + Function + "\n").str();
  return remark("Missed", "kiln-strtab", Name, Table, Extra);
}

std::vector<std::string> tables(ArrayRef<StrtabRefusal> Refusals) {
  std::vector<std::string> Names;
  for (const StrtabRefusal &R : Refusals)
    Names.push_back(R.Table + ":" + R.Reason + ":" + R.Function);
  return Names;
}

TEST(StrtabRemarks, MergesFilesSortedAndOnce) {
  // Two translation units refuse the header's table `kw` for the same
  // reason: it is listed once. Remarks of other passes are skipped.
  test::TempFile A("strtab-a", "yaml",
                   remark("Passed", "kiln-strtab", "Lowered", "names") +
                       missed("UnknownCallee", "opts", "passed", "sink") +
                       missed("Escape", "kw", "escapes") +
                       remark("Missed", "inline", "NoDefinition", "ignored"));
  test::TempFile B("strtab-b", "yaml",
                   missed("Escape", "kw", "escapes") +
                       remark("Passed", "kiln-strtab", "Lowered", "names") +
                       remark("Passed", "kiln-strtab", "Lowered", "days"));
  Expected<StrtabDecisions> D =
      readStrtabRemarks({A.path().str(), B.path().str()});
  ASSERT_THAT_EXPECTED(D, Succeeded());
  EXPECT_EQ(D->NumFiles, 2u);
  EXPECT_THAT(D->Lowered, ElementsAre("days", "names"));
  EXPECT_THAT(tables(D->Refused),
              ElementsAre("kw:Escape:", "opts:UnknownCallee:sink"));
  EXPECT_EQ(D->Refused[1].Text, "passed");
}

TEST(StrtabRemarks, LooksUpRefusalsByTable) {
  // `t` was refused for different reasons in two modules: both are found,
  // and nothing for a table no remark names.
  test::TempFile F("strtab-lookup", "yaml",
                   missed("Escape", "t", "escapes") +
                       missed("Used", "a", "used") +
                       missed("NotLocal", "t", "not local") +
                       missed("Store", "z", "stored"));
  Expected<StrtabDecisions> D = readStrtabRemarks({F.path().str()});
  ASSERT_THAT_EXPECTED(D, Succeeded());
  EXPECT_THAT(tables(D->getRefusals("t")),
              ElementsAre("t:Escape:", "t:NotLocal:"));
  EXPECT_THAT(tables(D->getRefusals("a")), ElementsAre("a:Used:"));
  EXPECT_THAT(D->getRefusals("m"), IsEmpty());
  EXPECT_THAT(D->getRefusals("zz"), IsEmpty());
}

TEST(StrtabRemarks, EmptyFileHoldsNoDecision) {
  test::TempFile F("strtab-empty", "yaml", "\n");
  Expected<StrtabDecisions> D = readStrtabRemarks({F.path().str()});
  ASSERT_THAT_EXPECTED(D, Succeeded());
  EXPECT_EQ(D->NumFiles, 1u);
  EXPECT_THAT(D->Lowered, IsEmpty());
  EXPECT_THAT(D->Refused, IsEmpty());
}

TEST(StrtabRemarks, ErrorsNameTheFile) {
  test::TempFile NotYAML("strtab-bad", "yaml", "int main() { return 0; }\n");
  Expected<StrtabDecisions> D = readStrtabRemarks({NotYAML.path().str()});
  EXPECT_THAT_EXPECTED(D,
                       FailedWithMessage(HasSubstr("not a YAML remark file")));

  // A kiln-strtab remark must say which table it is about.
  test::TempFile NoTable("strtab-notable", "yaml",
                         "--- !Missed\nPass: kiln-strtab\nName: Escape\n"
                         "Function: f\nArgs:\n  - String: x\n");
  D = readStrtabRemarks({NoTable.path().str()});
  EXPECT_THAT_EXPECTED(D, FailedWithMessage(HasSubstr("without a Table")));

  D = readStrtabRemarks({"/nonexistent/strtab.yaml"});
  EXPECT_THAT_EXPECTED(D, FailedWithMessage(HasSubstr("cannot read remarks")));
}

} // namespace

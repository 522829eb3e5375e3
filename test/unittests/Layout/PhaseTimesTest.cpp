//===- PhaseTimesTest.cpp - Tests of the phase timer ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/PhaseTimes.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln::layout;
using testing::ElementsAre;

namespace {

// The phase column of each printed line (the numbers vary).
static SmallVector<std::string> printPhases(const PhaseTimes &Times) {
  std::string Text;
  raw_string_ostream OS(Text);
  Times.print(OS);
  SmallVector<StringRef> Lines;
  StringRef(Text).split(Lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  SmallVector<std::string> Phases;
  if (Lines.empty())
    return Phases;
  // The name starts under the head of its column.
  size_t Column = Lines.front().find("phase");
  for (StringRef Line : ArrayRef(Lines).drop_front())
    Phases.push_back(Line.substr(Column).str());
  return Phases;
}

TEST(PhaseTimes, NestedPhasesInStartOrder) {
  PhaseTimes Times;
  {
    PhaseTimes::Scope Outer(&Times, "outer");
    {
      PhaseTimes::Scope First(&Times, "first");
    }
    {
      PhaseTimes::Scope Second(&Times, "second " + Twine(2));
      PhaseTimes::Scope Inner(&Times, "inner");
    }
  }
  PhaseTimes::Scope After(&Times, "after");
  EXPECT_EQ(Times.getNumPhases(), 5u);
  EXPECT_THAT(printPhases(Times), ElementsAre("outer", "  first", "  second 2",
                                              "    inner", "after"));
}

TEST(PhaseTimes, NullTimesRecordNothing) {
  PhaseTimes::Scope Phase(nullptr, "ignored");
  PhaseTimes Times;
  EXPECT_EQ(Times.getNumPhases(), 0u);
  EXPECT_THAT(printPhases(Times), ElementsAre());
}

TEST(PhaseTimes, PrintsColumns) {
  PhaseTimes Times;
  {
    PhaseTimes::Scope Phase(&Times, "work");
  }
  std::string Text;
  raw_string_ostream OS(Text);
  Times.print(OS);
  SmallVector<StringRef> Lines;
  StringRef(Text).split(Lines, '\n', -1, false);
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[0], "    wall    user  system  faults/1000  peak MiB  phase");
  // Five numbers, then the name.
  SmallVector<StringRef> Fields;
  Lines[1].split(Fields, ' ', -1, false);
  ASSERT_EQ(Fields.size(), 6u);
  for (StringRef Number : ArrayRef(Fields).drop_back()) {
    double Value;
    EXPECT_FALSE(Number.getAsDouble(Value)) << Number.str();
    EXPECT_GE(Value, 0);
  }
  EXPECT_EQ(Fields[5], "work");
}

} // namespace

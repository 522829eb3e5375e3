//===- ImportBudget.cpp - Import and inline budgets -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/ImportBudget.h"

#include <cmath>
#include <limits>

using namespace llvm;
using namespace kiln;

Expected<uint64_t> kiln::parseImportBudget(StringRef Text, uint64_t Total) {
  StringRef Number = Text.trim();
  bool Percent = Number.consume_back("%");
  if (Percent) {
    // getAsDouble accepts "inf" and "nan": a percentage is a finite number
    // from 0 to 100, so that the product converts to an integer exactly as
    // the C++ rules allow (a double out of uint64_t's range does not).
    double P;
    if (Number.getAsDouble(P) || !std::isfinite(P) || P < 0 || P > 100)
      return createStringError(inconvertibleErrorCode(),
                               "'%s' is not a percentage (from 0%% to 100%%)",
                               Text.str().c_str());
    double Budget = double(Total) * (P / 100.0);
    // double(Total) rounds up to 2^64 for the largest totals.
    if (Budget >= 0x1p64)
      return std::numeric_limits<uint64_t>::max();
    return uint64_t(Budget);
  }
  uint64_t N;
  if (Number.getAsInteger(10, N))
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is not a number of instructions or a "
                             "percentage",
                             Text.str().c_str());
  return N;
}

Expected<uint64_t> kiln::parseInlineBudget(StringRef Text, uint64_t Total) {
  Expected<uint64_t> Budget = parseImportBudget(Text, Total);
  if (!Budget)
    return Budget.takeError();
  if (*Budget == 0)
    return createStringError(inconvertibleErrorCode(),
                             "'%s' is a growth of 0 instructions (of the "
                             "program's %llu): it plans no inlining; leave "
                             "--inline-budget out to plan imports alone",
                             Text.str().c_str(), (unsigned long long)Total);
  if (*Budget >= Total)
    return createStringError(
        inconvertibleErrorCode(),
        "'%s' is a growth of %llu instructions, the program's whole size "
        "(%llu) or more: every cross-module call site the profile ran would "
        "be inlined; give a share below 100%% (a few percent)",
        Text.str().c_str(), (unsigned long long)*Budget,
        (unsigned long long)Total);
  return *Budget;
}

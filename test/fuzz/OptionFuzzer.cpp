//===- OptionFuzzer.cpp - Fuzz the parsers of option values ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary text to the parsers of the values of `--scenario=`,
/// `--page-size=` and `--algorithm=` (and kiln-lld's `--kiln-*` spellings
/// of them) and of `kiln imports --budget=`: parseScenarioSpec,
/// parsePageSize, parseOrderAlgorithm, parseImportBudget. What they accept
/// must be what their contracts say: a scenario has a kind, a profile and a
/// weight in range; a page size is the exact value of its text and a power
/// of two; an algorithm is named by its registry name; a budget given as a
/// percentage is at most the total.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/Counts.h"
#include "kiln/Layout/LayoutAlgorithm.h"
#include "kiln/Order/OrderPlanner.h"
#include "kiln/Sources/ProfiledGraph.h"
#include "kiln/Tools/ImportsCommand.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace kiln;

static void checkScenario(StringRef Text) {
  Expected<ScenarioSpec> Spec = parseScenarioSpec(Text);
  if (!Spec) {
    consumeError(Spec.takeError());
    return;
  }
  if (Spec->Path.empty() || !layout::isValidScenarioWeight(Spec->Weight))
    std::abort();
  if (!Text.starts_with("startup=") && !Text.starts_with("steady="))
    std::abort();
}

// The value of \p Text as a page size, computed without overflow: 0 if it
// is not one (not digits with an optional K/M, or 2^64 or more).
static unsigned __int128 exactPageSize(StringRef Text) {
  unsigned __int128 Multiplier = 1;
  if (Text.consume_back_insensitive("k"))
    Multiplier = 1024;
  else if (Text.consume_back_insensitive("m"))
    Multiplier = 1024 * 1024;
  uint64_t Value;
  if (Text.getAsInteger(10, Value))
    return 0;
  return Value * Multiplier;
}

static void checkPageSize(StringRef Text) {
  Expected<uint64_t> Size = parsePageSize(Text);
  if (!Size) {
    consumeError(Size.takeError());
    return;
  }
  if (!isPowerOf2_64(*Size) || exactPageSize(Text) != *Size)
    std::abort();
}

static void checkAlgorithm(StringRef Text) {
  Expected<OrderAlgorithm> Algorithm = parseOrderAlgorithm(Text);
  if (!Algorithm) {
    consumeError(Algorithm.takeError());
    return;
  }
  if (layout::getOrderAlgorithmName(*Algorithm) != Text)
    std::abort();
}

static void checkBudget(StringRef Text) {
  for (uint64_t Total : {uint64_t(0), uint64_t(1000), UINT64_MAX}) {
    Expected<uint64_t> Budget = parseImportBudget(Text, Total);
    if (!Budget) {
      consumeError(Budget.takeError());
      continue;
    }
    if (Text.trim().ends_with("%") && *Budget > Total)
      std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  checkScenario(Text);
  checkPageSize(Text);
  checkAlgorithm(Text);
  checkBudget(Text);
  return 0;
}

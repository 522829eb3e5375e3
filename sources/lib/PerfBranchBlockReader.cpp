//===- PerfBranchBlockReader.cpp - Block counts from LBR records ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads `perf script -F ip,brstack` text: one sample per line, the sampled
/// instruction pointer and then the branch stack, most recent branch first,
/// each entry `0x<from>/0x<to>/<flags>...` (perf adds the prediction flag,
/// the transaction fields and the cycle count). Each entry is one taken
/// branch. Between two consecutive entries the program ran straight from
/// the older entry's target to the newer entry's source, so every block on
/// that run executed once and fell through to the next: the range walk of
/// AutoFDO's and Propeller's profile generators. Sampling makes these
/// counts relative, not exact.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "BlockBranches.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace kiln {

static bool parseAddress(StringRef Field, uint64_t &Value) {
  Field.consume_front("0x");
  return !Field.empty() && !Field.getAsInteger(16, Value);
}

Error readPerfBranchProfile(MemoryBufferRef Buffer, const BlockAddressMap &Map,
                            BlockCounts &Counts, BlockReadStats &Stats) {
  StringRef Name = Buffer.getBufferIdentifier();
  unsigned LineNo = 0;
  auto LineError = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(),
                             Name + ":" + Twine(LineNo) + ": " + Message);
  };
  uint64_t NumEntries = 0;
  StringRef Rest = Buffer.getBuffer();
  struct Branch {
    uint64_t From;
    uint64_t To;
  };
  SmallVector<Branch, 32> Stack;
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    SmallVector<StringRef, 34> Fields;
    Line.split(Fields, ' ', -1, /*KeepEmpty=*/false);
    Stack.clear();
    for (auto [I, Field] : enumerate(Fields)) {
      Field = Field.trim();
      if (!Field.contains('/')) {
        uint64_t IP = 0;
        if (I == 0 && parseAddress(Field, IP))
          continue; // The sampled instruction pointer.
        return LineError("expected a branch stack entry "
                         "'0x<from>/0x<to>/...', found '" +
                         Field + "'");
      }
      SmallVector<StringRef, 8> Parts;
      Field.split(Parts, '/');
      Branch B{0, 0};
      if (Parts.size() < 2 || !parseAddress(Parts[0], B.From) ||
          !parseAddress(Parts[1], B.To))
        return LineError("malformed branch stack entry '" + Field + "'");
      Stack.push_back(B);
    }
    NumEntries += Stack.size();
    for (const Branch &B : Stack)
      addTakenBranch(Map, B.From, B.To, 1, Counts, Stats);
    // Entry I+1 is older than entry I: the code from its target to entry
    // I's source ran straight through.
    for (size_t I = 0; I + 1 < Stack.size(); ++I)
      if (!addStraightRun(Map, Stack[I + 1].To, Stack[I].From, 1, Counts))
        ++Stats.BrokenRanges;
  }
  if (NumEntries == 0)
    return createStringError(
        inconvertibleErrorCode(),
        Name + ": no branch stack entries (record with perf record -b, and "
               "print with perf script -F ip,brstack)");
  return Error::success();
}

} // namespace kiln

//===- LinkerPolicy.cpp - What the linker can move ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/LinkerPolicy.h"

using namespace llvm;
using namespace kiln;

unsigned kiln::markLoadEntry(LinkerInputs &Inputs, StringRef EntrySymbol) {
  unsigned Marked = 0;
  if (EntrySymbol.empty())
    return Marked;
  for (InputFunction &F : Inputs.Functions)
    if (!F.IsLocal && F.Name == EntrySymbol) {
      F.RunsAtLoad = true;
      ++Marked;
    }
  return Marked;
}

bool kiln::isOrderableInELF(const InputFunction &F) {
  return F.HasOwnSection || (F.RunsAtLoad && F.SectionSize > 0 &&
                             F.SectionSize <= MaxMovedLoadSectionSize);
}

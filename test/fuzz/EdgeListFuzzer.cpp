//===- EdgeListFuzzer.cpp - Fuzz the lld edge-list reader -----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to parseEdgeList, the scanner behind `--edges=`,
/// and to readEdgeList, which adds a list to a call graph. A list that
/// parses must give edges whose ids index its names, and both readers must
/// agree on whether it is well-formed.
///
//===----------------------------------------------------------------------===//

#include "EdgeListParser.h"

#include "kiln/Layout/CallGraph.h"
#include "kiln/Sources/EdgeList.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace kiln;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);
  MemoryBufferRef Buffer(Text, "fuzz.edges");

  Expected<ParsedEdgeList> Parsed = parseEdgeList(Buffer);
  const bool ParseOK = static_cast<bool>(Parsed);
  if (ParseOK) {
    for (const layout::Edge &E : Parsed->Edges)
      if (E.Caller >= Parsed->Names.size() || E.Callee >= Parsed->Names.size())
        std::abort();
    for (StringRef Name : Parsed->Names)
      if (Name.empty() || Name.begin() < Text.begin() ||
          Name.end() > Text.end())
        std::abort();
  } else {
    consumeError(Parsed.takeError());
  }

  layout::CallGraph G;
  layout::ScenarioId S =
      G.addScenario("fuzz", layout::ScenarioKind::SteadyState);
  Error E = readEdgeList(Buffer, G, S);
  if (static_cast<bool>(E) == ParseOK)
    std::abort();
  consumeError(std::move(E));
  return 0;
}

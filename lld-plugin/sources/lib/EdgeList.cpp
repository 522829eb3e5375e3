//===- EdgeList.cpp - lld's call-graph edge lists -------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/EdgeList.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

#include "kiln/Sources/LinkerInputs.h"

using namespace llvm;
using namespace kiln;

namespace {
struct ParsedEdge {
  StringRef Caller;
  StringRef Callee;
  uint64_t Count;
};
} // namespace

Error kiln::readEdgeList(MemoryBufferRef Buffer, layout::CallGraph &G,
                         layout::ScenarioId S) {
  // Parse everything first so that a bad line leaves the graph untouched.
  std::vector<ParsedEdge> Edges;
  StringRef Rest = Buffer.getBuffer();
  for (unsigned LineNo = 1; !Rest.empty(); ++LineNo) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    Line = Line.split('#').first.trim();
    if (Line.empty())
      continue;
    SmallVector<StringRef, 4> Fields;
    SplitString(Line, Fields, " \t\r");
    uint64_t Count;
    if (Fields.size() != 3)
      return createStringError(
          inconvertibleErrorCode(),
          "%s:%u: expected 'caller callee count', found %zu field(s)",
          Buffer.getBufferIdentifier().str().c_str(), LineNo, Fields.size());
    if (!to_integer(Fields[2], Count, 10))
      return createStringError(inconvertibleErrorCode(),
                               "%s:%u: count '%s' is not an unsigned integer",
                               Buffer.getBufferIdentifier().str().c_str(),
                               LineNo, Fields[2].str().c_str());
    Edges.push_back({Fields[0], Fields[1], Count});
  }
  for (const ParsedEdge &E : Edges) {
    layout::NodeId Caller = G.getOrAddNode(E.Caller);
    layout::NodeId Callee = G.getOrAddNode(E.Callee);
    G.addEdge(S, Caller, Callee, E.Count);
    G.addCount(S, Callee, E.Count);
  }
  return Error::success();
}

Error kiln::readEdgeListFile(StringRef Path, layout::CallGraph &G,
                             layout::ScenarioId S) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return createStringError(Buffer.getError(), "%s: %s", Path.str().c_str(),
                             Buffer.getError().message().c_str());
  return readEdgeList((*Buffer)->getMemBufferRef(), G, S);
}

Error kiln::addEdgeListFunctions(ArrayRef<std::string> Paths,
                                 LinkerInputs &Inputs) {
  layout::CallGraph Scratch;
  layout::ScenarioId S =
      Scratch.addScenario("scratch", layout::ScenarioKind::SteadyState);
  for (const std::string &Path : Paths)
    if (Error E = readEdgeListFile(Path, Scratch, S))
      return E;
  if (Inputs.Format == ObjectFormat::Unknown)
    Inputs.Format = ObjectFormat::ELF;
  for (const layout::Node &N : Scratch.getNodes()) {
    InputFunction F;
    F.Name = N.Name;
    F.Object = "<edge list>";
    F.HasOwnSection = true;
    Inputs.Functions.push_back(std::move(F));
  }
  return Error::success();
}

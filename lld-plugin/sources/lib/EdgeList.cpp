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
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include "kiln/Sources/LinkerInputs.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace kiln;

namespace {
/// An edge list parsed into interned names and id pairs.
struct ParsedEdgeList {
  std::vector<StringRef> Names;    ///< In order of first appearance.
  std::vector<layout::Edge> Edges; ///< Ids index Names.
};
} // namespace

static bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

/// Parses \p Buffer; the names point into it. A hand-written scanner: edge
/// lists of millions of lines are read in seconds.
static Expected<ParsedEdgeList> parseEdgeList(MemoryBufferRef Buffer) {
  ParsedEdgeList Result;
  // Sized for lines of ~20 bytes, to spare rehashing on large lists.
  size_t Estimate = Buffer.getBufferSize() / 20;
  StringMap<uint32_t> Ids(unsigned(std::min<size_t>(Estimate, 1u << 30)));
  Result.Edges.reserve(Estimate);
  // Names keep pointing into the buffer (the map's keys are copies).
  auto Intern = [&](StringRef Name) {
    auto [It, Inserted] = Ids.try_emplace(Name, Result.Names.size());
    if (Inserted)
      Result.Names.push_back(Name);
    return It->second;
  };
  StringRef Text = Buffer.getBuffer();
  const char *P = Text.begin(), *End = Text.end();
  for (unsigned LineNo = 1; P < End; ++LineNo) {
    const char *LineEnd =
        static_cast<const char *>(std::memchr(P, '\n', End - P));
    if (!LineEnd)
      LineEnd = End;
    const char *Hash =
        static_cast<const char *>(std::memchr(P, '#', LineEnd - P));
    const char *FieldsEnd = Hash ? Hash : LineEnd;
    StringRef Fields[3];
    unsigned NumFields = 0;
    for (const char *Q = P; Q < FieldsEnd;) {
      while (Q < FieldsEnd && isBlank(*Q))
        ++Q;
      if (Q == FieldsEnd)
        break;
      const char *Start = Q;
      while (Q < FieldsEnd && !isBlank(*Q))
        ++Q;
      if (NumFields < 3)
        Fields[NumFields] = StringRef(Start, Q - Start);
      ++NumFields;
    }
    P = LineEnd + 1;
    if (NumFields == 0)
      continue;
    if (NumFields != 3)
      return createStringError(
          inconvertibleErrorCode(),
          "%s:%u: expected 'caller callee count', found %u field(s)",
          Buffer.getBufferIdentifier().str().c_str(), LineNo, NumFields);
    uint64_t Count;
    if (!to_integer(Fields[2], Count, 10))
      return createStringError(inconvertibleErrorCode(),
                               "%s:%u: count '%s' is not an unsigned integer",
                               Buffer.getBufferIdentifier().str().c_str(),
                               LineNo, Fields[2].str().c_str());
    uint32_t Caller = Intern(Fields[0]);
    uint32_t Callee = Intern(Fields[1]);
    Result.Edges.push_back({Caller, Callee, Count});
  }
  return Result;
}

Error kiln::readEdgeList(MemoryBufferRef Buffer, layout::CallGraph &G,
                         layout::ScenarioId S) {
  // Parse everything first so that a bad line leaves the graph untouched.
  Expected<ParsedEdgeList> Parsed = parseEdgeList(Buffer);
  if (!Parsed)
    return Parsed.takeError();
  std::vector<layout::NodeId> NodeOf;
  NodeOf.reserve(Parsed->Names.size());
  for (StringRef Name : Parsed->Names)
    NodeOf.push_back(G.getOrAddNode(Name));
  std::vector<uint64_t> CalleeCounts(Parsed->Names.size(), 0);
  for (layout::Edge &E : Parsed->Edges) {
    CalleeCounts[E.Callee] += E.Count;
    E.Caller = NodeOf[E.Caller];
    E.Callee = NodeOf[E.Callee];
  }
  G.addEdges(S, Parsed->Edges);
  // A callee's count is also its execution count.
  for (size_t I = 0; I < NodeOf.size(); ++I)
    if (CalleeCounts[I])
      G.addCount(S, NodeOf[I], CalleeCounts[I]);
  return Error::success();
}

Expected<std::vector<std::shared_ptr<const EdgeListData>>>
kiln::loadEdgeLists(ArrayRef<std::string> Paths) {
  std::vector<std::shared_ptr<const EdgeListData>> Lists;
  for (const std::string &Path : Paths) {
    auto Data = std::make_shared<EdgeListData>();
    Data->Path = Path;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        MemoryBuffer::getFile(Path, /*IsText=*/true);
    if (!Buffer)
      return createStringError(Buffer.getError(), "%s: %s", Path.c_str(),
                               Buffer.getError().message().c_str());
    Data->Buffer = std::move(*Buffer);
    Expected<ParsedEdgeList> Parsed =
        parseEdgeList(Data->Buffer->getMemBufferRef());
    if (!Parsed)
      return Parsed.takeError();
    Data->Names = std::move(Parsed->Names);
    Data->Edges = std::move(Parsed->Edges);
    Lists.push_back(std::move(Data));
  }
  return Lists;
}

void kiln::addEdgeListFunctions(
    ArrayRef<std::shared_ptr<const EdgeListData>> Lists, LinkerInputs &Inputs) {
  // One list's names are unique already; several lists may repeat names.
  StringSet<> Seen;
  bool Dedupe = Lists.size() > 1;
  if (Inputs.Format == ObjectFormat::Unknown)
    Inputs.Format = ObjectFormat::ELF;
  for (const std::shared_ptr<const EdgeListData> &List : Lists)
    for (StringRef Name : List->Names) {
      if (Dedupe && !Seen.insert(Name).second)
        continue;
      InputFunction F;
      F.Name = Name.str();
      F.Object = "<edge list>";
      F.HasOwnSection = true;
      Inputs.Functions.push_back(std::move(F));
    }
}

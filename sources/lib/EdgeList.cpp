//===- EdgeList.cpp - lld's call-graph edge lists -------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/EdgeList.h"

#include "EdgeListParser.h"

#include "kiln/Layout/NameIndex.h"
#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/ProfiledGraph.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace llvm;
using namespace kiln;

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
  addCallsWithCalleeCounts(G, S, Parsed->Edges, NodeOf);
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
  layout::NameIndex Seen;
  bool Dedupe = Lists.size() > 1;
  auto NameOf = [&](uint32_t I) { return Inputs.Functions[I].Name; };
  if (Inputs.Format == ObjectFormat::Unknown)
    Inputs.Format = ObjectFormat::ELF;
  size_t NumNames = 0;
  for (const std::shared_ptr<const EdgeListData> &List : Lists)
    NumNames += List->Names.size();
  Inputs.Functions.reserve(Inputs.Functions.size() + NumNames);
  for (const std::shared_ptr<const EdgeListData> &List : Lists)
    for (StringRef Name : List->Names) {
      if (Dedupe && !Seen.insert(Name, layout::NameIndex::hash(Name),
                                 uint32_t(Inputs.Functions.size()), NameOf)
                         .second)
        continue;
      InputFunction F;
      F.Name = Inputs.save(Name);
      F.Object = "<edge list>";
      F.HasOwnSection = true;
      Inputs.Functions.push_back(std::move(F));
    }
}

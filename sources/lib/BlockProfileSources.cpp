//===- BlockProfileSources.cpp - Block counts of a binary's profile -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the block profile readers share: the counts of one scenario, the
/// rule for taken branches, the straight-line walk between branch records,
/// format detection, and the conversion to a layout::BlockProfile.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "BlockBranches.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <set>

using namespace llvm;

namespace kiln {

using layout::addCounts;

BlockCounts::BlockCounts(const BlockAddressMap &Map) {
  for (const MappedFunction &F : Map.getFunctions())
    Blocks.emplace_back(F.Blocks.size(), 0);
}

void BlockCounts::addBlock(BlockRef B, uint64_t Count) {
  uint64_t &C = Blocks[B.Function][B.Block];
  C = addCounts(C, Count);
}

void BlockCounts::addEdge(BlockRef From, BlockRef To, uint64_t Count) {
  assert(From.Function == To.Function && "an edge leaves its function");
  uint64_t &C = Edges[{From.Function, From.Block, To.Block}];
  C = addCounts(C, Count);
}

void BlockCounts::addCall(BlockRef From, uint32_t Callee, uint64_t Count) {
  uint64_t &C = Calls[{From.Function, From.Block, Callee}];
  C = addCounts(C, Count);
}

void BlockCounts::merge(const BlockCounts &Other) {
  assert(Blocks.size() == Other.Blocks.size() && "counts of another map");
  for (auto [Mine, Theirs] : zip_equal(Blocks, Other.Blocks))
    for (auto [A, B] : zip_equal(Mine, Theirs))
      A = addCounts(A, B);
  for (const auto &[Key, Count] : Other.Edges) {
    uint64_t &C = Edges[Key];
    C = addCounts(C, Count);
  }
  for (const auto &[Key, Count] : Other.Calls) {
    uint64_t &C = Calls[Key];
    C = addCounts(C, Count);
  }
}

uint64_t BlockCounts::getEdgeCount(BlockRef From, BlockRef To) const {
  auto It = Edges.find({From.Function, From.Block, To.Block});
  return It == Edges.end() ? 0 : It->second;
}

uint64_t BlockCounts::getCallCount(BlockRef From, uint32_t Callee) const {
  auto It = Calls.find({From.Function, From.Block, Callee});
  return It == Calls.end() ? 0 : It->second;
}

void BlockReadStats::add(const BlockReadStats &Other) {
  Records += Other.Records;
  Mapped += Other.Mapped;
  UnmappedCode += Other.UnmappedCode;
  Outside += Other.Outside;
  NotAtBlockStart += Other.NotAtBlockStart;
  BrokenRanges += Other.BrokenRanges;
}

void addTakenBranch(const BlockAddressMap &Map, uint64_t From, uint64_t To,
                    uint64_t Count, BlockCounts &Counts, BlockReadStats &Stats,
                    std::vector<uint64_t> *Entries) {
  ++Stats.Records;
  // BOLT records a fall-through from the alignment nops after a block.
  std::optional<BlockRef> Source = Map.findBlockOrPadding(From);
  if (std::optional<uint32_t> Callee = Map.findFunctionEntry(To)) {
    if (Entries)
      (*Entries)[*Callee] = addCounts((*Entries)[*Callee], Count);
    if (Source)
      Counts.addCall(*Source, *Callee, Count);
    ++Stats.Mapped;
    return;
  }
  if (!Source) {
    if (Map.isCode(From))
      ++Stats.UnmappedCode;
    else
      ++Stats.Outside;
    return;
  }
  if (std::optional<BlockRef> Target = Map.findBlockStart(To);
      Target && Target->Function == Source->Function) {
    Counts.addEdge(*Source, *Target, Count);
    ++Stats.Mapped;
    return;
  }
  std::optional<BlockRef> Inside = Map.findBlock(To);
  if (Inside && Inside->Function == Source->Function) {
    ++Stats.NotAtBlockStart;
    return;
  }
  // A return into a caller, or a call out of the map (PLT, another
  // object): the source block's count comes from elsewhere.
  ++Stats.Mapped;
}

bool addStraightRun(const BlockAddressMap &Map, uint64_t Begin, uint64_t End,
                    uint64_t Count, BlockCounts &Counts) {
  if (End < Begin)
    return false;
  std::optional<BlockRef> First = Map.findBlock(Begin);
  std::optional<BlockRef> Last = Map.findBlock(End);
  if (!First || !Last || First->Function != Last->Function)
    return false;
  const MappedFunction &F = Map.getFunctions()[First->Function];
  // Check the whole run before counting any of it.
  std::vector<uint32_t> Path{First->Block};
  while (Path.back() != Last->Block) {
    const MappedBlock &B = F.Blocks[Path.back()];
    if (!B.Next || Path.size() > F.Blocks.size())
      return false;
    Path.push_back(*B.Next);
  }
  for (auto [I, Block] : enumerate(Path)) {
    Counts.addBlock({First->Function, Block}, Count);
    if (I > 0)
      Counts.addEdge({First->Function, Path[I - 1]}, {First->Function, Block},
                     Count);
  }
  return true;
}

Expected<BlockProfileFormat> detectBlockProfileFormat(MemoryBufferRef Buffer) {
  StringRef Rest = Buffer.getBuffer();
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    Line = Line.trim();
    if (Line.empty())
      continue;
    if (Line.starts_with("# callgrind format") ||
        Line.starts_with("version:") || Line.starts_with("creator:") ||
        Line.starts_with("events:") || Line.starts_with("positions:"))
      return BlockProfileFormat::Callgrind;
    if (Line.starts_with("#"))
      continue;
    if (Line.starts_with("no_lbr") || Line.starts_with("boltedcollection") ||
        Line == "---")
      return BlockProfileFormat::Fdata;
    if (Line.size() > 2 &&
        (Line[0] == '0' || Line[0] == '1' || Line[0] == '2') && Line[1] == ' ')
      return BlockProfileFormat::Fdata;
    if (Line.contains('/') && Line.contains("0x"))
      return BlockProfileFormat::Perf;
    break;
  }
  return createStringError(
      inconvertibleErrorCode(),
      Buffer.getBufferIdentifier() +
          ": not a callgrind output, BOLT .fdata or perf script brstack "
          "text (give --format= if it is one)");
}

layout::BlockProfile
buildBlockProfile(const BlockAddressMap &Map,
                  ArrayRef<layout::BlockScenario> Scenarios,
                  ArrayRef<BlockCounts> Counts) {
  assert(Scenarios.size() == Counts.size() && "one count per scenario");
  layout::BlockProfile Profile;
  Profile.BuildID = Map.getBuildID();
  Profile.Scenarios.assign(Scenarios.begin(), Scenarios.end());
  // Edges and calls of all scenarios, by function, in key order.
  std::set<BlockCounts::EdgeKey> EdgeKeys, CallKeys;
  for (const BlockCounts &C : Counts) {
    for (const auto &Entry : C.getEdges())
      EdgeKeys.insert(Entry.first);
    for (const auto &Entry : C.getCalls())
      CallKeys.insert(Entry.first);
  }
  for (auto [FI, F] : enumerate(Map.getFunctions())) {
    layout::BlockFunction Out;
    Out.Name = F.Name;
    Out.Address = F.Address;
    Out.SharedName = F.SharedName;
    for (auto [BI, B] : enumerate(F.Blocks)) {
      layout::ProfiledBlock P;
      P.ID = B.ID;
      P.Address = B.Address;
      P.Size = B.Size;
      P.Hash = B.Hash;
      P.IsEHPad = B.IsEHPad;
      P.FallsThrough = B.CanFallThrough && B.Next.has_value();
      for (const BlockCounts &C : Counts)
        P.Counts.push_back(C.getBlockCount({uint32_t(FI), uint32_t(BI)}));
      Out.Blocks.push_back(std::move(P));
    }
    Profile.Functions.push_back(std::move(Out));
  }
  for (const auto &[Function, From, To] : EdgeKeys) {
    layout::BlockEdge E;
    E.From = From;
    E.To = To;
    for (const BlockCounts &C : Counts)
      E.Counts.push_back(C.getEdgeCount({Function, From}, {Function, To}));
    Profile.Functions[Function].Edges.push_back(std::move(E));
  }
  for (const auto &[Function, From, Callee] : CallKeys) {
    layout::BlockCall Call;
    Call.FromBlock = From;
    Call.Callee = Callee;
    for (const BlockCounts &C : Counts)
      Call.Counts.push_back(C.getCallCount({Function, From}, Callee));
    Profile.Functions[Function].Calls.push_back(std::move(Call));
  }
  return Profile;
}

} // namespace kiln

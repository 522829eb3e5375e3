//===- FdataBlockReader.cpp - Block counts from BOLT's .fdata -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the `.fdata` that a binary instrumented by `llvm-bolt -instrument`
/// writes (and perf2bolt's LBR output), as BOLT's DataReader reads it:
///
///     <kind> <symbol> <hex offset> <kind> <symbol> <hex offset> <mispredicts>
///     <count>
///
/// where kind 0 is an address outside any symbol (`[unknown]` or a DSO),
/// 1 a global and 2 a local symbol; BOLT names a local symbol `name/N`, the
/// N-th local of that name. Offsets are from the symbol of the original
/// (address-mapped) binary. Instrumentation records every edge: taken
/// branches from the branch's offset, fall-throughs from the block's last
/// instruction to the next block, calls to the callee's offset 0, and
/// entries from `[unknown]` into functions the runtime called. Memory
/// records (kinds 3-5) carry no control flow and are skipped. A first line
/// `no_lbr` (samples of addresses, no edges) or `boltedcollection` (a
/// profile of a BOLT-optimized binary, whose addresses are not this
/// binary's) is refused, and so is BOLT's YAML profile format.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "BlockBranches.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace llvm;

namespace kiln {

namespace {
/// One end of a branch record, resolved: an address of the binary, or
/// outside any symbol (kind 0), or a symbol of code without a symbol table
/// entry (BOLT's `fn@PLT`), or a name the binary does not have.
struct FdataLocation {
  enum { Address, Unknown, Stub, Foreign } Kind = Unknown;
  uint64_t Value = 0;
};
} // namespace

/// Splits \p Line at blanks that are not escaped with a backslash, as
/// BOLT writes symbol names with blanks; the escapes are removed.
static SmallVector<std::string, 8> splitFields(StringRef Line) {
  SmallVector<std::string, 8> Fields;
  std::string Field;
  bool InField = false;
  for (size_t I = 0; I < Line.size(); ++I) {
    char C = Line[I];
    if (C == '\\' && I + 1 < Line.size()) {
      Field += Line[++I];
      InField = true;
      continue;
    }
    if (C == ' ' || C == '\t') {
      if (InField)
        Fields.push_back(std::move(Field));
      Field.clear();
      InField = false;
      continue;
    }
    Field += C;
    InField = true;
  }
  if (InField)
    Fields.push_back(std::move(Field));
  return Fields;
}

/// \returns the address BOLT's \p Name + \p Offset stands for: the symbol
/// itself, or for `name/N` (and `name/file/N`) the N-th local `name`.
static std::optional<uint64_t>
resolveBoltName(const BlockAddressMap &Map, StringRef Name, uint64_t Offset) {
  if (std::optional<uint64_t> A = Map.findSymbol(Name))
    return *A + Offset;
  auto [Base, Ordinal] = Name.rsplit('/');
  unsigned N = 0;
  if (Ordinal == Name || Ordinal.getAsInteger(10, N) || N == 0)
    return std::nullopt;
  Base = Base.split('/').first;
  if (std::optional<uint64_t> A = Map.findSymbol(Base, N))
    return *A + Offset;
  // A unique local whose ordinal counts locals this binary does not have.
  if (std::optional<uint64_t> A = Map.findSymbol(Base))
    return *A + Offset;
  return std::nullopt;
}

static FdataLocation resolve(const BlockAddressMap &Map, unsigned Kind,
                             StringRef Name, uint64_t Offset) {
  if (Kind == 0)
    return {FdataLocation::Unknown, 0};
  if (std::optional<uint64_t> A = resolveBoltName(Map, Name, Offset))
    return {FdataLocation::Address, *A};
  if (Name.split('/').first.ends_with("@PLT"))
    return {FdataLocation::Stub, 0};
  return {FdataLocation::Foreign, 0};
}

/// Classifies a record with at most one end in the binary's symbols.
static void addPartialRecord(const BlockAddressMap &Map,
                             const FdataLocation &From, const FdataLocation &To,
                             uint64_t Count, std::vector<uint64_t> &Entries,
                             BlockReadStats &Stats) {
  ++Stats.Records;
  if (From.Kind == FdataLocation::Foreign ||
      To.Kind == FdataLocation::Foreign) {
    ++Stats.Outside;
    return;
  }
  if (To.Kind == FdataLocation::Address) {
    // Control entering from outside the binary's symbols: only an entry
    // counts a block.
    if (std::optional<uint32_t> F = Map.findFunctionEntry(To.Value)) {
      Entries[*F] = layout::addCounts(Entries[*F], Count);
      ++Stats.Mapped;
    } else if (Map.findBlock(To.Value)) {
      ++Stats.NotAtBlockStart;
    } else {
      ++(Map.isCode(To.Value) ? Stats.UnmappedCode : Stats.Outside);
    }
    return;
  }
  if (From.Kind == FdataLocation::Address) {
    // A call out of the binary or into a PLT stub: nothing at block level.
    if (Map.findBlockOrPadding(From.Value))
      ++Stats.Mapped;
    else
      ++(Map.isCode(From.Value) ? Stats.UnmappedCode : Stats.Outside);
    return;
  }
  ++Stats.UnmappedCode;
}

Error readFdataProfile(MemoryBufferRef Buffer, const BlockAddressMap &Map,
                       BlockCounts &Counts, BlockReadStats &Stats) {
  StringRef Name = Buffer.getBufferIdentifier();
  unsigned LineNo = 0;
  auto LineError = [&](const Twine &Message) {
    return createStringError(inconvertibleErrorCode(),
                             Name + ":" + Twine(LineNo) + ": " + Message);
  };
  BlockCounts Local(Map);
  std::vector<uint64_t> Entries(Map.getFunctions().size(), 0);
  uint64_t NumBranchRecords = 0;
  StringRef Rest = Buffer.getBuffer();
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    Line = Line.rtrim("\r");
    if (Line.trim().empty())
      continue;
    if (Line.starts_with("no_lbr"))
      return LineError("a 'no_lbr' profile (sampled addresses without "
                       "branches) has no edges; profile with llvm-bolt "
                       "-instrument, or perf record -b and perf2bolt");
    if (Line.starts_with("---"))
      return LineError("a YAML BOLT profile (--profile-format=yaml); write "
                       "the .fdata form (perf2bolt's default, and what "
                       "instrumented binaries write)");
    if (Line.starts_with("boltedcollection"))
      return LineError("a 'boltedcollection' profile was collected on a "
                       "BOLT-optimized binary, whose addresses are not this "
                       "binary's; profile the address-mapped binary itself");
    SmallVector<std::string, 8> Fields = splitFields(Line);
    char Kind = Fields[0].size() == 1 ? Fields[0][0] : '?';
    if (Kind >= '3' && Kind <= '5')
      continue; // A memory access record.
    if (Kind != '0' && Kind != '1' && Kind != '2')
      return LineError("expected a branch record '<0|1|2> <symbol> "
                       "<offset> <0|1|2> <symbol> <offset> <mispredicts> "
                       "<count>'");
    if (Fields.size() != 8)
      return LineError("expected 8 fields in a branch record, found " +
                       Twine(Fields.size()));
    unsigned Kinds[2] = {0, 0};
    uint64_t Offsets[2] = {0, 0};
    for (unsigned End = 0; End < 2; ++End) {
      StringRef K = Fields[3 * End];
      if (K != "0" && K != "1" && K != "2")
        return LineError("location kind '" + K + "' is not 0, 1 or 2");
      Kinds[End] = K[0] - '0';
      if (StringRef(Fields[3 * End + 2]).getAsInteger(16, Offsets[End]))
        return LineError("offset '" + Fields[3 * End + 2] +
                         "' is not a hexadecimal number");
    }
    uint64_t Mispredicts = 0, Count = 0;
    if (StringRef(Fields[6]).getAsInteger(10, Mispredicts) ||
        StringRef(Fields[7]).getAsInteger(10, Count))
      return LineError("mispredicts and count must be decimal numbers");
    ++NumBranchRecords;

    FdataLocation From = resolve(Map, Kinds[0], Fields[1], Offsets[0]);
    FdataLocation To = resolve(Map, Kinds[1], Fields[4], Offsets[1]);
    if (From.Kind == FdataLocation::Address &&
        To.Kind == FdataLocation::Address) {
      addTakenBranch(Map, From.Value, To.Value, Count, Local, Stats, &Entries);
      continue;
    }
    addPartialRecord(Map, From, To, Count, Entries, Stats);
  }
  if (NumBranchRecords == 0)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": no branch records (not a BOLT .fdata "
                                    "profile, or an empty one)");

  // Instrumentation counts edges, so a block ran as often as control
  // entered it (its incoming edges, and calls for the entry block) or left
  // it for another block, whichever the records show more of: BOLT leaves
  // out some entries (a function split into basic-block sections is
  // entered from outside with no record).
  std::vector<std::vector<uint64_t>> In, Out;
  for (const MappedFunction &F : Map.getFunctions()) {
    In.emplace_back(F.Blocks.size(), 0);
    Out.emplace_back(F.Blocks.size(), 0);
  }
  for (auto [FI, Count] : enumerate(Entries))
    In[FI][0] = Count;
  for (const auto &[Key, Count] : Local.getEdges()) {
    auto [Function, FromBlock, ToBlock] = Key;
    In[Function][ToBlock] = layout::addCounts(In[Function][ToBlock], Count);
    Out[Function][FromBlock] =
        layout::addCounts(Out[Function][FromBlock], Count);
  }
  for (auto [FI, F] : enumerate(Map.getFunctions()))
    for (size_t BI = 0; BI < F.Blocks.size(); ++BI)
      if (uint64_t Count = std::max(In[FI][BI], Out[FI][BI]))
        Local.addBlock({uint32_t(FI), uint32_t(BI)}, Count);
  Counts.merge(Local);
  return Error::success();
}

} // namespace kiln

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
/// binary's) is refused.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "BlockBranches.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

using namespace llvm;

namespace kiln {

namespace {
/// One end of a branch record.
struct FdataLocation {
  unsigned Kind = 0;
  std::string Name;
  uint64_t Offset = 0;
};

/// How a location relates to the map.
enum class LocationClass { Mapped, UnmappedCode, Unknown, Foreign };
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

/// \returns the function BOLT's symbol name \p Name refers to: the name
/// itself, or for `name/N` (and `name/file/N`) the N-th local `name`.
static std::optional<uint32_t> resolveBoltName(const BlockAddressMap &Map,
                                               StringRef Name) {
  if (std::optional<uint32_t> F = Map.findFunctionNamed(Name))
    return F;
  auto [Base, Ordinal] = Name.rsplit('/');
  unsigned N = 0;
  if (Ordinal == Name || Ordinal.getAsInteger(10, N) || N == 0)
    return std::nullopt;
  Base = Base.split('/').first;
  if (std::optional<uint32_t> F = Map.findFunctionNamed(Base, N))
    return F;
  // A unique local whose ordinal counts locals the map does not have.
  return Map.findFunctionNamed(Base);
}

static LocationClass classify(const BlockAddressMap &Map,
                              const FdataLocation &L,
                              std::optional<uint32_t> &Function) {
  if (L.Kind == 0)
    return LocationClass::Unknown;
  Function = resolveBoltName(Map, L.Name);
  if (Function)
    return LocationClass::Mapped;
  StringRef Base = StringRef(L.Name).split('/').first;
  if (Map.isUnmappedCodeSymbol(L.Name) || Map.isUnmappedCodeSymbol(Base))
    return LocationClass::UnmappedCode;
  return LocationClass::Foreign;
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
    FdataLocation From, To;
    for (auto [L, First] : {std::pair{&From, 0u}, std::pair{&To, 3u}}) {
      StringRef K = Fields[First];
      if (K != "0" && K != "1" && K != "2")
        return LineError("location kind '" + K + "' is not 0, 1 or 2");
      L->Kind = K[0] - '0';
      L->Name = Fields[First + 1];
      if (StringRef(Fields[First + 2]).getAsInteger(16, L->Offset))
        return LineError("offset '" + Fields[First + 2] +
                         "' is not a hexadecimal number");
    }
    uint64_t Mispredicts = 0, Count = 0;
    if (StringRef(Fields[6]).getAsInteger(10, Mispredicts) ||
        StringRef(Fields[7]).getAsInteger(10, Count))
      return LineError("mispredicts and count must be decimal numbers");
    ++NumBranchRecords;

    std::optional<uint32_t> FromFn, ToFn;
    LocationClass FromClass = classify(Map, From, FromFn);
    LocationClass ToClass = classify(Map, To, ToFn);
    const auto &Fns = Map.getFunctions();
    if (FromClass == LocationClass::Mapped &&
        ToClass == LocationClass::Mapped) {
      addTakenBranch(Map, Fns[*FromFn].Address + From.Offset,
                     Fns[*ToFn].Address + To.Offset, Count, Local, Stats,
                     &Entries);
      continue;
    }
    ++Stats.Records;
    if (ToClass == LocationClass::Mapped) {
      // An entry from outside the map: the runtime, another object, code
      // without a map. Only an entry at offset 0 counts a block.
      if (To.Offset != 0) {
        ++Stats.NotAtBlockStart;
        continue;
      }
      Entries[*ToFn] = layout::addCounts(Entries[*ToFn], Count);
      ++Stats.Mapped;
      continue;
    }
    if (FromClass == LocationClass::Mapped) {
      // A call out of the map (PLT, [unknown]): nothing at block level.
      ++Stats.Mapped;
      continue;
    }
    if (FromClass == LocationClass::Foreign ||
        ToClass == LocationClass::Foreign)
      ++Stats.Outside;
    else
      ++Stats.UnmappedCode;
  }
  if (NumBranchRecords == 0)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": no branch records (not a BOLT .fdata "
                                    "profile, or an empty one)");

  // Instrumentation counts edges, so a block ran as often as control
  // entered it: its incoming edges, and calls for the entry block.
  for (auto [FI, F] : enumerate(Map.getFunctions()))
    if (Entries[FI])
      Local.addBlock({uint32_t(FI), 0}, Entries[FI]);
  for (const auto &[Key, Count] : Local.getEdges()) {
    auto [Function, FromBlock, ToBlock] = Key;
    Local.addBlock({Function, ToBlock}, Count);
  }
  Counts.merge(Local);
  return Error::success();
}

} // namespace kiln

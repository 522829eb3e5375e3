//===- InstrProfile.cpp - Read instrumented profiles for layout ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CrashGuard.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/TemporalTraces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace kiln;

static Error profileError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
}

// LLVM's indexed-profile reader trusts the header's sizes and offsets and
// reads out of bounds on a truncated file. Check what it will read first.
static Error checkIndexedProfileBounds(StringRef Path,
                                       const MemoryBuffer &Buffer) {
  const uint64_t Size = Buffer.getBufferSize();
  const auto *Start =
      reinterpret_cast<const unsigned char *>(Buffer.getBufferStart());
  auto Truncated = [&](const Twine &What) {
    return profileError(Path, "truncated indexed profile: " + What +
                                  " extends past the end of the file (" +
                                  Twine(Size) + " bytes)");
  };
  if (Size < sizeof(IndexedInstrProf::Header))
    return Truncated("the header");
  Expected<IndexedInstrProf::Header> Header =
      IndexedInstrProf::Header::readFromBuffer(Start);
  if (!Header)
    return profileError(Path, toString(Header.takeError()));
  uint64_t Offset = Header->size();
  // One summary, and a second one for context-sensitive profiles.
  unsigned NumSummaries = (Header->Version & VARIANT_MASK_CSIR_PROF) ? 2 : 1;
  for (unsigned I = 0; I < NumSummaries; ++I) {
    if (Offset + 2 * sizeof(uint64_t) > Size)
      return Truncated("the profile summary");
    uint64_t NumFields = support::endian::read64le(Start + Offset);
    uint64_t NumCutoffs = support::endian::read64le(Start + Offset + 8);
    if (NumFields > Size || NumCutoffs > Size)
      return Truncated("the profile summary");
    Offset += IndexedInstrProf::Summary::getSize(NumFields, NumCutoffs);
    if (Offset > Size)
      return Truncated("the profile summary");
  }
  for (uint64_t Section :
       {Header->HashOffset, Header->MemProfOffset, Header->BinaryIdOffset,
        Header->TemporalProfTracesOffset, Header->VTableNamesOffset})
    if (Section > Size)
      return Truncated("a section offset");
  if (Header->HashOffset + 2 * sizeof(uint64_t) > Size)
    return Truncated("the function table");
  return Error::success();
}

static Expected<LayoutProfile> readInstrProfileUnguarded(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return profileError(Path, Buffer.getError().message());
  if (IndexedInstrProfReader::hasFormat(**Buffer))
    if (Error E = checkIndexedProfileBounds(Path, **Buffer))
      return E;
  Expected<std::unique_ptr<InstrProfReader>> ReaderOrErr =
      InstrProfReader::create(std::move(*Buffer));
  if (!ReaderOrErr)
    return profileError(Path, toString(ReaderOrErr.takeError()));
  InstrProfReader &Reader = **ReaderOrErr;

  LayoutProfile Profile;
  Profile.Path = Path.str();
  Profile.IsIRLevel = Reader.isIRLevelProfile();
  const bool EntryFirst = Reader.instrEntryBBEnabled();

  StringMap<size_t> IndexOfName;
  DenseMap<uint64_t, std::string> NameOfHash;
  // Indirect calls by target hash; named once all records are read.
  struct PendingCall {
    size_t Caller;
    uint64_t TargetHash;
    uint64_t Count;
  };
  std::vector<PendingCall> Pending;

  for (const NamedInstrProfRecord &Record : Reader) {
    auto [It, Inserted] =
        IndexOfName.try_emplace(Record.Name, Profile.Functions.size());
    if (Inserted) {
      Profile.Functions.push_back(ProfiledFunction{Record.Name.str(), 0});
      Profile.Functions.back().EntryCountIsExact = true;
      NameOfHash.try_emplace(MD5Hash(Record.Name), Record.Name.str());
    }
    ProfiledFunction &F = Profile.Functions[It->second];
    for (uint64_t Count : Record.Counts)
      F.Weight = SaturatingAdd(F.Weight, Count);
    if (!Record.Counts.empty()) {
      // See ProfiledFunction::EntryCount.
      bool FirstIsEntry =
          !Profile.IsIRLevel || EntryFirst || Record.Counts.size() == 1;
      uint64_t Entry = FirstIsEntry ? Record.Counts.front()
                                    : *llvm::max_element(Record.Counts);
      F.EntryCount = SaturatingAdd(F.EntryCount, Entry);
      F.EntryCountIsExact &= FirstIsEntry;
    }
    uint32_t NumSites = Record.getNumValueSites(IPVK_IndirectCallTarget);
    for (uint32_t Site = 0; Site < NumSites; ++Site)
      for (const InstrProfValueData &V :
           Record.getValueArrayForSite(IPVK_IndirectCallTarget, Site))
        Pending.push_back({It->second, V.Value, V.Count});
  }
  if (Reader.hasError())
    return profileError(Path, toString(Reader.getError()));
  if (Profile.Functions.empty())
    return profileError(Path, "the profile has no function records");

  InstrProfSymtab &Symtab = Reader.getSymtab();
  for (const PendingCall &Call : Pending) {
    std::string Target;
    if (auto It = NameOfHash.find(Call.TargetHash); It != NameOfHash.end())
      Target = It->second;
    else
      Target = Symtab.getFuncOrVarName(Call.TargetHash).str();
    if (Target.empty()) {
      ++Profile.NumUnnamedTargets;
      continue;
    }
    Profile.Calls.push_back(
        {Profile.Functions[Call.Caller].Name, std::move(Target), Call.Count});
  }

  for (ResolvedTrace<std::string> &Trace : readTemporalTraces<std::string>(
           Reader, [&](uint64_t Hash) -> std::optional<std::string> {
             std::string Name;
             if (auto It = NameOfHash.find(Hash); It != NameOfHash.end())
               Name = It->second;
             else
               Name = Symtab.getFuncOrVarName(Hash).str();
             if (Name.empty())
               return std::nullopt;
             return Name;
           }))
    Profile.Traces.push_back(
        ProfiledTrace{std::move(Trace.Functions), Trace.Weight});
  return Profile;
}

Expected<LayoutProfile> kiln::readInstrProfile(StringRef Path) {
  return runGuarded([&] { return readInstrProfileUnguarded(Path); },
                    [&]() -> Expected<LayoutProfile> {
                      return profileError(Path, "corrupt profile: LLVM's "
                                                "profile reader failed on "
                                                "its contents");
                    });
}

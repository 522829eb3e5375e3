//===- InstrProfile.cpp - Read instrumented profiles ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/InstrProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;
using namespace kiln;

static Error profileError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
}

Expected<InstrProfile> kiln::readInstrProfile(StringRef Path) {
  auto FS = vfs::getRealFileSystem();
  Expected<std::unique_ptr<InstrProfReader>> ReaderOrErr =
      InstrProfReader::create(Path, *FS);
  if (!ReaderOrErr)
    return profileError(Path, toString(ReaderOrErr.takeError()));
  InstrProfReader &Reader = **ReaderOrErr;

  InstrProfile Profile;
  Profile.Path = Path.str();
  Profile.IsIRLevel = Reader.isIRLevelProfile();

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
      NameOfHash.try_emplace(MD5Hash(Record.Name), Record.Name.str());
    }
    ProfiledFunction &F = Profile.Functions[It->second];
    for (uint64_t Count : Record.Counts)
      F.Weight = SaturatingAdd(F.Weight, Count);
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
    Profile.IndirectCalls.push_back(
        {Profile.Functions[Call.Caller].Name, std::move(Target), Call.Count});
  }

  if (Reader.hasTemporalProfile()) {
    for (const TemporalProfTraceTy &Trace : Reader.getTemporalProfTraces()) {
      ProfiledTrace T;
      T.Weight = Trace.Weight;
      for (uint64_t Hash : Trace.FunctionNameRefs) {
        std::string Name;
        if (auto It = NameOfHash.find(Hash); It != NameOfHash.end())
          Name = It->second;
        else
          Name = Symtab.getFuncOrVarName(Hash).str();
        if (!Name.empty())
          T.Functions.push_back(std::move(Name));
      }
      Profile.Traces.push_back(std::move(T));
    }
  }
  return Profile;
}

//===- ImportGraphReader.cpp - Graph from ThinLTO objects -----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/ImportGraphReader.h"

#include "kiln/Sources/ReaderDiagnostics.h"
#include "kiln/Support/InputFile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/Object/Archive.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <optional>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

static Error inputError(const Twine &Where, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Where + ": " + Message);
}

namespace {

/// One ThinLTO module of the link.
struct InputModule {
  std::string Id; ///< The thin link's module id.
  BitcodeModule Bitcode;
};

/// What one module's IR says about calls, by GUID.
struct ModuleCalls {
  std::string SourceFileName;
  /// Entry counts the IR carries (`function_entry_count`).
  DenseMap<GlobalValue::GUID, uint64_t> EntryCounts;
  /// Direct calls: the call sites' block frequency relative to the entry,
  /// summed per callee, in units of 1/2^20 of an entry.
  std::map<std::pair<GlobalValue::GUID, GlobalValue::GUID>, uint64_t> Relative;
  /// Indirect calls' value-profile targets: absolute counts.
  std::map<std::pair<GlobalValue::GUID, GlobalValue::GUID>, uint64_t> Absolute;
  /// Direct call sites one by one, in instruction order per caller: the
  /// relative frequency of each, by (caller, callee).
  std::map<std::pair<GlobalValue::GUID, GlobalValue::GUID>,
           std::vector<uint64_t>>
      Sites;
};

} // namespace

static constexpr unsigned RelativeShift = 20;

// A * B / C, rounded to nearest, saturating.
static uint64_t mulDiv(uint64_t A, uint64_t B, uint64_t C) {
  if (C == 0)
    return 0;
  unsigned __int128 R = ((unsigned __int128)A * B + C / 2) / C;
  return R > std::numeric_limits<uint64_t>::max()
             ? std::numeric_limits<uint64_t>::max()
             : uint64_t(R);
}

// The callee a call site names directly (through casts and aliases).
static const GlobalValue *getDirectCallee(const CallBase &CB) {
  const Value *V = CB.getCalledOperand()->stripPointerCasts();
  if (const auto *F = dyn_cast<Function>(V))
    return F->isIntrinsic() ? nullptr : F;
  if (const auto *A = dyn_cast<GlobalAlias>(V))
    return A;
  return nullptr;
}

static ModuleCalls readModuleCalls(Module &M) {
  ModuleCalls Calls;
  Calls.SourceFileName = M.getSourceFileName();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    const GlobalValue::GUID Caller = F.getGUID();
    if (std::optional<Function::ProfileCount> Entry = F.getEntryCount())
      Calls.EntryCounts[Caller] = Entry->getCount();
    DominatorTree DT(F);
    LoopInfo LI(DT);
    BranchProbabilityInfo BPI(F, LI);
    BlockFrequencyInfo BFI(F, BPI, LI);
    const uint64_t EntryFreq = BFI.getEntryFreq().getFrequency();
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (const GlobalValue *Callee = getDirectCallee(*CB)) {
        uint64_t Freq = BFI.getBlockFreq(I.getParent()).getFrequency();
        uint64_t Relative =
            mulDiv(Freq, uint64_t(1) << RelativeShift, EntryFreq);
        uint64_t &R = Calls.Relative[{Caller, Callee->getGUID()}];
        R = SaturatingAdd(R, Relative);
        Calls.Sites[{Caller, Callee->getGUID()}].push_back(Relative);
        continue;
      }
      uint64_t Total = 0;
      for (const InstrProfValueData &V :
           getValueProfDataFromInst(I, IPVK_IndirectCallTarget,
                                    /*MaxNumValueData=*/UINT32_MAX, Total)) {
        uint64_t &A = Calls.Absolute[{Caller, V.Value}];
        A = SaturatingAdd(A, V.Count);
      }
    }
  }
  return Calls;
}

// Collects the ThinLTO modules of one file (or archive member).
static Error addBitcode(MemoryBufferRef Buffer, StringRef Id,
                        std::vector<InputModule> &Modules,
                        function_ref<void(const Twine &)> Warn) {
  Expected<std::vector<BitcodeModule>> List = getBitcodeModuleList(Buffer);
  if (!List)
    return inputError(Id, "invalid bitcode: " + toString(List.takeError()));
  unsigned Index = 0;
  for (BitcodeModule &BM : *List) {
    Expected<BitcodeLTOInfo> Info = BM.getLTOInfo();
    if (!Info)
      return inputError(Id, "invalid bitcode: " + toString(Info.takeError()));
    std::string ModuleId = Id.str();
    if (Index++ > 0)
      ModuleId += "#" + std::to_string(Index - 1);
    if (!Info->HasSummary || !Info->IsThinLTO) {
      Warn(ModuleId + ": bitcode without a ThinLTO summary (compiled with "
                      "-flto rather than -flto=thin?); its functions are "
                      "not planned");
      continue;
    }
    Modules.push_back({std::move(ModuleId), BM});
  }
  return Error::success();
}

static Error addInputFile(StringRef Path,
                          std::vector<std::unique_ptr<MemoryBuffer>> &Buffers,
                          std::vector<InputModule> &Modules,
                          function_ref<void(const Twine &)> Warn) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/false,
                         /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, Buffer.getError().message());
  MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
  Buffers.push_back(std::move(*Buffer));
  if (kiln::isAllNulBytes(Ref.getBuffer()))
    return inputError(Path, kiln::AllNulBytesMessage);
  switch (identify_magic(Ref.getBuffer())) {
  case file_magic::bitcode:
    return addBitcode(Ref, Path, Modules, Warn);
  case file_magic::archive: {
    Expected<std::unique_ptr<object::Archive>> Ar =
        object::Archive::create(Ref);
    if (!Ar)
      return inputError(Path, "invalid archive: " + toString(Ar.takeError()));
    Error Err = Error::success();
    unsigned NumBitcode = 0;
    for (const object::Archive::Child &C : (*Ar)->children(Err)) {
      Expected<MemoryBufferRef> Member = C.getMemoryBufferRef();
      if (!Member)
        return inputError(Path, toString(Member.takeError()));
      if (identify_magic(Member->getBuffer()) != file_magic::bitcode)
        continue;
      ++NumBitcode;
      Expected<StringRef> Name = C.getName();
      if (!Name)
        return inputError(Path, toString(Name.takeError()));
      std::string Id = (Path + "(" + sys::path::filename(*Name) + ")").str();
      if (Error E = addBitcode(*Member, Id, Modules, Warn))
        return E;
    }
    if (Err)
      return inputError(Path, "invalid archive: " + toString(std::move(Err)));
    if (NumBitcode == 0)
      Warn(Path + ": archive without bitcode members; "
                  "its functions are not planned");
    return Error::success();
  }
  case file_magic::elf_relocatable:
  case file_magic::macho_object:
  case file_magic::coff_object:
    Warn(Path + ": a native object, not ThinLTO bitcode; "
                "its functions are not planned");
    return Error::success();
  default:
    return inputError(Path, "not a bitcode object, an archive or an object "
                            "file");
  }
}

// The summary GUIDs a profile name may stand for: IR profiles name locals
// `file.c;fn` as the summary's global identifier does; front-end profiles
// spell it `file.c:fn`.
static SmallVector<GlobalValue::GUID, 2> guidsOfProfileName(StringRef Name) {
  SmallVector<GlobalValue::GUID, 2> GUIDs;
  GUIDs.push_back(GlobalValue::getGUIDAssumingExternalLinkage(Name));
  size_t Colon = Name.rfind(':');
  if (Colon != StringRef::npos && !Name.contains(';'))
    GUIDs.push_back(GlobalValue::getGUIDAssumingExternalLinkage(
        (Name.take_front(Colon) + ";" + Name.drop_front(Colon + 1)).str()));
  return GUIDs;
}

static const char *whyNotImportable(const ModuleSummaryIndex &Index,
                                    ValueInfo VI, const GlobalValueSummary &S) {
  if (isa<AliasSummary>(S))
    return "an alias";
  const auto &F = cast<FunctionSummary>(S);
  if (F.fflags().NoInline)
    return "noinline";
  if (GlobalValue::isInterposableLinkage(F.linkage()))
    return "interposable linkage";
  if (F.notEligibleToImport())
    return "not eligible to import (it references something that cannot "
           "be promoted, such as a local used by inline assembly)";
  if (GlobalValue::isLocalLinkage(F.linkage()) &&
      VI.getSummaryList().size() > 1)
    return "local functions of the same identifier in several modules";
  (void)Index;
  return nullptr;
}

static Expected<ImportInputs>
readImportInputsImpl(ArrayRef<std::string> Paths,
                     ArrayRef<WeightedProfile> Profiles,
                     function_ref<void(const Twine &)> Warn) {
  ImportInputs Result;
  Result.NumInputFiles = Paths.size();
  std::vector<std::unique_ptr<MemoryBuffer>> Buffers;
  std::vector<InputModule> Modules;
  for (const std::string &Path : Paths)
    if (Error E = addInputFile(Path, Buffers, Modules, Warn))
      return std::move(E);
  if (Modules.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "none of the " + Twine(Paths.size()) +
            " input(s) is ThinLTO bitcode with a summary; compile with "
            "-flto=thin");

  // The combined index, as the thin link builds it.
  ModuleSummaryIndex Index(/*HaveGVs=*/false);
  StringMap<ModuleId> ModuleOfId;
  ImportGraph &Graph = Result.Graph;
  std::vector<ModuleCalls> Calls;
  for (InputModule &M : Modules) {
    if (!ModuleOfId.try_emplace(M.Id, Graph.Modules.size()).second) {
      Warn(M.Id + ": given twice; the second is ignored");
      continue;
    }
    if (Error E = M.Bitcode.readSummary(Index, M.Id))
      return inputError(M.Id, "invalid summary: " + toString(std::move(E)));
    LLVMContext Context;
    // An error diagnosed through the context would otherwise exit.
    ReaderDiagnostics Diags(Context);
    Expected<std::unique_ptr<Module>> IR = M.Bitcode.parseModule(Context);
    if (!IR)
      return inputError(M.Id, "invalid bitcode: " + toString(IR.takeError()));
    if (Diags.hasError())
      return inputError(M.Id, "invalid bitcode: " + Diags.getFirstError());
    Graph.Modules.push_back(M.Id);
    Calls.push_back(readModuleCalls(**IR));
    Result.SourceFileNames.push_back(Calls.back().SourceFileName);
  }

  // Profile entry counts by GUID, and which profile functions match.
  DenseMap<GlobalValue::GUID, uint64_t> ProfileEntry;
  std::vector<std::vector<GlobalValue::GUID>> ExecutedGUIDs;
  for (const WeightedProfile &P : Profiles) {
    ProfileMatch Match;
    Match.Path = P.Profile->Path;
    ExecutedGUIDs.emplace_back();
    for (const ProfiledFunction &F : P.Profile->Functions) {
      if (F.EntryCount == 0)
        continue;
      ++Match.Executed;
      uint64_t Weighted = uint64_t(double(F.EntryCount) * P.Weight);
      for (GlobalValue::GUID G : guidsOfProfileName(F.Name)) {
        uint64_t &E = ProfileEntry[G];
        E = SaturatingAdd(E, Weighted);
        ExecutedGUIDs.back().push_back(G);
      }
    }
    Result.Profiles.push_back(std::move(Match));
  }

  // Functions, in the index's (GUID) order. A name finds the first entry
  // in that order, as WorkloadImportsManager's name map does.
  StringMap<GlobalValue::GUID> FirstWithName;
  for (const auto &Entry : Index) {
    ValueInfo VI = Index.getValueInfo(Entry);
    FirstWithName.try_emplace(VI.name(), VI.getGUID());
  }
  DenseMap<GlobalValue::GUID, FunctionId> FunctionOf;
  for (const auto &Entry : Index) {
    ValueInfo VI = Index.getValueInfo(Entry);
    auto Summaries = VI.getSummaryList();
    bool IsVariable = any_of(Summaries, [](const auto &S) {
      return isa<GlobalVarSummary>(S.get());
    });
    if (IsVariable)
      continue;
    ImportFunction F;
    F.Name = VI.name().str();
    if (F.Name.empty())
      F.Name = "<guid " + std::to_string(VI.getGUID()) + ">";
    const GlobalValueSummary *First = nullptr;
    for (const auto &S : Summaries) {
      auto It = ModuleOfId.find(S->modulePath());
      if (It == ModuleOfId.end())
        continue;
      F.DefinedIn.push_back(It->second);
    }
    llvm::sort(F.DefinedIn);
    F.DefinedIn.erase(llvm::unique(F.DefinedIn), F.DefinedIn.end());
    if (!F.DefinedIn.empty()) {
      StringRef FirstId = Graph.Modules[F.DefinedIn.front()];
      for (const auto &S : Summaries)
        if (S->modulePath() == FirstId)
          First = S.get();
    }
    bool NameFindsIt =
        FirstWithName.lookup(VI.name()) == VI.getGUID() && !VI.name().empty();
    if (First) {
      if (const auto *FS = dyn_cast<FunctionSummary>(First))
        F.InstCount = FS->instCount();
      else if (const auto *AS = dyn_cast<AliasSummary>(First))
        if (const auto *FS = dyn_cast<FunctionSummary>(&AS->getAliasee()))
          F.InstCount = FS->instCount();
      if (const char *Why = whyNotImportable(Index, VI, *First))
        F.NotImportable = Why;
      else if (!NameFindsIt)
        F.NotImportable = "its name finds another symbol in the thin link's "
                          "index (compile with "
                          "-funique-internal-linkage-names)";
      F.CanBeRoot =
          NameFindsIt && Summaries.size() == 1 && isa<FunctionSummary>(First);
      const ModuleCalls &MC = Calls[F.DefinedIn.front()];
      if (auto It = MC.EntryCounts.find(VI.getGUID());
          It != MC.EntryCounts.end()) {
        F.EntryCount = It->second;
        ++Result.NumCountsFromIR;
      } else if (auto It = ProfileEntry.find(VI.getGUID());
                 It != ProfileEntry.end()) {
        F.EntryCount = It->second;
        ++Result.NumCountsFromProfile;
      }
    }
    FunctionOf[VI.getGUID()] = Graph.Functions.size();
    Graph.Functions.push_back(std::move(F));
  }

  // Profile coverage.
  bool AnyMatch = false;
  for (size_t P = 0; P < Profiles.size(); ++P) {
    DenseSet<GlobalValue::GUID> Seen;
    for (GlobalValue::GUID G : ExecutedGUIDs[P]) {
      auto It = FunctionOf.find(G);
      if (It == FunctionOf.end() ||
          Graph.Functions[It->second].DefinedIn.empty() ||
          !Seen.insert(It->second).second)
        continue;
      ++Result.Profiles[P].Matched;
    }
    if (Result.Profiles[P].Matched == 0)
      return inputError(Result.Profiles[P].Path,
                        "none of its " + Twine(Result.Profiles[P].Executed) +
                            " executed functions is defined in the " +
                            Twine(Graph.Modules.size()) +
                            " ThinLTO module(s); is it a profile of "
                            "another program?");
    AnyMatch = true;
  }
  if (Result.NumCountsFromIR == 0 && !AnyMatch)
    return createStringError(
        inconvertibleErrorCode(),
        "no counts: the objects carry no entry counts (compiled without "
        "-fprofile-use) and no profile was given; give --profile=<profile>");

  // Calls. A function defined in several modules (inline functions) has the
  // same counts in each copy; only its first copy's calls count, or they
  // would count once per copy.
  for (ModuleId M = 0; M < Graph.Modules.size(); ++M) {
    auto Emit = [&](GlobalValue::GUID CallerGUID, GlobalValue::GUID CalleeGUID,
                    uint64_t Count) {
      auto Caller = FunctionOf.find(CallerGUID);
      auto Callee = FunctionOf.find(CalleeGUID);
      if (Caller == FunctionOf.end() || Callee == FunctionOf.end() ||
          Count == 0)
        return;
      const ImportFunction &CallerFn = Graph.Functions[Caller->second];
      if (CallerFn.DefinedIn.empty() || CallerFn.DefinedIn.front() != M)
        return;
      Graph.Calls.push_back({M, Caller->second, Callee->second, Count});
    };
    for (const auto &[Pair, Relative] : Calls[M].Relative) {
      auto Caller = FunctionOf.find(Pair.first);
      if (Caller == FunctionOf.end())
        continue;
      uint64_t Entry = Graph.Functions[Caller->second].EntryCount;
      Emit(Pair.first, Pair.second,
           mulDiv(Entry, Relative, uint64_t(1) << RelativeShift));
    }
    for (const auto &[Pair, Count] : Calls[M].Absolute)
      Emit(Pair.first, Pair.second, Count);
    // The same counts site by site (std::map: in GUID order, sorted below).
    for (const auto &[Pair, Sites] : Calls[M].Sites) {
      auto Caller = FunctionOf.find(Pair.first);
      auto Callee = FunctionOf.find(Pair.second);
      if (Caller == FunctionOf.end() || Callee == FunctionOf.end())
        continue;
      const ImportFunction &CallerFn = Graph.Functions[Caller->second];
      if (CallerFn.DefinedIn.empty() || CallerFn.DefinedIn.front() != M)
        continue;
      for (size_t Ordinal = 0; Ordinal < Sites.size(); ++Ordinal)
        Graph.CallSites.push_back({M, Caller->second, Callee->second,
                                   uint32_t(Ordinal), uint32_t(Sites.size()),
                                   mulDiv(CallerFn.EntryCount, Sites[Ordinal],
                                          uint64_t(1) << RelativeShift)});
    }
  }
  llvm::sort(Graph.CallSites,
             [](const ImportCallSite &A, const ImportCallSite &B) {
               return std::tie(A.Module, A.Caller, A.Callee, A.Ordinal) <
                      std::tie(B.Module, B.Caller, B.Callee, B.Ordinal);
             });
  // One record per (module, caller, callee), in a stable order.
  llvm::sort(Graph.Calls, [](const ImportCall &A, const ImportCall &B) {
    return std::tie(A.Module, A.Caller, A.Callee) <
           std::tie(B.Module, B.Caller, B.Callee);
  });
  std::vector<ImportCall> Merged;
  for (const ImportCall &C : Graph.Calls) {
    if (!Merged.empty() && Merged.back().Module == C.Module &&
        Merged.back().Caller == C.Caller && Merged.back().Callee == C.Callee) {
      Merged.back().Count = SaturatingAdd(Merged.back().Count, C.Count);
      continue;
    }
    Merged.push_back(C);
  }
  Graph.Calls = std::move(Merged);
  return std::move(Result);
}

Expected<ImportInputs>
kiln::imports::readImportInputs(ArrayRef<std::string> Paths,
                                ArrayRef<WeightedProfile> Profiles,
                                function_ref<void(const Twine &)> Warn) {
  // LLVM's bitcode reader can fault on corrupt input; make that an error.
  std::optional<Expected<ImportInputs>> Result;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely(
          [&] { Result.emplace(readImportInputsImpl(Paths, Profiles, Warn)); }))
    return createStringError(inconvertibleErrorCode(),
                             "corrupt input: LLVM's bitcode reader failed on "
                             "one of the objects");
  return std::move(*Result);
}

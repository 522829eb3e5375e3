//===- ImportShaping.cpp - Shape ThinLTO imports from the profile ---------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION
///   What the pass can change, and why this way. LLVM 22 builds a function's
///   summary call edges in ModuleSummaryAnalysis.cpp (computeFunctionSummary)
///   from these IR facts only:
///    - a direct call: the hotness of ProfileSummaryInfo::getProfileCount of
///      the call (for an instrumentation profile the block count, from the
///      caller's entry count and block frequencies; for a sample profile the
///      call's own `!prof` total): `hot` at or above the summary's hot count
///      threshold, `cold` at or below the cold one, `none` in between,
///      `unknown` without a count. All calls to one callee make one edge with
///      the highest hotness of its call sites;
///    - an indirect call: one edge per value-profile target, with the hotness
///      of that target's count;
///    - `critical`: only from Function::getImportGUIDs(), the GUIDs listed
///      after the count in the caller's `function_entry_count` metadata
///      (sample PGO's record of what the profiled binary inlined). Nothing
///      else in LLVM 22 makes a critical edge. They stay critical under
///      -force-summary-edges-cold=all-non-critical, which turns every other
///      edge cold.
///   The bitcode writer keeps the hotness only for callers that have a real
///   entry count (Function::hasProfileData()).
///
///   The thin link's importer (FunctionImport.cpp, computeImportForFunction)
///   takes a callee of at most -import-instr-limit (100) instructions times a
///   multiplier: -import-hot-multiplier (10) for a hot edge,
///   -import-critical-multiplier (100) for a critical one,
///   -import-cold-multiplier (0: never) for a cold one, 1 otherwise. Callees
///   of an imported function get the limit times
///   -import-instr-evolution-factor (0.7), or -import-hot-evolution-factor
///   (1.0) below a hot (not a critical) edge. It never imports a callee
///   whose summary says `noinline`.
///
///   So the honest levers are the import list (critical edges) and counts
///   that are missing where the module itself proves them. Cold edges need no
///   help: their counts already make them cold. Edge hotness is never faked
///   by rewriting block counts, which the whole backend would believe too.
///
///   The pass decides on the same predicates the ThinLTO backend's inliner
///   and Kiln's inline advisor use (ProfileSummaryInfo's hot count, no hot
///   threshold in optsize callers, noinline never overridden), so that what
///   it imports is what the backend can inline: importing a callee that will
///   not be inlined only costs compile time.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-import-shaping \
///       -pass-remarks=kiln-import-shaping --thinlto-bc a.ll -o a.bc
///   clang -O2 -flto=thin -fprofile-use=app.profdata \
///       -fpass-plugin=KilnPlugin-22.so -mllvm -kiln-import-shaping -c a.c
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/ImportShaping.h"
#include "Diagnostics.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/IndirectCallPromotionAnalysis.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MathExtras.h"

#include <optional>
#include <string>

using namespace llvm;

#define DEBUG_TYPE "kiln-import-shaping"

static cl::opt<unsigned> CriticalCutoff(
    "kiln-import-critical-cutoff", cl::init(0), cl::value_desc("N"),
    cl::desc("mark a cross-module call site critical only if its count "
             "reaches the count of the profile summary's N-per-million "
             "cutoff, as -profile-summary-cutoff-hot counts (0, the default: "
             "the summary's hot threshold, the one the inliner uses)"));

namespace {

/// Why a hot call site's callee is not marked for import. In the order the
/// checks run: the first that applies is reported.
enum class Refusal {
  None,
  DefinedHere,     ///< The callee's body is in this module already.
  NotPromotable,   ///< A value-profile target ICP will not promote.
  ZeroEntryCaller, ///< A hot count in a function entered 0 times.
  OptNoneCaller,   ///< Nothing is inlined into an optnone function.
  SizeCaller,      ///< optsize/minsize: the inliner gives no hot threshold.
  NoInlineCall,    ///< The call site says noinline.
  NoInlineCallee,  ///< The callee's declaration says noinline.
  LibraryFunction, ///< A C/C++ library function: not in any summary.
};

/// One callee of one caller over all its call sites: the summary's edge.
struct EdgeRecord {
  /// The callee as the module knows it; null for a value-profile target the
  /// module does not declare.
  GlobalValue *Callee = nullptr;
  GlobalValue::GUID Guid = 0;
  bool DefinedHere = false;
  /// Every call site has a count at or below the cold threshold.
  bool AllCold = true;
  /// The hottest hot call site with no reason to refuse (the one marked).
  CallBase *MarkSite = nullptr;
  uint64_t MarkCount = 0;
  bool MarkIndirect = false;
  /// The hottest refused hot call site, and why, if none could be marked.
  CallBase *RefusedSite = nullptr;
  uint64_t RefusedCount = 0;
  bool RefusedIndirect = false;
  Refusal Why = Refusal::None;
  /// The hottest call site, for the cold remark.
  CallBase *Site = nullptr;
  uint64_t Count = 0;
};

/// The sum of the counts of a function's direct call sites in functions that
/// have an entry count.
struct CallSiteCounts {
  uint64_t Sum = 0;
  unsigned NumSites = 0;
  /// Every use of the function is such a call: it is entered exactly Sum
  /// times (within the counts' precision).
  bool Complete = true;
};

/// What the pass reads, per module.
class ImportShaper {
public:
  ImportShaper(Module &M, ProfileSummaryInfo &PSI, FunctionAnalysisManager &FAM,
               uint64_t HotThreshold)
      : M(M), PSI(PSI), FAM(FAM), HotThreshold(HotThreshold) {}

  /// \returns true if the module's metadata changed.
  bool run();

private:
  bool supplyMissingEntryCounts();
  void reportInconsistentEntryCounts();
  bool shapeCalls(Function &Caller);
  void addCallSite(MapVector<GlobalValue::GUID, EdgeRecord> &Edges,
                   CallBase &CB, GlobalValue *Callee, GlobalValue::GUID Guid,
                   bool DefinedHere, std::optional<uint64_t> Count,
                   bool Indirect, bool Promotable = true);
  Refusal getRefusal(CallBase &CB, const GlobalValue *Callee, bool DefinedHere,
                     bool Indirect, bool Promotable);
  CallSiteCounts getCallSiteCounts(Function &F);
  std::optional<uint64_t> getCallCount(CallBase &CB);
  StringRef getTemperature(uint64_t Count) const;
  bool isHotForImport(uint64_t Count) const { return Count >= HotThreshold; }

  BlockFrequencyInfo &getBFI(Function &F) {
    return FAM.getResult<BlockFrequencyAnalysis>(F);
  }
  OptimizationRemarkEmitter &getORE(Function &F) {
    return FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
  }

  Module &M;
  ProfileSummaryInfo &PSI;
  FunctionAnalysisManager &FAM;
  /// A call site's count must reach this to be marked critical.
  uint64_t HotThreshold;
  /// The module's functions by every GUID a value profile may name them
  /// with, to tell its own indirect-call targets from other modules'.
  DenseMap<GlobalValue::GUID, Function *> FunctionsByGuid;
};

} // namespace

static StringRef getRefusalReason(Refusal Why) {
  switch (Why) {
  case Refusal::None:
    return "";
  case Refusal::DefinedHere:
    return "it is defined in this module";
  case Refusal::ZeroEntryCaller:
    return "the caller's entry count is 0 (the profile contradicts itself)";
  case Refusal::OptNoneCaller:
    return "the caller is optnone";
  case Refusal::SizeCaller:
    return "the caller is optimized for size (the inliner gives it no hot "
           "threshold)";
  case Refusal::NoInlineCall:
    return "the call site is noinline";
  case Refusal::NoInlineCallee:
    return "the callee is noinline";
  case Refusal::LibraryFunction:
    return "it is a library function";
  case Refusal::NotPromotable:
    return "indirect-call promotion will not promote it (its share of the "
           "call's targets is too small)";
  }
  llvm_unreachable("unknown Refusal");
}

static std::string getCalleeName(const EdgeRecord &Edge) {
  if (Edge.Callee)
    return Edge.Callee->getName().str();
  return "GUID " + std::to_string(Edge.Guid);
}

StringRef ImportShaper::getTemperature(uint64_t Count) const {
  if (PSI.isHotCount(Count))
    return "hot";
  if (PSI.isColdCount(Count))
    return "cold";
  return "warm";
}

std::optional<uint64_t> ImportShaper::getCallCount(CallBase &CB) {
  // The count the summary itself uses for the call's edge.
  return PSI.getProfileCount(CB, &getBFI(*CB.getFunction()));
}

CallSiteCounts ImportShaper::getCallSiteCounts(Function &F) {
  CallSiteCounts Counts;
  for (Use &U : F.uses()) {
    auto *CB = dyn_cast<CallBase>(U.getUser());
    // Address taken, a callback argument, a constant expression, llvm.used:
    // entries the module cannot count.
    if (!CB || !CB->isCallee(&U)) {
      Counts.Complete = false;
      continue;
    }
    Function *Caller = CB->getFunction();
    if (!Caller->getEntryCount()) {
      Counts.Complete = false;
      continue;
    }
    std::optional<uint64_t> Count = getCallCount(*CB);
    if (!Count) {
      Counts.Complete = false;
      continue;
    }
    Counts.Sum = SaturatingAdd(Counts.Sum, *Count);
    ++Counts.NumSites;
  }
  return Counts;
}

bool ImportShaper::supplyMissingEntryCounts() {
  // Block counts are entry count times relative block frequency only for an
  // instrumentation profile; a sample profile's call counts are its own.
  if (!PSI.hasInstrumentationProfile() && !PSI.hasCSInstrumentationProfile())
    return false;
  bool Changed = false;
  // A function supplied in one round can make its own local callees provable
  // in the next; each round supplies at least one count or ends the loop.
  for (bool Progress = true; Progress;) {
    Progress = false;
    for (Function &F : M) {
      if (F.isDeclaration() || !F.hasLocalLinkage() || F.getEntryCount())
        continue;
      CallSiteCounts Counts = getCallSiteCounts(F);
      if (!Counts.Complete || Counts.NumSites == 0)
        continue;
      F.setEntryCount(Function::ProfileCount(Counts.Sum, Function::PCT_Real));
      Progress = Changed = true;
      getORE(F).emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "EntryCountSupplied", &F)
               << "entry count " << ore::NV("EntryCount", Counts.Sum)
               << " supplied to " << ore::NV("Function", &F) << ": all its "
               << ore::NV("CallSites", Counts.NumSites)
               << " call sites are in profiled functions of this module";
      });
    }
  }
  return Changed;
}

void ImportShaper::reportInconsistentEntryCounts() {
  for (Function &F : M) {
    std::optional<Function::ProfileCount> Entry = F.getEntryCount();
    if (F.isDeclaration() || !Entry)
      continue;
    // A lower bound in any case: other modules may call F too.
    CallSiteCounts Counts = getCallSiteCounts(F);
    uint64_t EntryCount = Entry->getCount();
    // BFI's block counts are rounded; only a disagreement that changes how
    // the summary classifies the calls matters here.
    if (Counts.Sum <= EntryCount ||
        getTemperature(Counts.Sum) == getTemperature(EntryCount))
      continue;
    getORE(F).emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "InconsistentEntryCount",
                                        &F)
             << "entry count " << ore::NV("EntryCount", EntryCount) << " of "
             << ore::NV("Function", &F) << " is below the "
             << ore::NV("CallCount", Counts.Sum) << " calls its "
             << ore::NV("CallSites", Counts.NumSites)
             << " call sites in this module make; left as is";
    });
  }
}

Refusal ImportShaper::getRefusal(CallBase &CB, const GlobalValue *Callee,
                                 bool DefinedHere, bool Indirect,
                                 bool Promotable) {
  Function &Caller = *CB.getFunction();
  if (DefinedHere)
    return Refusal::DefinedHere;
  // The backend can inline an indirect-call target only once ICP has made
  // the call direct.
  if (!Promotable)
    return Refusal::NotPromotable;
  if (Caller.getEntryCount()->getCount() == 0)
    return Refusal::ZeroEntryCaller;
  if (Caller.hasOptNone())
    return Refusal::OptNoneCaller;
  // Same rule as the inliner's (and kiln-inline's): no hot threshold in a
  // function optimized for size.
  if (Caller.hasOptSize())
    return Refusal::SizeCaller;
  // The call's own attribute (CallBase::isNoInline() would also look at
  // the callee's, reported separately below).
  if (CB.getAttributes().hasFnAttr(Attribute::NoInline))
    return Refusal::NoInlineCall;
  const auto *CalleeFn = dyn_cast_or_null<Function>(Callee);
  if (!CalleeFn)
    return Refusal::None;
  if (CalleeFn->hasFnAttribute(Attribute::NoInline))
    return Refusal::NoInlineCallee;
  // A direct call to a function the target's library provides (memcpy,
  // strlen, operator new...) has no definition among the summaries. The
  // value profile of an indirect call names program functions only.
  LibFunc LF;
  const TargetLibraryInfo &TLI = FAM.getResult<TargetLibraryAnalysis>(Caller);
  if (!Indirect && TLI.getLibFunc(*CalleeFn, LF) && TLI.has(LF))
    return Refusal::LibraryFunction;
  return Refusal::None;
}

void ImportShaper::addCallSite(MapVector<GlobalValue::GUID, EdgeRecord> &Edges,
                               CallBase &CB, GlobalValue *Callee,
                               GlobalValue::GUID Guid, bool DefinedHere,
                               std::optional<uint64_t> Count, bool Indirect,
                               bool Promotable) {
  EdgeRecord &Edge = Edges[Guid];
  Edge.Guid = Guid;
  if (Callee)
    Edge.Callee = Callee;
  Edge.DefinedHere |= DefinedHere;
  if (!Count || !PSI.isColdCount(*Count))
    Edge.AllCold = false;
  if (!Count)
    return;
  if (!Edge.Site || *Count > Edge.Count) {
    Edge.Site = &CB;
    Edge.Count = *Count;
  }
  if (!isHotForImport(*Count))
    return;
  Refusal Why = getRefusal(CB, Callee, DefinedHere, Indirect, Promotable);
  if (Why == Refusal::None) {
    if (!Edge.MarkSite || *Count > Edge.MarkCount) {
      Edge.MarkSite = &CB;
      Edge.MarkCount = *Count;
      Edge.MarkIndirect = Indirect;
    }
    return;
  }
  if (!Edge.RefusedSite || *Count > Edge.RefusedCount) {
    Edge.RefusedSite = &CB;
    Edge.RefusedCount = *Count;
    Edge.RefusedIndirect = Indirect;
    Edge.Why = Why;
  }
}

bool ImportShaper::shapeCalls(Function &Caller) {
  MapVector<GlobalValue::GUID, EdgeRecord> Edges;
  ICallPromotionAnalysis ICallAnalysis;
  for (BasicBlock &BB : Caller) {
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || CB->isInlineAsm())
        continue;
      Value *Called = CB->getCalledOperand()->stripPointerCasts();
      // A direct call (an alias is always defined here), keyed like the
      // summary keys the edge: by the GUID of the called global.
      if (auto *GV = dyn_cast<GlobalValue>(Called)) {
        auto *Target = dyn_cast_or_null<Function>(GV->getAliaseeObject());
        if (!Target || Target->isIntrinsic())
          continue;
        addCallSite(Edges, *CB, GV, GV->getGUID(), !GV->isDeclaration(),
                    getCallCount(*CB), /*Indirect=*/false);
        continue;
      }
      if (isa<Constant>(Called))
        continue;
      // An indirect call: an edge per value-profile target, as the summary
      // makes them; only the first NumCandidates are ones the backend's
      // indirect-call promotion will promote (the same analysis and
      // thresholds), each with its own count.
      uint64_t TotalCount;
      uint32_t NumCandidates;
      MutableArrayRef<InstrProfValueData> Targets =
          ICallAnalysis.getPromotionCandidatesForInstruction(CB, TotalCount,
                                                             NumCandidates);
      for (const auto &[Index, Target] : enumerate(Targets)) {
        Function *Known = FunctionsByGuid.lookup(Target.Value);
        bool DefinedHere = Known && !Known->isDeclaration();
        GlobalValue::GUID Guid = Known ? Known->getGUID() : Target.Value;
        addCallSite(Edges, *CB, Known, Guid, DefinedHere, Target.Count,
                    /*Indirect=*/true, /*Promotable=*/Index < NumCandidates);
      }
    }
  }

  DenseSet<GlobalValue::GUID> Imports = Caller.getImportGUIDs();
  size_t NumImportsBefore = Imports.size();
  OptimizationRemarkEmitter &ORE = getORE(Caller);
  for (auto &Entry : Edges) {
    GlobalValue::GUID Guid = Entry.first;
    const EdgeRecord &Edge = Entry.second;
    std::string Callee = getCalleeName(Edge);
    if (Edge.MarkSite) {
      // Already listed (by a sample profile): already critical.
      if (!Imports.insert(Guid).second)
        continue;
      ORE.emit([&] {
        return OptimizationRemark(DEBUG_TYPE, "Critical", Edge.MarkSite)
               << ore::NV("Callee", Callee) << " marked for import into "
               << ore::NV("Caller", &Caller)
               << (Edge.MarkIndirect ? ": hot indirect-call target (count "
                                     : ": hot call site (count ")
               << ore::NV("Count", Edge.MarkCount) << ", hot threshold "
               << ore::NV("HotThreshold", HotThreshold) << "), critical edge";
      });
      continue;
    }
    if (Edge.RefusedSite) {
      ORE.emit([&] {
        return OptimizationRemarkMissed(DEBUG_TYPE, "NotMarked",
                                        Edge.RefusedSite)
               << ore::NV("Callee", Callee) << " not marked for import into "
               << ore::NV("Caller", &Caller)
               << (Edge.RefusedIndirect ? ": hot indirect-call target (count "
                                        : ": hot call site (count ")
               << ore::NV("Count", Edge.RefusedCount) << ", hot threshold "
               << ore::NV("HotThreshold", HotThreshold) << "), but "
               << ore::NV("Reason", getRefusalReason(Edge.Why));
      });
      continue;
    }
    if (Edge.AllCold && Edge.Site && !Edge.DefinedHere) {
      ORE.emit([&] {
        return OptimizationRemarkAnalysis(DEBUG_TYPE, "ColdEdge", Edge.Site)
               << ore::NV("Callee", Callee) << " stays out of import into "
               << ore::NV("Caller", &Caller) << ": cold call sites (count "
               << ore::NV("Count", Edge.Count) << ", cold threshold "
               << ore::NV("ColdThreshold", PSI.getColdCountThreshold())
               << "), a cold edge the importer does not take";
      });
    }
  }
  if (Imports.size() == NumImportsBefore)
    return false;
  Caller.setEntryCount(*Caller.getEntryCount(), &Imports);
  return true;
}

bool ImportShaper::run() {
  // Every name a value profile can give a function of this module.
  for (Function &F : M) {
    FunctionsByGuid.try_emplace(F.getGUID(), &F);
    FunctionsByGuid.try_emplace(MD5Hash(getPGOFuncName(F)), &F);
    FunctionsByGuid.try_emplace(MD5Hash(getIRPGOFuncName(F)), &F);
  }

  bool Changed = supplyMissingEntryCounts();
  reportInconsistentEntryCounts();
  for (Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (F.getEntryCount()) {
      Changed |= shapeCalls(F);
      continue;
    }
    getORE(F).emit([&] {
      return OptimizationRemarkAnalysis(DEBUG_TYPE, "NoEntryCount", &F)
             << ore::NV("Function", &F)
             << " has no entry count: the summary records its calls without "
                "hotness";
    });
  }
  return Changed;
}

// The count a call site must reach under -kiln-import-critical-cutoff=N:
// the minimum count of the first detailed-summary entry whose cutoff is at
// least N, as ProfileSummaryInfo computes its own thresholds (the summary
// read with the same precedence: context-sensitive first). std::nullopt if
// the summary has no such entry (ProfileSummaryInfo would abort on it).
static std::optional<uint64_t> getCutoffCount(const Module &M,
                                              unsigned Cutoff) {
  Metadata *MD = M.getProfileSummary(/*IsCS=*/true);
  if (!MD)
    MD = M.getProfileSummary(/*IsCS=*/false);
  std::unique_ptr<ProfileSummary> Summary(MD ? ProfileSummary::getFromMD(MD)
                                             : nullptr);
  if (!Summary)
    return std::nullopt;
  for (const ProfileSummaryEntry &Entry : Summary->getDetailedSummary())
    if (Entry.Cutoff >= Cutoff)
      return Entry.MinCount;
  return std::nullopt;
}

static void reportSkipped(Module &M, const Twine &Why) {
  kiln::reportUnusableInput(
      M.getContext(), Twine(DEBUG_TYPE) + ": module '" + M.getSourceFileName() +
                          "': " + Why + "; no import is shaped");
}

PreservedAnalyses kiln::ImportShapingPass::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  ProfileSummaryInfo &PSI = MAM.getResult<ProfileSummaryAnalysis>(M);
  if (!PSI.hasProfileSummary()) {
    reportSkipped(M, "it has no profile summary (not compiled with "
                     "-fprofile-use?)");
    return PreservedAnalyses::all();
  }
  unsigned NumDefined = 0;
  bool AnyCount = false;
  for (const Function &F : M) {
    if (F.isDeclaration())
      continue;
    ++NumDefined;
    AnyCount |= F.getEntryCount().has_value();
  }
  if (NumDefined != 0 && !AnyCount) {
    reportSkipped(M, "the profile has no count for any of its " +
                         Twine(NumDefined) +
                         " functions (a profile of another program or "
                         "version?)");
    return PreservedAnalyses::all();
  }

  uint64_t HotThreshold = PSI.getHotCountThreshold();
  if (CriticalCutoff.getNumOccurrences() > 0 && CriticalCutoff != 0) {
    std::optional<uint64_t> Count = getCutoffCount(M, CriticalCutoff);
    if (!Count) {
      reportSkipped(M, "-kiln-import-critical-cutoff=" + Twine(CriticalCutoff) +
                           " is beyond the profile summary's last cutoff");
      return PreservedAnalyses::all();
    }
    HotThreshold = *Count;
  }
  // The summary's hot test is `count >= threshold`; a zero threshold (an
  // all-zero profile) would make every call hot.
  HotThreshold = std::max<uint64_t>(HotThreshold, 1);

  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  if (!ImportShaper(M, PSI, FAM, HotThreshold).run())
    return PreservedAnalyses::all();
  // Only profile metadata changed; the code and its CFG did not.
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

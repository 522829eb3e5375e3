//===- ModuleInlinePlan.cpp - One module's planned inlining ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ModuleInlinePlan.h"

#include "Diagnostics.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"

#include <mutex>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

namespace {
/// A plan file as read once per process.
struct LoadedPlan {
  std::shared_ptr<const InlinePlanFile> File; ///< Null if unusable.
  std::string Error;                          ///< Why, if unusable.
  bool ReportedError = false;
  StringMap<const InlinePlanModule *> BySource;
};
} // namespace

static std::mutex PlansLock;

// The plan at Path, read the first time; under PlansLock.
static LoadedPlan &loadPlan(StringRef Path) {
  static StringMap<LoadedPlan> Plans;
  auto [It, New] = Plans.try_emplace(Path);
  LoadedPlan &P = It->second;
  if (!New)
    return P;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer) {
    P.Error = Buffer.getError().message();
    return P;
  }
  Expected<InlinePlanFile> File = parseInlinePlanFile((*Buffer)->getBuffer());
  if (!File) {
    P.Error = toString(File.takeError());
    return P;
  }
  auto Shared = std::make_shared<const InlinePlanFile>(std::move(*File));
  for (const InlinePlanModule &M : Shared->Modules)
    P.BySource.try_emplace(M.Source, &M);
  P.File = std::move(Shared);
  return P;
}

// The name the thin link's index had: without ThinLTO's promotion suffix.
static StringRef getPlanName(StringRef Name) {
  size_t Suffix = Name.find(".llvm.");
  return Suffix == StringRef::npos ? Name : Name.take_front(Suffix);
}

static std::string edgeKey(StringRef Caller, StringRef Callee) {
  return (Caller + Twine('\0') + Callee).str();
}

static Function *getDirectCallee(const CallBase &CB) {
  auto *F = dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  return F && !F->isIntrinsic() ? F : nullptr;
}

std::unique_ptr<ModuleInlinePlan> ModuleInlinePlan::create(Module &M,
                                                           StringRef Path) {
  std::shared_ptr<const InlinePlanFile> File;
  const InlinePlanModule *Part = nullptr;
  {
    std::lock_guard<std::mutex> Guard(PlansLock);
    LoadedPlan &P = loadPlan(Path);
    if (!P.File) {
      if (!P.ReportedError)
        reportUnusableInput(M.getContext(), "kiln-inline-plan: " + Path + ": " +
                                                P.Error +
                                                "; the plan is not followed");
      P.ReportedError = true;
      return nullptr;
    }
    File = P.File;
    Part = P.BySource.lookup(M.getSourceFileName());
  }
  if (!Part) {
    reportUnusableInput(M.getContext(),
                        "kiln-inline-plan: " + Path + ": none of its " +
                            Twine(File->Modules.size()) +
                            " module(s) was compiled from '" +
                            M.getSourceFileName() +
                            "' (a plan of another program?); this module "
                            "gets LLVM's default inlining");
    return nullptr;
  }

  // Functions of M by the names the plan uses.
  StringSet<> Defined, Known;
  for (Function &F : M) {
    StringRef Name = getPlanName(F.getName());
    Known.insert(Name);
    if (!F.isDeclaration())
      Defined.insert(Name);
  }
  std::unique_ptr<ModuleInlinePlan> Plan(new ModuleInlinePlan(File));
  size_t NumMissing = 0;
  const InlinePlanSite *FirstMissing = nullptr;
  for (const InlinePlanSite &S : Part->Sites) {
    if (!Defined.contains(S.Caller) || !Known.contains(S.Callee)) {
      if (!NumMissing++)
        FirstMissing = &S;
      continue;
    }
    auto &Sites = Plan->ByEdge[edgeKey(S.Caller, S.Callee)];
    // Sites of one edge agree on their number; a plan that does not is
    // treated as the first site says.
    if (Sites.empty())
      Sites.assign(S.NumSites, nullptr);
    if (S.Ordinal < Sites.size())
      Sites[S.Ordinal] = &S;
  }
  if (NumMissing)
    reportUnusableInput(
        M.getContext(),
        "kiln-inline-plan: " + Path + ": " + Twine(NumMissing) + " of the " +
            Twine(Part->Sites.size()) + " planned call site(s) of '" +
            Part->Source + "' name functions the module does not have (" +
            FirstMissing->Caller + " -> " + FirstMissing->Callee +
            ", ...; a plan of an older build?); they get LLVM's default "
            "inlining");
  return Plan;
}

InlinePlanMatch ModuleInlinePlan::lookup(CallBase &CB) {
  InlinePlanMatch Result;
  Function *Callee = getDirectCallee(CB);
  if (!Callee)
    return Result;
  Function &Caller = *CB.getCaller();
  std::string Key =
      edgeKey(getPlanName(Caller.getName()), getPlanName(Callee->getName()));
  auto Edge = ByEdge.find(Key);
  if (Edge == ByEdge.end())
    return Result;

  auto [It, New] = CallsOf.try_emplace(&Caller);
  if (New)
    for (Instruction &I : instructions(Caller))
      if (auto *Call = dyn_cast<CallBase>(&I))
        if (Function *F = getDirectCallee(*Call))
          if (std::string K = edgeKey(getPlanName(Caller.getName()),
                                      getPlanName(F->getName()));
              ByEdge.count(K))
            It->second[K].push_back(WeakVH(Call));
  const SmallVector<WeakVH, 2> &Calls = It->second[Key];
  const auto *Found = llvm::find_if(
      Calls, [&](const WeakVH &H) { return H == static_cast<Value *>(&CB); });
  if (Found == Calls.end())
    return Result; // A call that inlining brought in: not the plan's.
  Result.NumInIR = Calls.size();
  Result.NumPlanned = Edge->second.size();
  if (Result.NumInIR != Result.NumPlanned) {
    Result.Kind = InlinePlanMatchKind::Unmatched;
    return Result;
  }
  Result.Site = Edge->second[Found - Calls.begin()];
  Result.Kind = Result.Site ? InlinePlanMatchKind::Planned
                            : InlinePlanMatchKind::NotPlanned;
  return Result;
}

bool ModuleInlinePlan::firstReportOf(CallBase &CB) {
  Function *Callee = getDirectCallee(CB);
  if (!Callee)
    return false;
  return Reported
      .try_emplace(edgeKey(getPlanName(CB.getCaller()->getName()),
                           getPlanName(Callee->getName())),
                   true)
      .second;
}

//===- StaleProfile.cpp - Profiles older than code ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/StaleProfile.h"

#include "CrashGuard.h"
#include "kiln/Sources/ReaderDiagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ProfileSummary.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

/// The annotation LLVM's IR PGO puts on a function whose CFG hash does not
/// match the profile's (PGOInstrumentation.cpp).
static constexpr StringLiteral HashMismatchAnnotation =
    "instr_prof_hash_mismatch";

static bool hasHashMismatchAnnotation(const Function &F) {
  const MDNode *Annotations = F.getMetadata(LLVMContext::MD_annotation);
  if (!Annotations)
    return false;
  return llvm::any_of(Annotations->operands(), [](const MDOperand &Op) {
    const auto *Text = dyn_cast_or_null<MDString>(Op.get());
    return Text && Text->getString() == HashMismatchAnnotation;
  });
}

static bool wasCompiledWithInstrProfile(const Module &M) {
  Metadata *Summary = M.getProfileSummary(/*IsCS=*/false);
  if (!Summary)
    return false;
  ProfileSummary *PS = ProfileSummary::getFromMD(Summary);
  bool Instrumented = PS && PS->getKind() == ProfileSummary::PSK_Instr;
  delete PS;
  return Instrumented;
}

static Expected<std::vector<ProfileUseFunction>>
readProfileUseFunctionsUnguarded(StringRef Path, MemoryBufferRef Buffer) {
  auto Failed = [&](Error E) {
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(std::move(E)));
  };
  Expected<std::vector<BitcodeModule>> Modules = getBitcodeModuleList(Buffer);
  if (!Modules)
    return Failed(Modules.takeError());
  std::vector<ProfileUseFunction> Functions;
  for (BitcodeModule &BM : *Modules) {
    LLVMContext Context;
    ReaderDiagnostics Diags(Context);
    Expected<std::unique_ptr<Module>> M = BM.parseModule(Context);
    if (!M)
      return Failed(M.takeError());
    if (Diags.hasError())
      return createStringError(inconvertibleErrorCode(),
                               Path + ": " + Diags.getFirstError());
    if (!wasCompiledWithInstrProfile(**M))
      continue;
    for (const Function &F : **M) {
      if (F.isDeclaration())
        continue;
      ProfileUseFunction Compiled;
      Compiled.PGONames.push_back(getIRPGOFuncName(F, /*InLTO=*/true));
      std::string FrontEnd = getPGOFuncName(F, /*InLTO=*/true);
      if (FrontEnd != Compiled.PGONames.front())
        Compiled.PGONames.push_back(std::move(FrontEnd));
      Compiled.HasEntryCount = F.getEntryCount().has_value();
      Compiled.HashMismatch = hasHashMismatchAnnotation(F);
      Functions.push_back(std::move(Compiled));
    }
  }
  return Functions;
}

Expected<std::vector<ProfileUseFunction>>
kiln::readProfileUseFunctions(StringRef Path, MemoryBufferRef Buffer) {
  return runGuarded(
      [&] { return readProfileUseFunctionsUnguarded(Path, Buffer); },
      [&]() -> Expected<std::vector<ProfileUseFunction>> {
        return createStringError(inconvertibleErrorCode(),
                                 Path + ": LLVM's bitcode reader failed on "
                                        "its contents");
      });
}

StaleProfileFinding
kiln::findStaleFunctions(const LayoutProfile &Profile,
                         ArrayRef<ProfileUseFunction> Compiled,
                         bool SparseCompileProfile) {
  StaleProfileFinding Finding;
  StringMap<const ProfiledFunction *> ByName;
  for (const ProfiledFunction &F : Profile.Functions) {
    Finding.TotalWeight = SaturatingAdd(Finding.TotalWeight, F.Weight);
    if (F.Weight)
      ByName.try_emplace(F.Name, &F);
  }
  // A function is counted once, however many modules define it (a
  // linkonce_odr function in each module that uses it) and whichever of
  // its names matched: stale if any definition lost its counts.
  StringMap<bool> StaleByName;
  for (const ProfileUseFunction &C : Compiled)
    for (const std::string &Name : C.PGONames) {
      if (!ByName.count(Name))
        continue;
      bool &Stale = StaleByName.try_emplace(Name, false).first->second;
      Stale |= C.HashMismatch || (!C.HasEntryCount && !SparseCompileProfile);
      break;
    }
  std::vector<const ProfiledFunction *> Stale;
  for (const auto &[Name, IsStale] : StaleByName) {
    ++Finding.CompiledFunctions;
    if (IsStale)
      Stale.push_back(ByName.lookup(Name));
  }
  llvm::sort(Stale, [](const ProfiledFunction *A, const ProfiledFunction *B) {
    if (A->Weight != B->Weight)
      return A->Weight > B->Weight;
    return A->Name < B->Name;
  });
  Finding.StaleFunctions = Stale.size();
  for (const ProfiledFunction *F : Stale) {
    Finding.StaleWeight = SaturatingAdd(Finding.StaleWeight, F->Weight);
    Finding.StaleNames.push_back(F->Name);
  }
  return Finding;
}

std::string kiln::describeStaleProfile(StringRef Path,
                                       const StaleProfileFinding &Finding) {
  if (!Finding.StaleFunctions)
    return "";
  std::string Text;
  raw_string_ostream OS(Text);
  double Share = Finding.TotalWeight ? 100.0 * double(Finding.StaleWeight) /
                                           double(Finding.TotalWeight)
                                     : 0.0;
  OS << Path << ": stale profile: " << Finding.StaleFunctions << " of the "
     << Finding.CompiledFunctions << " functions it has counts for ("
     << format("%.1f", Share)
     << "% of its counts) were compiled without them, their code having "
        "changed since the profile was taken (clang's hash mismatch): ";
  constexpr size_t NamesShown = 3;
  for (size_t I = 0; I < Finding.StaleNames.size() && I < NamesShown; ++I)
    OS << (I ? ", " : "") << Finding.StaleNames[I];
  if (Finding.StaleNames.size() > NamesShown)
    OS << ", ...";
  OS << "; Kiln still orders them by name; take the profile again";
  return Text;
}

//===- StartupFunctions.cpp - The functions a startup run executes --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StartupFunctions.h"
#include "Diagnostics.h"

#include "kiln/Sources/TemporalTraces.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace llvm;
using kiln::StartupFunctions;

static cl::opt<std::string> StartupFunctionsOption(
    "kiln-startup-functions", cl::value_desc("file"), cl::init(""),
    cl::desc("file listing the functions run at startup, one IR name per "
             "line ('#' starts a comment line), for kiln-section-placement "
             "and kiln-function-order"));

static cl::opt<std::string> StartupProfileOption(
    "kiln-startup-profile", cl::value_desc("profdata"), cl::init(""),
    cl::desc("indexed profile whose temporal traces (-ftemporal-profile, "
             "collected from a startup run) name the functions run at "
             "startup, for kiln-section-placement and kiln-function-order"));

// Reads one name per line; blank lines and lines starting with '#' are
// skipped. \returns false, after a warning naming the file, if it cannot be
// read: a build must not fail because a profile artifact went missing.
static bool readStartupList(LLVMContext &Context, StringRef PassName,
                            StartupFunctions &Startup,
                            std::vector<std::string> &ListOrder) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Startup.ListPath, /*IsText=*/true);
  if (!Buffer) {
    kiln::reportUnusableInput(
        Context, PassName + ": cannot read the startup function list '" +
                     Startup.ListPath + "': " + Buffer.getError().message() +
                     "; no function is placed");
    return false;
  }
  SmallVector<StringRef, 0> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.trim();
    if (Line.empty() || Line.starts_with("#"))
      continue;
    if (Startup.ListedNames.insert(Line).second)
      ListOrder.push_back(Line.str());
  }
  return true;
}

// The names a profile may know F by: the IR-instrumentation name and the
// front-end one, each as spelled before LTO (`file.c;local`) and after it
// renamed locals (from the PGOFuncName metadata).
static SmallVector<std::string, 4> getProfileNames(const Function &F) {
  SmallVector<std::string, 4> Names;
  for (bool InLTO : {false, true}) {
    Names.push_back(getIRPGOFuncName(F, InLTO));
    Names.push_back(getPGOFuncName(F, InLTO));
  }
  return Names;
}

// Reads the temporal traces of the indexed profile and keeps the functions
// of M they name: every function a startup run executed is a startup
// function (the traces hold MD5s of profile names). \returns false, after a
// warning naming the file and the reason, if the profile cannot be read or
// has no traces.
static bool readStartupProfile(Module &M, StringRef PassName,
                               StartupFunctions &Startup) {
  auto Warn = [&](const Twine &Why) {
    kiln::reportUnusableInput(M.getContext(),
                              PassName + ": cannot use the startup profile '" +
                                  Startup.ProfilePath + "': " + Why +
                                  "; no function is placed");
  };
  IntrusiveRefCntPtr<vfs::FileSystem> FS = vfs::getRealFileSystem();
  Expected<std::unique_ptr<IndexedInstrProfReader>> Reader =
      IndexedInstrProfReader::create(Startup.ProfilePath, *FS);
  if (!Reader) {
    Warn(toString(Reader.takeError()));
    return false;
  }
  // Every function by the hash of each of its profile names; the first
  // function of a hash (in module order) keeps it.
  DenseMap<uint64_t, const Function *> FunctionOfHash;
  for (const Function &F : M) {
    if (F.isDeclaration() || F.hasAvailableExternallyLinkage())
      continue;
    for (const std::string &Name : getProfileNames(F))
      FunctionOfHash.try_emplace(MD5Hash(Name), &F);
  }
  DenseSet<uint64_t> TracedHashes;
  std::vector<kiln::ResolvedTrace<const Function *>> Traces =
      kiln::readTemporalTraces<const Function *>(
          **Reader, [&](uint64_t Hash) -> std::optional<const Function *> {
            TracedHashes.insert(Hash);
            if (const Function *F = FunctionOfHash.lookup(Hash))
              return F;
            return std::nullopt;
          });
  if (Traces.empty()) {
    Warn(kiln::NoTemporalTracesHint);
    return false;
  }
  Startup.NumTraces = Traces.size();
  Startup.NumTracedFunctions = TracedHashes.size();
  // First execution: trace by trace, each function where it first appears.
  StringSet<> Ordered;
  for (const kiln::ResolvedTrace<const Function *> &Trace : Traces)
    for (const Function *F : Trace.Functions) {
      Startup.TracedNames.insert(F->getName());
      if (Ordered.insert(F->getName()).second)
        Startup.FirstExecutionOrder.push_back(F->getName().str());
    }
  return true;
}

std::optional<StartupFunctions>
kiln::loadStartupFunctions(Module &M, StringRef PassName,
                           StringRef ListOverride) {
  StartupFunctions Startup;
  Startup.ListPath =
      ListOverride.empty() ? StartupFunctionsOption : ListOverride.str();
  Startup.ProfilePath = StartupProfileOption;
  std::vector<std::string> ListOrder;
  if (!Startup.ListPath.empty() &&
      !readStartupList(M.getContext(), PassName, Startup, ListOrder))
    return std::nullopt;
  if (!Startup.ProfilePath.empty() && !readStartupProfile(M, PassName, Startup))
    return std::nullopt;
  StringSet<> Ordered;
  for (const std::string &Name : Startup.FirstExecutionOrder)
    Ordered.insert(Name);
  for (const std::string &Name : ListOrder) {
    const Function *F = M.getFunction(Name);
    if (F && !F->isDeclaration() && Ordered.insert(Name).second)
      Startup.FirstExecutionOrder.push_back(Name);
  }
  return Startup;
}

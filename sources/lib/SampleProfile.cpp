//===- SampleProfile.cpp - Read sample profiles for layout ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A sample profile (AutoFDO, llvm-profgen) lists top-level functions with
/// their samples; code inlined into a function is a nested record whose
/// samples ran inside the top-level function. So only top-level records are
/// functions for layout, and the call targets of every record nested in one
/// are calls made from that top-level function's code.
///
//===----------------------------------------------------------------------===//

#include "CrashGuard.h"
#include "SampleProfileBounds.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/ReaderDiagnostics.h"
#include "kiln/Support/InputFile.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/ProfileData/SampleProf.h"
#include "llvm/ProfileData/SampleProfReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <map>

using namespace llvm;
using namespace llvm::sampleprof;
using namespace kiln;

static Error profileError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
}

/// Adds the call targets of \p Samples and of everything inlined into it to
/// \p Calls, as calls from \p Caller.
static void
collectCalls(const FunctionSamples &Samples, StringRef Caller,
             std::map<std::pair<std::string, std::string>, uint64_t> &Calls) {
  for (const auto &[Location, Record] : Samples.getBodySamples())
    for (const auto &[Target, Count] : Record.getCallTargets())
      Calls[{Caller.str(), Target.str()}] += Count;
  for (const auto &[Location, Inlined] : Samples.getCallsiteSamples())
    for (const auto &[Callee, CalleeSamples] : Inlined)
      collectCalls(CalleeSamples, Caller, Calls);
}

static Expected<LayoutProfile> readSampleProfileUnguarded(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/false);
  if (!Buffer)
    return profileError(Path, Buffer.getError().message());
  // The reader allocates what the file claims: check the claims first.
  if (Error E = checkSampleProfileBounds(Path, **Buffer))
    return E;
  LLVMContext Context;
  // The reader diagnoses what is corrupt through the context, which would
  // otherwise exit.
  ReaderDiagnostics Diags(Context);
  auto FS = vfs::getRealFileSystem();
  ErrorOr<std::unique_ptr<SampleProfileReader>> Reader =
      SampleProfileReader::create(*Buffer, Context, *FS);
  // Its diagnostics start with the file's name, as Kiln's do.
  auto Diagnosed = [&] {
    StringRef Message = Diags.getFirstError();
    Message.consume_front((Path + ": ").str());
    return profileError(Path, Message);
  };
  auto Failed = [&](std::error_code EC) {
    return Diags.hasError() ? Diagnosed() : profileError(Path, EC.message());
  };
  if (!Reader)
    return Failed(Reader.getError());
  if (std::error_code EC = (*Reader)->read())
    return Failed(EC);
  if (Diags.hasError())
    return Diagnosed();
  if ((*Reader)->useMD5())
    return profileError(Path, "the profile names functions by MD5 hashes "
                              "only; Kiln needs names to bind them to "
                              "symbols");

  LayoutProfile Profile;
  Profile.Path = Path.str();
  Profile.Kind = ProfileKind::Sample;
  // SampleProfileMap is a hash map: sort by name for a deterministic order.
  std::map<std::string, const FunctionSamples *> ByName;
  for (const auto &[Id, Samples] : (*Reader)->getProfiles())
    ByName.emplace(Samples.getFunction().str(), &Samples);
  std::map<std::pair<std::string, std::string>, uint64_t> Calls;
  for (const auto &[Name, Samples] : ByName) {
    ProfiledFunction F{Name, Samples->getTotalSamples()};
    F.EntryCount = Samples->getHeadSamplesEstimate();
    F.EntryCountIsExact = Samples->getHeadSamples() != 0;
    Profile.Functions.push_back(std::move(F));
    collectCalls(*Samples, Name, Calls);
  }
  for (const auto &[Pair, Count] : Calls)
    Profile.Calls.push_back({Pair.first, Pair.second, Count});
  if (Profile.Functions.empty())
    return profileError(Path, "the profile has no function records");
  return Profile;
}

Expected<LayoutProfile> kiln::readSampleProfile(StringRef Path) {
  return runGuarded([&] { return readSampleProfileUnguarded(Path); },
                    [&]() -> Expected<LayoutProfile> {
                      return profileError(Path, "corrupt profile: LLVM's "
                                                "sample profile reader "
                                                "failed on its contents");
                    });
}

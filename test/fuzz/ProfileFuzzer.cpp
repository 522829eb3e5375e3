//===- ProfileFuzzer.cpp - Fuzz the profile adapter -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes, as a file, to kiln::readProfile: the dispatch
/// between sample and instrumented profiles, Kiln's bounds checks of indexed
/// profiles and its adapters over LLVM's readers. As in the kiln tool,
/// llvm::CrashRecoveryContext is enabled, so a fault inside LLVM's reader
/// becomes an error (FuzzerUtils.h); anything else (a report of the
/// sanitizers, a leak, an abort, a hang, an error that does not name the
/// file) is a finding.
///
//===----------------------------------------------------------------------===//

#include "FuzzerUtils.h"

#include "kiln/Sources/Profile.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace kiln;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::enableCrashRecovery();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = fuzz::getInputPath("profdata");
  fuzz::writeInputFile(Path, Data, Size);
  if (fuzz::recoversFromFault([&] { return readProfile(Path).takeError(); }))
    return 0;
  Expected<LayoutProfile> Profile = readProfile(Path);
  if (!Profile) {
    // Every error names the file.
    std::string Message = toString(Profile.takeError());
    if (StringRef(Message).find(Path) == StringRef::npos)
      std::abort();
    return 0;
  }
  return 0;
}

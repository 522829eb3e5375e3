//===- LinkCommandFuzzer.cpp - Fuzz kiln-lld's command-line readers -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes to what kiln-lld parses before and between its
/// links: the input is an argv (arguments separated by NUL bytes) given to
/// detectFlavor, splitKilnLinkOptions and findConflictingOrderOptions, and
/// the same bytes as the input list a preliminary link printed, given to
/// parseTracedInputs for each flavor. No Kiln option may survive into the
/// linker's arguments, and every traced input is listed once.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/KilnLinkOptions.h"
#include "kiln/LLDDriver/LinkerInvocation.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;
using namespace kiln;

static void checkTracedInputs(StringRef Text, LinkerFlavor Flavor) {
  std::vector<TracedInput> Inputs = parseTracedInputs(Text, Text, Flavor);
  for (size_t I = 0; I < Inputs.size(); ++I) {
    if (Inputs[I].Path.empty())
      std::abort();
    for (size_t J = 0; J < I; ++J)
      if (Inputs[I] == Inputs[J])
        std::abort();
  }
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  StringRef Text(reinterpret_cast<const char *>(Data), Size);

  // argv: "kiln-lld" (so that the flavor may come from -flavor), then the
  // NUL-separated arguments.
  SmallVector<StringRef, 16> Fields;
  Text.split(Fields, '\0');
  std::vector<std::string> Storage(Fields.begin(), Fields.end());
  std::vector<const char *> Args = {"kiln-lld"};
  for (const std::string &S : Storage)
    Args.push_back(S.c_str());

  LinkerFlavor Flavor = detectFlavor(Args);
  for (LinkerFlavor F : {Flavor, LinkerFlavor::ELF, LinkerFlavor::COFF,
                         LinkerFlavor::MachO, LinkerFlavor::MinGW}) {
    Expected<SplitLinkCommand> Split = splitKilnLinkOptions(Args, F);
    if (!Split) {
      consumeError(Split.takeError());
      continue;
    }
    // A Kiln spelling reaches the linker only as the value of an option
    // that passes it on to LLVM (`-mllvm --kiln-x`, for the plugin).
    const std::vector<std::string> &LinkerArgs = Split->LinkerArgs;
    for (size_t I = 1; I < LinkerArgs.size(); ++I) {
      StringRef Arg = LinkerArgs[I];
      StringRef Previous = LinkerArgs[I - 1];
      bool IsKiln = Arg.starts_with("--kiln-") ||
                    (F == LinkerFlavor::COFF && Arg.starts_with("/kiln-"));
      bool PassedOn = Previous == "-mllvm" || Previous == "--mllvm" ||
                      Previous == "-plugin-opt" || Previous == "--plugin-opt";
      if (IsKiln && !PassedOn)
        std::abort();
    }
    (void)findConflictingOrderOptions(Split->LinkerArgs, F);
    (void)requestsKilnOptions(Args);
  }

  for (LinkerFlavor F : {LinkerFlavor::ELF, LinkerFlavor::COFF,
                         LinkerFlavor::MachO, LinkerFlavor::MinGW})
    checkTracedInputs(Text, F);
  return 0;
}

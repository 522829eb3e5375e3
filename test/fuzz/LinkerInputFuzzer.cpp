//===- LinkerInputFuzzer.cpp - Fuzz the object and archive adapter --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Feeds arbitrary bytes, as a file, to classifyLinkerInput and
/// readLinkerInput: Kiln's reading of symbols, sections and call-graph
/// sections of ELF, COFF and Mach-O objects, linked binaries and archives.
/// As in the kiln tool, llvm::CrashRecoveryContext is enabled, so a fault
/// inside LLVM's object reader becomes an error (FuzzerUtils.h). What is
/// read must be consistent: every edge's indices name functions of the
/// inputs, and every error names the file.
///
//===----------------------------------------------------------------------===//

#include "FuzzerUtils.h"

#include "kiln/Sources/LinkerInputs.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <cstdlib>

using namespace llvm;
using namespace kiln;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  fuzz::enableCrashRecovery();
  return 0;
}

static void checkIndex(int64_t Index, const LinkerInputs &Inputs) {
  if (Index < -1 || Index >= static_cast<int64_t>(Inputs.Functions.size()))
    std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = fuzz::getInputPath("o");
  fuzz::writeInputFile(Path, Data, Size);
  if (fuzz::recoversFromFault(
          [&] { return classifyLinkerInput(Path).takeError(); }) ||
      fuzz::recoversFromFault([&] {
        LinkerInputs Inputs;
        return readLinkerInput(Path, Inputs);
      }))
    return 0;

  Expected<InputKind> Kind = classifyLinkerInput(Path);
  if (!Kind)
    consumeError(Kind.takeError());

  LinkerInputs Inputs;
  if (Error E = readLinkerInput(Path, Inputs)) {
    std::string Message = toString(std::move(E));
    if (StringRef(Message).find(Path) == StringRef::npos)
      std::abort();
    return 0;
  }
  for (const InputCallEdge &E : Inputs.Edges) {
    checkIndex(E.Caller, Inputs);
    checkIndex(E.Callee, Inputs);
  }
  return 0;
}

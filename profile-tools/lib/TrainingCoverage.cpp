//===- TrainingCoverage.cpp - How much a profile ran ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/TrainingCoverage.h"

#include "kiln/Support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <utility>
#include <vector>

using namespace llvm;
using namespace kiln;

double TrainingCoverage::functionShare() const {
  return Functions ? double(ExecutedFunctions) / double(Functions) : 0.0;
}

double TrainingCoverage::counterShare() const {
  return Counters ? double(NonZeroCounters) / double(Counters) : 0.0;
}

bool TrainingCoverage::isThin(double MinFunctionShare,
                              double MinCounterShare) const {
  return functionShare() < MinFunctionShare || counterShare() < MinCounterShare;
}

std::string TrainingCoverage::describe() const {
  std::string S;
  raw_string_ostream OS(S);
  OS << ExecutedFunctions << " of " << Functions << " functions ("
     << format("%.0f", 100.0 * functionShare()) << "%), "
     << format("%.0f", 100.0 * counterShare()) << "% of their counters";
  return S;
}

/// Adds the counters of the profile at \p Path to \p Counted: per record
/// (name, then hash), whether each counter counted.
static Error addProfile(
    StringRef Path,
    std::map<std::pair<std::string, uint64_t>, std::vector<bool>> &Counted) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Path + ": " + Why);
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return Fail(Buffer.getError().message());
  Expected<std::unique_ptr<InstrProfReader>> ReaderOrErr =
      InstrProfReader::create(std::move(*Buffer), /*Correlator=*/nullptr);
  if (!ReaderOrErr) {
    auto [Code, Message] = InstrProfError::take(ReaderOrErr.takeError());
    return Fail("not an instrumented profile LLVM can read: " +
                InstrProfError(Code, Message).message());
  }
  for (const NamedInstrProfRecord &Record : **ReaderOrErr) {
    std::vector<bool> &Bits = Counted[{Record.Name.str(), Record.Hash}];
    if (Bits.size() < Record.Counts.size())
      Bits.resize(Record.Counts.size());
    for (auto [I, N] : enumerate(Record.Counts))
      if (N)
        Bits[I] = true;
  }
  if ((*ReaderOrErr)->hasError())
    if (Error E = (*ReaderOrErr)->getError())
      return Fail("corrupt profile: " + toString(std::move(E)));
  return Error::success();
}

Expected<TrainingCoverage>
kiln::readTrainingCoverage(ArrayRef<std::string> Paths) {
  // Ordered, so that nothing here depends on hashing; a profile has a few
  // thousand records.
  std::map<std::pair<std::string, uint64_t>, std::vector<bool>> Counted;
  for (const std::string &Path : Paths)
    if (Error E = addProfile(Path, Counted))
      return std::move(E);
  TrainingCoverage C;
  for (const auto &[Key, Bits] : Counted) {
    uint64_t NonZero = count(Bits, true);
    ++C.Functions;
    C.Counters += Bits.size();
    C.NonZeroCounters += NonZero;
    C.ExecutedFunctions += NonZero != 0;
  }
  return C;
}

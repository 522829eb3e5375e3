//===- ProfileMerge.cpp - Weighted instrumented profile merges ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProfileMerge.h"

#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/ProfileData/InstrProfWriter.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;
using namespace kiln;

// llvm-profdata merge's defaults, so that a profile merged here is the one
// it would write.
static constexpr uint64_t TemporalTraceReservoirSize = 100;
static constexpr uint64_t MaxTemporalTraceLength = 10000;

uint64_t kiln::multiplySaturating(uint64_t A, uint64_t B) {
  return SaturatingMultiply(A, B);
}

static Error inputError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
}

static StringRef describeLevel(bool IsIRLevel) {
  return IsIRLevel ? "an IR profile (clang -fprofile-generate)"
                   : "a front-end profile (clang -fprofile-instr-generate)";
}

namespace {
/// The level (IR or front-end) of the inputs merged so far, and the first
/// of them. LLVM 22's readers do not report a front-end profile's kind, so
/// InstrProfWriter::mergeProfileKind lets the two mix, into a profile that
/// neither kind of compile can use; Kiln refuses it.
struct MergeLevel {
  std::optional<bool> IsIRLevel;
  std::string FirstInput;
};

/// The warnings of one input, one line per kind of loss.
class InputWarnings {
public:
  void add(Error E, StringRef Function) {
    auto [Code, Message] = InstrProfError::take(std::move(E));
    auto [It, Inserted] =
        ByCode.try_emplace(Code, Entry{Function.str(), 0, ""});
    if (Inserted)
      It->second.Message = Message;
    ++It->second.Functions;
  }

  void appendTo(StringRef Path, std::vector<std::string> &Out) const {
    for (const auto &[Code, E] : ByCode) {
      std::string What;
      switch (Code) {
      case instrprof_error::counter_overflow:
        What = "counts of " + Twine(E.Functions).str() +
               " function(s) saturated at the largest count (first: " +
               E.Function + ")";
        break;
      case instrprof_error::count_mismatch:
      case instrprof_error::value_site_count_mismatch:
        What = Twine(E.Functions).str() +
               " function(s) have the hash of an earlier input's record "
               "but other counters, and are dropped (first: " +
               E.Function + "): profiles of different builds?";
        break;
      default:
        What = Twine(E.Functions).str() +
               " function(s) not merged (first: " + E.Function +
               "): " + InstrProfError(Code, E.Message).message();
        break;
      }
      Out.push_back((Path + ": " + What).str());
    }
  }

private:
  struct Entry {
    std::string Function;
    unsigned Functions;
    std::string Message;
  };
  MapVector<instrprof_error, Entry> ByCode;
};
} // namespace

/// Adds \p Input's records, traces and binary ids to \p Writer, and its
/// warnings to \p Result.
static Error addInput(const WeightedProfileInput &Input,
                      InstrProfWriter &Writer, MergeLevel &Level,
                      MergedProfile &Result) {
  if (Input.Weight == 0)
    return inputError(Input.Path, "the weight must be at least 1");
  std::unique_ptr<MemoryBuffer> Buffer;
  if (Input.Contents) {
    Buffer = MemoryBuffer::getMemBuffer(Input.Contents->getMemBufferRef(),
                                        /*RequiresNullTerminator=*/false);
  } else {
    ErrorOr<std::unique_ptr<MemoryBuffer>> File =
        getInputFile(Input.Path, /*IsText=*/false,
                     /*RequiresNullTerminator=*/false);
    if (!File)
      return inputError(Input.Path, File.getError().message());
    Buffer = std::move(*File);
  }
  // The readers report some inconsistencies of a raw profile as warnings;
  // llvm-profdata then refuses the merge, and so does Kiln.
  std::optional<std::string> ReaderWarning;
  auto Warn = [&](Error E) {
    std::string Message = toString(std::move(E));
    if (!ReaderWarning)
      ReaderWarning = Message;
  };
  Expected<std::unique_ptr<InstrProfReader>> ReaderOrErr =
      InstrProfReader::create(std::move(Buffer), /*Correlator=*/nullptr,
                              /*BIDFetcher=*/nullptr,
                              InstrProfCorrelator::ProfCorrelatorKind::NONE,
                              Warn);
  if (!ReaderOrErr) {
    auto [Code, Message] = InstrProfError::take(ReaderOrErr.takeError());
    // A program that ran no instrumented code writes an empty raw profile:
    // nothing to merge, as for llvm-profdata.
    if (Code == instrprof_error::empty_raw_profile) {
      ++Result.EmptyRawInputs;
      return Error::success();
    }
    return inputError(Input.Path, "not an instrumented profile LLVM can "
                                  "read: " +
                                      InstrProfError(Code, Message).message());
  }
  InstrProfReader &Reader = **ReaderOrErr;
  if (!Level.IsIRLevel) {
    Level.IsIRLevel = Reader.isIRLevelProfile();
    Level.FirstInput = Input.Path;
  } else if (*Level.IsIRLevel != Reader.isIRLevelProfile()) {
    return inputError(
        Input.Path, "cannot merge " + describeLevel(Reader.isIRLevelProfile()) +
                        " with " + describeLevel(*Level.IsIRLevel) + " (" +
                        Level.FirstInput + ")");
  }
  if (Error E = Writer.mergeProfileKind(Reader.getProfileKind())) {
    auto [Code, Message] = InstrProfError::take(std::move(E));
    return inputError(Input.Path, "cannot merge its kind of profile with "
                                  "the others: " +
                                      InstrProfError(Code, Message).message());
  }
  InputWarnings Warnings;
  for (NamedInstrProfRecord &Record : Reader) {
    std::string Name = Record.Name.str();
    // The record is weighted here and merged with weight 1. LLVM 22's
    // weighted merge multiplies the value profile's targets that the
    // merged record already has but adds the others unweighted
    // (InstrProfValueSiteRecord::merge), so an indirect call target that
    // only a later input saw kept 1/64 of its count in the x64 compile
    // profile, and indirect-call promotion skipped it (SQLite's aggregate
    // step functions: Ir +0.3% on the training's own workload).
    // InstrProfRecord::scale weights counters and value data alike.
    if (Input.Weight > 1)
      Record.scale(Input.Weight, 1, [&](instrprof_error Code) {
        Warnings.add(make_error<InstrProfError>(Code), Name);
      });
    Writer.addRecord(std::move(Record), /*Weight=*/1,
                     [&](Error E) { Warnings.add(std::move(E), Name); });
  }
  if (Reader.hasError())
    if (Error E = Reader.getError())
      return inputError(Input.Path,
                        "corrupt profile: " + toString(std::move(E)));
  if (ReaderWarning)
    return inputError(Input.Path, "corrupt profile: " + *ReaderWarning);
  // The traces keep their weights: see the file comment of ProfileMerge.h.
  if (Reader.hasTemporalProfile()) {
    SmallVector<TemporalProfTraceTy> &Traces = Reader.getTemporalProfTraces();
    if (!Traces.empty())
      Writer.addTemporalProfileTraces(Traces,
                                      Reader.getTemporalProfTraceStreamSize());
  }
  std::vector<object::BuildID> BinaryIds;
  if (Error E = Reader.readBinaryIds(BinaryIds))
    return inputError(Input.Path, "corrupt profile: " + toString(std::move(E)));
  Writer.addBinaryIds(BinaryIds);
  Warnings.appendTo(Input.Path, Result.Warnings);
  return Error::success();
}

/// addInput, with a fault or an abort of LLVM's readers on a corrupt input
/// turned into an error (when the tool enabled CrashRecoveryContext).
static Error addInputGuarded(const WeightedProfileInput &Input,
                             InstrProfWriter &Writer, MergeLevel &Level,
                             MergedProfile &Result) {
  std::optional<Error> E;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely(
          [&] { E.emplace(addInput(Input, Writer, Level, Result)); })) {
    if (E)
      consumeError(std::move(*E));
    return inputError(Input.Path, "corrupt profile: LLVM's profile reader "
                                  "failed on its contents");
  }
  return std::move(*E);
}

Expected<MergedProfile>
kiln::mergeInstrProfiles(ArrayRef<WeightedProfileInput> Inputs, bool Sparse) {
  InstrProfWriter Writer(Sparse, TemporalTraceReservoirSize,
                         MaxTemporalTraceLength);
  MergedProfile Result;
  MergeLevel Level;
  for (const WeightedProfileInput &Input : Inputs)
    if (Error E = addInputGuarded(Input, Writer, Level, Result))
      return std::move(E);
  // What the writer writes: with Sparse, not the records of no count.
  for (const auto &Function : Writer.getProfileData())
    for (const auto &Record : Function.getValue())
      Result.Functions += !Sparse || any_of(Record.second.Counts,
                                            [](uint64_t C) { return C != 0; });
  InstrProfKind Kind = Writer.getProfileKind();
  Result.IsIRLevel = static_cast<bool>(Kind & InstrProfKind::IRInstrumentation);
  Result.IsContextSensitive =
      static_cast<bool>(Kind & InstrProfKind::ContextSensitive);
  Result.Indexed = Writer.writeBuffer();
  // The writer does not say how many traces its reservoir kept; the
  // profile it wrote does.
  if (static_cast<bool>(Kind & InstrProfKind::TemporalProfile)) {
    Expected<std::unique_ptr<InstrProfReader>> Written =
        InstrProfReader::create(
            MemoryBuffer::getMemBuffer(Result.Indexed->getMemBufferRef(),
                                       /*RequiresNullTerminator=*/false));
    if (!Written)
      return Written.takeError();
    Result.TemporalTraces = (*Written)->getTemporalProfTraces().size();
  }
  return Result;
}

Expected<MergedProfile>
kiln::mergeInstrProfilesToFile(ArrayRef<WeightedProfileInput> Inputs,
                               StringRef Output, bool Sparse) {
  Expected<MergedProfile> Merged = mergeInstrProfiles(Inputs, Sparse);
  if (!Merged)
    return Merged.takeError();
  if (Error E = writeOutputFile(
          Output, [&](raw_ostream &OS) { OS << Merged->Indexed->getBuffer(); }))
    return std::move(E);
  Merged->Indexed.reset();
  return Merged;
}

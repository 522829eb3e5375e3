//===- BlockProfileCommand.cpp - kiln block-profile -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/BlockProfileCommand.h"

#include "kiln/Layout/Counts.h"
#include "kiln/Sources/BlockAddressMap.h"
#include "kiln/Sources/BlockProfileText.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;

namespace kiln {

static constexpr StringLiteral SpecSyntax =
    "<kind>[:<name>]=<file>[,<file>...][:<weight>]";

static Error specError(StringRef Spec, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           "scenario '" + Spec + "': " + Message + " (" +
                               SpecSyntax + ")");
}

Expected<BlockScenarioSpec> parseBlockScenarioSpec(StringRef Spec) {
  auto [Head, Rest] = Spec.split('=');
  auto [KindName, Name] = Head.split(':');
  BlockScenarioSpec Result;
  if (KindName == "startup")
    Result.Kind = layout::ScenarioKind::Startup;
  else if (KindName == "steady")
    Result.Kind = layout::ScenarioKind::SteadyState;
  else
    return specError(Spec, "the kind must be 'startup' or 'steady'");
  if (Head.contains(':')) {
    if (Error E = checkScenarioName(Name))
      return specError(Spec, toString(std::move(E)));
    Result.Name = Name.str();
  } else {
    Result.Name = KindName.str();
  }
  // A trailing ":<number>" is the weight; other colons belong to the path.
  auto [Paths, WeightText] = Rest.rsplit(':');
  double Weight = 0;
  if (Rest.contains(':') && !WeightText.getAsDouble(Weight)) {
    if (!layout::isValidScenarioWeight(Weight)) {
      std::string Range;
      raw_string_ostream(Range) << format("%g to %g", layout::MinScenarioWeight,
                                          layout::MaxScenarioWeight);
      return specError(Spec, "the weight must be from " + Range);
    }
    Result.Weight = Weight;
    Rest = Paths;
  }
  SmallVector<StringRef, 4> Files;
  Rest.split(Files, ',');
  for (StringRef File : Files) {
    if (File.empty())
      return specError(Spec, "no profile");
    Result.Files.push_back(File.str());
  }
  return Result;
}

static std::string percent(uint64_t Part, uint64_t Whole) {
  return formatv("{0:f1}%", Whole ? 100.0 * double(Part) / double(Whole) : 0.0)
      .str();
}

/// Reads one profile file of a scenario into \p Counts; warns of what did
/// not map.
static Error readProfileFile(StringRef Path, const BlockProfileOptions &Opts,
                             const BlockAddressMap &Map, BlockCounts &Counts,
                             BlockReadStats &Total, raw_ostream &Err) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/true);
  if (!Buffer)
    return makeToolError(Buffer.getError().message(), Path);
  MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
  BlockProfileFormat Format = Opts.Format;
  if (Format == BlockProfileFormat::Auto) {
    Expected<BlockProfileFormat> Detected = detectBlockProfileFormat(Ref);
    if (!Detected)
      return makeToolError(toString(Detected.takeError()));
    Format = *Detected;
  }
  BlockReadStats Stats;
  Error E = Error::success();
  switch (Format) {
  case BlockProfileFormat::Callgrind:
    E = readCallgrindProfile(Ref, Opts.Binary, Map, Counts, Stats);
    break;
  case BlockProfileFormat::Fdata:
    E = readFdataProfile(Ref, Map, Counts, Stats);
    break;
  case BlockProfileFormat::Perf:
  case BlockProfileFormat::Auto:
    E = readPerfBranchProfile(Ref, Map, Counts, Stats);
    break;
  }
  if (E)
    return makeToolError(toString(std::move(E)));
  StringRef Noun =
      Format == BlockProfileFormat::Callgrind ? "records" : "branch records";
  if (Stats.Mapped == 0 && Opts.AcceptUnmappedFiles) {
    Total.add(Stats);
    return Error::success();
  }
  if (Stats.Mapped == 0)
    return makeToolError("none of its " + Twine(Stats.Records) + " " + Noun +
                             " maps to a block of " + Opts.Binary +
                             " (a profile of another program or build?)",
                         Path);
  if (Stats.Outside)
    WithColor::warning(Err, "kiln")
        << Path << ": " << Stats.Outside << " of " << Stats.Records << " "
        << Noun << " (" << percent(Stats.Outside, Stats.Records)
        << ") fall outside the address map of " << Opts.Binary << '\n';
  if (Stats.NotAtBlockStart)
    WithColor::warning(Err, "kiln")
        << Path << ": " << Stats.NotAtBlockStart << " of " << Stats.Records
        << " " << Noun << " (" << percent(Stats.NotAtBlockStart, Stats.Records)
        << ") branch into the middle of a block (a profile of another build "
           "of "
        << Opts.Binary << "?)\n";
  Total.add(Stats);
  return Error::success();
}

static void printSummary(const BlockScenarioSpec &Spec,
                         const BlockAddressMap &Map, const BlockCounts &Counts,
                         const BlockReadStats &Stats, raw_ostream &OS) {
  uint64_t Functions = 0, Blocks = 0, AllBlocks = 0;
  for (auto [FI, F] : enumerate(Map.getFunctions())) {
    bool Ran = false;
    for (size_t BI = 0; BI < F.Blocks.size(); ++BI) {
      ++AllBlocks;
      if (Counts.getBlockCount({uint32_t(FI), uint32_t(BI)})) {
        ++Blocks;
        Ran = true;
      }
    }
    Functions += Ran;
  }
  OS << "kiln block-profile: scenario '" << Spec.Name << "' ("
     << (Spec.Kind == layout::ScenarioKind::Startup ? "startup" : "steady")
     << ", weight " << format("%g", Spec.Weight) << "): " << Spec.Files.size()
     << " file(s), " << Functions << " of " << Map.getFunctions().size()
     << " function(s) and " << Blocks << " of " << AllBlocks
     << " block(s) executed, " << Counts.getEdges().size() << " edge(s), "
     << Counts.getCalls().size() << " call(s), "
     << percent(Stats.Mapped, Stats.Records) << " of " << Stats.Records
     << " records mapped";
  if (Stats.UnmappedCode)
    OS << " (" << percent(Stats.UnmappedCode, Stats.Records)
       << " in code without an address map)";
  OS << '\n';
}

Error runBlockProfile(const BlockProfileOptions &Opts, raw_ostream &Out,
                      raw_ostream &Err) {
  if (Opts.Binary.empty())
    return makeToolError("no binary", "--binary",
                         "give the address-mapped binary that was profiled");
  if (Opts.Scenarios.empty())
    return makeToolError("no profile", "--scenario",
                         "give --scenario=" + SpecSyntax);
  std::vector<BlockScenarioSpec> Specs;
  StringSet<> Names;
  for (const std::string &Text : Opts.Scenarios) {
    Expected<BlockScenarioSpec> Spec = parseBlockScenarioSpec(Text);
    if (!Spec)
      return makeToolError(toString(Spec.takeError()), "--scenario");
    if (!Names.insert(Spec->Name).second)
      return makeToolError("scenario '" + Spec->Name +
                               "' is given twice; name them with "
                               "<kind>:<name>=",
                           "--scenario");
    Specs.push_back(std::move(*Spec));
  }
  std::vector<NamedFile> Inputs{{Opts.Binary, "--binary"}};
  for (const BlockScenarioSpec &S : Specs)
    for (const std::string &File : S.Files)
      Inputs.push_back({File, "profile"});
  if (Error E = checkOutputPaths({{Opts.Output, "-o"}}, Inputs))
    return makeToolError(toString(std::move(E)));

  Expected<BlockAddressMap> Map = BlockAddressMap::read(Opts.Binary);
  if (!Map)
    return makeToolError(toString(Map.takeError()));
  if (Map->getNumUnnamedFunctions())
    WithColor::warning(Err, "kiln")
        << Opts.Binary << ": " << Map->getNumUnnamedFunctions()
        << " function(s) of the address map have no symbol at their entry; "
           "left out\n";
  if (Map->getNumDuplicateNames())
    WithColor::warning(Err, "kiln")
        << Opts.Binary << ": " << Map->getNumDuplicateNames()
        << " function(s) have the name of another (statics of the same "
           "name); only the first of each name is kept\n";

  std::vector<layout::BlockScenario> Scenarios;
  std::vector<BlockCounts> Counts;
  std::vector<BlockReadStats> Stats;
  for (const BlockScenarioSpec &S : Specs) {
    Counts.emplace_back(*Map);
    Stats.emplace_back();
    for (const std::string &File : S.Files)
      if (Error E = readProfileFile(File, Opts, *Map, Counts.back(),
                                    Stats.back(), Err))
        return E;
    Scenarios.push_back({S.Name, S.Kind, S.Weight});
  }
  if (none_of(Stats, [](const BlockReadStats &S) { return S.Mapped > 0; }))
    return makeToolError("none of the profiles' records maps to a block of " +
                         Opts.Binary +
                         " (profiles of another program or "
                         "build?)");
  layout::BlockProfile Profile = buildBlockProfile(*Map, Scenarios, Counts);
  if (Error E = verifyBlockProfile(Profile))
    return makeToolError("the block profile is inconsistent: " +
                         toString(std::move(E)));
  if (Error E = writeOutputFile(Opts.Output, [&](raw_ostream &OS) {
        writeBlockProfile(Profile, OS);
      }))
    return makeToolError(toString(std::move(E)));
  raw_ostream &Summary = Opts.Output == "-" ? Err : Out;
  for (size_t I = 0; I < Specs.size(); ++I)
    printSummary(Specs[I], *Map, Counts[I], Stats[I], Summary);
  return Error::success();
}

} // namespace kiln

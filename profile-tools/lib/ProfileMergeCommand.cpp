//===- ProfileMergeCommand.cpp - kiln profile merge and scale -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProfileMergeCommand.h"

#include "kiln/Layout/Counts.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/ProfileMerge.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/WithColor.h"

using namespace llvm;
using namespace kiln;

static const char *const SpecSyntax =
    "<name>=<profile>[,<profile>...][:<weight>]";

Expected<MergeScenario> kiln::parseMergeScenario(StringRef Spec) {
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), "scenario '" + Spec +
                                                           "': " + Why + " (" +
                                                           SpecSyntax + ")");
  };
  auto [Name, Rest] = Spec.split('=');
  MergeScenario Result;
  if (Name.size() == Spec.size())
    return Fail("no '=' after the scenario's name");
  if (Error E = checkScenarioName(Name)) {
    consumeError(std::move(E));
    return Fail("'" + Name +
                "' is not a scenario name (letters, digits, '-', '_' and '.', "
                "not starting with '.')");
  }
  Result.Name = Name.str();
  // A trailing ":<digits>" is the weight; other colons belong to the path.
  auto [Paths, WeightText] = Rest.rsplit(':');
  if (Paths.size() != Rest.size() && !WeightText.empty() &&
      all_of(WeightText, isDigit)) {
    if (WeightText.getAsInteger(10, Result.Weight) || Result.Weight == 0 ||
        double(Result.Weight) > layout::MaxScenarioWeight)
      return Fail("the weight must be a whole number from 1 to " +
                  Twine(uint64_t(layout::MaxScenarioWeight)));
    Rest = Paths;
  }
  SmallVector<StringRef, 4> Profiles;
  Rest.split(Profiles, ',');
  for (StringRef P : Profiles) {
    if (P.empty())
      return Fail("no profile");
    Result.Profiles.push_back(P.str());
  }
  return Result;
}

Expected<uint64_t> kiln::parseCountOption(StringRef Option, StringRef Value) {
  uint64_t N;
  if (Value.empty() || !all_of(Value, isDigit) || Value.getAsInteger(10, N) ||
      N == 0)
    return makeToolError("'" + Value + "' is not a whole number of at least 1",
                         Option);
  return N;
}

static void printWarnings(const MergedProfile &M, raw_ostream &Err) {
  for (const std::string &W : M.Warnings)
    WithColor::warning(Err, "kiln") << W << '\n';
}

static void printKind(const MergedProfile &M, raw_ostream &Out) {
  Out << M.Functions << " function(s), " << (M.IsIRLevel ? "IR" : "front-end")
      << (M.IsContextSensitive ? ", context-sensitive" : "");
  if (M.TemporalTraces)
    Out << ", " << M.TemporalTraces << " temporal trace(s)";
}

Error kiln::runProfileMerge(const ProfileMergeOptions &Opts, raw_ostream &Out,
                            raw_ostream &Err) {
  if (Opts.Scenarios.empty())
    return makeToolError("no scenario to merge", "",
                         "add --scenario=" + Twine(SpecSyntax));
  if (Opts.OutputDir.empty() || Opts.OutputDir == "-")
    return makeToolError("the output directory is missing", "-o",
                         "give -o <directory>: the scenarios' profiles and "
                         "compile.profdata are written there");
  Expected<uint64_t> Scale = parseCountOption("--scale", Opts.Scale);
  if (!Scale)
    return Scale.takeError();
  std::vector<MergeScenario> Scenarios;
  StringSet<> Names;
  std::vector<NamedFile> Inputs, Outputs;
  for (const std::string &Spec : Opts.Scenarios) {
    Expected<MergeScenario> S = parseMergeScenario(Spec);
    if (!S)
      return makeToolError(toString(S.takeError()), "--scenario");
    if (!Names.insert(S->Name).second)
      return makeToolError("scenario '" + S->Name + "' is given twice",
                           "--scenario",
                           "list all of its profiles in one --scenario=");
    for (const std::string &P : S->Profiles)
      Inputs.push_back({P, "profile of scenario '" + S->Name + "'"});
    Outputs.push_back({Opts.OutputDir + "/scenario-" + S->Name + ".profdata",
                       "the profile of scenario '" + S->Name + "'"});
    Scenarios.push_back(std::move(*S));
  }
  Outputs.push_back(
      {Opts.OutputDir + "/compile.profdata", "the compile profile"});
  if (Error E = checkOutputPaths(Outputs, Inputs))
    return makeToolError(toString(std::move(E)));

  // Everything is merged in memory first: a scenario that does not merge
  // leaves the output directory as it was.
  std::vector<MergedProfile> Merged;
  for (const MergeScenario &S : Scenarios) {
    std::vector<WeightedProfileInput> In;
    for (const std::string &P : S.Profiles)
      In.push_back({P, nullptr, 1});
    Expected<MergedProfile> M = mergeInstrProfiles(In);
    if (!M)
      return makeToolError(toString(M.takeError()), "",
                           "while merging scenario '" + S.Name + "'");
    Merged.push_back(std::move(*M));
  }
  std::vector<WeightedProfileInput> CompileInputs;
  for (size_t I = 0; I < Scenarios.size(); ++I)
    CompileInputs.push_back({Outputs[I].Path, Merged[I].Indexed.get(),
                             multiplySaturating(Scenarios[I].Weight, *Scale)});
  Expected<MergedProfile> Compile = mergeInstrProfiles(CompileInputs);
  if (!Compile)
    return makeToolError(toString(Compile.takeError()), "",
                         "the scenarios' profiles are of kinds that cannot "
                         "make one compile profile");

  if (std::error_code EC = sys::fs::create_directories(Opts.OutputDir))
    return makeToolError("cannot create the directory: " + EC.message(),
                         Opts.OutputDir);
  for (size_t I = 0; I < Scenarios.size(); ++I)
    if (Error E = writeOutputFile(Outputs[I].Path, [&](raw_ostream &OS) {
          OS << Merged[I].Indexed->getBuffer();
        }))
      return makeToolError(toString(std::move(E)));
  if (Error E = writeOutputFile(Outputs.back().Path, [&](raw_ostream &OS) {
        OS << Compile->Indexed->getBuffer();
      }))
    return makeToolError(toString(std::move(E)));

  std::string OrderWith;
  for (size_t I = 0; I < Scenarios.size(); ++I) {
    const MergeScenario &S = Scenarios[I];
    const MergedProfile &M = Merged[I];
    printWarnings(M, Err);
    bool Startup = isStartupScenario(S.Name);
    Out << "kiln profile merge: scenario '" << S.Name << "' ("
        << (Startup ? "startup" : "steady") << ", weight " << S.Weight
        << "): " << S.Profiles.size() << " profile(s)";
    if (M.EmptyRawInputs)
      Out << " (" << M.EmptyRawInputs << " empty)";
    Out << ", ";
    printKind(M, Out);
    Out << ": " << Outputs[I].Path << '\n';
    OrderWith += (OrderWith.empty() ? "" : " ") + std::string("--scenario=") +
                 (Startup ? "startup=" : "steady=") + Outputs[I].Path +
                 (S.Weight > 1 ? ":" + std::to_string(S.Weight) : "");
  }
  printWarnings(*Compile, Err);
  Out << "kiln profile merge: compile profile: " << Scenarios.size()
      << " scenario(s), counts x" << *Scale << " times each weight, ";
  printKind(*Compile, Out);
  Out << ": " << Outputs.back().Path << '\n';
  Out << "kiln profile merge: order with " << OrderWith << '\n';
  return Error::success();
}

Error kiln::runProfileScale(const ProfileScaleOptions &Opts, raw_ostream &Out,
                            raw_ostream &Err) {
  if (Opts.Inputs.size() != 1)
    return makeToolError(Opts.Inputs.empty() ? "no input profile"
                                             : "more than one input profile",
                         "kiln profile scale",
                         "kiln profile scale --factor=<n> <profile> -o "
                         "<output>; merge several with kiln profile merge");
  if (Opts.Factor.empty())
    return makeToolError("the factor is missing", "--factor",
                         "give --factor=<n>, e.g. --factor=64 for function "
                         "splitting");
  Expected<uint64_t> Factor = parseCountOption("--factor", Opts.Factor);
  if (!Factor)
    return Factor.takeError();
  if (Opts.Output.empty() || Opts.Output == "-")
    return makeToolError("the output profile is missing", "-o",
                         "give -o <output>.profdata");
  if (Error E =
          checkOutputPaths({{Opts.Output, "-o"}}, {{Opts.Inputs[0], "input"}}))
    return makeToolError(toString(std::move(E)));
  Expected<MergedProfile> M = mergeInstrProfilesToFile(
      {{Opts.Inputs[0], nullptr, *Factor}}, Opts.Output);
  if (!M)
    return makeToolError(toString(M.takeError()));
  printWarnings(*M, Err);
  Out << "kiln profile scale: " << Opts.Inputs[0] << ": counts x" << *Factor
      << ", ";
  printKind(*M, Out);
  Out << ": " << Opts.Output << '\n';
  return Error::success();
}

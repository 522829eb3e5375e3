//===- PgoBlockLayout.cpp - Block layout in kiln pgo optimize -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln pgo optimize --block-layout=bolt|callgrind`: after the final links,
/// each profiled program is linked again from its recorded link with the
/// basic-block address map into the workspace (or, for callgrind where the
/// final link already carried the map, copied there without its debug
/// info), the training runs are replayed on that binary (under BOLT's
/// instrumentation or callgrind), the block profile is read from their
/// profiles with `kiln block-profile`'s code, and the program is relinked
/// by kiln-lld with `--kiln-block-profile=` in place of the function-level
/// order. A training run whose command started none of the build's
/// programs itself (a script) is replayed as it ran, with a stand-in at the
/// program's paths that runs the profiled binary under the profiler
/// (kiln/Tools/ProgramStandIn.h). The program's output is replaced only once
/// the relink succeeded: any failure leaves the function-level program, with
/// one warning saying why.
///
/// A shared library the build linked is laid out the same way, after the
/// programs: the training runs whose programs load it (directly or through
/// another of the build's libraries) are replayed on those programs, as
/// linked now, with its address-mapped link first on LD_LIBRARY_PATH under
/// the name they load it by. Every replay finds the build's libraries
/// without their debug information there, which valgrind cannot always
/// read (LLVM 22's DWARF 5). The replays themselves are PgoReplay.cpp's.
///
//===----------------------------------------------------------------------===//

#include "PgoReplay.h"
#include "PgoSteps.h"

#include "kiln/Tools/BlockProfileCommand.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/SharedLibraries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

/// Why one program keeps its function-level layout.
static Error skipped(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// \returns the seconds the training runs that block layout replays took
/// when they were recorded.
static double trainingSeconds(const PgoManifest &M) {
  double Seconds = 0;
  for (const std::string &S : M.usableScenarios())
    for (const PgoRun *R : M.usedRuns(S))
      Seconds += R->Seconds;
  return Seconds;
}

/// \returns the profiler of \p Opts' source; for the default (no
/// `--block-layout=` given), BOLT's where valgrind is missing or where the
/// training runs of \p M would take longer than the callgrind budget to
/// replay under it, with a note on \p Out.
static Expected<BlockProfiler> findProfiler(const PgoTransforms &Opts,
                                            const PgoManifest &M,
                                            const PgoEnvironment &Env,
                                            raw_ostream &Out) {
  BlockProfiler P;
  P.Source = Opts.BlockLayout;
  std::string Bolt = Env.LLVMBinDir + "/llvm-bolt";
  bool HasBolt = sys::fs::can_execute(Bolt);
  if (P.Source == PgoBlockLayoutSource::Bolt) {
    P.Tool = Bolt;
    if (!HasBolt)
      return skipped("llvm-bolt is not in " + Env.LLVMBinDir +
                     " (install LLVM 22's BOLT, Debian's bolt-22; or "
                     "--block-layout=callgrind, or --block-layout=off)");
    return P;
  }
  auto UseBolt = [&](const Twine &Why) {
    Out << "kiln: optimize: note: " << Why
        << ": block layout from BOLT's instrumentation instead\n";
    P.Source = PgoBlockLayoutSource::Bolt;
    P.Tool = Bolt;
    return P;
  };
  ErrorOr<std::string> Valgrind = sys::findProgramByName("valgrind");
  if (!Valgrind) {
    if (!Opts.BlockLayoutChosen && HasBolt)
      return UseBolt("valgrind is not on PATH (install valgrind for "
                     "callgrind's trace, which also sees inside the functions "
                     "BOLT cannot rewrite)");
    return skipped("valgrind is not on PATH (install valgrind, or "
                   "--block-layout=bolt)");
  }
  P.Tool = *Valgrind;
  // A replay under callgrind costs about fifty times the run: long
  // training runs would make the optimize phase take hours, where BOLT's
  // instrumentation replays them at about their native speed.
  double Training = trainingSeconds(M);
  double Estimate = Training * PgoCallgrindSlowdown;
  if (Opts.BlockLayoutChosen || !HasBolt ||
      Estimate <= Opts.CallgrindBudgetSeconds)
    return P;
  std::string Why;
  raw_string_ostream OS(Why);
  OS << "the training runs took " << format("%.2f", Training)
     << " s; under callgrind their replays would take about ";
  if (Estimate < 120)
    OS << static_cast<uint64_t>(std::ceil(Estimate)) << " s";
  else
    OS << static_cast<uint64_t>(std::ceil(Estimate / 60)) << " min";
  OS << ", over --callgrind-budget=" << Opts.CallgrindBudgetSeconds
     << " s (--block-layout=callgrind replays them all the same)";
  return UseBolt(Why);
}

bool blockLayoutProfilesWithCallgrind(const PgoTransforms &Opts,
                                      const PgoManifest &M,
                                      const PgoEnvironment &Env) {
  // The same choice blockLayoutRelink makes, without its note.
  raw_null_ostream Quiet;
  Expected<BlockProfiler> P = findProfiler(Opts, M, Env, Quiet);
  if (!P) {
    consumeError(P.takeError());
    return false;
  }
  return P->Source == PgoBlockLayoutSource::Callgrind;
}

bool hasBlockProfiler(const PgoTransforms &Opts, const PgoEnvironment &Env) {
  bool HasBolt = sys::fs::can_execute(Env.LLVMBinDir + "/llvm-bolt");
  if (Opts.BlockLayout == PgoBlockLayoutSource::Bolt)
    return HasBolt;
  if (sys::findProgramByName("valgrind"))
    return true;
  return !Opts.BlockLayoutChosen && HasBolt;
}

/// \returns \p Args with the output (`-o <file>`, `-o<file>`) \p Output.
static std::vector<std::string> withOutput(ArrayRef<std::string> Args,
                                           StringRef Output) {
  std::vector<std::string> Result;
  bool Replaced = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "-o" && I + 1 < Args.size()) {
      Result.insert(Result.end(), {"-o", Output.str()});
      Replaced = true;
      ++I;
      continue;
    }
    if (A.starts_with("-o") && A.size() > 2) {
      Result.push_back(("-o" + Output).str());
      Replaced = true;
      continue;
    }
    Result.push_back(A.str());
  }
  // The compiler's a.out.
  if (!Replaced)
    Result.insert(Result.end(), {"-o", Output.str()});
  return Result;
}

/// Links \p L again with \p Flags into \p Output, its output in \p Log;
/// the link's result goes into \p Result if given.
static Error linkInto(const RecordedLink &L, const PgoPhaseFlags &Flags,
                      const PgoWrapperConfig &Final, StringRef Output,
                      StringRef Log, StringRef What,
                      ProcessResult *Result = nullptr) {
  RecordedLink Into = L;
  Into.Args = withOutput(L.Args, Output);
  ProcessSetup Setup;
  Setup.Cwd = L.Cwd;
  Setup.Stdout = Setup.Stderr = Log.str();
  Expected<ProcessResult> P =
      runProcess(composeRelinkCommand(Into, Flags, Final), {},
                 "optimize: block layout", Setup);
  if (!P)
    return skipped(toString(P.takeError()));
  if (P->ExitStatus != 0)
    return skipped(What + " exited with status " + Twine(P->ExitStatus) +
                   " (its output is in " + Log + ")");
  if (Result)
    *Result = *P;
  return Error::success();
}

/// Why \p L gets no block layout when no training run ran its program.
static Error noTrainingRanIt(const RecordedLink &L, bool IsLibrary) {
  // A training run starts a program; a library runs inside one.
  if (IsLibrary)
    return skipped("a shared library that no training run's program loads; "
                   "a replay runs one of the build's own programs, or a "
                   "libtool wrapper of one, or a script that starts one");
  return skipped("no training run started it, itself or from its command "
                 "(a script)");
}

/// The address-mapped link of \p L with \p Flags, its profiler, the
/// replays and the block profile. \p Links are the build's profiled
/// programs and libraries, \p Libraries its shared libraries, \p Library
/// the one \p L links (null for a program).
/// \returns the number of runs replayed; with \p Instructions, callgrind's
/// Ir of every replay, summed, in all and in the profiled binary's code.
static Expected<unsigned>
writeBlockProfile(const RecordedLink &L, const PgoManifest &M,
                  const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
                  ArrayRef<RecordedLink> Links, ArrayRef<ProgramCopy> Copies,
                  const PgoPhaseFlags &Flags, const PgoWrapperConfig &Final,
                  const PgoEnvironment &Env, ArrayRef<BuildLibrary> Libraries,
                  const BuildLibrary *Library, bool ProgramIsMapped,
                  raw_ostream &Out,
                  ReplayInstructions *Instructions = nullptr) {
  bool Bolt = Profiler.Source == PgoBlockLayoutSource::Bolt;
  // The runs to replay, per scenario; decided before any link, which a
  // program no run started does not need. A run that started none of the
  // build's programs itself (a script) may have started this one: its
  // command is replayed with stand-ins at the program's paths.
  std::vector<std::pair<std::string,
                        std::vector<std::pair<const PgoRun *, ProgramLaunch>>>>
      Replayable;
  std::vector<std::string> Loaders;
  if (Library)
    Loaders = programsLoading(*Library, Libraries, Links);
  for (const std::string &S : M.usableScenarios()) {
    Replayable.push_back({S, {}});
    for (const PgoRun *R : M.usedRuns(S)) {
      std::optional<ProgramLaunch> Launch =
          Library ? runLoadsLibrary(*R, *Library, Libraries)
                  : runsProgram(*R, L, Copies);
      if (!Launch)
        Launch = Library ? commandMayLoadLibrary(*R, Loaders, Links, Copies)
                         : commandMayStartProgram(*R, L, Links, Copies);
      if (Launch)
        Replayable.back().second.emplace_back(R, std::move(*Launch));
    }
  }
  if (none_of(Replayable, [](const auto &S) { return !S.second.empty(); }))
    return noTrainingRanIt(L, Library);
  if (Files.Dir.find(',') != std::string::npos)
    return skipped("the workspace's path holds a comma, which kiln "
                   "block-profile's scenario lists cannot name");
  if (ProgramIsMapped && !Bolt) {
    // The final link carried the map and the map changes no code: the
    // program without its debug info is the binary to profile, one ThinLTO
    // link fewer.
    if (Error E = copyWithoutDebugInfo(L.Target, Files.Mapped, Env))
      return E;
  } else if (Error E = linkInto(
                 L,
                 withBlockAddressMap(Flags, Bolt ? AddressMapUse::Bolt
                                                 : AddressMapUse::Callgrind),
                 Final, Files.Mapped, Files.Dir + "/mapped-link.log",
                 "the address-mapped link")) {
    return std::move(E);
  }
  if (Bolt) {
    if (std::error_code EC = sys::fs::create_directories(
            sys::path::parent_path(Files.FdataStem)))
      return skipped(Files.FdataStem +
                     ": cannot create the directory: " + EC.message());
    if (Error E = runTool({Profiler.Tool, Files.Mapped, "-instrument", "-o",
                           Files.Instrumented,
                           "--instrumentation-file=" + Files.FdataStem,
                           "--instrumentation-file-append-pid"},
                          "optimize: block layout", Files.Mapped))
      return skipped(toString(std::move(E)));
  }

  // The build's libraries without debug information, for every replay (a
  // program replayed from the workspace finds no library by a RUNPATH
  // relative to itself): a library's own directory holds its
  // address-mapped link already.
  if (!Libraries.empty()) {
    std::string LibraryDir = Library
                                 ? sys::path::parent_path(Files.Mapped).str()
                                 : Files.BuildLibraries;
    if (Error E = copyBuildLibraries(Libraries, LibraryDir,
                                     Library ? Library->Path : "", Env))
      return std::move(E);
    for (auto &[S, Runs] : Replayable)
      for (auto &[R, Launch] : Runs)
        Launch.LibraryDir = LibraryDir;
  }
  // A library's replays run its programs, each as a copy without debug
  // information (a stand-in runs the copy of the program it stands for).
  if (Library) {
    StringMap<std::string> ProgramCopies;
    auto CopyOf = [&](StringRef Program) -> Expected<std::string> {
      auto [It, New] = ProgramCopies.try_emplace(Program);
      if (New) {
        std::string Dir =
            Files.Dir + "/programs/" + std::to_string(ProgramCopies.size());
        if (std::error_code EC = sys::fs::create_directories(Dir))
          return skipped(Dir +
                         ": cannot create the directory: " + EC.message());
        It->second = Dir + "/" + sys::path::filename(Program).str();
        if (Error E = copyWithoutDebugInfo(Program, It->second, Env))
          return std::move(E);
      }
      return It->second;
    };
    for (auto &[S, Runs] : Replayable)
      for (auto &[R, Launch] : Runs) {
        for (StandIn &SI : Launch.StandIns) {
          Expected<std::string> Copy = CopyOf(SI.Path);
          if (!Copy)
            return Copy.takeError();
          SI.Executable = *Copy;
        }
        if (Launch.StandIns.empty()) {
          Expected<std::string> Copy = CopyOf(Launch.Program);
          if (!Copy)
            return Copy.takeError();
          Launch.Executable = *Copy;
        }
      }
  }

  BlockProfileOptions Opts;
  Opts.Binary = Files.Mapped;
  Opts.Format =
      Bolt ? BlockProfileFormat::Fdata : BlockProfileFormat::Callgrind;
  Opts.Output = Files.Profile;
  Opts.AcceptUnmappedFiles = Library != nullptr;
  unsigned Replays = 0;
  // A libtool wrapper's library directories, and their copies for callgrind.
  StringMap<std::string> LibraryCopies;
  for (auto &[S, Runs] : Replayable) {
    std::vector<std::string> Profiles;
    for (auto &[R, Launch] : Runs) {
      if (!Bolt && !Launch.LibraryPath.empty()) {
        auto [It, New] = LibraryCopies.try_emplace(Launch.LibraryPath);
        if (New) {
          Expected<std::string> Stripped = librariesWithoutDebugInfo(
              Launch.LibraryPath,
              (Files.Dir + "/libraries/" + Twine(LibraryCopies.size() - 1))
                  .str(),
              Env);
          if (!Stripped)
            return Stripped.takeError();
          It->second = *Stripped;
        }
        Launch.LibraryPath = It->second;
      }
      Expected<std::vector<std::string>> Written =
          replayRun(*R, Launch, Profiler, Files, Out);
      if (!Written)
        return Written.takeError();
      ++Replays;
      if (Instructions && !Bolt)
        for (const std::string &Trace : *Written)
          if (Error E =
                  addCallgrindInstructions(Trace, Files.Mapped, *Instructions))
            return E;
      append_range(Profiles, *Written);
    }
    if (Profiles.empty())
      continue;
    // Every scenario weighs 1, as in the function-level profiles; the
    // explicit weight keeps a path's colon from reading as one.
    Opts.Scenarios.push_back((isStartupScenario(S) ? "startup:" : "steady:") +
                             S + "=" + join(Profiles, ",") + ":1");
  }
  if (Opts.Scenarios.empty())
    return noTrainingRanIt(L, Library);
  // The reader's warnings about records it could not map go to the log:
  // the flow profiled this very binary, so they do not ask the user to act
  // (a program's statics that share a name, for instance).
  std::string Summary, Warnings;
  raw_string_ostream SummaryOS(Summary), WarningsOS(Warnings);
  Error E = runBlockProfile(Opts, SummaryOS, WarningsOS);
  std::string Log = Files.Dir + "/block-profile.log";
  if (Error WriteE = writeFileAtomically(Log, Warnings + Summary))
    return skipped(toString(std::move(WriteE)));
  if (E)
    return skipped(toString(std::move(E)));
  Out << Summary;
  if (!Warnings.empty())
    Out << "kiln: optimize: what the block profile's reader could not map is "
           "in "
        << Log << '\n';
  return Replays;
}

/// Profiles \p L with the \p Alternative compile policy's flags as well,
/// in \p Files.Dir's `alternative` directory, and \returns the flags and
/// block profile to relink it with: the alternative's where its replays
/// executed at least PgoPolicyMinSaving fewer instructions than the
/// default's \p Result.DefaultInstructions. A failure to measure keeps the
/// default, with a warning.
static std::pair<const PgoPhaseFlags *, std::string>
choosePolicy(const RecordedLink &L, const PgoManifest &M,
             const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
             ArrayRef<RecordedLink> Links, ArrayRef<ProgramCopy> Copies,
             const PgoWrapperConfig &Final, const PgoPhaseFlags &Alternative,
             const Workspace &WS, const PgoEnvironment &Env,
             ArrayRef<BuildLibrary> Libraries, const BuildLibrary *Library,
             PgoBlockLayout &Result, raw_ostream &Out, raw_ostream &Err) {
  Result.Policy = "default";
  // The other policy changes this binary's code only: where that code ran
  // fewer instructions than the other would have to save, the other cannot
  // be chosen, and its replays would be time spent for nothing (a program
  // whose work is all in a library of the build, a library that its
  // programs hardly call).
  if (alternativePolicyCannotPay(Result.DefaultInstructions,
                                 Result.BinaryInstructions)) {
    Out << "kiln: optimize: " << WS.display(L.Target)
        << ": the other compile policy is not measured: its code executed "
        << Result.BinaryInstructions << " of the replays' "
        << Result.DefaultInstructions
        << " instructions, fewer than the other would have to save\n";
    return {&Final.Flags, Files.Profile};
  }
  // The same file name as the default's mapped binary (a library's load
  // name).
  BlockLayoutFiles Other(Files.Dir + "/alternative", Files.Mapped);
  // The build's libraries have not changed since the default's replays:
  // their copies serve both.
  Other.BuildLibraries = Files.BuildLibraries;
  Out << "kiln: optimize: block layout of " << WS.display(L.Target)
      << ": measuring the other compile policy on the same replays\n";
  ReplayInstructions Instructions;
  Expected<unsigned> Replays = [&]() -> Expected<unsigned> {
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Other.Mapped)))
      return skipped(Other.Dir +
                     ": cannot create the directory: " + EC.message());
    return writeBlockProfile(L, M, Profiler, Other, Links, Copies, Alternative,
                             Final, Env, Libraries, Library,
                             /*ProgramIsMapped=*/false, Out, &Instructions);
  }();
  if (!Replays) {
    Err << "kiln: warning: optimize: the other compile policy was not "
           "measured for "
        << WS.display(L.Target) << ": " << toString(Replays.takeError())
        << '\n';
    return {&Final.Flags, Files.Profile};
  }
  Result.AlternativeInstructions = Instructions.Total;
  Out << "kiln: optimize: " << WS.display(L.Target)
      << ": the training's replays executed " << Result.DefaultInstructions
      << " instructions with the default compile policy, " << Instructions.Total
      << " with the other\n";
  if (!prefersAlternativePolicy(Result.DefaultInstructions, Instructions.Total))
    return {&Final.Flags, Files.Profile};
  Result.Policy = "alternative";
  return {&Alternative, Other.Profile};
}

/// Removes the block address map from \p L's program, which kept its
/// function-level link (an address map serves only the block profile), and
/// from the copies the build made of it.
static Error dropAddressMap(const RecordedLink &L,
                            const BlockLayoutFiles &Files, const Workspace &WS,
                            const PgoEnvironment &Env,
                            ArrayRef<ProgramCopy> Copies, PgoBuild &B,
                            raw_ostream &Out) {
  if (std::error_code EC = sys::fs::create_directories(Files.Dir))
    return skipped(Files.Dir +
                   ": cannot create the directory: " + EC.message());
  std::string Unmapped = Files.Dir + "/function-level";
  if (Error E =
          runTool({Env.LLVMBinDir + "/llvm-objcopy",
                   "--remove-section=.llvm_bb_addr_map", L.Target, Unmapped},
                  "optimize: block layout", L.Target))
    return E;
  if (Error E =
          replaceFileAtomically(Unmapped, L.Target, "optimize: block layout"))
    return E;
  restampProgram(B, L.Target);
  std::vector<ProgramCopy> Mine;
  for (const ProgramCopy &C : Copies)
    if (C.Target == L.Target)
      Mine.push_back(C);
  return refreshProgramCopies(Mine, WS, Out);
}

Error blockLayoutRelink(const Workspace &WS, const PgoEnvironment &Env,
                        const PgoManifest &M, const PgoTransforms &Opts,
                        ArrayRef<RecordedLink> Links,
                        ArrayRef<ProgramCopy> Copies,
                        const PgoWrapperConfig &Final,
                        const std::optional<PgoPhaseFlags> &Alternative,
                        bool ProgramsHaveAddressMap, PgoBuild &B,
                        raw_ostream &Out, raw_ostream &Err) {
  B.BlockLayouts.clear();
  Expected<BlockProfiler> Profiler = findProfiler(Opts, M, Env, Out);
  PgoBlockLayoutSource Source = Opts.BlockLayout;
  std::string NoProfiler;
  if (!Profiler)
    NoProfiler = toString(Profiler.takeError());
  else
    Source = Profiler->Source;
  B.BlockLayoutSource =
      Source == PgoBlockLayoutSource::Bolt ? "bolt" : "callgrind";
  // The build's shared libraries, laid out after the programs: their
  // replays run the programs as linked with their block layout.
  std::vector<BuildLibrary> Libraries;
  std::vector<std::optional<size_t>> LibraryOf(Links.size());
  std::vector<size_t> Programs, LibraryLinks;
  for (auto [I, L] : enumerate(Links)) {
    std::optional<DynamicLinkInfo> Info = readDynamicLinkInfo(L.Target);
    if (Info && Info->IsSharedLibrary) {
      LibraryOf[I] = Libraries.size();
      Libraries.push_back({L.Target, std::move(*Info)});
      LibraryLinks.push_back(I);
    } else {
      Programs.push_back(I);
    }
  }
  std::vector<PgoBlockLayout> Results(Links.size());
  // The callgrind time the libraries' replays are estimated to take: each
  // replays the runs of the programs that load it, so many libraries
  // multiply the replays; past the budget, the rest keep their
  // function-level links.
  double LibraryReplaySeconds = 0;
  for (size_t I : concat<size_t>(Programs, LibraryLinks)) {
    const RecordedLink &L = Links[I];
    const BuildLibrary *Library =
        LibraryOf[I] ? &Libraries[*LibraryOf[I]] : nullptr;
    PgoBlockLayout &Result = Results[I];
    Result.Program = L.Target;
    ProcessResult Relink;
    // A library's address-mapped link goes by the name programs load it by.
    BlockLayoutFiles Files(
        WS.path(Twine(PgoBlockLayoutDir) + "/" + Twine(L.Index)),
        Library ? StringRef(Library->Info.LoadName) : StringRef(L.Target));
    auto Attempt = [&]() -> Error {
      if (!NoProfiler.empty())
        return skipped(NoProfiler);
      // Said before the "profiling" line, which would promise otherwise.
      if (Library && Source == PgoBlockLayoutSource::Bolt)
        return skipped("a shared library: block layout profiles a library "
                       "under callgrind only (--block-layout=callgrind)");
      sys::fs::remove_directories(Files.Dir);
      if (std::error_code EC =
              sys::fs::create_directories(sys::path::parent_path(Files.Mapped)))
        return skipped(Files.Dir +
                       ": cannot create the directory: " + EC.message());
      Out << "kiln: optimize: block layout of " << WS.display(L.Target)
          << ": profiling its address-mapped link under "
          << (Source == PgoBlockLayoutSource::Bolt ? "llvm-bolt -instrument"
                                                   : "callgrind")
          << '\n';
      // A library's policy is measured on the replays of the programs that
      // load it, which differ only by its code.
      bool Measure = Alternative && Source == PgoBlockLayoutSource::Callgrind;
      if (Library && Source == PgoBlockLayoutSource::Callgrind &&
          !Opts.BlockLayoutChosen) {
        double Seconds = 0;
        for (const std::string &S : M.usableScenarios())
          for (const PgoRun *R : M.usedRuns(S))
            if (runLoadsLibrary(*R, *Library, Libraries))
              Seconds += R->Seconds;
        double Estimate = Seconds * PgoCallgrindSlowdown * (Measure ? 2 : 1);
        if (LibraryReplaySeconds + Estimate > Opts.CallgrindBudgetSeconds)
          return skipped(
              "its replays would take about " +
              Twine(static_cast<uint64_t>(std::ceil(Estimate))) +
              " s under callgrind, over " +
              (LibraryReplaySeconds > 0
                   ? "what the build's other libraries left of "
                   : "") +
              "--callgrind-budget=" + Twine(Opts.CallgrindBudgetSeconds) +
              " s (--block-layout=callgrind lays it out all the same)");
        LibraryReplaySeconds += Estimate;
      }
      ReplayInstructions Default;
      Expected<unsigned> Replays = writeBlockProfile(
          L, M, *Profiler, Files, Links, Copies, Final.Flags, Final, Env,
          Libraries, Library, ProgramsHaveAddressMap, Out,
          Measure ? &Default : nullptr);
      if (!Replays)
        return Replays.takeError();
      Result.DefaultInstructions = Default.Total;
      Result.BinaryInstructions = Default.Binary;
      Result.Replays = *Replays;
      auto [Flags, Profile] =
          Measure ? choosePolicy(L, M, *Profiler, Files, Links, Copies, Final,
                                 *Alternative, WS, Env, Libraries, Library,
                                 Result, Out, Err)
                  : std::make_pair(&Final.Flags, Files.Profile);
      Result.Profile = Profile;
      Out << "kiln: optimize: linking " << WS.display(L.Target)
          << " again with its block layout"
          << (Result.Policy == "alternative" ? " and the other compile policy"
                                             : "")
          << '\n';
      if (Error E = linkInto(L, withBlockLayout(*Flags, Profile), Final,
                             Files.Relinked, Files.Dir + "/relink.log",
                             "the relink with the block profile", &Relink))
        return E;
      return replaceFileAtomically(Files.Relinked, L.Target,
                                   "optimize: block layout");
    };
    if (Error E = Attempt()) {
      Result.Outcome = toString(std::move(E));
      // The program keeps its function-level link, the default's.
      Result.Policy.clear();
      Err << "kiln: warning: optimize: block layout skipped for "
          << WS.display(L.Target) << ": " << Result.Outcome << '\n';
      if (ProgramsHaveAddressMap)
        if (Error E = dropAddressMap(L, Files, WS, Env, Copies, B, Out))
          Err << "kiln: warning: optimize: " << toString(std::move(E)) << '\n';
      continue;
    }
    Result.Outcome = "done";
    restampProgram(B, L.Target);
    recordFinalLink(B, linkCost(L.Target, "block layout relink", Relink));
    std::vector<ProgramCopy> Mine;
    for (const ProgramCopy &C : Copies)
      if (C.Target == L.Target)
        Mine.push_back(C);
    if (Error E = refreshProgramCopies(Mine, WS, Out))
      return E;
  }
  // In the order of the links, whatever the order they were laid out in.
  B.BlockLayouts = std::move(Results);
  return Error::success();
}

} // namespace kiln::pgo

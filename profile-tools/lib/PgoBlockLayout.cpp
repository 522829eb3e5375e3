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
/// order. The program's output is replaced only once the relink succeeded:
/// any failure leaves the function-level program, with one warning saying
/// why.
///
/// A shared library the build linked is laid out the same way, after the
/// programs: the training runs whose programs load it (directly or through
/// another of the build's libraries) are replayed on those programs, as
/// linked now, with its address-mapped link first on LD_LIBRARY_PATH under
/// the name they load it by. Every replay finds the build's libraries
/// without their debug information there, which valgrind cannot always
/// read (LLVM 22's DWARF 5).
///
//===----------------------------------------------------------------------===//

#include "LibtoolWrapper.h"
#include "PgoSteps.h"

#include "kiln/Tools/BlockProfileCommand.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/SharedLibraries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <utility>

#include <unistd.h>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

/// Why one program keeps its function-level layout.
static Error skipped(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

namespace {
/// The profiler the training runs are replayed under.
struct BlockProfiler {
  PgoBlockLayoutSource Source = PgoBlockLayoutSource::Off;
  std::string Tool; ///< llvm-bolt or valgrind.
};

/// The files of one program's block layout, in its workspace directory.
struct BlockLayoutFiles {
  std::string Dir;
  /// The address-mapped final link, by the program's name: callgrind's
  /// client sees it as argv[0], and a program may act on its name.
  std::string Mapped;
  std::string Instrumented; ///< BOLT's instrumentation of it.
  std::string FdataStem;    ///< Where the instrumented binary writes.
  std::string Profile;      ///< blocks.kbp.
  std::string Relinked;     ///< The relink, before it replaces the program.

  BlockLayoutFiles(std::string Dir, StringRef Program)
      : Dir(Dir), Mapped(Dir + "/mapped/" + sys::path::filename(Program).str()),
        Instrumented(Dir + "/instrumented"), FdataStem(Dir + "/fdata/prof"),
        Profile(Dir + "/blocks.kbp"), Relinked(Dir + "/relinked") {}
};
} // namespace

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

/// How a training run ran the profiled program: by its path (or the path of
/// a copy the build made of it), or through a libtool wrapper script, whose
/// environment a replay needs. A replay runs the profiled binary in its
/// place.
namespace {
struct ProgramLaunch {
  /// LD_LIBRARY_PATH's directories a libtool wrapper put in front of the
  /// run's own ("" when the run started the program itself).
  std::string LibraryPath;
  /// The program the run started (the wrapper's program for a wrapper);
  /// set where a library is profiled.
  std::string Program;
  /// What runs under the profiler: the profiled binary where empty, else a
  /// copy of Program without its debug information.
  std::string Executable;
  /// A directory of the build's libraries, first on LD_LIBRARY_PATH.
  std::string LibraryDir;
};
} // namespace

/// \returns how \p R ran \p L's program, or std::nullopt if it did not.
static std::optional<ProgramLaunch> runsProgram(const PgoRun &R,
                                                const RecordedLink &L,
                                                ArrayRef<ProgramCopy> Copies) {
  if (!R.Program)
    return std::nullopt;
  auto IsTarget = [&](StringRef Path) {
    return Path == L.Target || any_of(Copies, [&](const ProgramCopy &C) {
             return C.Copy == Path && C.Target == L.Target;
           });
  };
  if (IsTarget(R.Program->Path))
    return ProgramLaunch();
  if (std::optional<LibtoolWrapper> W = readLibtoolWrapper(R.Program->Path))
    if (IsTarget(W->Program)) {
      ProgramLaunch Launch;
      Launch.LibraryPath = W->LibraryPath;
      return Launch;
    }
  return std::nullopt;
}

/// \returns how \p R ran a program that loads \p Library, one of the
/// build's \p Libraries, or std::nullopt if it did not.
static std::optional<ProgramLaunch>
runLoadsLibrary(const PgoRun &R, const BuildLibrary &Library,
                ArrayRef<BuildLibrary> Libraries) {
  if (!R.Program)
    return std::nullopt;
  ProgramLaunch Launch;
  Launch.Program = R.Program->Path;
  if (std::optional<LibtoolWrapper> W = readLibtoolWrapper(R.Program->Path)) {
    Launch.Program = W->Program;
    Launch.LibraryPath = W->LibraryPath;
  }
  std::optional<DynamicLinkInfo> Info = readDynamicLinkInfo(Launch.Program);
  if (!Info || Info->IsSharedLibrary ||
      !needsLibrary(*Info, Library.Info.LoadName, Libraries))
    return std::nullopt;
  return Launch;
}

/// \returns whether callgrind's trace \p Trace names \p Object among the
/// objects its program ran code of.
static bool traceRanObject(StringRef Trace, StringRef Object) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Trace);
  if (!Buf)
    return false;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  // An object is named where the trace first mentions it: `ob=(N) path`,
  // or `cob=(N) path` as a callee's.
  return any_of(Lines, [&](StringRef Line) {
    return (Line.starts_with("ob=(") || Line.starts_with("cob=(")) &&
           Line.ends_with(") " + Object.str());
  });
}

/// Replays \p R, which ran the program as \p Launch says, on the profiled
/// binary (or, for a library, on the program that loads it); \returns the
/// profiles it wrote.
static Expected<std::vector<std::string>>
replayRun(const PgoRun &R, const ProgramLaunch &Launch,
          const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
          raw_ostream &Out) {
  std::string RunDir =
      Files.Dir + "/runs/" + R.Scenario + "/run-" + std::to_string(R.Id);
  if (std::error_code EC = sys::fs::create_directories(RunDir))
    return skipped(RunDir + ": cannot create the directory: " + EC.message());
  ProcessSetup Setup;
  Setup.Cwd = R.Cwd;
  Setup.Stdin = R.Stdin.empty() ? "/dev/null" : R.Stdin;
  Setup.Stdout = "/dev/null";
  Setup.Stderr = RunDir + "/stderr.txt";
  std::vector<std::string> Command;
  std::string Trace = RunDir + "/callgrind.out";
  if (Profiler.Source == PgoBlockLayoutSource::Bolt) {
    // The instrumented binary runs with the training run's own argv[0].
    Command = R.Command;
    Setup.Executable = Files.Instrumented;
  } else {
    Command = {Profiler.Tool,
               "--tool=callgrind",
               "--dump-instr=yes",
               "--collect-jumps=yes",
               "--callgrind-out-file=" + Trace,
               Launch.Executable.empty() ? Files.Mapped : Launch.Executable};
    Command.insert(Command.end(), R.Command.begin() + 1, R.Command.end());
  }
  std::string What = "run " + std::to_string(R.Id) + " of scenario '" +
                     R.Scenario + "' (" + joinCommand(R.Command) + ")";
  // The program runs as the libtool wrapper the training ran would have run
  // it: with the build's libraries first on the search path; before them,
  // the copies of the build's libraries this replay is to load.
  std::vector<std::pair<std::string, std::string>> Env;
  if (!Launch.LibraryPath.empty() || !Launch.LibraryDir.empty()) {
    const char *Inherited = ::getenv("LD_LIBRARY_PATH");
    Env.emplace_back(
        "LD_LIBRARY_PATH",
        libtoolLibraryPath(Launch.LibraryDir,
                           libtoolLibraryPath(Launch.LibraryPath,
                                              Inherited ? Inherited : "")));
  }
  Expected<ProcessResult> P =
      runProcess(Command, Env, "optimize: block layout replay", Setup);
  if (!P)
    return skipped("replaying " + What + ": " + toString(P.takeError()));
  if (P->ExitStatus != R.ExitStatus)
    return skipped("replaying " + What + " exited with status " +
                   std::to_string(P->ExitStatus) + ", the training run with " +
                   std::to_string(R.ExitStatus) + " (see " + Setup.Stderr +
                   ")");
  Out << "kiln: optimize: replayed " << What << " for block layout\n";
  std::vector<std::string> Profiles;
  if (Profiler.Source == PgoBlockLayoutSource::Callgrind) {
    if (!sys::fs::exists(Trace))
      return skipped("replaying " + What + " wrote no callgrind trace");
    // A program whose DT_RPATH, or a path in its DT_NEEDED, names the
    // build's own library loads that one, not the address-mapped copy.
    if (!Launch.Executable.empty() && !traceRanObject(Trace, Files.Mapped))
      return skipped("replaying " + What + ": the program did not load " +
                     Files.Mapped + " (see the objects of " + Trace + ")");
    Profiles.push_back(Trace);
    return Profiles;
  }
  // One .fdata per process of the run (`--instrumentation-file-append-pid`);
  // each run's go into its own directory.
  StringRef FdataDir = sys::path::parent_path(Files.FdataStem);
  std::error_code EC;
  std::vector<std::string> Written;
  for (sys::fs::directory_iterator It(FdataDir, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".fdata"))
      Written.push_back(It->path());
  llvm::sort(Written);
  for (const std::string &F : Written) {
    std::string To = RunDir + "/" + sys::path::filename(F).str();
    if (std::error_code RenameEC = sys::fs::rename(F, To))
      return skipped(F + ": cannot move the profile: " + RenameEC.message());
    Profiles.push_back(To);
  }
  if (Profiles.empty())
    return skipped("replaying " + What + " wrote no .fdata profile");
  return Profiles;
}

/// \returns the instructions (Ir) callgrind's trace \p Trace counted: its
/// `totals:` line (or, without one, its `summary:` line).
static Expected<uint64_t> callgrindInstructions(StringRef Trace) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Trace);
  if (!Buf)
    return skipped(Trace + ": cannot read: " + Buf.getError().message());
  std::optional<uint64_t> Summary, Totals;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef Line : Lines) {
    std::optional<uint64_t> *Into = Line.consume_front("totals:")    ? &Totals
                                    : Line.consume_front("summary:") ? &Summary
                                                                     : nullptr;
    uint64_t N;
    if (Into && !Line.trim().split(' ').first.getAsInteger(10, N))
      *Into = N;
  }
  if (Totals)
    return *Totals;
  if (Summary)
    return *Summary;
  return skipped(Trace + ": no totals or summary line");
}

/// Copies the shared libraries of \p LibraryPath's directories (a libtool
/// wrapper's, ':'-separated) into directories under \p Into without their
/// debug information, which this valgrind cannot always read (LLVM 22's
/// DWARF 5: "Possibly corrupted debuginfo file", and the run ends); their
/// code is the same. Symbolic links are made again, other files left out.
/// \returns the copies' directories, in the same order, ':'-separated.
static Expected<std::string>
librariesWithoutDebugInfo(StringRef LibraryPath, StringRef Into,
                          const PgoEnvironment &Env) {
  SmallVector<StringRef, 4> Dirs;
  LibraryPath.split(Dirs, ':', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Copies;
  for (size_t I = 0; I < Dirs.size(); ++I) {
    std::string To = (Into + "/" + Twine(I)).str();
    sys::fs::remove_directories(To);
    if (std::error_code EC = sys::fs::create_directories(To))
      return skipped(To + ": cannot create the directory: " + EC.message());
    std::error_code EC;
    std::vector<std::string> Entries;
    for (sys::fs::directory_iterator It(Dirs[I], EC), End; It != End && !EC;
         It.increment(EC))
      Entries.push_back(It->path());
    if (EC)
      return skipped(Dirs[I] + ": cannot list the directory: " + EC.message());
    llvm::sort(Entries);
    for (const std::string &From : Entries) {
      StringRef Name = sys::path::filename(From);
      if (!Name.contains(".so"))
        continue;
      std::string Target = To + "/" + Name.str();
      sys::fs::file_status Status;
      if (sys::fs::status(From, Status, /*follow=*/false))
        continue;
      if (Status.type() == sys::fs::file_type::symlink_file) {
        char Buf[4096];
        ssize_t N = ::readlink(From.c_str(), Buf, sizeof(Buf));
        if (N > 0 && static_cast<size_t>(N) < sizeof(Buf))
          sys::fs::create_link(StringRef(Buf, N), Target);
        continue;
      }
      file_magic Magic;
      if (Status.type() != sys::fs::file_type::regular_file ||
          identify_magic(From, Magic) || Magic != file_magic::elf_shared_object)
        continue;
      if (Error E = runTool(
              {Env.LLVMBinDir + "/llvm-objcopy", "--strip-debug", From, Target},
              "optimize: block layout", From))
        return skipped(toString(std::move(E)));
    }
    Copies.push_back(std::move(To));
  }
  return join(Copies, ":");
}

/// Copies \p Libraries, the build's shared libraries as linked now, without
/// their debug information into \p Dir under the names programs load them
/// by; \p Except (a path) is left out. An existing file is kept.
static Error copyBuildLibraries(ArrayRef<BuildLibrary> Libraries, StringRef Dir,
                                StringRef Except, const PgoEnvironment &Env) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return skipped(Dir + ": cannot create the directory: " + EC.message());
  for (const BuildLibrary &L : Libraries) {
    std::string To = (Dir + "/" + L.Info.LoadName).str();
    if (L.Path == Except || sys::fs::exists(To))
      continue;
    if (Error E = runTool(
            {Env.LLVMBinDir + "/llvm-objcopy", "--strip-debug", L.Path, To},
            "optimize: block layout", L.Path))
      return skipped(toString(std::move(E)));
  }
  return Error::success();
}

/// Why \p L gets no block layout when no training run ran its program.
static Error noTrainingRanIt(const RecordedLink &L, bool IsLibrary) {
  // A training run starts a program; a library runs inside one.
  if (IsLibrary)
    return skipped("a shared library that no training run's program loads; "
                   "a replay runs one of the build's own programs, or a "
                   "libtool wrapper of one");
  return skipped("no training run ran it (a replay runs the program itself, "
                 "or a libtool wrapper of it, not another script that starts "
                 "it)");
}

/// The address-mapped link of \p L with \p Flags, its profiler, the
/// replays and the block profile. \p Libraries are the build's shared
/// libraries, \p Library the one \p L links (null for a program).
/// \returns the number of runs replayed; with \p Instructions, callgrind's
/// Ir of every replay, summed.
static Expected<unsigned>
writeBlockProfile(const RecordedLink &L, const PgoManifest &M,
                  const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
                  ArrayRef<ProgramCopy> Copies, const PgoPhaseFlags &Flags,
                  const PgoWrapperConfig &Final, const PgoEnvironment &Env,
                  ArrayRef<BuildLibrary> Libraries, const BuildLibrary *Library,
                  bool ProgramIsMapped, raw_ostream &Out,
                  uint64_t *Instructions = nullptr) {
  bool Bolt = Profiler.Source == PgoBlockLayoutSource::Bolt;
  // The runs to replay, per scenario; decided before any link, which a
  // program no run started does not need.
  std::vector<std::pair<std::string,
                        std::vector<std::pair<const PgoRun *, ProgramLaunch>>>>
      Replayable;
  for (const std::string &S : M.usableScenarios()) {
    Replayable.push_back({S, {}});
    for (const PgoRun *R : M.usedRuns(S))
      if (std::optional<ProgramLaunch> Launch =
              Library ? runLoadsLibrary(*R, *Library, Libraries)
                      : runsProgram(*R, L, Copies))
        Replayable.back().second.emplace_back(R, std::move(*Launch));
  }
  if (none_of(Replayable, [](const auto &S) { return !S.second.empty(); }))
    return noTrainingRanIt(L, Library);
  if (Library && Bolt)
    return skipped("a shared library: block layout profiles a library "
                   "under callgrind only (--block-layout=callgrind)");
  if (Files.Dir.find(',') != std::string::npos)
    return skipped("the workspace's path holds a comma, which kiln "
                   "block-profile's scenario lists cannot name");
  if (ProgramIsMapped && !Bolt) {
    // The final link carried the map and the map changes no code: the
    // program without its debug info is the binary to profile, one ThinLTO
    // link fewer.
    if (Error E = runTool({Env.LLVMBinDir + "/llvm-objcopy", "--strip-debug",
                           L.Target, Files.Mapped},
                          "optimize: block layout", L.Target))
      return skipped(toString(std::move(E)));
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
                                 : Files.Dir + "/build-libraries";
    if (Error E = copyBuildLibraries(Libraries, LibraryDir,
                                     Library ? Library->Path : "", Env))
      return std::move(E);
    for (auto &[S, Runs] : Replayable)
      for (auto &[R, Launch] : Runs)
        Launch.LibraryDir = LibraryDir;
  }
  // A library's replays run its programs, each as a copy without debug
  // information.
  if (Library) {
    StringMap<std::string> ProgramCopies;
    for (auto &[S, Runs] : Replayable)
      for (auto &[R, Launch] : Runs) {
        auto [It, New] = ProgramCopies.try_emplace(Launch.Program);
        if (New) {
          std::string Dir =
              Files.Dir + "/programs/" + std::to_string(ProgramCopies.size());
          if (std::error_code EC = sys::fs::create_directories(Dir))
            return skipped(Dir +
                           ": cannot create the directory: " + EC.message());
          It->second = Dir + "/" + sys::path::filename(Launch.Program).str();
          if (Error E = runTool({Env.LLVMBinDir + "/llvm-objcopy",
                                 "--strip-debug", Launch.Program, It->second},
                                "optimize: block layout", Launch.Program))
            return skipped(toString(std::move(E)));
        }
        Launch.Executable = It->second;
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
        for (const std::string &Trace : *Written) {
          Expected<uint64_t> Ir = callgrindInstructions(Trace);
          if (!Ir)
            return Ir.takeError();
          *Instructions += *Ir;
        }
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
             ArrayRef<ProgramCopy> Copies, const PgoWrapperConfig &Final,
             const PgoPhaseFlags &Alternative, const Workspace &WS,
             const PgoEnvironment &Env, ArrayRef<BuildLibrary> Libraries,
             const BuildLibrary *Library, PgoBlockLayout &Result,
             raw_ostream &Out, raw_ostream &Err) {
  Result.Policy = "default";
  BlockLayoutFiles Other(Files.Dir + "/alternative",
                         Library ? StringRef(Library->Info.LoadName)
                                 : StringRef(L.Target));
  Out << "kiln: optimize: block layout of " << WS.display(L.Target)
      << ": measuring the other compile policy on the same replays\n";
  uint64_t Instructions = 0;
  Expected<unsigned> Replays = [&]() -> Expected<unsigned> {
    if (std::error_code EC =
            sys::fs::create_directories(sys::path::parent_path(Other.Mapped)))
      return skipped(Other.Dir +
                     ": cannot create the directory: " + EC.message());
    return writeBlockProfile(L, M, Profiler, Other, Copies, Alternative, Final,
                             Env, Libraries, Library,
                             /*ProgramIsMapped=*/false, Out, &Instructions);
  }();
  if (!Replays) {
    Err << "kiln: warning: optimize: the other compile policy was not "
           "measured for "
        << WS.display(L.Target) << ": " << toString(Replays.takeError())
        << '\n';
    return {&Final.Flags, Files.Profile};
  }
  Result.AlternativeInstructions = Instructions;
  Out << "kiln: optimize: " << WS.display(L.Target)
      << ": the training's replays executed " << Result.DefaultInstructions
      << " instructions with the default compile policy, " << Instructions
      << " with the other\n";
  if (!prefersAlternativePolicy(Result.DefaultInstructions, Instructions))
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
      Expected<unsigned> Replays = writeBlockProfile(
          L, M, *Profiler, Files, Copies, Final.Flags, Final, Env, Libraries,
          Library, ProgramsHaveAddressMap, Out,
          Measure ? &Result.DefaultInstructions : nullptr);
      if (!Replays)
        return Replays.takeError();
      Result.Replays = *Replays;
      auto [Flags, Profile] =
          Measure ? choosePolicy(L, M, *Profiler, Files, Copies, Final,
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

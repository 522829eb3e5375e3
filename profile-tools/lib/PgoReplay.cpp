//===- PgoReplay.cpp - Block layout's replays of the training ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PgoReplay.h"
#include "LibtoolWrapper.h"
#include "kiln/Tools/ProgramStandIn.h"

#include "kiln/Sources/BlockProfileSources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

#include <unistd.h>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

/// Why one program keeps its function-level layout.
static Error skipped(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// \returns how \p R ran \p L's program, or std::nullopt if it did not.
std::optional<ProgramLaunch> runsProgram(const PgoRun &R, const RecordedLink &L,
                                         ArrayRef<ProgramCopy> Copies) {
  if (!R.Program)
    return std::nullopt;
  auto IsTarget = [&](StringRef Path) {
    return Path == L.Target || any_of(Copies, [&](const ProgramCopy &C) {
             return C.Copy == Path && C.Target == L.Target;
           });
  };
  ProgramLaunch Launch;
  if (IsTarget(R.Program->Path)) {
    Launch.Name = sys::path::filename(R.Program->Path).str();
    return Launch;
  }
  if (std::optional<LibtoolWrapper> W = readLibtoolWrapper(R.Program->Path))
    if (IsTarget(W->Program)) {
      Launch.LibraryPath = W->LibraryPath;
      Launch.Name = sys::path::filename(W->Program).str();
      return Launch;
    }
  return std::nullopt;
}

/// \returns whether \p R started one of \p Links' programs itself (or a
/// copy \p Copies has of one, or a libtool wrapper of one).
static bool startsABuildProgram(const PgoRun &R, ArrayRef<RecordedLink> Links,
                                ArrayRef<ProgramCopy> Copies) {
  return any_of(Links, [&](const RecordedLink &L) {
    return runsProgram(R, L, Copies).has_value();
  });
}

/// Adds stand-ins at \p Program and at the build's copies of it to
/// \p Launch.
static void addStandIns(ProgramLaunch &Launch, StringRef Program,
                        ArrayRef<ProgramCopy> Copies) {
  Launch.StandIns.push_back({Program.str(), ""});
  for (const ProgramCopy &C : Copies)
    if (C.Target == Program)
      Launch.StandIns.push_back({C.Copy, ""});
}

std::optional<ProgramLaunch>
commandMayStartProgram(const PgoRun &R, const RecordedLink &L,
                       ArrayRef<RecordedLink> Links,
                       ArrayRef<ProgramCopy> Copies) {
  if (startsABuildProgram(R, Links, Copies))
    return std::nullopt;
  ProgramLaunch Launch;
  addStandIns(Launch, L.Target, Copies);
  return Launch;
}

std::vector<std::string> programsLoading(const BuildLibrary &Library,
                                         ArrayRef<BuildLibrary> Libraries,
                                         ArrayRef<RecordedLink> Links) {
  std::vector<std::string> Loaders;
  for (const RecordedLink &L : Links) {
    std::optional<DynamicLinkInfo> Info = readDynamicLinkInfo(L.Target);
    if (Info && !Info->IsSharedLibrary &&
        needsLibrary(*Info, Library.Info.LoadName, Libraries))
      Loaders.push_back(L.Target);
  }
  return Loaders;
}

std::optional<ProgramLaunch>
commandMayLoadLibrary(const PgoRun &R, ArrayRef<std::string> Loaders,
                      ArrayRef<RecordedLink> Links,
                      ArrayRef<ProgramCopy> Copies) {
  if (Loaders.empty() || startsABuildProgram(R, Links, Copies))
    return std::nullopt;
  ProgramLaunch Launch;
  for (const std::string &Program : Loaders)
    addStandIns(Launch, Program, Copies);
  return Launch;
}

/// \returns how \p R ran a program that loads \p Library, one of the
/// build's \p Libraries, or std::nullopt if it did not.
std::optional<ProgramLaunch> runLoadsLibrary(const PgoRun &R,
                                             const BuildLibrary &Library,
                                             ArrayRef<BuildLibrary> Libraries) {
  if (!R.Program)
    return std::nullopt;
  ProgramLaunch Launch;
  Launch.Program = R.Program->Path;
  if (std::optional<LibtoolWrapper> W = readLibtoolWrapper(R.Program->Path)) {
    Launch.Program = W->Program;
    Launch.LibraryPath = W->LibraryPath;
  }
  Launch.Name = sys::path::filename(Launch.Program).str();
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

/// The options every callgrind replay runs with: per-instruction costs and
/// the jumps, from which the block profile reads blocks and edges.
static const char *const CallgrindOptions[] = {
    "--tool=callgrind", "--dump-instr=yes", "--collect-jumps=yes"};

/// \returns the files of \p Dir whose names start with \p Prefix and end
/// with \p Suffix, sorted.
static std::vector<std::string> filesNamed(StringRef Dir, StringRef Prefix,
                                           StringRef Suffix) {
  std::vector<std::string> Files;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.starts_with(Prefix) && Name.ends_with(Suffix))
      Files.push_back(It->path());
  }
  llvm::sort(Files);
  return Files;
}

/// Moves the .fdata profiles BOLT's instrumented binary wrote, one per
/// process (`--instrumentation-file-append-pid`), into \p RunDir, each
/// run's into its own; appends them to \p Profiles.
static Error moveRunFdata(const BlockLayoutFiles &Files, StringRef RunDir,
                          std::vector<std::string> &Profiles) {
  for (const std::string &F :
       filesNamed(sys::path::parent_path(Files.FdataStem), "", ".fdata")) {
    std::string To = (RunDir + "/" + sys::path::filename(F)).str();
    if (std::error_code EC = sys::fs::rename(F, To))
      return skipped(F + ": cannot move the profile: " + EC.message());
    Profiles.push_back(To);
  }
  return Error::success();
}

/// \returns \p Executable by the file name \p Name: itself where that is
/// its name, else a hard link (or, where none can be made, a symbolic link)
/// in \p Files' directory. Valgrind's client sees the path it runs as
/// argv[0], and a program may act on its name (pigz decompresses when run
/// as unpigz); the block profile's reader finds the profiled binary
/// through either link.
static Expected<std::string> executableNamed(StringRef Executable,
                                             StringRef Name,
                                             const BlockLayoutFiles &Files) {
  if (Name.empty() || sys::path::filename(Executable) == Name)
    return Executable.str();
  std::string Dir = Files.Dir + "/as";
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return skipped(Dir + ": cannot create the directory: " + EC.message());
  std::string Link = Dir + "/" + Name.str();
  sys::fs::remove(Link);
  if (sys::fs::create_hard_link(Executable, Link) &&
      sys::fs::create_link(Executable, Link))
    return skipped(Link + ": cannot link " + Executable + " by the name " +
                   Name + " its training run used");
  return Link;
}

/// \returns why the replay \p What of \p R failed, if it did: it could not
/// run, or it exited otherwise than the training run (its messages are in
/// \p Logs).
static Error replayFailure(Expected<ProcessResult> &P, const PgoRun &R,
                           StringRef What, const Twine &Logs) {
  if (!P)
    return skipped("replaying " + What + ": " + toString(P.takeError()));
  if (P->ExitStatus != R.ExitStatus)
    return skipped("replaying " + What + " exited with status " +
                   Twine(P->ExitStatus) + ", the training run with " +
                   Twine(R.ExitStatus) + " (see " + Logs + ")");
  return Error::success();
}

/// Replays \p R's own command, which may start the program, with stand-ins
/// at the program's paths (\p Launch.StandIns): for callgrind, a shell
/// script that runs the profiled binary under it, one trace per process
/// (valgrind's messages in a log of their own, apart from the command's
/// standard error); for BOLT, the instrumented binary itself. \returns the
/// traces or profiles the program's processes wrote.
static Expected<std::vector<std::string>>
replayWithStandIns(const PgoRun &R, const ProgramLaunch &Launch,
                   const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
                   StringRef RunDir, const ProcessSetup &Setup, StringRef What,
                   raw_ostream &Out) {
  bool Bolt = Profiler.Source == PgoBlockLayoutSource::Bolt;
  // One stand-in per binary it runs: under BOLT the instrumented binary
  // itself, which runs where the program was; under callgrind a script.
  auto WriteStandIn = [&](StringRef Executable,
                          unsigned N) -> Expected<std::string> {
    if (Bolt)
      return Files.Instrumented;
    std::string Path = (RunDir + "/stand-in-" + Twine(N)).str();
    std::string Script = "#!/bin/sh\n# kiln pgo optimize: block layout's "
                         "replay of a training run's command\n";
    if (!Launch.LibraryDir.empty())
      Script += "LD_LIBRARY_PATH=" + shellQuote(Launch.LibraryDir) +
                "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}\nexport "
                "LD_LIBRARY_PATH\n";
    Script += "exec " + shellQuote(Profiler.Tool);
    for (const char *O : CallgrindOptions)
      Script += std::string(" ") + O;
    Script +=
        " " +
        shellQuote(
            ("--callgrind-out-file=" + RunDir + "/callgrind.out.%p").str()) +
        " " + shellQuote(("--log-file=" + RunDir + "/valgrind.%p.log").str()) +
        " " + shellQuote(Executable) + " \"$@\"\n";
    if (Error E = writeFileAtomically(Path, Script))
      return skipped(toString(std::move(E)));
    return Path;
  };
  // The programs by name, for what the replay says it started.
  std::vector<std::string> Names;
  for (const StandIn &S : Launch.StandIns)
    if (!is_contained(Names, sys::path::filename(S.Path)))
      Names.push_back(sys::path::filename(S.Path).str());
  std::string Started = join(Names, " or ");
  Expected<ProcessResult> P = [&]() -> Expected<ProcessResult> {
    ProgramStandIns Installed;
    StringMap<std::string> ByExecutable;
    for (const StandIn &S : Launch.StandIns) {
      std::string Executable = Files.Instrumented;
      if (!Bolt) {
        // Run by the name the command starts it by (BOLT's instrumented
        // binary is the stand-in, at that name).
        Expected<std::string> Named =
            executableNamed(S.Executable.empty() ? Files.Mapped : S.Executable,
                            sys::path::filename(S.Path), Files);
        if (!Named)
          return Named.takeError();
        Executable = *Named;
      }
      auto [It, New] = ByExecutable.try_emplace(Executable);
      if (New) {
        Expected<std::string> Written =
            WriteStandIn(Executable, ByExecutable.size());
        if (!Written)
          return Written.takeError();
        It->second = *Written;
      }
      if (Error E = Installed.install({S.Path}, It->second))
        return std::move(E);
    }
    Expected<ProcessResult> Ran =
        runProcess(R.Command, {}, "optimize: block layout replay", Setup);
    if (Error E = Installed.restore()) {
      if (Ran)
        return std::move(E);
      return joinErrors(Ran.takeError(), std::move(E));
    }
    return Ran;
  }();
  if (Error E = replayFailure(
          P, R, What,
          Setup.Stderr + (Bolt ? "" : " and the valgrind logs beside it")))
    return std::move(E);
  std::vector<std::string> Profiles;
  if (Bolt) {
    if (Error E = moveRunFdata(Files, RunDir, Profiles))
      return std::move(E);
  } else {
    Profiles = filesNamed(RunDir, "callgrind.out.", "");
    // For a library: a program whose DT_RPATH, or a path in its
    // DT_NEEDED, names the build's own library loads that one, not the
    // address-mapped copy.
    bool RunsCopies = any_of(Launch.StandIns, [](const StandIn &S) {
      return !S.Executable.empty();
    });
    for (const std::string &Trace : Profiles)
      if (RunsCopies && !traceRanObject(Trace, Files.Mapped))
        return skipped("replaying " + What + ": " + Started + " did not load " +
                       Files.Mapped + " (see the objects of " + Trace + ")");
  }
  Out << "kiln: optimize: replayed " << What << " for block layout: ";
  if (Profiles.empty())
    Out << "it did not start " << Started << '\n';
  else
    Out << "it started " << Started << " " << Profiles.size()
        << " time(s), run by a stand-in under "
        << (Bolt ? "BOLT's instrumentation" : "callgrind") << '\n';
  return Profiles;
}

/// Replays \p R, which ran the program as \p Launch says, on the profiled
/// binary (or, for a library, on the program that loads it); \returns the
/// profiles it wrote.
Expected<std::vector<std::string>> replayRun(const PgoRun &R,
                                             const ProgramLaunch &Launch,
                                             const BlockProfiler &Profiler,
                                             const BlockLayoutFiles &Files,
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
  std::string What = describeRun(R);
  if (!Launch.StandIns.empty())
    return replayWithStandIns(R, Launch, Profiler, Files, RunDir, Setup, What,
                              Out);
  std::vector<std::string> Command;
  std::string Trace = RunDir + "/callgrind.out";
  if (Profiler.Source == PgoBlockLayoutSource::Bolt) {
    // The instrumented binary runs with the training run's own argv[0].
    Command = R.Command;
    Setup.Executable = Files.Instrumented;
  } else {
    Expected<std::string> Executable = executableNamed(
        Launch.Executable.empty() ? Files.Mapped : Launch.Executable,
        Launch.Name, Files);
    if (!Executable)
      return Executable.takeError();
    Command = {Profiler.Tool};
    Command.insert(Command.end(), std::begin(CallgrindOptions),
                   std::end(CallgrindOptions));
    Command.insert(Command.end(),
                   {"--callgrind-out-file=" + Trace, *Executable});
    Command.insert(Command.end(), R.Command.begin() + 1, R.Command.end());
  }
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
  if (Error E = replayFailure(P, R, What, Setup.Stderr))
    return std::move(E);
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
  if (Error E = moveRunFdata(Files, RunDir, Profiles))
    return std::move(E);
  if (Profiles.empty())
    return skipped("replaying " + What + " wrote no .fdata profile");
  return Profiles;
}

/// The trace's total is its `totals:` line (or, without one, its `summary:`
/// line); the binary's, the costs of its object.
Error addCallgrindInstructions(StringRef Trace, StringRef Binary,
                               ReplayInstructions &Sum) {
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
  if (!Totals && !Summary)
    return skipped(Trace + ": no totals or summary line");
  Expected<uint64_t> InBinary =
      readCallgrindBinaryInstructions((*Buf)->getMemBufferRef(), Binary);
  if (!InBinary)
    return skipped(toString(InBinary.takeError()));
  Sum.Total += Totals ? *Totals : *Summary;
  Sum.Binary += *InBinary;
  return Error::success();
}

Error copyWithoutDebugInfo(StringRef From, StringRef To,
                           const PgoEnvironment &Env) {
  if (Error E = runTool({Env.LLVMBinDir + "/llvm-objcopy", "--strip-debug",
                         From.str(), To.str()},
                        "optimize: block layout", From))
    return skipped(toString(std::move(E)));
  return Error::success();
}

/// Copies the shared libraries of \p LibraryPath's directories (a libtool
/// wrapper's, ':'-separated) into directories under \p Into without their
/// debug information, which this valgrind cannot always read (LLVM 22's
/// DWARF 5: "Possibly corrupted debuginfo file", and the run ends); their
/// code is the same. Symbolic links are made again, other files left out.
/// \returns the copies' directories, in the same order, ':'-separated.
Expected<std::string> librariesWithoutDebugInfo(StringRef LibraryPath,
                                                StringRef Into,
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
      if (Error E = copyWithoutDebugInfo(From, Target, Env))
        return E;
    }
    Copies.push_back(std::move(To));
  }
  return join(Copies, ":");
}

/// Copies \p Libraries, the build's shared libraries as linked now, without
/// their debug information into \p Dir under the names programs load them
/// by; \p Except (a path) is left out. An existing file is kept.
Error copyBuildLibraries(ArrayRef<BuildLibrary> Libraries, StringRef Dir,
                         StringRef Except, const PgoEnvironment &Env) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return skipped(Dir + ": cannot create the directory: " + EC.message());
  for (const BuildLibrary &L : Libraries) {
    std::string To = (Dir + "/" + L.Info.LoadName).str();
    if (L.Path == Except || sys::fs::exists(To))
      continue;
    if (Error E = copyWithoutDebugInfo(L.Path, To, Env))
      return E;
  }
  return Error::success();
}

} // namespace kiln::pgo

//===- PgoSteps.cpp - The steps the phases of kiln pgo share --------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PgoSteps.h"

#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/ProfileMerge.h"
#include "kiln/Tools/ProgramStandIn.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

std::string nowUTC() {
  std::time_t T = std::time(nullptr);
  std::tm TM;
  gmtime_r(&T, &TM);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", &TM);
  return Buffer;
}

std::string currentDir() {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return ".";
  return Cwd.str().str();
}

std::string describeRun(const PgoRun &R) {
  return "run " + std::to_string(R.Id) + " of scenario '" + R.Scenario + "' (" +
         joinCommand(R.Command) + (R.Stdin.empty() ? "" : " < " + R.Stdin) +
         ")";
}

std::string joinCommand(ArrayRef<std::string> Command) {
  std::string Text;
  for (const std::string &A : Command) {
    if (!Text.empty())
      Text += ' ';
    bool Plain = !A.empty() && all_of(A, [](char C) {
      return isAlnum(C) || StringRef("-_./=:,+%@").contains(C);
    });
    // As the shell reads it back: a quote inside is quoted too.
    Text += Plain ? A : shellQuote(A);
  }
  return Text;
}

Expected<std::unique_ptr<WorkspaceLock>>
WorkspaceLock::acquire(const Workspace &WS, std::chrono::milliseconds Timeout) {
  std::string Path = WS.path("lock");
  int FD;
  if (std::error_code EC = sys::fs::openFileForReadWrite(
          Path, FD, sys::fs::CD_OpenAlways, sys::fs::OF_None))
    return makeToolError("cannot open: " + EC.message(), Path,
                         "is the workspace read-only?");
  std::error_code EC = sys::fs::tryLockFile(FD, Timeout);
  if (EC) {
    ::close(FD);
    return makeToolError("the workspace is busy: another 'kiln pgo' "
                         "command holds its lock",
                         Path);
  }
  return std::unique_ptr<WorkspaceLock>(new WorkspaceLock(FD));
}

WorkspaceLock::~WorkspaceLock() {
  sys::fs::unlockFile(FD);
  ::close(FD);
}

namespace {
/// Copies kiln's standard input to a command's pipe and to a file, on a
/// thread of its own, while the command runs: the command sees a pipe, as
/// it would without kiln, and the file gets every byte the pipe was given.
/// It stops at the end of the input, when the command closes its end, or
/// when told the command has ended (the input may stay open, silent).
class StdinCopier {
public:
  StdinCopier(int PipeWrite, int CopyFile)
      : PipeWrite(PipeWrite), Copy(CopyFile) {
    if (::pipe2(Stop, O_CLOEXEC) != 0)
      Stop[0] = Stop[1] = -1;
    Thread = std::thread([this] { copy(); });
  }
  /// Call once the command has ended.
  bool finish() {
    if (Stop[1] >= 0) {
      char Byte = 0;
      (void)!::write(Stop[1], &Byte, 1);
    }
    Thread.join();
    for (int FD : Stop)
      if (FD >= 0)
        ::close(FD);
    return !CopyFailed;
  }

private:
  void copy() {
    char Buf[65536];
    for (;;) {
      struct pollfd FDs[2] = {{0, POLLIN, 0}, {Stop[0], POLLIN, 0}};
      int N = ::poll(FDs, Stop[0] >= 0 ? 2 : 1, -1);
      if (N < 0 && errno == EINTR)
        continue;
      if (N < 0 || (FDs[1].revents & POLLIN))
        break;
      ssize_t Got = ::read(0, Buf, sizeof(Buf));
      if (Got < 0 && errno == EINTR)
        continue;
      if (Got <= 0)
        break;
      if (!writeAll(Copy, Buf, Got))
        CopyFailed = true;
      if (!writeAll(PipeWrite, Buf, Got))
        break; // The command closed its standard input.
    }
    ::close(PipeWrite);
  }
  static bool writeAll(int FD, const char *Data, ssize_t Size) {
    while (Size > 0) {
      ssize_t Put = ::write(FD, Data, Size);
      if (Put < 0 && errno == EINTR)
        continue;
      if (Put <= 0)
        return false;
      Data += Put;
      Size -= Put;
    }
    return true;
  }

  int PipeWrite, Copy;
  int Stop[2] = {-1, -1};
  bool CopyFailed = false;
  std::thread Thread;
};
} // namespace

/// Runs \p Command (searched on PATH) with \p Overrides added to the
/// environment, in the foreground: Ctrl-C reaches the command, and kiln
/// waits for it and records the result (as system() does).
Expected<ProcessResult>
runProcess(ArrayRef<std::string> Command,
           ArrayRef<std::pair<std::string, std::string>> Overrides,
           StringRef Step, const ProcessSetup &Setup) {
  std::vector<std::string> EnvStorage;
  for (char **E = environ; *E; ++E) {
    StringRef Entry(*E);
    StringRef Key = Entry.split('=').first;
    if (none_of(Overrides, [&](const auto &KV) { return KV.first == Key; }))
      EnvStorage.push_back(Entry.str());
  }
  for (const auto &[Key, Value] : Overrides)
    EnvStorage.push_back(Key + "=" + Value);
  std::vector<char *> Envp, Argv;
  for (std::string &E : EnvStorage)
    Envp.push_back(E.data());
  Envp.push_back(nullptr);
  std::vector<std::string> ArgStorage(Command.begin(), Command.end());
  for (std::string &A : ArgStorage)
    Argv.push_back(A.data());
  Argv.push_back(nullptr);

  posix_spawnattr_t Attr;
  posix_spawnattr_init(&Attr);
  sigset_t Default;
  sigemptyset(&Default);
  sigaddset(&Default, SIGINT);
  sigaddset(&Default, SIGQUIT);
  posix_spawnattr_setsigdefault(&Attr, &Default);
  posix_spawnattr_setflags(&Attr, POSIX_SPAWN_SETSIGDEF);
  struct sigaction Ignore = {}, OldInt, OldQuit;
  Ignore.sa_handler = SIG_IGN;
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  if (!Setup.Cwd.empty())
    posix_spawn_file_actions_addchdir_np(&Actions, Setup.Cwd.c_str());
  if (!Setup.Stdin.empty())
    posix_spawn_file_actions_addopen(&Actions, 0, Setup.Stdin.c_str(), O_RDONLY,
                                     0);
  int CopyFD = -1;
  int Pipe[2] = {-1, -1};
  if (Setup.Stdin.empty() && !Setup.CopyStdinTo.empty()) {
    CopyFD = ::open(Setup.CopyStdinTo.c_str(),
                    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (CopyFD < 0 || ::pipe2(Pipe, O_CLOEXEC) != 0) {
      std::error_code EC(errno, std::generic_category());
      if (CopyFD >= 0)
        ::close(CopyFD);
      posix_spawn_file_actions_destroy(&Actions);
      posix_spawnattr_destroy(&Attr);
      sigaction(SIGINT, &OldInt, nullptr);
      sigaction(SIGQUIT, &OldQuit, nullptr);
      return makeToolError(Step +
                               ": cannot keep a copy of the standard "
                               "input: " +
                               EC.message(),
                           Setup.CopyStdinTo);
    }
    // dup2 clears close-on-exec on the command's fd 0 only.
    posix_spawn_file_actions_adddup2(&Actions, Pipe[0], 0);
  }
  if (!Setup.Stdout.empty())
    posix_spawn_file_actions_addopen(&Actions, 1, Setup.Stdout.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!Setup.Stderr.empty())
    posix_spawn_file_actions_addopen(&Actions, 2, Setup.Stderr.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t Pid;
  auto Start = std::chrono::steady_clock::now();
  int SpawnError = Setup.Executable.empty()
                       ? posix_spawnp(&Pid, Argv[0], &Actions, &Attr,
                                      Argv.data(), Envp.data())
                       : posix_spawn(&Pid, Setup.Executable.c_str(), &Actions,
                                     &Attr, Argv.data(), Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  std::optional<StdinCopier> Copier;
  struct sigaction OldPipe;
  if (CopyFD >= 0) {
    ::close(Pipe[0]);
    // A command that stops reading must not kill kiln with SIGPIPE.
    sigaction(SIGPIPE, &Ignore, &OldPipe);
    if (SpawnError)
      ::close(Pipe[1]);
    else
      Copier.emplace(Pipe[1], CopyFD);
  }
  ProcessResult R;
  int Status = 0;
  // wait4's usage covers the child and the descendants it waited for.
  struct rusage Usage = {};
  if (!SpawnError) {
    while (wait4(Pid, &Status, 0, &Usage) < 0 && errno == EINTR)
      ;
    R.WallSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    auto Seconds = [](const timeval &T) {
      return static_cast<double>(T.tv_sec) + T.tv_usec / 1e6;
    };
    R.CPUSeconds = Seconds(Usage.ru_utime) + Seconds(Usage.ru_stime);
    // Linux counts ru_maxrss in KiB.
    R.PeakRSSKiB = static_cast<uint64_t>(Usage.ru_maxrss);
  }
  bool CopyComplete = !Copier || Copier->finish();
  if (CopyFD >= 0) {
    CopyComplete &= ::close(CopyFD) == 0;
    sigaction(SIGPIPE, &OldPipe, nullptr);
  }
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  R.StdinCopied = CopyFD >= 0 && CopyComplete;
  if (SpawnError)
    return makeToolError(
        Step + ": cannot run: " +
            std::error_code(SpawnError, std::generic_category()).message(),
        Setup.Executable.empty() ? Command[0] : Setup.Executable);
  if (WIFSIGNALED(Status)) {
    R.Signaled = true;
    R.ExitStatus = 128 + WTERMSIG(Status);
  } else {
    R.ExitStatus = WEXITSTATUS(Status);
  }
  return R;
}

PgoLinkCost linkCost(StringRef Program, StringRef Link,
                     const ProcessResult &P) {
  return {Program.str(), Link.str(), P.WallSeconds, P.CPUSeconds, P.PeakRSSKiB};
}

std::string describeNow(const PgoFileStamp &Then) {
  Expected<PgoFileStamp> Now = stampFile(Then.Path, !Then.Hash.empty());
  if (!Now) {
    consumeError(Now.takeError());
    return "missing now";
  }
  if (Now->Hash == Then.Hash && Now->Size == Then.Size &&
      (!Then.Hash.empty() || Now->MTime == Then.MTime))
    return "unchanged";
  return "changed since";
}

unsigned countChangedSources(const PgoBuild &B, std::string &Example) {
  unsigned Changed = 0;
  for (const PgoFileStamp &S : B.Sources)
    if (describeNow(S) != "unchanged") {
      ++Changed;
      if (Example.empty())
        Example = S.Path;
    }
  return Changed;
}

/// Runs an LLVM tool quietly; its stderr goes into the error.
Error runTool(ArrayRef<std::string> Command, StringRef Step, StringRef Whence) {
  SmallString<128> ErrFile;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("kiln-pgo", "err", ErrFile))
    return makeToolError(
        Step + ": cannot create a temporary file: " + EC.message(), Whence);
  SmallVector<StringRef, 16> Argv(Command.begin(), Command.end());
  std::optional<StringRef> Redirects[] = {std::nullopt, StringRef(ErrFile),
                                          StringRef(ErrFile)};
  std::string ErrMsg;
  int RC = sys::ExecuteAndWait(Command[0], Argv, std::nullopt, Redirects, 0, 0,
                               &ErrMsg);
  std::string Output;
  if (ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(ErrFile))
    Output = (*Buf)->getBuffer().trim().str();
  sys::fs::remove(ErrFile);
  if (RC == 0)
    return Error::success();
  return makeToolError(Step + ": " + sys::path::filename(Command[0]) +
                           " failed" + (ErrMsg.empty() ? "" : ": " + ErrMsg) +
                           (Output.empty() ? "" : ":\n" + Output),
                       Whence);
}

/// Merges \p Inputs (optionally weighted) into \p Output atomically, in
/// process, as kiln profile merge does.
Error mergeProfiles(ArrayRef<std::string> Inputs, unsigned Weight,
                    StringRef Output, StringRef Step, bool Sparse) {
  std::vector<WeightedProfileInput> Weighted;
  for (const std::string &In : Inputs)
    Weighted.push_back({In, nullptr, Weight});
  Expected<MergedProfile> M =
      mergeInstrProfilesToFile(Weighted, Output, Sparse);
  if (!M)
    return makeToolError(Step + ": " + toString(M.takeError()), Output);
  return Error::success();
}

Error makeDirectory(StringRef Path, StringRef Step) {
  if (std::error_code EC = sys::fs::create_directories(Path))
    return makeToolError(Step +
                             ": cannot create the directory: " + EC.message(),
                         Path, "is the workspace read-only or full?");
  return Error::success();
}

/// \returns \p WS's directory with symbolic links resolved, or its absolute
/// path where it does not exist yet.
static std::string realWorkspacePath(const Workspace &WS) {
  SmallString<256> Real;
  if (sys::fs::real_path(WS.Root, Real))
    return WS.Root;
  return Real.str().str();
}

Expected<PgoManifest> loadManifest(const Workspace &WS, bool MustExist,
                                   StringRef Step) {
  std::string Path = WS.manifest();
  if (!sys::fs::exists(Path)) {
    if (MustExist)
      return makeToolError(Step + ": no kiln pgo workspace here",
                           WS.display(Path),
                           "start with 'kiln pgo instrument -- <build "
                           "command>' (or give --workspace=<dir>)");
    PgoManifest New;
    New.Workspace = realWorkspacePath(WS);
    return New;
  }
  Expected<PgoManifest> M = readManifest(Path);
  if (!M)
    return makeToolError(toString(M.takeError()));
  // The manifest names the builds' outputs, the runs' directories and the
  // programs by absolute path: in a copy of the tree (or a moved one) the
  // next phase would remove and replay the original tree's files. A
  // manifest from before the workspace was recorded gets it now.
  std::string Here = realWorkspacePath(WS);
  if (M->Workspace.empty())
    M->Workspace = Here;
  else if (M->Workspace != Here)
    return makeToolError(
        Step + ": this workspace was made as " + M->Workspace +
            " and has been copied or moved; it names that tree's builds, "
            "runs and programs",
        WS.display(Path),
        "run kiln pgo in the tree the workspace was made for, or start "
        "this tree's own: remove " +
            WS.display(WS.Root) +
            " and run 'kiln pgo instrument -- <build command>'");
  return M;
}

Error saveManifest(const Workspace &WS, const PgoManifest &M, StringRef Step) {
  if (Error E = writeManifest(WS.manifest(), M))
    return makeToolError(Step + ": " + toString(std::move(E)), "",
                         "is the workspace read-only or full?");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// The builds
//===----------------------------------------------------------------------===//

BuildLog readBuildLog(StringRef Path) {
  BuildLog Log;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return Log;
  StringSet<> Seen;
  SmallVector<StringRef, 0> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    if (Line.size() < 3 || Line[1] != ' ')
      continue;
    char Kind = Line[0];
    StringRef File = Line.drop_front(2);
    // A compile is a source compiled, with -c or in a link command.
    if (Kind == 'S')
      ++Log.Compiles;
    if (Kind == 'C')
      ++Log.Objects;
    if (Kind == 'L')
      ++Log.Links;
    if (!Seen.insert((Twine(Kind) + File).str()).second)
      continue;
    if (Kind == 'S')
      Log.Sources.push_back(File.str());
    if (Kind == 'C' || Kind == 'L')
      Log.Outputs.push_back(File.str());
    // CMake's compiler identification leaves its a.out behind, and Meson's
    // sanity check its sanitycheck*.exe: not the project's programs.
    if (Kind == 'L' && !File.contains("/CMakeFiles/") &&
        !File.contains("/meson-private/"))
      Log.Programs.push_back(File.str());
  }
  return Log;
}

/// \returns the path of the libtool object file (`dir/name.lo`) that
/// describes \p Object (`dir/name.o`, or `dir/.libs/name.o` for its PIC
/// copy), or "" if \p Object is not an object or has none.
static std::string libtoolObjectFor(StringRef Object) {
  if (!Object.ends_with(".o"))
    return "";
  SmallString<256> Dir = sys::path::parent_path(Object);
  if (sys::path::filename(Dir) == ".libs")
    sys::path::remove_filename(Dir);
  SmallString<256> Lo = Dir;
  sys::path::append(Lo, sys::path::stem(Object) + ".lo");
  // libtool writes the header `# name.lo - a libtool object file` itself;
  // anything else by that name is the project's and stays.
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Lo, /*IsText=*/true);
  if (!Buf ||
      !(*Buf)->getBuffer().take_front(256).contains("- a libtool object file"))
    return "";
  return std::string(Lo);
}

/// Removes the objects and programs that earlier phases compiled or linked
/// through the wrapper, so that the build system rebuilds them with this
/// phase's flags (they are up to date by its timestamps). An object that
/// libtool compiled goes with its `.lo` file: that, not the object, is the
/// Makefile's target, and while it stands make would neither compile the
/// source again nor rebuild the archive that holds the earlier phase's
/// objects. \returns how many files were removed.
unsigned removeEarlierOutputs(const Workspace &WS) {
  unsigned Removed = 0;
  auto RemoveRegularFile = [&Removed](StringRef File) {
    sys::fs::file_status Status;
    if (sys::fs::status(File, Status) ||
        Status.type() != sys::fs::file_type::regular_file)
      return;
    if (!sys::fs::remove(File))
      ++Removed;
  };
  for (const char *Phase : {"instrument", "optimize"}) {
    BuildLog Log = readBuildLog(WS.path(Twine(Phase) + "/build.log"));
    for (const std::string &File : Log.Outputs) {
      std::string Lo = libtoolObjectFor(File);
      RemoveRegularFile(File);
      if (!Lo.empty())
        RemoveRegularFile(Lo);
    }
  }
  return Removed;
}

Error writeWrapperDir(const Workspace &WS, const PgoEnvironment &Env) {
  std::string Bin = WS.path("bin");
  if (Error E = makeDirectory(Bin, "setup"))
    return E;
  std::string Wrapper = Env.KilnBinDir + "/kiln-cc";
  if (!sys::fs::exists(Wrapper))
    return makeToolError("setup: the compiler wrapper is missing", Wrapper,
                         "build the kiln-cc target");
  for (const char *Name :
       {"cc",           "gcc",         "clang",   "c++",        "g++",
        "clang++",      "ar",          "ranlib",  "nm",         "ld",
        "strip",        "objcopy",     "objdump", "readelf",    "llvm-ar",
        "llvm-ranlib",  "llvm-nm",     "ld.lld",  "llvm-strip", "llvm-objcopy",
        "llvm-objdump", "llvm-readelf"}) {
    std::string Link = Bin + "/" + Name;
    sys::fs::remove(Link);
    if (std::error_code EC = sys::fs::create_link(Wrapper, Link))
      return makeToolError("setup: cannot create the wrapper: " + EC.message(),
                           Link, "is the workspace read-only or full?");
  }
  return Error::success();
}

std::vector<std::pair<std::string, std::string>>
buildEnvironment(const Workspace &WS, StringRef Phase) {
  std::string Bin = WS.path("bin");
  const char *Path = ::getenv("PATH");
  return {{"PATH", Bin + (Path && *Path ? ":" + std::string(Path) : "")},
          {"CC", Bin + "/cc"},
          {"CXX", Bin + "/c++"},
          {"AR", Bin + "/ar"},
          {"RANLIB", Bin + "/ranlib"},
          {"NM", Bin + "/nm"},
          {"KILN_PGO_WORKSPACE", WS.Root},
          {"KILN_PGO_PHASE", Phase.str()},
          // Instrumented programs that the build itself runs (tests,
          // generators) write here; these profiles are never used.
          {"LLVM_PROFILE_FILE", WS.path("raw/build/%p-%m.profraw")}};
}

std::vector<std::string> flagsForStatus(const PgoPhaseFlags &F) {
  std::vector<std::string> Lines;
  auto Add = [&](StringRef What, ArrayRef<std::string> Flags) {
    if (!Flags.empty())
      Lines.push_back((What + ": " + joinCommand(Flags)).str());
  };
  Add("before the arguments", F.Leading);
  Add("compiles", F.Compile);
  Add("compiles of other sources", F.UnprofiledCompile);
  Add("links", F.Link);
  Add("links of the profiled programs", F.TargetLink);
  return Lines;
}

/// Runs one phase's build: wrapper configuration, the user's command,
/// the record of what it did. \p Targets are the profiled programs,
/// \p ProfiledSources the sources the profiles describe.
Expected<PgoBuild> runPhaseBuild(const Workspace &WS, const PgoEnvironment &Env,
                                 StringRef Phase, const PgoOptions &Opts,
                                 const PgoPhaseFlags &Flags,
                                 ArrayRef<std::string> Targets,
                                 ArrayRef<std::string> ProfiledSources,
                                 StringRef RelinkDir, StringRef ReportDir,
                                 raw_ostream &Out) {
  std::string PhaseDir = WS.path(Phase);
  if (Error E = makeDirectory(PhaseDir, Phase))
    return std::move(E);
  if (Error E = writeWrapperDir(WS, Env))
    return std::move(E);
  PgoWrapperConfig Config;
  Config.LLVMBinDir = Env.LLVMBinDir;
  Config.Flags = Flags;
  Config.Targets.assign(Targets.begin(), Targets.end());
  Config.ProfiledSources.assign(ProfiledSources.begin(), ProfiledSources.end());
  Config.RelinkDir = RelinkDir.str();
  Config.ReportDir = ReportDir.str();
  if (Error E = writeFileAtomically(PhaseDir + "/wrapper.conf",
                                    serializeWrapperConfig(Config)))
    return makeToolError(Phase + ": " + toString(std::move(E)));
  unsigned Removed = removeEarlierOutputs(WS);
  if (Error E = writeFileAtomically(PhaseDir + "/build.log", ""))
    return makeToolError(Phase + ": " + toString(std::move(E)));
  if (Removed)
    Out << "kiln: " << Phase << ": removed " << Removed
        << " object(s) and program(s) that the previous build wrote, so that "
           "the build makes them again\n";
  Out << "kiln: " << Phase << ": running " << joinCommand(Opts.Command) << '\n';
  Out.flush();

  PgoBuild B;
  B.Command = Opts.Command;
  B.Cwd = currentDir();
  B.Time = nowUTC();
  B.Options = Opts.Switches;
  B.Flags = flagsForStatus(Flags);
  if (Phase == "optimize")
    B.CompilePolicy = describeCompilePolicy(Opts.Transforms);
  Expected<ProcessResult> R =
      runProcess(Opts.Command, buildEnvironment(WS, Phase), Phase);
  sys::fs::remove_directories(WS.path("raw/build"));
  if (!R)
    return R.takeError();
  B.ExitStatus = R->ExitStatus;
  BuildLog Log = readBuildLog(PhaseDir + "/build.log");
  B.Compiles = std::max(Log.Compiles, Log.Objects);
  B.Links = Log.Links;
  // By content: a build that rewrites a source with the same text (CMake's
  // configure checks, check_ipo_supported's test sources, at every
  // configure) or touches it has not changed what the profiles describe.
  for (const std::string &Src : Log.Sources)
    if (Expected<PgoFileStamp> S = stampFile(Src, /*WithHash=*/true))
      B.Sources.push_back(std::move(*S));
    else
      consumeError(S.takeError());
  for (const std::string &Prog : Log.Programs) {
    // Not a configure check's, deleted since or linked to /dev/null.
    sys::fs::file_status Status;
    if (sys::fs::status(Prog, Status) ||
        Status.type() != sys::fs::file_type::regular_file)
      continue;
    if (Expected<PgoFileStamp> S = stampFile(Prog, /*WithHash=*/true))
      B.Programs.push_back(std::move(*S));
    else
      consumeError(S.takeError());
  }
  B.Succeeded = R->ExitStatus == 0;
  return B;
}

void printBuildSummary(StringRef Phase, const PgoBuild &B, const Workspace &WS,
                       raw_ostream &Out) {
  Out << "kiln: " << Phase << ": " << B.Compiles << " compile(s), " << B.Links
      << " link(s) through Kiln's wrappers; programs:";
  if (B.Programs.empty())
    Out << " none";
  for (const PgoFileStamp &P : B.Programs)
    Out << ' ' << WS.display(P.Path);
  Out << '\n';
}

Error buildFailure(StringRef Phase, const PgoBuild &B, const PgoManifest &M,
                   const Workspace &WS) {
  std::string Kept = M.Runs.empty()
                         ? std::string("nothing was collected yet")
                         : "the " + std::to_string(M.Runs.size()) +
                               " training run(s) recorded so far are kept in " +
                               WS.display(WS.Root);
  return makeToolError(Phase + ": the build command exited with status " +
                           Twine(B.ExitStatus) + "",
                       joinCommand(B.Command),
                       "fix the build and run '" + WS.command(Phase) +
                           "' again; " + Kept);
}

} // namespace kiln::pgo

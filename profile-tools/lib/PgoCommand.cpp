//===- PgoCommand.cpp - The work of kiln pgo ------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoCommand.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"

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
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace llvm;
using namespace kiln;

static const char *const DefaultWorkspace = ".kiln";

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

namespace {
struct PgoOptions {
  std::string Subcommand;
  std::string Workspace = DefaultWorkspace;
  std::string Scenario;
  bool KeepFailed = false;
  PgoTransforms Transforms;
  std::vector<std::string> Switches; ///< The optimize switches, as given.
  std::vector<std::string> Command;  ///< After `--`.
  bool HasCommand = false;
};
} // namespace

static const char *const Usage =
    "usage: kiln pgo instrument [--workspace=DIR] -- <build command>\n"
    "       kiln pgo run --scenario=NAME [--keep-failed] [--workspace=DIR] "
    "-- <command>\n"
    "       kiln pgo optimize [--no-split] [--no-order] [--no-cs] [--no-lto] "
    "[--workspace=DIR] -- <build command>\n"
    "       kiln pgo status [--workspace=DIR]\n"
    "(see docs/CommandGuide/kiln-pgo.rst)\n";

static Expected<PgoOptions> parsePgoArgs(ArrayRef<std::string> Args) {
  PgoOptions O;
  if (Args.empty())
    return makeToolError("no subcommand (instrument, run, optimize, status)",
                         "pgo", "run 'kiln pgo --help'");
  O.Subcommand = Args[0];
  if (!is_contained({"instrument", "run", "optimize", "status"}, O.Subcommand))
    return makeToolError("unknown subcommand '" + O.Subcommand +
                             "' (known: instrument, run, optimize, status)",
                         "pgo", "run 'kiln pgo --help'");
  bool IsRun = O.Subcommand == "run", IsOptimize = O.Subcommand == "optimize";
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--") {
      O.HasCommand = true;
      O.Command.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    auto Value = [&](StringRef Name, std::string &Field) -> bool {
      if (A.consume_front(Name)) {
        if (A.consume_front("=")) {
          Field = A.str();
          return true;
        }
        if (A.empty() && I + 1 < Args.size()) {
          Field = Args[++I];
          return true;
        }
      }
      A = Args[I];
      return false;
    };
    if (Value("--workspace", O.Workspace))
      continue;
    if (IsRun && Value("--scenario", O.Scenario))
      continue;
    if (IsRun && A == "--keep-failed") {
      O.KeepFailed = true;
      continue;
    }
    if (IsOptimize && (A == "--no-split" || A == "--no-order" ||
                       A == "--no-lto" || A == "--no-cs")) {
      O.Switches.push_back(A.str());
      (A == "--no-split"   ? O.Transforms.Split
       : A == "--no-order" ? O.Transforms.Order
       : A == "--no-cs"    ? O.Transforms.ContextSensitive
                           : O.Transforms.ThinLTO) = false;
      continue;
    }
    return makeToolError("unknown option '" + A + "' for 'kiln pgo " +
                             O.Subcommand + "'",
                         "pgo " + O.Subcommand, "run 'kiln pgo --help'");
  }
  if (O.Workspace.empty())
    return makeToolError("needs a directory", "--workspace");
  if (O.Subcommand == "status") {
    if (O.HasCommand)
      return makeToolError("takes no command", "pgo status");
    return O;
  }
  if (!O.HasCommand || O.Command.empty())
    return makeToolError("no command given after '--'", "pgo " + O.Subcommand,
                         IsRun ? "kiln pgo run --scenario=<name> -- <program> "
                                 "<arguments>"
                               : "kiln pgo " + O.Subcommand +
                                     " -- <the project's build command>");
  if (IsRun) {
    if (O.Scenario.empty())
      return makeToolError("needs --scenario=<name> (startup for the startup "
                           "scenario; any other name is a steady state)",
                           "pgo run");
    if (Error E = checkScenarioName(O.Scenario))
      return makeToolError(toString(std::move(E)), "--scenario");
  }
  return O;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static std::string nowUTC() {
  std::time_t T = std::time(nullptr);
  std::tm TM;
  gmtime_r(&T, &TM);
  char Buffer[32];
  std::strftime(Buffer, sizeof(Buffer), "%Y-%m-%dT%H:%M:%SZ", &TM);
  return Buffer;
}

static std::string currentDir() {
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return ".";
  return Cwd.str().str();
}

static std::string joinCommand(ArrayRef<std::string> Command) {
  std::string Text;
  for (const std::string &A : Command) {
    if (!Text.empty())
      Text += ' ';
    bool Plain = !A.empty() && all_of(A, [](char C) {
      return isAlnum(C) || StringRef("-_./=:,+%@").contains(C);
    });
    Text += Plain ? A : "'" + A + "'";
  }
  return Text;
}

/// The workspace's paths.
namespace {
struct Workspace {
  std::string Root; ///< Absolute.
  explicit Workspace(StringRef Dir) {
    SmallString<256> P(Dir);
    sys::fs::make_absolute(P);
    sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Root = P.str().str();
  }
  std::string path(const Twine &Rel) const { return (Root + "/" + Rel).str(); }
  std::string manifest() const { return path("manifest.json"); }
  /// \returns \p Abs relative to the workspace's parent when inside it, for
  /// shorter messages.
  std::string display(StringRef Abs) const {
    StringRef Parent = sys::path::parent_path(Root);
    StringRef Rel = Abs;
    if (!Parent.empty() && Rel.consume_front(Parent) &&
        Rel.consume_front("/") && Parent == currentDir())
      return Rel.str();
    return Abs.str();
  }
};

/// An exclusive lock on `<workspace>/lock`, held for its lifetime.
class WorkspaceLock {
public:
  static Expected<std::unique_ptr<WorkspaceLock>>
  acquire(const Workspace &WS, std::chrono::milliseconds Timeout) {
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
  ~WorkspaceLock() {
    sys::fs::unlockFile(FD);
    ::close(FD);
  }

private:
  explicit WorkspaceLock(int FD) : FD(FD) {}
  int FD;
};
} // namespace

/// An exit status as a shell shows it: 128+N for signal N.
namespace {
struct ProcessResult {
  int ExitStatus = 0;
  bool Signaled = false;
};
} // namespace

/// Where a process runs and what its standard streams are ("": kiln's).
namespace {
struct ProcessSetup {
  std::string Cwd;
  std::string Stdin, Stdout, Stderr;
};
} // namespace

/// Runs \p Command (searched on PATH) with \p Overrides added to the
/// environment, in the foreground: Ctrl-C reaches the command, and kiln
/// waits for it and records the result (as system() does).
static Expected<ProcessResult>
runProcess(ArrayRef<std::string> Command,
           ArrayRef<std::pair<std::string, std::string>> Overrides,
           StringRef Step, const ProcessSetup &Setup = {}) {
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
  if (!Setup.Stdout.empty())
    posix_spawn_file_actions_addopen(&Actions, 1, Setup.Stdout.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!Setup.Stderr.empty())
    posix_spawn_file_actions_addopen(&Actions, 2, Setup.Stderr.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t Pid;
  int SpawnError =
      posix_spawnp(&Pid, Argv[0], &Actions, &Attr, Argv.data(), Envp.data());
  posix_spawn_file_actions_destroy(&Actions);
  posix_spawnattr_destroy(&Attr);
  ProcessResult R;
  int Status = 0;
  if (!SpawnError)
    while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
      ;
  sigaction(SIGINT, &OldInt, nullptr);
  sigaction(SIGQUIT, &OldQuit, nullptr);
  if (SpawnError)
    return makeToolError(
        Step + ": cannot run: " +
            std::error_code(SpawnError, std::generic_category()).message(),
        Command[0]);
  if (WIFSIGNALED(Status)) {
    R.Signaled = true;
    R.ExitStatus = 128 + WTERMSIG(Status);
  } else {
    R.ExitStatus = WEXITSTATUS(Status);
  }
  return R;
}

/// Runs an LLVM tool quietly; its stderr goes into the error.
static Error runTool(ArrayRef<std::string> Command, StringRef Step,
                     StringRef Whence) {
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

/// Merges \p Inputs (optionally weighted) into \p Output atomically.
static Error mergeProfiles(const PgoEnvironment &Env,
                           ArrayRef<std::string> Inputs, unsigned Weight,
                           StringRef Output, StringRef Step) {
  std::string Temp = (Output + ".tmp-" + Twine(::getpid())).str();
  std::vector<std::string> Cmd = {Env.LLVMBinDir + "/llvm-profdata", "merge",
                                  "-o", Temp};
  for (const std::string &In : Inputs)
    Cmd.push_back(Weight > 1
                      ? "--weighted-input=" + std::to_string(Weight) + "," + In
                      : In);
  if (Error E = runTool(Cmd, Step, Output)) {
    sys::fs::remove(Temp);
    return E;
  }
  if (std::error_code EC = sys::fs::rename(Temp, Output)) {
    sys::fs::remove(Temp);
    return makeToolError(Step + ": cannot write: " + EC.message(), Output);
  }
  return Error::success();
}

static Error makeDirectory(StringRef Path, StringRef Step) {
  if (std::error_code EC = sys::fs::create_directories(Path))
    return makeToolError(Step +
                             ": cannot create the directory: " + EC.message(),
                         Path, "is the workspace read-only or full?");
  return Error::success();
}

static Expected<PgoManifest> loadManifest(const Workspace &WS, bool MustExist,
                                          StringRef Step) {
  std::string Path = WS.manifest();
  if (!sys::fs::exists(Path)) {
    if (MustExist)
      return makeToolError(Step + ": no kiln pgo workspace here",
                           WS.display(Path),
                           "start with 'kiln pgo instrument -- <build "
                           "command>' (or give --workspace=<dir>)");
    return PgoManifest();
  }
  Expected<PgoManifest> M = readManifest(Path);
  if (!M)
    return makeToolError(toString(M.takeError()));
  return M;
}

static Error saveManifest(const Workspace &WS, const PgoManifest &M,
                          StringRef Step) {
  if (Error E = writeManifest(WS.manifest(), M))
    return makeToolError(Step + ": " + toString(std::move(E)), "",
                         "is the workspace read-only or full?");
  return Error::success();
}

//===----------------------------------------------------------------------===//
// The builds
//===----------------------------------------------------------------------===//

/// What a phase's build.log says the build did.
namespace {
struct BuildLog {
  unsigned Compiles = 0, Objects = 0, Links = 0;
  std::vector<std::string> Sources, Outputs, Programs;
};
} // namespace

static BuildLog readBuildLog(StringRef Path) {
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
    // CMake's compiler identification leaves its a.out behind; it is not
    // one of the project's programs.
    if (Kind == 'L' && !File.contains("/CMakeFiles/"))
      Log.Programs.push_back(File.str());
  }
  return Log;
}

/// Removes the objects and programs that earlier phases compiled or linked
/// through the wrapper, so that the build system rebuilds them with this
/// phase's flags (they are up to date by its timestamps). \returns how many.
static unsigned removeEarlierOutputs(const Workspace &WS) {
  unsigned Removed = 0;
  for (const char *Phase : {"instrument", "optimize"}) {
    BuildLog Log = readBuildLog(WS.path(Twine(Phase) + "/build.log"));
    for (const std::string &File : Log.Outputs) {
      sys::fs::file_status Status;
      if (sys::fs::status(File, Status) ||
          Status.type() != sys::fs::file_type::regular_file)
        continue;
      if (!sys::fs::remove(File))
        ++Removed;
    }
  }
  return Removed;
}

static Error writeWrapperDir(const Workspace &WS, const PgoEnvironment &Env) {
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

static std::vector<std::pair<std::string, std::string>>
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

static std::vector<std::string> flagsForStatus(const PgoPhaseFlags &F) {
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
static Expected<PgoBuild> runPhaseBuild(const Workspace &WS,
                                        const PgoEnvironment &Env,
                                        StringRef Phase, const PgoOptions &Opts,
                                        const PgoPhaseFlags &Flags,
                                        ArrayRef<std::string> Targets,
                                        ArrayRef<std::string> ProfiledSources,
                                        StringRef RelinkDir, raw_ostream &Out) {
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
  Expected<ProcessResult> R =
      runProcess(Opts.Command, buildEnvironment(WS, Phase), Phase);
  sys::fs::remove_directories(WS.path("raw/build"));
  if (!R)
    return R.takeError();
  B.ExitStatus = R->ExitStatus;
  BuildLog Log = readBuildLog(PhaseDir + "/build.log");
  B.Compiles = std::max(Log.Compiles, Log.Objects);
  B.Links = Log.Links;
  for (const std::string &Src : Log.Sources)
    if (Expected<PgoFileStamp> S = stampFile(Src, /*WithHash=*/false))
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

static void printBuildSummary(StringRef Phase, const PgoBuild &B,
                              const Workspace &WS, raw_ostream &Out) {
  Out << "kiln: " << Phase << ": " << B.Compiles << " compile(s), " << B.Links
      << " link(s) through Kiln's wrappers; programs:";
  if (B.Programs.empty())
    Out << " none";
  for (const PgoFileStamp &P : B.Programs)
    Out << ' ' << WS.display(P.Path);
  Out << '\n';
}

static Error buildFailure(StringRef Phase, const PgoBuild &B,
                          const PgoManifest &M, const Workspace &WS) {
  std::string Kept = M.Runs.empty()
                         ? std::string("nothing was collected yet")
                         : "the " + std::to_string(M.Runs.size()) +
                               " training run(s) recorded so far are kept in " +
                               WS.display(WS.Root);
  return makeToolError(Phase + ": the build command exited with status " +
                           Twine(B.ExitStatus) + "",
                       joinCommand(B.Command),
                       "fix the build and run 'kiln pgo " + Phase +
                           "' again; " + Kept);
}

//===----------------------------------------------------------------------===//
// kiln pgo instrument
//===----------------------------------------------------------------------===//

static Error instrumentMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                            raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  if (Error E = makeDirectory(WS.Root, "instrument"))
    return E;
  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::milliseconds(0));
  if (!Lock)
    return Lock.takeError();
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/false, "instrument");
  if (!M)
    return M.takeError();
  M->KilnVersion = Env.KilnVersion;
  ++M->Generation;
  M->Phase = "instrument-failed";
  M->Optimize.reset();
  if (Error E = makeDirectory(WS.path("raw"), "instrument"))
    return E;
  if (Error E = saveManifest(WS, *M, "instrument"))
    return E;

  PgoToolPaths Tools{Env.LLVMBinDir, Env.KilnBinDir + "/kiln-lld", Env.Plugin};
  PgoPhaseFlags Flags = computeInstrumentFlags(Tools, WS.path("raw/untracked"));
  Expected<PgoBuild> B =
      runPhaseBuild(WS, Env, "instrument", Opts, Flags, {}, {}, "", Out);
  if (!B)
    return B.takeError();
  B->Generation = M->Generation;
  M->Instrument = *B;
  if (!B->Succeeded) {
    if (Error E = saveManifest(WS, *M, "instrument"))
      return E;
    return buildFailure("instrument", *B, *M, WS);
  }
  if (B->Compiles == 0) {
    B->Succeeded = M->Instrument->Succeeded = false;
    if (Error E = saveManifest(WS, *M, "instrument"))
      return E;
    return makeToolError(
        "instrument: the build compiled nothing through Kiln's wrappers",
        joinCommand(B->Command),
        "start from a clean tree (make clean, a new CMake build directory), "
        "and let the build use $CC/$CXX or cc, gcc, c++, g++, clang, clang++ "
        "from PATH");
  }
  M->Phase = "instrumented";
  if (Error E = saveManifest(WS, *M, "instrument"))
    return E;
  printBuildSummary("instrument", *B, WS, Out);
  Out << "kiln: instrument: next, train it: kiln pgo run --scenario=startup "
         "-- <command>, kiln pgo run --scenario=<name> -- <command>\n";
  return Error::success();
}

//===----------------------------------------------------------------------===//
// kiln pgo run
//===----------------------------------------------------------------------===//

static std::string scenarioProfile(const Workspace &WS, StringRef Scenario) {
  return WS.path("profiles/scenario-" + Scenario + ".profdata");
}

static Error runMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                     raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  unsigned Generation;
  {
    Expected<std::unique_ptr<WorkspaceLock>> Lock =
        WorkspaceLock::acquire(WS, std::chrono::milliseconds(2000));
    Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "run");
    if (!M) {
      if (Lock)
        return M.takeError();
      consumeError(Lock.takeError());
      return M.takeError();
    }
    if (!Lock)
      return Lock.takeError();
    if (!M->Instrument || !M->Instrument->Succeeded)
      return makeToolError("run: there is no instrumented build to train",
                           WS.display(WS.manifest()),
                           "run 'kiln pgo instrument -- <build command>' "
                           "first");
    Generation = M->Generation;
  }

  // The run's raw profiles go to a directory of their own, renamed into
  // place once the run is over: an interrupted run never reaches a merge.
  std::string Pending =
      WS.path("raw/" + Opts.Scenario + "/pending-" + Twine(::getpid()));
  sys::fs::remove_directories(Pending);
  if (Error E = makeDirectory(Pending, "run"))
    return E;

  std::optional<PgoFileStamp> Program;
  {
    std::string Exe = Opts.Command[0];
    if (StringRef(Exe).contains('/')) {
      Exe = makeAbsoluteLexically(Exe, currentDir());
    } else if (ErrorOr<std::string> Found = sys::findProgramByName(Exe)) {
      Exe = *Found;
    }
    if (Expected<PgoFileStamp> S = stampFile(Exe, /*WithHash=*/true))
      Program = std::move(*S);
    else
      consumeError(S.takeError());
  }

  PgoRun Run;
  // A training input given as a file (`< workload`) is replayed by the
  // context-sensitive relink; a pipe or a terminal cannot be.
  struct stat StdinStat;
  if (::fstat(0, &StdinStat) == 0 && S_ISREG(StdinStat.st_mode)) {
    SmallString<256> StdinPath;
    if (!sys::fs::real_path("/proc/self/fd/0", StdinPath))
      Run.Stdin = StdinPath.str().str();
  }
  Run.Scenario = Opts.Scenario;
  Run.Command = Opts.Command;
  Run.Cwd = currentDir();
  Run.Time = nowUTC();
  Run.Generation = Generation;
  Run.Program = Program;
  Expected<ProcessResult> R = runProcess(
      Opts.Command, {{"LLVM_PROFILE_FILE", Pending + "/%p-%m.profraw"}}, "run");
  if (!R) {
    sys::fs::remove_directories(Pending);
    sys::fs::remove(sys::path::parent_path(Pending)); // If empty.
    return R.takeError();
  }
  Run.ExitStatus = R->ExitStatus;

  std::vector<std::string> Raws;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Pending, EC), End; It != End && !EC;
       It.increment(EC))
    if (StringRef(It->path()).ends_with(".profraw"))
      Raws.push_back(sys::path::filename(It->path()).str());
  llvm::sort(Raws);

  Run.Outcome = R->Signaled          ? "signal"
                : R->ExitStatus != 0 ? "failed"
                : Raws.empty()       ? "no-profile"
                                     : "ok";
  Run.Used = !Raws.empty() && (Run.Outcome == "ok" ||
                               (Run.Outcome == "failed" && Opts.KeepFailed));

  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::minutes(10));
  if (!Lock)
    return Lock.takeError();
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "run");
  if (!M)
    return M.takeError();
  Run.Id = 1;
  for (const PgoRun &Other : M->Runs)
    Run.Id = std::max(Run.Id, Other.Id + 1);
  if (M->Generation != Generation)
    Run.Used = false; // Instrumented again meanwhile.

  std::string Dir;
  if (!Raws.empty()) {
    std::string Rel = ("raw/" + Opts.Scenario + "/" +
                       (Run.Used ? "run-" : "failed-") + Twine(Run.Id))
                          .str();
    Dir = WS.path(Rel);
    if (std::error_code EC = sys::fs::rename(Pending, Dir))
      return makeToolError("run: cannot keep the raw profiles: " + EC.message(),
                           Dir);
    for (const std::string &Raw : Raws)
      Run.RawProfiles.push_back(Rel + "/" + Raw);
  } else {
    sys::fs::remove_directories(Pending);
  }

  std::string Profile = scenarioProfile(WS, Opts.Scenario);
  std::string MergeError;
  if (Run.Used) {
    std::vector<std::string> Inputs;
    for (const PgoRun *Used : M->usedRuns(Opts.Scenario))
      for (const std::string &Raw : Used->RawProfiles)
        Inputs.push_back(WS.path(Raw));
    for (const std::string &Raw : Run.RawProfiles)
      Inputs.push_back(WS.path(Raw));
    if (Error E = makeDirectory(WS.path("profiles"), "run"))
      return E;
    if (Error E = mergeProfiles(Env, Inputs, 1, Profile, "run: merge")) {
      // A profile llvm-profdata cannot read is not used; the scenario's
      // profile stays as it was.
      MergeError = toString(std::move(E));
      Run.Used = false;
      Run.Outcome = "bad-profile";
      std::string Rel =
          ("raw/" + Opts.Scenario + "/failed-" + Twine(Run.Id)).str();
      if (!sys::fs::rename(Dir, WS.path(Rel))) {
        Run.RawProfiles.clear();
        for (const std::string &Raw : Raws)
          Run.RawProfiles.push_back(Rel + "/" + Raw);
      }
    }
  }
  M->Runs.push_back(Run);
  if (Error E = saveManifest(WS, *M, "run"))
    return E;

  std::string What =
      "run " + std::to_string(Run.Id) + " of scenario '" + Opts.Scenario + "'";
  if (Run.Used) {
    Out << "kiln: run: " << What << ": exit status " << Run.ExitStatus << ", "
        << Run.RawProfiles.size() << " raw profile(s); " << WS.display(Profile)
        << " now holds " << M->usedRuns(Opts.Scenario).size() << " run(s)\n";
    return Error::success();
  }
  std::string Where =
      Run.RawProfiles.empty()
          ? std::string("it wrote no profile")
          : "its raw profiles are kept in " +
                WS.display(
                    WS.path(sys::path::parent_path(Run.RawProfiles[0]))) +
                " but not used";
  if (Run.Outcome == "bad-profile")
    return makeToolError("run: " + What + ": its profile cannot be merged; " +
                             Where + "\n" + MergeError,
                         joinCommand(Opts.Command));
  if (Run.Outcome == "signal")
    return makeToolError("run: " + What + " was killed by signal " +
                             Twine(Run.ExitStatus - 128) + " (exit status " +
                             Twine(Run.ExitStatus) + "); " + Where,
                         joinCommand(Opts.Command));
  if (Run.Outcome == "failed")
    return makeToolError("run: " + What + " exited with status " +
                             Twine(Run.ExitStatus) + "; " + Where,
                         joinCommand(Opts.Command),
                         "fix the command, or give --keep-failed to use the "
                         "profile of a run that fails on purpose");
  return makeToolError("run: " + What +
                           " exited with status 0 but wrote no "
                           "profile: is it a program of the "
                           "instrumented build?",
                       joinCommand(Opts.Command),
                       M->Phase == "optimized"
                           ? "the build now holds the optimized programs: run "
                             "'kiln pgo instrument' again to collect more"
                           : "run a program that 'kiln pgo instrument' built");
}

//===----------------------------------------------------------------------===//
// kiln pgo optimize
//===----------------------------------------------------------------------===//

/// A link of a profiled program as the wrapper recorded it.
namespace {
struct RecordedLink {
  std::string Target, Cwd, Compiler;
  std::vector<std::string> Args;
};
} // namespace

static std::vector<RecordedLink>
readRecordedLinks(StringRef RelinkDir, ArrayRef<std::string> Targets) {
  std::vector<RecordedLink> Links;
  for (size_t I = 0; I < Targets.size(); ++I) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(RelinkDir + "/" + Twine(I) + ".args");
    if (!Buf)
      continue;
    SmallVector<StringRef, 0> Lines;
    (*Buf)->getBuffer().split(Lines, '\n');
    if (Lines.size() < 2)
      continue;
    RecordedLink L;
    L.Target = Targets[I];
    L.Cwd = Lines[0].str();
    L.Compiler = Lines[1].str();
    // The file ends with a newline: the last piece is empty.
    for (size_t J = 2; J + 1 < Lines.size(); ++J)
      L.Args.push_back(Lines[J].str());
    Links.push_back(std::move(L));
  }
  return Links;
}

/// Why the context-sensitive relink cannot take place.
static Error fallbackError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

/// Replays the used training runs on the context-sensitive build and merges
/// each scenario's CS profile into \p Profiles (Startup and Steady).
/// \returns an error saying why the relink falls back if it cannot.
static Error replayForContextSensitiveProfiles(
    const Workspace &WS, const PgoEnvironment &Env, const PgoManifest &M,
    PgoProfiles &Profiles, unsigned &Replays, raw_ostream &Out) {
  std::vector<std::string> Steady;
  Profiles.Startup.clear();
  Profiles.Steady.clear();
  for (const std::string &S : M.usableScenarios()) {
    std::vector<std::string> Texts;
    for (const PgoRun *R : M.usedRuns(S)) {
      std::string Dir = WS.path("raw/cs/" + S + "/run-" + Twine(R->Id));
      sys::fs::remove_directories(Dir);
      if (std::error_code EC = sys::fs::create_directories(Dir))
        return fallbackError(Dir +
                             ": cannot create the directory: " + EC.message());
      ProcessSetup Setup;
      Setup.Cwd = R->Cwd;
      Setup.Stdin = R->Stdin.empty() ? "/dev/null" : R->Stdin;
      Setup.Stdout = "/dev/null";
      Setup.Stderr = Dir + "/stderr.txt";
      std::string What = "run " + std::to_string(R->Id) + " of scenario '" + S +
                         "' (" + joinCommand(R->Command) + ")";
      Expected<ProcessResult> P = runProcess(
          R->Command, {{"LLVM_PROFILE_FILE", Dir + "/%p-%m.profraw"}},
          "optimize: replay", Setup);
      if (!P)
        return fallbackError("replaying " + What + ": " +
                             toString(P.takeError()));
      if (P->ExitStatus != R->ExitStatus)
        return fallbackError(
            "replaying " + What + " exited with status " +
            std::to_string(P->ExitStatus) + ", the training run with " +
            std::to_string(R->ExitStatus) + " (see " + Setup.Stderr + ")");
      ++Replays;
      Out << "kiln: optimize: replayed " << What
          << " on the context-sensitive build\n";
      std::error_code EC;
      for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
           It.increment(EC)) {
        StringRef Raw = It->path();
        if (!Raw.ends_with(".profraw"))
          continue;
        // Objects instrumented at link time only write a profile flagged
        // front-end, which the ThinLTO backends would ignore; as text with
        // the :csir header it is the context-sensitive profile it is.
        std::string Text = (Raw + ".proftext").str();
        if (Error E = runTool({Env.LLVMBinDir + "/llvm-profdata", "merge",
                               "--text", "-o", Text, Raw.str()},
                              "optimize: read the CS profile", Raw))
          return fallbackError(toString(std::move(E)));
        ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
            MemoryBuffer::getFile(Text);
        if (!Buf)
          return fallbackError(Text + ": cannot read");
        if (Error E = writeFileAtomically(
                Text, (":csir\n" + (*Buf)->getBuffer()).str()))
          return fallbackError(toString(std::move(E)));
        Texts.push_back(Text);
      }
    }
    if (Texts.empty())
      return fallbackError("the replays of scenario '" + S +
                           "' wrote no context-sensitive profile");
    std::string Profile = WS.path("profiles/cs-scenario-" + S + ".profdata");
    if (Error E = mergeProfiles(Env, Texts, 1, Profile,
                                "optimize: merge the CS profile"))
      return fallbackError(toString(std::move(E)));
    if (isStartupScenario(S))
      Profiles.Startup = Profile;
    else
      Steady.push_back(Profile);
  }
  if (Steady.size() == 1) {
    Profiles.Steady = Steady[0];
  } else if (Steady.size() > 1) {
    Profiles.Steady = WS.path("profiles/cs-steady.profdata");
    if (Error E = mergeProfiles(Env, Steady, 1, Profiles.Steady,
                                "optimize: merge the CS steady scenarios"))
      return fallbackError(toString(std::move(E)));
  }
  return Error::success();
}

/// The context-sensitive relink after the optimize build: replay, merge,
/// link each profiled program again. If the replay fails, the programs are
/// linked with the training profiles instead, with a warning.
static Error contextSensitiveRelink(
    const Workspace &WS, const PgoEnvironment &Env, const PgoManifest &M,
    const PgoToolPaths &Tools, const PgoProfiles &Training,
    const PgoTransforms &Transforms, ArrayRef<std::string> Targets,
    const PgoWrapperConfig &Final, StringRef RelinkDir, PgoBuild &B,
    raw_ostream &Out, raw_ostream &Err) {
  std::vector<RecordedLink> Links = readRecordedLinks(RelinkDir, Targets);
  if (Links.empty()) {
    B.ContextSensitive = "no profiled program was linked";
    return Error::success();
  }
  // A build may copy a program it linked (zstd's Makefile links
  // obj/<hash>/zstd and copies it to zstd): a program a training run ran
  // whose bytes are a linked program's is such a copy, and gets the final
  // link's bytes too.
  std::vector<std::pair<std::string, std::string>> Copies; // (copy, target)
  {
    StringMap<std::string> TargetByHash;
    for (const RecordedLink &L : Links)
      if (Expected<PgoFileStamp> S = stampFile(L.Target, /*WithHash=*/true))
        TargetByHash[S->Hash] = L.Target;
      else
        consumeError(S.takeError());
    for (const PgoRun &R : M.Runs) {
      if (!R.Program || R.Generation != M.Generation ||
          is_contained(Targets, R.Program->Path) ||
          any_of(Copies,
                 [&](const auto &C) { return C.first == R.Program->Path; }))
        continue;
      Expected<PgoFileStamp> S = stampFile(R.Program->Path, /*WithHash=*/true);
      if (!S) {
        consumeError(S.takeError());
        continue;
      }
      auto It = TargetByHash.find(S->Hash);
      if (It != TargetByHash.end())
        Copies.emplace_back(R.Program->Path, It->second);
    }
  }
  PgoProfiles CS = Training;
  std::string Failure;
  if (Error E =
          replayForContextSensitiveProfiles(WS, Env, M, CS, B.Replays, Out))
    Failure = toString(std::move(E));
  const PgoProfiles &Use = Failure.empty() ? CS : Training;
  if (!Failure.empty())
    Err << "kiln: warning: optimize: context-sensitive profiles: " << Failure
        << "; linking with the training profiles instead\n";
  PgoPhaseFlags Flags = computeOptimizeFlags(Tools, Use, Transforms);
  for (const RecordedLink &L : Links) {
    std::vector<std::string> Sources;
    for (const std::string &Src : classifyCompilerArgs(L.Args).Sources)
      Sources.push_back(makeAbsoluteLexically(Src, L.Cwd));
    std::vector<std::string> Cmd =
        composeCompilerCommand(L.Compiler, L.Args, Flags, /*IsTarget=*/true,
                               Final.areProfiled(Sources));
    ProcessSetup Setup;
    Setup.Cwd = L.Cwd;
    Setup.Stdout = Setup.Stderr =
        WS.path("optimize/relink/" + sys::path::filename(L.Target) + ".log");
    Out << "kiln: optimize: linking " << WS.display(L.Target) << " again\n";
    Expected<ProcessResult> P = runProcess(Cmd, {}, "optimize: relink", Setup);
    if (!P)
      return P.takeError();
    if (P->ExitStatus != 0)
      return makeToolError("optimize: the final link exited with status " +
                               Twine(P->ExitStatus) + " (its output is in " +
                               Setup.Stdout + ")",
                           WS.display(L.Target));
    for (PgoFileStamp &Prog : B.Programs) {
      if (Prog.Path != L.Target)
        continue;
      if (Expected<PgoFileStamp> S = stampFile(L.Target, /*WithHash=*/true))
        Prog = std::move(*S);
      else
        consumeError(S.takeError());
    }
  }
  for (const auto &[Copy, Target] : Copies) {
    Out << "kiln: optimize: " << WS.display(Copy) << " is the build's copy of "
        << WS.display(Target) << ": copying the final link over it\n";
    std::string Temp = Copy + ".kiln-tmp";
    if (std::error_code EC = sys::fs::copy_file(Target, Temp))
      return makeToolError(
          "optimize: cannot copy the final link: " + EC.message(), Temp);
    if (ErrorOr<sys::fs::perms> Perms = sys::fs::getPermissions(Target))
      sys::fs::setPermissions(Temp, *Perms);
    if (std::error_code EC = sys::fs::rename(Temp, Copy))
      return makeToolError("optimize: cannot replace the copy: " + EC.message(),
                           Copy);
  }
  B.Flags = flagsForStatus(Flags);
  B.ContextSensitive = Failure.empty() ? "done" : Failure;
  return Error::success();
}

static Error optimizeMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                          raw_ostream &Out, raw_ostream &Err) {
  Workspace WS(Opts.Workspace);
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "optimize");
  if (!M)
    return M.takeError();
  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::milliseconds(0));
  if (!Lock)
    return Lock.takeError();
  if (!M->Instrument || !M->Instrument->Succeeded)
    return makeToolError("optimize: there is no instrumented build",
                         WS.display(WS.manifest()),
                         "run 'kiln pgo instrument -- <build command>' first");
  std::vector<std::string> Scenarios = M->usableScenarios();
  if (Scenarios.empty())
    return makeToolError("optimize: no training run of the instrumented build "
                         "has a usable profile",
                         WS.display(WS.manifest()),
                         "run 'kiln pgo run --scenario=<name> -- <command>' "
                         "first (--scenario=startup for the startup)");

  // The profiles: the startup scenario's, every other scenario merged (the
  // steady state), and all of them for the compile.
  PgoProfiles Profiles;
  std::vector<std::string> Steady, All;
  for (const std::string &S : Scenarios) {
    std::string P = scenarioProfile(WS, S);
    if (!sys::fs::exists(P))
      return makeToolError("optimize: the profile of scenario '" + S +
                               "' is missing",
                           P, "run its scenario again");
    All.push_back(P);
    if (isStartupScenario(S))
      Profiles.Startup = P;
    else
      Steady.push_back(P);
  }
  if (Steady.size() == 1) {
    Profiles.Steady = Steady[0];
  } else if (Steady.size() > 1) {
    Profiles.Steady = WS.path("profiles/steady.profdata");
    if (Error E = mergeProfiles(Env, Steady, 1, Profiles.Steady,
                                "optimize: merge the steady scenarios"))
      return E;
  }
  unsigned Weight = Opts.Transforms.Split ? PgoSplitProfileWeight : 1;
  Profiles.Compile = WS.path(Weight > 1 ? "profiles/compile-x64.profdata"
                                        : "profiles/compile.profdata");
  if (Error E = mergeProfiles(Env, All, Weight, Profiles.Compile,
                              "optimize: merge the compile profile"))
    return E;

  PgoToolPaths Tools{Env.LLVMBinDir, Env.KilnBinDir + "/kiln-lld", Env.Plugin};
  PgoPhaseFlags Flags = computeOptimizeFlags(Tools, Profiles, Opts.Transforms);
  std::vector<std::string> Targets, Sources;
  for (const PgoFileStamp &P : M->Instrument->Programs)
    Targets.push_back(P.Path);
  // The sources the profiles describe: those the instrumented build
  // compiled and that were still there at its end (not a configure check's).
  for (const PgoFileStamp &S : M->Instrument->Sources)
    Sources.push_back(S.Path);

  if (Targets.empty())
    Err << "kiln: warning: optimize: the instrumented build linked no program "
           "(or none is left): no link gets Kiln's order\n";
  // With the context-sensitive relink, the build links the profiled
  // programs instrumented (the compiles are the final ones), the training
  // runs are replayed on them, and they are linked again with the order
  // from those profiles.
  bool CS = Opts.Transforms.usesContextSensitiveRelink() && !Targets.empty();
  std::string RelinkDir = WS.path("optimize/relink");
  sys::fs::remove_directories(RelinkDir);
  if (CS)
    if (Error E = makeDirectory(RelinkDir, "optimize"))
      return E;
  PgoPhaseFlags BuildFlags = CS ? withContextSensitiveInstrumentation(
                                      Flags, WS.path("raw/cs-untracked"))
                                : Flags;

  M->Phase = "optimize-failed";
  if (Error E = saveManifest(WS, *M, "optimize"))
    return E;
  Expected<PgoBuild> B =
      runPhaseBuild(WS, Env, "optimize", Opts, BuildFlags, Targets, Sources,
                    CS ? StringRef(RelinkDir) : StringRef(), Out);
  if (!B)
    return B.takeError();
  B->Generation = M->Generation;
  M->Optimize = *B;
  if (!B->Succeeded) {
    if (Error E = saveManifest(WS, *M, "optimize"))
      return E;
    return buildFailure("optimize", *B, *M, WS);
  }
  if (CS) {
    PgoWrapperConfig Final;
    Final.Flags = Flags;
    Final.ProfiledSources = Sources;
    if (Error E = contextSensitiveRelink(WS, Env, *M, Tools, Profiles,
                                         Opts.Transforms, Targets, Final,
                                         RelinkDir, *B, Out, Err))
      return E;
    M->Optimize = *B;
  }
  M->Phase = "optimized";
  if (Error E = saveManifest(WS, *M, "optimize"))
    return E;
  printBuildSummary("optimize", *B, WS, Out);
  for (const std::string &T : Targets)
    if (none_of(B->Programs,
                [&](const PgoFileStamp &P) { return P.Path == T; }))
      Err << "kiln: warning: optimize: " << WS.display(T)
          << " was not linked again by this build: it is not optimized\n";
  Out << "kiln: optimize: scenarios " << join(Scenarios, ", ") << "; "
      << (Opts.Transforms.Order ? "Kiln's function order" : "no order") << ", "
      << (Opts.Transforms.Split ? "function splitting" : "no splitting") << ", "
      << (Opts.Transforms.ThinLTO ? "ThinLTO" : "no LTO");
  if (Opts.Transforms.Order)
    Out << ", "
        << (B->ContextSensitive == "done"
                ? "order from context-sensitive profiles"
                : "order from the training profiles");
  Out << '\n';
  return Error::success();
}

//===----------------------------------------------------------------------===//
// kiln pgo status
//===----------------------------------------------------------------------===//

static std::string describeNow(const PgoFileStamp &Then) {
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

static Error statusMain(const PgoOptions &Opts, raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/true, "status");
  if (!M)
    return M.takeError();
  Out << "workspace: " << WS.Root << " (kiln " << M->KilnVersion << ")\n";
  Out << "phase: " << M->Phase << '\n';
  if (const std::optional<PgoBuild> &B = M->Instrument) {
    Out << "instrumented build " << B->Generation << ": "
        << joinCommand(B->Command) << " in " << B->Cwd << ", " << B->Time
        << ", exit status " << B->ExitStatus << ", " << B->Compiles
        << " compile(s), " << B->Links << " link(s)\n";
    for (const PgoFileStamp &P : B->Programs) {
      std::string Now = describeNow(P);
      if (Now == "changed since" && M->Optimize)
        for (const PgoFileStamp &O : M->Optimize->Programs)
          if (O.Path == P.Path && describeNow(O) == "unchanged")
            Now = "replaced by the optimized build";
      Out << "  program " << P.Path << " (hash " << P.Hash << "): " << Now
          << '\n';
    }
    unsigned Changed = 0;
    std::string Example;
    for (const PgoFileStamp &S : B->Sources)
      if (describeNow(S) != "unchanged") {
        ++Changed;
        if (Example.empty())
          Example = S.Path;
      }
    Out << "  sources: " << B->Sources.size() << " compiled, ";
    if (Changed)
      Out << Changed << " changed since (" << Example
          << "): the profiles may be stale\n";
    else
      Out << "all unchanged\n";
  }
  // Scenarios in order of first run.
  std::vector<std::string> Names;
  for (const PgoRun &R : M->Runs)
    if (!is_contained(Names, R.Scenario))
      Names.push_back(R.Scenario);
  Out << "scenarios: " << (Names.empty() ? "none yet" : "") << '\n';
  for (const std::string &S : Names) {
    size_t Used = M->usedRuns(S).size();
    Out << "  " << S << " (" << (isStartupScenario(S) ? "startup" : "steady")
        << "): " << Used << " run(s) used";
    if (Used && sys::fs::exists(scenarioProfile(WS, S)))
      Out << ", profile " << WS.display(scenarioProfile(WS, S));
    Out << '\n';
    for (const PgoRun &R : M->Runs) {
      if (R.Scenario != S)
        continue;
      Out << "    run " << R.Id << ": exit status " << R.ExitStatus << ", "
          << R.Outcome << ", "
          << (R.Generation != M->Generation
                  ? "not used (an earlier instrumented build)"
              : R.Used ? "used"
                       : "not used")
          << ", " << R.RawProfiles.size()
          << " raw profile(s): " << joinCommand(R.Command)
          << (R.Stdin.empty() ? "" : " < " + R.Stdin) << '\n';
      if (R.Program) {
        std::string Match = "not a program of the instrumented build";
        if (M->Instrument)
          for (const PgoFileStamp &P : M->Instrument->Programs)
            if (P.Path == R.Program->Path)
              Match = P.Hash == R.Program->Hash
                          ? "the instrumented build's"
                          : "differs from the instrumented build's";
        Out << "      program " << R.Program->Path << ": " << Match << '\n';
      }
    }
  }
  if (const std::optional<PgoBuild> &B = M->Optimize) {
    Out << "optimized build: " << joinCommand(B->Command) << ", " << B->Time
        << ", exit status " << B->ExitStatus;
    if (!B->Options.empty())
      Out << ", " << join(B->Options, " ");
    Out << '\n';
    if (B->ContextSensitive == "done")
      Out << "  context-sensitive relink: " << B->Replays
          << " training run(s) replayed, the order is from their profiles\n";
    else if (!B->ContextSensitive.empty())
      Out << "  context-sensitive relink: not used (" << B->ContextSensitive
          << ")\n";
    for (const std::string &F : B->Flags)
      Out << "  " << F << '\n';
    for (const PgoFileStamp &P : B->Programs)
      Out << "  program " << P.Path << ": " << describeNow(P) << '\n';
  }
  return Error::success();
}

#ifndef KILN_LLVM_BIN_DIR
#define KILN_LLVM_BIN_DIR "/usr/lib/llvm-22/bin"
#endif

Error kiln::runPgoCommand(ArrayRef<std::string> Args,
                          const PgoEnvironment &GivenEnv, raw_ostream &Out,
                          raw_ostream &Err) {
  PgoEnvironment Env = GivenEnv;
  if (Env.LLVMBinDir.empty()) {
    const char *Dir = ::getenv("KILN_LLVM_BIN");
    Env.LLVMBinDir = Dir && *Dir ? Dir : KILN_LLVM_BIN_DIR;
  }
  if (!Args.empty() &&
      (Args[0] == "--help" || Args[0] == "-help" || Args[0] == "help")) {
    Out << Usage;
    return Error::success();
  }
  Expected<PgoOptions> Opts = parsePgoArgs(Args);
  if (!Opts)
    return Opts.takeError();
  // Progress goes to stderr: the build's and the training command's stdout
  // stay theirs.
  if (Opts->Subcommand == "instrument")
    return instrumentMain(*Opts, Env, Err);
  if (Opts->Subcommand == "run")
    return runMain(*Opts, Env, Err);
  if (Opts->Subcommand == "optimize")
    return optimizeMain(*Opts, Env, Err, Err);
  return statusMain(*Opts, Out);
}

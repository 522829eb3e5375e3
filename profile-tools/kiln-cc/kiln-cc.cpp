//===- kiln-cc.cpp - The compiler wrapper of kiln pgo ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln pgo instrument` and `kiln pgo optimize` run the user's build with
/// CC/CXX pointing here and a directory first on PATH in which `cc`, `gcc`,
/// `clang`, `c++`, `g++`, `clang++`, `ar`, `ranlib`, `nm` and `ld` are
/// symlinks to this program (as ccache does), with `strip`, `objcopy`,
/// `objdump`, `readelf` and the llvm-* names CMake looks for. It dispatches
/// on the name it was run under: the compilers become LLVM 22's clang or
/// clang++ with the phase's flags (docs/CommandGuide/kiln-pgo.rst), the
/// binutils LLVM 22's own (llvm-ar, ld.lld, ...), which read ThinLTO bitcode;
/// the instrument phase's nm without instrumentation's symbols.
///
/// The phase comes from KILN_PGO_WORKSPACE and KILN_PGO_PHASE; the flags from
/// `<workspace>/<phase>/wrapper.conf`. Each compile and link is logged to
/// `<workspace>/<phase>/build.log` (sources, objects, programs), so that
/// `kiln pgo` knows what the build produced. Without the two variables (a
/// build the user runs again after a phase, with the wrapper its
/// configuration remembers) the wrapper adds nothing but LLVM's linker to a
/// link: the objects a phase compiled may be ThinLTO bitcode, which the
/// system's linker cannot read.
///
/// It runs once per compiler command of a build, so it links no LLVM
/// library: its cost is one small exec, one small file read and an append.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoFlags.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace kiln;

#ifndef KILN_LLVM_BIN_DIR
#define KILN_LLVM_BIN_DIR "/usr/lib/llvm-22/bin"
#endif

namespace {
enum class Tool { CC, CXX, Binutil };
} // namespace

// The binutils that must read ThinLTO bitcode objects: each name the wrapper
// answers to, and LLVM's tool it runs. CMake looks for the llvm-* names
// first when the compiler is clang.
static const char *const Binutils[][2] = {{"ar", "llvm-ar"},
                                          {"ranlib", "llvm-ranlib"},
                                          {"nm", "llvm-nm"},
                                          {"ld", "ld.lld"},
                                          {"strip", "llvm-strip"},
                                          {"objcopy", "llvm-objcopy"},
                                          {"objdump", "llvm-objdump"},
                                          {"readelf", "llvm-readelf"},
                                          {"llvm-ar", "llvm-ar"},
                                          {"llvm-ranlib", "llvm-ranlib"},
                                          {"llvm-nm", "llvm-nm"},
                                          {"ld.lld", "ld.lld"},
                                          {"llvm-strip", "llvm-strip"},
                                          {"llvm-objcopy", "llvm-objcopy"},
                                          {"llvm-objdump", "llvm-objdump"},
                                          {"llvm-readelf", "llvm-readelf"}};

// Sets \p Real to the LLVM tool that \p Name stands for.
static Tool classifyName(const std::string &Name, std::string &Real) {
  for (const auto &[Alias, LLVMTool] : Binutils)
    if (Name == Alias) {
      Real = LLVMTool;
      return Tool::Binutil;
    }
  if (Name.find("++") != std::string::npos) {
    Real = "clang++";
    return Tool::CXX;
  }
  Real = "clang";
  return Tool::CC;
}

static bool readFile(const std::string &Path, std::string &Text) {
  int FD = open(Path.c_str(), O_RDONLY | O_CLOEXEC);
  if (FD < 0)
    return false;
  char Buffer[8192];
  ssize_t N;
  while ((N = read(FD, Buffer, sizeof(Buffer))) > 0)
    Text.append(Buffer, N);
  close(FD);
  return N == 0;
}

[[noreturn]] static void run(const std::vector<std::string> &Cmd) {
  std::vector<char *> Argv;
  for (const std::string &A : Cmd)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  execv(Argv[0], Argv.data());
  std::fprintf(stderr, "kiln-cc: error: %s: cannot run: %s\n", Argv[0],
               std::strerror(errno));
  std::exit(127);
}

static bool writeAll(int FD, const char *Data, size_t Size) {
  while (Size) {
    ssize_t N = write(FD, Data, Size);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      return false;
    Data += N;
    Size -= N;
  }
  return true;
}

// Runs \p Cmd (nm) with its standard output through a pipe, and writes the
// lines that do not name a symbol of profile instrumentation
// (namesInstrumentationSymbol); exits with nm's status.
[[noreturn]] static void
runWithoutInstrumentationSymbols(const std::vector<std::string> &Cmd) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    run(Cmd);
  pid_t Child = fork();
  if (Child < 0)
    run(Cmd);
  if (Child == 0) {
    if (dup2(Pipe[1], STDOUT_FILENO) < 0)
      std::_Exit(127);
    run(Cmd);
  }
  close(Pipe[1]);
  // A reader that goes away must not kill the wrapper before nm's status.
  std::signal(SIGPIPE, SIG_IGN);
  std::string Pending;
  char Buffer[65536];
  bool Writing = true;
  for (;;) {
    ssize_t N = read(Pipe[0], Buffer, sizeof(Buffer));
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Pending.append(Buffer, N);
    size_t Begin = 0, End;
    while ((End = Pending.find('\n', Begin)) != std::string::npos) {
      std::string Line = Pending.substr(Begin, End - Begin);
      if (Writing && !namesInstrumentationSymbol(Line))
        Writing =
            writeAll(STDOUT_FILENO, Pending.data() + Begin, End + 1 - Begin);
      Begin = End + 1;
    }
    Pending.erase(0, Begin);
  }
  if (Writing && !Pending.empty() && !namesInstrumentationSymbol(Pending))
    writeAll(STDOUT_FILENO, Pending.data(), Pending.size());
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR)
    ;
  if (WIFEXITED(Status))
    std::exit(WEXITSTATUS(Status));
  std::exit(128 + (WIFSIGNALED(Status) ? WTERMSIG(Status) : 0));
}

// Appends what this command reads and writes to the phase's build log, in
// one write (O_APPEND keeps concurrent compiles' lines whole).
static void logInvocation(const std::string &LogPath,
                          const CompilerInvocation &Inv,
                          const std::string &Cwd) {
  std::string Lines;
  for (const std::string &Src : Inv.Sources)
    Lines += "S " + makeAbsoluteLexically(Src, Cwd) + "\n";
  if (Inv.Mode == CompilerMode::Link) {
    Lines +=
        "L " +
        makeAbsoluteLexically(Inv.Output.empty() ? "a.out" : Inv.Output, Cwd) +
        "\n";
  } else if (!Inv.Output.empty()) {
    Lines += "C " + makeAbsoluteLexically(Inv.Output, Cwd) + "\n";
  } else {
    for (const std::string &Src : Inv.Sources) {
      std::string Stem = Src.substr(Src.rfind('/') + 1);
      Stem = Stem.substr(0, Stem.rfind('.'));
      Lines += "C " + makeAbsoluteLexically(Stem + ".o", Cwd) + "\n";
    }
  }
  int FD =
      open(LogPath.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (FD < 0)
    return;
  ssize_t Written = write(FD, Lines.data(), Lines.size());
  (void)Written;
  close(FD);
}

// Writes what the context-sensitive relink runs again: the working
// directory, the compiler and the user's arguments, one a line, to a
// temporary file renamed into place.
static void recordRelink(const std::string &Path, const std::string &Cwd,
                         const std::string &Real,
                         const std::vector<std::string> &Args) {
  std::string Text = Cwd + "\n" + Real + "\n";
  for (const std::string &A : Args)
    Text += A + "\n";
  std::string Temp = Path + ".tmp" + std::to_string(getpid());
  int FD = open(Temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (FD < 0)
    return;
  bool OK =
      write(FD, Text.data(), Text.size()) == static_cast<ssize_t>(Text.size());
  close(FD);
  if (!OK || rename(Temp.c_str(), Path.c_str()) != 0)
    unlink(Temp.c_str());
}

int main(int Argc, char **Argv) {
  std::string Name = Argv[0];
  Name = Name.substr(Name.rfind('/') + 1);
  std::string RealName;
  Tool T = classifyName(Name, RealName);
  std::vector<std::string> Args(Argv + 1, Argv + Argc);

  const char *Workspace = std::getenv("KILN_PGO_WORKSPACE");
  const char *Phase = std::getenv("KILN_PGO_PHASE");
  bool Active = Workspace && *Workspace && Phase && *Phase;
  PgoWrapperConfig Config;
  std::string PhaseDir;
  if (Active) {
    PhaseDir = std::string(Workspace) + "/" + Phase;
    std::string Text;
    if (!readFile(PhaseDir + "/wrapper.conf", Text)) {
      std::fprintf(stderr, "kiln-cc: error: %s/wrapper.conf: cannot read: %s\n",
                   PhaseDir.c_str(), std::strerror(errno));
      return 1;
    }
    Config = parseWrapperConfig(Text);
  }
  std::string BinDir = Config.LLVMBinDir;
  if (BinDir.empty()) {
    const char *Env = std::getenv("KILN_LLVM_BIN");
    BinDir = Env && *Env ? Env : KILN_LLVM_BIN_DIR;
  }
  std::string Real = BinDir + "/" + RealName;

  std::vector<std::string> Plain = {Real};
  Plain.insert(Plain.end(), Args.begin(), Args.end());
  if (T == Tool::Binutil) {
    // Only the instrument phase's objects have instrumentation's symbols
    // (the optimize phase's are bitcode; its instrumentation is in the
    // link).
    if (Active && RealName == "llvm-nm" &&
        std::strcmp(Phase, "instrument") == 0)
      runWithoutInstrumentationSymbols(Plain);
    run(Plain);
  }
  CompilerInvocation Inv = classifyCompilerArgs(Args);
  if (!Active) {
    bool ChoosesLinker = false;
    for (const std::string &A : Args)
      ChoosesLinker |=
          A.rfind("-fuse-ld=", 0) == 0 || A.rfind("--ld-path=", 0) == 0;
    // clang finds ld.lld beside itself.
    if (Inv.Mode == CompilerMode::Link && !ChoosesLinker)
      Plain.push_back("-fuse-ld=lld");
    run(Plain);
  }

  if (Inv.Mode == CompilerMode::Query)
    run(Plain);
  char CwdBuffer[4096];
  std::string Cwd = getcwd(CwdBuffer, sizeof(CwdBuffer)) ? CwdBuffer : ".";
  bool IsTarget = false;
  std::vector<std::string> ReportFlags;
  if (Inv.Mode == CompilerMode::Link) {
    std::string Out =
        makeAbsoluteLexically(Inv.Output.empty() ? "a.out" : Inv.Output, Cwd);
    for (size_t I = 0; I < Config.Targets.size(); ++I) {
      if (Config.Targets[I] != Out)
        continue;
      IsTarget = true;
      if (!Config.RelinkDir.empty())
        recordRelink(Config.RelinkDir + "/" + std::to_string(I) + ".args", Cwd,
                     Real, Args);
      ReportFlags = reportLinkFlags(Config.Flags, Config.ReportDir, I);
    }
  }
  std::vector<std::string> Sources;
  for (const std::string &Src : Inv.Sources)
    Sources.push_back(makeAbsoluteLexically(Src, Cwd));
  logInvocation(PhaseDir + "/build.log", Inv, Cwd);
  std::vector<std::string> Command = composeCompilerCommand(
      Real, Args, Config.Flags, IsTarget, Config.areProfiled(Sources));
  Command.insert(Command.end(), ReportFlags.begin(), ReportFlags.end());
  run(Command);
}

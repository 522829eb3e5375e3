//===- PgoFlags.cpp - Flags of the kiln pgo phases ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain C++ with no LLVM dependency: the compiler wrapper `kiln-cc` links
/// this file and nothing else, so that starting it costs no more than a
/// small program's exec (it runs once per compiler command of a build).
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoFlags.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

using namespace kiln;

// Kiln names its linkers by path (`-fuse-ld=<path>`, the links' own
// flags win over it), which clang's -Wextra calls deprecated
// (-Wfuse-ld-path): the warning is Kiln's, in every link of a build with
// -Wextra, and -Werror would make it fail the link. Every link turns it off.
static const char *const NoLinkerPathWarning = "-Wno-fuse-ld-path";

PgoPhaseFlags kiln::computeInstrumentFlags(const PgoToolPaths &Tools,
                                           const std::string &UntrackedRawDir) {
  PgoPhaseFlags F;
  F.Leading = {"-O2"};
  // -fprofile-generate also links the profile runtime; the directory is
  // where runs outside `kiln pgo run` write (LLVM_PROFILE_FILE overrides it).
  std::string Generate = "-fprofile-generate=" + UntrackedRawDir;
  F.Compile = {Generate, "-ftemporal-profile"};
  F.Link = {Generate, "-ftemporal-profile",
            "-fuse-ld=" + Tools.LLVMBinDir + "/ld.lld", NoLinkerPathWarning};
  return F;
}

// The flags that make a profiled program's link kiln-lld's.
static void addKilnLinkFlags(const PgoToolPaths &Tools,
                             const PgoProfiles &Profiles,
                             const PgoTransforms &Transforms,
                             std::vector<std::string> &TargetLink) {
  TargetLink.push_back("-fuse-ld=" + Tools.KilnLLD);
  if (Transforms.Order) {
    if (!Profiles.Startup.empty())
      TargetLink.push_back("-Wl,--kiln-startup-profile=" + Profiles.Startup);
    if (!Profiles.Steady.empty())
      TargetLink.push_back("-Wl,--kiln-profile=" + Profiles.Steady);
    // One training profile covers every program of the build.
    if (!Profiles.Startup.empty() || !Profiles.Steady.empty())
      TargetLink.push_back("-Wl,--kiln-profiles-of-build");
  }
  if (Transforms.Split && Transforms.ThinLTO)
    TargetLink.push_back("-Wl,-mllvm,-kiln-split-functions");
  if (Transforms.BindHotImports && Transforms.ThinLTO)
    TargetLink.push_back("-Wl,-mllvm,-kiln-bind-hot-imports");
  // kiln-lld loads the plugin, whose string-table pass is on by default.
  if (!Transforms.StringTables)
    TargetLink.push_back("-Wl,-mllvm,-kiln-strtab=false");
}

std::vector<std::string>
kiln::coldCodeOptions(const PgoTransforms &Transforms) {
  if (Transforms.ColdCodeForSpeed)
    return {"-pgso=false"};
  return {};
}

std::vector<std::string>
kiln::compilePolicyOptions(const PgoTransforms &Transforms) {
  std::vector<std::string> Options = coldCodeOptions(Transforms);
  switch (Transforms.ICP) {
  case PgoIndirectCallPromotion::Guarded:
    // LLVM promotes a target with this share of all the site's calls (and
    // 30% of what earlier promotions left, which a 90% target has).
    Options.push_back("-icp-total-percent-threshold=" +
                      std::to_string(PgoGuardedICPShare));
    break;
  case PgoIndirectCallPromotion::Off:
    Options.push_back("-disable-icp");
    break;
  case PgoIndirectCallPromotion::Stock:
    break;
  }
  return Options;
}

bool kiln::prefersAlternativePolicy(uint64_t Default, uint64_t Alternative) {
  return static_cast<double>(Alternative) <
         static_cast<double>(Default) * (1 - PgoPolicyMinSaving);
}

bool kiln::alternativePolicyCannotPay(uint64_t Default, uint64_t Binary) {
  return !prefersAlternativePolicy(Default,
                                   Default - std::min(Binary, Default));
}

PgoTransforms kiln::alternativePolicy(const PgoTransforms &Transforms) {
  PgoTransforms T = Transforms;
  T.ContextSensitiveCompile = true;
  T.ICP = PgoIndirectCallPromotion::Stock;
  T.PolicyChosen = true;
  return T;
}

std::string kiln::describeCompilePolicy(const PgoTransforms &Transforms) {
  if (Transforms.measuresPolicy()) {
    PgoTransforms Default = Transforms;
    Default.PolicyChosen = true;
    char Saving[16];
    std::snprintf(Saving, sizeof(Saving), "%.1f%%", PgoPolicyMinSaving * 100);
    // Each policy is a list joined by semicolons: sentences keep the two
    // apart.
    return "measured per program by the training's replays under callgrind: "
           "the other policy where they execute " +
           std::string(Saving) +
           " fewer instructions with it, else the default. Default: " +
           describeCompilePolicy(Default) +
           ". Other: " + describeCompilePolicy(alternativePolicy(Transforms));
  }
  std::string S = "IR PGO";
  if (Transforms.usesContextSensitiveCompile())
    S += " with the context-sensitive relink's profiles in the backends "
         "(--cs-compile)";
  if (!Transforms.PartialTraining)
    S += "; the functions no training ran compiled as never run "
         "(--no-partial-training)";
  else if (Transforms.UntrainedSize)
    S += "; the functions no training ran compiled as without a profile, "
         "for size once inlined into (--untrained-size)";
  else
    S += "; the functions no training ran compiled as without a profile";
  if (Transforms.ColdCodeForSpeed)
    S += "; the code the profile calls cold compiled for speed "
         "(--no-pgso)";
  S += "; indirect-call promotion ";
  switch (Transforms.ICP) {
  case PgoIndirectCallPromotion::Guarded:
    return S + "guarded: a target only where it took " +
           std::to_string(PgoGuardedICPShare) +
           "% or more of its call site's training calls (--icp=guarded)";
  case PgoIndirectCallPromotion::Off:
    return S + "off (--icp=off)";
  case PgoIndirectCallPromotion::Stock:
    break;
  }
  return S + "by LLVM's thresholds (--icp=stock)";
}

PgoPhaseFlags kiln::computeOptimizeFlags(const PgoToolPaths &Tools,
                                         const PgoProfiles &Profiles,
                                         const PgoTransforms &Transforms) {
  PgoPhaseFlags F;
  F.Leading = {"-O2"};
  F.Compile = {"-fprofile-use=" + Profiles.Compile,
               // A source edited since the training has functions of another
               // shape than the profile's: their hash-mismatch warnings must
               // not fail a build that uses -Werror.
               "-Wno-error=backend-plugin"};
  // The compile policy acts where the profile-guided passes run: in the
  // compiles, and for ThinLTO in the backends of the link (below).
  std::vector<std::string> Policy = compilePolicyOptions(Transforms);
  for (const std::string &O : Policy)
    F.Compile.insert(F.Compile.end(), {"-mllvm", O});
  bool SplitInCompiles = !Transforms.ThinLTO && Transforms.Split;
  // Without the plugin (kiln found none beside it) the code no training ran
  // keeps the speed of a compile without a profile.
  bool UntrainedSize = Transforms.usesUntrainedSize() && !Tools.Plugin.empty();
  if (SplitInCompiles || UntrainedSize) {
    F.Compile.push_back("-fpass-plugin=" + Tools.Plugin);
    // The plugin's default passes run in the compiles too: without LTO
    // that is where string tables are lowered; with ThinLTO the link's
    // backends do it.
    if (Transforms.ThinLTO || !Transforms.StringTables)
      F.Compile.insert(F.Compile.end(), {"-mllvm", "-kiln-strtab=false"});
  }
  // Where the inliner of the compile (ThinLTO: pre-link) has the profile.
  if (UntrainedSize)
    F.Compile.insert(F.Compile.end(), {"-mllvm", "-kiln-untrained-size"});
  if (Transforms.ThinLTO) {
    F.Compile.push_back("-flto=thin");
    F.UnprofiledCompile.push_back("-flto=thin");
  } else if (Transforms.Split) {
    // Without LTO the splitter runs in each compile: the plugin sets its
    // options there.
    F.Compile.insert(F.Compile.end(), {"-mllvm", "-kiln-split-functions"});
  }
  // The linker orders sections: without LTO (whose code generation always
  // emits one section a function) each function needs its own.
  if (!Transforms.ThinLTO && Transforms.Order) {
    F.Compile.push_back("-ffunction-sections");
    F.UnprofiledCompile.push_back("-ffunction-sections");
  }

  if (Transforms.ThinLTO)
    F.Link.push_back("-flto=thin");
  // Links that are not one of the profiled programs (configure checks, the
  // project's helpers) need no Kiln: ld.lld reads the ThinLTO bitcode.
  F.Link.push_back("-fuse-ld=" + Tools.LLVMBinDir + "/ld.lld");
  F.Link.push_back(NoLinkerPathWarning);

  bool UseKilnLLD = (Transforms.Order &&
                     (!Profiles.Startup.empty() || !Profiles.Steady.empty())) ||
                    (Transforms.Split && Transforms.ThinLTO);
  if (UseKilnLLD)
    addKilnLinkFlags(Tools, Profiles, Transforms, F.TargetLink);
  // The ThinLTO backends of a profiled program run in its link. Given
  // -fprofile-use there, clang runs them with the profile
  // (-plugin-opt=cs-profile-path=, a no-op for a profile without
  // context-sensitive records) as a stock PGO link does; without it LLVM
  // skips the backends' profile-guided passes, such as the second round of
  // memory-intrinsic size specialization (on Lua's held-out compile script,
  // 7,255 more bcmp calls, +0.14% of its instructions; docs/benchmarks.md).
  // Only there: a link that also compiles an unprofiled source (a configure
  // check) would apply the profile to it. A profiled program's link that
  // compiles a source too compiles it with the profile, as its compiles
  // are: its hash-mismatch warnings must not fail a -Werror build either.
  if (Transforms.ThinLTO) {
    F.TargetLink.insert(
        F.TargetLink.end(),
        {"-fprofile-use=" + Profiles.Compile, "-Wno-error=backend-plugin"});
    for (const std::string &O : Policy)
      F.TargetLink.push_back("-Wl,-mllvm," + O);
  }
  return F;
}

PgoPhaseFlags kiln::withContextSensitiveInstrumentation(
    const PgoToolPaths &Tools, const PgoPhaseFlags &Final,
    const PgoTransforms &Transforms, const std::string &RawDir) {
  PgoPhaseFlags F = Final;
  // The linker runs the backends with CS instrumentation; clang adds the
  // profile runtime.
  F.TargetLink = {"-fuse-ld=" + Tools.KilnLLD,
                  "-fcs-profile-generate=" + RawDir};
  // The code the instrumentation counts is compiled as the final links
  // compile it.
  for (const std::string &O : coldCodeOptions(Transforms))
    F.TargetLink.push_back("-Wl,-mllvm," + O);
  return F;
}

// Options whose value is the next argument (clang's and GCC's spellings
// that build systems use); their value is never an input file.
static bool takesSeparateValue(const std::string &Arg) {
  static const char *const Options[] = {"-o",
                                        "-I",
                                        "-D",
                                        "-U",
                                        "-x",
                                        "-include",
                                        "-imacros",
                                        "-isystem",
                                        "-idirafter",
                                        "-iquote",
                                        "-iprefix",
                                        "-iwithprefix",
                                        "-isysroot",
                                        "-MF",
                                        "-MT",
                                        "-MQ",
                                        "-L",
                                        "-Xlinker",
                                        "-Xclang",
                                        "-Xpreprocessor",
                                        "-Xassembler",
                                        "-target",
                                        "-arch",
                                        "-T",
                                        "-u",
                                        "-z",
                                        "-mllvm",
                                        "-e",
                                        "--param",
                                        "-aux-info",
                                        "-install_name",
                                        "-framework",
                                        "--sysroot",
                                        "-gcc-toolchain",
                                        "-Xarch_host",
                                        "-Xarch_device"};
  for (const char *O : Options)
    if (Arg == O)
      return true;
  return false;
}

static bool isSourceFile(const std::string &Path) {
  size_t Dot = Path.rfind('.');
  if (Dot == std::string::npos || Path.find('/', Dot) != std::string::npos)
    return false;
  std::string Ext = Path.substr(Dot + 1);
  static const char *const Exts[] = {"c",  "cc", "cpp", "cxx", "c++", "C",
                                     "cp", "i",  "ii",  "m",   "mm",  "CPP"};
  for (const char *E : Exts)
    if (Ext == E)
      return true;
  return false;
}

static bool startsWith(const std::string &S, const char *Prefix) {
  return S.compare(0, std::strlen(Prefix), Prefix) == 0;
}

CompilerInvocation
kiln::classifyCompilerArgs(const std::vector<std::string> &Args) {
  CompilerInvocation Inv;
  bool CompileOnly = false, Query = false, HasInputs = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (takesSeparateValue(A)) {
      if (I + 1 < Args.size()) {
        if (A == "-o")
          Inv.Output = Args[I + 1];
        else if (A == "-x" && Args[I + 1] != "none")
          Inv.HasSources = true;
      }
      ++I;
      continue;
    }
    if (A == "-c" || A == "-S" || A == "-fsyntax-only") {
      CompileOnly = true;
      continue;
    }
    if (A == "-E" || A == "-M" || A == "-MM" || A == "--version" ||
        A == "-dumpversion" || A == "-dumpmachine" || A == "-dumpspecs" ||
        A == "-dumpfullversion" || A == "-###" || startsWith(A, "-print-") ||
        startsWith(A, "--print-") || A == "--help" || A == "-help") {
      Query = true;
      continue;
    }
    if (startsWith(A, "-o") && A.size() > 2) {
      Inv.Output = A.substr(2);
      continue;
    }
    if (startsWith(A, "-x") && A.size() > 2 && A != "-xnone") {
      Inv.HasSources = true;
      continue;
    }
    if (A == "-") {
      // Standard input, with -x: a source.
      HasInputs = true;
      continue;
    }
    if (A.empty() || A[0] == '-')
      continue;
    HasInputs = true;
    if (A[0] == '@') {
      // A response file: assume it holds sources, so the compile flags go
      // in (they are harmless on a link).
      Inv.HasSources = true;
      continue;
    }
    if (isSourceFile(A)) {
      Inv.HasSources = true;
      Inv.Sources.push_back(A);
    }
  }
  if (Query || !HasInputs)
    Inv.Mode = CompilerMode::Query;
  else if (CompileOnly)
    Inv.Mode = CompilerMode::Compile;
  else
    Inv.Mode = CompilerMode::Link;
  if (!HasInputs)
    Inv.HasSources = false;
  return Inv;
}

std::vector<std::string> kiln::composeCompilerCommand(
    const std::string &RealCompiler, const std::vector<std::string> &Args,
    const PgoPhaseFlags &Flags, bool IsTarget, bool ProfiledSources) {
  CompilerInvocation Inv = classifyCompilerArgs(Args);
  std::vector<std::string> Cmd = {RealCompiler};
  if (Inv.Mode == CompilerMode::Query) {
    Cmd.insert(Cmd.end(), Args.begin(), Args.end());
    return Cmd;
  }
  Cmd.insert(Cmd.end(), Flags.Leading.begin(), Flags.Leading.end());
  Cmd.insert(Cmd.end(), Args.begin(), Args.end());
  if (Inv.HasSources) {
    const std::vector<std::string> &C =
        ProfiledSources ? Flags.Compile : Flags.UnprofiledCompile;
    Cmd.insert(Cmd.end(), C.begin(), C.end());
  }
  if (Inv.Mode == CompilerMode::Link) {
    Cmd.insert(Cmd.end(), Flags.Link.begin(), Flags.Link.end());
    if (IsTarget)
      Cmd.insert(Cmd.end(), Flags.TargetLink.begin(), Flags.TargetLink.end());
  }
  return Cmd;
}

std::string kiln::serializeWrapperConfig(const PgoWrapperConfig &Config) {
  std::string Text;
  auto Add = [&](const char *Key, const std::string &Value) {
    Text += Key;
    Text += ' ';
    Text += Value;
    Text += '\n';
  };
  Add("llvm-bin", Config.LLVMBinDir);
  for (const std::string &A : Config.Flags.Leading)
    Add("leading", A);
  for (const std::string &A : Config.Flags.Compile)
    Add("compile", A);
  for (const std::string &A : Config.Flags.UnprofiledCompile)
    Add("unprofiled-compile", A);
  for (const std::string &A : Config.Flags.Link)
    Add("link", A);
  for (const std::string &A : Config.Flags.TargetLink)
    Add("target-link", A);
  for (const std::string &T : Config.Targets)
    Add("target", T);
  for (const std::string &S : Config.ProfiledSources)
    Add("source", S);
  if (!Config.RelinkDir.empty())
    Add("relink-dir", Config.RelinkDir);
  if (!Config.ReportDir.empty())
    Add("report-dir", Config.ReportDir);
  return Text;
}

PgoWrapperConfig kiln::parseWrapperConfig(const std::string &Text) {
  PgoWrapperConfig Config;
  size_t Pos = 0;
  while (Pos < Text.size()) {
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    std::string Line = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    size_t Space = Line.find(' ');
    if (Space == std::string::npos)
      continue;
    std::string Key = Line.substr(0, Space), Value = Line.substr(Space + 1);
    if (Key == "llvm-bin")
      Config.LLVMBinDir = Value;
    else if (Key == "leading")
      Config.Flags.Leading.push_back(Value);
    else if (Key == "compile")
      Config.Flags.Compile.push_back(Value);
    else if (Key == "unprofiled-compile")
      Config.Flags.UnprofiledCompile.push_back(Value);
    else if (Key == "source")
      Config.ProfiledSources.push_back(Value);
    else if (Key == "relink-dir")
      Config.RelinkDir = Value;
    else if (Key == "report-dir")
      Config.ReportDir = Value;
    else if (Key == "link")
      Config.Flags.Link.push_back(Value);
    else if (Key == "target-link")
      Config.Flags.TargetLink.push_back(Value);
    else if (Key == "target")
      Config.Targets.push_back(Value);
  }
  return Config;
}

std::string kiln::makeAbsoluteLexically(const std::string &Path,
                                        const std::string &Cwd) {
  std::string Full = !Path.empty() && Path[0] == '/' ? Path : Cwd + "/" + Path;
  std::vector<std::string> Parts;
  size_t Pos = 0;
  while (Pos <= Full.size()) {
    size_t End = Full.find('/', Pos);
    if (End == std::string::npos)
      End = Full.size();
    std::string Part = Full.substr(Pos, End - Pos);
    Pos = End + 1;
    if (Part.empty() || Part == ".")
      continue;
    if (Part == "..") {
      if (!Parts.empty())
        Parts.pop_back();
      continue;
    }
    Parts.push_back(Part);
  }
  std::string Result;
  for (const std::string &Part : Parts)
    Result += "/" + Part;
  return Result.empty() ? "/" : Result;
}

bool PgoWrapperConfig::areProfiled(
    const std::vector<std::string> &AbsoluteSources) const {
  if (ProfiledSources.empty())
    return true;
  for (const std::string &Src : AbsoluteSources) {
    bool Found = false;
    for (const std::string &P : ProfiledSources)
      if (P == Src) {
        Found = true;
        break;
      }
    if (!Found)
      return false;
  }
  return true;
}

std::vector<std::string> kiln::reportLinkFlags(const PgoPhaseFlags &Flags,
                                               const std::string &ReportDir,
                                               size_t Target) {
  // kiln-lld refuses these options on a link without a profile.
  bool OrdersLink = false;
  for (const std::string &A : Flags.TargetLink)
    OrdersLink |= startsWith(A, "-Wl,--kiln-profile=") ||
                  startsWith(A, "-Wl,--kiln-startup-profile=");
  if (ReportDir.empty() || !OrdersLink)
    return {};
  std::string Stem = ReportDir + "/" + std::to_string(Target);
  return {"-Wl,--kiln-report=" + Stem + ".json",
          "-Wl,--kiln-unordered-out=" + Stem + ".unordered"};
}

PgoPhaseFlags kiln::withBlockAddressMap(const PgoPhaseFlags &Final,
                                        AddressMapUse Use) {
  PgoPhaseFlags F = Final;
  bool ForBolt = Use == AddressMapUse::Bolt;
  if (ForBolt) {
    // BOLT skips the functions that have split parts ("split function
    // detected on input"): instrumented with their split, the hot functions
    // would have no edges. Block IDs do not depend on the splitter, which
    // only assigns sections after block placement.
    F.TargetLink.clear();
    for (const std::string &A : Final.TargetLink)
      if (A != "-Wl,-mllvm,-kiln-split-functions")
        F.TargetLink.push_back(A);
  }
  F.TargetLink.push_back("-Wl,--kiln-block-address-map");
  // llvm-bolt -instrument rewrites the binary from its relocations.
  if (ForBolt)
    F.TargetLink.push_back("-Wl,--emit-relocs");
  // Debian 12's valgrind (3.19) gives up on a binary with clang 22's DWARF 5
  // ("Possibly corrupted debuginfo file"), so a -g program would never
  // replay under callgrind. Its profile needs the symbols and the address
  // map, not the debug info, and the code does not depend on it.
  else if (Use == AddressMapUse::Callgrind)
    F.TargetLink.push_back("-Wl,--strip-debug");
  return F;
}

PgoPhaseFlags kiln::withBlockLayout(const PgoPhaseFlags &Final,
                                    const std::string &BlockProfile) {
  PgoPhaseFlags F = Final;
  F.TargetLink.clear();
  for (const std::string &A : Final.TargetLink)
    if (!startsWith(A, "-Wl,--kiln-profile=") &&
        !startsWith(A, "-Wl,--kiln-startup-profile=") &&
        A != "-Wl,--kiln-profiles-of-build")
      F.TargetLink.push_back(A);
  F.TargetLink.push_back("-Wl,--kiln-block-profile=" + BlockProfile);
  F.TargetLink.push_back("-Wl,--kiln-strict");
  return F;
}

bool kiln::namesInstrumentationSymbol(const std::string &Line) {
  static const char *const Prefixes[] = {
      "__llvm_profile_", "__llvm_prf_", "__profc_", "__profd_",
      "__profn_",        "__profvp_",   "__profbm_"};
  size_t Pos = 0;
  while (Pos < Line.size()) {
    size_t Start = Line.find_first_not_of(" \t", Pos);
    if (Start == std::string::npos)
      break;
    size_t End = Line.find_first_of(" \t", Start);
    if (End == std::string::npos)
      End = Line.size();
    for (const char *Prefix : Prefixes)
      if (Line.compare(Start, std::strlen(Prefix), Prefix) == 0)
        return true;
    Pos = End;
  }
  return false;
}

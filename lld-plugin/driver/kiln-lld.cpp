//===- kiln-lld.cpp - lld with Kiln loaded --------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-lld` is lld, linked as a library, with Kiln's pass plugin loaded
/// before lld parses its command line. Plain `ld.lld --load-pass-plugin=`
/// parses `-mllvm` options before it loads plugins, so the plugin's own
/// `-kiln-*` options are rejected there; here they are known by then. With no
/// Kiln option, kiln-lld links exactly as ld.lld, lld-link or ld64.lld would
/// (the flavor comes from `-flavor` or the program name; `kiln-lld` itself is
/// ELF, so `clang -fuse-ld=/path/to/kiln-lld` works). With
/// `--kiln-profile=`, it runs the profile-guided link (ProfileGuidedLink.h).
/// With Kiln active, a ThinLTO cache the user names is salted with Kiln's
/// configuration (LTOCacheSalt.h). With `--thinlto-distributor=`, each
/// backend job gets Kiln's plugin and options (DistributedThinLTO.h). With
/// `--kiln-block-address-map` or `--kiln-block-sections=`, LTO lays out
/// basic blocks (BlockLayoutLink.h).
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/BlockLayoutLink.h"
#include "kiln/LLDDriver/DistributedThinLTO.h"
#include "kiln/LLDDriver/KilnLinkOptions.h"
#include "kiln/LLDDriver/LTOCacheSalt.h"
#include "kiln/LLDDriver/LinkerInvocation.h"
#include "kiln/LLDDriver/ProfileGuidedLink.h"
#include "kiln/LLDDriver/ScratchDirectory.h"
#include "kiln/Support/PluginLocation.h"

#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

LLD_HAS_DRIVER(elf)
LLD_HAS_DRIVER(coff)
LLD_HAS_DRIVER(mingw)
LLD_HAS_DRIVER(macho)

using namespace llvm;

static bool isSameFile(StringRef A, StringRef B) {
  bool Result = false;
  return !sys::fs::equivalent(A, B, Result) && Result;
}

/// \returns why the loaded library \p Lib is not Kiln's pass plugin for this
/// LLVM, or "" if it is. lld would otherwise refuse it at the start of LTO,
/// failing a link that asked nothing of Kiln.
static std::string checkKilnPlugin(sys::DynamicLibrary &Lib) {
  using GetInfoFn = PassPluginLibraryInfo (*)();
  auto GetInfo = reinterpret_cast<GetInfoFn>(
      Lib.getAddressOfSymbol("llvmGetPassPluginInfo"));
  if (!GetInfo)
    return "not an LLVM pass plugin (it has no llvmGetPassPluginInfo)";
  PassPluginLibraryInfo Info = GetInfo();
  if (Info.APIVersion != LLVM_PLUGIN_API_VERSION)
    return ("a pass plugin for another LLVM (plugin API version " +
            Twine(Info.APIVersion) + ", not " + Twine(LLVM_PLUGIN_API_VERSION) +
            ")")
        .str();
  if (StringRef(Info.PluginName) != "Kiln")
    return ("the pass plugin '" + StringRef(Info.PluginName) + "', not Kiln's")
        .str();
  return "";
}

/// Loads Kiln's plugin into the process so its cl::opts exist before lld
/// parses `-mllvm`. lld may load the same module again for LTO; dlopen then
/// returns the same handle and the plugin registers its passes only once per
/// PassBuilder. \returns the plugin's path, or "" if it is unavailable.
static std::string preloadKilnPlugin(const char *Argv0, bool Required) {
  static int AddressInKilnLld;
  Expected<std::string> Path = kiln::findPlugin(Argv0, &AddressInKilnLld);
  if (!Path) {
    std::string Message = toString(Path.takeError());
    // Without Kiln options the plugin is not needed: stay exactly lld.
    if (Required)
      WithColor::error(errs(), "kiln-lld")
          << Message << "; the -kiln-* options on the command line need it\n";
    return "";
  }
  std::string LoadError;
  sys::DynamicLibrary Lib =
      sys::DynamicLibrary::getPermanentLibrary(Path->c_str(), &LoadError);
  if (!Lib.isValid()) {
    if (Required)
      WithColor::error(errs(), "kiln-lld")
          << "cannot load the Kiln plugin " << *Path << ": " << LoadError
          << '\n';
    return "";
  }
  // A loadable library that is not the plugin: the link goes on as plain
  // lld, with a warning, unless it asked for Kiln options.
  if (std::string Why = checkKilnPlugin(Lib); !Why.empty()) {
    if (Required)
      WithColor::error(errs(), "kiln-lld")
          << *Path << ": " << Why
          << "; the -kiln-* options on the command line need Kiln's plugin\n";
    else
      WithColor::warning(errs(), "kiln-lld")
          << *Path << ": " << Why << "; linking without Kiln's plugin\n";
    return "";
  }
  return *Path;
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  kiln::LinkerFlavor Flavor =
      kiln::detectFlavor(ArrayRef<const char *>(Argv, Argc));
  // Kiln's own options may come in a response file (build systems and clang
  // use them for long links): expand them here, as lld would, in the
  // flavor's quoting.
  SmallVector<const char *, 64> ExpandedArgv(Argv, Argv + Argc);
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  if (!cl::ExpandResponseFiles(Saver,
                               Flavor == kiln::LinkerFlavor::COFF
                                   ? cl::TokenizeWindowsCommandLine
                                   : cl::TokenizeGNUCommandLine,
                               ExpandedArgv)) {
    WithColor::error(errs(), "kiln-lld") << "cannot read a response file\n";
    return 1;
  }
  ArrayRef<const char *> Args(ExpandedArgv);
  Expected<kiln::SplitLinkCommand> Split =
      kiln::splitKilnLinkOptions(Args, Flavor);
  if (!Split) {
    WithColor::error(errs(), "kiln-lld") << toString(Split.takeError()) << '\n';
    return 1;
  }

  bool NeedsPlugin = kiln::requestsKilnOptions(Args);
  std::string PluginPath = preloadKilnPlugin(Argv[0], NeedsPlugin);
  if (NeedsPlugin && PluginPath.empty())
    return 1;

  // lld can be run again in this process unless a link left it in a state
  // it cannot recover from (it says so).
  bool CanRunAgain = true;
  auto RunLinker = [&](ArrayRef<std::string> LinkArgs, raw_ostream &Stdout,
                       raw_ostream &Stderr) -> int {
    if (!CanRunAgain) {
      WithColor::error(Stderr, "kiln-lld")
          << "lld cannot link a second time in this process\n";
      return 1;
    }
    SmallVector<const char *, 64> Argv;
    for (const std::string &Arg : LinkArgs)
      Argv.push_back(Arg.c_str());
    kiln::LinkerInvocation Invocation =
        kiln::buildLinkerInvocation(Argv, PluginPath, isSameFile);
    SmallVector<const char *, 64> LldArgs;
    for (const std::string &Arg : Invocation.Args)
      LldArgs.push_back(Arg.c_str());
    lld::Result Result = lld::lldMain(LldArgs, Stdout, Stderr,
                                      {{lld::Gnu, &lld::elf::link},
                                       {lld::MinGW, &lld::mingw::link},
                                       {lld::WinLink, &lld::coff::link},
                                       {lld::Darwin, &lld::macho::link}});
    CanRunAgain = Result.canRunAgain;
    return Result.retCode;
  };

  // The scratch files of this run (the checked sections profile, the
  // preliminary link's files), removed at exit unless --kiln-save-temps.
  kiln::ScratchDirectory Scratch;
  Expected<std::string> BlockSections =
      kiln::applyBlockLayoutOptions(Flavor, Split->Kiln, !PluginPath.empty(),
                                    Split->LinkerArgs, Scratch, errs());
  if (!BlockSections) {
    WithColor::error(errs(), "kiln-lld")
        << toString(BlockSections.takeError()) << '\n';
    return 1;
  }

  // Backends a distributor runs elsewhere get Kiln's plugin and options on
  // their command lines (DistributedThinLTO.h).
  kiln::carryKilnToDistributedThinLTO(Flavor, Split->LinkerArgs, PluginPath,
                                      Split->Kiln.Verbose, errs());

  if (!Split->Kiln.requestsProfileGuidedLink()) {
    // A user's ThinLTO cache gets a subdirectory per Kiln configuration (the
    // profile-guided link uses a scratch cache of its own instead).
    if (Error E = kiln::applyLTOCacheSalt(Flavor, Split->LinkerArgs, PluginPath,
                                          *BlockSections, Split->Kiln.Verbose,
                                          errs())) {
      WithColor::error(errs(), "kiln-lld") << toString(std::move(E)) << '\n';
      return 1;
    }
    return RunLinker(Split->LinkerArgs, outs(), errs());
  }
  return kiln::runProfileGuidedLink(Flavor, Split->LinkerArgs, Split->Kiln,
                                    Scratch, RunLinker, outs(), errs());
}

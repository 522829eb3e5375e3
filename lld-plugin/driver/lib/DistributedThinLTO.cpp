//===- DistributedThinLTO.cpp - Kiln in distributed ThinLTO jobs ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Adds Kiln's plugin and options to the remote-compiler arguments of a link
/// that distributes its ThinLTO backends (DistributedThinLTO.h).
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/DistributedThinLTO.h"
#include "kiln/LLDDriver/LTOCacheSalt.h"

#include "kiln/Support/ConfigurationDigest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

bool DistributedThinLTOSetup::remoteCompilerIsKilnThinBackend() const {
  return sys::path::stem(RemoteCompiler) == "kiln" && !PrependArgs.empty() &&
         PrependArgs.front() == "thin-backend";
}

/// If \p LinkerArgs[I] is lld's option \p Name (`-Name=v`, `--Name=v`, or
/// `-Name v`/`--Name v`), stores its value in \p Value, advances \p I past a
/// separate value, and \returns true.
static bool matchOption(ArrayRef<std::string> LinkerArgs, size_t &I,
                        StringRef Name, std::string &Value) {
  StringRef Arg = LinkerArgs[I];
  if (!Arg.consume_front("-"))
    return false;
  Arg.consume_front("-");
  if (!Arg.consume_front(Name))
    return false;
  if (Arg.consume_front("=")) {
    Value = Arg.str();
    return true;
  }
  if (!Arg.empty() || I + 1 == LinkerArgs.size())
    return false;
  Value = LinkerArgs[++I];
  return true;
}

DistributedThinLTOSetup
kiln::findDistributedThinLTOSetup(ArrayRef<std::string> LinkerArgs) {
  DistributedThinLTOSetup Setup;
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    std::string Value;
    // The longer names first: each shorter one is a prefix of them.
    if (matchOption(LinkerArgs, I, "thinlto-remote-compiler-prepend-arg",
                    Value))
      Setup.PrependArgs.push_back(Value);
    else if (matchOption(LinkerArgs, I, "thinlto-remote-compiler", Value))
      Setup.RemoteCompiler = Value;
    else if (matchOption(LinkerArgs, I, "thinlto-distributor", Value))
      Setup.Distributor = Value;
    else if (matchOption(LinkerArgs, I, "lto-cs-profile-file", Value) ||
             matchOption(LinkerArgs, I, "plugin-opt=cs-profile-path", Value))
      Setup.CSProfileFile = Value;
  }
  return Setup;
}

std::vector<std::string>
kiln::remoteCompilerArgsForKiln(const DistributedThinLTOSetup &Setup,
                                StringRef PluginPath,
                                ArrayRef<std::string> KilnOptions) {
  std::vector<std::string> Args;
  if (Setup.remoteCompilerIsKilnThinBackend())
    Args.push_back(
        "--thinlto-remote-compiler-prepend-arg=--relocation-model=static");
  Args.push_back(
      ("--thinlto-remote-compiler-arg=-fpass-plugin=" + PluginPath).str());
  // lld gives its remote jobs none of the profile its in-process backends
  // run with; kiln thin-backend takes it, so that the program is the
  // in-process link's.
  if (Setup.remoteCompilerIsKilnThinBackend() && !Setup.CSProfileFile.empty())
    Args.push_back("--thinlto-remote-compiler-arg=--lto-cs-profile-file=" +
                   Setup.CSProfileFile);
  for (const std::string &Option : KilnOptions) {
    Args.push_back("--thinlto-remote-compiler-arg=-mllvm");
    Args.push_back("--thinlto-remote-compiler-arg=" + Option);
  }
  return Args;
}

void kiln::carryKilnToDistributedThinLTO(LinkerFlavor Flavor,
                                         std::vector<std::string> &LinkerArgs,
                                         StringRef PluginPath, bool Verbose,
                                         raw_ostream &Diag) {
  // Only ELF lld has a distributor and runs pass plugins.
  if (Flavor != LinkerFlavor::ELF || PluginPath.empty())
    return;
  DistributedThinLTOSetup Setup = findDistributedThinLTOSetup(LinkerArgs);
  if (Setup.Distributor.empty())
    return;
  std::vector<std::string> Options = collectKilnOptions(LinkerArgs);
  // The jobs' processes may not see this environment: carry its options
  // on their command lines too.
  llvm::append_range(Options, getKilnOptionsFromEnvironment());
  if (Options.empty())
    return;
  if (!Setup.remoteCompilerIsKilnThinBackend())
    Diag << "kiln-lld: warning: the ThinLTO remote compiler '"
         << Setup.RemoteCompiler
         << "' is not kiln thin-backend: LLVM 22's clang loads Kiln's plugin "
            "in a ThinLTO backend job but runs none of its passes there; use "
            "--thinlto-remote-compiler=<path to kiln> "
            "--thinlto-remote-compiler-prepend-arg=thin-backend\n";
  llvm::append_range(LinkerArgs,
                     remoteCompilerArgsForKiln(Setup, PluginPath, Options));
  if (Verbose)
    Diag << "kiln-lld: note: distributed ThinLTO: each job gets the Kiln "
            "plugin "
         << PluginPath << " and " << Options.size() << " Kiln option(s)\n";
}

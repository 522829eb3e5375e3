//===- LinkerInvocation.cpp - kiln-lld's lld command ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

using namespace llvm;

StringRef kiln::getFlavorName(LinkerFlavor Flavor) {
  switch (Flavor) {
  case LinkerFlavor::Unknown:
    return "unknown";
  case LinkerFlavor::ELF:
    return "ELF";
  case LinkerFlavor::MinGW:
    return "MinGW";
  case LinkerFlavor::COFF:
    return "COFF";
  case LinkerFlavor::MachO:
    return "Mach-O";
  }
  llvm_unreachable("unknown LinkerFlavor");
}

// The spellings lld's DriverDispatcher accepts, for `-flavor X` and for each
// '-'-separated part of the program name.
static kiln::LinkerFlavor parseFlavorWord(StringRef Word) {
  using kiln::LinkerFlavor;
  return StringSwitch<LinkerFlavor>(Word.lower())
      .Cases({"ld", "ld.lld", "gnu"}, LinkerFlavor::ELF)
      .Case("link", LinkerFlavor::COFF)
      .Cases({"ld64", "ld64.lld", "darwin"}, LinkerFlavor::MachO)
      .Default(LinkerFlavor::Unknown);
}

static kiln::LinkerFlavor parseProgramName(StringRef Argv0) {
  StringRef Name = sys::path::filename(Argv0);
  Name.consume_back_insensitive(".exe");
  if (Name == "ld")
    return kiln::LinkerFlavor::ELF;
  SmallVector<StringRef, 4> Parts;
  Name.split(Parts, '-');
  for (StringRef Part : Parts)
    if (kiln::LinkerFlavor F = parseFlavorWord(Part);
        F != kiln::LinkerFlavor::Unknown)
      return F;
  return kiln::LinkerFlavor::Unknown;
}

static bool isOwnProgramName(StringRef Argv0) {
  StringRef Name = sys::path::filename(Argv0);
  Name.consume_back_insensitive(".exe");
  return Name == "kiln-lld";
}

// lld's MinGW driver takes GNU-style arguments with a PE emulation; lld
// decides it the same way (`-m` followed by a PE emulation name).
static bool hasPEEmulation(ArrayRef<const char *> Args) {
  for (size_t I = 1; I + 1 < Args.size(); ++I) {
    if (StringRef(Args[I]) != "-m")
      continue;
    return StringSwitch<bool>(Args[I + 1])
        .Cases({"i386pe", "i386pep", "thumb2pe", "arm64pe", "arm64ecpe",
                "arm64xpe"},
               true)
        .Default(false);
  }
  return false;
}

static bool hasExplicitFlavor(ArrayRef<const char *> Args) {
  return Args.size() > 2 && StringRef(Args[1]) == "-flavor";
}

kiln::LinkerFlavor kiln::detectFlavor(ArrayRef<const char *> Args) {
  if (Args.empty())
    return LinkerFlavor::Unknown;
  LinkerFlavor Flavor;
  if (hasExplicitFlavor(Args))
    Flavor = parseFlavorWord(Args[2]);
  else if (isOwnProgramName(Args[0]))
    Flavor = LinkerFlavor::ELF;
  else
    Flavor = parseProgramName(Args[0]);
  if (Flavor == LinkerFlavor::ELF && hasPEEmulation(Args))
    return LinkerFlavor::MinGW;
  return Flavor;
}

static bool namesPlugin(StringRef Arg, StringRef PluginPath,
                        bool (*IsSamePlugin)(StringRef, StringRef)) {
  StringRef Named;
  if (!Arg.consume_front("--load-pass-plugin=") &&
      !Arg.consume_front("-load-pass-plugin="))
    return false;
  Named = Arg;
  if (Named == PluginPath)
    return true;
  return IsSamePlugin && IsSamePlugin(Named, PluginPath);
}

kiln::LinkerInvocation
kiln::buildLinkerInvocation(ArrayRef<const char *> Args, StringRef PluginPath,
                            bool (*IsSamePlugin)(StringRef, StringRef)) {
  LinkerInvocation Invocation;
  Invocation.Flavor = detectFlavor(Args);
  if (Args.empty())
    return Invocation;

  Invocation.Args.emplace_back(Args[0]);
  // lld refuses to guess under a name it does not know; `kiln-lld` is ELF.
  if (!hasExplicitFlavor(Args) &&
      parseProgramName(Args[0]) == LinkerFlavor::Unknown &&
      Invocation.Flavor != LinkerFlavor::Unknown) {
    Invocation.Args.emplace_back("-flavor");
    Invocation.Args.emplace_back("gnu");
  }
  bool UserNamedPlugin = false;
  for (const char *Arg : Args.drop_front()) {
    Invocation.Args.emplace_back(Arg);
    UserNamedPlugin |= namesPlugin(Arg, PluginPath, IsSamePlugin);
  }

  // Only ld.lld and ld64.lld have --load-pass-plugin; lld-link has no way to
  // run a pass plugin in its LTO.
  bool FlavorTakesPlugins = Invocation.Flavor == LinkerFlavor::ELF ||
                            Invocation.Flavor == LinkerFlavor::MachO;
  if (FlavorTakesPlugins && !PluginPath.empty() && !UserNamedPlugin) {
    Invocation.Args.push_back(("--load-pass-plugin=" + PluginPath).str());
    Invocation.AddedPassPlugin = true;
  }
  return Invocation;
}

bool kiln::requestsKilnOptions(ArrayRef<const char *> Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    StringRef Value;
    if ((Arg == "-mllvm" || Arg == "--mllvm") && I + 1 < Args.size())
      Value = Args[I + 1];
    else if (!Arg.consume_front("-mllvm=") && !Arg.consume_front("--mllvm=") &&
             !Arg.consume_front("--plugin-opt=") &&
             !Arg.consume_front("-plugin-opt=") &&
             !Arg.consume_front_insensitive("/mllvm:") &&
             !Arg.consume_front_insensitive("-mllvm:"))
      continue;
    else
      Value = Arg;
    if (Value.starts_with("-kiln-") || Value.starts_with("--kiln-"))
      return true;
  }
  return false;
}

std::string kiln::getELFEntrySymbol(ArrayRef<std::string> Args) {
  std::string Entry = "_start";
  bool Executable = true;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    // lld accepts one or two dashes before every long option.
    StringRef Long = Arg;
    if (Long.consume_front("--") || Long.consume_front("-")) {
      if (Long == "shared" || Long == "Bshareable" || Long == "r" ||
          Long == "relocatable") {
        Executable = false;
        continue;
      }
      if ((Long == "e" || Long == "entry") && I + 1 < Args.size()) {
        Entry = Args[++I];
        continue;
      }
      if (Long.consume_front("entry=")) {
        Entry = Long.str();
        continue;
      }
    }
    // The joined `-e<symbol>` is not read: without lld's option table it
    // cannot be told from the many long options that start with "e". A
    // wrong guess costs nothing: `_start`, if defined, joins startup.
  }
  return Executable ? Entry : "";
}

//===- LTOCacheSalt.cpp - Kiln's ThinLTO cache ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LTOCacheSalt.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "kiln/Support/ConfigurationDigest.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

static bool isKilnOption(StringRef Value) {
  return getOptionName(Value).starts_with("kiln-") && Value.starts_with("-");
}

std::vector<std::string>
kiln::collectKilnOptions(ArrayRef<std::string> LinkerArgs) {
  std::vector<std::string> Options;
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    StringRef Arg = LinkerArgs[I];
    StringRef Value;
    bool TakesNext = Arg == "-mllvm" || Arg == "--mllvm" ||
                     Arg == "-plugin-opt" || Arg == "--plugin-opt";
    if (TakesNext) {
      if (I + 1 == LinkerArgs.size())
        break;
      Value = LinkerArgs[++I];
    } else if (!Arg.consume_front("-mllvm=") &&
               !Arg.consume_front("--mllvm=") &&
               !Arg.consume_front("--plugin-opt=") &&
               !Arg.consume_front("-plugin-opt=")) {
      continue;
    } else {
      Value = Arg;
    }
    if (isKilnOption(Value))
      Options.push_back(Value.str());
  }
  return Options;
}

std::vector<std::string>
kiln::saltLTOCacheDirectories(ArrayRef<std::string> LinkerArgs,
                              LinkerFlavor Flavor, StringRef Salt) {
  std::vector<std::string> Args(LinkerArgs.begin(), LinkerArgs.end());
  for (const LTOCacheOption &Option : findLTOCacheOptions(LinkerArgs, Flavor)) {
    std::string &Arg = Args[Option.ArgIndex];
    SmallString<128> Dir(StringRef(Arg).drop_front(Option.ValueOffset));
    // lld-link's separator, so the path reads naturally under COFF.
    sys::path::append(Dir,
                      Flavor == LinkerFlavor::COFF ? sys::path::Style::windows
                                                   : sys::path::Style::posix,
                      "kiln-" + Salt);
    Arg = (StringRef(Arg).take_front(Option.ValueOffset) + Dir).str();
  }
  return Args;
}

Error kiln::applyLTOCacheSalt(LinkerFlavor Flavor,
                              std::vector<std::string> &LinkerArgs,
                              StringRef PluginPath, StringRef BlockSections,
                              bool Verbose, raw_ostream &Diag) {
  // lld-link and the MinGW driver run no pass plugin in their LTO: their
  // objects do not depend on Kiln, so their cache needs no salt.
  if (Flavor != LinkerFlavor::ELF && Flavor != LinkerFlavor::MachO)
    return Error::success();
  std::string UserCache = findUserLTOCache(LinkerArgs, Flavor);
  if (UserCache.empty())
    return Error::success();
  std::vector<std::string> Options;
  if (!PluginPath.empty()) {
    Options = collectKilnOptions(LinkerArgs);
    llvm::append_range(Options, getKilnOptionsFromEnvironment());
  }
  if (Options.empty() && BlockSections.empty())
    return Error::success();

  StableDigest Digest;
  if (!Options.empty())
    if (Error E = addKilnConfiguration(Digest, PluginPath, Options))
      return createStringError(inconvertibleErrorCode(),
                               "cannot key the ThinLTO cache on Kiln's "
                               "configuration: " +
                                   toString(std::move(E)));
  // The checked copy's name is new in every run: its content is what the
  // objects depend on.
  if (!BlockSections.empty())
    Digest.add("block-sections", BlockSections);
  std::string Salt = Digest.hex();
  LinkerArgs = saltLTOCacheDirectories(LinkerArgs, Flavor, Salt);
  if (Verbose)
    Diag << "kiln-lld: note: ThinLTO cache: "
         << findUserLTOCache(LinkerArgs, Flavor) << " (the cache " << UserCache
         << " keyed on "
         << (Options.empty()
                 ? ""
                 : "the Kiln plugin and " + std::to_string(Options.size()) +
                       " Kiln option(s)")
         << (!Options.empty() && !BlockSections.empty() ? " and " : "")
         << (BlockSections.empty() ? "" : "the block sections profile")
         << ")\n";
  return Error::success();
}

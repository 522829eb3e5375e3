//===- ProfileGuidedLinkSteps.cpp - Command lines of the two links --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <cstring>
#include <optional>

using namespace llvm;
using namespace kiln;

/// \returns the value of a COFF option `/name:value` (any case, `/` or `-`).
static std::optional<StringRef> getCOFFValue(StringRef Arg, StringRef Name) {
  if (!Arg.consume_front("/") && !Arg.consume_front("-"))
    return std::nullopt;
  if (!Arg.consume_front_insensitive(Name) || !Arg.consume_front(":"))
    return std::nullopt;
  return Arg;
}

/// \returns the value of GNU long option \p Name given as `--name=v`,
/// `-name=v`, or `--name v` / `-name v` (then \p I moves to the value).
static std::optional<StringRef> getGnuValue(ArrayRef<std::string> Args,
                                            size_t &I, StringRef Name) {
  StringRef Arg = Args[I];
  if (!Arg.consume_front("--") && !Arg.consume_front("-"))
    return std::nullopt;
  if (!Arg.consume_front(Name))
    return std::nullopt;
  if (Arg.consume_front("="))
    return Arg;
  if (Arg.empty() && I + 1 < Args.size())
    return StringRef(Args[++I]);
  return std::nullopt;
}

std::vector<LTOCacheOption>
kiln::findLTOCacheOptions(ArrayRef<std::string> LinkerArgs,
                          LinkerFlavor Flavor) {
  std::vector<LTOCacheOption> Found;
  // A joined value is a suffix of its argument.
  auto AddJoined = [&](size_t I, StringRef Value) {
    Found.push_back({I, LinkerArgs[I].size() - Value.size()});
  };
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    StringRef Arg = LinkerArgs[I];
    if (Flavor == LinkerFlavor::COFF) {
      if (std::optional<StringRef> V = getCOFFValue(Arg, "lldltocache"))
        AddJoined(I, *V);
    } else if (Flavor == LinkerFlavor::MachO) {
      if (Arg == "-cache_path_lto" && I + 1 < LinkerArgs.size())
        Found.push_back({++I, 0});
    } else if (Arg.consume_front("--thinlto-cache-dir=") ||
               Arg.consume_front("-thinlto-cache-dir=") ||
               Arg.consume_front("--plugin-opt=cache-dir=") ||
               Arg.consume_front("-plugin-opt=cache-dir=")) {
      // ld.lld takes these joined only (`--thinlto-cache-dir D` is an
      // unknown option to it).
      AddJoined(I, Arg);
    }
  }
  return Found;
}

std::string kiln::findUserLTOCache(ArrayRef<std::string> LinkerArgs,
                                   LinkerFlavor Flavor) {
  std::vector<LTOCacheOption> Options = findLTOCacheOptions(LinkerArgs, Flavor);
  if (Options.empty())
    return "";
  // Each linker takes the last one.
  return StringRef(LinkerArgs[Options.back().ArgIndex])
      .drop_front(Options.back().ValueOffset)
      .str();
}

std::string kiln::findOutputPath(ArrayRef<std::string> LinkerArgs,
                                 LinkerFlavor Flavor) {
  std::string Output = Flavor == LinkerFlavor::COFF ? "" : "a.out";
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    StringRef Arg = LinkerArgs[I];
    if (Flavor == LinkerFlavor::COFF) {
      if (std::optional<StringRef> V = getCOFFValue(Arg, "out"))
        Output = V->str();
      continue;
    }
    if (Arg == "-o" && I + 1 < LinkerArgs.size()) {
      Output = LinkerArgs[++I];
      continue;
    }
    if (Flavor == LinkerFlavor::MachO)
      continue;
    if (std::optional<StringRef> V = getGnuValue(LinkerArgs, I, "output"))
      Output = V->str();
    else if (Arg.starts_with("-o") && !Arg.starts_with("--") &&
             Arg.size() > 2 && !Arg.starts_with("-oformat") &&
             !Arg.starts_with("-omagic"))
      // `-ofile`; `-oformat`/`-omagic` are GNU long options with one dash.
      Output = Arg.drop_front(2).str();
  }
  return Output;
}

/// The options of each flavor that name a file the link writes besides its
/// output (with a value: `/map` alone names one next to the output, which
/// is the scratch output already). Each linker takes the last of each.
static constexpr StringLiteral GnuSideOutputs[] = {
    "Map",
    "why-extract",
    "dependency-file",
    "print-archive-stats",
    "print-symbol-order",
    "opt-remarks-filename",
    "plugin-opt=opt-remarks-filename",
    "reproduce",
};
static constexpr StringLiteral COFFSideOutputs[] = {"map", "lldmap", "implib",
                                                    "pdb", "reproduce"};
static constexpr StringLiteral MachOSideOutputs[] = {"-map",
                                                     "-dependency_info"};

/// \returns the side output options of \p LinkerArgs (see GnuSideOutputs),
/// each once, in the order of the tables.
static std::vector<StringRef>
findSideOutputOptions(ArrayRef<std::string> LinkerArgs, LinkerFlavor Flavor) {
  std::vector<StringRef> Found;
  auto Note = [&](StringRef Name) {
    if (!llvm::is_contained(Found, Name))
      Found.push_back(Name);
  };
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    StringRef Arg = LinkerArgs[I];
    switch (Flavor) {
    case LinkerFlavor::COFF:
      for (StringRef Name : COFFSideOutputs)
        if (getCOFFValue(Arg, Name))
          Note(Name);
      break;
    case LinkerFlavor::MachO:
      for (StringRef Name : MachOSideOutputs)
        if (Arg == Name && I + 1 < LinkerArgs.size())
          Note(Name);
      break;
    case LinkerFlavor::ELF:
    case LinkerFlavor::MinGW:
    case LinkerFlavor::Unknown:
      for (StringRef Name : GnuSideOutputs) {
        size_t At = I;
        if (getGnuValue(LinkerArgs, At, Name))
          Note(Name);
      }
      break;
    }
  }
  return Found;
}

std::vector<std::string>
kiln::buildPreliminaryLinkArgs(ArrayRef<std::string> LinkerArgs,
                               LinkerFlavor Flavor,
                               const ScratchPaths &Scratch) {
  std::vector<std::string> Args(LinkerArgs.begin(), LinkerArgs.end());
  // Each linker takes the last output option.
  switch (Flavor) {
  case LinkerFlavor::COFF:
    Args.push_back("/out:" + Scratch.Output);
    Args.push_back("/verbose");
    Args.push_back("/lto-obj-path:" + Scratch.LTOObjects);
    if (!Scratch.LTOCache.empty())
      Args.push_back("/lldltocache:" + Scratch.LTOCache);
    break;
  case LinkerFlavor::MachO:
    Args.insert(Args.end(), {"-o", Scratch.Output, "-t", "-object_path_lto",
                             Scratch.LTOObjects});
    if (!Scratch.LTOCache.empty())
      Args.insert(Args.end(), {"-cache_path_lto", Scratch.LTOCache});
    break;
  case LinkerFlavor::ELF:
  case LinkerFlavor::MinGW:
  case LinkerFlavor::Unknown:
    Args.insert(Args.end(), {"-o", Scratch.Output, "--trace",
                             "--lto-obj-path=" + Scratch.LTOObjects});
    if (!Scratch.LTOCache.empty())
      Args.push_back("--thinlto-cache-dir=" + Scratch.LTOCache);
    break;
  }
  if (Scratch.SideOutputs.empty())
    return Args;
  for (StringRef Name : findSideOutputOptions(LinkerArgs, Flavor)) {
    // `plugin-opt=opt-remarks-filename` -> `<prefix>.opt-remarks-filename`.
    StringRef Suffix =
        Name.contains('=') ? Name.rsplit('=').second : Name.ltrim('-');
    std::string Path = (Scratch.SideOutputs + "." + Suffix).str();
    switch (Flavor) {
    case LinkerFlavor::COFF:
      Args.push_back(("/" + Name + ":" + Path).str());
      break;
    case LinkerFlavor::MachO:
      Args.insert(Args.end(), {Name.str(), Path});
      break;
    case LinkerFlavor::ELF:
    case LinkerFlavor::MinGW:
    case LinkerFlavor::Unknown:
      Args.push_back(("--" + Name + "=" + Path).str());
      break;
    }
  }
  return Args;
}

std::vector<std::string>
kiln::buildFinalLinkArgs(ArrayRef<std::string> LinkerArgs, LinkerFlavor Flavor,
                         StringRef OrderFile, StringRef LTOCache) {
  std::vector<std::string> Args(LinkerArgs.begin(), LinkerArgs.end());
  switch (Flavor) {
  case LinkerFlavor::COFF:
    Args.push_back((Twine("/order:@") + OrderFile).str());
    // Kiln reports what it could not order itself; lld-link's LNK4037
    // ("missing symbol") would repeat it for functions LTO dropped.
    Args.push_back("/ignore:4037");
    if (!LTOCache.empty())
      Args.push_back((Twine("/lldltocache:") + LTOCache).str());
    break;
  case LinkerFlavor::MachO:
    Args.insert(Args.end(), {"-order_file", OrderFile.str()});
    if (!LTOCache.empty())
      Args.insert(Args.end(), {"-cache_path_lto", LTOCache.str()});
    break;
  case LinkerFlavor::ELF:
  case LinkerFlavor::MinGW:
  case LinkerFlavor::Unknown:
    Args.push_back((Twine("--symbol-ordering-file=") + OrderFile).str());
    // As for lld-link: absent or discarded entries are Kiln's to report.
    Args.push_back("--no-warn-symbol-ordering");
    if (!LTOCache.empty())
      Args.push_back((Twine("--thinlto-cache-dir=") + LTOCache).str());
    break;
  }
  return Args;
}

static TracedInput parseTracedLine(StringRef Line) {
  // `archive(member)`; a path may itself contain parentheses, so only a
  // trailing `)` with a `(` before it and a member between them counts.
  if (Line.ends_with(")")) {
    size_t Open = Line.rfind('(');
    if (Open != StringRef::npos && Open > 0 && Open + 2 < Line.size())
      return {Line.take_front(Open).str(),
              Line.slice(Open + 1, Line.size() - 1).str()};
  }
  return {Line.str(), ""};
}

std::vector<TracedInput> kiln::parseTracedInputs(StringRef Stdout,
                                                 StringRef Stderr,
                                                 LinkerFlavor Flavor) {
  std::vector<TracedInput> Inputs;
  // By what the line names, not its spelling.
  StringSet<> Seen;
  auto Add = [&](StringRef Line) {
    Line = Line.trim();
    if (Line.empty())
      return;
    TracedInput In = parseTracedLine(Line);
    if (Seen.insert(In.Path + '\0' + In.Member).second)
      Inputs.push_back(std::move(In));
  };
  SmallVector<StringRef, 0> Lines;
  if (Flavor == LinkerFlavor::COFF) {
    Stderr.split(Lines, '\n', -1, false);
    for (StringRef Line : Lines) {
      size_t At = Line.find(": Reading ");
      if (At != StringRef::npos)
        Add(Line.drop_front(At + strlen(": Reading ")));
    }
    return Inputs;
  }
  Stdout.split(Lines, '\n', -1, false);
  for (StringRef Line : Lines)
    Add(Line);
  return Inputs;
}

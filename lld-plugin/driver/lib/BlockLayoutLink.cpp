//===- BlockLayoutLink.cpp - Block layout options -------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/BlockLayoutLink.h"
#include "kiln/LLDDriver/BlockSections.h"
#include "kiln/LLDDriver/LinkBitcode.h"
#include "kiln/LLDDriver/ScratchDirectory.h"

#include "kiln/Layout/BlockLayout.h"
#include "kiln/Order/BlockSectionsFile.h"
#include "kiln/Sources/BlockProfileText.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;

static constexpr StringLiteral ToolName = "kiln-lld";

static Error blockLayoutError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str());
}

/// \returns whether \p Arg is lld's own option \p Name (one or two dashes,
/// joined value or none).
static bool isLldOption(StringRef Arg, StringRef Name) {
  if (!Arg.consume_front("-"))
    return false;
  Arg.consume_front("-");
  return Arg.consume_front(Name) && (Arg.empty() || Arg.starts_with("="));
}

/// The sections profile's part this link can use, or "" when there is none
/// (each reason already said on \p Diag).
static Expected<std::string>
checkSectionsProfile(const KilnLinkOptions &Options,
                     ArrayRef<std::string> LinkerArgs, raw_ostream &Diag) {
  StringRef Path = Options.BlockSections;
  auto Unusable = [&](const Twine &Why) -> Expected<std::string> {
    if (Options.Strict)
      return blockLayoutError(Why);
    WithColor::warning(Diag, ToolName)
        << Why << "; linking without the block sections profile\n";
    return "";
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Unusable(Path + ": " + Buffer.getError().message());
  Expected<BlockSectionsProfile> Profile =
      parseBlockSectionsProfile(Path, (*Buffer)->getBuffer());
  if (!Profile)
    return Unusable(toString(Profile.takeError()));

  Expected<LinkBitcode> Bitcode =
      readLinkBitcode(findLinkInputFiles(LinkerArgs));
  if (!Bitcode)
    return Unusable(toString(Bitcode.takeError()));
  if (Bitcode->NumModules == 0)
    return Unusable("--kiln-block-sections: the link has no bitcode: block "
                    "sections are laid out by LTO code generation (for "
                    "native objects, recompile with clang "
                    "-fbasic-block-sections=list=" +
                    Path + ")");

  FilteredBlockSections Filtered =
      filterBlockSections(*Profile, Bitcode->Names);
  for (const BlockSectionsFunction &F : Filtered.Refused)
    WithColor::warning(Diag, ToolName)
        << Path << ":" << F.Line << ": function '"
        << (F.Names.empty() ? "" : F.Names.front()) << "': " << F.Refusal
        << "; it keeps Kiln's function-level layout\n";
  if (Filtered.NotInLink)
    WithColor::warning(Diag, ToolName)
        << Path << ": " << Filtered.NotInLink << " of "
        << Profile->Functions.size()
        << " function(s) are not in the link's bitcode; dropped\n";
  if (Filtered.Kept.empty()) {
    WithColor::warning(Diag, ToolName)
        << Path << ": no function of the profile can be laid out; linking "
        << "without the block sections profile\n";
    return "";
  }
  if (Options.Verbose)
    Diag << ToolName << ": note: block sections: " << Filtered.Kept.size()
         << " of " << Profile->Functions.size() << " function(s) of " << Path
         << " given to LTO\n";
  std::string Text;
  raw_string_ostream OS(Text);
  writeBlockSectionsProfile(Filtered.Kept, OS);
  return Text;
}

/// Plans the block layout of `--kiln-block-profile=`'s profile and writes
/// the sections profile and the clusters' order into \p Scratch.
/// \returns their paths, or empty paths when the profile is unusable (a
/// warning on \p Diag; `--kiln-strict`: an error).
static Expected<std::pair<std::string, std::string>>
planBlockProfile(const KilnLinkOptions &Options, ScratchDirectory &Scratch,
                 raw_ostream &Diag) {
  StringRef Path = Options.BlockProfile;
  auto Unusable =
      [&](const Twine &Why) -> Expected<std::pair<std::string, std::string>> {
    if (Options.Strict)
      return blockLayoutError(Why);
    WithColor::warning(Diag, ToolName)
        << Why << "; linking without block layout\n";
    return std::pair<std::string, std::string>();
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Unusable(Path + ": " + Buffer.getError().message());
  Expected<layout::BlockProfile> Profile =
      parseBlockProfile((*Buffer)->getMemBufferRef());
  if (!Profile)
    return Unusable(toString(Profile.takeError()));
  layout::BlockLayout Layout = layout::planBlockLayout(*Profile);
  if (Layout.Functions.empty())
    return Unusable(Path + ": no block of the profile ran in any scenario");
  if (Error E = Scratch.create())
    return std::move(E);
  std::vector<std::string> Header = {"planned by kiln-lld from " + Path.str()};
  std::string Sections = Scratch.file("block-layout.txt");
  if (Error E = writeOutputFile(
          Sections,
          [&](raw_ostream &OS) {
            writeBasicBlockSectionsProfile(*Profile, Layout, Header, OS);
          },
          sys::fs::OF_Text))
    return std::move(E);
  std::string Order = Scratch.file("block-layout.order");
  OrderFileOptions OrderOpts;
  OrderOpts.Header = Header;
  if (Error E = writeOutputFile(
          Order,
          [&](raw_ostream &OS) {
            writeClusterOrderFile(*Profile, Layout, OrderOpts, OS);
          },
          sys::fs::OF_Text))
    return std::move(E);
  if (Options.Verbose)
    Diag << ToolName << ": note: block layout: " << Layout.Functions.size()
         << " function(s) in " << Layout.Clusters.size()
         << " cluster(s) planned from " << Path << '\n';
  return std::make_pair(Sections, Order);
}

Expected<std::string>
kiln::applyBlockLayoutOptions(LinkerFlavor Flavor,
                              const KilnLinkOptions &Options,
                              std::vector<std::string> &LinkerArgs,
                              ScratchDirectory &Scratch, raw_ostream &Diag) {
  if (!Options.BlockAddressMap && Options.BlockSections.empty() &&
      Options.BlockProfile.empty())
    return "";
  StringRef Asked = !Options.BlockProfile.empty() ? "--kiln-block-profile"
                    : !Options.BlockSections.empty()
                        ? "--kiln-block-sections"
                        : "--kiln-block-address-map";
  // LLVM 22 emits basic-block sections and the address map for ELF only;
  // COFF and Mach-O code generation have neither.
  if (Flavor != LinkerFlavor::ELF)
    return blockLayoutError(Asked +
                            ": basic-block sections and address "
                            "maps are ELF only in LLVM 22, not " +
                            getFlavorName(Flavor));
  if (Options.BlockAddressMap && none_of(LinkerArgs, [](StringRef Arg) {
        return isLldOption(Arg, "lto-basic-block-address-map");
      }))
    LinkerArgs.push_back("--lto-basic-block-address-map");
  if (Options.BlockSections.empty() && Options.BlockProfile.empty())
    return "";

  // --kiln-block-profile: plan here, then go on as --kiln-block-sections
  // with the planned profile, linking in the clusters' order.
  KilnLinkOptions Effective = Options;
  std::string PlannedOrder;
  if (!Options.BlockProfile.empty()) {
    if (!Options.BlockSections.empty())
      return blockLayoutError("--kiln-block-profile and "
                              "--kiln-block-sections both give the link a "
                              "block layout; drop one of them");
    if (Options.requestsProfileGuidedLink())
      return blockLayoutError(
          "--kiln-block-profile orders the link by the block profile's "
          "clusters, --kiln-profile/--kiln-startup-profile/--kiln-scenario "
          "by functions; give one of them");
    for (StringRef Arg : LinkerArgs)
      if (isLldOption(Arg, "symbol-ordering-file"))
        return blockLayoutError(Arg + " and --kiln-block-profile both order "
                                      "the link; drop one of them");
    Expected<std::pair<std::string, std::string>> Planned =
        planBlockProfile(Options, Scratch, Diag);
    if (!Planned)
      return Planned.takeError();
    if (Planned->first.empty())
      return "";
    Effective.BlockSections = Planned->first;
    PlannedOrder = Planned->second;
  }

  for (StringRef Arg : LinkerArgs)
    if (isLldOption(Arg, "lto-basic-block-sections"))
      return blockLayoutError(Arg + " and --kiln-block-sections both give LTO "
                                    "a basic-block sections profile; drop "
                                    "one of them");
  Expected<std::string> Text =
      checkSectionsProfile(Effective, LinkerArgs, Diag);
  if (!Text || Text->empty())
    return Text;
  // The order names parts (`fn.__part.1`, `fn.cold`) that only exist when
  // the check kept the function; the others are not warned about.
  if (!PlannedOrder.empty()) {
    LinkerArgs.push_back("--symbol-ordering-file=" + PlannedOrder);
    LinkerArgs.push_back("--no-warn-symbol-ordering");
  }
  if (Error E = Scratch.create())
    return std::move(E);
  if (Options.SaveTemps)
    Scratch.keep(Diag);
  std::string Copy = Scratch.file("block-sections.txt");
  if (Error E = writeOutputFile(
          Copy, [&](raw_ostream &OS) { OS << *Text; }, sys::fs::OF_Text))
    return std::move(E);
  LinkerArgs.push_back("--lto-basic-block-sections=" + Copy);
  return Text;
}

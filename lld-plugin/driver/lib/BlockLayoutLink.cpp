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

Expected<std::string>
kiln::applyBlockLayoutOptions(LinkerFlavor Flavor,
                              const KilnLinkOptions &Options,
                              std::vector<std::string> &LinkerArgs,
                              ScratchDirectory &Scratch, raw_ostream &Diag) {
  if (!Options.BlockAddressMap && Options.BlockSections.empty())
    return "";
  StringRef Asked = Options.BlockSections.empty() ? "--kiln-block-address-map"
                                                  : "--kiln-block-sections";
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
  if (Options.BlockSections.empty())
    return "";

  for (StringRef Arg : LinkerArgs)
    if (isLldOption(Arg, "lto-basic-block-sections"))
      return blockLayoutError(Arg + " and --kiln-block-sections both give LTO "
                                    "a basic-block sections profile; drop "
                                    "one of them");
  Expected<std::string> Text = checkSectionsProfile(Options, LinkerArgs, Diag);
  if (!Text || Text->empty())
    return Text;
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

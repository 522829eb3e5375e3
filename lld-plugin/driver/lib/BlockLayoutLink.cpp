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
#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

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

/// \returns whether \p LinkerArgs give LTO's code generation the LLVM
/// option \p Name (`-mllvm -<Name>`, `-mllvm=-<Name>`, with any value).
static bool hasMllvmOption(ArrayRef<std::string> LinkerArgs, StringRef Name) {
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    StringRef Arg = LinkerArgs[I];
    StringRef Value;
    if ((Arg == "-mllvm" || Arg == "--mllvm") && I + 1 < LinkerArgs.size())
      Value = LinkerArgs[++I];
    else if (!Arg.consume_front("-mllvm=") && !Arg.consume_front("--mllvm="))
      continue;
    else
      Value = Arg;
    if (isLldOption(Value, Name))
      return true;
  }
  return false;
}

namespace {
/// What the check of a sections profile kept of it, for the summary of
/// `--kiln-block-profile`.
struct SectionsCheck {
  size_t Kept = 0;
  size_t NotInLink = 0;
  size_t Refused = 0;
};

/// What the planner of `--kiln-block-profile` made of the profile.
struct PlannedBlockProfile {
  std::string Sections; ///< The planned sections profile ("" if unusable).
  std::string Order;    ///< The clusters' symbol order.
  std::string Path;     ///< The block profile.
  size_t Ran = 0;       ///< Functions some scenario ran.
  size_t Skipped = 0;   ///< Left out by the planner (SkipReason).
  size_t Whole = 0;     ///< Placed whole by a name others share.
  size_t Unseen = 0;    ///< Placed whole: their profile saw only the entry.
};
} // namespace

/// The sections profile's part this link can use, or "" when there is none
/// (each reason already said on \p Diag). \p Check, if given, gets the
/// counts: the profile was planned from `--kiln-block-profile=`'s, which
/// the diagnostics name instead of the planned file, and the summary says
/// how many functions the link does not define.
static Expected<std::string>
checkSectionsProfile(const KilnLinkOptions &Options, const LinkBitcode *Bitcode,
                     StringRef BitcodeError, raw_ostream &Diag,
                     SectionsCheck *Check = nullptr) {
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

  if (!Bitcode)
    return Unusable(BitcodeError);
  if (Bitcode->NumModules == 0)
    return Unusable("--kiln-block-sections: the link has no bitcode: block "
                    "sections are laid out by LTO code generation (for "
                    "native objects, recompile with clang "
                    "-fbasic-block-sections=list=" +
                    Path + ")");

  FilteredBlockSections Filtered =
      filterBlockSections(*Profile, Bitcode->Names);
  if (Check)
    *Check = {Filtered.Kept.size(), Filtered.NotInLink,
              Filtered.Refused.size()};
  // The planned file's lines mean nothing to the user.
  StringRef Shown = Check ? StringRef(Options.BlockProfile) : Path;
  for (const BlockSectionsFunction &F : Filtered.Refused) {
    WithColor::warning(Diag, ToolName) << Shown;
    if (!Check)
      Diag << ":" << F.Line;
    Diag << ": function '" << (F.Names.empty() ? "" : F.Names.front())
         << "': " << F.Refusal << "; it keeps Kiln's function-level layout\n";
  }
  if (Filtered.NotInLink && !Check)
    WithColor::warning(Diag, ToolName)
        << Path << ": " << Filtered.NotInLink << " of "
        << Profile->Functions.size()
        << " function(s) are not in the link's bitcode; dropped\n";
  if (Filtered.Kept.empty()) {
    WithColor::warning(Diag, ToolName)
        << Shown << ": no function of the profile can be laid out; linking "
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

/// Names each function of \p Profile that a symbol of \p Names.Aliases
/// names by that alias's function, unless the profile has a function of
/// that name too. The profile names a function by a symbol at its address:
/// a C++ complete-object constructor or destructor (`C1`/`D1`) where it is
/// an alias of the base-object one (`C2`/`D2`), whose name the backend
/// lays the function out by and gives its parts (`<name>.__part.1`,
/// `<name>.cold`), which the clusters' order must name.
static void nameFunctionsAsTheBitcode(layout::BlockProfile &Profile,
                                      const LinkFunctionNames &Names) {
  StringSet<> Taken;
  for (const layout::BlockFunction &F : Profile.Functions)
    Taken.insert(F.Name);
  for (layout::BlockFunction &F : Profile.Functions) {
    auto It = Names.Aliases.find(F.Name);
    if (It == Names.Aliases.end() || !Taken.insert(It->second).second)
      continue;
    F.Name = It->second;
  }
}

/// Plans the block layout of `--kiln-block-profile=`'s profile and writes
/// the sections profile and the clusters' order into \p Scratch.
/// \returns their paths, or empty paths when the profile is unusable (a
/// warning on \p Diag; `--kiln-strict`: an error).
static Expected<PlannedBlockProfile> planBlockProfile(
    const KilnLinkOptions &Options, const layout::BlockLayoutConfig &Config,
    const LinkBitcode *Bitcode, ScratchDirectory &Scratch, raw_ostream &Diag) {
  StringRef Path = Options.BlockProfile;
  auto Unusable = [&](const Twine &Why) -> Expected<PlannedBlockProfile> {
    if (Options.Strict)
      return blockLayoutError(Why);
    WithColor::warning(Diag, ToolName)
        << Why << "; linking without block layout\n";
    return PlannedBlockProfile();
  };
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/true);
  if (!Buffer)
    return Unusable(Path + ": " + Buffer.getError().message());
  Expected<layout::BlockProfile> Profile =
      parseBlockProfile((*Buffer)->getMemBufferRef());
  if (!Profile)
    return Unusable(toString(Profile.takeError()));
  if (Bitcode)
    nameFunctionsAsTheBitcode(*Profile, Bitcode->Names);
  layout::BlockLayout Layout = layout::planBlockLayout(*Profile, Config);
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
         << " cluster(s) planned from " << Path
         << (Config.KeepsBlockAlignment
                 ? ""
                 : ", for a relink without loop alignment (-mllvm "
                   "-align-loops=1)")
         << '\n';
  PlannedBlockProfile Planned;
  Planned.Sections = Sections;
  Planned.Order = Order;
  Planned.Path = Path.str();
  Planned.Ran = Profile->Functions.size() - Layout.NumNotRun;
  Planned.Skipped = Layout.Skipped.size();
  Planned.Whole = Layout.NumSharedNames;
  Planned.Unseen = Layout.NumInsideUnseen;
  return Planned;
}

/// Says on \p Diag what of \p Planned's functions that ran got no block
/// layout, if any: the counts of kiln block-layout's summary and of the
/// sections check, in one line. It is a note unless the sections check
/// refused a function: a function that is not in the link's bitcode (it
/// comes from a native object or another binary) or that the planner
/// skipped is how such a link normally goes, and each refusal already has
/// its own warning above.
static void summarizeBlockProfile(const PlannedBlockProfile &Planned,
                                  const SectionsCheck &Check,
                                  raw_ostream &Diag) {
  size_t LeftOut = Check.NotInLink + Check.Refused + Planned.Skipped;
  if (!LeftOut)
    return;
  (Check.Refused ? WithColor::warning(Diag, ToolName)
                 : WithColor::note(Diag, ToolName))
      << Planned.Path << ": block layout for " << Check.Kept << " of "
      << Planned.Ran << " function(s) that ran; " << Planned.Whole
      << " laid out whole, by a name other functions share; " << Planned.Unseen
      << " laid out whole, the profile saw only their entry run; left out, "
         "with function-level layout: "
      << Check.NotInLink << " not in the link's bitcode, " << Check.Refused
      << " refused, " << Planned.Skipped << " skipped by the planner\n";
}

/// Asks the ThinLTO backends of the link to rename \p Bitcode's same-named
/// locals (kiln/Support/UniqueLocalNames.h): a list in \p Scratch, named by
/// `-mllvm -kiln-unique-local-names=`. Nothing to do without such locals,
/// or when the plugin that renames them is not loaded (then a profile of
/// the link names them as before, ambiguously), or the link already names
/// a list.
static Error addUniqueLocalNames(const LinkBitcode *Bitcode, bool HasPlugin,
                                 bool Verbose,
                                 std::vector<std::string> &LinkerArgs,
                                 ScratchDirectory &Scratch, raw_ostream &Diag) {
  if (!Bitcode || Bitcode->UniqueLocals.empty() || !HasPlugin ||
      hasMllvmOption(LinkerArgs, "kiln-unique-local-names"))
    return Error::success();
  if (Error E = Scratch.create())
    return E;
  std::string List = Scratch.file("unique-local-names.txt");
  if (Error E = writeOutputFile(
          List,
          [&](raw_ostream &OS) {
            writeUniqueLocalNames(Bitcode->UniqueLocals, OS);
          },
          sys::fs::OF_Text))
    return E;
  LinkerArgs.push_back("-mllvm");
  LinkerArgs.push_back("-kiln-unique-local-names=" + List);
  if (Verbose)
    Diag << ToolName << ": note: " << Bitcode->UniqueLocals.size()
         << " local function(s) share a name with other functions of the "
            "link; the ThinLTO backends give them unique names ("
         << List << ")\n";
  return Error::success();
}

Expected<std::string>
kiln::applyBlockLayoutOptions(LinkerFlavor Flavor,
                              const KilnLinkOptions &Options, bool HasPlugin,
                              std::vector<std::string> &LinkerArgs,
                              ScratchDirectory &Scratch, raw_ostream &Diag) {
  const bool AddressMap = Options.BlockAddressMap || Options.BlockHashes;
  if (!AddressMap && Options.BlockSections.empty() &&
      Options.BlockProfile.empty())
    return "";
  StringRef Asked = !Options.BlockProfile.empty()    ? "--kiln-block-profile"
                    : !Options.BlockSections.empty() ? "--kiln-block-sections"
                    : Options.BlockHashes ? "--kiln-block-hashes"
                                          : "--kiln-block-address-map";
  // LLVM 22 emits basic-block sections and the address map for ELF only;
  // COFF and Mach-O code generation have neither.
  if (Flavor != LinkerFlavor::ELF)
    return blockLayoutError(Asked +
                            ": basic-block sections and address "
                            "maps are ELF only in LLVM 22, not " +
                            getFlavorName(Flavor));
  if (AddressMap && none_of(LinkerArgs, [](StringRef Arg) {
        return isLldOption(Arg, "lto-basic-block-address-map");
      }))
    LinkerArgs.push_back("--lto-basic-block-address-map");
  // With the blocks' hashes (LLVM's MachineBlockHashInfo), a profile of this
  // binary can be matched to a later build's blocks (kiln block-layout
  // --binary=). They change no code, but they are asked for apart from the
  // map: LLVM 22 hashes a call's register mask with a per-process seed
  // (stableHashValue in MachineStableHash.cpp), so two links of the same
  // objects would differ in the map and the build ID, and so would the
  // block profiles of them. LLVM refuses the option twice.
  if (Options.BlockHashes && !hasMllvmOption(LinkerArgs, "emit-bb-hash")) {
    LinkerArgs.push_back("-mllvm");
    LinkerArgs.push_back("-emit-bb-hash");
  }
  // The names of the link's functions: the sections profile is checked
  // against them, and same-named locals are renamed alike in the
  // address-mapped link and in the one that uses its profile.
  std::optional<LinkBitcode> Bitcode;
  std::string BitcodeError;
  if (Expected<LinkBitcode> Read =
          readLinkBitcode(findLinkInputFiles(LinkerArgs)))
    Bitcode = std::move(*Read);
  else
    BitcodeError = toString(Read.takeError());
  if (Error E = addUniqueLocalNames(Bitcode ? &*Bitcode : nullptr, HasPlugin,
                                    Options.Verbose, LinkerArgs, Scratch, Diag))
    return std::move(E);
  if (Options.BlockSections.empty() && Options.BlockProfile.empty())
    return "";

  // --kiln-block-profile: plan here, then go on as --kiln-block-sections
  // with the planned profile, linking in the clusters' order.
  KilnLinkOptions Effective = Options;
  std::string PlannedOrder;
  std::optional<PlannedBlockProfile> Plan;
  bool UnalignLoops = false;
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
    // The relink does not align loops (unless the link says how): the
    // planner's order then lets a loop's latch fall into its top, and
    // control never runs a loop top's padding (layout::BlockLayoutConfig).
    layout::BlockLayoutConfig Config;
    Config.KeepsBlockAlignment = hasMllvmOption(LinkerArgs, "align-loops");
    Expected<PlannedBlockProfile> Planned = planBlockProfile(
        Options, Config, Bitcode ? &*Bitcode : nullptr, Scratch, Diag);
    if (!Planned)
      return Planned.takeError();
    if (Planned->Sections.empty())
      return "";
    UnalignLoops = !Config.KeepsBlockAlignment;
    Effective.BlockSections = Planned->Sections;
    PlannedOrder = Planned->Order;
    Plan = std::move(*Planned);
  }

  for (StringRef Arg : LinkerArgs)
    if (isLldOption(Arg, "lto-basic-block-sections"))
      return blockLayoutError(Arg + " and --kiln-block-sections both give LTO "
                                    "a basic-block sections profile; drop "
                                    "one of them");
  SectionsCheck Check;
  Expected<std::string> Text =
      checkSectionsProfile(Effective, Bitcode ? &*Bitcode : nullptr,
                           BitcodeError, Diag, Plan ? &Check : nullptr);
  if (Text && Plan)
    summarizeBlockProfile(*Plan, Check, Diag);
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
  if (UnalignLoops) {
    LinkerArgs.push_back("-mllvm");
    LinkerArgs.push_back("-align-loops=1");
  }
  return Text;
}

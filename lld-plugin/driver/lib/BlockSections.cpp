//===- BlockSections.cpp - Basic-block sections files ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rules are LLVM 22's BasicBlockSectionsProfileReader (ReadProfile and
/// ReadV1Profile), checked against the installed clang and lld: what it
/// rejects for any module is an error of the file here; what it rejects or
/// misplaces only in the module that defines the function refuses that
/// function.
///
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/BlockSections.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/LineIterator.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <memory>
#include <optional>
#include <utility>

using namespace llvm;
using namespace kiln;

/// A block id as LLVM's UniqueBBID: the block's number and its clone.
using BlockID = std::pair<unsigned, unsigned>;

/// \returns \p Text as an unsigned that fits 32 bits (LLVM truncates larger
/// ones, which would name another block), or std::nullopt.
static std::optional<unsigned> parseUnsigned(StringRef Text,
                                             unsigned Radix = 10) {
  unsigned long long Value;
  if (getAsUnsignedInteger(Text, Radix, Value) ||
      Value > std::numeric_limits<unsigned>::max())
    return std::nullopt;
  return static_cast<unsigned>(Value);
}

/// Parses `<n>` or `<n>.<clone>`. \returns why it is not a block id in
/// \p Why otherwise.
static std::optional<BlockID> parseBlockID(StringRef Text, std::string &Why) {
  SmallVector<StringRef, 2> Parts;
  Text.split(Parts, '.');
  std::optional<unsigned> Number = parseUnsigned(Parts[0]);
  std::optional<unsigned> Clone =
      Parts.size() == 2 ? parseUnsigned(Parts[1]) : std::optional<unsigned>(0);
  if (Parts.size() > 2 || !Number || !Clone) {
    Why = ("'" + Text + "' is not a block id (<n> or <n>.<clone>)").str();
    return std::nullopt;
  }
  return BlockID(*Number, *Clone);
}

namespace {
/// Checks one function's lines as they come.
class FunctionChecker {
public:
  /// \returns why \p Line (specifier \p Kind, then \p Values) would make
  /// LLVM reject the function, or "".
  std::string check(char Kind, ArrayRef<StringRef> Values);

private:
  std::string checkCluster(ArrayRef<StringRef> Values);
  std::string checkPath(ArrayRef<StringRef> Values);
  std::string checkCounts(ArrayRef<StringRef> Values);
  std::string checkHashes(ArrayRef<StringRef> Values);
  std::string checkPrefetchTarget(ArrayRef<StringRef> Values);

  DenseSet<BlockID> Clustered;
  unsigned Clusters = 0;
};
} // namespace

std::string FunctionChecker::check(char Kind, ArrayRef<StringRef> Values) {
  switch (Kind) {
  case 'c':
    return checkCluster(Values);
  case 'p':
    return checkPath(Values);
  case 'g':
    return checkCounts(Values);
  case 'h':
    return checkHashes(Values);
  case 't':
    return checkPrefetchTarget(Values);
  default:
    return "";
  }
}

std::string FunctionChecker::checkCluster(ArrayRef<StringRef> Values) {
  bool First = Clusters++ == 0;
  for (size_t I = 0; I < Values.size(); ++I) {
    std::string Why;
    std::optional<BlockID> ID = parseBlockID(Values[I], Why);
    if (!ID)
      return Why;
    if (!Clustered.insert(*ID).second)
      return ("block " + Values[I] + " is in the clusters twice").str();
    // The function's symbol is where its entry block is: LLVM keeps the
    // entry block first whatever the file says, so a file that puts it
    // elsewhere describes a layout (and part names) that will not exist.
    bool IsEntry = *ID == BlockID(0, 0);
    if (IsEntry != (First && I == 0))
      return "the entry block (0) is not the first block of the first "
             "cluster";
  }
  return "";
}

std::string FunctionChecker::checkPath(ArrayRef<StringRef> Values) {
  DenseSet<unsigned> Cloned;
  for (size_t I = 0; I < Values.size(); ++I) {
    std::optional<unsigned> ID = parseUnsigned(Values[I]);
    if (!ID)
      return ("'" + Values[I] + "' in a cloning path is not a block number")
          .str();
    // The first block is where the path starts; it is not cloned.
    if (I != 0 && !Cloned.insert(*ID).second)
      return ("block " + Values[I] + " is cloned twice in one path").str();
  }
  return "";
}

std::string FunctionChecker::checkCounts(ArrayRef<StringRef> Values) {
  for (StringRef Node : Values) {
    // LLVM skips empty fields here (and only here).
    if (Node.empty())
      continue;
    SmallVector<StringRef, 4> Fields;
    Node.split(Fields, ',');
    for (StringRef Field : Fields) {
      auto [IDText, CountText] = Field.split(':');
      std::string Why;
      if (!parseBlockID(IDText, Why))
        return Why;
      unsigned long long Count;
      if (getAsUnsignedInteger(CountText, 10, Count))
        return ("'" + Field + "' is not <block id>:<count>").str();
    }
  }
  return "";
}

std::string FunctionChecker::checkHashes(ArrayRef<StringRef> Values) {
  for (StringRef Field : Values) {
    auto [IDText, HashText] = Field.split(':');
    unsigned long long Hash;
    if (!parseUnsigned(IDText) || getAsUnsignedInteger(HashText, 16, Hash))
      return ("'" + Field + "' is not <block number>:<hex hash>").str();
  }
  return "";
}

std::string FunctionChecker::checkPrefetchTarget(ArrayRef<StringRef> Values) {
  // LLVM reads the first field only.
  auto [IDText, IndexText] = Values.front().split(',');
  std::string Why;
  if (!Values.front().contains(',') || IndexText.contains(',') ||
      !parseBlockID(IDText, Why) || !parseUnsigned(IndexText))
    return ("'" + Values.front() + "' is not <block id>,<callsite index>")
        .str();
  return "";
}

static Error fileError(StringRef Path, int64_t Line, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           (Path + ":" + Twine(Line) + ": " + Message).str());
}

Expected<BlockSectionsProfile> kiln::parseBlockSectionsProfile(StringRef Path,
                                                               StringRef Text) {
  std::unique_ptr<MemoryBuffer> Buffer =
      MemoryBuffer::getMemBuffer(Text, Path, /*RequiresNullTerminator=*/false);
  line_iterator It(*Buffer, /*SkipBlanks=*/true, /*CommentMarker=*/'#');
  if (It.is_at_eof())
    return fileError(Path, 1, "the profile is empty (its first line is `v1`)");
  StringRef Version = *It;
  std::optional<unsigned> Number;
  if (Version.consume_front("v"))
    Number = parseUnsigned(Version);
  if (Number != 1u)
    return fileError(Path, It.line_number(),
                     "not a v1 basic-block sections profile (the first line "
                     "is '" +
                         *It + "', not 'v1')");
  ++It;

  BlockSectionsProfile Profile;
  StringMap<unsigned> NameLines;
  std::string PendingModule;
  std::optional<FunctionChecker> Checker;
  for (; !It.is_at_eof(); ++It) {
    StringRef Line = *It;
    char Kind = Line.front();
    StringRef Rest = Line.drop_front().trim();
    SmallVector<StringRef, 8> Values;
    Rest.split(Values, ' ');
    switch (Kind) {
    case '@':
      continue;
    case 'm':
      if (Values.size() != 1)
        return fileError(Path, It.line_number(),
                         "'m' takes one debug-info file name, not '" + Rest +
                             "'");
      PendingModule = sys::path::remove_leading_dotslash(Values[0]).str();
      continue;
    case 'f': {
      BlockSectionsFunction &F = Profile.Functions.emplace_back();
      F.Line = It.line_number();
      F.Module = std::move(PendingModule);
      PendingModule.clear();
      for (StringRef Name : Values) {
        F.Names.push_back(Name.str());
        auto [At, New] = NameLines.try_emplace(Name, F.Line);
        if (!New && F.Refusal.empty())
          F.Refusal = ("'" + Name + "' is profiled already (line " +
                       Twine(At->second) + ")")
                          .str();
      }
      Checker.emplace();
      continue;
    }
    case 'c':
    case 'p':
    case 'g':
    case 'h':
    case 't': {
      // LLVM ignores these lines before the first function.
      if (Profile.Functions.empty())
        continue;
      BlockSectionsFunction &F = Profile.Functions.back();
      F.Lines.push_back((Twine(Kind) + " " + Rest).str());
      if (F.Refusal.empty()) {
        std::string Why = Checker->check(Kind, Values);
        if (!Why.empty())
          F.Refusal = ("line " + Twine(It.line_number()) + ": " + Why).str();
      }
      continue;
    }
    default:
      return fileError(Path, It.line_number(),
                       "unknown line '" + Line +
                           "' (a v1 profile has m, f, c, p, g, h and t lines)");
    }
  }
  return Profile;
}

/// \returns the name \p Name has without ThinLTO's promotion suffix
/// (`fn.llvm.<digits>` -> `fn`), or "" if it has none.
static StringRef getUnpromotedName(StringRef Name) {
  size_t At = Name.rfind(".llvm.");
  if (At == StringRef::npos || At == 0)
    return "";
  StringRef Digits = Name.drop_front(At + strlen(".llvm."));
  if (Digits.empty() || !all_of(Digits, isDigit))
    return "";
  return Name.take_front(At);
}

FilteredBlockSections
kiln::filterBlockSections(const BlockSectionsProfile &P,
                          const LinkFunctionNames &Names) {
  FilteredBlockSections Result;
  for (const BlockSectionsFunction &F : P.Functions) {
    if (!F.Refusal.empty()) {
      Result.Refused.push_back(F);
      continue;
    }
    BlockSectionsFunction Kept = F;
    auto AddAlias = [&](StringRef Alias) {
      if (!is_contained(Kept.Names, Alias))
        Kept.Names.push_back(Alias.str());
    };
    bool InLink = false;
    for (StringRef Name : F.Names) {
      if (Names.Defined.contains(Name))
        InLink = true;
      // The module's function of an ambiguous name is renamed in the
      // backend: the entry follows it.
      if (!F.Module.empty())
        if (auto It = Names.UniqueNames.find(Name);
            It != Names.UniqueNames.end())
          for (const auto &[Source, Unique] : It->second)
            if (sys::path::remove_leading_dotslash(Source) ==
                sys::path::remove_leading_dotslash(F.Module))
              AddAlias(Unique);
      // A local the link defines once: ThinLTO may promote it.
      if (auto It = Names.PromotedNames.find(Name);
          It != Names.PromotedNames.end()) {
        InLink = true;
        AddAlias(It->second);
        continue;
      }
      // The promoted name of a local of this very module (same hash): the
      // backend sees the plain name if ThinLTO does not promote it.
      StringRef Plain = getUnpromotedName(Name);
      if (Plain.empty())
        continue;
      auto It = Names.PromotedNames.find(Plain);
      if (It != Names.PromotedNames.end() && It->second == Name) {
        InLink = true;
        AddAlias(Plain);
      }
    }
    if (!InLink) {
      ++Result.NotInLink;
      continue;
    }
    // Every module's backend matches the name on its own: the entry's block
    // ids would be applied to functions they do not describe.
    if (F.Module.empty()) {
      auto Ambiguous = find_if(F.Names, [&](StringRef Name) {
        return Names.AmbiguousNames.contains(Name);
      });
      if (Ambiguous != F.Names.end()) {
        Kept.Refusal = ("'" + *Ambiguous + "' names " +
                        Twine(Names.AmbiguousNames.lookup(*Ambiguous)) +
                        " functions of different modules, which LLVM would "
                        "all lay out by this entry (an 'm <source file>' line "
                        "before it says which; it needs -g)")
                           .str();
        Result.Refused.push_back(std::move(Kept));
        continue;
      }
    }
    Result.Kept.push_back(std::move(Kept));
  }
  return Result;
}

void kiln::writeBlockSectionsProfile(ArrayRef<BlockSectionsFunction> Functions,
                                     raw_ostream &OS) {
  OS << "v1\n";
  for (const BlockSectionsFunction &F : Functions) {
    if (!F.Module.empty())
      OS << "m " << F.Module << '\n';
    OS << "f " << join(F.Names, " ") << '\n';
    for (const std::string &Line : F.Lines)
      OS << Line << '\n';
  }
}

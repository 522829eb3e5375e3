//===- UniqueLocalNames.cpp - Names for same-named statics ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MD5.h"

using namespace llvm;
using namespace kiln;

static constexpr StringLiteral Header = "kiln-unique-local-names v1";

std::string kiln::getUniqueLocalSuffix(StringRef SourceFileName) {
  // As UniqueInternalLinkageNamesPass computes it, so the names are the ones
  // a -funique-internal-linkage-names build would have.
  MD5 Hash;
  Hash.update(SourceFileName);
  MD5::MD5Result Result;
  Hash.final(Result);
  SmallString<32> Hex;
  MD5::stringifyResult(Result, Hex);
  APInt Value(128, Hex.str(), 16);
  return ".__uniq." + toString(Value, 10, /*Signed=*/false);
}

void kiln::writeUniqueLocalNames(ArrayRef<UniqueLocal> Locals,
                                 raw_ostream &OS) {
  OS << Header << '\n';
  for (const UniqueLocal &Local : Locals)
    OS << Local.Name << ' ' << Local.SourceFileName << '\n';
}

Expected<std::vector<UniqueLocal>> kiln::parseUniqueLocalNames(StringRef Path,
                                                               StringRef Text) {
  auto Bad = [&](size_t Line, const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             Path + ":" + Twine(Line) + ": " + Why);
  };
  std::vector<UniqueLocal> Locals;
  size_t LineNo = 0;
  while (!Text.empty()) {
    StringRef Line;
    std::tie(Line, Text) = Text.split('\n');
    ++LineNo;
    if (LineNo == 1) {
      if (Line != Header)
        return Bad(LineNo, "not a list of local names to make unique (the "
                           "first line is not '" +
                               Header + "')");
      continue;
    }
    if (Line.empty())
      continue;
    // The name has no space; the source file name may.
    auto [Name, Source] = Line.split(' ');
    if (Name.empty() || Source.empty())
      return Bad(LineNo, "'" + Line + "' is not '<name> <source file name>'");
    Locals.push_back({Name.str(), Source.str()});
  }
  if (LineNo == 0)
    return Bad(1, "empty file");
  return std::move(Locals);
}

//===- StrtabRemarks.cpp - kiln-strtab's decisions from its remarks -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads kiln-strtab's remarks with LLVM's remark parser: `Lowered` remarks
/// (type Passed) and one missed remark per table left alone, whose `Table`,
/// `Reason` and optional `Function` arguments the pass writes
/// (StringTableLowering.cpp).
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/StrtabRemarks.h"
#include "kiln/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Remarks/Remark.h"
#include "llvm/Remarks/RemarkFormat.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Support/MemoryBuffer.h"

#include <tuple>

using namespace llvm;
using namespace kiln;

static auto getKey(const StrtabRefusal &R) {
  return std::tie(R.Table, R.Reason, R.Function, R.Text);
}

ArrayRef<StrtabRefusal> StrtabDecisions::getRefusals(StringRef Table) const {
  auto Begin = llvm::partition_point(Refused, [&](const StrtabRefusal &R) {
    return StringRef(R.Table) < Table;
  });
  auto End = std::find_if(Begin, Refused.end(), [&](const StrtabRefusal &R) {
    return R.Table != Table;
  });
  return ArrayRef(Refused).slice(Begin - Refused.begin(), End - Begin);
}

static StringRef getArgument(const remarks::Remark &R, StringRef Key) {
  for (const remarks::Argument &Arg : R.Args)
    if (Arg.Key == Key)
      return Arg.Val;
  return "";
}

// The parser's message up to its first line (the rest quotes the input).
static std::string getFirstLine(Error E) {
  return StringRef(toString(std::move(E))).split('\n').first.rtrim().str();
}

// Adds the kiln-strtab remarks of the file \p Path to \p D.
static Error readFile(StringRef Path, StrtabDecisions &D) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return makeToolError("cannot read remarks: " + Buffer.getError().message(),
                         Path);
  // A compile whose pipeline emitted no remark writes an empty file.
  if ((*Buffer)->getBuffer().trim().empty())
    return Error::success();
  Expected<std::unique_ptr<remarks::RemarkParser>> Parser =
      remarks::createRemarkParserFromMeta(remarks::Format::YAML,
                                          (*Buffer)->getBuffer());
  if (!Parser)
    return makeToolError(
        "not a YAML remark file: " + getFirstLine(Parser.takeError()), Path);
  while (true) {
    Expected<std::unique_ptr<remarks::Remark>> Next = (*Parser)->next();
    if (!Next) {
      Error E = handleErrors(Next.takeError(),
                             [](const remarks::EndOfFileError &) {});
      if (E)
        return makeToolError(
            "not a YAML remark file: " + getFirstLine(std::move(E)), Path);
      return Error::success();
    }
    const remarks::Remark &R = **Next;
    if (R.PassName != "kiln-strtab")
      continue;
    StringRef Table = getArgument(R, "Table");
    if (Table.empty())
      return makeToolError("kiln-strtab remark '" + R.RemarkName +
                               "' without a Table argument",
                           Path);
    if (R.RemarkType == remarks::Type::Passed) {
      D.Lowered.push_back(Table.str());
      continue;
    }
    if (R.RemarkType != remarks::Type::Missed)
      continue;
    D.Refused.push_back({Table.str(), R.RemarkName.str(),
                         getArgument(R, "Reason").str(),
                         getArgument(R, "Function").str()});
  }
}

Expected<StrtabDecisions> kiln::readStrtabRemarks(ArrayRef<std::string> Paths) {
  StrtabDecisions D;
  for (const std::string &Path : Paths) {
    if (Error E = readFile(Path, D))
      return std::move(E);
    ++D.NumFiles;
  }
  llvm::sort(D.Lowered);
  D.Lowered.erase(llvm::unique(D.Lowered), D.Lowered.end());
  llvm::sort(D.Refused, [](const StrtabRefusal &A, const StrtabRefusal &B) {
    return getKey(A) < getKey(B);
  });
  D.Refused.erase(
      llvm::unique(D.Refused,
                   [](const StrtabRefusal &A, const StrtabRefusal &B) {
                     return getKey(A) == getKey(B);
                   }),
      D.Refused.end());
  return D;
}

//===- kiln/Support/UniqueLocalNames.h - Unique statics' names -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Local functions of several modules may share a name (`init`, a static
/// inline function of a header, `(anonymous namespace)::f`). A basic-block
/// sections profile and a symbol ordering file name functions, so such
/// functions can be neither laid out by blocks nor ordered one by one: LLVM
/// lays out every function of the name by one entry, and lld gives them all
/// one place. kiln-lld therefore asks the ThinLTO backends to rename them,
/// in both the address-mapped link a block profile is taken from and the
/// link that uses it, the way clang's `-funique-internal-linkage-names`
/// names every local: `<name>.__uniq.<MD5 of the module's source file name,
/// in decimal>`. Every tool that knows that suffix (LLVM's sample profile
/// reader, Kiln's symbol resolver) reads the names as the source's.
///
/// The list kiln-lld gives the backends (`-kiln-unique-local-names=<file>`)
/// has one line per function to rename, `<name> <source file name>`, after
/// a first line `kiln-unique-local-names v1`.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_UNIQUELOCALNAMES_H
#define KILN_SUPPORT_UNIQUELOCALNAMES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace kiln {

/// \returns `.__uniq.<decimal MD5 of SourceFileName>`, the suffix clang's
/// -funique-internal-linkage-names gives the locals of that module.
std::string getUniqueLocalSuffix(llvm::StringRef SourceFileName);

/// One local function to rename: its name and its module's source file.
struct UniqueLocal {
  std::string Name;
  std::string SourceFileName;

  bool operator<(const UniqueLocal &Other) const {
    return std::tie(Name, SourceFileName) <
           std::tie(Other.Name, Other.SourceFileName);
  }
  bool operator==(const UniqueLocal &Other) const {
    return Name == Other.Name && SourceFileName == Other.SourceFileName;
  }
};

/// Writes \p Locals (sorted by the caller, for identical files) in the list
/// format.
void writeUniqueLocalNames(llvm::ArrayRef<UniqueLocal> Locals,
                           llvm::raw_ostream &OS);

/// Parses the list \p Text read from \p Path. \returns an error
/// `<Path>:<line>: <reason>` if it is not such a list.
llvm::Expected<std::vector<UniqueLocal>>
parseUniqueLocalNames(llvm::StringRef Path, llvm::StringRef Text);

} // namespace kiln

#endif // KILN_SUPPORT_UNIQUELOCALNAMES_H

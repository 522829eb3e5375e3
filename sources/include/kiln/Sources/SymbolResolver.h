//===- kiln/Sources/SymbolResolver.h - Profile names to symbols -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one place that decides which linker symbol a profile's function name
/// means. A profile names a static function `file.c;fn` (IR PGO) or
/// `file.c:fn` (front-end PGO); the linker sees `fn` (several times, if other
/// files have their own static `fn`), `fn.llvm.<hash>` once ThinLTO promoted
/// it, `fn.__uniq.<hash>` with -funique-internal-linkage-names, and `_fn` on
/// Mach-O. A global may also have become local (LTO internalization).
///
/// Resolution uses every clue the inputs give: exact names first, then the
/// suffix-stripped base name, then the source file (ELF STT_FILE symbols,
/// else the object's file name) to pick the right static among same-named
/// ones. What stays ambiguous or absent is reported, never guessed.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_SYMBOLRESOLVER_H
#define KILN_SOURCES_SYMBOLRESOLVER_H

#include "kiln/Sources/LinkerInputs.h"

#include "kiln/Layout/NameIndex.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// A profile's function name, split.
struct PGOName {
  std::string SourceFile; ///< Set for static (local-linkage) functions.
  std::string Function;   ///< The IR (mangled) name.
  bool isLocal() const { return !SourceFile.empty(); }
};

/// Splits \p Name: `file;fn` (IR PGO) or `file:fn` (front-end PGO, where
/// Objective-C names such as `-[A b:]` are global) into file and function.
PGOName parsePGOName(llvm::StringRef Name);

/// \returns \p Symbol without the suffixes that compilers add to a
/// function's name while it stays the same function: `.llvm.<n>` (ThinLTO
/// promotion) and `.__uniq.<n>` (unique internal linkage names), and without
/// Mach-O's leading underscore if \p Format is Mach-O. Split parts such as
/// `.cold` and `.part.<n>` are different code and keep their suffix.
llvm::StringRef getBaseName(llvm::StringRef Symbol, ObjectFormat Format);

/// The outcome of resolving one profile name.
struct Resolution {
  enum Kind {
    Bound,     ///< Exactly one function; Function is its index.
    Ambiguous, ///< Several functions fit; Candidates lists them.
    NotFound,  ///< No input defines it.
  };
  Kind Status = NotFound;
  size_t Function = 0;
  std::vector<size_t> Candidates;
  /// How it was bound or why it was not, for reports.
  std::string Reason;
};

/// Resolves profile names against the functions of a set of linker inputs.
class SymbolResolver {
public:
  /// Indexes the functions of \p Inputs, which must outlive the resolver
  /// and keep their names (the index points into them).
  explicit SymbolResolver(const LinkerInputs &Inputs);

  Resolution resolve(llvm::StringRef ProfileName) const;

private:
  static constexpr uint32_t None = ~uint32_t(0);

  /// \returns the base name of function \p Index.
  llvm::StringRef getBaseNameOf(uint32_t Index) const;

  const LinkerInputs &Inputs;
  /// The functions of a base name are a list in input order, threaded
  /// through NextSameBase: no allocation per name. The index files each
  /// base name under its first function.
  layout::NameIndex ByBaseName;
  /// Per function: the next function of its base name, or None.
  std::vector<uint32_t> NextSameBase;
  /// Per first function of a base name: the last one (while indexing).
  std::vector<uint32_t> LastSameBase;
};

} // namespace kiln

#endif // KILN_SOURCES_SYMBOLRESOLVER_H

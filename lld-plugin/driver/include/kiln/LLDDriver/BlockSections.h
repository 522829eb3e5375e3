//===- kiln/LLDDriver/BlockSections.h - Basic-block sections files -*- C++ -*-//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads, checks and rewrites LLVM 22's basic-block sections profile, the
/// `v1` format that `clang -fbasic-block-sections=list=` and
/// `ld.lld --lto-basic-block-sections=` read:
///
///   v1
///   m <debug-info file name>           (optional, before the `f` line)
///   f <name> [<alias> ...]
///   c <block id> <block id> ...        (one line per cluster, in order)
///   p <block id> <block id> ...        (a path to clone)
///   g <id>:<count>,<succ id>:<count>,... (CFG counts)
///   h <id>:<hex hash> ...              (block hashes)
///   t <block id>,<callsite index>      (a prefetch target)
///
/// Block ids are `<n>` or `<n>.<clone>`. Lines starting with `#` and blank
/// lines are skipped, `@` lines ignored. LLVM's reader turns any syntax
/// error into a fatal error of the backend (the link dies); it also places
/// a function whose entry block is not the first of the first cluster in a
/// way the file does not say (the entry's cluster still comes first, and the
/// part symbols are renumbered: `fn.__part.0`). Kiln therefore checks the
/// file before LTO sees it: errors of the file as a whole (not `v1`, an
/// unknown specifier, a malformed `m` line) refuse the file, and everything
/// LLVM would reject or misplace in one function refuses that function
/// only, with the reason.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_BLOCKSECTIONS_H
#define KILN_LLDDRIVER_BLOCKSECTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// One function's profile: its `f` line and the lines that follow it.
struct BlockSectionsFunction {
  std::vector<std::string> Names; ///< The `f` line: the name, then aliases.
  std::string Module;             ///< The `m` line's value, or "".
  std::vector<std::string> Lines; ///< `c`/`p`/`g`/`h`/`t` lines, trimmed.
  unsigned Line = 0;              ///< Line number of the `f` line.
  /// Why the function cannot be given to LLVM ("" if it can).
  std::string Refusal;
};

/// A parsed profile, functions in file order.
struct BlockSectionsProfile {
  std::vector<BlockSectionsFunction> Functions;
};

/// Parses the v1 profile \p Text read from \p Path. \returns an error
/// `<Path>:<line>: <reason>` for a problem of the file as a whole; problems
/// of one function set its Refusal.
llvm::Expected<BlockSectionsProfile>
parseBlockSectionsProfile(llvm::StringRef Path, llvm::StringRef Text);

/// The names the link's LTO backends may give their functions.
struct LinkFunctionNames {
  /// Every function defined in the link's bitcode, locals included.
  llvm::StringSet<> Defined;
  /// An alias of a function the bitcode defines -> that function's name: a
  /// C++ complete-object constructor or destructor (`C1`/`D1`) is an alias
  /// of the base-object one (`C2`/`D2`) when their bodies are the same. A
  /// profile of the binary names the code by either symbol at its address;
  /// the backend lays out the function by its own name.
  llvm::StringMap<std::string> Aliases;
  /// For a local function whose name only one bitcode module defines: the
  /// name ThinLTO gives it if it promotes it (`fn.llvm.<module hash>`).
  llvm::StringMap<std::string> PromotedNames;
  /// A name that local functions of several modules have (a static inline
  /// function of a header, say), or a local and an external one -> how many
  /// functions have it. LLVM lays out every function of the name by one
  /// profile entry, unless an `m` line says which module's.
  llvm::StringMap<unsigned> AmbiguousNames;
  /// An ambiguous name -> (source file name, unique name) of each of its
  /// functions the backends rename (kiln/Support/UniqueLocalNames.h), so an
  /// entry with an `m` line finds its module's function under the new name.
  llvm::StringMap<std::vector<std::pair<std::string, std::string>>> UniqueNames;
};

/// The profile split by what the link can use.
struct FilteredBlockSections {
  /// Functions of the link, with the aliases that make the backend find
  /// them under the name it sees: a local may or may not be promoted by
  /// ThinLTO (`fn` and `fn.llvm.<hash>` both name it, as long as no other
  /// function of the link is called `fn`).
  std::vector<BlockSectionsFunction> Kept;
  unsigned NotInLink = 0; ///< Functions no bitcode of the link defines.
  std::vector<BlockSectionsFunction> Refused; ///< Each with its Refusal.
};

/// Splits \p Profile by \p Names. A refused function is refused whether or
/// not the link defines it; a function named by an ambiguous name without an
/// `m` line is refused too.
FilteredBlockSections filterBlockSections(const BlockSectionsProfile &Profile,
                                          const LinkFunctionNames &Names);

/// Writes \p Functions in the v1 format.
void writeBlockSectionsProfile(llvm::ArrayRef<BlockSectionsFunction> Functions,
                               llvm::raw_ostream &OS);

} // namespace kiln

#endif // KILN_LLDDRIVER_BLOCKSECTIONS_H

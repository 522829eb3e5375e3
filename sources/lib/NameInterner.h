//===- NameInterner.h - Dense ids for millions of names ---------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Gives names (views into a buffer that outlives the interner) dense ids in
/// order of first appearance, for the edge-list reader, which interns two
/// names per line of lists with millions of lines: Kiln's name table in its
/// view-slot layout (layout::NameViewIndex) over the list of names by id.
///
/// At that size the table is far larger than the caches and a lookup is one
/// or two cache misses (the slot, then the name to compare), which is what
/// a general hash map spends most of its time on. A caller that knows its
/// next names can ask for their slots and names to be fetched early:
/// prefetchSlot a few names ahead, prefetchName (the slot is cached by then)
/// half as many. Prefetching is a hint: results never depend on it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_NAMEINTERNER_H
#define KILN_SOURCES_LIB_NAMEINTERNER_H

#include "kiln/Layout/NameIndex.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kiln {

class NameInterner {
public:
  /// Sized for \p ExpectedNames distinct names; it grows beyond.
  explicit NameInterner(size_t ExpectedNames) {
    Index.reserve(std::max<size_t>(ExpectedNames, 512));
    // Reserving claims address space, not memory, until names fill it: be
    // generous, a vector that grows copies itself into fresh pages.
    Names.reserve(2 * ExpectedNames);
  }

  /// \returns the hash intern() wants for \p Name.
  static uint32_t hash(llvm::StringRef Name) {
    return layout::NameViewIndex::hash(Name);
  }

  /// Starts loading the slot where the lookup of \p Hash begins.
  void prefetchSlot(uint32_t Hash) const { Index.prefetchSlot(Hash); }

  /// Starts loading the name that slot holds, if it may be the one.
  void prefetchName(uint32_t Hash) const { Index.prefetchName(Hash); }

  /// \returns the id of \p Name (whose hash is \p Hash), giving it the next
  /// id if it is new.
  uint32_t intern(llvm::StringRef Name, uint32_t Hash) {
    auto [Id, Inserted] =
        Index.insert(Name, Hash, uint32_t(Names.size()),
                     [](uint32_t) { return llvm::StringRef(); });
    if (Inserted)
      Names.push_back(Name);
    return Id;
  }

  /// The names by id.
  std::vector<llvm::StringRef> &getNames() { return Names; }

private:
  layout::NameViewIndex Index;
  std::vector<llvm::StringRef> Names;
};

} // namespace kiln

#endif // KILN_SOURCES_LIB_NAMEINTERNER_H

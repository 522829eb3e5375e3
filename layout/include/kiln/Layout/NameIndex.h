//===- kiln/Layout/NameIndex.h - A compact index of names -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An index from names to the ids of the items that carry them (nodes,
/// functions), for the million-name graphs of large programs. The names
/// stay where they are: a slot holds only the name's 32-bit hash and the
/// item's id, and a lookup compares names through a callable the caller
/// passes (id -> name). At most half the slots are used, so the index costs
/// 16 to 32 bytes per name, where a DenseMap of string views costs 48 to
/// 96: on machines where touching fresh memory is slow (virtual machines
/// clear every new page), that is most of the cost of building it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_NAMEINDEX_H
#define KILN_LAYOUT_NAMEINDEX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstdint>
#include <utility>
#include <vector>

namespace kiln::layout {

class NameIndex {
public:
  static constexpr uint32_t NotFound = ~uint32_t(0);

  /// \returns the hash under which the index files \p Name.
  static uint32_t hash(llvm::StringRef Name) {
    return uint32_t(llvm::xxh3_64bits(Name));
  }

  /// Makes room for \p N names without growing.
  void reserve(size_t N) {
    size_t Capacity = Slots.empty() ? MinCapacity : Slots.size();
    while (2 * N > Capacity)
      Capacity *= 2;
    if (Capacity > Slots.size())
      rehash(Capacity);
  }

  /// \returns the id of the item named \p Name (whose hash is \p Hash), or
  /// NotFound. `NameOf(Id)` must return the name of item Id.
  template <typename NameOfT>
  uint32_t find(llvm::StringRef Name, uint32_t Hash, NameOfT NameOf) const {
    if (Slots.empty())
      return NotFound;
    const size_t Mask = Slots.size() - 1;
    for (size_t I = Hash & Mask;; I = (I + 1) & Mask) {
      const Slot &S = Slots[I];
      if (S.Id == NotFound)
        return NotFound;
      if (S.Hash == Hash && NameOf(S.Id) == Name)
        return S.Id;
    }
  }

  /// \returns the id of the item named \p Name, having filed item \p NewId
  /// under it if no item was, and whether it did.
  template <typename NameOfT>
  std::pair<uint32_t, bool> insert(llvm::StringRef Name, uint32_t Hash,
                                   uint32_t NewId, NameOfT NameOf) {
    assert(NewId != NotFound && "reserved id");
    if (2 * (NumNames + 1) > Slots.size())
      grow();
    const size_t Mask = Slots.size() - 1;
    for (size_t I = Hash & Mask;; I = (I + 1) & Mask) {
      Slot &S = Slots[I];
      if (S.Id == NotFound) {
        S = Slot{Hash, NewId};
        ++NumNames;
        return {NewId, true};
      }
      if (S.Hash == Hash && NameOf(S.Id) == Name)
        return {S.Id, false};
    }
  }

  size_t size() const { return NumNames; }

private:
  struct Slot {
    uint32_t Hash = 0;
    uint32_t Id = NotFound;
  };

  static constexpr size_t MinCapacity = 16;

  void grow() { rehash(Slots.empty() ? MinCapacity : 2 * Slots.size()); }

  // Moves the names to a table of Capacity slots (a power of two), at once:
  // growing step by step would touch every smaller table too.
  void rehash(size_t Capacity) {
    std::vector<Slot> Old(Capacity);
    Old.swap(Slots);
    const size_t Mask = Slots.size() - 1;
    for (const Slot &S : Old) {
      if (S.Id == NotFound)
        continue;
      size_t I = S.Hash & Mask;
      while (Slots[I].Id != NotFound)
        I = (I + 1) & Mask;
      Slots[I] = S;
    }
  }

  std::vector<Slot> Slots; ///< A power of two of them, or none.
  size_t NumNames = 0;
};

} // namespace kiln::layout

#endif // KILN_LAYOUT_NAMEINDEX_H

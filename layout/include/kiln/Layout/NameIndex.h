//===- kiln/Layout/NameIndex.h - Kiln's one table of names ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's one hash table of names: an index from names to the ids of the
/// items that carry them (nodes, functions, the names of an edge list), for
/// the million-name graphs of large programs. Open addressing with linear
/// probing, at most half the slots used, grown by rehashing at once; names
/// are hashed with xxh3 (32 bits kept) and never copied.
///
/// One implementation, two slot layouts, chosen by what a lookup can
/// afford:
///  - NameIndex: a slot holds only the hash and the id (8 bytes), and a
///    lookup compares names through a callable the caller passes (id ->
///    name). The index costs 16 to 32 bytes per name, where a DenseMap of
///    string views costs 48 to 96: on machines where touching fresh memory
///    is slow (virtual machines clear every new page), that is most of the
///    cost of building it. The graph's nodes and the linker inputs use it.
///  - NameViewIndex: a slot also holds a view of the name (24 bytes), so a
///    probe compares names without reading the caller's items: one cache
///    miss fewer per lookup, for the edge-list reader, which looks up ten
///    million names (measured: its read of a 5M-line list takes 50% longer
///    through NameIndex, even with prefetching).
/// Both take prefetch hints from callers that know their next names.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_NAMEINDEX_H
#define KILN_LAYOUT_NAMEINDEX_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace kiln::layout {

namespace detail {
inline constexpr uint32_t NoNameId = ~uint32_t(0);

/// A slot of the hash and the id: names are compared through the caller.
struct IdSlot {
  uint32_t Hash = 0;
  uint32_t Id = NoNameId;

  void fill(llvm::StringRef, uint32_t H, uint32_t I) {
    Hash = H;
    Id = I;
  }
  template <typename NameOfT>
  bool holds(llvm::StringRef Name, uint32_t H, NameOfT &NameOf) const {
    return Hash == H && NameOf(Id) == Name;
  }
  const void *getNameAddress() const { return nullptr; }
};

/// A slot that also holds a view of the name.
struct ViewSlot {
  const char *Data = nullptr;
  uint32_t Size = 0;
  uint32_t Hash = 0;
  uint32_t Id = NoNameId;

  void fill(llvm::StringRef Name, uint32_t H, uint32_t I) {
    Data = Name.data();
    Size = uint32_t(Name.size());
    Hash = H;
    Id = I;
  }
  template <typename NameOfT>
  bool holds(llvm::StringRef Name, uint32_t H, NameOfT &) const {
    return Hash == H && Size == Name.size() &&
           std::memcmp(Data, Name.data(), Size) == 0;
  }
  const void *getNameAddress() const { return Data; }
};
} // namespace detail

template <typename SlotT> class BasicNameIndex {
public:
  static constexpr uint32_t NotFound = detail::NoNameId;

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
      const SlotT &S = Slots[I];
      if (S.Id == NotFound)
        return NotFound;
      if (S.holds(Name, Hash, NameOf))
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
      SlotT &S = Slots[I];
      if (S.Id == NotFound) {
        S.fill(Name, Hash, NewId);
        ++NumNames;
        return {NewId, true};
      }
      if (S.holds(Name, Hash, NameOf))
        return {S.Id, false};
    }
  }

  size_t size() const { return NumNames; }

  /// Starts loading the slot where the lookup of \p Hash begins: a hint for
  /// callers that know their next names (results never depend on it).
  void prefetchSlot(uint32_t Hash) const {
    if (!Slots.empty())
      prefetch(&Slots[Hash & (Slots.size() - 1)]);
  }

  /// Starts loading the name that slot holds (a view slot's), if it may be
  /// the one.
  void prefetchName(uint32_t Hash) const {
    if (Slots.empty())
      return;
    const SlotT &S = Slots[Hash & (Slots.size() - 1)];
    if (S.Hash == Hash && S.getNameAddress())
      prefetch(S.getNameAddress());
  }

private:
  static constexpr size_t MinCapacity = 16;

  static void prefetch(const void *Address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(Address);
#else
    (void)Address;
#endif
  }

  void grow() { rehash(Slots.empty() ? MinCapacity : 2 * Slots.size()); }

  // Moves the names to a table of Capacity slots (a power of two), at once:
  // growing step by step would touch every smaller table too.
  void rehash(size_t Capacity) {
    std::vector<SlotT> Old(Capacity);
    Old.swap(Slots);
    const size_t Mask = Slots.size() - 1;
    for (const SlotT &S : Old) {
      if (S.Id == NotFound)
        continue;
      size_t I = S.Hash & Mask;
      while (Slots[I].Id != NotFound)
        I = (I + 1) & Mask;
      Slots[I] = S;
    }
  }

  std::vector<SlotT> Slots; ///< A power of two of them, or none.
  size_t NumNames = 0;
};

/// Names to ids, comparing names through the caller (8-byte slots).
using NameIndex = BasicNameIndex<detail::IdSlot>;
/// Names to ids, with views of the names in the slots (24-byte slots).
using NameViewIndex = BasicNameIndex<detail::ViewSlot>;

} // namespace kiln::layout

#endif // KILN_LAYOUT_NAMEINDEX_H

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
/// names per line of lists with millions of lines.
///
/// At that size the table is far larger than the caches and a lookup is one
/// or two cache misses (the slot, then the name to compare), which is what
/// a general hash map spends most of its time on. So the interner is an
/// open-addressing table whose slots carry the full 64-bit hash, the size
/// and a pointer to the name (a probe reads one slot, and compares names
/// only when hash and size agree), and a caller that knows its next names
/// can ask for their slots and names to be fetched early: prefetchSlot a
/// few names ahead, prefetchName (the slot is cached by then) half as many.
/// Prefetching is a hint: results never depend on it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_NAMEINTERNER_H
#define KILN_SOURCES_LIB_NAMEINTERNER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/xxhash.h"

#include <cassert>
#include <cstdint>
#include <cstring>
#include <vector>

namespace kiln {

class NameInterner {
public:
  /// Sized for \p ExpectedNames distinct names; it grows beyond.
  explicit NameInterner(size_t ExpectedNames) {
    size_t Capacity = MinCapacity;
    while (Capacity < 2 * ExpectedNames)
      Capacity *= 2;
    Slots.resize(Capacity);
    // Reserving claims address space, not memory, until names fill it: be
    // generous, a vector that grows copies itself into fresh pages.
    Names.reserve(2 * ExpectedNames);
  }

  /// \returns the hash intern() wants for \p Name.
  static uint64_t hash(llvm::StringRef Name) {
    return llvm::xxh3_64bits(Name); // The fastest LLVM hash on short names.
  }

  /// Starts loading the slot where the lookup of \p Hash begins.
  void prefetchSlot(uint64_t Hash) const {
    prefetch(&Slots[Hash & (Slots.size() - 1)]);
  }

  /// Starts loading the name that slot holds, if it may be the one.
  void prefetchName(uint64_t Hash) const {
    const Slot &S = Slots[Hash & (Slots.size() - 1)];
    if (S.Hash == Hash && S.Data)
      prefetch(S.Data);
  }

  /// \returns the id of \p Name (whose hash is \p Hash), giving it the next
  /// id if it is new.
  uint32_t intern(llvm::StringRef Name, uint64_t Hash) {
    assert(Hash == hash(Name) && "wrong hash");
    for (size_t I = Hash & (Slots.size() - 1);;
         I = (I + 1) & (Slots.size() - 1)) {
      Slot &S = Slots[I];
      if (S.Id == NoId) {
        uint32_t Id = uint32_t(Names.size());
        assert(Id != NoId && "too many names");
        S = Slot{Name.data(), Hash, uint32_t(Name.size()), Id};
        Names.push_back(Name);
        // At most half full: probe sequences stay short.
        if (2 * Names.size() > Slots.size())
          grow();
        return Id;
      }
      if (S.Hash == Hash && S.Size == Name.size() &&
          std::memcmp(S.Data, Name.data(), Name.size()) == 0)
        return S.Id;
    }
  }

  /// The names by id.
  std::vector<llvm::StringRef> &getNames() { return Names; }

private:
  static constexpr uint32_t NoId = ~uint32_t(0);
  static constexpr size_t MinCapacity = 1024;

  static void prefetch(const void *Address) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(Address);
#else
    (void)Address;
#endif
  }

  struct Slot {
    const char *Data = nullptr;
    uint64_t Hash = 0;
    uint32_t Size = 0;
    uint32_t Id = NoId;
  };

  void grow() {
    std::vector<Slot> Old(2 * Slots.size());
    Old.swap(Slots);
    const size_t Mask = Slots.size() - 1;
    for (const Slot &S : Old) {
      if (S.Id == NoId)
        continue;
      size_t I = S.Hash & Mask;
      while (Slots[I].Id != NoId)
        I = (I + 1) & Mask;
      Slots[I] = S;
    }
  }

  std::vector<Slot> Slots; ///< A power of two of them.
  std::vector<llvm::StringRef> Names;
};

} // namespace kiln

#endif // KILN_SOURCES_LIB_NAMEINTERNER_H

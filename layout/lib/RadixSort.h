//===- RadixSort.h - Stable sort by a 64-bit key, in linear time -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A least-significant-digit radix sort for the layout engine's large sorts
/// (a million clusters by density, a million heats): linear in the number of
/// items, where comparison sorts spend n log n comparisons. Stable, so items
/// with equal keys keep their input order; callers rely on that for ties.
/// Private to the engine (lib/, not include/).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_LIB_RADIXSORT_H
#define KILN_LAYOUT_LIB_RADIXSORT_H

#include "llvm/ADT/STLExtras.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

namespace kiln::layout {

/// \returns a key that orders non-negative doubles like their values:
/// their bit patterns do (there is no -0.0 among them, no NaN).
inline uint64_t getOrderKey(double NonNegative) {
  uint64_t Bits;
  std::memcpy(&Bits, &NonNegative, sizeof(Bits));
  return Bits;
}

/// Sorts \p Items by increasing `KeyOf(Item)` (a uint64_t), stably.
template <typename T, typename KeyFnT>
void radixSortByKey(std::vector<T> &Items, KeyFnT KeyOf) {
  const size_t N = Items.size();
  std::vector<uint64_t> Keys, NextKeys(N);
  std::vector<T> NextItems(N);
  Keys.reserve(N);
  for (const T &Item : Items)
    Keys.push_back(KeyOf(Item));
  // One pass per byte, least significant first; a byte that is the same in
  // every key (the high bytes, often) needs no pass.
  for (unsigned Shift = 0; Shift < 64; Shift += 8) {
    std::array<size_t, 256> Start = {};
    for (uint64_t Key : Keys)
      ++Start[(Key >> Shift) & 0xff];
    if (llvm::is_contained(Start, N))
      continue;
    size_t Sum = 0;
    for (size_t &S : Start)
      Sum += std::exchange(S, Sum);
    for (size_t I = 0; I < N; ++I) {
      size_t To = Start[(Keys[I] >> Shift) & 0xff]++;
      NextKeys[To] = Keys[I];
      NextItems[To] = Items[I];
    }
    Keys.swap(NextKeys);
    Items.swap(NextItems);
  }
}

/// Sorts \p Values in decreasing order.
inline void radixSortDescending(std::vector<uint64_t> &Values) {
  // The values are their own keys, inverted: no separate key array.
  for (uint64_t &V : Values)
    V = ~V;
  std::vector<uint64_t> Next(Values.size());
  for (unsigned Shift = 0; Shift < 64; Shift += 8) {
    std::array<size_t, 256> Start = {};
    for (uint64_t V : Values)
      ++Start[(V >> Shift) & 0xff];
    if (llvm::is_contained(Start, Values.size()))
      continue;
    size_t Sum = 0;
    for (size_t &S : Start)
      Sum += std::exchange(S, Sum);
    for (uint64_t V : Values)
      Next[Start[(V >> Shift) & 0xff]++] = V;
    Values.swap(Next);
  }
  for (uint64_t &V : Values)
    V = ~V;
}

} // namespace kiln::layout

#endif // KILN_LAYOUT_LIB_RADIXSORT_H

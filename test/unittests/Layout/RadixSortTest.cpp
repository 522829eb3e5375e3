//===- RadixSortTest.cpp - Tests of the engine's radix sort ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RadixSort.h" // Private to the engine: layout/lib.

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <random>

using namespace kiln::layout;
using testing::ElementsAre;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

TEST(RadixSort, StableByKey) {
  // Items 0..n-1 keyed by a few values: sorted by key, ties in input order
  // (here: by item).
  std::mt19937_64 Random(1);
  std::vector<uint64_t> KeyOf(5000);
  for (uint64_t &K : KeyOf)
    K = Random() % 7 * (uint64_t(1) << (Random() % 64));
  std::vector<uint32_t> Items(KeyOf.size());
  for (uint32_t I = 0; I < Items.size(); ++I)
    Items[I] = I;
  std::vector<uint32_t> Expected = Items;
  std::sort(Expected.begin(), Expected.end(), [&](uint32_t A, uint32_t B) {
    return std::make_pair(KeyOf[A], A) < std::make_pair(KeyOf[B], B);
  });
  radixSortByKey(Items, [&](uint32_t I) { return KeyOf[I]; });
  EXPECT_THAT(Items, ElementsAreArray(Expected));
}

TEST(RadixSort, EdgeCases) {
  std::vector<int> None;
  radixSortByKey(None, [](int) { return uint64_t(0); });
  EXPECT_THAT(None, IsEmpty());
  // All keys equal: every pass is skipped, the order stays.
  std::vector<int> Same = {3, 1, 2};
  radixSortByKey(Same, [](int) { return uint64_t(42); });
  EXPECT_THAT(Same, ElementsAre(3, 1, 2));
  // Keys that differ in the highest byte only, and the extremes.
  std::vector<uint64_t> High = {~uint64_t(0), uint64_t(1) << 63, 0,
                                (uint64_t(1) << 63) - 1};
  radixSortByKey(High, [](uint64_t V) { return V; });
  EXPECT_THAT(High, ElementsAre(0, (uint64_t(1) << 63) - 1, uint64_t(1) << 63,
                                ~uint64_t(0)));
}

TEST(RadixSort, DoubleKeysOrderLikeValues) {
  std::vector<double> Values = {2.5, 0.0, 1e300, 1e-300, 3.0, 2.5, 7};
  std::vector<double> Expected = Values;
  std::sort(Expected.begin(), Expected.end());
  radixSortByKey(Values, [](double D) { return getOrderKey(D); });
  EXPECT_THAT(Values, ElementsAreArray(Expected));
}

TEST(RadixSort, Descending) {
  std::mt19937_64 Random(2);
  std::vector<uint64_t> Values(3000);
  for (uint64_t &V : Values)
    V = Random() >> (Random() % 64);
  Values.push_back(0);
  Values.push_back(~uint64_t(0));
  std::vector<uint64_t> Expected = Values;
  std::sort(Expected.begin(), Expected.end(), std::greater<uint64_t>());
  radixSortDescending(Values);
  EXPECT_THAT(Values, ElementsAreArray(Expected));
}

} // namespace

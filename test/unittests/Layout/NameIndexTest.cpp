//===- NameIndexTest.cpp - Tests of the compact name index ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/NameIndex.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace llvm;
using namespace kiln::layout;

namespace {

TEST(NameIndex, FindsWhatWasFiled) {
  std::vector<std::string> Names;
  auto NameOf = [&](uint32_t Id) { return StringRef(Names[Id]); };
  NameIndex Index;
  EXPECT_EQ(Index.find("a", NameIndex::hash("a"), NameOf), NameIndex::NotFound);
  // Far more names than the first table holds: it grows.
  for (unsigned I = 0; I < 5000; ++I)
    Names.push_back("name" + std::to_string(I));
  for (uint32_t I = 0; I < Names.size(); ++I) {
    auto [Id, Inserted] =
        Index.insert(Names[I], NameIndex::hash(Names[I]), I, NameOf);
    EXPECT_TRUE(Inserted);
    EXPECT_EQ(Id, I);
  }
  EXPECT_EQ(Index.size(), Names.size());
  for (uint32_t I = 0; I < Names.size(); ++I)
    EXPECT_EQ(Index.find(Names[I], NameIndex::hash(Names[I]), NameOf), I);
  // A name filed already keeps its first item.
  auto [Id, Inserted] =
      Index.insert("name7", NameIndex::hash("name7"), 99999, NameOf);
  EXPECT_FALSE(Inserted);
  EXPECT_EQ(Id, 7u);
  EXPECT_EQ(Index.find("name5000", NameIndex::hash("name5000"), NameOf),
            NameIndex::NotFound);
}

TEST(NameIndex, EqualHashesAreToldApartByName) {
  // Names filed under one hash (as if they collided) stay distinct.
  std::vector<StringRef> Names = {"x", "y", "z"};
  auto NameOf = [&](uint32_t Id) { return Names[Id]; };
  NameIndex Index;
  Index.reserve(2);
  for (uint32_t I = 0; I < Names.size(); ++I)
    EXPECT_TRUE(Index.insert(Names[I], /*Hash=*/42, I, NameOf).second);
  for (uint32_t I = 0; I < Names.size(); ++I)
    EXPECT_EQ(Index.find(Names[I], 42, NameOf), I);
  EXPECT_EQ(Index.find("w", 42, NameOf), NameIndex::NotFound);
}

} // namespace

//===- StringBlobTest.cpp - Tests of the string-table blob builder --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Passes/StringBlob.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <string>

using namespace llvm;
using kiln::buildStringBlob;
using kiln::getOffsetBitWidth;
using kiln::StringBlob;
using testing::ElementsAre;

namespace {

// Every input must be found, byte for byte, at its offset.
void expectEveryStringAtItsOffset(ArrayRef<StringRef> Strings,
                                  const StringBlob &Blob) {
  ASSERT_EQ(Blob.Offsets.size(), Strings.size());
  for (size_t I = 0; I < Strings.size(); ++I) {
    ASSERT_LE(Blob.Offsets[I] + Strings[I].size(), Blob.Bytes.size());
    EXPECT_EQ(StringRef(Blob.Bytes).substr(Blob.Offsets[I], Strings[I].size()),
              Strings[I])
        << "string " << I;
  }
}

TEST(StringBlob, DistinctStringsKeepTheirOrder) {
  std::string A("no error\0", 9), B("on fire\0", 8), C("busy\0", 5);
  StringRef Strings[] = {A, B, C};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, A + B + C);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 9u, 17u));
}

TEST(StringBlob, DuplicatesShareBytes) {
  std::string A("a\0", 2), B("bb\0", 3);
  StringRef Strings[] = {A, B, A, B, A};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, A + B);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 2u, 0u, 2u, 0u));
}

TEST(StringBlob, SuffixesLiveInsideTheirHost) {
  // "fire" and "re" end "on fire"; "error" does not end anything else, and
  // comes first, so it is first in the blob even though "on fire" is longer.
  std::string Error("error\0", 6), Fire("fire\0", 5), OnFire("on fire\0", 8),
      Re("re\0", 3);
  StringRef Strings[] = {Error, Fire, OnFire, Re};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, Error + OnFire);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 9u, 6u, 11u));
  expectEveryStringAtItsOffset(Strings, Blob);
}

TEST(StringBlob, ChainsOfSuffixesResolveToOneRoot) {
  // Each string is a suffix of the next: all live inside the longest, which
  // appears last in the input yet is the only root.
  std::string S1("c\0", 2), S2("bc\0", 3), S3("abc\0", 4);
  StringRef Strings[] = {S1, S2, S3};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, S3);
  EXPECT_THAT(Blob.Offsets, ElementsAre(2u, 1u, 0u));
}

TEST(StringBlob, EmbeddedNulsAreBytesLikeAnyOther) {
  // "x\0" is a suffix of "ab\0x\0" as bytes; "b" without the tail is not.
  std::string Double("ab\0x\0", 5), Tail("x\0", 2), B("b\0", 2);
  StringRef Strings[] = {Double, Tail, B};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, Double + B);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 3u, 5u));
  expectEveryStringAtItsOffset(Strings, Blob);
}

TEST(StringBlob, TwoHostsForOneSuffixPickOne) {
  // "e\0" ends both; it must land inside one of them, not be appended.
  std::string One("one\0", 4), Three("three\0", 6), E("e\0", 2);
  StringRef Strings[] = {One, Three, E};
  StringBlob Blob = buildStringBlob(Strings);
  EXPECT_EQ(Blob.Bytes, One + Three);
  expectEveryStringAtItsOffset(Strings, Blob);
}

TEST(StringBlob, AlignedStringsStartAtAlignedOffsets) {
  // "x" needs nothing; the 16-aligned array follows at 16, after padding, and
  // the blob then needs 16 itself. Its 2-aligned tail starts 18 bytes in, at
  // 34, a multiple of 2: it shares the array's bytes.
  std::string X("x\0", 2), Long("a quite long string, sixteen+\0", 30),
      Tail("g, sixteen+\0", 12);
  StringRef Strings[] = {X, Long, Tail};
  uint64_t Alignments[] = {1, 16, 2};
  StringBlob Blob = buildStringBlob(Strings, Alignments);
  EXPECT_EQ(Blob.Alignment, 16u);
  EXPECT_EQ(Blob.Bytes, X + std::string(14, '\0') + Long);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 16u, 34u));
  expectEveryStringAtItsOffset(Strings, Blob);
}

TEST(StringBlob, MisalignedSuffixesGetTheirOwnBytes) {
  // "bc" ends "abc" one byte in: fine for alignment 1, not for 2 or 4.
  std::string Abc("abc\0", 4), Bc("bc\0", 3);
  StringRef Strings[] = {Abc, Bc};
  uint64_t Unaligned[] = {4, 1};
  EXPECT_EQ(buildStringBlob(Strings, Unaligned).Bytes, Abc);
  uint64_t Aligned[] = {4, 2};
  StringBlob Blob = buildStringBlob(Strings, Aligned);
  EXPECT_EQ(Blob.Bytes, Abc + Bc);
  EXPECT_THAT(Blob.Offsets, ElementsAre(0u, 4u));
  // A duplicate asking for more alignment raises the string's alignment.
  StringRef Twice[] = {Bc, Bc};
  uint64_t Mixed[] = {1, 8};
  EXPECT_EQ(buildStringBlob(Twice, Mixed).Alignment, 8u);
}

TEST(StringBlob, NoStrings) {
  StringBlob Blob = buildStringBlob({});
  EXPECT_TRUE(Blob.Bytes.empty());
  EXPECT_TRUE(Blob.Offsets.empty());
}

TEST(StringBlob, OffsetWidthIsTheNarrowestThatFits) {
  EXPECT_EQ(getOffsetBitWidth(0, /*ReserveAllOnes=*/false), 8u);
  EXPECT_EQ(getOffsetBitWidth(255, /*ReserveAllOnes=*/false), 8u);
  // 255 is the null marker in i8, so the offset 255 needs i16.
  EXPECT_EQ(getOffsetBitWidth(254, /*ReserveAllOnes=*/true), 8u);
  EXPECT_EQ(getOffsetBitWidth(255, /*ReserveAllOnes=*/true), 16u);
  EXPECT_EQ(getOffsetBitWidth(65535, /*ReserveAllOnes=*/false), 16u);
  EXPECT_EQ(getOffsetBitWidth(65535, /*ReserveAllOnes=*/true), 32u);
  EXPECT_EQ(getOffsetBitWidth(0xffffffffu, /*ReserveAllOnes=*/false), 32u);
  EXPECT_EQ(getOffsetBitWidth(0xffffffffu, /*ReserveAllOnes=*/true), 0u);
}

} // namespace

//===- RelocationAuditTest.cpp - Tests of kiln relocs' analysis -----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The parts of the relocation audit that need no file, on literal data:
/// RELR and PE base-relocation decoding, the address-range index that
/// attributes relocations to objects and sections, the C-string test and
/// the kiln-strtab verdict.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/RelocationAudit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln::relocs;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

TEST(DecodeRelr, AddressThenBitmaps64) {
  // 0x1000 is relocated; the base moves to the next word, 0x1008. Bitmap
  // 0b1011 marks words 0 and 2 after it (bit 0 only flags a bitmap), then
  // the base moves 63 words on, to 0x1200, where 0b11 marks word 0 again.
  EXPECT_THAT(decodeRelr({0x1000, 0xb, 0x3}, /*WordSize=*/8),
              ElementsAre(0x1000, 0x1008, 0x1018, 0x1200));
}

TEST(DecodeRelr, HighestBitOfABitmap) {
  // Bit 63 of a 64-bit bitmap is the 62nd word after the base; bit 31 of a
  // 32-bit one is the 30th.
  EXPECT_THAT(decodeRelr({0x1000, (uint64_t(1) << 63) | 1}, 8),
              ElementsAre(0x1000, 0x1008 + 62 * 8));
  EXPECT_THAT(decodeRelr({0x100, 0x80000001}, /*WordSize=*/4),
              ElementsAre(0x100, 0x104 + 30 * 4));
}

TEST(DecodeRelr, AddressEntryRestartsTheBase) {
  EXPECT_THAT(decodeRelr({0x1000, 0x3, 0x4000, 0x3}, 8),
              ElementsAre(0x1000, 0x1008, 0x4000, 0x4008));
  EXPECT_THAT(decodeRelr({}, 8), IsEmpty());
}

TEST(DecodeBaseRelocations, BlocksOfTypedPageOffsets) {
  // Block 1: page 0x2000, 12 bytes: DIR64 at +0x010, ABSOLUTE padding.
  // Block 2: page 0x3000, 10 bytes: HIGHLOW at +0xff8.
  const uint8_t Table[] = {0x00, 0x20, 0x00, 0x00, 0x0c, 0x00, 0x00, 0x00,
                           0x10, 0xa0, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00,
                           0x0a, 0x00, 0x00, 0x00, 0xf8, 0x3f};
  Expected<std::vector<BaseRelocation>> Relocations =
      decodeBaseRelocations(Table);
  ASSERT_THAT_EXPECTED(Relocations, Succeeded());
  ASSERT_EQ(Relocations->size(), 3u);
  EXPECT_EQ((*Relocations)[0].RVA, 0x2010u);
  EXPECT_EQ((*Relocations)[0].Type, 10u); // IMAGE_REL_BASED_DIR64
  EXPECT_EQ((*Relocations)[1].Type, 0u);  // IMAGE_REL_BASED_ABSOLUTE
  EXPECT_EQ((*Relocations)[2].RVA, 0x3ff8u);
  EXPECT_EQ((*Relocations)[2].Type, 3u); // IMAGE_REL_BASED_HIGHLOW
}

TEST(DecodeBaseRelocations, RejectsInconsistentBlockSizes) {
  // A size smaller than the block header would never advance.
  const uint8_t TooSmall[] = {0x00, 0x20, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00};
  EXPECT_THAT_EXPECTED(decodeBaseRelocations(TooSmall),
                       FailedWithMessage("base relocation block at offset 0 "
                                         "has a bad size (4)"));
  // A size past the end of the table.
  const uint8_t TooLarge[] = {0x00, 0x20, 0x00, 0x00, 0x40,
                              0x00, 0x00, 0x00, 0x10, 0xa0};
  EXPECT_THAT_EXPECTED(decodeBaseRelocations(TooLarge), Failed());
  const uint8_t CutShort[] = {0x00, 0x20, 0x00};
  EXPECT_THAT_EXPECTED(decodeBaseRelocations(CutShort),
                       FailedWithMessage("base relocation block at offset 0 "
                                         "is cut short"));
}

TEST(AddressRangeIndex, FindsTheContainingRange) {
  AddressRangeIndex Index;
  Index.add(0x100, 0x10, 1);
  Index.add(0x200, 0x8, 2);
  Index.add(0x300, 0, 3); // Empty: never found.
  Index.finalize();
  EXPECT_EQ(Index.find(0x100), 1u);
  EXPECT_EQ(Index.find(0x10f), 1u);
  EXPECT_EQ(Index.find(0x110), std::nullopt); // End is exclusive.
  EXPECT_EQ(Index.find(0x0ff), std::nullopt);
  EXPECT_EQ(Index.find(0x204), 2u);
  EXPECT_EQ(Index.find(0x300), std::nullopt);
}

TEST(AddressRangeIndex, InnermostRangeWins) {
  // A large range starting early must still be found past the smaller
  // ranges that start after it, and lose to them where they overlap.
  AddressRangeIndex Index;
  Index.add(0x1000, 0x1000, 7);
  Index.add(0x1100, 0x10, 8);
  Index.add(0x1200, 0x10, 9);
  Index.finalize();
  EXPECT_EQ(Index.find(0x1104), 8u);
  EXPECT_EQ(Index.find(0x1180), 7u);
  EXPECT_EQ(Index.find(0x1f00), 7u);
  EXPECT_EQ(Index.find(0x1208), 9u);
}

TEST(AddressRangeIndex, EqualRangesResolveToTheLowerId) {
  AddressRangeIndex Index;
  Index.add(0x40, 8, 5);
  Index.add(0x40, 8, 3);
  Index.finalize();
  EXPECT_EQ(Index.find(0x44), 3u);
}

TEST(AddressRangeIndex, HugeSizeDoesNotWrap) {
  AddressRangeIndex Index;
  Index.add(UINT64_MAX - 4, 100, 1);
  Index.finalize();
  EXPECT_EQ(Index.find(UINT64_MAX - 1), 1u);
  EXPECT_EQ(Index.find(0), std::nullopt);
}

static ArrayRef<uint8_t> bytes(StringRef S) { return arrayRefFromStringRef(S); }

TEST(LooksLikeCString, TextEndingInNul) {
  EXPECT_TRUE(looksLikeCString(bytes(StringRef("hello\0more", 10)), false));
  EXPECT_TRUE(looksLikeCString(bytes(StringRef("a\tb\n\0", 5)), false));
  // UTF-8 is text too.
  EXPECT_TRUE(looksLikeCString(bytes(StringRef("caf\xc3\xa9\0", 6)), false));
}

TEST(LooksLikeCString, RejectsBinaryData) {
  // No NUL before the section ends.
  EXPECT_FALSE(looksLikeCString(bytes("abc"), false));
  // A little-endian int 1: a control character first.
  EXPECT_FALSE(looksLikeCString(bytes(StringRef("\x01\0\0\0", 4)), false));
  // Not valid UTF-8.
  EXPECT_FALSE(looksLikeCString(bytes(StringRef("\xff\xfe\0", 3)), false));
  // A NUL past the first 4 KiB does not make a string.
  std::string Long(5000, 'x');
  Long.push_back('\0');
  EXPECT_FALSE(looksLikeCString(bytes(Long), false));
}

TEST(LooksLikeCString, EmptyStringOnlyWhereStringsAreMarked) {
  EXPECT_TRUE(looksLikeCString(bytes(StringRef("\0", 1)), true));
  EXPECT_FALSE(looksLikeCString(bytes(StringRef("\0", 1)), false));
}

static AuditedObject makeObject(ObjectBinding Binding, bool ReadOnly,
                                ClassCounts Counts) {
  AuditedObject O;
  O.Name = "table";
  O.Binding = Binding;
  O.ReadOnlyAfterRelocation = ReadOnly;
  O.Counts = Counts;
  return O;
}

TEST(StrtabVerdict, OnlyLocalReadOnlyStringTablesAreRemovable) {
  // Counts are {string, function, data, other}.
  EXPECT_EQ(
      getStrtabVerdict(makeObject(ObjectBinding::Local, true, {4, 0, 0, 0})),
      StrtabVerdict::Removable);
  EXPECT_EQ(
      getStrtabVerdict(makeObject(ObjectBinding::Local, true, {4, 1, 0, 0})),
      StrtabVerdict::NotAllStrings);
  EXPECT_EQ(
      getStrtabVerdict(makeObject(ObjectBinding::Exported, true, {2, 0, 0, 0})),
      StrtabVerdict::Exported);
  EXPECT_EQ(
      getStrtabVerdict(makeObject(ObjectBinding::Hidden, true, {2, 0, 0, 0})),
      StrtabVerdict::Hidden);
  EXPECT_EQ(
      getStrtabVerdict(makeObject(ObjectBinding::Local, false, {2, 0, 0, 0})),
      StrtabVerdict::Writable);
  // No relocations: nothing to remove.
  EXPECT_EQ(getStrtabVerdict(makeObject(ObjectBinding::Local, true, {})),
            StrtabVerdict::NotAllStrings);
  EXPECT_EQ(getStrtabVerdictText(StrtabVerdict::Exported),
            "exported: interface change");
}

TEST(PointerClass, NamesRoundTrip) {
  for (unsigned I = 0; I < NumPointerClasses; ++I)
    EXPECT_EQ(parsePointerClass(getPointerClassName(PointerClass(I))),
              PointerClass(I));
  EXPECT_EQ(parsePointerClass("strings"), std::nullopt);
  EXPECT_EQ(getTotal({1, 2, 3, 4}), 10u);
}

} // namespace

//===- SampleProfileBounds.cpp - Check sample profile sizes ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The claims checked follow what LLVM 22's SampleProfReader.cpp does with
/// them: a binary profile's name table (`NameTable.reserve(Size)`,
/// `MD5SampleContextTable.resize(Size)`); an extensible-binary profile's
/// section table (offsets and sizes used as pointers into the file), a
/// compressed section's sizes (`Allocate(DecompressSize)`, then zlib reads
/// `CompressSize` bytes), and, inside each section, the counts of the name
/// tables and the function offset table, which are reserved before any
/// entry is read. Every entry of those tables takes at least one byte (an
/// MD5 name of fixed length eight), so a count larger than the bytes left
/// cannot be true. Bytes the checks cannot read (a truncated number) are
/// left to the reader, which reports them as truncated.
///
//===----------------------------------------------------------------------===//

#include "SampleProfileBounds.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ProfileData/SampleProf.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

using namespace llvm;
using namespace llvm::sampleprof;
using namespace kiln;

/// The largest ratio of output to input that deflate can reach (zlib's
/// technical notes: 1032:1); LLVM compresses sample profile sections with
/// zlib only.
static constexpr uint64_t MaxZlibExpansion = 1032;

/// The size of an extensible-binary section header: type, flags, offset and
/// size, each an unencoded little-endian 64-bit number.
static constexpr uint64_t SectionHeaderSize = 4 * sizeof(uint64_t);

namespace {
/// Reads the numbers of a profile as LLVM's reader does; a number that
/// cannot be read is std::nullopt, and the checks stop there.
class ProfileCursor {
public:
  ProfileCursor(const uint8_t *Begin, const uint8_t *End)
      : Data(Begin), End(End) {}

  /// As LLVM's SampleProfileReaderBinary::readNumber: a number that runs
  /// past the end cannot be read (the reader says truncated), but one too
  /// large for 64 bits reads as 0, ending before its offending byte, where
  /// the next number starts. Decoded here rather than by decodeULEB128,
  /// which shifts the zero bytes of a long number by 64 bits or more
  /// (undefined behaviour).
  std::optional<uint64_t> readULEB() {
    uint64_t Value = 0;
    unsigned Shift = 0;
    for (const uint8_t *P = Data;; ++P) {
      if (P == End)
        return std::nullopt;
      uint64_t Slice = *P & 0x7f;
      if ((Shift == 63 && Slice > 1) || (Shift > 63 && Slice != 0)) {
        Data = P;
        return 0;
      }
      if (Shift < 64)
        Value |= Slice << Shift;
      Shift = std::min(Shift + 7, 70u);
      if (*P < 128) {
        Data = P + 1;
        return Value;
      }
    }
  }

  std::optional<uint64_t> readLE64() {
    if (remaining() < sizeof(uint64_t))
      return std::nullopt;
    uint64_t Value = support::endian::read64le(Data);
    Data += sizeof(uint64_t);
    return Value;
  }

  uint64_t remaining() const { return End - Data; }
  const uint8_t *position() const { return Data; }

private:
  const uint8_t *Data;
  const uint8_t *End;
};
} // namespace

static Error corrupt(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           Path + ": corrupt sample profile: " + Message);
}

/// Reads the magic number and the version; \returns false unless both are
/// what LLVM's reader of \p Format accepts.
static bool readIdent(ProfileCursor &Cursor, SampleProfileFormat Format) {
  std::optional<uint64_t> Magic = Cursor.readULEB();
  std::optional<uint64_t> Version = Cursor.readULEB();
  return Magic && *Magic == SPMagic(Format) && Version &&
         *Version == SPVersion();
}

/// Checks a table of \p Count entries of at least \p MinEntrySize bytes
/// each against the bytes left after its count.
static Error checkTableCount(StringRef Path, StringRef Table, uint64_t Count,
                             uint64_t MinEntrySize,
                             const ProfileCursor &Cursor) {
  if (Count <= Cursor.remaining() / MinEntrySize)
    return Error::success();
  return corrupt(Path, Table + " claims " + Twine(Count) + " entries in " +
                           Twine(Cursor.remaining()) + " bytes");
}

static Error checkRawBinary(StringRef Path, ProfileCursor Cursor) {
  if (!readIdent(Cursor, SPF_Binary))
    return Error::success();
  // The summary: total, maximum block and function counts, blocks,
  // functions, then its entries of three numbers each.
  for (int I = 0; I < 5; ++I)
    if (!Cursor.readULEB())
      return Error::success();
  std::optional<uint64_t> NumEntries = Cursor.readULEB();
  if (!NumEntries)
    return Error::success();
  for (uint64_t I = 0; I < *NumEntries; ++I)
    for (int Field = 0; Field < 3; ++Field)
      if (!Cursor.readULEB())
        return Error::success();
  std::optional<uint64_t> NumNames = Cursor.readULEB();
  if (!NumNames)
    return Error::success();
  // Each name ends with a NUL byte.
  return checkTableCount(Path, "the name table", *NumNames, 1, Cursor);
}

/// Checks the counts at the start of one (decompressed) section's contents.
static Error checkSectionContents(StringRef Path, const SecHdrTableEntry &Entry,
                                  ProfileCursor Cursor) {
  switch (Entry.Type) {
  case SecNameTable: {
    std::optional<uint64_t> Count = Cursor.readULEB();
    if (!Count)
      return Error::success();
    bool FixedLengthMD5 =
        hasSecFlag(Entry, SecNameTableFlags::SecFlagFixedLengthMD5);
    return checkTableCount(Path, "the name table", *Count,
                           FixedLengthMD5 ? sizeof(uint64_t) : 1, Cursor);
  }
  case SecCSNameTable: {
    std::optional<uint64_t> Count = Cursor.readULEB();
    if (!Count)
      return Error::success();
    return checkTableCount(Path, "the context name table", *Count, 1, Cursor);
  }
  case SecFuncOffsetTable: {
    std::optional<uint64_t> Count = Cursor.readULEB();
    if (!Count)
      return Error::success();
    // A name index and an offset per entry.
    return checkTableCount(Path, "the function offset table", *Count, 2,
                           Cursor);
  }
  default:
    return Error::success();
  }
}

static Error checkExtBinary(StringRef Path, MemoryBufferRef Buffer) {
  const auto *Begin =
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart());
  const uint64_t FileSize = Buffer.getBufferSize();
  ProfileCursor Cursor(Begin, Begin + FileSize);
  if (!readIdent(Cursor, SPF_Ext_Binary))
    return Error::success();
  std::optional<uint64_t> NumSections = Cursor.readLE64();
  if (!NumSections)
    return Error::success();
  if (*NumSections > Cursor.remaining() / SectionHeaderSize)
    return corrupt(Path, "the section table claims " + Twine(*NumSections) +
                             " sections in " + Twine(Cursor.remaining()) +
                             " bytes");
  for (uint64_t I = 0; I < *NumSections; ++I) {
    // The count was checked against the bytes left: these reads succeed.
    uint64_t Type = *Cursor.readLE64();
    SecHdrTableEntry Entry;
    // A type LLVM does not know is a custom section to its reader, and
    // outside SecType's range here.
    Entry.Type =
        Type <= SecLBRProfile ? static_cast<SecType>(Type) : SecInValid;
    Entry.Flags = *Cursor.readLE64();
    Entry.Offset = *Cursor.readLE64();
    Entry.Size = *Cursor.readLE64();
    // The reader skips empty sections.
    if (Entry.Size == 0)
      continue;
    std::string Section =
        ("section " + Twine(I) + " (" +
         (Type <= SecLBRProfile ? getSecName(Entry.Type)
                                : "type " + std::to_string(Type)) +
         ")")
            .str();
    if (Entry.Offset > FileSize || Entry.Size > FileSize - Entry.Offset)
      return corrupt(Path, Section + " at offset " + Twine(Entry.Offset) +
                               " of " + Twine(Entry.Size) +
                               " bytes extends past the end of the file (" +
                               Twine(FileSize) + " bytes)");
    ProfileCursor Contents(Begin + Entry.Offset,
                           Begin + Entry.Offset + Entry.Size);
    if (!hasSecFlag(Entry, SecCommonFlags::SecFlagCompress)) {
      if (Error E = checkSectionContents(Path, Entry, Contents))
        return E;
      continue;
    }
    std::optional<uint64_t> DecompressedSize = Contents.readULEB();
    std::optional<uint64_t> CompressedSize = Contents.readULEB();
    if (!DecompressedSize || !CompressedSize)
      continue;
    if (*CompressedSize > Contents.remaining())
      return corrupt(Path, Section + " claims " + Twine(*CompressedSize) +
                               " compressed bytes in " +
                               Twine(Contents.remaining()));
    if (*DecompressedSize >
        SaturatingMultiply(*CompressedSize, MaxZlibExpansion))
      return corrupt(Path, Section + " claims " + Twine(*DecompressedSize) +
                               " bytes decompressed from " +
                               Twine(*CompressedSize) +
                               ", more than zlib can expand");
    // The counts inside are checked on the decompressed bytes, whose size
    // is now bounded by the file's. Without zlib, or when the bytes do not
    // decompress, the reader reports it.
    if (!compression::zlib::isAvailable())
      continue;
    SmallVector<uint8_t, 0> Decompressed;
    if (Error E = compression::zlib::decompress(
            ArrayRef(Contents.position(), *CompressedSize), Decompressed,
            *DecompressedSize)) {
      consumeError(std::move(E));
      continue;
    }
    if (Error E = checkSectionContents(
            Path, Entry,
            ProfileCursor(Decompressed.data(),
                          Decompressed.data() + Decompressed.size())))
      return E;
  }
  return Error::success();
}

Error kiln::checkSampleProfileBounds(StringRef Path, MemoryBufferRef Buffer) {
  const auto *Begin =
      reinterpret_cast<const uint8_t *>(Buffer.getBufferStart());
  ProfileCursor Cursor(Begin, Begin + Buffer.getBufferSize());
  std::optional<uint64_t> Magic = ProfileCursor(Cursor).readULEB();
  if (!Magic)
    return Error::success();
  if (*Magic == SPMagic(SPF_Binary))
    return checkRawBinary(Path, Cursor);
  if (*Magic == SPMagic(SPF_Ext_Binary))
    return checkExtBinary(Path, Buffer);
  return Error::success();
}

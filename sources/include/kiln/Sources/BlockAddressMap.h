//===- kiln/Sources/BlockAddressMap.h - Block addresses ---------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The machine basic blocks of a linked ELF binary, from its
/// `SHT_LLVM_BB_ADDR_MAP` sections (read with LLVM Object's
/// ELFObjectFileBase::readBBAddrMap), named by the binary's symbols, and the
/// question every profile reader asks: which function and block hold this
/// address. A function that the compiler split into several ranges
/// (`fn.cold`, basic-block-section parts) stays one function with the blocks
/// of all its ranges.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_BLOCKADDRESSMAP_H
#define KILN_SOURCES_BLOCKADDRESSMAP_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {

/// One machine basic block of the map.
struct MappedBlock {
  uint32_t ID = 0;
  uint64_t Address = 0;
  uint64_t Size = 0;
  uint64_t Hash = 0;
  bool IsEHPad = false;
  /// The block may continue into the next block of its range.
  bool CanFallThrough = false;
  /// The block ends with a return or a tail call.
  bool EndsInReturn = false;
  /// Index of the next block of the same range by address (the block a
  /// fall-through reaches), or none at the end of a range.
  std::optional<uint32_t> Next;
};

/// One function of the map.
struct MappedFunction {
  std::string Name;
  uint64_t Address = 0;
  /// Other functions of the binary have this name (only the first by
  /// address is mapped).
  bool SharedName = false;
  /// The entry block first, then the others by address.
  std::vector<MappedBlock> Blocks;
};

/// A block of the map: indices into getFunctions() and its Blocks.
struct BlockRef {
  uint32_t Function = 0;
  uint32_t Block = 0;
  bool operator==(const BlockRef &Other) const {
    return Function == Other.Function && Block == Other.Block;
  }
};

/// The address map of one binary.
class BlockAddressMap {
public:
  /// Reads the ELF executable or shared object at \p Path. Errors are
  /// `<Path>: <reason>`: not ELF, a relocatable object, no address map
  /// (with how to link one), a corrupt map (LLVM's error), no named
  /// function.
  static llvm::Expected<BlockAddressMap> read(llvm::StringRef Path);

  /// Builds a map from \p Functions (tests, and readers of other formats).
  /// Functions are sorted by address; blocks must not overlap; each
  /// function's blocks are one range in address order after the entry.
  /// \p CodeRanges are the [begin, end) ranges of executable code of the
  /// binary, mapped or not; \p Symbols are its function symbols besides the
  /// functions' names.
  static BlockAddressMap
  fromFunctions(std::vector<MappedFunction> Functions,
                std::vector<std::pair<uint64_t, uint64_t>> CodeRanges = {},
                std::vector<std::pair<std::string, uint64_t>> Symbols = {});

  llvm::ArrayRef<MappedFunction> getFunctions() const { return Functions; }
  const MappedBlock &getBlock(BlockRef B) const {
    return Functions[B.Function].Blocks[B.Block];
  }

  /// \returns the block whose bytes hold \p Address (a block of size 0
  /// holds nothing), or none.
  std::optional<BlockRef> findBlock(uint64_t Address) const;
  /// \returns the block holding \p Address, or the block of whose range
  /// \p Address is in the padding before the next block (alignment nops,
  /// which run as the block falls through), or none.
  std::optional<BlockRef> findBlockOrPadding(uint64_t Address) const;
  /// \returns the block that starts at \p Address and holds it, or none.
  std::optional<BlockRef> findBlockStart(uint64_t Address) const;
  /// \returns the function whose entry is \p Address, or none.
  std::optional<uint32_t> findFunctionEntry(uint64_t Address) const;
  /// \returns the address of the function symbol \p Name of the binary:
  /// any of them, mapped or not (`_start`, an alias, the part `fn.cold` of
  /// a split function). For a name several symbols share, \p LocalOrdinal
  /// (1-based, in symbol table order, as BOLT's `name/N` counts locals)
  /// chooses one; 0 means the name must be unique.
  std::optional<uint64_t> findSymbol(llvm::StringRef Name,
                                     unsigned LocalOrdinal = 0) const;
  /// \returns whether \p Address is in the binary's executable code, inside
  /// the map or not (the C runtime's functions and PLT have no map).
  bool isCode(uint64_t Address) const;

  /// The GNU build ID in lower-case hex, empty if none.
  const std::string &getBuildID() const { return BuildID; }
  /// Functions of the map with no symbol at their entry (left out).
  uint64_t getNumUnnamedFunctions() const { return NumUnnamed; }
  /// Functions whose chosen name another function had already (statics of
  /// the same name in several files; left out, since block profiles name
  /// functions uniquely).
  uint64_t getNumDuplicateNames() const { return NumDuplicateNames; }

private:
  static llvm::Expected<BlockAddressMap> readELF(llvm::StringRef Path,
                                                 llvm::MemoryBufferRef Buffer);
  void index();

  std::vector<MappedFunction> Functions;
  /// Blocks of size > 0 sorted by address, for findBlock.
  struct BlockRange {
    uint64_t Begin;
    uint64_t End;
    BlockRef Ref;
  };
  std::vector<BlockRange> Ranges;
  std::vector<std::pair<uint64_t, uint64_t>> CodeRanges;
  /// Every function symbol's name -> its addresses, in symbol table order.
  llvm::StringMap<std::vector<uint64_t>> SymbolAddresses;
  std::string BuildID;
  uint64_t NumUnnamed = 0;
  uint64_t NumDuplicateNames = 0;
};

} // namespace kiln

#endif // KILN_SOURCES_BLOCKADDRESSMAP_H

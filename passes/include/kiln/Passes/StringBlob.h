//===- kiln/Passes/StringBlob.h - Pack strings in a blob --------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The data-only half of `kiln-strtab`: lay out byte strings in one blob so
/// that identical strings share their bytes and a string that is a suffix of
/// another ("fire\0" of "on fire\0") is placed inside it (tail merging, as
/// linkers do for SHF_MERGE|SHF_STRINGS sections), and pick the narrowest
/// integer type able to hold the offsets. No LLVM IR here, so the algorithm
/// is tested on its own.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_STRINGBLOB_H
#define KILN_PASSES_STRINGBLOB_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {

/// Strings packed into one character array.
struct StringBlob {
  /// The bytes of every string, each exactly once or inside a longer one.
  std::string Bytes;
  /// Offsets[I] is where the I-th input string starts in Bytes.
  std::vector<uint64_t> Offsets;
  /// The alignment the blob itself needs (the largest asked for a root).
  uint64_t Alignment = 1;
};

/// Packs \p Strings into one blob. Each string is placed as a whole (its
/// bytes are copied verbatim, embedded NULs included); a string equal to
/// another, or a suffix of another, shares that string's bytes.
///
/// \p Alignments, if not empty, gives for each string the power of two its
/// offset must be a multiple of (the alignment of the object it came from):
/// such a string starts at an aligned offset, after NUL padding if needed,
/// and shares another's bytes only where that is aligned too.
///
/// The layout is deterministic: strings that are not inside another one
/// ("roots") appear in the order of their first occurrence in \p Strings.
/// Empty strings are not allowed (their position would be meaningless).
StringBlob buildStringBlob(llvm::ArrayRef<llvm::StringRef> Strings,
                           llvm::ArrayRef<uint64_t> Alignments = {});

/// \returns the width in bits (8, 16 or 32) of the narrowest unsigned integer
/// that can hold every offset up to \p MaxOffset, keeping the all-ones value
/// free as the encoding of a null entry when \p ReserveAllOnes is set; 0 if
/// not even 32 bits suffice.
unsigned getOffsetBitWidth(uint64_t MaxOffset, bool ReserveAllOnes);

} // namespace kiln

#endif // KILN_PASSES_STRINGBLOB_H

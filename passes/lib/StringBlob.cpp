//===- StringBlob.cpp - Pack strings into one blob ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tail merging by sorting the reversed strings: if the reverse of A is a
/// prefix of the reverse of some B, it is a prefix of A's immediate successor
/// in lexicographic order of the reversed strings (every string sorted
/// between A and B shares that prefix). One sort and one linear scan from the
/// largest string down therefore find, for every string, a string that
/// contains it as a suffix whenever one exists.
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/StringBlob.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cassert>

using namespace llvm;

// Orders strings by their reversed bytes (compared from the last byte).
static bool isReverseLess(StringRef A, StringRef B) {
  size_t Common = std::min(A.size(), B.size());
  for (size_t I = 1; I <= Common; ++I) {
    unsigned char ByteA = A[A.size() - I];
    unsigned char ByteB = B[B.size() - I];
    if (ByteA != ByteB)
      return ByteA < ByteB;
  }
  return A.size() < B.size();
}

kiln::StringBlob kiln::buildStringBlob(ArrayRef<StringRef> Strings,
                                       ArrayRef<uint64_t> Alignments) {
  assert((Alignments.empty() || Alignments.size() == Strings.size()) &&
         "one alignment per string, or none");
  // Distinct strings in order of first occurrence, each with the largest
  // alignment asked for it; InputToUnique maps every input to its string.
  std::vector<StringRef> Unique;
  std::vector<uint64_t> UniqueAlign;
  std::vector<size_t> InputToUnique;
  DenseMap<StringRef, size_t> UniqueIndex;
  for (size_t I = 0; I < Strings.size(); ++I) {
    StringRef S = Strings[I];
    uint64_t Alignment = Alignments.empty() ? 1 : Alignments[I];
    assert(!S.empty() && "empty strings have no position in a blob");
    assert(isPowerOf2_64(Alignment) && "alignments are powers of two");
    auto [It, Inserted] = UniqueIndex.try_emplace(S, Unique.size());
    if (Inserted) {
      Unique.push_back(S);
      UniqueAlign.push_back(Alignment);
    } else {
      UniqueAlign[It->second] = std::max(UniqueAlign[It->second], Alignment);
    }
    InputToUnique.push_back(It->second);
  }

  std::vector<size_t> ByReverse(Unique.size());
  for (size_t I = 0; I < Unique.size(); ++I)
    ByReverse[I] = I;
  llvm::sort(ByReverse, [&](size_t A, size_t B) {
    return isReverseLess(Unique[A], Unique[B]);
  });

  // Host[I] is the string whose bytes contain string I as a suffix (I itself
  // for a root). Walking from the largest reversed string down, a string's
  // successor has already been given its final host, so chains resolve to a
  // root in one step. A root starts at a multiple of its alignment, so a
  // suffix inside it is aligned enough if its alignment divides the root's
  // and its distance from the root's start; otherwise it is a root itself.
  std::vector<size_t> Host(Unique.size());
  for (size_t Pos = Unique.size(); Pos-- > 0;) {
    size_t Current = ByReverse[Pos];
    Host[Current] = Current;
    if (Pos + 1 == Unique.size())
      continue;
    size_t Successor = ByReverse[Pos + 1];
    if (!Unique[Successor].ends_with(Unique[Current]))
      continue;
    size_t Root = Host[Successor];
    uint64_t Distance = Unique[Root].size() - Unique[Current].size();
    if (UniqueAlign[Root] % UniqueAlign[Current] == 0 &&
        Distance % UniqueAlign[Current] == 0)
      Host[Current] = Root;
  }

  StringBlob Blob;
  std::vector<uint64_t> RootOffset(Unique.size(), 0);
  for (size_t I = 0; I < Unique.size(); ++I) {
    if (Host[I] != I)
      continue;
    // NUL padding up to the root's alignment.
    Blob.Bytes.resize(alignTo(Blob.Bytes.size(), UniqueAlign[I]), '\0');
    Blob.Alignment = std::max(Blob.Alignment, UniqueAlign[I]);
    RootOffset[I] = Blob.Bytes.size();
    Blob.Bytes.append(Unique[I].begin(), Unique[I].end());
  }

  Blob.Offsets.reserve(Strings.size());
  for (size_t UniqueI : InputToUnique) {
    size_t Root = Host[UniqueI];
    Blob.Offsets.push_back(RootOffset[Root] + Unique[Root].size() -
                           Unique[UniqueI].size());
  }
  return Blob;
}

unsigned kiln::getOffsetBitWidth(uint64_t MaxOffset, bool ReserveAllOnes) {
  for (unsigned Bits : {8u, 16u, 32u}) {
    uint64_t AllOnes = (uint64_t(1) << Bits) - 1;
    if (ReserveAllOnes ? MaxOffset < AllOnes : MaxOffset <= AllOnes)
      return Bits;
  }
  return 0;
}

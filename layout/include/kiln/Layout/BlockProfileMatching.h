//===- kiln/Layout/BlockProfileMatching.h - Stale profiles ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Re-maps a block profile taken of one build onto the blocks of another
/// build of the same program, so that an older profile still lays out the
/// functions that did not change, and those that changed little.
///
/// Block IDs alone cannot say whether a block is the one profiled: the
/// compiler numbers blocks as it creates them, so one added branch renumbers
/// every block after it. The address map's block hashes can (LLVM's
/// `-emit-bb-hash`, MachineBlockHashInfo.cpp): each is four 16-bit parts,
/// from the low bits up, the block's offset in the function in instructions,
/// a hash of its opcodes, a hash of its instructions with their operands,
/// and a hash of its opcodes with those of its successors and predecessors.
/// The operand hash is not stable in LLVM 22: it hashes a call's register
/// mask with the per-process seed of llvm::hash_combine
/// (MachineStableHash.cpp), so every block with a call gets another one in
/// each link of the same bitcode. Kiln compares the other three parts, and
/// the blocks' sizes. Per function of the profile, by name:
///  - *exact*: the build's function has as many blocks, with the same IDs,
///    each of the same size and, with hashes, the same stable parts; counts,
///    edges and calls carry over as they are;
///  - *matched by hash*: otherwise each profiled block is paired with at
///    most one block of the build: entry with entry; then blocks whose
///    opcode and neighbour hashes are unique among the unpaired blocks of
///    both functions; then, as LLVM's own matcher does
///    (BasicBlockMatchingAndInference.cpp), a block with the nearest block
///    whose opcode hash is the same, nearness ranked by neighbour hash, then
///    operand hash, then offset. Two equally near candidates pair only if
///    one has the profiled block's ID; otherwise the block stays unpaired,
///    since copies of one block cannot be told apart and a wrong pair would
///    move counts to another block. Counts and edges of paired blocks carry
///    over, the others are dropped;
///  - *stale*: the paired blocks hold less than the configured share of the
///    function's counts, or a function without hashes is not exact: left
///    out (it keeps function-level layout);
///  - *missing*: the build has no function of that name.
///
/// Plain data in and out: the build is described by a BlockProfile without
/// counts (its functions and blocks). Nothing here knows of LLVM IR, object
/// files or linkers.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_BLOCKPROFILEMATCHING_H
#define KILN_LAYOUT_BLOCKPROFILEMATCHING_H

#include "kiln/Layout/BlockProfile.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln::layout {

/// How a function of the profile was found in the build.
enum class FunctionMatchKind : uint8_t {
  Exact,   ///< Same blocks, same hashes.
  ByHash,  ///< Blocks paired by hash; the unpaired ones dropped.
  Stale,   ///< Too little of it paired: left out.
  Missing, ///< No function of the build has its name.
};

/// The number of FunctionMatchKind values.
inline constexpr unsigned NumFunctionMatchKinds = 4;

/// \returns "exact", "by-hash", "stale" or "missing".
llvm::StringRef getFunctionMatchKindName(FunctionMatchKind Kind);

/// What matching found for one function of the profile.
struct FunctionMatch {
  /// Index into the profile's Functions.
  uint32_t Profiled = 0;
  /// Index into the build's (and the result's) Functions; none if missing.
  std::optional<uint32_t> Build;
  FunctionMatchKind Kind = FunctionMatchKind::Missing;
  /// The profiled function's blocks, and how many of them were paired.
  uint32_t Blocks = 0;
  uint32_t PairedBlocks = 0;
  /// Its counts over all scenarios (each weighted by its scenario's
  /// weight), and those of the paired blocks.
  uint64_t Count = 0;
  uint64_t PairedCount = 0;
  /// Neither function has block hashes: only IDs and sizes were compared.
  bool WithoutHashes = false;
};

/// Tunables of the matcher.
struct BlockProfileMatchConfig {
  /// A function matched by hash is kept only if its paired blocks hold at
  /// least this share (0 to 1) of its counts (of its blocks, if it never
  /// ran); below it the function is stale.
  double MinPairedShare = 0.5;
};

/// A profile re-mapped onto a build.
struct BlockProfileMatch {
  /// The build's functions and blocks (its addresses, IDs and hashes) with
  /// the counts, edges and calls carried over from the profile; functions
  /// that are not exact or matched by hash have no counts. The profile's
  /// scenarios, the build's build ID.
  BlockProfile Profile;
  /// One per function of the profile, in its order.
  std::vector<FunctionMatch> Functions;
  /// Functions of the profile per FunctionMatchKind.
  uint32_t NumByKind[NumFunctionMatchKinds] = {};
  /// Blocks of the functions matched by hash that were not paired.
  uint64_t NumDroppedBlocks = 0;

  uint32_t getNum(FunctionMatchKind Kind) const {
    return NumByKind[unsigned(Kind)];
  }
};

/// Re-maps \p Profile onto \p Build (a BlockProfile of the other build whose
/// blocks carry no counts; its scenarios are ignored). Both must pass
/// verifyBlockProfile but for the counts of \p Build. Deterministic.
BlockProfileMatch matchBlockProfile(const BlockProfile &Profile,
                                    const BlockProfile &Build,
                                    const BlockProfileMatchConfig &Config = {});

} // namespace kiln::layout

#endif // KILN_LAYOUT_BLOCKPROFILEMATCHING_H

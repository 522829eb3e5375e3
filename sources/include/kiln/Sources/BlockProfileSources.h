//===- kiln/Sources/BlockProfileSources.h - Profiles onto blocks *- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Profiles of a final binary, mapped onto its machine basic blocks
/// (BlockAddressMap) as block, edge and call counts of one scenario:
///
/// - callgrind's exact trace (`--dump-instr=yes --collect-jumps=yes`): block
///   counts are the executions of each block's first instruction, taken
///   edges come from the jump records, fall-throughs are the executions of a
///   block's last instruction minus its taken jumps (callgrind records no
///   jump to the next instruction, so a block that ends with one falls
///   through too), calls from `calls=`.
/// - BOLT instrumentation's `.fdata` (`llvm-bolt -instrument`): branch
///   records by symbol and offset; edges inside a function are block edges,
///   edges to another function's offset 0 are calls; a block ran as often
///   as control entered it (its incoming edges, and calls for the entry
///   block) or left it for another block, whichever is more.
/// - `perf script -F ip,brstack` text (LBR records): taken branches are
///   edges or calls, and the code between consecutive records ran straight
///   through, which gives block counts and fall-throughs (the range walk of
///   AutoFDO and Propeller).
///
/// Every reader classifies what it could not use: addresses outside the
/// binary's code, code of the binary without an address map (the C
/// runtime's, PLT stubs), and branch targets that are not a block start (a
/// profile of another build).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_BLOCKPROFILESOURCES_H
#define KILN_SOURCES_BLOCKPROFILESOURCES_H

#include "kiln/Layout/BlockProfile.h"
#include "kiln/Sources/BlockAddressMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

namespace kiln {

/// The profile formats `kiln block-profile` reads.
enum class BlockProfileFormat { Auto, Callgrind, Fdata, Perf };

/// \returns the format of \p Buffer from its first record, or an error
/// naming the buffer when it is none of them.
llvm::Expected<BlockProfileFormat>
detectBlockProfileFormat(llvm::MemoryBufferRef Buffer);

/// The counts of one scenario on the blocks of a BlockAddressMap. Sums
/// saturate.
class BlockCounts {
public:
  explicit BlockCounts(const BlockAddressMap &Map);

  void addBlock(BlockRef B, uint64_t Count);
  /// \p From and \p To are blocks of one function.
  void addEdge(BlockRef From, BlockRef To, uint64_t Count);
  void addCall(BlockRef From, uint32_t Callee, uint64_t Count);
  /// Adds every count of \p Other (counts of the same map).
  void merge(const BlockCounts &Other);

  uint64_t getBlockCount(BlockRef B) const {
    return Blocks[B.Function][B.Block];
  }
  /// \returns the count of the edge, 0 if it never ran.
  uint64_t getEdgeCount(BlockRef From, BlockRef To) const;
  /// \returns the count of the call, 0 if it never ran.
  uint64_t getCallCount(BlockRef From, uint32_t Callee) const;

  using EdgeKey = std::tuple<uint32_t, uint32_t, uint32_t>;
  /// (function, from block, to block) -> count.
  const std::map<EdgeKey, uint64_t> &getEdges() const { return Edges; }
  /// (function, from block, callee) -> count.
  const std::map<EdgeKey, uint64_t> &getCalls() const { return Calls; }

private:
  std::vector<std::vector<uint64_t>> Blocks;
  std::map<EdgeKey, uint64_t> Edges;
  std::map<EdgeKey, uint64_t> Calls;
};

/// What a reader made of a profile's records.
struct BlockReadStats {
  /// Records read: branch records (fdata, perf), or executed instructions
  /// and jumps of the binary (callgrind).
  uint64_t Records = 0;
  /// Records mapped to a block of the map.
  uint64_t Mapped = 0;
  /// Records in the binary's code that has no address map.
  uint64_t UnmappedCode = 0;
  /// Records outside the binary's code, or naming functions it does not
  /// have.
  uint64_t Outside = 0;
  /// Branches to an address inside a block rather than at its start.
  uint64_t NotAtBlockStart = 0;
  /// perf: ranges between consecutive records that do not run straight
  /// through the blocks of one function (skipped).
  uint64_t BrokenRanges = 0;

  void add(const BlockReadStats &Other);
};

/// Reads callgrind output \p Buffer of \p BinaryPath into \p Counts. Only
/// the costs of the object whose name is \p BinaryPath's (same file or same
/// file name) are read; a profile of another program is an error.
llvm::Error readCallgrindProfile(llvm::MemoryBufferRef Buffer,
                                 llvm::StringRef BinaryPath,
                                 const BlockAddressMap &Map,
                                 BlockCounts &Counts, BlockReadStats &Stats);

/// \returns the instructions (Ir) that callgrind output \p Buffer counts in
/// the code of the object whose name is \p BinaryPath's (as
/// readCallgrindProfile finds it), a call's inclusive cost left out; 0 when
/// the run did not load it.
llvm::Expected<uint64_t>
readCallgrindBinaryInstructions(llvm::MemoryBufferRef Buffer,
                                llvm::StringRef BinaryPath);

/// Reads BOLT's `.fdata` \p Buffer into \p Counts. `no_lbr` (samples
/// without branches) and `boltedcollection` (a profile of a BOLT-optimized
/// binary) files are refused with the reason.
llvm::Error readFdataProfile(llvm::MemoryBufferRef Buffer,
                             const BlockAddressMap &Map, BlockCounts &Counts,
                             BlockReadStats &Stats);

/// Reads `perf script -F ip,brstack` text \p Buffer into \p Counts. The
/// addresses must be the binary's own (a non-PIE binary, or addresses
/// already relative to its load address).
llvm::Error readPerfBranchProfile(llvm::MemoryBufferRef Buffer,
                                  const BlockAddressMap &Map,
                                  BlockCounts &Counts, BlockReadStats &Stats);

/// Adds one straight-line run of code from \p Begin to \p End (addresses of
/// its first and last instructions) to \p Counts: every block from the one
/// holding \p Begin to the one holding \p End once, and the fall-through
/// between each pair. \returns false, adding nothing, when the run does not
/// go through consecutive blocks of one function range.
bool addStraightRun(const BlockAddressMap &Map, uint64_t Begin, uint64_t End,
                    uint64_t Count, BlockCounts &Counts);

/// The block profile of \p Map with one scenario per element of \p
/// Scenarios, counted by the same element of \p Counts. Every function of
/// the map is in it, executed or not.
layout::BlockProfile
buildBlockProfile(const BlockAddressMap &Map,
                  llvm::ArrayRef<layout::BlockScenario> Scenarios,
                  llvm::ArrayRef<BlockCounts> Counts);

} // namespace kiln

#endif // KILN_SOURCES_BLOCKPROFILESOURCES_H

//===- kiln/Layout/BlockProfile.h - Machine basic block profile -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What block-level layout knows of a program: the machine basic blocks of
/// each function of one linked binary, by the compiler's block IDs (the IDs
/// of `SHT_LLVM_BB_ADDR_MAP` and of LLVM's basic-block-sections profiles),
/// and, per scenario, how often each block ran, how often control went from
/// one block of a function to another (taken branch or fall-through), and
/// how often a block called another function.
///
/// Plain data: the readers in kiln/Sources fill it from a binary's address
/// map and a profile of that binary (BOLT instrumentation, an exact trace,
/// branch records); the block planner reads it. Nothing here knows of LLVM
/// IR, object files or linkers.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_BLOCKPROFILE_H
#define KILN_LAYOUT_BLOCKPROFILE_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::layout {

/// One count per scenario, indexed like BlockProfile::Scenarios.
using ScenarioCounts = llvm::SmallVector<uint64_t, 4>;

/// A machine basic block of the profiled binary.
struct ProfiledBlock {
  /// The compiler's ID of the block (stable for the same input to code
  /// generation; not its position).
  uint32_t ID = 0;
  /// Address of its first byte in the profiled binary.
  uint64_t Address = 0;
  /// Bytes of code.
  uint64_t Size = 0;
  /// The address map's hash of the block, 0 when the map has none.
  uint64_t Hash = 0;
  /// An exception-handling landing pad.
  bool IsEHPad = false;
  /// Executions per scenario.
  ScenarioCounts Counts;
  /// Control can continue from its end into the block that follows it by
  /// address (the address map's `CanFallThrough`, within one range of the
  /// function); false when the block ends in a jump or return, or when the
  /// profile does not say.
  bool FallsThrough = false;
};

/// Control going from one block of a function to another of the same
/// function: a taken branch, or falling through to the next block.
struct BlockEdge {
  uint32_t From = 0; ///< Index into BlockFunction::Blocks.
  uint32_t To = 0;   ///< Index into BlockFunction::Blocks.
  ScenarioCounts Counts;
};

/// Calls (or tail calls) from a block to another function's entry.
struct BlockCall {
  uint32_t FromBlock = 0; ///< Index into the caller's BlockFunction::Blocks.
  uint32_t Callee = 0;    ///< Index into BlockProfile::Functions.
  ScenarioCounts Counts;
};

/// A function of the profiled binary.
struct BlockFunction {
  /// The linker's symbol name of its entry (`fn`, `fn.llvm.<hash>` for a
  /// promoted static).
  std::string Name;
  /// Address of its entry in the profiled binary.
  uint64_t Address = 0;
  /// Other functions of the binary have the same name (statics of several
  /// files, anonymous-namespace functions): this is the first of them by
  /// address, the only one the profile describes. A basic-block-sections
  /// profile cannot tell them apart (LLVM would apply one function's block
  /// IDs to all of them), but an ordering file places them all by the name.
  bool SharedName = false;
  /// Its blocks: the entry block first, then the others by address.
  std::vector<ProfiledBlock> Blocks;
  /// Sorted by (From, To); one per pair.
  std::vector<BlockEdge> Edges;
  /// Sorted by (FromBlock, Callee); one per pair.
  std::vector<BlockCall> Calls;
};

/// A scenario the profile has counts for.
struct BlockScenario {
  std::string Name;
  ScenarioKind Kind = ScenarioKind::SteadyState;
  /// Relative importance when scenarios are combined (> 0).
  double Weight = 1.0;
};

/// The block profile of one binary.
struct BlockProfile {
  /// The profiled binary's GNU build ID in lower-case hex; empty when it has
  /// none. A profile is only valid for the binary it was collected on.
  std::string BuildID;
  std::vector<BlockScenario> Scenarios;
  /// Sorted by Address; names are unique.
  std::vector<BlockFunction> Functions;
};

/// \returns the sum of \p Counts weighted by the scenarios' weights,
/// saturating, over the scenarios of kind \p Kind.
uint64_t getWeightedCount(const BlockProfile &Profile,
                          const ScenarioCounts &Counts, ScenarioKind Kind);

} // namespace kiln::layout

#endif // KILN_LAYOUT_BLOCKPROFILE_H

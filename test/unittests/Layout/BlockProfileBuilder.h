//===- BlockProfileBuilder.h - Block profiles for tests ---------*- C++ -*-===//
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Builds the BlockProfile values the block planner's and the block
/// matcher's unit tests lay out: functions of consecutive blocks at
/// consecutive addresses, with edges and calls.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNITTESTS_LAYOUT_BLOCKPROFILEBUILDER_H
#define KILN_TEST_UNITTESTS_LAYOUT_BLOCKPROFILEBUILDER_H

#include "kiln/Layout/BlockProfile.h"

#include <cstdint>
#include <utility>

namespace kiln::layout::test {

/// Builds a BlockProfile with scenarios "start" (startup) and "work"
/// (steady), whose counts are given as {start, work}; or, without
/// scenarios, the description of a build (addresses from \p Base).
class BlockProfileBuilder {
public:
  explicit BlockProfileBuilder(bool WithScenarios = true,
                               uint64_t Base = 0x1000)
      : NextAddress(Base) {
    if (!WithScenarios)
      return;
    P.Scenarios.push_back({"start", ScenarioKind::Startup, 1.0});
    P.Scenarios.push_back({"work", ScenarioKind::SteadyState, 1.0});
  }

  uint32_t function(const char *Name) {
    BlockFunction F;
    F.Name = Name;
    F.Address = NextAddress;
    P.Functions.push_back(std::move(F));
    return P.Functions.size() - 1;
  }
  /// Adds a block with ID \p ID to the last function; \returns its index.
  uint32_t block(uint32_t ID, uint64_t Size, ScenarioCounts Counts,
                 bool IsEHPad = false) {
    return addBlock(ID, Size, /*Hash=*/0, std::move(Counts), IsEHPad);
  }
  /// Adds a block with an address map hash to the last function.
  uint32_t hashedBlock(uint32_t ID, uint64_t Hash, ScenarioCounts Counts = {},
                       uint64_t Size = 16) {
    return addBlock(ID, Size, Hash, std::move(Counts), /*IsEHPad=*/false);
  }
  /// Marks block \p Index of the last function as falling through into the
  /// block after it.
  void fallsThrough(uint32_t Index) {
    P.Functions.back().Blocks[Index].FallsThrough = true;
  }
  /// Leaves \p Bytes of padding before the next block.
  void pad(uint64_t Bytes) { NextAddress += Bytes; }
  void edge(uint32_t From, uint32_t To, ScenarioCounts Counts) {
    P.Functions.back().Edges.push_back({From, To, std::move(Counts)});
  }
  void call(uint32_t FromBlock, uint32_t Callee, ScenarioCounts Counts) {
    P.Functions.back().Calls.push_back({FromBlock, Callee, std::move(Counts)});
  }

  BlockProfile P;

private:
  uint32_t addBlock(uint32_t ID, uint64_t Size, uint64_t Hash,
                    ScenarioCounts Counts, bool IsEHPad) {
    BlockFunction &F = P.Functions.back();
    ProfiledBlock B;
    B.ID = ID;
    B.Address = NextAddress;
    B.Size = Size;
    B.Hash = Hash;
    B.IsEHPad = IsEHPad;
    B.Counts = std::move(Counts);
    NextAddress += Size;
    F.Blocks.push_back(std::move(B));
    return F.Blocks.size() - 1;
  }

  uint64_t NextAddress;
};

} // namespace kiln::layout::test

#endif // KILN_TEST_UNITTESTS_LAYOUT_BLOCKPROFILEBUILDER_H

//===- BlockProfileMatching.cpp - Stale block profiles --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/BlockProfileMatching.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <algorithm>
#include <limits>

using namespace llvm;

namespace kiln::layout {

StringRef getFunctionMatchKindName(FunctionMatchKind Kind) {
  switch (Kind) {
  case FunctionMatchKind::Exact:
    return "exact";
  case FunctionMatchKind::ByHash:
    return "by-hash";
  case FunctionMatchKind::Stale:
    return "stale";
  case FunctionMatchKind::Missing:
    return "missing";
  }
  return "missing";
}

namespace {
/// The four parts of an address map block hash (LLVM's BlendedBlockHash).
struct BlockHashParts {
  uint16_t Offset;
  uint16_t Opcodes;
  uint16_t Instructions;
  uint16_t Neighbours;

  explicit BlockHashParts(uint64_t Hash)
      : Offset(Hash & 0xffff), Opcodes((Hash >> 16) & 0xffff),
        Instructions((Hash >> 32) & 0xffff), Neighbours(Hash >> 48) {}
};
} // namespace

/// \returns the parts of \p Hash that stay the same from one compilation of
/// a block to the next: all but the instruction hash, which LLVM 22
/// computes per process for a block with a call (the file comment of the
/// header says why).
static uint64_t getStableHash(uint64_t Hash) {
  return Hash & ~(uint64_t(0xffff) << 32);
}

/// \returns the parts of \p Hash that do not depend on where the block is:
/// its opcodes and its neighbours' (an added block moves all later ones).
static uint32_t getPlaceFreeHash(uint64_t Hash) {
  BlockHashParts Parts(Hash);
  return uint32_t(Parts.Neighbours) << 16 | Parts.Opcodes;
}

/// Profiled block index -> the build block it is paired with.
using BlockPairs = std::vector<std::optional<uint32_t>>;

/// How unlike two blocks of the same opcode hash are, ranked as LLVM's
/// BlendedBlockHash::distance ranks them: a different neighbourhood weighs
/// more than different operands, which weigh more than any difference of
/// offsets.
static uint64_t getHashDistance(BlockHashParts A, BlockHashParts B) {
  uint64_t Distance = A.Neighbours != B.Neighbours;
  Distance = (Distance << 16) | uint64_t(A.Instructions != B.Instructions);
  uint16_t OffsetDifference =
      A.Offset > B.Offset ? A.Offset - B.Offset : B.Offset - A.Offset;
  return (Distance << 16) | OffsetDifference;
}

/// \returns \p Counts over all scenarios, each weighted by its scenario.
static uint64_t getTotalCount(const BlockProfile &Profile,
                              const ScenarioCounts &Counts) {
  return addCounts(
      getWeightedCount(Profile, Counts, ScenarioKind::Startup),
      getWeightedCount(Profile, Counts, ScenarioKind::SteadyState));
}

static bool hasHashes(const BlockFunction &F) {
  return any_of(F.Blocks, [](const ProfiledBlock &B) { return B.Hash != 0; });
}

/// \returns whether \p Build has exactly the blocks of \p Profiled (same
/// IDs, entry first, the same sizes and, with hashes, the same stable
/// hashes), pairing them in \p Pairs.
static bool pairExactly(const BlockFunction &Profiled,
                        const BlockFunction &Build, bool UseHashes,
                        BlockPairs &Pairs) {
  if (Profiled.Blocks.size() != Build.Blocks.size() || Build.Blocks.empty() ||
      Profiled.Blocks.front().ID != Build.Blocks.front().ID)
    return false;
  DenseMap<uint32_t, uint32_t> BuildIndex;
  for (auto [Index, B] : enumerate(Build.Blocks))
    BuildIndex.try_emplace(B.ID, Index);
  BlockPairs Exact(Profiled.Blocks.size());
  for (auto [Index, P] : enumerate(Profiled.Blocks)) {
    auto It = BuildIndex.find(P.ID);
    if (It == BuildIndex.end())
      return false;
    const ProfiledBlock &B = Build.Blocks[It->second];
    if (B.Size != P.Size || B.IsEHPad != P.IsEHPad)
      return false;
    if (UseHashes && getStableHash(B.Hash) != getStableHash(P.Hash))
      return false;
    Exact[Index] = It->second;
  }
  Pairs = std::move(Exact);
  return true;
}

/// Pairs the blocks of \p Profiled with those of \p Build by their hashes
/// (the file comment gives the rules). \p BlockCounts are the profiled
/// blocks' total counts: heavier blocks choose first.
static BlockPairs pairByHash(const BlockFunction &Profiled,
                             const BlockFunction &Build,
                             ArrayRef<uint64_t> BlockCounts) {
  BlockPairs Pairs(Profiled.Blocks.size());
  std::vector<bool> Taken(Build.Blocks.size());
  if (Profiled.Blocks.empty() || Build.Blocks.empty())
    return Pairs;
  // Calls enter at the entry, whatever the entry now holds.
  Pairs[0] = 0;
  Taken[0] = true;

  // Opcode and neighbour hashes that only one unpaired block of each
  // function has.
  DenseMap<uint32_t, unsigned> ProfiledUses;
  DenseMap<uint32_t, std::pair<uint32_t, unsigned>> BuildUses;
  for (size_t I = 1; I < Profiled.Blocks.size(); ++I)
    ++ProfiledUses[getPlaceFreeHash(Profiled.Blocks[I].Hash)];
  for (size_t I = 1; I < Build.Blocks.size(); ++I) {
    auto &Use = BuildUses[getPlaceFreeHash(Build.Blocks[I].Hash)];
    Use.first = I;
    ++Use.second;
  }
  for (size_t I = 1; I < Profiled.Blocks.size(); ++I) {
    uint32_t Hash = getPlaceFreeHash(Profiled.Blocks[I].Hash);
    auto It = BuildUses.find(Hash);
    if (ProfiledUses.lookup(Hash) != 1 || It == BuildUses.end() ||
        It->second.second != 1)
      continue;
    Pairs[I] = It->second.first;
    Taken[It->second.first] = true;
  }

  // The others: the nearest unpaired block of the same opcode hash.
  DenseMap<uint16_t, SmallVector<uint32_t, 2>> BuildByOpcodes;
  for (size_t I = 1; I < Build.Blocks.size(); ++I)
    if (!Taken[I])
      BuildByOpcodes[BlockHashParts(Build.Blocks[I].Hash).Opcodes].push_back(I);
  std::vector<uint32_t> Unpaired;
  for (size_t I = 1; I < Profiled.Blocks.size(); ++I)
    if (!Pairs[I])
      Unpaired.push_back(I);
  llvm::sort(Unpaired, [&](uint32_t A, uint32_t B) {
    return BlockCounts[A] != BlockCounts[B] ? BlockCounts[A] > BlockCounts[B]
                                            : A < B;
  });
  for (uint32_t I : Unpaired) {
    const ProfiledBlock &P = Profiled.Blocks[I];
    BlockHashParts Parts(P.Hash);
    auto It = BuildByOpcodes.find(Parts.Opcodes);
    if (It == BuildByOpcodes.end())
      continue;
    uint64_t Best = std::numeric_limits<uint64_t>::max();
    SmallVector<uint32_t, 2> Nearest;
    for (uint32_t Candidate : It->second) {
      if (Taken[Candidate])
        continue;
      uint64_t Distance =
          getHashDistance(Parts, BlockHashParts(Build.Blocks[Candidate].Hash));
      if (Distance < Best) {
        Best = Distance;
        Nearest.clear();
      }
      if (Distance == Best)
        Nearest.push_back(Candidate);
    }
    if (Nearest.empty())
      continue;
    std::optional<uint32_t> Chosen;
    if (Nearest.size() == 1) {
      Chosen = Nearest.front();
    } else {
      auto *SameID = find_if(Nearest, [&](uint32_t Candidate) {
        return Build.Blocks[Candidate].ID == P.ID;
      });
      if (SameID != Nearest.end())
        Chosen = *SameID;
    }
    if (!Chosen)
      continue;
    Pairs[I] = *Chosen;
    Taken[*Chosen] = true;
  }
  return Pairs;
}

/// Moves the counts, edges and calls of \p Profiled onto \p Out by
/// \p Pairs; \p CalleeInBuild maps the profile's function indices to the
/// build's.
static void carryOver(const BlockFunction &Profiled, const BlockPairs &Pairs,
                      ArrayRef<std::optional<uint32_t>> CalleeInBuild,
                      BlockFunction &Out) {
  for (auto [Index, P] : enumerate(Profiled.Blocks))
    if (Pairs[Index])
      Out.Blocks[*Pairs[Index]].Counts = P.Counts;
  for (const BlockEdge &E : Profiled.Edges) {
    if (!Pairs[E.From] || !Pairs[E.To])
      continue;
    Out.Edges.push_back({*Pairs[E.From], *Pairs[E.To], E.Counts});
  }
  for (const BlockCall &C : Profiled.Calls) {
    if (!Pairs[C.FromBlock] || !CalleeInBuild[C.Callee])
      continue;
    Out.Calls.push_back(
        {*Pairs[C.FromBlock], *CalleeInBuild[C.Callee], C.Counts});
  }
  // Pairs are one to one, so the carried edges and calls stay unique.
  llvm::sort(Out.Edges, [](const BlockEdge &A, const BlockEdge &B) {
    return std::make_pair(A.From, A.To) < std::make_pair(B.From, B.To);
  });
  llvm::sort(Out.Calls, [](const BlockCall &A, const BlockCall &B) {
    return std::make_pair(A.FromBlock, A.Callee) <
           std::make_pair(B.FromBlock, B.Callee);
  });
}

BlockProfileMatch matchBlockProfile(const BlockProfile &Profile,
                                    const BlockProfile &Build,
                                    const BlockProfileMatchConfig &Config) {
  BlockProfileMatch Result;
  Result.Profile.BuildID = Build.BuildID;
  Result.Profile.Scenarios = Profile.Scenarios;
  Result.Profile.Functions.reserve(Build.Functions.size());
  ScenarioCounts NoCounts(Profile.Scenarios.size(), 0);
  StringMap<uint32_t> BuildIndex;
  for (auto [Index, F] : enumerate(Build.Functions)) {
    BuildIndex.try_emplace(F.Name, Index);
    BlockFunction Out;
    Out.Name = F.Name;
    Out.Address = F.Address;
    Out.SharedName = F.SharedName;
    Out.Blocks = F.Blocks;
    for (ProfiledBlock &B : Out.Blocks)
      B.Counts = NoCounts;
    Result.Profile.Functions.push_back(std::move(Out));
  }
  std::vector<std::optional<uint32_t>> InBuild(Profile.Functions.size());
  for (auto [Index, F] : enumerate(Profile.Functions)) {
    auto It = BuildIndex.find(F.Name);
    if (It != BuildIndex.end())
      InBuild[Index] = It->second;
  }

  for (auto [Index, Profiled] : enumerate(Profile.Functions)) {
    FunctionMatch M;
    M.Profiled = Index;
    M.Build = InBuild[Index];
    M.Blocks = Profiled.Blocks.size();
    std::vector<uint64_t> BlockCounts;
    for (const ProfiledBlock &B : Profiled.Blocks) {
      BlockCounts.push_back(getTotalCount(Profile, B.Counts));
      M.Count = addCounts(M.Count, BlockCounts.back());
    }
    if (!M.Build) {
      M.Kind = FunctionMatchKind::Missing;
      ++Result.NumByKind[unsigned(M.Kind)];
      Result.Functions.push_back(M);
      continue;
    }
    const BlockFunction &Target = Build.Functions[*M.Build];
    bool UseHashes = hasHashes(Profiled) && hasHashes(Target);
    M.WithoutHashes = !UseHashes;
    BlockPairs Pairs(Profiled.Blocks.size());
    if (pairExactly(Profiled, Target, UseHashes, Pairs))
      M.Kind = FunctionMatchKind::Exact;
    else if (UseHashes)
      Pairs = pairByHash(Profiled, Target, BlockCounts);
    for (auto [Block, Pair] : enumerate(Pairs)) {
      if (!Pair)
        continue;
      ++M.PairedBlocks;
      M.PairedCount = addCounts(M.PairedCount, BlockCounts[Block]);
    }
    if (M.Kind != FunctionMatchKind::Exact) {
      // A function that never ran is judged by its blocks.
      double Share = M.Count    ? double(M.PairedCount) / double(M.Count)
                     : M.Blocks ? double(M.PairedBlocks) / double(M.Blocks)
                                : 0.0;
      M.Kind = UseHashes && Share >= Config.MinPairedShare
                   ? FunctionMatchKind::ByHash
                   : FunctionMatchKind::Stale;
      if (M.Kind == FunctionMatchKind::ByHash)
        Result.NumDroppedBlocks += M.Blocks - M.PairedBlocks;
    }
    if (M.Kind != FunctionMatchKind::Stale)
      carryOver(Profiled, Pairs, InBuild, Result.Profile.Functions[*M.Build]);
    ++Result.NumByKind[unsigned(M.Kind)];
    Result.Functions.push_back(M);
  }
  return Result;
}

} // namespace kiln::layout

//===- BlockLayout.cpp - Block clusters, their order ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The block planner: classify each block by the scenarios that ran it,
/// keep small parts and landing pads together, order each cluster with
/// ext-TSP (Newell and Pupyrev, "Improved Basic Block Reordering", IEEE TC
/// 2020, as LLVM's CodeLayout implements it), and place all clusters with
/// the composite layout.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/BlockLayout.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Transforms/Utils/CodeLayout.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <optional>

using namespace llvm;
using namespace kiln::layout;

StringRef kiln::layout::getClusterKindName(ClusterKind Kind) {
  switch (Kind) {
  case ClusterKind::Startup:
    return "startup";
  case ClusterKind::Shared:
    return "shared";
  case ClusterKind::Steady:
    return "steady";
  case ClusterKind::Cold:
    return "cold";
  }
  llvm_unreachable("unknown ClusterKind");
}

std::string kiln::layout::getClusterSymbolName(StringRef FunctionName,
                                               const BlockCluster &Cluster) {
  if (Cluster.Number == UnlistedCluster)
    return (FunctionName + ".cold").str();
  if (Cluster.Number == 0)
    return FunctionName.str();
  return (FunctionName + ".__part." + Twine(Cluster.Number)).str();
}

StringRef kiln::layout::getSkipReasonText(SkipReason Reason) {
  switch (Reason) {
  case SkipReason::DuplicateName:
    return "another function of the profile has its name";
  case SkipReason::BadName:
    return "its name is empty or has blanks, which the basic-block-sections "
           "profile cannot carry";
  case SkipReason::NoBlocks:
    return "the profile lists none of its blocks";
  case SkipReason::DuplicateBlockID:
    return "two of its blocks have the same ID";
  case SkipReason::ClusterNameTaken:
    return "another function has the name of one of its clusters";
  }
  llvm_unreachable("unknown SkipReason");
}

size_t BlockLayout::getNumClusters(ClusterKind Kind) const {
  return count_if(Clusters,
                  [&](const BlockCluster &C) { return C.Kind == Kind; });
}

uint64_t BlockLayout::getClusterBytes(ClusterKind Kind) const {
  uint64_t Bytes = 0;
  for (const BlockCluster &C : Clusters)
    if (C.Kind == Kind)
      Bytes += C.Bytes;
  return Bytes;
}

// The weighted count of Counts over every scenario, saturating.
static uint64_t getTotalCount(const BlockProfile &Profile,
                              const ScenarioCounts &Counts) {
  return addCounts(
      getWeightedCount(Profile, Counts, ScenarioKind::Startup),
      getWeightedCount(Profile, Counts, ScenarioKind::SteadyState));
}

namespace {
/// Per block of one function and per scenario: whether the scenario ran
/// it, from its count, an edge into or out of it, or a call from it (a
/// sampled profile can miss a block's own count but see the branch).
class BlocksRun {
public:
  BlocksRun(const BlockProfile &Profile, const BlockFunction &F)
      : NumScenarios(Profile.Scenarios.size()),
        Ran(F.Blocks.size() * NumScenarios, false) {
    for (uint32_t B = 0; B < F.Blocks.size(); ++B)
      mark(B, F.Blocks[B].Counts);
    for (const BlockEdge &E : F.Edges) {
      mark(E.From, E.Counts);
      mark(E.To, E.Counts);
    }
    for (const BlockCall &C : F.Calls)
      mark(C.FromBlock, C.Counts);
  }

  bool ran(uint32_t Block, size_t Scenario) const {
    return Ran[Block * NumScenarios + Scenario];
  }

private:
  void mark(uint32_t Block, const ScenarioCounts &Counts) {
    for (size_t S = 0; S < std::min(NumScenarios, Counts.size()); ++S)
      if (Counts[S] > 0)
        Ran[Block * NumScenarios + S] = true;
  }

  size_t NumScenarios;
  std::vector<bool> Ran;
};

/// Builds the layout, one function at a time, then places the clusters.
class BlockPlanner {
public:
  BlockPlanner(const BlockProfile &Profile, const BlockLayoutConfig &Config)
      : Profile(Profile), Config(Config) {}
  BlockLayout run();

private:
  std::optional<SkipReason> checkFunction(uint32_t FI) const;
  void planFunction(uint32_t FI);
  bool isInsideUnseen(const BlockFunction &F, const BlocksRun &Run) const;
  std::vector<ClusterKind> classifyBlocks(const BlockFunction &F,
                                          const BlocksRun &Run) const;
  void keepSmallPartsTogether(const BlockFunction &F,
                              std::vector<ClusterKind> &Kinds);
  void keepLandingPadsTogether(const BlockFunction &F,
                               std::vector<ClusterKind> &Kinds);
  void keepFallThroughsIntoRunCode(const BlockFunction &F,
                                   ClusteredFunction &CF,
                                   std::vector<uint32_t> &ClusterOf);
  std::vector<uint32_t> orderCluster(const BlockFunction &F,
                                     ArrayRef<uint32_t> Members,
                                     ArrayRef<uint32_t> ClusterOf,
                                     uint32_t Cluster, bool IsEntry) const;
  void placeClusters();

  const BlockProfile &Profile;
  const BlockLayoutConfig &Config;
  /// How many functions of the profile have each name.
  StringMap<unsigned> FunctionNames;
  /// Per function of the profile, its entry cluster, if it has one.
  std::vector<std::optional<uint32_t>> EntryCluster;
  /// Per function of the profile that was clustered, per block, the index
  /// into Result.Clusters of the cluster holding it.
  std::vector<std::vector<uint32_t>> ClusterOfBlock;
  /// Per cluster, per scenario: whether the scenario ran one of its blocks.
  std::vector<std::vector<bool>> ClusterRan;
  BlockLayout Result;
};
} // namespace

std::optional<SkipReason> BlockPlanner::checkFunction(uint32_t FI) const {
  const BlockFunction &F = Profile.Functions[FI];
  if (F.Name.empty() || any_of(F.Name, [](char C) { return isSpace(C); }))
    return SkipReason::BadName;
  if (FunctionNames.lookup(F.Name) > 1)
    return SkipReason::DuplicateName;
  if (F.Blocks.empty())
    return SkipReason::NoBlocks;
  std::vector<uint32_t> IDs;
  for (const ProfiledBlock &B : F.Blocks)
    IDs.push_back(B.ID);
  llvm::sort(IDs);
  if (llvm::adjacent_find(IDs) != IDs.end())
    return SkipReason::DuplicateBlockID;
  // lld orders sections by symbol name: a part named as another function
  // would move that function, or be moved with it.
  for (StringRef Suffix : {".cold", ".__part.1"})
    if (FunctionNames.count((F.Name + Suffix).str()))
      return SkipReason::ClusterNameTaken;
  return std::nullopt;
}

std::vector<ClusterKind>
BlockPlanner::classifyBlocks(const BlockFunction &F,
                             const BlocksRun &Run) const {
  std::vector<ClusterKind> Kinds(F.Blocks.size(), ClusterKind::Cold);
  for (uint32_t B = 0; B < F.Blocks.size(); ++B) {
    bool AtStartup = false, InSteadyState = false;
    for (size_t S = 0; S < Profile.Scenarios.size(); ++S) {
      if (!Run.ran(B, S))
        continue;
      if (Profile.Scenarios[S].Kind == ScenarioKind::Startup)
        AtStartup = true;
      else
        InSteadyState = true;
    }
    Kinds[B] = AtStartup && InSteadyState ? ClusterKind::Shared
               : AtStartup                ? ClusterKind::Startup
               : InSteadyState            ? ClusterKind::Steady
                                          : ClusterKind::Cold;
  }
  return Kinds;
}

// Small parts. A part in a section of its own costs code: each branch into
// it and out of it can no longer be a short (2-byte on x86-64) branch or a
// fall-through, but becomes a 5- or 6-byte one the linker resolves, and
// its last block needs an explicit jump back. For a part below about 16
// bytes that is as many bytes as splitting would move out, so it is not
// split but stays with the part next to it in the order the runs see them
// (startup-only, shared, steady-only): a startup-only part with the shared
// one, a shared part with the startup-only one, a steady-only part with
// the shared one (else the startup-only one), each adding fewer bytes to
// the other kind's code than splitting would add in long branches; and a
// never-run part with the function's last executed part.
void BlockPlanner::keepSmallPartsTogether(const BlockFunction &F,
                                          std::vector<ClusterKind> &Kinds) {
  if (Config.MinSplitBytes == 0)
    return;
  std::array<std::optional<uint64_t>, NumClusterKinds> Bytes;
  for (uint32_t B = 0; B < Kinds.size(); ++B) {
    std::optional<uint64_t> &Of = Bytes[unsigned(Kinds[B])];
    Of = Of.value_or(0) + F.Blocks[B].Size;
  }
  auto Has = [&](ClusterKind K) { return Bytes[unsigned(K)].has_value(); };
  auto IsSmall = [&](ClusterKind K) {
    return Has(K) && *Bytes[unsigned(K)] < Config.MinSplitBytes;
  };
  auto Relabel = [&](ClusterKind From, ClusterKind To) {
    for (ClusterKind &K : Kinds)
      if (K == From)
        K = To;
    *Bytes[unsigned(To)] += *Bytes[unsigned(From)];
    Bytes[unsigned(From)].reset();
    ++Result.NumTinyPartsKept;
  };
  if (IsSmall(ClusterKind::Startup) && Has(ClusterKind::Shared))
    Relabel(ClusterKind::Startup, ClusterKind::Shared);
  if (IsSmall(ClusterKind::Shared) && Has(ClusterKind::Startup))
    Relabel(ClusterKind::Shared, ClusterKind::Startup);
  if (IsSmall(ClusterKind::Steady)) {
    if (Has(ClusterKind::Shared))
      Relabel(ClusterKind::Steady, ClusterKind::Shared);
    else if (Has(ClusterKind::Startup))
      Relabel(ClusterKind::Steady, ClusterKind::Startup);
  }
  if (IsSmall(ClusterKind::Cold))
    for (ClusterKind To :
         {ClusterKind::Steady, ClusterKind::Shared, ClusterKind::Startup})
      if (Has(To)) {
        Relabel(ClusterKind::Cold, To);
        break;
      }
}

// Landing pads. LLVM's basic-block sections put every landing pad of a
// function in one section: pads the profile spreads over several sections
// (the cold one included) are all moved to `fn.eh`, a section the profile
// does not name and the order does not place. So the planner keeps them
// together itself, in the most important cluster any of them is in: a pad
// that ran at startup stays with the startup code, and the pads that never
// ran (exceptions are rare) cost only their own few bytes there.
void BlockPlanner::keepLandingPadsTogether(const BlockFunction &F,
                                           std::vector<ClusterKind> &Kinds) {
  std::optional<ClusterKind> PadKind;
  bool Spread = false;
  // The entry block is never a landing pad; a profile that says it is is
  // not obeyed here (it stays the entry).
  for (uint32_t B = 1; B < F.Blocks.size(); ++B) {
    if (!F.Blocks[B].IsEHPad)
      continue;
    if (PadKind && *PadKind != Kinds[B])
      Spread = true;
    PadKind = PadKind ? std::min(*PadKind, Kinds[B]) : Kinds[B];
  }
  if (!Spread)
    return;
  for (uint32_t B = 1; B < F.Blocks.size(); ++B)
    if (F.Blocks[B].IsEHPad && Kinds[B] != *PadKind) {
      Kinds[B] = *PadKind;
      ++Result.NumEHPadsMoved;
    }
}

/// \returns the indices of \p F's blocks in address order (blocks of size
/// 0 at one address in the order of the profile).
static std::vector<uint32_t> getAddressOrder(const BlockFunction &F) {
  std::vector<uint32_t> ByAddress(F.Blocks.size());
  std::iota(ByAddress.begin(), ByAddress.end(), 0);
  llvm::sort(ByAddress, [&](uint32_t A, uint32_t B) {
    return std::make_pair(F.Blocks[A].Address, A) <
           std::make_pair(F.Blocks[B].Address, B);
  });
  return ByAddress;
}

// Never-run blocks that fall into code that ran. A block no scenario ran,
// from whose end control falls through into a block that ran, is the tail
// of an unlikely path rejoining the likely one. In the cold cluster it
// needs a jump back, one more instruction on every run that takes the path
// after all. Once ext-TSP has ordered the clusters, at most
// MaxFallThroughBytes of such blocks move from the cold cluster to right
// before the block they fall into, unless that block is the entry (nothing
// precedes it) or a landing pad. Where ext-TSP had put a block that ran
// right before it, falling into it, that block now jumps to it: the
// compiler's order, which had the tail fall through, made it jump too. The
// profile says only that the training never took the tail; a workload
// that does pays for ext-TSP's choice (Lua's float arithmetic after
// integer-only training, with callgrind's profile: 2.27 million jumps back
// from luaV_execute.cold, +0.81% Ir), while the compiler's choice costs no
// path more than stock PGO does.
// A cold cluster left smaller than MinSplitBytes is not worth its section
// (keepSmallPartsTogether): its blocks join the function's last executed
// cluster.
void BlockPlanner::keepFallThroughsIntoRunCode(
    const BlockFunction &F, ClusteredFunction &CF,
    std::vector<uint32_t> &ClusterOf) {
  const uint32_t ColdIndex = CF.Clusters.back();
  if (Config.MaxFallThroughBytes == 0 ||
      Result.Clusters[ColdIndex].Kind != ClusterKind::Cold)
    return;
  auto RanInto = [&](uint32_t From, uint32_t To) {
    auto It = llvm::lower_bound(F.Edges, std::make_pair(From, To),
                                [](const BlockEdge &E, auto Key) {
                                  return std::make_pair(E.From, E.To) < Key;
                                });
    return It != F.Edges.end() && It->From == From && It->To == To &&
           getTotalCount(Profile, It->Counts) > 0;
  };
  // Per block that ran, the never-run blocks (in address order) that fall
  // into it, up to the limit.
  std::vector<uint32_t> ByAddress = getAddressOrder(F);
  DenseMap<uint32_t, SmallVector<uint32_t, 2>> LeadingInto;
  for (size_t I = 1; I < ByAddress.size(); ++I) {
    const uint32_t Target = ByAddress[I];
    if (Target == 0 || ClusterOf[Target] == ColdIndex ||
        F.Blocks[Target].IsEHPad)
      continue;
    uint64_t Bytes = 0;
    SmallVector<uint32_t, 2> Chain;
    for (size_t J = I; J-- > 0;) {
      const uint32_t B = ByAddress[J];
      const ProfiledBlock &Block = F.Blocks[B];
      if (ClusterOf[B] != ColdIndex || !Block.FallsThrough || Block.IsEHPad ||
          Bytes + Block.Size > Config.MaxFallThroughBytes)
        break;
      Bytes += Block.Size;
      Chain.insert(Chain.begin(), B);
    }
    if (!Chain.empty())
      LeadingInto[Target] = std::move(Chain);
  }
  if (LeadingInto.empty())
    return;

  BlockCluster &Cold = Result.Clusters[ColdIndex];
  for (uint32_t Index : CF.Clusters) {
    BlockCluster &C = Result.Clusters[Index];
    if (Index == ColdIndex)
      continue;
    std::vector<uint32_t> Placed;
    Placed.reserve(C.Blocks.size());
    for (uint32_t B : C.Blocks) {
      auto It = LeadingInto.find(B);
      if (It != LeadingInto.end()) {
        if (!Placed.empty() && RanInto(Placed.back(), B))
          Result.NumFallThroughsOverRun += It->second.size();
        for (uint32_t Kept : It->second) {
          Placed.push_back(Kept);
          C.Bytes += F.Blocks[Kept].Size;
          Cold.Bytes -= F.Blocks[Kept].Size;
          ClusterOf[Kept] = Index;
        }
        Result.NumFallThroughsKept += It->second.size();
      }
      Placed.push_back(B);
    }
    C.Blocks = std::move(Placed);
  }
  llvm::erase_if(Cold.Blocks,
                 [&](uint32_t B) { return ClusterOf[B] != ColdIndex; });
  if (!Cold.Blocks.empty() && Cold.Bytes >= Config.MinSplitBytes)
    return;
  if (!Cold.Blocks.empty()) {
    // Into the last executed cluster in the order the runs see them:
    // steady-only, shared, startup-only.
    uint32_t Last = CF.Clusters.front();
    for (uint32_t Index : CF.Clusters)
      if (Index != ColdIndex &&
          Result.Clusters[Index].Kind > Result.Clusters[Last].Kind)
        Last = Index;
    BlockCluster &To = Result.Clusters[Last];
    for (uint32_t B : Cold.Blocks) {
      To.Blocks.push_back(B);
      To.Bytes += F.Blocks[B].Size;
      ClusterOf[B] = Last;
    }
    ++Result.NumTinyPartsKept;
  }
  assert(ColdIndex + 1 == Result.Clusters.size() &&
         "the cold cluster is the function's last");
  Result.Clusters.pop_back();
  ClusterRan.pop_back();
  CF.Clusters.pop_back();
}

constexpr uint32_t NoBlock = ~uint32_t(0);

/// \returns, per block of \p F that the compiler aligned, the block before
/// it by address (NoBlock for the others). A block is aligned when, in the
/// profiled binary, it starts on a 16-byte boundary after padding (a gap
/// smaller than 64 bytes after the block before it by address), or right
/// after the block before it and is the target of a backward edge (a loop's
/// top, which the compiler's block placement aligns, where it needed no
/// padding). A block that needed no padding and is no loop's top is not
/// recognised; that costs only the rule below.
static std::vector<uint32_t> findAlignedBlocks(const BlockFunction &F) {
  std::vector<uint32_t> ByAddress = getAddressOrder(F);
  std::vector<bool> LoopTop(F.Blocks.size(), false);
  for (const BlockEdge &E : F.Edges)
    if (F.Blocks[E.From].Address >= F.Blocks[E.To].Address)
      LoopTop[E.To] = true;
  std::vector<uint32_t> AlignedAfter(F.Blocks.size(), NoBlock);
  for (size_t I = 1; I < ByAddress.size(); ++I) {
    const ProfiledBlock &Prev = F.Blocks[ByAddress[I - 1]];
    const ProfiledBlock &B = F.Blocks[ByAddress[I]];
    uint64_t End = Prev.Address + Prev.Size;
    if (B.Address % 16 == 0 && End <= B.Address && B.Address - End < 64 &&
        (End < B.Address || LoopTop[ByAddress[I]]))
      AlignedAfter[ByAddress[I]] = ByAddress[I - 1];
  }
  return AlignedAfter;
}

std::vector<uint32_t> BlockPlanner::orderCluster(const BlockFunction &F,
                                                 ArrayRef<uint32_t> Members,
                                                 ArrayRef<uint32_t> ClusterOf,
                                                 uint32_t Cluster,
                                                 bool IsEntry) const {
  // The first block: the entry, or the one control most often enters the
  // cluster by (then the most executed, then the first by address).
  uint32_t First = Members.front();
  if (!IsEntry) {
    std::vector<uint64_t> FromOutside(F.Blocks.size(), 0);
    for (const BlockEdge &E : F.Edges)
      if (ClusterOf[E.From] != Cluster && ClusterOf[E.To] == Cluster)
        FromOutside[E.To] =
            addCounts(FromOutside[E.To], getTotalCount(Profile, E.Counts));
    auto Key = [&](uint32_t B) {
      return std::make_pair(FromOutside[B],
                            getTotalCount(Profile, F.Blocks[B].Counts));
    };
    for (uint32_t B : Members)
      if (Key(B) > Key(First))
        First = B;
  }

  // ext-TSP keeps its node 0 first.
  std::vector<uint32_t> Blocks;
  Blocks.reserve(Members.size());
  Blocks.push_back(First);
  for (uint32_t B : Members)
    if (B != First)
      Blocks.push_back(B);
  if (Blocks.size() == 1)
    return Blocks;
  std::vector<uint32_t> LocalOf(F.Blocks.size(), ~uint32_t(0));
  std::vector<uint64_t> Sizes, Counts;
  for (uint32_t I = 0; I < Blocks.size(); ++I) {
    const ProfiledBlock &B = F.Blocks[Blocks[I]];
    LocalOf[Blocks[I]] = I;
    // ext-TSP measures jump distances in bytes; an empty block (a label
    // only) still takes a place in the order.
    Sizes.push_back(std::max<uint64_t>(B.Size, 1));
    Counts.push_back(getTotalCount(Profile, B.Counts));
  }
  // A block the compiler aligned (a loop header, mostly) keeps its
  // alignment wherever the sections put it, and control that falls into it
  // runs the padding (nops) first: for ext-TSP such a fall-through is worth
  // no more than a short jump, so the edges into it count at the ratio of
  // the two in its model (0.1 : 1). Without this, ext-TSP's order of zstd's
  // hottest loop fell through into its aligned header: one more
  // instruction per iteration, +0.14% of the program's. A tenth still lets
  // a predecessor that the training sent there ten times as often as
  // elsewhere fall into it; then a workload that goes there more runs the
  // padding, where the compiler's order (which aligned the block after one
  // that jumps elsewhere or falls into it rarely) runs none: SQLite's
  // held-out joins ran it 268,218 times in sqlite3BtreeIndexMoveto's binary
  // search. So where ext-TSP's order makes a predecessor fall into an
  // aligned block more often than the compiler's block before it does, the
  // next order keeps the compiler's pair together (or, where that block is
  // in another cluster, makes the predecessor fall into its other
  // successor), and the order that adds the fewest instructions by the
  // profile's counts is kept.
  // A relink that does not align loops (Config.KeepsBlockAlignment false:
  // kiln-lld gives its code generation `-align-loops=1`) has no such
  // block, and ext-TSP may let a loop's latch fall into its top.
  std::vector<uint32_t> AlignedAfter =
      Config.KeepsBlockAlignment
          ? findAlignedBlocks(F)
          : std::vector<uint32_t>(F.Blocks.size(), NoBlock);
  std::vector<codelayout::EdgeCount> Edges;
  DenseMap<std::pair<uint32_t, uint32_t>, uint64_t> EdgeCounts;
  uint64_t AllEdges = 0;
  for (const BlockEdge &E : F.Edges) {
    if (E.From == E.To || ClusterOf[E.From] != Cluster ||
        ClusterOf[E.To] != Cluster)
      continue;
    if (uint64_t Count = getTotalCount(Profile, E.Counts)) {
      EdgeCounts[{LocalOf[E.From], LocalOf[E.To]}] = Count;
      AllEdges = addCounts(AllEdges, Count);
      if (AlignedAfter[E.To] != NoBlock)
        Count = std::max<uint64_t>(Count / 10, 1);
      Edges.push_back({LocalOf[E.From], LocalOf[E.To], Count});
    }
  }
  auto CountOf = [&](uint32_t From, uint32_t To) -> uint64_t {
    auto It = EdgeCounts.find({From, To});
    return It == EdgeCounts.end() ? 0 : It->second;
  };
  // An order in which ext-TSP separates a pair joined by this count scores
  // less than any that keeps them together.
  uint64_t KeepTogether = addCounts(AllEdges, 1);
  // The aligned blocks (never the first: nothing falls into it), with the
  // block the compiler aligned them after where it is in this cluster.
  struct AlignedBlock {
    uint32_t Local;
    uint32_t BeforeLocal; // NoBlock when in another cluster.
    bool KeepCompilersPair = false;
  };
  std::vector<AlignedBlock> AlignedBlocks;
  for (uint32_t I = 1; I < Blocks.size(); ++I)
    if (uint32_t Before = AlignedAfter[Blocks[I]]; Before != NoBlock)
      AlignedBlocks.push_back(
          {I, ClusterOf[Before] == Cluster ? LocalOf[Before] : NoBlock});

  // Pairs of blocks an order keeps together: the compiler's pairs of the
  // aligned blocks that have KeepCompilersPair, and the fall-throughs below.
  std::vector<std::pair<uint32_t, uint32_t>> KeptFallThroughs;
  std::vector<bool> KeptFrom(Blocks.size(), false),
      KeptInto(Blocks.size(), false);
  auto Layout = [&]() {
    std::vector<codelayout::EdgeCount> NodeEdges = Edges;
    auto Keep = [&](uint64_t From, uint64_t To) {
      auto It = llvm::find_if(NodeEdges, [&](const codelayout::EdgeCount &E) {
        return E.src == From && E.dst == To;
      });
      if (It != NodeEdges.end())
        It->count = addCounts(It->count, KeepTogether);
      else
        NodeEdges.push_back({From, To, KeepTogether});
    };
    for (const AlignedBlock &A : AlignedBlocks)
      if (A.KeepCompilersPair)
        Keep(A.BeforeLocal, A.Local);
    for (auto [From, To] : KeptFallThroughs)
      Keep(From, To);
    std::vector<uint64_t> Order =
        codelayout::computeExtTspLayout(Sizes, Counts, NodeEdges);
    assert(Order.size() == Sizes.size() && Order.front() == 0 &&
           "ext-TSP must keep every block and the first one first");
    return Order;
  };
  // The instructions an order adds to the blocks' own, as the relink emits
  // it: the padding run where a predecessor falls into an aligned block, a
  // jump where a block's one successor (or neither of its two) follows it.
  // (A block with more successors ends in an indirect jump.)
  std::vector<SmallVector<uint32_t, 2>> Successors(Blocks.size());
  for (const codelayout::EdgeCount &E : Edges)
    Successors[E.src].push_back(E.dst);
  std::vector<bool> IsAligned(Blocks.size(), false);
  for (const AlignedBlock &A : AlignedBlocks)
    IsAligned[A.Local] = true;
  auto AddedInstructions = [&](ArrayRef<uint64_t> Order) {
    uint64_t Added = 0;
    for (size_t P = 0; P < Order.size(); ++P) {
      ArrayRef<uint32_t> Succs = Successors[Order[P]];
      if (P + 1 < Order.size() && llvm::is_contained(Succs, Order[P + 1])) {
        if (IsAligned[Order[P + 1]])
          Added = addCounts(Added, CountOf(Order[P], Order[P + 1]));
        continue;
      }
      if (Succs.size() == 1)
        Added = addCounts(Added, CountOf(Order[P], Succs[0]));
      else if (Succs.size() == 2)
        Added = addCounts(Added, std::min(CountOf(Order[P], Succs[0]),
                                          CountOf(Order[P], Succs[1])));
    }
    return Added;
  };
  // Each round adds the pairs for the aligned blocks that the previous
  // order made a predecessor fall into more often than the compiler's
  // block before them does; the order that adds the fewest instructions
  // wins (the earliest of equals, so ext-TSP's own where no pair helps).
  constexpr unsigned Rounds = 3;
  std::vector<uint64_t> Order = Layout();
  uint64_t Added = AddedInstructions(Order);
  std::vector<uint64_t> Last = Order;
  for (unsigned Round = 1; Round < Rounds; ++Round) {
    std::vector<uint32_t> Position(Blocks.size());
    for (uint32_t P = 0; P < Last.size(); ++P)
      Position[Last[P]] = P;
    bool Changed = false;
    for (AlignedBlock &A : AlignedBlocks) {
      if (A.KeepCompilersPair || KeptInto[A.Local])
        continue;
      uint32_t Prev = Last[Position[A.Local] - 1];
      uint64_t CompilersCost =
          A.BeforeLocal == NoBlock ? 0 : CountOf(A.BeforeLocal, A.Local);
      if (Prev == A.BeforeLocal || CountOf(Prev, A.Local) <= CompilersCost)
        continue;
      if (A.BeforeLocal != NoBlock && !KeptFrom[A.BeforeLocal]) {
        A.KeepCompilersPair = true;
        KeptFrom[A.BeforeLocal] = KeptInto[A.Local] = true;
        Changed = true;
        continue;
      }
      // The compiler's block is in another cluster: the predecessor, if it
      // branches to one other block of the cluster, falls into that one.
      ArrayRef<uint32_t> Succs = Successors[Prev];
      if (Succs.size() != 2 || KeptFrom[Prev])
        continue;
      uint32_t Other = Succs[0] == A.Local ? Succs[1] : Succs[0];
      if (Other == 0 || IsAligned[Other] || KeptInto[Other])
        continue;
      KeptFallThroughs.push_back({Prev, Other});
      KeptFrom[Prev] = KeptInto[Other] = true;
      Changed = true;
    }
    if (!Changed)
      break;
    Last = Layout();
    if (uint64_t LastAdded = AddedInstructions(Last); LastAdded < Added) {
      Order = Last;
      Added = LastAdded;
    }
  }
  std::vector<uint32_t> Ordered;
  Ordered.reserve(Blocks.size());
  for (uint64_t Local : Order)
    Ordered.push_back(Blocks[Local]);
  return Ordered;
}

// A profile that saw a function's entry run but no control leave it, in a
// function with blocks besides its entry and its landing pads, did not see
// inside the function: an entry block that does not return has a successor
// that ran as often as it did, and one that returns reaches no other block
// but by an exception. llvm-bolt -instrument leaves such functions (the
// ones it cannot rewrite, with jump tables it cannot bound, such as Lua's
// luaV_execute and llex) with their entry's count and nothing else. Taken
// at its word, that profile puts the whole body among the never-run blocks
// (fn.cold), the interpreter's loop included. The rule can also catch a
// function whose entry returned and whose other blocks only an exception
// reaches (the code after a landing pad): that one is laid out whole too,
// which costs the split of its exception code and nothing else.
bool BlockPlanner::isInsideUnseen(const BlockFunction &F,
                                  const BlocksRun &Run) const {
  if (llvm::none_of(llvm::drop_begin(F.Blocks),
                    [](const ProfiledBlock &B) { return !B.IsEHPad; }))
    return false;
  auto Ran = [&](uint32_t B) {
    for (size_t S = 0; S < Profile.Scenarios.size(); ++S)
      if (Run.ran(B, S))
        return true;
    return false;
  };
  if (!Ran(0))
    return false;
  // Another block that ran (by its count, an edge or a call) shows the
  // profile saw inside; so does a loop on the entry block alone.
  for (uint32_t B = 1; B < F.Blocks.size(); ++B)
    if (Ran(B))
      return false;
  return llvm::none_of(F.Edges, [](const BlockEdge &E) {
    return E.From == 0 && E.To == 0 &&
           llvm::any_of(E.Counts, [](uint64_t C) { return C > 0; });
  });
}

void BlockPlanner::planFunction(uint32_t FI) {
  const BlockFunction &F = Profile.Functions[FI];
  BlocksRun Run(Profile, F);
  std::vector<ClusterKind> Kinds = classifyBlocks(F, Run);
  bool RanAtStartup = false, RanInSteadyState = false;
  for (ClusterKind K : Kinds) {
    RanAtStartup |= K == ClusterKind::Startup || K == ClusterKind::Shared;
    RanInSteadyState |= K == ClusterKind::Shared || K == ClusterKind::Steady;
  }
  if (!RanAtStartup && !RanInSteadyState) {
    ++Result.NumNotRun;
    return;
  }
  for (uint32_t B = 0; B < F.Blocks.size(); ++B)
    Result.RunBytes[unsigned(Kinds[B])] += F.Blocks[B].Size;
  // Every run of the function runs its entry, whatever the entry's own
  // count says (a sampled profile can miss it): it is shared if both kinds
  // of scenario ran the function.
  Kinds[0] = RanAtStartup && RanInSteadyState ? ClusterKind::Shared
             : RanAtStartup                   ? ClusterKind::Startup
                                              : ClusterKind::Steady;
  const bool Unseen = !F.SharedName && isInsideUnseen(F, Run);
  if (F.SharedName || Unseen) {
    // LLVM applies a sections profile's entry to every function of the
    // name, whose block IDs are another function's: this one stays whole
    // (a cluster of all its blocks, in the compiler's order), and the
    // ordering file places all functions of the name with it. A function
    // whose profile saw only its entry stays whole too: its other blocks
    // are not known to be never-run (isInsideUnseen).
    llvm::fill(Kinds, ClusterKind(Kinds[0]));
    ++(Unseen ? Result.NumInsideUnseen : Result.NumSharedNames);
  } else {
    keepSmallPartsTogether(F, Kinds);
    keepLandingPadsTogether(F, Kinds);
  }

  // The clusters: the entry's kind is `c` line 0, the other executed kinds
  // the next lines in kind order, the never-run blocks unlisted.
  ClusteredFunction CF;
  CF.Function = FI;
  CF.Whole = F.SharedName || Unseen;
  std::vector<uint32_t> ClusterOf(F.Blocks.size());
  const ClusterKind EntryKind = Kinds[0];
  SmallVector<ClusterKind, NumClusterKinds> ByNumber = {EntryKind};
  for (ClusterKind K : {ClusterKind::Startup, ClusterKind::Shared,
                        ClusterKind::Steady, ClusterKind::Cold})
    if (K != EntryKind)
      ByNumber.push_back(K);
  uint32_t NextNumber = 0;
  for (ClusterKind K : ByNumber) {
    BlockCluster C;
    C.Function = FI;
    C.Kind = K;
    for (uint32_t B = 0; B < F.Blocks.size(); ++B)
      if (Kinds[B] == K) {
        C.Blocks.push_back(B);
        C.Bytes += F.Blocks[B].Size;
      }
    if (C.Blocks.empty())
      continue;
    C.Number = K == ClusterKind::Cold ? UnlistedCluster : NextNumber++;
    const uint32_t Index = Result.Clusters.size();
    for (uint32_t B : C.Blocks)
      ClusterOf[B] = Index;
    std::vector<bool> Ran(Profile.Scenarios.size(), false);
    for (uint32_t B : C.Blocks)
      for (size_t S = 0; S < Ran.size(); ++S)
        if (Run.ran(B, S))
          Ran[S] = true;
    ClusterRan.push_back(std::move(Ran));
    CF.Clusters.push_back(Index);
    Result.Clusters.push_back(std::move(C));
  }
  // The never-run blocks keep the compiler's order: LLVM ignores any other.
  for (uint32_t Index : CF.Clusters) {
    BlockCluster &C = Result.Clusters[Index];
    if (C.Kind != ClusterKind::Cold && !CF.Whole)
      C.Blocks = orderCluster(F, C.Blocks, ClusterOf, Index, C.Number == 0);
  }
  if (!CF.Whole)
    keepFallThroughsIntoRunCode(F, CF, ClusterOf);
  EntryCluster[FI] = CF.Clusters.front();
  ClusterOfBlock[FI] = std::move(ClusterOf);
  Result.Functions.push_back(std::move(CF));
}

void BlockPlanner::placeClusters() {
  CallGraph G;
  for (const BlockScenario &S : Profile.Scenarios)
    G.addScenario(S.Name, S.Kind, S.Weight);
  G.reserveNodes(Result.Clusters.size());
  for (uint32_t I = 0; I < Result.Clusters.size(); ++I) {
    const BlockCluster &C = Result.Clusters[I];
    [[maybe_unused]] NodeId N = G.getOrAddNode(
        getClusterSymbolName(Profile.Functions[C.Function].Name, C), C.Bytes);
    assert(N == I && "cluster names are unique");
    // A cluster runs as often as its most executed block; one that ran by
    // its edges only (a sampled profile) counts once.
    for (size_t S = 0; S < Profile.Scenarios.size(); ++S) {
      uint64_t Max = 0;
      for (uint32_t B : C.Blocks)
        Max = std::max(Max, Profile.Functions[C.Function].Blocks[B].Counts[S]);
      if (Max == 0 && ClusterRan[I][S])
        Max = 1;
      if (Max)
        G.addCount(ScenarioId(S), I, Max);
    }
  }
  for (const ClusteredFunction &CF : Result.Functions) {
    const BlockFunction &F = Profile.Functions[CF.Function];
    ArrayRef<uint32_t> ClusterOf = ClusterOfBlock[CF.Function];
    auto AddEdge = [&](uint32_t From, uint32_t To,
                       const ScenarioCounts &Counts) {
      for (size_t S = 0; S < Counts.size(); ++S)
        if (Counts[S])
          G.addEdge(ScenarioId(S), From, To, Counts[S]);
    };
    for (const BlockEdge &E : F.Edges)
      if (ClusterOf[E.From] != ClusterOf[E.To])
        AddEdge(ClusterOf[E.From], ClusterOf[E.To], E.Counts);
    for (const BlockCall &Call : F.Calls)
      if (std::optional<uint32_t> Callee = EntryCluster[Call.Callee])
        AddEdge(ClusterOf[Call.FromBlock], *Callee, Call.Counts);
  }

  Result.Composite = computeCompositeLayout(G, Config.Composite);
  for (const PlacedNode &P : Result.Composite.Order) {
    Result.Clusters[P.Node].Group = P.Group;
    Result.Order.push_back(P.Node);
  }
}

BlockLayout BlockPlanner::run() {
  for (const BlockFunction &F : Profile.Functions)
    ++FunctionNames[F.Name];
  EntryCluster.resize(Profile.Functions.size());
  ClusterOfBlock.resize(Profile.Functions.size());
  for (uint32_t FI = 0; FI < Profile.Functions.size(); ++FI) {
    if (std::optional<SkipReason> Reason = checkFunction(FI)) {
      Result.Skipped.push_back({FI, *Reason});
      continue;
    }
    planFunction(FI);
  }
  placeClusters();
  return std::move(Result);
}

BlockLayout kiln::layout::planBlockLayout(const BlockProfile &Profile,
                                          const BlockLayoutConfig &Config) {
  return BlockPlanner(Profile, Config).run();
}

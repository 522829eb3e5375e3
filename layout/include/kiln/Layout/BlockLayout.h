//===- kiln/Layout/BlockLayout.h - Block clusters, their order --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Block-level layout of a profiled program, planned from a BlockProfile:
///
/// 1. Each function that ran is cut into at most four *clusters*: the
///    blocks only startup scenarios run, the blocks both startup and
///    steady-state scenarios run, the blocks only steady-state scenarios
///    run, and the blocks no scenario runs. The startup scenarios run the
///    first two, the steady state the middle two, and the composite order
///    below puts them in that order: each kind of run sees one contiguous
///    range. (Three kinds, with the shared blocks in the startup cluster,
///    spread the steady state's hot code over the startup clusters: on the
///    sample application 0.9% more I1 misses on the held-out workload and
///    0.3% more in the steady state, for one startup page fewer;
///    docs/benchmarks.md.) The entry block's cluster is the function's entry
///    cluster; an entry the profile never saw run (a sampled profile can
///    miss it) joins the function's first executed kind.
/// 2. Inside each executed cluster the blocks are ordered by ext-TSP (LLVM's
///    CodeLayout, Newell and Pupyrev) from the exact edge counts, weighted
///    over all scenarios, the cluster's first block fixed: the entry block,
///    or for another cluster the block most often entered from outside it.
///    A few bytes of never-run blocks that fall through into a block that
///    ran stay right before it, unless a block that ran falls into it there.
/// 3. The clusters of all functions are nodes of one call graph (a cluster's
///    count is the largest count of its blocks, calls go from the calling
///    block's cluster to the callee's entry cluster, control crossing from
///    one cluster of a function to another is an edge too) placed by Kiln's
///    composite layout: clusters startup runs first and together (the
///    shared ones, which the steady state runs too, closing that group: the
///    warm ones by C3, then the hot ones by cdsort), then the hot ones by
///    cdsort, the warm ones by C3, the never-run ones last or left to the
///    linker.
///
/// The clusters are what LLVM's basic-block sections make of a `v1`
/// profile (llvm/lib/CodeGen/BasicBlockSections.cpp): each `c` line is a
/// section, the one holding the entry block is named as the function, the
/// one of the N-th `c` line `fn.__part.N`, and every block the profile does
/// not list goes to `fn.cold`. Landing pads listed in more than one section
/// are all moved to a section of their own, `fn.eh`; the planner keeps a
/// function's landing pads in one cluster so that this never happens.
///
/// Plain data in and out: nothing here knows of LLVM IR, object files or
/// linkers.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_BLOCKLAYOUT_H
#define KILN_LAYOUT_BLOCKLAYOUT_H

#include "kiln/Layout/BlockProfile.h"
#include "kiln/Layout/CompositeLayout.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kiln::layout {

/// Which scenarios run the blocks of a cluster.
enum class ClusterKind : uint8_t {
  Startup, ///< Only startup scenarios run them.
  Shared,  ///< Startup and steady-state scenarios run them.
  Steady,  ///< Only steady-state scenarios run them.
  Cold,    ///< No scenario runs them: left out of the profile (`fn.cold`).
};
/// The number of ClusterKind values.
inline constexpr unsigned NumClusterKinds = 4;

/// \returns "startup", "shared", "steady" or "cold".
llvm::StringRef getClusterKindName(ClusterKind Kind);

/// The `c`-line number of a cluster the profile does not list.
inline constexpr uint32_t UnlistedCluster = ~uint32_t(0);

/// Blocks of one function that are laid out together, in one section.
struct BlockCluster {
  /// Index into BlockProfile::Functions.
  uint32_t Function = 0;
  ClusterKind Kind = ClusterKind::Cold;
  /// Its `c` line among the function's (0 for the entry cluster), or
  /// UnlistedCluster for the cold cluster.
  uint32_t Number = UnlistedCluster;
  /// Indices into the function's BlockFunction::Blocks, in layout order.
  std::vector<uint32_t> Blocks;
  /// Sum of the blocks' sizes.
  uint64_t Bytes = 0;
  /// The composite group that placed it.
  LayoutGroup Group = LayoutGroup::Cold;
};

/// \returns the symbol LLVM gives \p Cluster of the function named
/// \p FunctionName: the function's own name for the entry cluster,
/// `<name>.__part.<N>` for another listed one, `<name>.cold` for the
/// unlisted blocks.
std::string getClusterSymbolName(llvm::StringRef FunctionName,
                                 const BlockCluster &Cluster);

/// A function of the profile the planner cut into clusters.
struct ClusteredFunction {
  /// Index into BlockProfile::Functions.
  uint32_t Function = 0;
  /// Indices into BlockLayout::Clusters: the listed clusters by Number (the
  /// entry cluster first), then the cold one if any.
  llvm::SmallVector<uint32_t, 4> Clusters;
  /// Its name is shared (BlockFunction::SharedName), or its profile saw
  /// only its entry run: one cluster of all its blocks in the compiler's
  /// order, left out of the basic-block-sections profile and placed by
  /// name (with every function of that name).
  bool Whole = false;
};

/// Why a function of the profile was left out of the layout.
enum class SkipReason : uint8_t {
  DuplicateName,    ///< Another function has its name.
  BadName,          ///< Empty, or has blanks the profile format cannot carry.
  NoBlocks,         ///< The profile lists no block of it.
  DuplicateBlockID, ///< Two of its blocks have the same ID.
  /// Another function has the name one of its clusters would get, which
  /// the ordering file could not tell apart.
  ClusterNameTaken,
};

/// \returns a lower-case sentence fragment saying why.
llvm::StringRef getSkipReasonText(SkipReason Reason);

/// A function left out, and why.
struct SkippedFunction {
  uint32_t Function = 0; ///< Index into BlockProfile::Functions.
  SkipReason Reason = SkipReason::DuplicateName;
};

/// Tunables of the block planner.
struct BlockLayoutConfig {
  /// A part of a function smaller than this many bytes is not split off
  /// when the function has an executed part it can stay with (see
  /// BlockLayout.cpp for which, and why). 0 splits every part.
  uint64_t MinSplitBytes = 16;
  /// Never-run blocks that fall through into a block that ran, at most
  /// this many bytes of them before it, move from the cold cluster to right
  /// before that block, keeping the compiler's fall-through (see
  /// BlockLayout.cpp). 0 leaves every never-run block in the cold cluster.
  uint64_t MaxFallThroughBytes = 16;
  /// Whether the code generation that applies the layout aligns blocks as
  /// the profiled binary's did (its loop tops, found by their addresses):
  /// then control that falls into such a block runs its padding first, and
  /// the planner counts that. False for a relink given `-align-loops=1`
  /// (kiln-lld's --kiln-block-profile): no block is aligned, and a loop's
  /// latch can fall into its top (see BlockLayout.cpp).
  bool KeepsBlockAlignment = true;
  /// Places the clusters. Its PlaceColdNodes also lists the never-run
  /// clusters last in BlockLayout::Order.
  CompositeLayoutConfig Composite;
};

/// The planned block layout of a profile.
struct BlockLayout {
  std::vector<BlockCluster> Clusters;
  /// The functions cut into clusters, in profile (address) order.
  std::vector<ClusteredFunction> Functions;
  /// Indices into Clusters, in link order: startup, hot and warm clusters,
  /// then the cold ones if Config.Composite.PlaceColdNodes.
  std::vector<uint32_t> Order;
  /// The composite layout of the clusters (node N is cluster N): its
  /// groups' sizes, pages and methods.
  CompositeLayout Composite;
  /// Functions no scenario ran: not listed, left to the linker.
  uint32_t NumNotRun = 0;
  std::vector<SkippedFunction> Skipped;
  /// Parts kept with another cluster because they were smaller than
  /// MinSplitBytes.
  uint32_t NumTinyPartsKept = 0;
  /// Functions laid out whole because other functions have their name.
  uint32_t NumSharedNames = 0;
  /// Functions laid out whole because their profile saw only their entry
  /// run (a profiler that could not see inside them; see BlockLayout.cpp).
  uint32_t NumInsideUnseen = 0;
  /// Landing pads moved to the cluster of the function's other pads.
  uint32_t NumEHPadsMoved = 0;
  /// Never-run blocks moved right before the executed block they fall
  /// through into, and how many of those took the place of a block that
  /// ran into it in ext-TSP's order (which now jumps to it, as it did in
  /// the compiler's order).
  uint32_t NumFallThroughsKept = 0;
  uint32_t NumFallThroughsOverRun = 0;
  /// Per ClusterKind, the bytes of the clustered functions' blocks of that
  /// kind as the profile says they ran, before small parts and landing pads
  /// are moved (getStartupRunBytes is what the block-granularity startup
  /// bound counts).
  std::array<uint64_t, NumClusterKinds> RunBytes = {};

  /// \returns the bytes of the blocks startup ran: the startup-only and
  /// the shared ones.
  uint64_t getStartupRunBytes() const {
    return RunBytes[unsigned(ClusterKind::Startup)] +
           RunBytes[unsigned(ClusterKind::Shared)];
  }

  /// \returns the number of clusters of \p Kind.
  size_t getNumClusters(ClusterKind Kind) const;
  /// \returns the bytes of the clusters of \p Kind.
  uint64_t getClusterBytes(ClusterKind Kind) const;
};

/// Plans the block layout of \p Profile, which must pass
/// verifyBlockProfile except for the cases SkipReason lists (those
/// functions are skipped). Deterministic: the same profile and config give
/// the same layout.
BlockLayout planBlockLayout(const BlockProfile &Profile,
                            const BlockLayoutConfig &Config = {});

} // namespace kiln::layout

#endif // KILN_LAYOUT_BLOCKLAYOUT_H

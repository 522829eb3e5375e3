//===- PettisHansen.cpp - Pettis-Hansen function order --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Procedure positioning after Pettis and Hansen, PLDI 1990, built to scale:
///
/// * chain-to-chain edges live in one pool, found through one hash map keyed
///   by the two chains; each chain lists its neighbours (possibly stale
///   ones, skipped when met). A merge moves the shorter neighbour list into
///   the longer one, so an edge changes hands O(log N) times;
/// * the heaviest edge comes from the original edges sorted once, merged
///   with a heap of the edges that combining made heavier; entries are
///   checked lazily: an entry names the heaviest original call of its chain
///   edge, which is enough to find the edge again and to tell whether it is
///   stale;
/// * a chain never stores its order. Each member keeps a byte position and a
///   rank in the chain's own coordinate frame, and the chain a "reversed"
///   flag: reversing is O(1), and a merge relocates the members of the
///   shorter chain into the frame of the longer one.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/PettisHansen.h"
#include "kiln/Layout/CompositeLayout.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <numeric>
#include <queue>
#include <tuple>

using namespace llvm;
using namespace kiln::layout;

namespace {
/// The edge between two chains: the summed weight of all calls between them
/// and the heaviest single (undirected) call, which orients their merge.
struct ChainEdge {
  uint64_t Weight = 0;
  uint64_t BestWeight = 0;
  NodeId BestU = 0; ///< Smaller endpoint of the heaviest call.
  NodeId BestV = 0; ///< Larger endpoint of the heaviest call.
};

/// A chain's coordinate frame, its member list and its totals.
struct ChainFrame {
  /// Members, unordered, threaded through NextMember.
  NodeId Head = 0;
  NodeId Tail = 0;
  uint32_t NumNodes = 1;
  /// Physical byte range [Lo, Hi) and rank range [LoSlot, HiSlot).
  int64_t Lo = 0;
  int64_t Hi = 0;
  int64_t LoSlot = 0;
  int64_t HiSlot = 1;
  /// Whether the chain's order runs from Hi down to Lo.
  bool Reversed = false;
  /// Sum of member weights and of member sizes (each at least one byte).
  uint64_t Weight = 0;
  uint64_t DensitySize = 0;
  /// The smallest member, which identifies the chain in ties.
  NodeId MinNode = 0;
};

/// A priority-queue entry: the heaviest chain edge first, then the one whose
/// heaviest call has the smallest endpoints.
struct QueueEntry {
  uint64_t Weight = 0;
  NodeId U = 0;
  NodeId V = 0;
  bool operator<(const QueueEntry &O) const {
    if (Weight != O.Weight)
      return Weight < O.Weight;
    return std::tie(O.U, O.V) < std::tie(U, V);
  }
};

class PettisHansenImpl {
public:
  PettisHansenImpl(ArrayRef<uint64_t> Sizes, ArrayRef<uint64_t> Counts,
                   ArrayRef<Edge> Edges, const PettisHansenConfig &Config);
  std::vector<NodeId> run();

private:
  NodeId find(NodeId N);
  int64_t size(NodeId N) const { return int64_t(Sizes[N]); }
  /// Byte offset of \p N from the start of its chain \p F, in chain order.
  int64_t offset(const ChainFrame &F, NodeId N) const {
    return F.Reversed ? F.Hi - Pos[N] - size(N) : Pos[N] - F.Lo;
  }
  /// Position of \p N in its chain \p F, in chain order.
  int64_t rank(const ChainFrame &F, NodeId N) const {
    return F.Reversed ? F.HiSlot - 1 - Slot[N] : Slot[N] - F.LoSlot;
  }
  void merge(NodeId A, NodeId B, NodeId U, NodeId V);
  void concatenate(ChainFrame &First, ChainFrame &Second, bool IntoFirst);
  /// Pops the best queue entry into \p E; false when both queues are empty.
  bool pop(QueueEntry &E);

  ArrayRef<uint64_t> Sizes;
  std::vector<NodeId> Parent;
  std::vector<NodeId> NextMember;
  std::vector<int64_t> Pos;
  std::vector<int64_t> Slot;
  /// Indexed by chain leader.
  std::vector<ChainFrame> Chains;
  /// Per chain leader: neighbouring chains, possibly stale or dead.
  std::vector<std::vector<NodeId>> Neighbors;
  std::vector<ChainEdge> Pool;
  /// edgeKey(leader, leader) -> index into Pool.
  DenseMap<std::pair<NodeId, NodeId>, uint32_t> EdgeIndex;
  /// The original edges, best first, and the next one to pop.
  std::vector<QueueEntry> Initial;
  size_t NextInitial = 0;
  /// Entries of edges that became heavier by combining.
  std::priority_queue<QueueEntry> Combined;
};
} // namespace

// The key of the edge between two chains (their leaders, smaller first).
static std::pair<NodeId, NodeId> edgeKey(NodeId A, NodeId B) {
  return A < B ? std::make_pair(A, B) : std::make_pair(B, A);
}

PettisHansenImpl::PettisHansenImpl(ArrayRef<uint64_t> Sizes,
                                   ArrayRef<uint64_t> Counts,
                                   ArrayRef<Edge> Edges,
                                   const PettisHansenConfig &Config)
    : Sizes(Sizes) {
  const size_t NumNodes = Sizes.size();
  Parent.resize(NumNodes);
  std::iota(Parent.begin(), Parent.end(), NodeId(0));
  NextMember.assign(NumNodes, CallGraph::InvalidNode);
  Pos.assign(NumNodes, 0);
  Slot.assign(NumNodes, 0);
  Chains.resize(NumNodes);

  std::vector<uint64_t> InWeight(NumNodes, 0);
  std::vector<Edge> Undirected;
  Undirected.reserve(Edges.size());
  for (const Edge &E : Edges) {
    assert(E.Caller < NumNodes && E.Callee < NumNodes && "unknown node");
    if (E.Count == 0 || E.Caller == E.Callee)
      continue;
    InWeight[E.Callee] = SaturatingAdd(InWeight[E.Callee], E.Count);
    Undirected.push_back(Edge{std::min(E.Caller, E.Callee),
                              std::max(E.Caller, E.Callee), E.Count});
  }
  Undirected = normalizeEdges(Undirected);

  for (NodeId N = 0; N < NumNodes; ++N) {
    ChainFrame &F = Chains[N];
    F.Head = F.Tail = F.MinNode = N;
    F.Hi = size(N);
    F.Weight = std::max(Counts[N], InWeight[N]);
    F.DensitySize = std::max<uint64_t>(Sizes[N], 1);
  }
  Neighbors.resize(NumNodes);
  EdgeIndex.reserve(Undirected.size());
  for (const Edge &E : Undirected) {
    if (E.Count < Config.MinEdgeWeight)
      continue;
    EdgeIndex[{E.Caller, E.Callee}] = uint32_t(Pool.size());
    Pool.push_back(ChainEdge{E.Count, E.Count, E.Caller, E.Callee});
    Neighbors[E.Caller].push_back(E.Callee);
    Neighbors[E.Callee].push_back(E.Caller);
    Initial.push_back(QueueEntry{E.Count, E.Caller, E.Callee});
  }
  // Best first: sorting by the reverse of the heap's "less than".
  llvm::sort(Initial,
             [](const QueueEntry &L, const QueueEntry &R) { return R < L; });
}

bool PettisHansenImpl::pop(QueueEntry &E) {
  bool HasInitial = NextInitial < Initial.size();
  if (!HasInitial && Combined.empty())
    return false;
  if (HasInitial &&
      (Combined.empty() || !(Initial[NextInitial] < Combined.top()))) {
    E = Initial[NextInitial++];
    return true;
  }
  E = Combined.top();
  Combined.pop();
  return true;
}

NodeId PettisHansenImpl::find(NodeId N) {
  while (Parent[N] != N) {
    Parent[N] = Parent[Parent[N]];
    N = Parent[N];
  }
  return N;
}

// Lays Second out after First (both in their current orientation).
// The members of one of them move into the frame of the other: with
// IntoFirst, Second's members move and First holds the result,
// otherwise First's members move and Second holds it.
void PettisHansenImpl::concatenate(ChainFrame &First, ChainFrame &Second,
                                   bool IntoFirst) {
  const int64_t FirstBytes = First.Hi - First.Lo;
  const int64_t SecondBytes = Second.Hi - Second.Lo;
  const int64_t FirstNodes = First.HiSlot - First.LoSlot;
  const int64_t SecondNodes = Second.HiSlot - Second.LoSlot;
  ChainFrame &Into = IntoFirst ? First : Second;
  ChainFrame &From = IntoFirst ? Second : First;

  for (NodeId W = From.Head; W != CallGraph::InvalidNode; W = NextMember[W]) {
    int64_t Off = offset(From, W);
    int64_t Rank = rank(From, W);
    if (IntoFirst && !Into.Reversed) {
      // Append at the physical end.
      Pos[W] = Into.Hi + Off;
      Slot[W] = Into.HiSlot + Rank;
    } else if (IntoFirst) {
      // Append at the logical end, which is the physical start.
      Pos[W] = Into.Lo - Off - size(W);
      Slot[W] = Into.LoSlot - 1 - Rank;
    } else if (!Into.Reversed) {
      // Prepend at the physical start.
      Pos[W] = Into.Lo - FirstBytes + Off;
      Slot[W] = Into.LoSlot - FirstNodes + Rank;
    } else {
      // Prepend at the logical start, which is the physical end.
      Pos[W] = Into.Hi + FirstBytes - Off - size(W);
      Slot[W] = Into.HiSlot + FirstNodes - 1 - Rank;
    }
  }
  const int64_t MovedBytes = IntoFirst ? SecondBytes : FirstBytes;
  const int64_t MovedNodes = IntoFirst ? SecondNodes : FirstNodes;
  if (IntoFirst != Into.Reversed) {
    Into.Hi += MovedBytes;
    Into.HiSlot += MovedNodes;
  } else {
    Into.Lo -= MovedBytes;
    Into.LoSlot -= MovedNodes;
  }

  NextMember[Into.Tail] = From.Head;
  Into.Tail = From.Tail;
  Into.NumNodes += From.NumNodes;
  Into.Weight = SaturatingAdd(Into.Weight, From.Weight);
  Into.DensitySize = SaturatingAdd(Into.DensitySize, From.DensitySize);
  Into.MinNode = std::min(Into.MinNode, From.MinNode);
}

// Merges chain B after chain A, where U (in A) and V (in
// B) are the endpoints of the heaviest call between them.
void PettisHansenImpl::merge(NodeId A, NodeId B, NodeId U, NodeId V) {
  ChainFrame &FA = Chains[A];
  ChainFrame &FB = Chains[B];

  // Pick the orientation that brings U and V closest; on ties prefer fewer
  // reversals, A's orientation before B's.
  const int64_t BytesA = FA.Hi - FA.Lo;
  const int64_t BytesB = FB.Hi - FB.Lo;
  const int64_t OffU = offset(FA, U);
  const int64_t OffV = offset(FB, V);
  int64_t BestDist = 0;
  bool ReverseA = false, ReverseB = false;
  for (unsigned Option = 0; Option < 4; ++Option) {
    bool RevA = Option & 2, RevB = Option & 1;
    int64_t U0 = RevA ? BytesA - OffU - size(U) : OffU;
    int64_t V0 = RevB ? BytesB - OffV - size(V) : OffV;
    int64_t Dist = BytesA + V0 - (U0 + size(U));
    assert(Dist >= 0 && "overlapping functions");
    if (Option == 0 || Dist < BestDist) {
      BestDist = Dist;
      ReverseA = RevA;
      ReverseB = RevB;
    }
  }
  FA.Reversed ^= ReverseA;
  FB.Reversed ^= ReverseB;

  // Relocate the members of the shorter chain.
  bool IntoA = FA.NumNodes >= FB.NumNodes;
  concatenate(FA, FB, IntoA);

  // The chain with more neighbours survives, so that edges move from the
  // shorter neighbour list into the longer one.
  bool KeepA = Neighbors[A].size() >= Neighbors[B].size();
  NodeId Big = KeepA ? A : B;
  NodeId Small = KeepA ? B : A;
  if (KeepA != IntoA)
    Chains[Big] = Chains[Small];
  Parent[Small] = Big;

  EdgeIndex.erase(edgeKey(Big, Small));
  std::vector<NodeId> Moved = std::move(Neighbors[Small]);
  Neighbors[Small] = std::vector<NodeId>();
  // Combining is commutative, so the order of the list is irrelevant to the
  // result; entries whose edge is gone are stale.
  for (NodeId X : Moved) {
    auto It = EdgeIndex.find(edgeKey(Small, X));
    if (It == EdgeIndex.end())
      continue;
    uint32_t Idx = It->second;
    EdgeIndex.erase(It);
    auto [Jt, Inserted] = EdgeIndex.try_emplace(edgeKey(Big, X), Idx);
    if (Inserted) {
      Neighbors[Big].push_back(X);
      Neighbors[X].push_back(Big);
      continue;
    }
    ChainEdge &Into = Pool[Jt->second];
    const ChainEdge &From = Pool[Idx];
    Into.Weight = SaturatingAdd(Into.Weight, From.Weight);
    if (From.BestWeight > Into.BestWeight ||
        (From.BestWeight == Into.BestWeight &&
         std::tie(From.BestU, From.BestV) < std::tie(Into.BestU, Into.BestV))) {
      Into.BestWeight = From.BestWeight;
      Into.BestU = From.BestU;
      Into.BestV = From.BestV;
    }
    Combined.push(QueueEntry{Into.Weight, Into.BestU, Into.BestV});
  }
}

std::vector<NodeId> PettisHansenImpl::run() {
  QueueEntry E;
  while (pop(E)) {
    NodeId A = find(E.U);
    NodeId B = find(E.V);
    if (A == B)
      continue;
    auto It = EdgeIndex.find(edgeKey(A, B));
    if (It == EdgeIndex.end())
      continue;
    // Weights only grow, so an entry matching the edge is its latest one.
    const ChainEdge &CE = Pool[It->second];
    if (CE.Weight != E.Weight || CE.BestU != E.U || CE.BestV != E.V)
      continue;
    merge(A, B, E.U, E.V);
  }

  std::vector<NodeId> Leaders;
  for (NodeId N = 0; N < Parent.size(); ++N)
    if (Parent[N] == N)
      Leaders.push_back(N);
  llvm::sort(Leaders, [&](NodeId L, NodeId R) {
    const ChainFrame &FL = Chains[L];
    const ChainFrame &FR = Chains[R];
    double DL = double(FL.Weight) / double(FL.DensitySize);
    double DR = double(FR.Weight) / double(FR.DensitySize);
    if (DL != DR)
      return DL > DR;
    return FL.MinNode < FR.MinNode;
  });

  std::vector<NodeId> Order(Parent.size(), CallGraph::InvalidNode);
  size_t Base = 0;
  for (NodeId L : Leaders) {
    const ChainFrame &F = Chains[L];
    for (NodeId W = F.Head; W != CallGraph::InvalidNode; W = NextMember[W])
      Order[Base + size_t(rank(F, W))] = W;
    Base += F.NumNodes;
  }
  assert(Base == Order.size() &&
         llvm::none_of(Order,
                       [](NodeId N) { return N == CallGraph::InvalidNode; }) &&
         "Pettis-Hansen lost or duplicated a node");
  return Order;
}

std::vector<NodeId> kiln::layout::computePettisHansenOrder(
    ArrayRef<uint64_t> Sizes, ArrayRef<uint64_t> Counts, ArrayRef<Edge> Edges,
    const PettisHansenConfig &Config) {
  assert(Sizes.size() == Counts.size() && "one count per node expected");
  assert(Sizes.size() < CallGraph::InvalidNode - 1 && "too many nodes");
  return PettisHansenImpl(Sizes, Counts, Edges, Config).run();
}

std::vector<NodeId>
kiln::layout::orderSubgraphByPettisHansen(const Subgraph &S,
                                          const CompositeLayoutConfig &Config) {
  return computePettisHansenOrder(S.Sizes, S.Counts, S.getEdges(),
                                  Config.PettisHansen);
}

//===- CompositeLayoutTest.cpp - Tests of Kiln's composite layout ---------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CompositeLayout.h"

#include "LayoutTestUtils.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace kiln::layout;
using testing::ElementsAre;
using testing::ElementsAreArray;
using testing::IsEmpty;

namespace {

PlacedNode startup(NodeId N) { return PlacedNode{N, LayoutGroup::Startup}; }
PlacedNode hot(NodeId N) { return PlacedNode{N, LayoutGroup::Hot}; }
PlacedNode warm(NodeId N) { return PlacedNode{N, LayoutGroup::Warm}; }
PlacedNode cold(NodeId N) { return PlacedNode{N, LayoutGroup::Cold}; }

/// A small program:
///   0 main, 1 init: startup, run in that order (one trace);
///   6 cfg: startup by count only (no trace names it);
///   2 loop, 3 work: hot (1000 and 900 steady runs, 2 calls 3);
///   4 log: warm (10 runs); 7 rare: warm, named only by a steady trace;
///   5 unused: never executed.
/// main also runs in steady state (once, so warm there): it stays in the
/// startup group, which it closes, next to the steady state's code.
struct SmallProgram {
  CallGraph G;
  NodeId Main, Init, Loop, Work, Log, Unused, Cfg, Rare;

  explicit SmallProgram(unsigned NumStartupTraces = 1,
                        bool ReverseEdges = false) {
    Main = G.getOrAddNode("main", 100);
    Init = G.getOrAddNode("init", 100);
    Loop = G.getOrAddNode("loop", 200);
    Work = G.getOrAddNode("work", 100);
    Log = G.getOrAddNode("log", 50);
    Unused = G.getOrAddNode("unused", 300);
    Cfg = G.getOrAddNode("cfg", 100);
    Rare = G.getOrAddNode("rare", 64);
    ScenarioId S = G.addScenario("launch", ScenarioKind::Startup);
    for (unsigned I = 0; I < NumStartupTraces; ++I)
      G.addTrace(S, Trace{{Main, Init}, 1});
    G.addCount(S, Cfg, 5);
    ScenarioId W = G.addScenario("serve", ScenarioKind::SteadyState);
    G.addCount(W, Main, 1);
    G.addCount(W, Loop, 1000);
    G.addCount(W, Work, 900);
    G.addCount(W, Log, 10);
    if (ReverseEdges) {
      G.addEdge(W, Loop, Log, 10);
      G.addEdge(W, Loop, Work, 900);
    } else {
      G.addEdge(W, Loop, Work, 900);
      G.addEdge(W, Loop, Log, 10);
    }
    G.addTrace(W, Trace{{Rare}, 1});
  }
};

TEST(CompositeLayout, HotThreshold) {
  // Heats 1000, 900, 10, 1 total 1911; 99% is 1891 (rounded down), reached
  // once 900 is added.
  std::vector<uint64_t> Heat = {10, 1000, 1, 900, 0};
  EXPECT_EQ(computeHotThreshold(Heat, 990000), 900u);
  // 50% (955) is reached by 1000 alone; 100% needs every non-zero heat.
  EXPECT_EQ(computeHotThreshold(Heat, 500000), 1000u);
  EXPECT_EQ(computeHotThreshold(Heat, 1000000), 1u);
  EXPECT_EQ(computeHotThreshold({}, 990000), 0u);
  EXPECT_EQ(computeHotThreshold({0, 0}, 990000), 0u);
  // No overflow on huge counts.
  std::vector<uint64_t> Huge = {UINT64_MAX, UINT64_MAX, 1};
  EXPECT_EQ(computeHotThreshold(Huge, 990000), UINT64_MAX);
}

TEST(CompositeLayout, GroupsInOrder) {
  // Startup: the single trace's order of the code only startup runs (init),
  // then cfg, which no trace names, then main, which the steady state runs
  // too. Hot (threshold 900): cdsort puts the caller loop before work. Warm:
  // log (density 10 / 50) before rare (never counted). Cold code is left to
  // the linker.
  SmallProgram P;
  CompositeLayout L = computeCompositeLayout(P.G);
  EXPECT_THAT(L.Order,
              ElementsAre(startup(P.Init), startup(P.Cfg), startup(P.Main),
                          hot(P.Loop), hot(P.Work), warm(P.Log), warm(P.Rare)));
  EXPECT_EQ(L.HotThreshold, 900u);
  EXPECT_THAT(L.getNodeOrder(), ElementsAre(P.Init, P.Cfg, P.Main, P.Loop,
                                            P.Work, P.Log, P.Rare));

  const GroupSummary &Startup = L.getGroup(LayoutGroup::Startup);
  EXPECT_THAT(Startup.Segments,
              ElementsAre(GroupSegment{OrderMethod::FirstExecution, 1},
                          GroupSegment{OrderMethod::C3, 1},
                          GroupSegment{OrderMethod::C3, 1}));
  EXPECT_EQ(Startup.Method, OrderMethod::FirstExecution);
  EXPECT_EQ(Startup.NumNodes, 3u);
  EXPECT_EQ(Startup.Bytes, 300u);
  EXPECT_EQ(Startup.Pages, 1u);
  EXPECT_THAT(L.getGroup(LayoutGroup::Hot).Segments,
              ElementsAre(GroupSegment{OrderMethod::CDSort, 2}));
  EXPECT_THAT(L.getGroup(LayoutGroup::Warm).Segments,
              ElementsAre(GroupSegment{OrderMethod::C3, 2}));
  EXPECT_EQ(L.getGroup(LayoutGroup::Warm).Bytes, 114u);
  // Cold is counted but not placed.
  const GroupSummary &Cold = L.getGroup(LayoutGroup::Cold);
  EXPECT_THAT(Cold.Segments, IsEmpty());
  EXPECT_EQ(Cold.Method, OrderMethod::None);
  EXPECT_EQ(Cold.NumNodes, 1u);
  EXPECT_EQ(Cold.Bytes, 300u);
  EXPECT_EQ(Cold.Pages, 0u);
}

TEST(CompositeLayout, ColdPlacedLast) {
  SmallProgram P;
  CompositeLayoutConfig Config;
  Config.PlaceColdNodes = true;
  CompositeLayout L = computeCompositeLayout(P.G, Config);
  ASSERT_EQ(L.Order.size(), 8u);
  EXPECT_EQ(L.Order.back(), cold(P.Unused));
  EXPECT_THAT(L.getGroup(LayoutGroup::Cold).Segments,
              ElementsAre(GroupSegment{OrderMethod::ById, 1}));
  // 714 bytes before it, 300 in it: still page 0.
  EXPECT_EQ(L.getGroup(LayoutGroup::Cold).Pages, 1u);
}

TEST(CompositeLayout, StartupMethods) {
  // Two traces: balanced partitioning. With two nodes the first split
  // already separates them in first-execution order and nothing moves.
  // Main, which the steady state runs (warm), is partitioned with the rest:
  // the traces are, so it keeps its place in them.
  SmallProgram Two(/*NumStartupTraces=*/2);
  CompositeLayout L = computeCompositeLayout(Two.G);
  EXPECT_THAT(L.getGroup(LayoutGroup::Startup).Segments,
              ElementsAre(GroupSegment{OrderMethod::Partitioning, 2},
                          GroupSegment{OrderMethod::C3, 1}));
  EXPECT_THAT(L.Order,
              ElementsAre(startup(Two.Main), startup(Two.Init),
                          startup(Two.Cfg), hot(Two.Loop), hot(Two.Work),
                          warm(Two.Log), warm(Two.Rare)));

  // No trace: C3 over the startup calls. a calls b 50 times, so both have
  // heat 50 and density 0.5, and b joins a's cluster, caller first; c (2
  // runs) follows.
  CallGraph G;
  NodeId C = G.getOrAddNode("c", 100);
  NodeId B = G.getOrAddNode("b", 100);
  NodeId A = G.getOrAddNode("a", 100);
  ScenarioId S = G.addScenario("launch", ScenarioKind::Startup);
  G.addCount(S, A, 1);
  G.addCount(S, C, 2);
  G.addEdge(S, A, B, 50);
  CompositeLayout NoTrace = computeCompositeLayout(G);
  EXPECT_THAT(NoTrace.Order, ElementsAre(startup(A), startup(B), startup(C)));
  EXPECT_THAT(NoTrace.getGroup(LayoutGroup::Startup).Segments,
              ElementsAre(GroupSegment{OrderMethod::C3, 3}));
  EXPECT_EQ(NoTrace.HotThreshold, 0u);
}

TEST(CompositeLayout, LargeStartupFallsBackToFirstExecution) {
  // Traces [0 1 2 3] and [1 0 3 2]; with partitioning limited to two
  // nodes, it orders the first executed (0 and 1, both at position 0),
  // within the traces cut down to [0 1] and [1 0]: nothing to balance, the
  // first split keeps 0 before 1. 2 and 3 (first run at position 2) follow
  // by first execution, ties by id.
  CallGraph G;
  for (const char *Name : {"a", "b", "c", "d"})
    G.getOrAddNode(Name, 100);
  ScenarioId S = G.addScenario("launch", ScenarioKind::Startup);
  G.addTrace(S, Trace{{0, 1, 2, 3}, 1});
  G.addTrace(S, Trace{{1, 0, 3, 2}, 1});
  CompositeLayoutConfig Config;
  Config.MaxPartitioningNodes = 2;
  CompositeLayout L = computeCompositeLayout(G, Config);
  EXPECT_THAT(L.Order,
              ElementsAre(startup(0), startup(1), startup(2), startup(3)));
  EXPECT_THAT(L.getGroup(LayoutGroup::Startup).Segments,
              ElementsAre(GroupSegment{OrderMethod::Partitioning, 2},
                          GroupSegment{OrderMethod::FirstExecution, 2}));
  // Without partitioning at all: first execution throughout.
  Config.MaxPartitioningNodes = 0;
  EXPECT_THAT(
      computeCompositeLayout(G, Config).getGroup(LayoutGroup::Startup).Segments,
      ElementsAre(GroupSegment{OrderMethod::FirstExecution, 4}));
}

TEST(CompositeLayout, HotCutoffMovesNodesToWarm) {
  // At 50% only loop is hot; work joins warm, where C3 puts it (density 9)
  // before log (0.2) and rare (0).
  SmallProgram P;
  CompositeLayoutConfig Config;
  Config.HotCutoff = 500000;
  CompositeLayout L = computeCompositeLayout(P.G, Config);
  EXPECT_EQ(L.HotThreshold, 1000u);
  EXPECT_THAT(L.Order, ElementsAre(startup(P.Init), startup(P.Cfg),
                                   startup(P.Main), hot(P.Loop), warm(P.Work),
                                   warm(P.Log), warm(P.Rare)));
}

TEST(CompositeLayout, LargeGroupsFallBackToC3) {
  // With cdsort limited to one node, the hottest hot node (loop, heat 1000)
  // is cdsort's, and work (900) follows, ordered by C3.
  SmallProgram P;
  CompositeLayoutConfig Config;
  Config.MaxCDSortNodes = 1;
  CompositeLayout L = computeCompositeLayout(P.G, Config);
  const GroupSummary &Hot = L.getGroup(LayoutGroup::Hot);
  EXPECT_THAT(Hot.Segments, ElementsAre(GroupSegment{OrderMethod::CDSort, 1},
                                        GroupSegment{OrderMethod::C3, 1}));
  EXPECT_EQ(L.Order[3], hot(P.Loop));
  EXPECT_EQ(L.Order[4], hot(P.Work));

  // With no cdsort at all, C3 orders the pair, appending work to its
  // caller's cluster.
  Config.MaxCDSortNodes = 0;
  L = computeCompositeLayout(P.G, Config);
  EXPECT_THAT(L.getGroup(LayoutGroup::Hot).Segments,
              ElementsAre(GroupSegment{OrderMethod::C3, 2}));
  EXPECT_EQ(L.Order[3], hot(P.Loop));
  EXPECT_EQ(L.Order[4], hot(P.Work));

  // Pettis-Hansen on request, never limited.
  Config.HotAlgorithm = OrderAlgorithm::PettisHansen;
  L = computeCompositeLayout(P.G, Config);
  EXPECT_EQ(L.getGroup(LayoutGroup::Hot).Method, OrderMethod::PettisHansen);
  EXPECT_EQ(L.Order[3], hot(P.Loop));
  EXPECT_EQ(L.Order[4], hot(P.Work));
}

TEST(CompositeLayout, PageSizeSizesClusters) {
  // hot (id 0) takes 99% of the heat; a (id 2) calls b (id 1); both are warm,
  // 3000 bytes, density 10 / 3000. With 4 KiB pages C3 may not build a
  // 6000-byte cluster, so they stay apart and tie, b first by id; with 16
  // KiB pages b joins its caller: a, b.
  CallGraph G;
  NodeId Hot = G.getOrAddNode("hot", 100);
  NodeId B = G.getOrAddNode("b", 3000);
  NodeId A = G.getOrAddNode("a", 3000);
  ScenarioId S = G.addScenario("serve", ScenarioKind::SteadyState);
  G.addCount(S, Hot, 1000000);
  G.addCount(S, A, 10);
  G.addEdge(S, A, B, 10);

  CompositeLayoutConfig Config;
  Config.PageSize = 4096;
  CompositeLayout Small = computeCompositeLayout(G, Config);
  EXPECT_THAT(Small.Order, ElementsAre(hot(Hot), warm(B), warm(A)));
  // Warm spans [100, 6100): pages 0 and 1.
  EXPECT_EQ(Small.getGroup(LayoutGroup::Warm).Pages, 2u);

  Config.PageSize = 16384;
  CompositeLayout Large = computeCompositeLayout(G, Config);
  EXPECT_THAT(Large.Order, ElementsAre(hot(Hot), warm(A), warm(B)));
  EXPECT_EQ(Large.getGroup(LayoutGroup::Warm).Pages, 1u);

  // Without fitting the models, lld's 1 MiB cluster limit applies.
  Config.PageSize = 4096;
  Config.FitModelsToPageSize = false;
  EXPECT_THAT(computeCompositeLayout(G, Config).Order,
              ElementsAre(hot(Hot), warm(A), warm(B)));
}

TEST(CompositeLayout, EmptyGraph) {
  CallGraph G;
  CompositeLayout L = computeCompositeLayout(G);
  EXPECT_THAT(L.Order, IsEmpty());
  for (const GroupSummary &S : L.Groups) {
    EXPECT_THAT(S.Segments, IsEmpty());
    EXPECT_EQ(S.NumNodes, 0u);
  }
  // Nodes but no profile: everything is cold.
  G.getOrAddNode("f", 10);
  EXPECT_THAT(computeCompositeLayout(G).Order, IsEmpty());
}

TEST(CompositeLayout, SameOrderForSameProfile) {
  // The same profile with its edges listed in another order, and a second
  // run, give the same layout.
  SmallProgram P, Q(/*NumStartupTraces=*/1, /*ReverseEdges=*/true);
  CompositeLayout L = computeCompositeLayout(P.G);
  EXPECT_THAT(computeCompositeLayout(Q.G).Order, ElementsAreArray(L.Order));
  EXPECT_THAT(computeCompositeLayout(P.G).Order, ElementsAreArray(L.Order));
}

/// A pseudo-random program of 300 functions: a startup scenario with three
/// traces and two steady-state scenarios, edges listed forwards or
/// backwards.
CallGraph makeRandomProgram(bool Backwards) {
  CallGraph G;
  uint64_t State = 7;
  auto Next = [&] {
    State = State * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(State >> 33);
  };
  for (unsigned I = 0; I < 300; ++I)
    G.getOrAddNode("f" + std::to_string(I), 16 + Next() % 2000);
  ScenarioId Start = G.addScenario("launch", ScenarioKind::Startup);
  for (unsigned T = 0; T < 3; ++T) {
    Trace Tr;
    for (NodeId N = 0; N < 60; ++N)
      if (Next() % 5 != 0)
        Tr.Nodes.push_back((N * 11 + T) % 300);
    Tr.Weight = T + 1;
    G.addTrace(Start, std::move(Tr));
  }
  std::vector<std::pair<ScenarioId, Edge>> Edges;
  ScenarioId A = G.addScenario("a", ScenarioKind::SteadyState, 1.0);
  ScenarioId B = G.addScenario("b", ScenarioKind::SteadyState, 2.0);
  for (unsigned I = 0; I < 900; ++I) {
    ScenarioId S = I % 3 ? A : B;
    NodeId From = Next() % 300, To = Next() % 300;
    Edges.push_back({S, Edge{From, To, 1 + Next() % 1000}});
  }
  if (Backwards)
    std::reverse(Edges.begin(), Edges.end());
  for (auto &[S, E] : Edges)
    G.addEdge(S, E.Caller, E.Callee, E.Count);
  return G;
}

TEST(CompositeLayout, IndependentOfEdgeInsertionOrder) {
  CallGraph Forwards = makeRandomProgram(/*Backwards=*/false);
  CallGraph Backwards = makeRandomProgram(/*Backwards=*/true);
  for (OrderAlgorithm Alg : {OrderAlgorithm::CDSort, OrderAlgorithm::C3,
                             OrderAlgorithm::PettisHansen}) {
    CompositeLayoutConfig Config;
    Config.HotAlgorithm = Alg;
    Config.WarmAlgorithm = Alg;
    Config.PlaceColdNodes = true;
    CompositeLayout L = computeCompositeLayout(Forwards, Config);
    EXPECT_EQ(L.Order.size(), Forwards.getNumNodes());
    EXPECT_THAT(computeCompositeLayout(Backwards, Config).Order,
                ElementsAreArray(L.Order));
  }
}

TEST(CompositeLayout, HotStartupCodeGoesWithTheHotCode) {
  // Startup runs main, init and parse; the steady state runs parse (hot) and
  // loop (hot). By default parse, the steady state's hot code, closes the
  // startup group, next to the hot group; on request it joins the hot group,
  // which follows the startup group.
  CallGraph G;
  NodeId Main = G.getOrAddNode("main", 100);
  NodeId Init = G.getOrAddNode("init", 100);
  NodeId Parse = G.getOrAddNode("parse", 100);
  NodeId Loop = G.getOrAddNode("loop", 100);
  ScenarioId S = G.addScenario("launch", ScenarioKind::Startup);
  G.addTrace(S, Trace{{Main, Parse, Init}, 1});
  ScenarioId W = G.addScenario("serve", ScenarioKind::SteadyState);
  G.addCount(W, Parse, 1000);
  G.addCount(W, Loop, 1000);
  G.addEdge(W, Loop, Parse, 1000);

  // By default startup code stays first and contiguous.
  EXPECT_THAT(
      computeCompositeLayout(G).Order,
      ElementsAre(startup(Main), startup(Init), startup(Parse), hot(Loop)));

  // Without HotStartupCodeLast, the traces alone order the startup group.
  CompositeLayoutConfig Config;
  Config.HotStartupCodeLast = false;
  EXPECT_THAT(
      computeCompositeLayout(G, Config).Order,
      ElementsAre(startup(Main), startup(Parse), startup(Init), hot(Loop)));

  Config.HotStartupCodeGoesHot = true;
  EXPECT_THAT(computeCompositeLayout(G, Config).Order,
              ElementsAre(startup(Main), startup(Init), hot(Loop), hot(Parse)));
}

TEST(CompositeLayout, SteadyStateCodeClosesTheStartupGroup) {
  // Startup runs main, init, parse and setup, in that order; the steady
  // state runs loop (hot), parse (hot, called by loop), setup (warm, once
  // per request) and main. The code the steady state runs closes the
  // startup group, its warm code (setup, main; C3 by the steady-state
  // profile: setup, run 10 times, before main) before its hot code (parse),
  // so that from setup to the hot group's loop the steady state runs
  // through one range; init, which only startup runs, keeps its trace
  // order in front. The group's members, and so its pages, stay the same.
  CallGraph G;
  NodeId Main = G.getOrAddNode("main", 100);
  NodeId Init = G.getOrAddNode("init", 100);
  NodeId Parse = G.getOrAddNode("parse", 100);
  NodeId Setup = G.getOrAddNode("setup", 100);
  NodeId Loop = G.getOrAddNode("loop", 100);
  ScenarioId S = G.addScenario("launch", ScenarioKind::Startup);
  G.addTrace(S, Trace{{Main, Init, Parse, Setup}, 1});
  ScenarioId W = G.addScenario("serve", ScenarioKind::SteadyState);
  G.addCount(W, Main, 1);
  G.addCount(W, Setup, 10);
  G.addCount(W, Parse, 1000);
  G.addCount(W, Loop, 1000);
  G.addEdge(W, Loop, Parse, 1000);

  CompositeLayout L = computeCompositeLayout(G);
  EXPECT_THAT(L.Order, ElementsAre(startup(Init), startup(Setup), startup(Main),
                                   startup(Parse), hot(Loop)));
  EXPECT_THAT(L.getGroup(LayoutGroup::Startup).Segments,
              ElementsAre(GroupSegment{OrderMethod::FirstExecution, 1},
                          GroupSegment{OrderMethod::C3, 2},
                          GroupSegment{OrderMethod::CDSort, 1}));

  // With two traces the startup code is partitioned by them, the warm code
  // included (each trace's pages are what partitioning minimizes); the hot
  // code still closes the group.
  G.addTrace(S, Trace{{Main, Init, Parse, Setup}, 1});
  CompositeLayout Partitioned = computeCompositeLayout(G);
  EXPECT_THAT(Partitioned.getGroup(LayoutGroup::Startup).Segments,
              ElementsAre(GroupSegment{OrderMethod::Partitioning, 3},
                          GroupSegment{OrderMethod::CDSort, 1}));
  EXPECT_EQ(Partitioned.Order[3], startup(Parse));

  // Without WarmStartupCodeLast the warm code keeps its trace order among
  // the startup-only code; only the hot code closes the group.
  CompositeLayoutConfig Config;
  Config.WarmStartupCodeLast = false;
  EXPECT_THAT(computeCompositeLayout(G, Config).Order,
              ElementsAre(startup(Main), startup(Init), startup(Setup),
                          startup(Parse), hot(Loop)));
  // Without HotStartupCodeLast the traces alone order the group.
  Config.HotStartupCodeLast = false;
  EXPECT_THAT(computeCompositeLayout(G, Config).Order,
              ElementsAre(startup(Main), startup(Init), startup(Parse),
                          startup(Setup), hot(Loop)));
}

} // namespace

//===- LayoutTestUtils.h - Printers for the layout unit tests ---*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// GoogleTest printers for the layout engine's value types (the system
/// GoogleTest has no raw_ostream hook, so without them a failing expectation
/// prints raw bytes).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H
#define KILN_TEST_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H

#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Layout/LayoutEvaluation.h"
#include "kiln/Layout/TracePartitioning.h"

#include "gmock/gmock.h"

#include <ostream>

namespace kiln::layout {

inline void PrintTo(LayoutGroup G, std::ostream *OS) {
  *OS << getLayoutGroupName(G).str();
}

inline void PrintTo(OrderMethod M, std::ostream *OS) {
  *OS << getOrderMethodName(M).str();
}

inline void PrintTo(const GroupSegment &S, std::ostream *OS) {
  *OS << "{" << getOrderMethodName(S.Method).str() << ", " << S.NumNodes << "}";
}

inline void PrintTo(const PlacedNode &P, std::ostream *OS) {
  *OS << "{" << P.Node << ", " << getLayoutGroupName(P.Group).str() << "}";
}

inline void PrintTo(const PageStats &S, std::ostream *OS) {
  *OS << "{PagesTouched=" << S.PagesTouched << ", LowerBound=" << S.LowerBound
      << ", ExecutedBytes=" << S.ExecutedBytes
      << ", UnplacedExecuted=" << S.UnplacedExecuted << "}";
}

inline void PrintTo(const CallLocality &L, std::ostream *OS) {
  *OS << "{TotalCount=" << L.TotalCount << ", UnplacedCount=" << L.UnplacedCount
      << ", Within={";
  for (size_t I = 0; I < L.Distances.size(); ++I)
    *OS << (I ? ", " : "") << L.Distances[I] << ": " << L.WithinCount[I];
  *OS << "}}";
}

inline void PrintTo(const TraceUtilityNodes &N, std::ostream *OS) {
  *OS << "{" << N.Node << ": [";
  for (size_t I = 0; I < N.Utilities.size(); ++I)
    *OS << (I ? ", " : "") << N.Utilities[I];
  *OS << "]}";
}

inline void PrintTo(const Edge &E, std::ostream *OS) {
  *OS << "{" << E.Caller << " -> " << E.Callee << ": " << E.Count << "}";
}

} // namespace kiln::layout

/// Matches an Edge with the given caller, callee and count.
MATCHER_P3(IsEdge, Caller, Callee, Count, "") {
  return arg.Caller == kiln::layout::NodeId(Caller) &&
         arg.Callee == kiln::layout::NodeId(Callee) &&
         arg.Count == uint64_t(Count);
}

#endif // KILN_TEST_UNITTESTS_LAYOUT_LAYOUTTESTUTILS_H

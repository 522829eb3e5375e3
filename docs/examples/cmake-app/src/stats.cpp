//===- stats.cpp - The steady state of cmake-app --------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The steady state: the reports over the workload's numbers.
//
//===----------------------------------------------------------------------===//

#include "stats.h"

#include <algorithm>

Summary summarize(const std::vector<double> &Values) {
  Summary S;
  if (Values.empty())
    return S;
  S.Min = S.Max = Values.front();
  double Sum = 0;
  for (double V : Values) {
    Sum += V;
    S.Min = std::min(S.Min, V);
    S.Max = std::max(S.Max, V);
  }
  S.Count = static_cast<long>(Values.size());
  S.Mean = Sum / S.Count;
  return S;
}

std::vector<long> histogram(const std::vector<double> &Values, int Buckets) {
  std::vector<long> Counts(Buckets, 0);
  Summary S = summarize(Values);
  double Width = (S.Max - S.Min) / Buckets;
  for (double V : Values) {
    int B = Width > 0 ? static_cast<int>((V - S.Min) / Width) : 0;
    ++Counts[std::min(B, Buckets - 1)];
  }
  return Counts;
}

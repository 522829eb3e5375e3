//===- stats.h - Statistics over the workload -------------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The steady state: statistics over the numbers of the workload.
//
//===----------------------------------------------------------------------===//

#ifndef CMAKE_APP_STATS_H
#define CMAKE_APP_STATS_H

#include <vector>

struct Summary {
  long Count = 0;
  double Mean = 0, Min = 0, Max = 0;
};

Summary summarize(const std::vector<double> &Values);
std::vector<long> histogram(const std::vector<double> &Values, int Buckets);

#endif // CMAKE_APP_STATS_H

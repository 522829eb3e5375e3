//===- main.cpp - cmake-app: version, summary or histogram ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cmake-app: prints its version, or a summary or a histogram of the numbers
// on standard input.
//
//===----------------------------------------------------------------------===//

#include "options.h"
#include "stats.h"

#include <cstdio>
#include <vector>

static std::vector<double> readNumbers() {
  std::vector<double> Values;
  double V;
  while (std::scanf("%lf", &V) == 1)
    Values.push_back(V);
  return Values;
}

int main(int Argc, char **Argv) {
  Options Opts;
  if (!parseOptions(Argc, Argv, Opts)) {
    std::fprintf(stderr,
                 "usage: cmake-app [--version|--summary|--histogram]\n");
    return 2;
  }
  if (Opts.What == Report::Version) {
    std::printf("%s 1.0\n", Opts.Title.c_str());
    return 0;
  }
  std::vector<double> Values = readNumbers();
  if (Opts.What == Report::Summary) {
    Summary S = summarize(Values);
    std::printf("count %ld mean %.2f min %.2f max %.2f\n", S.Count, S.Mean,
                S.Min, S.Max);
    return 0;
  }
  std::vector<long> Counts = histogram(Values, Opts.Buckets);
  for (size_t I = 0; I < Counts.size(); ++I)
    std::printf("bucket %zu: %ld\n", I, Counts[I]);
  return 0;
}

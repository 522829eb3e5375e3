//===- options.cpp - The startup path of cmake-app ------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The startup path: the defaults and the command line.
//
//===----------------------------------------------------------------------===//

#include "options.h"

#include <cstring>

static void loadDefaults(Options &Opts) {
  static const char *const Words[] = {"cmake-app", "statistics", "report"};
  Opts.Title.clear();
  for (const char *W : Words) {
    if (!Opts.Title.empty())
      Opts.Title += ' ';
    Opts.Title += W;
  }
  Opts.Buckets = 4;
}

bool parseOptions(int Argc, char **Argv, Options &Opts) {
  loadDefaults(Opts);
  for (int I = 1; I < Argc; ++I) {
    if (std::strcmp(Argv[I], "--version") == 0)
      Opts.What = Report::Version;
    else if (std::strcmp(Argv[I], "--summary") == 0)
      Opts.What = Report::Summary;
    else if (std::strcmp(Argv[I], "--histogram") == 0)
      Opts.What = Report::Histogram;
    else
      return false;
  }
  return true;
}

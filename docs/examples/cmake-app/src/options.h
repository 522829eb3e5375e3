//===- options.h - What cmake-app is asked to do ----------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the command line asks for, and the defaults the program starts with.
//
//===----------------------------------------------------------------------===//

#ifndef CMAKE_APP_OPTIONS_H
#define CMAKE_APP_OPTIONS_H

#include <string>

enum class Report { Version, Summary, Histogram };

struct Options {
  Report What = Report::Summary;
  int Buckets = 0;
  std::string Title;
};

// Reads the defaults and the command line; returns false on a bad argument.
bool parseOptions(int Argc, char **Argv, Options &Opts);

#endif // CMAKE_APP_OPTIONS_H

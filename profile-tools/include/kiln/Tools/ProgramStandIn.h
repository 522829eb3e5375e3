//===- ProgramStandIn.h - A program replaced for a replay ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A training run may start a program of the build from its own command (a
/// script that runs it, `sh -c 'for ...'`), which block layout cannot run
/// under its profiler directly. Its replay runs that command with a
/// stand-in at each path of the program: an executable that runs the
/// profiled binary under the profiler. Each original is renamed beside
/// itself (`<path>.kiln-original`) while the stand-in is there, and renamed
/// back once the replay is over; an optimize that was killed meanwhile
/// leaves the original there, and the next one puts it back first
/// (restoreLeftOriginals).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_PROGRAMSTANDIN_H
#define KILN_TOOLS_PROGRAMSTANDIN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kiln::pgo {

/// Where the original of \p Path waits while a stand-in takes its place.
std::string standInOriginal(llvm::StringRef Path);

/// The stand-ins of one replay; their originals go back by restore() or,
/// at the latest, by the destructor.
class ProgramStandIns {
public:
  ProgramStandIns() = default;
  ProgramStandIns(const ProgramStandIns &) = delete;
  ProgramStandIns &operator=(const ProgramStandIns &) = delete;
  ~ProgramStandIns();

  /// Puts a copy of the executable \p StandIn at each of \p Paths, with the
  /// original's permissions and modification time (a build tool that
  /// compares times sees the program it built). On failure, every path
  /// holds its original again.
  llvm::Error install(llvm::ArrayRef<std::string> Paths,
                      llvm::StringRef StandIn);
  /// Puts every original back.
  llvm::Error restore();

private:
  std::vector<std::string> Replaced;
};

/// Puts back the originals that an interrupted replay left beside \p Paths,
/// with a note on \p Out for each. \returns an error naming the first that
/// cannot be put back.
llvm::Error restoreLeftOriginals(llvm::ArrayRef<std::string> Paths,
                                 llvm::raw_ostream &Out);

/// \returns \p Arg quoted for the POSIX shell.
std::string shellQuote(llvm::StringRef Arg);

} // namespace kiln::pgo

#endif // KILN_TOOLS_PROGRAMSTANDIN_H

//===- kiln/Layout/PhaseTimes.h - Time and memory of phases ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where a run's seconds and memory go: wall, user and system time of named
/// phases, the page faults they took (memory touched for the first time,
/// which the kernel must zero: on some machines the largest cost of big
/// runs), and the process's peak resident memory when each phase ended
/// (`kiln order --time-phases`). Phases nest; the report lists them in
/// the order they started, inner phases indented.
///
/// Every entry point takes a `PhaseTimes *` that may be null: timing is off
/// by default and then costs one pointer test per phase. It measures, it
/// never changes what is computed.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LAYOUT_PHASETIMES_H
#define KILN_LAYOUT_PHASETIMES_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/Timer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::layout {

/// The phases of one run, in the order they started.
class PhaseTimes {
public:
  /// Times a phase named \p Name from construction to destruction; does
  /// nothing if \p Times is null.
  class Scope {
  public:
    Scope(PhaseTimes *Times, const llvm::Twine &Name);
    ~Scope();
    Scope(const Scope &) = delete;
    Scope &operator=(const Scope &) = delete;

  private:
    PhaseTimes *Times;
    size_t Index = 0;
    llvm::TimeRecord Start;
    uint64_t StartFaults = 0;
  };

  /// Prints one line per phase: wall, user and system seconds, thousands of
  /// page faults, the peak resident MiB of the process at its end, and its
  /// name indented by depth.
  void print(llvm::raw_ostream &OS) const;

  size_t getNumPhases() const { return Phases.size(); }

private:
  struct Phase {
    std::string Name;
    unsigned Depth = 0;
    double Wall = 0;
    double User = 0;
    double System = 0;
    /// Page faults (minor and major) during the phase (0 if unknown).
    uint64_t Faults = 0;
    /// Peak resident set of the process so far, bytes (0 if unknown).
    uint64_t PeakResident = 0;
  };
  std::vector<Phase> Phases;
  unsigned Depth = 0;
};

} // namespace kiln::layout

#endif // KILN_LAYOUT_PHASETIMES_H

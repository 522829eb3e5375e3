//===- PhaseTimes.cpp - Time and memory of named phases -------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Layout/PhaseTimes.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"

#ifdef LLVM_ON_UNIX
#include <sys/resource.h>
#endif

using namespace llvm;
using namespace kiln::layout;

namespace {
/// What getrusage says of the process's memory (zeros where unknown).
struct MemoryUsage {
  uint64_t PeakResident = 0; ///< Bytes.
  uint64_t Faults = 0;       ///< Minor and major page faults so far.
};
} // namespace

static MemoryUsage getMemoryUsage() {
  MemoryUsage Result;
#ifdef LLVM_ON_UNIX
  struct rusage Usage;
  if (getrusage(RUSAGE_SELF, &Usage) != 0)
    return Result;
#ifdef __APPLE__
  Result.PeakResident = uint64_t(Usage.ru_maxrss); // Bytes on Darwin.
#else
  Result.PeakResident = uint64_t(Usage.ru_maxrss) * 1024; // KiB elsewhere.
#endif
  Result.Faults = uint64_t(Usage.ru_minflt) + uint64_t(Usage.ru_majflt);
#endif
  return Result;
}

PhaseTimes::Scope::Scope(PhaseTimes *Times, const Twine &Name) : Times(Times) {
  if (!Times)
    return;
  Index = Times->Phases.size();
  Phase P;
  P.Name = Name.str();
  P.Depth = Times->Depth++;
  Times->Phases.push_back(std::move(P));
  StartFaults = getMemoryUsage().Faults;
  Start = TimeRecord::getCurrentTime(/*Start=*/true);
}

PhaseTimes::Scope::~Scope() {
  if (!Times)
    return;
  TimeRecord End = TimeRecord::getCurrentTime(/*Start=*/false);
  Phase &P = Times->Phases[Index];
  P.Wall = End.getWallTime() - Start.getWallTime();
  P.User = End.getUserTime() - Start.getUserTime();
  P.System = End.getSystemTime() - Start.getSystemTime();
  MemoryUsage Memory = getMemoryUsage();
  P.Faults = Memory.Faults - StartFaults;
  P.PeakResident = Memory.PeakResident;
  --Times->Depth;
}

void PhaseTimes::print(raw_ostream &OS) const {
  constexpr double MiB = 1024.0 * 1024.0;
  OS << "    wall    user  system  faults/1000  peak MiB  phase\n";
  for (const Phase &P : Phases)
    OS << format("%8.3f%8.3f%8.3f%13.1f%10.0f  ", P.Wall, P.User, P.System,
                 double(P.Faults) / 1000, double(P.PeakResident) / MiB)
       << std::string(2 * P.Depth, ' ') << P.Name << '\n';
}

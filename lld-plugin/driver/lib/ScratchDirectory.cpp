//===- ScratchDirectory.cpp - kiln-lld's files ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ScratchDirectory.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstring>
#include <iterator>
#ifndef _WIN32
#include <signal.h>
#endif

using namespace llvm;
using namespace kiln;

/// The scratch directory to remove if the link is interrupted (SIGINT,
/// SIGTERM, SIGHUP): a signal ends the process without running destructors.
/// The handler removes it and the files lld registered for removal (LLVM's
/// interrupt handlers), then lets the signal end the process as it would
/// have.
static char InterruptedScratch[4096];

#ifndef _WIN32
static constexpr int InterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction PreviousActions[std::size(InterruptSignals)];

static void restoreInterruptHandlers() {
  for (size_t I = 0; I < std::size(InterruptSignals); ++I)
    sigaction(InterruptSignals[I], &PreviousActions[I], nullptr);
}

static void removeScratchOnSignal(int Signal) {
  if (InterruptedScratch[0])
    sys::fs::remove_directories(InterruptedScratch, /*IgnoreErrors=*/true);
  sys::RunInterruptHandlers();
  signal(Signal, SIG_DFL);
  raise(Signal);
}

static void removeScratchOnInterrupt(bool Enable) {
  if (!Enable) {
    restoreInterruptHandlers();
    return;
  }
  struct sigaction Action = {};
  Action.sa_handler = removeScratchOnSignal;
  sigemptyset(&Action.sa_mask);
  for (size_t I = 0; I < std::size(InterruptSignals); ++I)
    sigaction(InterruptSignals[I], &Action, &PreviousActions[I]);
}
#else
static void removeScratchOnInterrupt(bool) {}
#endif

Error ScratchDirectory::create() {
  if (!Path.empty())
    return Error::success();
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory("kiln-lld", Dir))
    return createStringError(EC, "cannot create a scratch directory: " +
                                     EC.message());
  Path = Dir.str().str();
  if (Path.size() < sizeof(InterruptedScratch) && !InterruptedScratch[0]) {
    std::memcpy(InterruptedScratch, Path.c_str(), Path.size() + 1);
    removeScratchOnInterrupt(true);
    Removing = true;
  }
  return Error::success();
}

void ScratchDirectory::keep(raw_ostream &Diag) {
  if (Kept)
    return;
  Diag << "kiln-lld: kept the preliminary link's files in " << Path << '\n';
  Kept = true;
  stopRemovingOnInterrupt();
}

ScratchDirectory::~ScratchDirectory() {
  stopRemovingOnInterrupt();
  if (!Path.empty() && !Kept)
    sys::fs::remove_directories(Path, /*IgnoreErrors=*/true);
}

std::string ScratchDirectory::file(StringRef Name) const {
  SmallString<128> P(Path);
  sys::path::append(P, Name);
  return P.str().str();
}

void ScratchDirectory::stopRemovingOnInterrupt() {
  if (!Removing)
    return;
  removeScratchOnInterrupt(false);
  InterruptedScratch[0] = 0;
  Removing = false;
}

//===- CrashGuard.cpp - Quiet allocation failures in guarded reads --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CrashGuard.h"
#include "kiln/Sources/ReaderDiagnostics.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

using namespace llvm;

// The handler is process-wide: guards on several threads share one
// installation, counted.
static std::atomic<bool> QuietInGuardedReads{false};
static std::mutex HandlerLock;
static unsigned HandlerUsers = 0;

static void onAllocationFailure(void *, const char *Reason, bool) {
  if (CrashRecoveryContext *CRC = CrashRecoveryContext::GetCurrent())
    CRC->HandleExit(1);
  // LLVM's default, which must not allocate either.
  static const char Prefix[] = "LLVM ERROR: out of memory\n";
  (void)!::write(2, Prefix, sizeof(Prefix) - 1);
  if (Reason) {
    (void)!::write(2, Reason, std::strlen(Reason));
    (void)!::write(2, "\n", 1);
  }
  std::abort();
}

void kiln::enableQuietAllocationFailuresInGuardedReads() {
  QuietInGuardedReads = true;
}

kiln::QuietAllocationFailures::QuietAllocationFailures() {
  if (!QuietInGuardedReads)
    return;
  std::lock_guard<std::mutex> Guard(HandlerLock);
  if (HandlerUsers++ == 0)
    install_bad_alloc_error_handler(onAllocationFailure);
  Installed = true;
}

kiln::QuietAllocationFailures::~QuietAllocationFailures() {
  if (!Installed)
    return;
  std::lock_guard<std::mutex> Guard(HandlerLock);
  if (--HandlerUsers == 0)
    remove_bad_alloc_error_handler();
}

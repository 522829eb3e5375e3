//===- CrashGuard.h - Run LLVM readers so corrupt input cannot crash -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's object and profile readers do not validate everything they follow
/// in a corrupt file: some fault, some call report_fatal_error. When the tool
/// has enabled llvm::CrashRecoveryContext, runGuarded turns either into the
/// caller's error instead of a crash. (Without it, Read just runs.)
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_CRASHGUARD_H
#define KILN_SOURCES_LIB_CRASHGUARD_H

#include "llvm/Support/CrashRecoveryContext.h"

#include <optional>

namespace kiln {

/// While at least one object of this class lives, an allocation that fails
/// inside a CrashRecoveryContext (a corrupt file's size that LLVM's reader
/// believes) ends that context quietly, as a fault would, instead of
/// printing `LLVM ERROR: out of memory` before the caller's own diagnostic.
/// Elsewhere (another thread, no context) it ends the process as LLVM's
/// default does. Only in a tool that asked for it
/// (enableQuietAllocationFailuresInGuardedReads): a host such as lld or
/// clang keeps its own handlers.
class QuietAllocationFailures {
public:
  QuietAllocationFailures();
  ~QuietAllocationFailures();
  QuietAllocationFailures(const QuietAllocationFailures &) = delete;
  QuietAllocationFailures &operator=(const QuietAllocationFailures &) = delete;

private:
  bool Installed = false;
};

/// \returns Read(), or OnCrash() if Read faulted, aborted or ran out of
/// memory.
template <typename ReadT, typename OnCrashT>
auto runGuarded(ReadT Read, OnCrashT OnCrash) -> decltype(Read()) {
  std::optional<decltype(Read())> Result;
  QuietAllocationFailures Quiet;
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { Result.emplace(Read()); }))
    return OnCrash();
  return std::move(*Result);
}

} // namespace kiln

#endif // KILN_SOURCES_LIB_CRASHGUARD_H

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

/// \returns Read(), or OnCrash() if Read faulted or aborted.
template <typename ReadT, typename OnCrashT>
auto runGuarded(ReadT Read, OnCrashT OnCrash) -> decltype(Read()) {
  std::optional<decltype(Read())> Result;
  llvm::CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { Result.emplace(Read()); }))
    return OnCrash();
  return std::move(*Result);
}

} // namespace kiln

#endif // KILN_SOURCES_LIB_CRASHGUARD_H

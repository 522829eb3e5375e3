//===- FuzzerUtils.h - Helpers shared by Kiln's fuzz targets ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's readers of profiles and objects take paths, as the tools do: a
/// fuzz target writes each input to one temporary file of its process and
/// reads that. The file is removed when the process ends, also on a signal.
///
/// Those readers guard LLVM's (CrashGuard.h): with
/// llvm::CrashRecoveryContext enabled, as the kiln tool enables it, a fault
/// in LLVM's reader becomes an error. Recovering from a fault unwinds no
/// stack, so whatever was allocated until then leaks, by design: a target
/// first reads an input with leak detection off, and reads it again with
/// leak detection on only when no fault was recovered. KILN_FUZZ_UNGUARDED=1
/// in the environment leaves crash recovery off, to see LLVM's faults.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_FUZZ_FUZZERUTILS_H
#define KILN_TEST_FUZZ_FUZZERUTILS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sanitizer/lsan_interface.h>

namespace kiln {
namespace fuzz {

/// Enables crash recovery, as the kiln tool does, unless
/// KILN_FUZZ_UNGUARDED is set.
inline void enableCrashRecovery() {
  if (!std::getenv("KILN_FUZZ_UNGUARDED"))
    llvm::CrashRecoveryContext::Enable();
}

/// \returns whether \p E says that LLVM's reader failed (CrashGuard.h's
/// errors), and counts those: the count is printed when the process ends, as
/// `kiln-fuzz: faults of LLVM's readers recovered: N`.
inline bool isRecoveredFault(llvm::Error E) {
  static unsigned NumRecovered = 0;
  static const bool PrintsAtExit = [] {
    std::atexit([] {
      std::fprintf(stderr,
                   "kiln-fuzz: faults of LLVM's readers recovered: %u\n",
                   NumRecovered);
    });
    return true;
  }();
  (void)PrintsAtExit;
  if (!E)
    return false;
  std::string Message = llvm::toString(std::move(E));
  bool Recovered = llvm::StringRef(Message).contains("reader failed on");
  NumRecovered += Recovered;
  return Recovered;
}

/// \returns whether \p Read (returning an llvm::Error) recovered from a
/// fault in LLVM (isRecoveredFault). Leak detection is off while it runs.
template <typename ReadT> bool recoversFromFault(ReadT Read) {
  __lsan_disable();
  bool Recovered = isRecoveredFault(Read());
  __lsan_enable();
  return Recovered;
}

/// \returns the path of this process's input file, created on first use
/// with \p Suffix (`profdata`, `o`).
inline const std::string &getInputPath(llvm::StringRef Suffix) {
  static const std::string Path = [&] {
    llvm::SmallString<128> P;
    if (std::error_code EC =
            llvm::sys::fs::createTemporaryFile("kiln-fuzz", Suffix, P)) {
      llvm::errs() << "kiln-fuzz: error: cannot create a temporary file: "
                   << EC.message() << "\n";
      std::abort();
    }
    llvm::sys::RemoveFileOnSignal(P);
    std::string S(P.str());
    static std::string AtExit = S;
    std::atexit([] { llvm::sys::fs::remove(AtExit); });
    return S;
  }();
  return Path;
}

/// Replaces the contents of \p Path with the \p Size bytes at \p Data.
inline void writeInputFile(const std::string &Path, const uint8_t *Data,
                           size_t Size) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path, EC);
  if (EC) {
    llvm::errs() << "kiln-fuzz: error: " << Path << ": " << EC.message()
                 << "\n";
    std::abort();
  }
  OS.write(reinterpret_cast<const char *>(Data), Size);
  OS.close();
  if (OS.has_error()) {
    llvm::errs() << "kiln-fuzz: error: " << Path << ": " << OS.error().message()
                 << "\n";
    OS.clear_error();
    std::abort();
  }
}

} // namespace fuzz
} // namespace kiln

#endif // KILN_TEST_FUZZ_FUZZERUTILS_H

//===- kiln/LLDDriver/ScratchDirectory.h - kiln-lld's files -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one directory in which a `kiln-lld` run keeps the files it makes for
/// lld (the preliminary link's output and objects, the ordering file, the
/// checked copy of a basic-block sections profile). It lives in the system's
/// temporary directory and is removed when the run ends, also when the run is
/// interrupted (SIGINT, SIGTERM, SIGHUP), unless `--kiln-save-temps` keeps it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_SCRATCHDIRECTORY_H
#define KILN_LLDDRIVER_SCRATCHDIRECTORY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// A scratch directory, created on first use. Only one can be removed on
/// interrupt at a time: a run has one.
class ScratchDirectory {
public:
  ScratchDirectory() = default;
  ScratchDirectory(const ScratchDirectory &) = delete;
  ScratchDirectory &operator=(const ScratchDirectory &) = delete;
  ~ScratchDirectory();

  /// Creates the directory unless it exists already. \returns why it could
  /// not be created.
  llvm::Error create();
  /// Keeps the directory for inspection (`--kiln-save-temps`) and says where
  /// it is on \p Diag, once.
  void keep(llvm::raw_ostream &Diag);
  /// \returns the path of the file \p Name in the directory.
  std::string file(llvm::StringRef Name) const;

private:
  void stopRemovingOnInterrupt();

  std::string Path;
  bool Kept = false;
  bool Removing = false;
};

} // namespace kiln

#endif // KILN_LLDDRIVER_SCRATCHDIRECTORY_H

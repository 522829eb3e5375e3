//===- kiln/Support/OutputFile.h - Outputs that keep inputs -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How every Kiln command writes a file, so that no run can destroy one:
///
/// - checkOutputPaths() refuses a command whose output is also one of its
///   inputs or another of its outputs, before anything is written. Files are
///   compared by identity (device and inode), so `./x.o`, `x.o`, a symbolic
///   link to it and a hard link all match; an output that does not exist yet
///   is compared by its resolved path.
/// - OutputFile writes through a temporary file in the output's directory
///   and renames it into place only when every byte was written, so a run
///   that fails (a full disk, an error later in the command, a signal)
///   leaves the previous file as it was. Write errors come back as
///   llvm::Error, never as the fatal error a raw_fd_ostream reports when it
///   is destroyed with an error pending.
///
/// `-` names standard output. An output that exists and is not a regular file
/// (`/dev/null`, `/dev/full`, a FIFO) is written in place: it cannot be
/// replaced, and writing it destroys nothing.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_OUTPUTFILE_H
#define KILN_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>

namespace kiln {

/// A file named on a command line and what it is to the command: the option
/// that names it (`-o`, `--report`) or the kind of input (`input`,
/// `profile`).
struct NamedFile {
  std::string Path;
  std::string Role;
};

/// Checks, before anything is written, that no output in \p Outputs is a
/// file in \p Inputs or another output. Empty paths and `-` are skipped, and
/// so are outputs that exist and are not regular files (devices, FIFOs).
/// \returns an error `<output>: <role> would overwrite an input of this
/// command (<input role>)` or `<output>: <role> and <other role> name the
/// same file`.
llvm::Error checkOutputPaths(llvm::ArrayRef<NamedFile> Outputs,
                             llvm::ArrayRef<NamedFile> Inputs);

/// One output being written. The bytes go to a temporary file next to the
/// output; commit() renames it into place. Destroying an OutputFile that was
/// not committed deletes the temporary and leaves the output untouched.
class OutputFile {
public:
  /// Opens the temporary for \p Path (see the file comment for `-` and
  /// files that are not regular). \returns `<Path>: <reason>` on failure.
  static llvm::Expected<std::unique_ptr<OutputFile>>
  create(llvm::StringRef Path,
         llvm::sys::fs::OpenFlags Flags = llvm::sys::fs::OF_None);

  ~OutputFile();
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;

  /// The stream to write to (until commit()).
  llvm::raw_ostream &os() { return *OS; }

  /// The path a writer that opens files by name (LLVM's remarks output)
  /// writes instead of os(): the temporary, or the output itself when it is
  /// written in place (`-`, a device). commit() then renames what it wrote.
  llvm::StringRef pathToWrite() const;

  /// Flushes, checks that every byte was written and renames the temporary
  /// into place. \returns `<Path>: <reason>` if any of it failed; the
  /// temporary is then gone and the previous file intact.
  llvm::Error commit();

private:
  explicit OutputFile(llvm::StringRef Path) : Path(Path.str()) {}
  void discard();

  std::string Path;
  /// The temporary, or none when writing stdout or a file in place.
  std::optional<llvm::sys::fs::TempFile> Temp;
  /// The stream; stdout (not owned) when Owned is null.
  llvm::raw_fd_ostream *OS = nullptr;
  std::unique_ptr<llvm::raw_fd_ostream> Owned;
  bool Done = false;
};

/// Writes \p Path with \p Write through an OutputFile.
llvm::Error
writeOutputFile(llvm::StringRef Path,
                llvm::function_ref<void(llvm::raw_ostream &)> Write,
                llvm::sys::fs::OpenFlags Flags = llvm::sys::fs::OF_None);

/// Flushes stdout and \returns `<stdout>: <reason>` if anything written to
/// it was lost (e.g. `> /dev/full`), clearing the error so that the stream
/// does not abort the process when it is destroyed.
llvm::Error checkStdout();

} // namespace kiln

#endif // KILN_SUPPORT_OUTPUTFILE_H

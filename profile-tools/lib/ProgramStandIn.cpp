//===- ProgramStandIn.cpp - A program's files replaced for a replay -------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProgramStandIn.h"

#include "llvm/Support/FileSystem.h"

using namespace llvm;

namespace kiln::pgo {

static Error standInError(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

std::string standInOriginal(StringRef Path) {
  return (Path + ".kiln-original").str();
}

ProgramStandIns::~ProgramStandIns() { consumeError(restore()); }

Error ProgramStandIns::install(ArrayRef<std::string> Paths, StringRef StandIn) {
  for (const std::string &Path : Paths) {
    if (is_contained(Replaced, Path))
      continue;
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(Path, Status)) {
      // A copy the build made and removed since: nothing runs it.
      if (EC == std::errc::no_such_file_or_directory)
        continue;
      consumeError(restore());
      return standInError(Path + ": " + EC.message());
    }
    // The stand-in is written beside the program, then renamed over it
    // once the original is out of the way: the path is never a partial
    // file.
    std::string Temp = Path + ".kiln-stand-in";
    std::string Original = standInOriginal(Path);
    auto Fail = [&](const Twine &What, std::error_code EC) {
      sys::fs::remove(Temp);
      consumeError(restore());
      return standInError(Path + ": cannot " + What + ": " + EC.message());
    };
    if (std::error_code EC = sys::fs::copy_file(StandIn, Temp))
      return Fail("write the replay's stand-in", EC);
    sys::fs::setPermissions(Temp, Status.permissions());
    int FD;
    if (!sys::fs::openFileForWrite(Temp, FD, sys::fs::CD_OpenExisting,
                                   sys::fs::OF_None)) {
      sys::fs::setLastAccessAndModificationTime(
          FD, Status.getLastAccessedTime(), Status.getLastModificationTime());
      sys::fs::closeFile(FD);
    }
    if (std::error_code EC = sys::fs::rename(Path, Original))
      return Fail("move the program aside for the replay", EC);
    Replaced.push_back(Path);
    if (std::error_code EC = sys::fs::rename(Temp, Path))
      return Fail("put the replay's stand-in in its place", EC);
  }
  return Error::success();
}

Error ProgramStandIns::restore() {
  Error Result = Error::success();
  for (const std::string &Path : Replaced)
    if (std::error_code EC = sys::fs::rename(standInOriginal(Path), Path))
      Result = joinErrors(std::move(Result),
                          standInError(standInOriginal(Path) +
                                       ": cannot put the program back after "
                                       "the replay: " +
                                       EC.message()));
  Replaced.clear();
  return Result;
}

Error restoreLeftOriginals(ArrayRef<std::string> Paths, raw_ostream &Out) {
  for (const std::string &Path : Paths) {
    std::string Original = standInOriginal(Path);
    if (!sys::fs::exists(Original))
      continue;
    if (std::error_code EC = sys::fs::rename(Original, Path))
      return standInError(Original +
                          ": cannot put the program back: " + EC.message());
    Out << "kiln: note: " << Path
        << ": put back the program an interrupted block layout replay had "
           "moved aside\n";
  }
  return Error::success();
}

std::string shellQuote(StringRef Arg) {
  std::string Quoted = "'";
  for (char C : Arg) {
    if (C == '\'')
      Quoted += "'\\''";
    else
      Quoted += C;
  }
  return Quoted + "'";
}

} // namespace kiln::pgo

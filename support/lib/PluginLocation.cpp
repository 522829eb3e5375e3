//===- PluginLocation.cpp - Find Kiln's pass plugin -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/PluginLocation.h"
#include "kiln/Support/Version.inc"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

using namespace llvm;

const char *kiln::getPluginFileName() { return KILN_PLUGIN_FILE_NAME; }

std::string kiln::getBundledPluginPath(const char *Argv0, void *MainAddr) {
  SmallString<256> Path(sys::fs::getMainExecutable(Argv0, MainAddr));
  // Resolve symlinks first: a `kiln-ld.lld -> kiln-lld` link in another
  // directory must still find the plugin next to the real executable.
  SmallString<256> Real;
  if (!sys::fs::real_path(Path, Real))
    Path = Real;
  sys::path::remove_filename(Path); // <prefix>/bin
  sys::path::remove_filename(Path); // <prefix>
  sys::path::append(Path, KILN_LIBRARY_DIR_NAME, KILN_PLUGIN_FILE_NAME);
  return std::string(Path);
}

Expected<std::string> kiln::findPlugin(const char *Argv0, void *MainAddr) {
  std::string Candidate;
  StringRef Origin;
  std::optional<std::string> FromEnv = sys::Process::GetEnv(PluginPathEnvVar);
  if (FromEnv && !FromEnv->empty()) {
    Candidate = *FromEnv;
    Origin = "named by $KILN_PLUGIN";
  } else {
    Candidate = getBundledPluginPath(Argv0, MainAddr);
    Origin = "expected next to the executable";
  }

  SmallString<256> Real;
  if (std::error_code EC = sys::fs::real_path(Candidate, Real))
    return createStringError(EC, "cannot find the Kiln plugin %s (%s): %s",
                             Candidate.c_str(), Origin.data(),
                             EC.message().c_str());
  if (!sys::fs::is_regular_file(Real))
    return createStringError(inconvertibleErrorCode(),
                             "the Kiln plugin %s (%s) is not a regular file",
                             Real.c_str(), Origin.data());
  return std::string(Real);
}

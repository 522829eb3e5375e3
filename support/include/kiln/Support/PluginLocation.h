//===- kiln/Support/PluginLocation.h - Find Kiln's pass plugin --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's tools (`kiln`, `kiln-lld`) need the path of the one pass-plugin
/// module that belongs to them: `kiln print-plugin-path` prints it for build
/// systems, and `kiln-lld` loads it before lld parses `-mllvm`. The module sits
/// in `<prefix>/lib/` next to `<prefix>/bin/`, in the build tree and in an
/// installed tree alike, so it is found relative to the running executable.
/// The environment variable KILN_PLUGIN overrides that location.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_PLUGINLOCATION_H
#define KILN_SUPPORT_PLUGINLOCATION_H

#include "llvm/Support/Error.h"

#include <string>

namespace kiln {

/// The environment variable that, when set and non-empty, names the plugin
/// module to use instead of the one next to the executable.
inline constexpr const char *PluginPathEnvVar = "KILN_PLUGIN";

/// \returns the file name of the plugin module, e.g. `KilnPlugin-22.so`.
const char *getPluginFileName();

/// \returns the absolute path where the plugin module that was built or
/// installed with the running executable lives: `<exe dir>/../lib/<name>`.
/// The file is not required to exist. \p Argv0 and \p MainAddr locate the
/// executable as llvm::sys::fs::getMainExecutable does.
std::string getBundledPluginPath(const char *Argv0, void *MainAddr);

/// Locates the plugin module: $KILN_PLUGIN if set, otherwise the bundled one.
/// \returns its absolute, symlink-free path, or an error that names the path
/// that was tried and where it came from.
llvm::Expected<std::string> findPlugin(const char *Argv0, void *MainAddr);

} // namespace kiln

#endif // KILN_SUPPORT_PLUGINLOCATION_H

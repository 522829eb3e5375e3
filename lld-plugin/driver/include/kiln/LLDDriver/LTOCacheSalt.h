//===- kiln/LLDDriver/LTOCacheSalt.h - Kiln's ThinLTO cache -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// lld's ThinLTO cache (`--thinlto-cache-dir=D`, `-cache_path_lto D`) keys
/// each backend's object on the module, its imports and the lto::Config, but
/// not on the pass plugins, KILN_OPTIONS or the contents of the files Kiln's
/// options name: a link with Kiln active would reuse objects another Kiln
/// configuration (or none) produced. `kiln-lld` therefore gives each Kiln
/// configuration its own subdirectory, `D/kiln-<salt>`, where the salt is the
/// ConfigurationDigest of the plugin and the options. A link in which Kiln
/// is not active keeps `D` itself, shared with plain lld (the plugin alone
/// changes no byte).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_LTOCACHESALT_H
#define KILN_LLDDRIVER_LTOCACHESALT_H

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// \returns the `-kiln-*` options \p LinkerArgs (argv, program name first)
/// hands to LLVM: after `-mllvm`, `-mllvm=`, `--plugin-opt` and
/// `--plugin-opt=` (one or two dashes), in command-line order.
std::vector<std::string>
collectKilnOptions(llvm::ArrayRef<std::string> LinkerArgs);

/// \returns \p LinkerArgs with the directory of every ThinLTO cache option
/// (see findLTOCacheOptions) replaced by `<dir>/kiln-<Salt>`.
std::vector<std::string>
saltLTOCacheDirectories(llvm::ArrayRef<std::string> LinkerArgs,
                        LinkerFlavor Flavor, llvm::StringRef Salt);

/// Salts the user's ThinLTO cache in \p LinkerArgs when Kiln is active in
/// this link's LTO: the flavor runs pass plugins (ELF, Mach-O), the plugin
/// at \p PluginPath was loaded (non-empty), and there is a Kiln option on
/// the command line or in KILN_OPTIONS; or when \p BlockSections, the
/// basic-block sections profile given to LTO, is not empty (lld's cache key
/// covers its file name, not its content). Otherwise leaves \p LinkerArgs
/// alone. With \p Verbose, says where the cache went on \p Diag.
/// \returns an error if the plugin or a file an option names cannot be read.
llvm::Error applyLTOCacheSalt(LinkerFlavor Flavor,
                              std::vector<std::string> &LinkerArgs,
                              llvm::StringRef PluginPath,
                              llvm::StringRef BlockSections, bool Verbose,
                              llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_LLDDRIVER_LTOCACHESALT_H

//===- kiln/LLDDriver/ProfileGuidedLinkSteps.h - Two-link plan --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The command lines of a profile-guided `kiln-lld` link, per flavor. The
/// names the final link will see (statics, ThinLTO's `.llvm.<hash>`
/// promotions) exist only once lld has resolved the inputs and run LTO, so
/// kiln-lld links twice:
///  1. a preliminary link into a scratch directory that makes lld list every
///     input it loads (`--trace`, `-t`, `/verbose`) and keep the native
///     objects LTO produced (`--lto-obj-path=`, `-object_path_lto`,
///     `/lto-obj-path:` and, for lld-link's ThinLTO, its cache);
///  2. the real link, with the ordering file Kiln computed from exactly those
///     objects. ThinLTO backends are cached between the two links (a scratch
///     cache unless the user named one), so LTO code generation runs once.
/// This file only builds and parses command lines (unit-tested); running lld
/// and reading objects is ProfileGuidedLink's job.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_PROFILEGUIDEDLINKSTEPS_H
#define KILN_LLDDRIVER_PROFILEGUIDEDLINKSTEPS_H

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace kiln {

/// Where the preliminary link puts what kiln-lld reads back.
struct ScratchPaths {
  std::string Output;     ///< The preliminary link's output.
  std::string LTOObjects; ///< File (ELF, COFF) or directory (Mach-O).
  std::string LTOCache;   ///< ThinLTO cache, if the user named none.
  /// Where the preliminary link writes the side outputs the user asked of
  /// the link (`<prefix>.<option>`); empty: where the user named them.
  std::string SideOutputs;
};

/// Where a ThinLTO cache directory option of the link puts its value.
struct LTOCacheOption {
  size_t ArgIndex;    ///< The argument that holds the directory...
  size_t ValueOffset; ///< ...starting at this character.
};

/// \returns every ThinLTO cache directory option in \p LinkerArgs, in order:
/// `--thinlto-cache-dir=D`, `--plugin-opt=cache-dir=D` (ELF, MinGW; one
/// or two dashes), `-cache_path_lto D` (Mach-O),
/// `/lldltocache:D` (COFF).
std::vector<LTOCacheOption>
findLTOCacheOptions(llvm::ArrayRef<std::string> LinkerArgs,
                    LinkerFlavor Flavor);

/// \returns the ThinLTO cache directory the user named in \p LinkerArgs, or
/// "" if none.
std::string findUserLTOCache(llvm::ArrayRef<std::string> LinkerArgs,
                             LinkerFlavor Flavor);

/// \returns the output file of the link (the last `-o`/`--output`,
/// `/out:`), or the linker's default (`a.out`; for lld-link the first
/// input's stem + `.exe`, which kiln-lld does not guess: "").
std::string findOutputPath(llvm::ArrayRef<std::string> LinkerArgs,
                           LinkerFlavor Flavor);

/// \returns \p LinkerArgs for the preliminary link: output into
/// \p Scratch.Output, the inputs listed, the LTO objects kept, the
/// scratch ThinLTO cache if \p Scratch.LTOCache is set, and each side output
/// the user named (a map, remarks, a dependency file, a reproducer, an
/// import library) moved under \p Scratch.SideOutputs, so that only the
/// final link writes the user's files.
std::vector<std::string>
buildPreliminaryLinkArgs(llvm::ArrayRef<std::string> LinkerArgs,
                         LinkerFlavor Flavor, const ScratchPaths &Scratch);

/// \returns \p LinkerArgs for the real link: \p OrderFile as the flavor's
/// ordering file, and the scratch ThinLTO cache if \p LTOCache is set.
std::vector<std::string>
buildFinalLinkArgs(llvm::ArrayRef<std::string> LinkerArgs, LinkerFlavor Flavor,
                   llvm::StringRef OrderFile, llvm::StringRef LTOCache);

/// A native input lld loaded: a file, or a member of an archive.
struct TracedInput {
  std::string Path;
  std::string Member; ///< "" for a file on its own.
  bool operator==(const TracedInput &Other) const {
    return Path == Other.Path && Member == Other.Member;
  }
};

/// Parses the input list the preliminary link printed (\p Stdout for ELF and
/// Mach-O, one `path` or `archive(member)` per line; \p Stderr for lld-link,
/// its `Reading ...` lines). Each input once, in load order.
std::vector<TracedInput> parseTracedInputs(llvm::StringRef Stdout,
                                           llvm::StringRef Stderr,
                                           LinkerFlavor Flavor);

} // namespace kiln

#endif // KILN_LLDDRIVER_PROFILEGUIDEDLINKSTEPS_H

//===- kiln/LLDDriver/BlockLayoutLink.h - Block layout options --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What `--kiln-block-address-map` and `--kiln-block-sections=<v1 file>` add
/// to an ELF link. The first links with LLVM's basic-block address map
/// (`--lto-basic-block-address-map`) and the blocks' hashes in it (`-mllvm
/// -emit-bb-hash`), so that a profile of the final binary can be mapped
/// back to the compiler's blocks, and onto the blocks of a later build. The
/// second relinks with a basic-block sections profile: kiln-lld checks the file
/// (BlockSections.h) against the functions of the link's bitcode
/// (LinkBitcode.h), writes the usable part to `block-sections.txt` in its
/// scratch directory and gives that to LTO (`--lto-basic-block-sections=`). The
/// LTO backends re-run from the same bitcode, so the block ids are those of the
/// address-mapped build.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_BLOCKLAYOUTLINK_H
#define KILN_LLDDRIVER_BLOCKLAYOUTLINK_H

#include "kiln/LLDDriver/KilnLinkOptions.h"
#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

class ScratchDirectory;

/// Adds the options \p Options' block-layout requests need to \p LinkerArgs
/// (argv, program name first) for \p Flavor; the checked sections profile
/// goes into \p Scratch. Where the link's bitcode has local functions that
/// share a name with others and \p HasPlugin (Kiln's plugin runs in the
/// link's LTO), the ThinLTO backends are asked to give them unique names
/// (kiln/Support/UniqueLocalNames.h), alike in every such link of the same
/// objects, so a block profile and the order tell them apart. Problems of the
/// profile are warnings on \p Diag and the link goes on without it
/// (`--kiln-strict`: an error).
/// \returns the content of the profile given to LTO ("" if none), which the
/// ThinLTO cache must be keyed on (lld's key does not cover it), or an
/// error for a request kiln-lld refuses (another flavor than ELF, a second
/// sections profile).
llvm::Expected<std::string>
applyBlockLayoutOptions(LinkerFlavor Flavor, const KilnLinkOptions &Options,
                        bool HasPlugin, std::vector<std::string> &LinkerArgs,
                        ScratchDirectory &Scratch, llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_LLDDRIVER_BLOCKLAYOUTLINK_H

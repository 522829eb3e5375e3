//===- kiln/Sources/BlockProfileText.h - Block profiles as text -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Kiln's text form of a layout::BlockProfile, so that the profile of a
/// binary is read once (`kiln block-profile`), kept, diffed and handed to
/// the planner and the linker. One record per line; `#` starts a comment;
/// fields are separated by blanks; counts are one per scenario, in the
/// order of the `scenario` lines:
///
///     kiln-block-profile 2
///     build-id <hex>|-
///     scenario <name> startup|steady <weight>
///     function <symbol> 0x<address> [shared]
///     block <id> 0x<address> <size> 0x<hash> -|<flag>[,<flag>] <count>...
///     edge <from id> <to id> <count>...
///     call <from id> <callee symbol> <count>...
///
/// Scenarios come before functions; a function's `block` lines come before
/// its `edge` and `call` lines, and its first block is its entry. A callee
/// must be a function of the file. A block's hash is the address map's
/// (`-emit-bb-hash`), 0x0 when the map has none; it lets a profile be
/// matched to a later build (kiln/Layout/BlockProfileMatching.h). `shared`
/// marks a name other functions of the binary have too
/// (BlockFunction::SharedName). A block's flags are `-` for none, or `eh`
/// (a landing pad) and `ft` (it falls through into the block after it by
/// address, ProfiledBlock::FallsThrough), comma-separated. Version 1, which
/// had no `ft`, is still read. Writing sorts nothing: it prints the profile
/// as it is, so a verified profile prints the same bytes every time.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_BLOCKPROFILETEXT_H
#define KILN_SOURCES_BLOCKPROFILETEXT_H

#include "kiln/Layout/BlockProfile.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// Parses \p Buffer; errors name its identifier and the line. The result
/// passes verifyBlockProfile.
llvm::Expected<layout::BlockProfile>
parseBlockProfile(llvm::MemoryBufferRef Buffer);

/// Writes \p Profile in the text form parseBlockProfile reads.
void writeBlockProfile(const layout::BlockProfile &Profile,
                       llvm::raw_ostream &OS);

/// Checks what the planner relies on: at least one scenario, valid weights,
/// one count per scenario everywhere, unique function names sorted by
/// address, unique block IDs per function, edges and calls sorted, unique
/// and in range.
llvm::Error verifyBlockProfile(const layout::BlockProfile &Profile);

} // namespace kiln

#endif // KILN_SOURCES_BLOCKPROFILETEXT_H

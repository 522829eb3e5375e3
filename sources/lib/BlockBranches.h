//===- BlockBranches.h - Taken branches onto machine blocks -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rule every block profile reader applies to a taken branch, so that
/// callgrind's jumps, BOLT's branch records and LBR records mean the same
/// thing: a branch to a function's entry is a call (or tail call), a branch
/// to a block start of its own function is an edge, a branch into the
/// middle of another function is a return, and a branch into the middle of
/// a block of its own function is a sign of a profile of another build.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_BLOCKBRANCHES_H
#define KILN_SOURCES_LIB_BLOCKBRANCHES_H

#include "kiln/Sources/BlockProfileSources.h"

#include <optional>

namespace kiln {

/// Adds the taken branch \p From -> \p To, run \p Count times, to \p Counts
/// and classifies it in \p Stats (one record). A call's count is also added
/// to \p Entries[callee] when \p Entries is given (BOLT's records count
/// blocks by their incoming edges).
void addTakenBranch(const BlockAddressMap &Map, uint64_t From, uint64_t To,
                    uint64_t Count, BlockCounts &Counts, BlockReadStats &Stats,
                    std::vector<uint64_t> *Entries = nullptr);

} // namespace kiln

#endif // KILN_SOURCES_LIB_BLOCKBRANCHES_H

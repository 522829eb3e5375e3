//===- kiln/Order/BlockSectionsFile.h - Block layout files ------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two files a planned block layout (kiln/Layout/BlockLayout.h) is
/// handed to the compiler and the linker in:
///  - LLVM's basic-block-sections profile, version 1, which
///    `-fbasic-block-sections=list=` and lld's `--lto-basic-block-sections=`
///    read: `v1`, then per function `f <name>` and one `c <block IDs>` line
///    per cluster, the entry cluster first (its blocks in layout order, the
///    entry block first). Blocks no line lists go to the function's
///    `fn.cold` section. The optional `m <module>` line is not written: it
///    names the debug-info compile unit, which a block profile does not
///    know; the linker's symbol names that the profile carries are unique.
///  - The ELF symbol ordering file of the clusters (`fn`, `fn.__part.N`,
///    `fn.cold`), in the order the composite placed them, written by the
///    ordering-file writer all of Kiln's orders go through (OrderFile.h).
/// Both start with Kiln's `#` header lines, which LLVM's reader skips as
/// comments.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_BLOCKSECTIONSFILE_H
#define KILN_ORDER_BLOCKSECTIONSFILE_H

#include "kiln/Layout/BlockLayout.h"
#include "kiln/Order/OrderFile.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// What a basic-block-sections profile holds.
struct BlockSectionsReport {
  unsigned Functions = 0; ///< `f` lines.
  unsigned Clusters = 0;  ///< `c` lines.
};

/// Writes the version 1 basic-block-sections profile of \p Layout, planned
/// from \p Profile, to \p OS, after \p Header as `# ` comment lines. The
/// functions come in profile (address) order.
BlockSectionsReport writeBasicBlockSectionsProfile(
    const layout::BlockProfile &Profile, const layout::BlockLayout &Layout,
    llvm::ArrayRef<std::string> Header, llvm::raw_ostream &OS);

/// Writes the ELF symbol ordering file of \p Layout's clusters, in the
/// order of Layout.Order, with \p Opts' header, after the C runtime's
/// startup code (`_start`, `frame_dummy`; BlockSectionsFile.cpp says why).
/// \returns what was written (the clusters; the runtime's two names are not
/// counted).
OrderFileReport writeClusterOrderFile(const layout::BlockProfile &Profile,
                                      const layout::BlockLayout &Layout,
                                      const OrderFileOptions &Opts,
                                      llvm::raw_ostream &OS);

} // namespace kiln

#endif // KILN_ORDER_BLOCKSECTIONSFILE_H

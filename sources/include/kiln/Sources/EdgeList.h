//===- kiln/Sources/EdgeList.h - lld's call-graph edge lists ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads and writes the text format of lld's `--call-graph-ordering-file`:
/// one `caller callee count` line per edge, fields separated by blanks,
/// `#` starting a comment. Names are linker symbol names.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_EDGELIST_H
#define KILN_SOURCES_EDGELIST_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// Adds the edges of the edge list in \p Buffer to scenario \p S of \p G
/// (creating nodes as needed; sizes stay unknown). A callee's count is also
/// added to its execution count. \returns an error naming the buffer and the
/// line for a malformed line; nothing is added then.
llvm::Error readEdgeList(llvm::MemoryBufferRef Buffer, layout::CallGraph &G,
                         layout::ScenarioId S);

/// An edge list file, parsed once: its names interned in order of first
/// appearance, its edges as pairs of indices into Names.
struct EdgeListData {
  std::string Path;
  std::unique_ptr<llvm::MemoryBuffer> Buffer; ///< Names point into it.
  std::vector<llvm::StringRef> Names;
  std::vector<layout::Edge> Edges;
};

/// Loads and parses the edge lists at \p Paths. \returns an error naming
/// the file (and line) for unreadable or malformed lists.
llvm::Expected<std::vector<std::shared_ptr<const EdgeListData>>>
loadEdgeLists(llvm::ArrayRef<std::string> Paths);

struct LinkerInputs;

/// Makes \p Inputs name every function of \p Lists, as globals of unknown
/// size from no object: for ordering from lld edge lists alone, when the
/// link's inputs are not at hand.
void addEdgeListFunctions(
    llvm::ArrayRef<std::shared_ptr<const EdgeListData>> Lists,
    LinkerInputs &Inputs);

} // namespace kiln

#endif // KILN_SOURCES_EDGELIST_H

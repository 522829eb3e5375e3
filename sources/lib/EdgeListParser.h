//===- EdgeListParser.h - Parse lld edge lists ------------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The scanner behind EdgeList.h, for lists of millions of lines: one pass
/// over the buffer, no string per line, names interned into a NameInterner
/// a few lines behind the scanner. A name's id is the order of its first
/// appearance in the list, caller before callee; edges keep the order of
/// the lines.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_EDGELISTPARSER_H
#define KILN_SOURCES_LIB_EDGELISTPARSER_H

#include "kiln/Layout/CallGraph.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

#include <vector>

namespace kiln {

/// An edge list parsed into interned names and id pairs.
struct ParsedEdgeList {
  std::vector<llvm::StringRef> Names; ///< In order of first appearance.
  std::vector<layout::Edge> Edges;    ///< Ids index Names; in line order.
};

/// Parses \p Buffer; the names point into it. \returns an error naming the
/// buffer and the first malformed line.
llvm::Expected<ParsedEdgeList> parseEdgeList(llvm::MemoryBufferRef Buffer);

} // namespace kiln

#endif // KILN_SOURCES_LIB_EDGELISTPARSER_H

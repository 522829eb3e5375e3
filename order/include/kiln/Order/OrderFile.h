//===- kiln/Order/OrderFile.h - Ordering files for each linker --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Writes a function order in the dialect of each linker, with the names
/// that linker matches, and reports every entry it could not express:
///  - ELF `--symbol-ordering-file`: one symbol per line. lld matches local
///    symbols by name in every object, so a static whose name other statics
///    share moves them all: reported as shared, and skipped on request.
///  - COFF `/order:@file`: lld-link orders COMDAT sections only, by their
///    leader symbol; functions without their own COMDAT (compiled without
///    /Gy or -ffunction-sections) are skipped and reported.
///  - Mach-O `-order_file`: `_symbol` for globals and `object.o:_symbol` for
///    a static whose name others share, which names it exactly (ld64.lld
///    finds the qualifier by its ".o:", so archive members cannot be
///    qualified: those are reported as shared).
///  - lld's call-graph edge list (`--call-graph-ordering-file`): `caller
///    callee count`, for users who prefer lld's own sort.
/// Every file starts with `#` comment lines saying how it was made; all
/// three linkers and lld's edge-list reader skip them.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_ORDERFILE_H
#define KILN_ORDER_ORDERFILE_H

#include "kiln/Sources/LinkerInputs.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// The ordering-file dialects.
enum class OrderFileFormat { ELF, COFF, MachO };

/// \returns "elf", "coff" or "macho".
llvm::StringRef getOrderFileFormatName(OrderFileFormat Format);

struct OrderFileOptions {
  OrderFileFormat Format = OrderFileFormat::ELF;
  /// Comment lines for the header (without the leading "# ").
  std::vector<std::string> Header;
  /// ELF/COFF: skip statics whose name other functions share, instead of
  /// moving all of them.
  bool SkipSharedNames = false;
  /// Symbols written first, before the order, whatever the inputs hold (a
  /// linker ignores the names a link does not define); an input function of
  /// one of these names is not written again.
  std::vector<std::string> LeadingSymbols;
};

/// An entry of the order that was not written as asked.
struct OrderFileIssue {
  size_t Function = 0; ///< Index into LinkerInputs::Functions.
  std::string Reason;
};

/// What an ordering file contains and what it could not express.
struct OrderFileReport {
  unsigned Written = 0;
  uint64_t BytesWritten = 0;
  /// Left out of the file.
  std::vector<OrderFileIssue> Skipped;
  /// Written, but the name also matches other functions, which move too.
  std::vector<OrderFileIssue> Shared;
};

/// Writes \p Order (indices into \p Inputs.Functions, first to last) to
/// \p OS in \p Opts.Format. Each function is written once, at its first
/// position. \returns what was written and what was not, and why.
OrderFileReport writeOrderFile(const LinkerInputs &Inputs,
                               llvm::ArrayRef<size_t> Order,
                               const OrderFileOptions &Opts,
                               llvm::raw_ostream &OS);

/// An edge for writeEdgeList, between functions of the inputs.
struct NamedEdge {
  size_t Caller = 0;
  size_t Callee = 0;
  uint64_t Count = 0;
};

/// Writes lld's `--call-graph-ordering-file` format: the \p Edges, heaviest
/// first, with the header of \p Opts. \returns edges written and skipped (an
/// endpoint whose name is shared, which lld would bind to the wrong one).
/// Sorts \p Edges where they are: give them up (std::move) to spare a copy
/// of millions of edges.
OrderFileReport writeEdgeList(const LinkerInputs &Inputs,
                              std::vector<NamedEdge> Edges,
                              const OrderFileOptions &Opts,
                              llvm::raw_ostream &OS);

} // namespace kiln

#endif // KILN_ORDER_ORDERFILE_H

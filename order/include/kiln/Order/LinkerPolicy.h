//===- kiln/Order/LinkerPolicy.h - What the linker can move -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The linker's rules that decide what an order can do with the functions
/// the readers (kiln/Sources/LinkerInputs.h) found: which function the link
/// enters, and which functions an ELF symbol ordering file can move. The
/// readers report what the inputs hold; this is where Kiln decides what that
/// means for a link.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_ORDER_LINKERPOLICY_H
#define KILN_ORDER_LINKERPOLICY_H

#include "kiln/Sources/LinkerInputs.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace kiln {

/// Marks the global functions of \p Inputs named \p EntrySymbol (the link's
/// entry point, `_start` for ELF executables) as RunsAtLoad. \returns how
/// many it marked.
unsigned markLoadEntry(LinkerInputs &Inputs, llvm::StringRef EntrySymbol);

/// Load-time code may be ordered although it shares its section, when that
/// section is at most this many bytes: it is C runtime glue (crtbegin's
/// `.text` holds frame_dummy and three helpers, Scrt1's holds `_start`),
/// which lld then moves whole, at no cost.
constexpr uint64_t MaxMovedLoadSectionSize = 1024;

/// \returns whether the linker can move \p F where an ELF symbol ordering
/// file puts it: it has its own section, or it is load-time code in a small
/// one (MaxMovedLoadSectionSize).
bool isOrderableInELF(const InputFunction &F);

} // namespace kiln

#endif // KILN_ORDER_LINKERPOLICY_H

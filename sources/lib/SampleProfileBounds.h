//===- SampleProfileBounds.h - Check sample profile sizes -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's binary sample profile readers allocate what the file claims (the
/// entries of a name table, the decompressed size of a section) and follow
/// section offsets without comparing them with the file's size. A corrupt
/// profile then ends in `LLVM ERROR: out of memory` or a read past the
/// mapping. checkSampleProfileBounds compares each such claim with the bytes
/// that could hold it before LLVM's reader runs.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LIB_SAMPLEPROFILEBOUNDS_H
#define KILN_SOURCES_LIB_SAMPLEPROFILEBOUNDS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"

namespace kiln {

/// Checks the sizes a binary or extensible-binary sample profile declares
/// against the size of \p Buffer. A profile of another kind, or of a
/// version LLVM's reader refuses, passes: the reader says what is wrong.
/// \returns an error naming \p Path and the claim that cannot hold.
llvm::Error checkSampleProfileBounds(llvm::StringRef Path,
                                     llvm::MemoryBufferRef Buffer);

} // namespace kiln

#endif // KILN_SOURCES_LIB_SAMPLEPROFILEBOUNDS_H

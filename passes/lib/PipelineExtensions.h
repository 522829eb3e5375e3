//===- PipelineExtensions.h - Kiln passes in the default pipelines -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where Kiln's passes enter clang's and lld's default pipelines when the
/// plugin is loaded with `-fpass-plugin=` or `--load-pass-plugin=`. Every
/// pass is off unless its `-kiln-*` option turns it on, so loading the plugin
/// alone never changes the output.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_PIPELINEEXTENSIONS_H
#define KILN_PASSES_LIB_PIPELINEEXTENSIONS_H

namespace llvm {
class PassBuilder;
} // namespace llvm

namespace kiln {

/// Registers Kiln's callbacks at the extension points of \p PB's default
/// pipelines (per-TU compile, ThinLTO pre-link and backends, full LTO).
void registerPipelineExtensions(llvm::PassBuilder &PB);

} // namespace kiln

#endif // KILN_PASSES_LIB_PIPELINEEXTENSIONS_H

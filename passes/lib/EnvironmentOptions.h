//===- EnvironmentOptions.h - Kiln options from KILN_OPTIONS ----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Plain `ld.lld --load-pass-plugin=` parses `-mllvm` options before it
/// loads plugins, so `-mllvm -kiln-...` is rejected there. The plugin
/// therefore also reads its options from the environment variable
/// `KILN_OPTIONS` (e.g. `KILN_OPTIONS='-kiln-print-function-profile'`),
/// once per process, the first time it is registered with a PassBuilder.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H
#define KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H

namespace kiln {

/// Parses `KILN_OPTIONS` into Kiln's cl::opts, once per process (thread
/// safe). Only options spelled `-kiln-...` are accepted; anything else, or
/// an option LLVM rejects, is a warning on stderr naming the variable, and
/// the whole variable is ignored (the build goes on without it).
void applyEnvironmentOptions();

} // namespace kiln

#endif // KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H

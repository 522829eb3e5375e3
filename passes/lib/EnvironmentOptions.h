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
/// whenever it is registered with a PassBuilder: read and parsed the first
/// time, and given again to the options that lost their value since (a host
/// such as lld resets every option after a link, and kiln-lld links twice).
/// Options set otherwise meanwhile are left alone.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H
#define KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H

namespace kiln {

/// Parses `KILN_OPTIONS` into Kiln's cl::opts the first time, and again into
/// those of its options that were reset since (thread safe). Only options
/// spelled `-kiln-...` are accepted; anything else, or an option LLVM
/// rejects, is a warning on stderr naming the variable, and the whole
/// variable is ignored (the build goes on without it).
void applyEnvironmentOptions();

} // namespace kiln

#endif // KILN_PASSES_LIB_ENVIRONMENTOPTIONS_H

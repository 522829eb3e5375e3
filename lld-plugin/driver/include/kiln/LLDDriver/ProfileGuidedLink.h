//===- kiln/LLDDriver/ProfileGuidedLink.h - kiln-lld --kiln-profile -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one-command profile-guided link: `kiln-lld <linker arguments>
/// --kiln-profile=app.profdata [--kiln-startup-profile=start.profdata]`.
/// A preliminary link tells which native objects the link really uses (LTO's
/// included); Kiln plans the order over their functions with the profiles,
/// writes the flavor's ordering file, and the real link uses it (see
/// ProfileGuidedLinkSteps.h for the command lines). Anything Kiln cannot use
/// (an unreadable profile, a profile of another program) is a warning and
/// the link goes on without Kiln's order; `--kiln-strict` makes it an error.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_PROFILEGUIDEDLINK_H
#define KILN_LLDDRIVER_PROFILEGUIDEDLINK_H

#include "kiln/LLDDriver/KilnLinkOptions.h"
#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

class ScratchDirectory;

/// Runs one lld link with \p Args (argv, program name first), printing to
/// \p Stdout and \p Stderr. \returns lld's exit code.
using RunLinkerFn = llvm::function_ref<int(llvm::ArrayRef<std::string> Args,
                                           llvm::raw_ostream &Stdout,
                                           llvm::raw_ostream &Stderr)>;

/// Runs the profile-guided link of \p LinkerArgs (Kiln's options already
/// taken out into \p Options) for \p Flavor, with its files in \p Scratch
/// (created if it is not yet). Diagnostics go to \p Diag.
/// \returns the process exit code.
int runProfileGuidedLink(LinkerFlavor Flavor,
                         llvm::ArrayRef<std::string> LinkerArgs,
                         const KilnLinkOptions &Options,
                         ScratchDirectory &Scratch, RunLinkerFn RunLinker,
                         llvm::raw_ostream &Stdout, llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_LLDDRIVER_PROFILEGUIDEDLINK_H

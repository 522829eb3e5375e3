//===- kiln/LLDDriver/KilnLinkOptions.h - kiln-lld's own options -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The options `kiln-lld` understands itself, on top of the linker's: they
/// ask for a profile-guided link (`--kiln-profile=app.profdata`) and are
/// taken out of the command line before lld sees it. They are spelled the
/// same in every flavor (`--kiln-x=v`; `/kiln-x:v` for lld-link too), so
/// `clang -fuse-ld=... -Wl,--kiln-profile=...` works. The single-dash
/// `-kiln-x` stays the plugin's LLVM options (after `-mllvm`).
/// Kept apart from the link itself so it can be unit-tested.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_KILNLINKOPTIONS_H
#define KILN_LLDDRIVER_KILNLINKOPTIONS_H

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kiln {

/// What `--kiln-*` link options ask for.
struct KilnLinkOptions {
  /// `--kiln-scenario=<kind>=<path>[:<weight>]`, with `--kiln-profile=P`
  /// as `steady=P` and `--kiln-startup-profile=P` as `startup=P`; a spec
  /// given again with the same spelling is kept once.
  std::vector<std::string> Scenarios;
  std::string Algorithm = "kiln"; ///< `--kiln-algorithm=`.
  std::string PageSize = "4K";    ///< `--kiln-page-size=`.
  std::string OrderOut;           ///< `--kiln-order-out=`: keep the order.
  std::string ReportOut;          ///< `--kiln-report=`: JSON coverage.
  std::string PrereadOut;         ///< `--kiln-preread-out=`: startup range.
  /// `--kiln-unordered-out=`: keep the preliminary link's output, the same
  /// program linked without Kiln's order (the "before" of `kiln report`).
  std::string UnorderedOut;
  /// `--kiln-inline-plan=<budget>|off`: plan the ThinLTO imports and the
  /// cross-module inlining together (`kiln imports --inline-budget`) and
  /// have the thin link and the backends follow the plan. Empty or `off`:
  /// LLVM's default importer and inliner.
  std::string InlinePlan;
  /// `--kiln-strict`: a profile Kiln cannot use fails the link instead of
  /// a warning and a link without Kiln's order.
  bool Strict = false;
  /// `--kiln-profiles-of-build`: the profiles were collected from this
  /// build's own programs (`kiln pgo optimize` says so), so none is refused
  /// as another program's (whyProfileIsForeign): one training profile
  /// covers a library and the programs that load it, where each link's
  /// functions carry a share of its counts, and a startup may run little
  /// more than `main`. A profile that binds nothing orders nothing.
  bool ProfilesOfBuild = false;
  /// `--kiln-verbose`: print the order's summary and coverage.
  bool Verbose = false;
  /// `--kiln-save-temps`: keep the preliminary link's scratch directory.
  bool SaveTemps = false;
  /// `--kiln-block-address-map`: link with LLVM's basic-block address map
  /// (ELF), to profile the final binary block by block.
  bool BlockAddressMap = false;
  /// `--kiln-block-hashes`: the address map with the blocks' hashes, to
  /// match that profile to later builds. Not implied by BlockAddressMap:
  /// LLVM 22's hashes are not reproducible (BlockLayoutLink.cpp).
  bool BlockHashes = false;
  /// `--kiln-block-sections=`: a v1 basic-block sections profile that LTO
  /// lays the named functions out by (BlockLayoutLink.h).
  std::string BlockSections;
  /// `--kiln-block-profile=<file.kbp>`: plan the block layout of that
  /// profile (kiln block-layout's planner) and relink with the planned
  /// sections profile and the clusters' order.
  std::string BlockProfile;

  /// \returns true if a profile-guided link was asked for.
  bool requestsProfileGuidedLink() const { return !Scenarios.empty(); }
};

/// The command line split into lld's part and Kiln's.
struct SplitLinkCommand {
  std::vector<std::string> LinkerArgs; ///< argv without Kiln's options.
  KilnLinkOptions Kiln;
};

/// Takes the `--kiln-*` options out of \p Args (argv, program name first) for
/// \p Flavor. \returns an error naming the option for an unknown `--kiln-`
/// option, a missing value, or a Kiln option that only takes effect with a
/// profile given without one.
llvm::Expected<SplitLinkCommand>
splitKilnLinkOptions(llvm::ArrayRef<const char *> Args, LinkerFlavor Flavor);

/// \returns the options of \p LinkerArgs that already order the output
/// (`--symbol-ordering-file`, `--call-graph-ordering-file`, `/order:`,
/// `-order_file`, lld's balanced-partitioning options, ...): a Kiln order
/// and one of these would fight, so kiln-lld refuses the combination.
std::vector<std::string>
findConflictingOrderOptions(llvm::ArrayRef<std::string> LinkerArgs,
                            LinkerFlavor Flavor);

} // namespace kiln

#endif // KILN_LLDDRIVER_KILNLINKOPTIONS_H

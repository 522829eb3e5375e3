//===- kiln/Sources/TemporalTraces.h - Reading temporal traces --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one reading of temporal profile traces (clang -ftemporal-profile):
/// each trace lists functions by the MD5 of their profile names in
/// first-execution order, with a weight. `kiln order`'s profile reader
/// resolves them to profile names, the plugin's startup profile to the
/// module's functions: both through readTemporalTraces, with their own
/// resolver. Header-only (LLVM ProfileData), so that the plugin, which links
/// no Kiln reader library, shares it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_TEMPORALTRACES_H
#define KILN_SOURCES_TEMPORALTRACES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ProfileData/InstrProfReader.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace kiln {

/// What to tell a user whose profile has no traces.
inline constexpr llvm::StringLiteral NoTemporalTracesHint =
    "it has no temporal profile traces (profile a build made with "
    "-ftemporal-profile)";

/// A trace whose functions were resolved to T.
template <typename T> struct ResolvedTrace {
  uint64_t Weight = 1;
  /// In first-execution order; functions the resolver did not know are
  /// left out.
  std::vector<T> Functions;
};

/// \returns the temporal traces of \p Reader (none if it has none), each
/// function resolved by \p Resolve: `std::optional<T> Resolve(uint64_t
/// NameHash)`.
template <typename T, typename ResolveT>
std::vector<ResolvedTrace<T>> readTemporalTraces(llvm::InstrProfReader &Reader,
                                                 ResolveT Resolve) {
  std::vector<ResolvedTrace<T>> Result;
  if (!Reader.hasTemporalProfile())
    return Result;
  for (const llvm::TemporalProfTraceTy &Trace :
       Reader.getTemporalProfTraces()) {
    ResolvedTrace<T> &R = Result.emplace_back();
    R.Weight = Trace.Weight;
    for (uint64_t Hash : Trace.FunctionNameRefs)
      if (std::optional<T> F = Resolve(Hash))
        R.Functions.push_back(std::move(*F));
  }
  return Result;
}

} // namespace kiln

#endif // KILN_SOURCES_TEMPORALTRACES_H

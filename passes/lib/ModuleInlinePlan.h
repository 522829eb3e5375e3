//===- ModuleInlinePlan.h - One module's planned inlining -------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The part of a `kiln imports --inline-plan` file that concerns one ThinLTO
/// backend's module, matched against the module's IR for the `kiln-inline`
/// advisor. A planned site is found by its module's source file name, its
/// caller and callee (ThinLTO's `.llvm.<hash>` promotion suffix stripped)
/// and its ordinal among the caller's direct calls to the callee, counted
/// the first time the inliner asks about that caller. When the caller then
/// has a different number of such calls than the plan recorded (an earlier
/// pass removed or duplicated one), the sites cannot be told apart: the
/// edge is unmatched and keeps LLVM's default advice.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_MODULEINLINEPLAN_H
#define KILN_PASSES_LIB_MODULEINLINEPLAN_H

#include "kiln/Imports/InlinePlanFile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/ValueHandle.h"

#include <memory>

namespace llvm {
class CallBase;
class Function;
class Module;
} // namespace llvm

namespace kiln {

/// What a plan says about one call site.
enum class InlinePlanMatchKind {
  NotPlanned, ///< Not a site of the plan.
  Planned,    ///< The planned site.
  Unmatched,  ///< The plan names its edge, but the sites cannot be told apart.
};

struct InlinePlanMatch {
  InlinePlanMatchKind Kind = InlinePlanMatchKind::NotPlanned;
  const imports::InlinePlanSite *Site = nullptr;
  /// The caller's direct calls to the callee when first counted.
  unsigned NumInIR = 0;
  /// The number the plan recorded.
  unsigned NumPlanned = 0;
};

class ModuleInlinePlan {
public:
  /// Reads the plan at \p Path (once per process; backends share it) and
  /// selects \p M's part. An unusable plan (unreadable, not a plan, no
  /// module of \p M's source, functions \p M does not have) is reported
  /// once through \p M's context. \returns null when \p M has no usable
  /// part: it then gets LLVM's default advice everywhere.
  static std::unique_ptr<ModuleInlinePlan> create(llvm::Module &M,
                                                  llvm::StringRef Path);

  /// What the plan says about \p CB.
  InlinePlanMatch lookup(llvm::CallBase &CB);

  /// \returns true the first time it is called for \p CB's caller and
  /// callee: unmatched edges are reported once.
  bool firstReportOf(llvm::CallBase &CB);

private:
  explicit ModuleInlinePlan(std::shared_ptr<const imports::InlinePlanFile> File)
      : File(std::move(File)) {}

  /// Keeps the parsed file alive: the sites below point into it.
  std::shared_ptr<const imports::InlinePlanFile> File;
  /// "caller\0callee" -> per ordinal, the planned site or null.
  llvm::StringMap<llvm::SmallVector<const imports::InlinePlanSite *, 1>> ByEdge;
  /// Per caller, per edge key, its direct calls in instruction order when
  /// first counted. Weak handles: a call the inliner deletes reads as null,
  /// so a new call at a reused address never matches an old ordinal.
  llvm::DenseMap<const llvm::Function *,
                 llvm::StringMap<llvm::SmallVector<llvm::WeakVH, 2>>>
      CallsOf;
  llvm::StringMap<bool> Reported;
};

} // namespace kiln

#endif // KILN_PASSES_LIB_MODULEINLINEPLAN_H

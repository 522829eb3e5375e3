//===- kiln/Passes/ProfileInlineAdvisor.h - Profile inlining ----*- C++ -*-===//
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln-inline`: an inline advisor that LLVM's inliner loads through its
/// plugin mechanism (PluginInlineAdvisorAnalysis). It wraps LLVM's
/// DefaultInlineAdvisor, asks it first, and changes its answer only where
/// the module's profile says so:
///  - a hot call site the default refuses *for cost only* is inlined when
///    its cost is at most `-kiln-inline-hot-threshold` and the module's
///    growth budget (`-kiln-inline-budget`, callee instructions) allows;
///  - a cold call site the default would inline is refused, unless the
///    callee is free to inline (cost <= 0) or must be inlined (alwaysinline).
/// Refusals for correctness (noinline, recursion, incompatible attributes,
/// a callee that cannot be inlined) are never overridden. In the pre-link
/// phases only cold refusals are made: the module is optimized again later.
/// With `-kiln-inline-plan=<file>` it follows `kiln imports`' inline plan in
/// ThinLTO backends first: a planned cross-module call site is inlined
/// unless LLVM refuses it for more than cost (see ModuleInlinePlan.h).
/// Every changed decision is an optimization remark of pass `kiln-inline`.
/// See docs/Passes/Inline.rst.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_PROFILEINLINEADVISOR_H
#define KILN_PASSES_PROFILEINLINEADVISOR_H

#include "llvm/Analysis/InlineAdvisor.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/IR/PassManager.h"

#include <memory>

namespace kiln {

class ModuleInlinePlan;
struct InlinePlanMatch;

/// The advisor the inliner uses when `-kiln-inline` is given. One instance
/// lives for one run of the inliner over a module (LLVM creates a new one
/// for each ModuleInlinerWrapperPass/ModuleInlinerPass run), so the growth
/// budget is per module and per inliner run.
class ProfileInlineAdvisor : public llvm::InlineAdvisor {
public:
  ProfileInlineAdvisor(llvm::Module &M, llvm::FunctionAnalysisManager &FAM,
                       llvm::InlineParams Params, llvm::InlineContext IC);
  ~ProfileInlineAdvisor() override;

  void onPassEntry(llvm::LazyCallGraph::SCC *SCC) override;
  void onPassExit(llvm::LazyCallGraph::SCC *SCC) override;
  void print(llvm::raw_ostream &OS) const override;

  /// Takes \p Instructions, the size of a callee Kiln chose to inline, from
  /// the growth budget.
  void chargeGrowth(uint64_t Instructions);

  /// \returns the callee instructions Kiln may still inline beyond the
  /// default's decisions in this module.
  uint64_t getBudgetLeft() const { return BudgetLeft; }

private:
  std::unique_ptr<llvm::InlineAdvice>
  getAdviceImpl(llvm::CallBase &CB) override;

  std::unique_ptr<llvm::InlineAdvice>
  advisePlannedCallSite(llvm::CallBase &CB,
                        std::unique_ptr<llvm::InlineAdvice> DefaultAdvice,
                        const InlinePlanMatch &Match);
  std::unique_ptr<llvm::InlineAdvice> adviseHotCallSite(
      llvm::CallBase &CB, std::unique_ptr<llvm::InlineAdvice> DefaultAdvice,
      llvm::ProfileSummaryInfo &PSI, llvm::BlockFrequencyInfo &CallerBFI);
  std::unique_ptr<llvm::InlineAdvice> adviseColdCallSite(
      llvm::CallBase &CB, std::unique_ptr<llvm::InlineAdvice> DefaultAdvice,
      llvm::ProfileSummaryInfo &PSI, llvm::BlockFrequencyInfo &CallerBFI);
  void reportMissingProfileOnce(llvm::CallBase &CB);

  /// LLVM's own decision, asked first for every call site.
  llvm::DefaultInlineAdvisor DefaultAdvisor;
  /// The hot-call-site cost limit Kiln applies.
  int HotThreshold;
  /// False in the pre-link phases, where Kiln only refuses cold call sites.
  bool MayInlineMore;
  uint64_t BudgetLeft;
  bool ReportedMissingProfile = false;
  /// `-kiln-inline`: the profile's corrections apply outside the plan.
  bool CorrectsDefault;
  /// `-kiln-inline-plan`'s part for this module, in ThinLTO backends.
  std::unique_ptr<ModuleInlinePlan> Plan;
};

/// Registers the factory of ProfileInlineAdvisor as the inliner's plugin
/// advisor in \p MAM if `-kiln-inline` or `-kiln-inline-plan` was given;
/// otherwise registers nothing, so LLVM's own advisor (default, replay or ML)
/// is used unchanged.
void registerProfileInlineAdvisor(llvm::ModuleAnalysisManager &MAM);

} // namespace kiln

#endif // KILN_PASSES_PROFILEINLINEADVISOR_H

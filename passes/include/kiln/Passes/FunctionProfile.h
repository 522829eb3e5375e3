//===- kiln/Passes/FunctionProfile.h - Per-function profile view -*- C++
//-*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The profile facts Kiln's decisions start from, per defined function of a
/// module: the entry count the profile attached (instrumented or sample), how
/// the module's profile summary classifies the function (hot, cold, neither),
/// and its size in IR instructions and blocks. Section placement, the call
/// graph and the import planner read this view; users see it through
/// `print<kiln-function-profile>` and through the `kiln-profile-remarks` pass.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_FUNCTIONPROFILE_H
#define KILN_PASSES_FUNCTIONPROFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// How the module's profile summary classifies a function's entry count.
enum class ProfileTemperature {
  NoProfile, ///< The module carries no profile summary.
  Unknown,   ///< A summary exists but this function has no entry count.
  Cold,      ///< Entry count at or below the summary's cold threshold.
  Warm,      ///< Profiled, neither hot nor cold.
  Hot,       ///< Entry count at or above the summary's hot threshold.
};

/// \returns the lowercase name used in printer output and remarks.
llvm::StringRef getTemperatureName(ProfileTemperature T);

/// The profile view of one defined function.
struct FunctionProfileRecord {
  std::string Name;                   ///< The IR (mangled) name.
  std::optional<uint64_t> EntryCount; ///< Absent when the profile has none.
  bool SyntheticCount = false;        ///< Entry count is synthetic, not real.
  ProfileTemperature Temperature = ProfileTemperature::NoProfile;
  unsigned NumBlocks = 0;       ///< Basic blocks in the body.
  unsigned NumInstructions = 0; ///< IR instructions in the body.
};

/// The profile view of a module's defined functions, in module order.
struct FunctionProfile {
  /// The kind of profile summary the module carries: "instr", "cs-instr",
  /// "sample", or "none".
  std::string SummaryKind = "none";
  std::vector<FunctionProfileRecord> Functions;
};

/// Computes the FunctionProfile of a module from its profile metadata and
/// the ProfileSummaryAnalysis.
class FunctionProfileAnalysis
    : public llvm::AnalysisInfoMixin<FunctionProfileAnalysis> {
  friend llvm::AnalysisInfoMixin<FunctionProfileAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = FunctionProfile;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// Prints the FunctionProfile of a module: `print<kiln-function-profile>`.
class FunctionProfilePrinterPass
    : public llvm::PassInfoMixin<FunctionProfilePrinterPass> {
public:
  /// \p Where, when non-empty, is printed in the header line to say at which
  /// pipeline position the printer ran.
  explicit FunctionProfilePrinterPass(llvm::raw_ostream &OS,
                                      std::string Where = "")
      : OS(OS), Where(std::move(Where)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
  std::string Where;
};

/// Emits one `FunctionProfile` analysis remark per defined function with its
/// entry count and temperature, so users can check what Kiln will base its
/// decisions on with ordinary remark tooling (`-Rpass-analysis=kiln-profile`,
/// `-fsave-optimization-record`, lld's `--opt-remarks-filename`).
class ProfileRemarksPass : public llvm::PassInfoMixin<ProfileRemarksPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace kiln

#endif // KILN_PASSES_FUNCTIONPROFILE_H

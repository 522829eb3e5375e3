//===- kiln/Passes/CallGraphProfile.h - Weighted call graph -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The weighted call graph of a module, read from its profile metadata: every
/// function (defined or declared) with its entry count and code size, and
/// every caller -> callee pair with the number of calls the profile saw.
/// Direct calls are weighted like LLVM's CGProfile pass weighs them (block
/// frequency relative to the entry, times the entry count); indirect calls
/// contribute the targets of their value profile (`!prof !{!"VP", i32 0,
/// ...}`). `kiln-record-callgraph` writes the edges into the `CG Profile`
/// module flag, from which the code generator emits
/// `.llvm.call-graph-profile` (ELF, COFF) or `__LLVM,__cg_profile` (Mach-O)
/// for the linker's call-graph sort.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_CALLGRAPHPROFILE_H
#define KILN_PASSES_CALLGRAPHPROFILE_H

#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// One function of the module, a node of the call graph.
struct CallGraphNode {
  std::string Name;                   ///< The IR (mangled) name.
  bool IsDeclaration = false;         ///< Defined elsewhere (no body here).
  std::optional<uint64_t> EntryCount; ///< Absent when the profile has none.
  /// Code-size estimate: the target's TCK_CodeSize cost summed over the
  /// body's instructions (roughly instructions emitted); 0 for declarations.
  uint64_t Size = 0;
};

/// All calls from one function to another, merged over call sites.
struct CallGraphEdge {
  std::string Caller;
  std::string Callee;
  uint64_t DirectCount = 0;   ///< From direct call sites' block counts.
  uint64_t IndirectCount = 0; ///< From indirect call sites' value profiles.
  /// \returns the total number of calls, saturated at UINT64_MAX.
  uint64_t getCount() const;
};

/// The weighted call graph of a module. Functions are in module order, edges
/// sorted by caller name then callee name, so output built from it is
/// deterministic.
struct CallGraphProfile {
  std::vector<CallGraphNode> Functions;
  std::vector<CallGraphEdge> Edges;
};

/// Computes the CallGraphProfile of a module: `kiln-callgraph`.
class CallGraphProfileAnalysis
    : public llvm::AnalysisInfoMixin<CallGraphProfileAnalysis> {
  friend llvm::AnalysisInfoMixin<CallGraphProfileAnalysis>;
  static llvm::AnalysisKey Key;

public:
  using Result = CallGraphProfile;
  Result run(llvm::Module &M, llvm::ModuleAnalysisManager &MAM);
};

/// Prints the CallGraphProfile, one line per function and per edge:
/// `print<kiln-callgraph>`.
class CallGraphProfilePrinterPass
    : public llvm::PassInfoMixin<CallGraphProfilePrinterPass> {
public:
  explicit CallGraphProfilePrinterPass(llvm::raw_ostream &OS) : OS(OS) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
  static bool isRequired() { return true; }

private:
  llvm::raw_ostream &OS;
};

/// Writes the CallGraphProfile's edges into the module's `CG Profile` flag,
/// in the format LLVM's CGProfilePass uses, so the object file carries them
/// for the linker: `kiln-record-callgraph`.
class RecordCallGraphPass : public llvm::PassInfoMixin<RecordCallGraphPass> {
public:
  /// What to do with a `CG Profile` flag the module already has.
  enum class ExistingFlag {
    /// Keep its entries and add Kiln's counts to them, pair by pair. Right
    /// when the flag describes calls Kiln cannot see (an earlier stage).
    Merge,
    /// Drop it and write Kiln's graph. Right when the flag was computed
    /// from the same IR (CGProfilePass earlier in the same pipeline):
    /// merging would count every call twice.
    Replace,
  };

  explicit RecordCallGraphPass(ExistingFlag Mode = ExistingFlag::Merge)
      : Mode(Mode) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

private:
  ExistingFlag Mode;
};

} // namespace kiln

#endif // KILN_PASSES_CALLGRAPHPROFILE_H

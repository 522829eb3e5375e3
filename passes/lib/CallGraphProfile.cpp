//===- CallGraphProfile.cpp - Weighted call graph from profile metadata ---===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION
///   Builds the weighted call graph the way LLVM's CGProfile pass counts
///   calls (llvm/lib/Transforms/Instrumentation/CGProfile.cpp), so that the
///   two agree edge for edge, and adds what CGProfile does not keep: every
///   value-profiled target of an indirect call (CGProfile reads the first 8),
///   entry counts and code sizes per function. `kiln-record-callgraph` writes
///   the edges in CGProfile's `CG Profile` module-flag format.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so -passes='print<kiln-callgraph>' \
///       -disable-output in.ll
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-record-callgraph \
///       -S in.ll
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/CallGraphProfile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/ProfileData/InstrProf.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <memory>
#include <tuple>

using namespace llvm;

#define DEBUG_TYPE "kiln-callgraph"

AnalysisKey kiln::CallGraphProfileAnalysis::Key;

// The module flag LLVM's code generators turn into the object's call-graph
// profile section; the name and entry format are CGProfilePass's.
static constexpr StringLiteral CGProfileFlagName = "CG Profile";

uint64_t kiln::CallGraphEdge::getCount() const {
  return SaturatingAdd(DirectCount, IndirectCount);
}

// A call to Callee appears as a call in the object only if it is lowered to
// one (not an intrinsic expanded inline) and is not reached through a
// dllimport pointer, which the linker cannot order. These are CGProfile's
// conditions: keeping them makes Kiln's edges a superset of CGProfile's.
static bool isRecordableCallee(const TargetTransformInfo &TTI,
                               const Function *Callee) {
  return Callee && Callee->hasName() && TTI.isLoweredToCall(Callee) &&
         !Callee->hasDLLImportStorageClass();
}

static uint64_t estimateCodeSize(const Function &F,
                                 const TargetTransformInfo &TTI) {
  uint64_t Size = 0;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      InstructionCost Cost =
          TTI.getInstructionCost(&I, TargetTransformInfo::TCK_CodeSize);
      if (Cost.isValid())
        Size += Cost.getValue();
    }
  return Size;
}

namespace {
/// Maps the MD5 names of value-profile targets back to the module's
/// functions. Built on first use: most modules have no indirect calls.
class ValueProfileTargets {
public:
  explicit ValueProfileTargets(Module &M) : M(M) {}

  Function *lookup(uint64_t NameHash) {
    if (!Tables) {
      // The profile names local functions differently before and after LTO
      // renames them (`file.c;f` vs. the PGOFuncName metadata); accept both
      // so one analysis serves every pipeline phase.
      Tables = std::make_unique<std::pair<InstrProfSymtab, InstrProfSymtab>>();
      consumeError(Tables->first.create(M, /*InLTO=*/false));
      consumeError(Tables->second.create(M, /*InLTO=*/true));
    }
    if (Function *F = Tables->first.getFunction(NameHash))
      return F;
    return Tables->second.getFunction(NameHash);
  }

private:
  Module &M;
  std::unique_ptr<std::pair<InstrProfSymtab, InstrProfSymtab>> Tables;
};
} // namespace

// Appends one unmerged edge per profiled call site (one per target for
// indirect calls) of F to Edges.
static void collectCallSites(Function &F, BlockFrequencyInfo &BFI,
                             const TargetTransformInfo &TTI,
                             ValueProfileTargets &Targets,
                             std::vector<kiln::CallGraphEdge> &Edges) {
  auto AddEdge = [&](const Function *Callee, uint64_t Count, bool Indirect) {
    if (Count == 0 || !isRecordableCallee(TTI, Callee))
      return;
    kiln::CallGraphEdge Edge;
    Edge.Caller = F.getName().str();
    Edge.Callee = Callee->getName().str();
    (Indirect ? Edge.IndirectCount : Edge.DirectCount) = Count;
    Edges.push_back(std::move(Edge));
  };
  for (BasicBlock &BB : F) {
    std::optional<uint64_t> BlockCount = BFI.getBlockProfileCount(&BB);
    if (!BlockCount)
      continue;
    for (Instruction &I : BB) {
      auto *Call = dyn_cast<CallBase>(&I);
      if (!Call)
        continue;
      if (!Call->isIndirectCall()) {
        AddEdge(Call->getCalledFunction(), *BlockCount, /*Indirect=*/false);
        continue;
      }
      uint64_t TotalCount = 0;
      for (const InstrProfValueData &Target : getValueProfDataFromInst(
               *Call, IPVK_IndirectCallTarget,
               /*MaxNumValueData=*/std::numeric_limits<uint32_t>::max(),
               TotalCount))
        AddEdge(Targets.lookup(Target.Value), Target.Count, /*Indirect=*/true);
    }
  }
}

// Sorts by (caller, callee) and merges equal pairs in place, so the result
// does not depend on the order call sites were visited in.
static void sortAndMergeEdges(std::vector<kiln::CallGraphEdge> &Edges) {
  llvm::sort(
      Edges, [](const kiln::CallGraphEdge &A, const kiln::CallGraphEdge &B) {
        return std::tie(A.Caller, A.Callee) < std::tie(B.Caller, B.Callee);
      });
  size_t Merged = 0;
  for (size_t I = 0; I < Edges.size(); ++I) {
    if (Merged > 0 && Edges[Merged - 1].Caller == Edges[I].Caller &&
        Edges[Merged - 1].Callee == Edges[I].Callee) {
      kiln::CallGraphEdge &Into = Edges[Merged - 1];
      Into.DirectCount = SaturatingAdd(Into.DirectCount, Edges[I].DirectCount);
      Into.IndirectCount =
          SaturatingAdd(Into.IndirectCount, Edges[I].IndirectCount);
      continue;
    }
    if (Merged != I)
      Edges[Merged] = std::move(Edges[I]);
    ++Merged;
  }
  Edges.resize(Merged);
}

kiln::CallGraphProfile
kiln::CallGraphProfileAnalysis::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  ValueProfileTargets Targets(M);
  CallGraphProfile Result;
  for (Function &F : M) {
    // Intrinsics never become calls; unnamed functions cannot be named in
    // the object's call-graph section.
    if (F.isIntrinsic() || !F.hasName())
      continue;
    CallGraphNode Node;
    Node.Name = F.getName().str();
    Node.IsDeclaration = F.isDeclaration();
    if (std::optional<Function::ProfileCount> Count = F.getEntryCount())
      Node.EntryCount = Count->getCount();
    if (!F.isDeclaration()) {
      const TargetTransformInfo &TTI = FAM.getResult<TargetIRAnalysis>(F);
      Node.Size = estimateCodeSize(F, TTI);
      // Block counts are the entry count scaled by BFI: without an entry
      // count there is nothing to scale, so BFI is not even computed.
      if (Node.EntryCount) {
        BlockFrequencyInfo &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
        if (BFI.getEntryFreq() != BlockFrequency(0))
          collectCallSites(F, BFI, TTI, Targets, Result.Edges);
      }
    }
    Result.Functions.push_back(std::move(Node));
  }
  sortAndMergeEdges(Result.Edges);
  return Result;
}

PreservedAnalyses
kiln::CallGraphProfilePrinterPass::run(Module &M, ModuleAnalysisManager &MAM) {
  const CallGraphProfile &Graph = MAM.getResult<CallGraphProfileAnalysis>(M);
  OS << "kiln-callgraph: module '" << M.getModuleIdentifier()
     << "' functions=" << Graph.Functions.size()
     << " edges=" << Graph.Edges.size() << '\n';
  for (const CallGraphNode &Node : Graph.Functions) {
    OS << "  function " << Node.Name << ": ";
    if (Node.IsDeclaration) {
      OS << "declaration\n";
      continue;
    }
    OS << "entry=";
    if (Node.EntryCount)
      OS << *Node.EntryCount;
    else
      OS << '-';
    OS << " size=" << Node.Size << '\n';
  }
  for (const CallGraphEdge &Edge : Graph.Edges)
    OS << "  edge " << Edge.Caller << " -> " << Edge.Callee
       << ": count=" << Edge.getCount() << " direct=" << Edge.DirectCount
       << " indirect=" << Edge.IndirectCount << '\n';
  return PreservedAnalyses::all();
}

namespace {
/// The entries of a `CG Profile` flag, in the order they will be written.
struct FlagEntries {
  SmallVector<std::tuple<Function *, Function *, uint64_t>, 0> Entries;
  /// Position of each pair in Entries; only looked up, never iterated.
  DenseMap<std::pair<Function *, Function *>, size_t> Index;

  void add(Function *Caller, Function *Callee, uint64_t Count) {
    auto [It, Inserted] =
        Index.try_emplace(std::make_pair(Caller, Callee), Entries.size());
    if (Inserted) {
      Entries.emplace_back(Caller, Callee, Count);
      return;
    }
    uint64_t &Existing = std::get<2>(Entries[It->second]);
    Existing = SaturatingAdd(Existing, Count);
  }
};
} // namespace

// Reads the entries of an existing flag. Entries whose functions were
// deleted since (their operands became null) are dropped.
static void readExistingFlag(const Module &M, FlagEntries &Into) {
  auto *Tuple = dyn_cast_or_null<MDTuple>(M.getModuleFlag(CGProfileFlagName));
  if (!Tuple)
    return;
  for (const MDOperand &Operand : Tuple->operands()) {
    auto *Entry = dyn_cast_or_null<MDNode>(Operand.get());
    if (!Entry || Entry->getNumOperands() != 3)
      continue;
    auto *Caller = mdconst::dyn_extract_or_null<Function>(Entry->getOperand(0));
    auto *Callee = mdconst::dyn_extract_or_null<Function>(Entry->getOperand(1));
    auto *Count =
        mdconst::dyn_extract_or_null<ConstantInt>(Entry->getOperand(2));
    if (Caller && Callee && Count)
      Into.add(Caller, Callee, Count->getZExtValue());
  }
}

static void writeFlag(Module &M, const FlagEntries &Flag) {
  LLVMContext &Context = M.getContext();
  MDBuilder Builder(Context);
  std::vector<Metadata *> Nodes;
  Nodes.reserve(Flag.Entries.size());
  for (const auto &[Caller, Callee, Count] : Flag.Entries) {
    Metadata *Operands[] = {ValueAsMetadata::get(Caller),
                            ValueAsMetadata::get(Callee),
                            Builder.createConstant(ConstantInt::get(
                                Type::getInt64Ty(Context), Count))};
    Nodes.push_back(MDNode::get(Context, Operands));
  }
  // Append, distinct tuple: exactly what CGProfilePass writes, so modules
  // linked in LTO concatenate their lists as they do for CGProfile's.
  M.setModuleFlag(Module::Append, CGProfileFlagName,
                  MDTuple::getDistinct(Context, Nodes));
}

PreservedAnalyses kiln::RecordCallGraphPass::run(Module &M,
                                                 ModuleAnalysisManager &MAM) {
  const CallGraphProfile &Graph = MAM.getResult<CallGraphProfileAnalysis>(M);
  // No edge of ours: leave the module (and any flag) untouched.
  if (Graph.Edges.empty())
    return PreservedAnalyses::all();
  FlagEntries Flag;
  if (Mode == ExistingFlag::Merge)
    readExistingFlag(M, Flag);
  for (const CallGraphEdge &Edge : Graph.Edges) {
    Function *Caller = M.getFunction(Edge.Caller);
    Function *Callee = M.getFunction(Edge.Callee);
    if (Caller && Callee && Edge.getCount() > 0)
      Flag.add(Caller, Callee, Edge.getCount());
  }
  writeFlag(M, Flag);
  // A module flag is no input of any IR analysis, CGProfilePass's reasoning.
  return PreservedAnalyses::all();
}

//===- FunctionOrder.cpp - Kiln's layout in full LTO ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Passes/FunctionOrder.h"
#include "Diagnostics.h"
#include "StartupFunctions.h"

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/CompositeLayout.h"
#include "kiln/Layout/LayoutAlgorithmOption.h"
#include "kiln/Order/OrderFileText.h"
#include "kiln/Passes/CallGraphProfile.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace kiln;

#define DEBUG_TYPE "kiln-function-order"

static cl::opt<std::string>
    OrderOutput("kiln-function-order-out", cl::value_desc("file"), cl::init(""),
                cl::desc("kiln-function-order: also write the order as a "
                         "symbol ordering file (for the next link)"));

static cl::opt<layout::OrderAlgorithm>
    LayoutAlgorithm("kiln-layout-algorithm",
                    cl::init(layout::OrderAlgorithm::Kiln),
                    cl::desc("kiln-function-order: the layout algorithm"),
                    layout::getOrderAlgorithmValues());

static cl::opt<unsigned> LayoutPageSize(
    "kiln-layout-page-size", cl::init(4096),
    cl::desc("kiln-function-order: page size of the layout, in bytes (a "
             "power of two)"));

/// The IR code-size cost kiln-callgraph sums is about one per instruction;
/// x86-64 and AArch64 average close to four bytes per instruction. The
/// layout needs sizes only relative to each other and to the page size.
static constexpr uint64_t EstimatedBytesPerCost = 4;

static void warn(Module &M, const Twine &Message) {
  reportUnusableInput(M.getContext(), Twine(DEBUG_TYPE) + ": " + Message);
}

namespace {
/// The module's functions as the layout engine's call graph.
struct ModuleGraph {
  layout::CallGraph Graph;
  /// The IR function of each node.
  std::vector<Function *> FunctionOfNode;
  bool HasProfile = false;
};
} // namespace

static ModuleGraph buildGraph(Module &M, const CallGraphProfile &Profile,
                              const StartupFunctions &Startup) {
  ModuleGraph MG;
  layout::CallGraph &G = MG.Graph;
  layout::ScenarioId Steady =
      G.addScenario("profile", layout::ScenarioKind::SteadyState);
  for (const CallGraphNode &N : Profile.Functions) {
    Function *F = M.getFunction(N.Name);
    if (N.IsDeclaration || !F || F->isDeclaration())
      continue;
    layout::NodeId Id = G.getOrAddNode(N.Name, std::max<uint64_t>(1, N.Size) *
                                                   EstimatedBytesPerCost);
    if (Id >= MG.FunctionOfNode.size())
      MG.FunctionOfNode.resize(Id + 1, nullptr);
    MG.FunctionOfNode[Id] = F;
    if (N.EntryCount && *N.EntryCount) {
      G.addCount(Steady, Id, *N.EntryCount);
      MG.HasProfile = true;
    }
  }
  std::vector<layout::Edge> Edges;
  for (const CallGraphEdge &E : Profile.Edges) {
    layout::NodeId Caller = G.findNode(E.Caller);
    layout::NodeId Callee = G.findNode(E.Callee);
    if (Caller == layout::CallGraph::InvalidNode ||
        Callee == layout::CallGraph::InvalidNode || !E.getCount())
      continue;
    Edges.push_back({Caller, Callee, E.getCount()});
  }
  G.addEdges(Steady, Edges);
  if (!Startup.FirstExecutionOrder.empty()) {
    layout::ScenarioId StartupScenario =
        G.addScenario("startup", layout::ScenarioKind::Startup);
    layout::Trace T;
    for (const std::string &Name : Startup.FirstExecutionOrder) {
      layout::NodeId Id = G.findNode(Name);
      if (Id == layout::CallGraph::InvalidNode)
        continue;
      G.addCount(StartupScenario, Id, 1);
      T.Nodes.push_back(Id);
    }
    if (!T.Nodes.empty()) {
      G.addTrace(StartupScenario, std::move(T));
      MG.HasProfile = true;
    }
  }
  return MG;
}

/// Writes \p Order's symbol names (as the object file spells them) one per
/// line, with a header. \returns false after a warning if it cannot.
static bool writeOrderFile(Module &M, ArrayRef<Function *> Order,
                           StringRef Path) {
  Error E = writeTextOutput(Path, [&](raw_ostream &OS) {
    writeOrderFileHeader({getOrderFileTitle(DEBUG_TYPE),
                          ("Kiln function order of the full-LTO module '" +
                           M.getModuleIdentifier() + "' (algorithm: " +
                           layout::getOrderAlgorithmName(LayoutAlgorithm) +
                           "; page size: " + Twine(LayoutPageSize) + ")")
                              .str()},
                         OS);
    Mangler Mang;
    for (Function *F : Order) {
      SmallString<64> Name;
      Mang.getNameWithPrefix(Name, F, /*CannotUsePrivateLabel=*/false);
      OS << Name << '\n';
    }
  });
  if (!E)
    return true;
  warn(M, "cannot write the ordering file: " + toString(std::move(E)));
  return false;
}

PreservedAnalyses FunctionOrderPass::run(Module &M,
                                         ModuleAnalysisManager &MAM) {
  if (!isPowerOf2_32(LayoutPageSize)) {
    warn(M, "-kiln-layout-page-size=" + Twine(LayoutPageSize) +
                " is not a power of two; the module is not reordered");
    return PreservedAnalyses::all();
  }
  std::optional<StartupFunctions> Startup = loadStartupFunctions(M, DEBUG_TYPE);
  if (!Startup)
    return PreservedAnalyses::all();
  const CallGraphProfile &Profile = MAM.getResult<CallGraphProfileAnalysis>(M);
  ModuleGraph MG = buildGraph(M, Profile, *Startup);

  Function *Anchor = nullptr; // Where module-level remarks are attached.
  for (Function &F : M)
    if (!F.isDeclaration()) {
      Anchor = &F;
      break;
    }
  if (!Anchor)
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  OptimizationRemarkEmitter &ORE =
      FAM.getResult<OptimizationRemarkEmitterAnalysis>(*Anchor);
  if (!MG.HasProfile) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NoProfile", Anchor)
             << "module not reordered: no function has an entry count or is "
                "a startup function";
    });
    return PreservedAnalyses::all();
  }

  layout::CompositeLayoutConfig Config;
  Config.PageSize = LayoutPageSize;
  layout::CompositeLayout Layout =
      layout::orderCallGraph(MG.Graph, LayoutAlgorithm, Config);

  // The laid-out functions first, in layout order; then every other function
  // in its current order (cold and unprofiled code, and declarations, which
  // emit nothing).
  std::vector<Function *> Ordered;
  DenseSet<Function *> Placed;
  for (const layout::PlacedNode &P : Layout.Order)
    if (Function *F = MG.FunctionOfNode[P.Node]; F && Placed.insert(F).second)
      Ordered.push_back(F);
  std::vector<Function *> Rest;
  for (Function &F : M)
    if (!Placed.contains(&F))
      Rest.push_back(&F);
  Module::FunctionListType &List = M.getFunctionList();
  for (Function *F : Ordered)
    List.splice(List.end(), List, F->getIterator());
  for (Function *F : Rest)
    List.splice(List.end(), List, F->getIterator());

  bool DroppedFlag = false;
  if (NamedMDNode *Flags = M.getModuleFlagsMetadata()) {
    SmallVector<Module::ModuleFlagEntry, 8> Entries;
    M.getModuleFlagsMetadata(Entries);
    if (any_of(Entries, [](const Module::ModuleFlagEntry &E) {
          return E.Key->getString() == "CG Profile";
        })) {
      Flags->clearOperands();
      for (const Module::ModuleFlagEntry &E : Entries)
        if (E.Key->getString() != "CG Profile")
          M.addModuleFlag(E.Behavior, E.Key->getString(), E.Val);
      DroppedFlag = true;
    }
  }

  ORE.emit([&] {
    OptimizationRemark R(DEBUG_TYPE, "Ordered", Anchor);
    R << "ordered " << ore::NV("Functions", unsigned(Ordered.size()))
      << " functions: ";
    for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
      const layout::GroupSummary &S = Layout.Groups[G];
      R << ore::NV(layout::getLayoutGroupName(layout::LayoutGroup(G)),
                   unsigned(S.NumNodes))
        << " " << layout::getLayoutGroupName(layout::LayoutGroup(G))
        << (G + 1 < layout::NumLayoutGroups ? ", " : "");
    }
    R << " (cold code stays last, in module order)";
    if (DroppedFlag)
      R << "; removed the 'CG Profile' module flag so that the linker's "
           "call-graph sort keeps this order";
    return R;
  });
  if (!OrderOutput.empty())
    writeOrderFile(M, Ordered, OrderOutput);
  PreservedAnalyses PA = PreservedAnalyses::none();
  return PA;
}

//===- CallGraphDump.cpp - Print a call graph -----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/CallGraphDump.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;
using layout::CallGraph;
using layout::Edge;

std::string kiln::getDisplayName(StringRef Key, StringRef Origin,
                                 const CallGraphDumpOptions &Opts) {
  // A static function's key is "<object>:<name>" with Origin == <object>.
  StringRef Name = Key;
  bool IsLocal = !Origin.empty() && Key.starts_with(Origin) &&
                 Key.drop_front(Origin.size()).starts_with(":");
  if (IsLocal)
    Name = Key.drop_front(Origin.size() + 1);
  if (Opts.StripLeadingUnderscore)
    Name.consume_front("_");
  std::string Display = Name.str();
  if (Opts.Demangle) {
    std::string Demangled = llvm::demangle(Name);
    if (Demangled != Name)
      Display = std::move(Demangled);
  }
  if (IsLocal)
    Display += (" [" + Origin + "]").str();
  return Display;
}

static std::vector<Edge> selectEdges(const CallGraph &G,
                                     const CallGraphDumpOptions &Opts) {
  std::vector<Edge> Edges = G.getWeightedEdges();
  llvm::erase_if(Edges, [&](const Edge &E) { return E.Count < Opts.MinCount; });
  llvm::sort(Edges, [&](const Edge &A, const Edge &B) {
    if (A.Count != B.Count)
      return A.Count > B.Count;
    StringRef AC = G.getNode(A.Caller).Name;
    StringRef BC = G.getNode(B.Caller).Name;
    if (AC != BC)
      return AC < BC;
    return G.getNode(A.Callee).Name < G.getNode(B.Callee).Name;
  });
  if (Opts.Top && Edges.size() > Opts.Top)
    Edges.resize(Opts.Top);
  return Edges;
}

static void printText(const CallGraph &G, ArrayRef<Edge> Edges,
                      const CallGraphDumpOptions &Opts, raw_ostream &OS) {
  auto Name = [&](layout::NodeId N) {
    return getDisplayName(G.getNode(N).Name, G.getNode(N).Origin, Opts);
  };
  OS << "# kiln callgraph: " << G.getNumNodes() << " functions, "
     << G.getWeightedEdges().size() << " edges, " << Edges.size() << " shown\n";
  OS << "#        count  caller -> callee\n";
  for (const Edge &E : Edges)
    OS << format("%14" PRIu64, E.Count) << "  " << Name(E.Caller) << " -> "
       << Name(E.Callee) << '\n';
}

static void printJSON(const CallGraph &G, ArrayRef<Edge> Edges,
                      const CallGraphDumpOptions &Opts, raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/2);
  auto Function = [&](layout::NodeId N) {
    const layout::Node &Node = G.getNode(N);
    J.objectBegin();
    J.attribute("key", Node.Name);
    J.attribute("name", getDisplayName(Node.Name, Node.Origin, Opts));
    if (!Node.Origin.empty())
      J.attribute("origin", Node.Origin);
    if (Node.Size)
      J.attribute("size", Node.Size);
    J.objectEnd();
  };
  J.objectBegin();
  J.attribute("functions", uint64_t(G.getNumNodes()));
  J.attributeArray("scenarios", [&] {
    for (const layout::Scenario &S : G.getScenarios())
      J.object([&] {
        J.attribute("name", S.Name);
        J.attribute("kind", layout::getScenarioKindName(S.Kind));
        J.attribute("weight", S.Weight);
      });
  });
  J.attributeArray("edges", [&] {
    for (const Edge &E : Edges) {
      J.objectBegin();
      J.attribute("count", E.Count);
      J.attributeBegin("caller");
      Function(E.Caller);
      J.attributeEnd();
      J.attributeBegin("callee");
      Function(E.Callee);
      J.attributeEnd();
      J.objectEnd();
    }
  });
  J.objectEnd();
  OS << '\n';
}

static void printDOT(const CallGraph &G, ArrayRef<Edge> Edges,
                     const CallGraphDumpOptions &Opts, raw_ostream &OS) {
  OS << "digraph callgraph {\n  node [shape=box];\n";
  // Only the nodes the selected edges touch, in NodeId order.
  std::vector<layout::NodeId> Nodes;
  for (const Edge &E : Edges) {
    Nodes.push_back(E.Caller);
    Nodes.push_back(E.Callee);
  }
  llvm::sort(Nodes);
  Nodes.erase(llvm::unique(Nodes), Nodes.end());
  for (layout::NodeId N : Nodes) {
    OS << "  n" << N << " [label=\"";
    OS.write_escaped(
        getDisplayName(G.getNode(N).Name, G.getNode(N).Origin, Opts));
    OS << "\"];\n";
  }
  for (const Edge &E : Edges)
    OS << "  n" << E.Caller << " -> n" << E.Callee << " [label=\"" << E.Count
       << "\"];\n";
  OS << "}\n";
}

void kiln::dumpCallGraph(const CallGraph &G, const CallGraphDumpOptions &Opts,
                         raw_ostream &OS) {
  std::vector<Edge> Edges = selectEdges(G, Opts);
  switch (Opts.Format) {
  case DumpFormat::Text:
    return printText(G, Edges, Opts, OS);
  case DumpFormat::JSON:
    return printJSON(G, Edges, Opts, OS);
  case DumpFormat::DOT:
    return printDOT(G, Edges, Opts, OS);
  }
}

//===- OrderFile.cpp - Ordering files for each linker ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderFile.h"

#include "kiln/Order/LinkerPolicy.h"
#include "kiln/Order/OrderFileText.h"

#include "kiln/Layout/NameIndex.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <numeric>

using namespace llvm;
using namespace kiln;

StringRef kiln::getOrderFileFormatName(OrderFileFormat Format) {
  switch (Format) {
  case OrderFileFormat::ELF:
    return "elf";
  case OrderFileFormat::COFF:
    return "coff";
  case OrderFileFormat::MachO:
    return "macho";
  }
  llvm_unreachable("unknown OrderFileFormat");
}

namespace {
/// Which functions' names a linker would match to more than one function:
/// every static counts, all definitions of a global count once (C++ inline
/// functions are defined in many objects but are one function). Computed
/// once for all functions, through an index of their names that stores no
/// string.
class NameUses {
public:
  explicit NameUses(const LinkerInputs &Inputs) {
    const size_t N = Inputs.Functions.size();
    // Per function, the first function of its name; per first function,
    // the counts of its name.
    std::vector<uint32_t> FirstOf(N);
    std::vector<uint32_t> Statics(N, 0);
    BitVector HasGlobal(N);
    layout::NameIndex ByName;
    ByName.reserve(N);
    auto NameOf = [&](uint32_t I) {
      return StringRef(Inputs.Functions[I].Name);
    };
    for (uint32_t I = 0; I < N; ++I) {
      const InputFunction &F = Inputs.Functions[I];
      uint32_t First =
          ByName.insert(F.Name, layout::NameIndex::hash(F.Name), I, NameOf)
              .first;
      FirstOf[I] = First;
      if (F.IsLocal)
        ++Statics[First];
      else
        HasGlobal.set(First);
    }
    Shared.resize(N);
    for (uint32_t I = 0; I < N; ++I)
      if (Statics[FirstOf[I]] + HasGlobal.test(FirstOf[I]) > 1)
        Shared.set(I);
  }
  /// \returns whether the name of function \p Index is shared.
  bool isShared(size_t Index) const { return Shared.test(Index); }

private:
  BitVector Shared;
};
} // namespace

// ld64.lld accepts `<object>.o:<symbol>` for plain objects only: it looks
// for ".o:" and compares the object's file name.
static std::optional<std::string> getMachOQualifier(const InputFunction &F) {
  StringRef Object = F.Object;
  if (Object.ends_with(")") || !Object.ends_with(".o"))
    return std::nullopt;
  return sys::path::filename(Object).str();
}

OrderFileReport kiln::writeOrderFile(const LinkerInputs &Inputs,
                                     ArrayRef<size_t> Order,
                                     const OrderFileOptions &Opts,
                                     raw_ostream &OS) {
  OrderFileReport Report;
  NameUses Uses(Inputs);
  BitVector Written(Inputs.Functions.size());
  StringMap<bool> WrittenLines;
  writeOrderFileHeader(Opts.Header, OS);
  for (const std::string &Name : Opts.LeadingSymbols)
    if (WrittenLines.try_emplace(Name, true).second)
      OS << Name << '\n';
  for (size_t Index : Order) {
    assert(Index < Inputs.Functions.size() && "order names no input function");
    if (Written.test(Index))
      continue;
    Written.set(Index);
    const InputFunction &F = Inputs.Functions[Index];
    StringRef Line = F.Name;
    std::string Qualified; // Holds Line when it is qualified.
    bool Shared = Uses.isShared(Index);

    if (Opts.Format == OrderFileFormat::COFF && !F.HasOwnSection) {
      Report.Skipped.push_back(
          {Index, "not in a COMDAT section of its own (compile with /Gy or "
                  "-ffunction-sections); lld-link cannot move it"});
      continue;
    }
    if (Opts.Format == OrderFileFormat::ELF && !isOrderableInELF(F)) {
      Report.Skipped.push_back(
          {Index, ("shares section " + F.Section +
                   " with other functions (compile with "
                   "-ffunction-sections); lld would move them all")
                      .str()});
      continue;
    }
    if (Opts.Format == OrderFileFormat::MachO && F.IsLocal && Shared) {
      if (std::optional<std::string> Qualifier = getMachOQualifier(F)) {
        Qualified = (*Qualifier + ":" + F.Name).str();
        Line = Qualified;
        Shared = false;
      }
    }
    if (Shared) {
      if (Opts.SkipSharedNames) {
        Report.Skipped.push_back(
            {Index, ("its name '" + F.Name +
                     "' also names other functions, which the linker "
                     "cannot tell apart")
                        .str()});
        continue;
      }
      Report.Shared.push_back(
          {Index, ("its name '" + F.Name +
                   "' also names other functions, which move with it")
                      .str()});
    }
    // Two same-named statics both written would repeat the line; only
    // shared names can, and the leading symbols.
    if ((Shared || !Opts.LeadingSymbols.empty()) &&
        !WrittenLines.try_emplace(Line, true).second)
      continue;
    OS << Line << '\n';
    ++Report.Written;
    Report.BytesWritten += F.Size;
  }
  return Report;
}

// Per function, the rank of its name among the inputs' names: equal names
// have equal ranks, and ranks order as the names do.
static std::vector<uint32_t> rankNames(const LinkerInputs &Inputs) {
  const std::vector<InputFunction> &Functions = Inputs.Functions;
  std::vector<uint32_t> ByName(Functions.size());
  std::iota(ByName.begin(), ByName.end(), 0);
  llvm::sort(ByName, [&](uint32_t A, uint32_t B) {
    return Functions[A].Name < Functions[B].Name;
  });
  std::vector<uint32_t> Rank(Functions.size());
  uint32_t Next = 0;
  for (size_t I = 0; I < ByName.size(); ++I) {
    if (I > 0 && Functions[ByName[I]].Name != Functions[ByName[I - 1]].Name)
      ++Next;
    Rank[ByName[I]] = Next;
  }
  return Rank;
}

OrderFileReport kiln::writeEdgeList(const LinkerInputs &Inputs,
                                    std::vector<NamedEdge> Edges,
                                    const OrderFileOptions &Opts,
                                    raw_ostream &OS) {
  OrderFileReport Report;
  NameUses Uses(Inputs);
  // Heaviest first, then by caller and callee name. The names' ranks
  // compare as the names do, equal names included, so the sort makes the
  // same comparisons' decisions (and order) as comparing the names would,
  // without comparing strings in each of millions of comparisons.
  std::vector<uint32_t> Rank = rankNames(Inputs);
  llvm::sort(Edges, [&](const NamedEdge &A, const NamedEdge &B) {
    if (A.Count != B.Count)
      return A.Count > B.Count;
    return std::make_pair(Rank[A.Caller], Rank[A.Callee]) <
           std::make_pair(Rank[B.Caller], Rank[B.Callee]);
  });
  writeOrderFileHeader(Opts.Header, OS);
  for (const NamedEdge &E : Edges) {
    const InputFunction &Caller = Inputs.Functions[E.Caller];
    const InputFunction &Callee = Inputs.Functions[E.Callee];
    if (Uses.isShared(E.Caller) || Uses.isShared(E.Callee)) {
      Report.Skipped.push_back(
          {Uses.isShared(E.Caller) ? E.Caller : E.Callee,
           "an edge endpoint's name also names other functions; lld would "
           "bind the edge to the first of them"});
      continue;
    }
    OS << Caller.Name << ' ' << Callee.Name << ' ' << E.Count << '\n';
    ++Report.Written;
  }
  return Report;
}

//===- OrderFile.cpp - Ordering files for each linker ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderFile.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/CachedHashString.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

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
/// once for all functions, with one hash-table insertion each and the
/// table's keys pointing into the inputs' names.
class NameUses {
public:
  explicit NameUses(const LinkerInputs &Inputs) {
    struct Entry {
      unsigned Statics = 0;
      bool HasGlobal = false;
    };
    std::vector<Entry> Entries;
    std::vector<uint32_t> EntryOf;
    EntryOf.reserve(Inputs.Functions.size());
    DenseMap<CachedHashStringRef, uint32_t> EntryByName(
        unsigned(Inputs.Functions.size()));
    for (const InputFunction &F : Inputs.Functions) {
      auto [It, Inserted] = EntryByName.try_emplace(CachedHashStringRef(F.Name),
                                                    uint32_t(Entries.size()));
      if (Inserted)
        Entries.emplace_back();
      EntryOf.push_back(It->second);
      Entry &E = Entries[It->second];
      if (F.IsLocal)
        ++E.Statics;
      else
        E.HasGlobal = true;
    }
    Shared.resize(Inputs.Functions.size());
    for (size_t I = 0; I < EntryOf.size(); ++I)
      if (Entries[EntryOf[I]].Statics + Entries[EntryOf[I]].HasGlobal > 1)
        Shared.set(I);
  }
  /// \returns whether the name of function \p Index is shared.
  bool isShared(size_t Index) const { return Shared.test(Index); }

private:
  BitVector Shared;
};
} // namespace

static void writeHeader(const OrderFileOptions &Opts, raw_ostream &OS) {
  for (const std::string &Line : Opts.Header)
    OS << "# " << Line << '\n';
}

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
  writeHeader(Opts, OS);
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
    if (Opts.Format == OrderFileFormat::ELF && !F.HasOwnSection) {
      Report.Skipped.push_back(
          {Index, "shares section " + F.Section +
                      " with other functions (compile with "
                      "-ffunction-sections); lld would move them all"});
      continue;
    }
    if (Opts.Format == OrderFileFormat::MachO && F.IsLocal && Shared) {
      if (std::optional<std::string> Qualifier = getMachOQualifier(F)) {
        Qualified = *Qualifier + ":" + F.Name;
        Line = Qualified;
        Shared = false;
      }
    }
    if (Shared) {
      if (Opts.SkipSharedNames) {
        Report.Skipped.push_back(
            {Index, "its name '" + F.Name +
                        "' also names other functions, which the linker "
                        "cannot tell apart"});
        continue;
      }
      Report.Shared.push_back(
          {Index, "its name '" + F.Name +
                      "' also names other functions, which move with it"});
    }
    // Two same-named statics both written would repeat the line; only
    // shared names can.
    if (Shared && !WrittenLines.try_emplace(Line, true).second)
      continue;
    OS << Line << '\n';
    ++Report.Written;
    Report.BytesWritten += F.Size;
  }
  return Report;
}

OrderFileReport kiln::writeEdgeList(const LinkerInputs &Inputs,
                                    ArrayRef<NamedEdge> Edges,
                                    const OrderFileOptions &Opts,
                                    raw_ostream &OS) {
  OrderFileReport Report;
  NameUses Uses(Inputs);
  std::vector<NamedEdge> Sorted(Edges.begin(), Edges.end());
  llvm::sort(Sorted, [&](const NamedEdge &A, const NamedEdge &B) {
    if (A.Count != B.Count)
      return A.Count > B.Count;
    return std::tie(Inputs.Functions[A.Caller].Name,
                    Inputs.Functions[A.Callee].Name) <
           std::tie(Inputs.Functions[B.Caller].Name,
                    Inputs.Functions[B.Callee].Name);
  });
  writeHeader(Opts, OS);
  for (const NamedEdge &E : Sorted) {
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

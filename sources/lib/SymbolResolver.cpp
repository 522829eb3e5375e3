//===- SymbolResolver.cpp - Profile names to symbols ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/SymbolResolver.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace kiln;

namespace {
/// A PGOName that points into the name it was split from: resolving a
/// name allocates nothing.
struct PGONameRef {
  StringRef SourceFile;
  StringRef Function;
  bool isLocal() const { return !SourceFile.empty(); }
};
} // namespace

static PGONameRef splitPGOName(StringRef Name) {
  // IR PGO: "<file>;<name>". Function names never contain ';'.
  if (size_t Semi = Name.rfind(';'); Semi != StringRef::npos && Semi > 0)
    return {Name.take_front(Semi), Name.drop_front(Semi + 1)};
  // Front-end PGO: "<file>:<name>". Objective-C methods contain ':' but
  // start with "-[" or "+[" and are global.
  bool IsObjCMethod = Name.starts_with("-[") || Name.starts_with("+[");
  if (size_t Colon = Name.rfind(':'); !IsObjCMethod &&
                                      Colon != StringRef::npos && Colon > 0 &&
                                      Colon + 1 < Name.size())
    return {Name.take_front(Colon), Name.drop_front(Colon + 1)};
  return {StringRef(), Name};
}

PGOName kiln::parsePGOName(StringRef Name) {
  PGONameRef Split = splitPGOName(Name);
  PGOName Result;
  Result.SourceFile = Split.SourceFile.str();
  Result.Function = Split.Function.str();
  return Result;
}

// Drops ".<Marker><digits>" and anything after it.
static StringRef dropNumberedSuffix(StringRef Name, StringRef Marker) {
  size_t Pos = Name.find(Marker);
  if (Pos == StringRef::npos || Pos == 0)
    return Name;
  StringRef Digits = Name.drop_front(Pos + Marker.size());
  Digits = Digits.take_while([](char C) { return isDigit(C); });
  return Digits.empty() ? Name : Name.take_front(Pos);
}

StringRef kiln::getBaseName(StringRef Symbol, ObjectFormat Format) {
  if (Format == ObjectFormat::MachO)
    Symbol.consume_front("_");
  // Both suffixes start with a dot; most names have none.
  if (!Symbol.contains('.'))
    return Symbol;
  Symbol = dropNumberedSuffix(Symbol, ".llvm.");
  Symbol = dropNumberedSuffix(Symbol, ".__uniq.");
  return Symbol;
}

SymbolResolver::SymbolResolver(const LinkerInputs &Inputs) : Inputs(Inputs) {
  assert(Inputs.Functions.size() < None && "too many functions");
  const uint32_t NumFunctions = uint32_t(Inputs.Functions.size());
  NextSameBase.assign(NumFunctions, None);
  LastSameBase.assign(NumFunctions, None);
  ByBaseName.reserve(NumFunctions);
  auto NameOf = [&](uint32_t I) { return getBaseNameOf(I); };
  for (uint32_t I = 0; I < NumFunctions; ++I) {
    StringRef Base = getBaseNameOf(I);
    auto [First, Inserted] =
        ByBaseName.insert(Base, layout::NameIndex::hash(Base), I, NameOf);
    if (!Inserted)
      NextSameBase[LastSameBase[First]] = I;
    LastSameBase[First] = I;
  }
  std::vector<uint32_t>().swap(LastSameBase);
}

StringRef SymbolResolver::getBaseNameOf(uint32_t Index) const {
  return getBaseName(Inputs.Functions[Index].Name, Inputs.Format);
}

static StringRef getStem(StringRef Path) {
  return sys::path::stem(sys::path::filename(Path));
}

// The object of an archive member "lib.a(member.o)" is the member.
static StringRef getObjectStem(StringRef Object) {
  if (Object.ends_with(")"))
    if (size_t Open = Object.rfind('('); Open != StringRef::npos)
      Object = Object.slice(Open + 1, Object.size() - 1);
  return getStem(Object);
}

/// \returns true if \p F is known to come from \p SourceFile: the object
/// names its source file (compare whole paths, else file names), or, when it
/// does not, the object's file name has the source file's stem.
static bool comesFrom(const InputFunction &F, StringRef SourceFile) {
  if (!F.SourceFile.empty())
    return F.SourceFile == SourceFile ||
           sys::path::filename(F.SourceFile) == sys::path::filename(SourceFile);
  return getObjectStem(F.Object) == getStem(SourceFile);
}

Resolution SymbolResolver::resolve(StringRef ProfileName) const {
  PGONameRef Name = splitPGOName(ProfileName);
  Resolution R;
  StringRef Base = getBaseName(Name.Function, ObjectFormat::ELF);
  const uint32_t First =
      ByBaseName.find(Base, layout::NameIndex::hash(Base),
                      [&](uint32_t I) { return getBaseNameOf(I); });
  if (First == layout::NameIndex::NotFound) {
    R.Reason = ("no input defines a function named '" + Name.Function +
                "' (inlined into all its callers, or discarded)")
                   .str();
    return R;
  }
  auto BindTo = [&](size_t Index, std::string Reason) {
    R.Status = Resolution::Bound;
    R.Function = Index;
    R.Reason = std::move(Reason);
    return R;
  };
  auto Ambiguous = [&](std::vector<size_t> Which, std::string Reason) {
    R.Status = Resolution::Ambiguous;
    R.Candidates = std::move(Which);
    R.Reason = std::move(Reason);
    return R;
  };

  if (!Name.isLocal()) {
    // A global: every definition of it is the same function (C++ inline
    // functions are defined in many objects; the linker keeps one).
    for (uint32_t I = First; I != None; I = NextSameBase[I])
      if (!Inputs.Functions[I].IsLocal)
        return BindTo(I, "global symbol");
  }
  // Only what follows needs the candidates as a list.
  std::vector<size_t> Candidates;
  for (uint32_t I = First; I != None; I = NextSameBase[I])
    Candidates.push_back(I);
  if (!Name.isLocal()) {
    // LTO may have internalized it: then it must be the only one.
    if (Candidates.size() == 1)
      return BindTo(Candidates.front(), "global made local (internalized)");
    return Ambiguous(Candidates, "global function is local in several "
                                 "inputs (internalized copies)");
  }

  std::vector<size_t> FromFile;
  for (size_t I : Candidates)
    if (comesFrom(Inputs.Functions[I], Name.SourceFile))
      FromFile.push_back(I);
  if (FromFile.size() == 1)
    return BindTo(FromFile.front(),
                  ("static function of " + Name.SourceFile).str());
  if (FromFile.size() > 1)
    return Ambiguous(FromFile, ("several functions named '" + Name.Function +
                                "' come from " + Name.SourceFile)
                                   .str());
  if (Candidates.size() == 1)
    return BindTo(Candidates.front(),
                  ("the only function named '" + Name.Function +
                   "' (its source file is unknown)")
                      .str());
  return Ambiguous(Candidates,
                   (Twine(Candidates.size()) + " functions are named '" +
                    Name.Function + "' and none is known to come from " +
                    Name.SourceFile)
                       .str());
}

//===- LinkerInputs.cpp - Functions and call graphs of objects ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The three encodings of LLVM's call-graph profile, as lld reads them:
///  - ELF: a SHT_LLVM_CALL_GRAPH_PROFILE section of 8-byte weights and, in
///    the relocation section that applies to it, two relocations per entry
///    whose symbols are the caller and the callee;
///  - COFF: `.llvm.call-graph-profile`, entries {u32 from, u32 to, u64 count}
///    with from/to indices into the COFF symbol table;
///  - Mach-O: `__LLVM,__cg_profile`, the same entries over the nlist table.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/LinkerInputs.h"

#include "CrashGuard.h"
#include "kiln/Support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/Archive.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/COFF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>
#include <map>

using namespace llvm;
using namespace llvm::object;
using namespace kiln;

StringRef kiln::getObjectFormatName(ObjectFormat Format) {
  switch (Format) {
  case ObjectFormat::Unknown:
    return "unknown";
  case ObjectFormat::ELF:
    return "ELF";
  case ObjectFormat::COFF:
    return "COFF";
  case ObjectFormat::MachO:
    return "Mach-O";
  }
  llvm_unreachable("unknown ObjectFormat");
}

static ObjectFormat getFormat(const ObjectFile &Obj) {
  if (isa<ELFObjectFileBase>(Obj))
    return ObjectFormat::ELF;
  if (isa<COFFObjectFile>(Obj))
    return ObjectFormat::COFF;
  if (isa<MachOObjectFile>(Obj))
    return ObjectFormat::MachO;
  return ObjectFormat::Unknown;
}

static Error inputError(StringRef Where, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Where + ": " + Message);
}

namespace {
/// Reads one native object into a LinkerInputs.
class ObjectReader {
public:
  ObjectReader(const ObjectFile &Obj, StringRef Where, LinkerInputs &Inputs)
      : Obj(Obj), Where(Inputs.save(Where)), Inputs(Inputs) {}
  Error read();

private:
  Error readFunctions();
  void computeMissingSizes();
  /// \returns the contents of the call-graph section \p Sec, whose size
  /// must be a multiple of \p EntrySize, and counts the input as having one.
  Expected<StringRef> readCallGraphSection(const SectionRef &Sec,
                                           unsigned EntrySize);
  Error readELFCallGraph();
  void readELFLoadRoots();
  Error readIndexedCallGraph(StringRef SectionName, StringRef Segment);
  Expected<InputCallEdge> makeEdge(const SymbolRef &From, const SymbolRef &To,
                                   uint64_t Count);
  Expected<SymbolRef> getSymbolByIndex(uint32_t Index);

  const ObjectFile &Obj;
  StringRef Where; ///< Saved in Inputs: functions point to it.
  LinkerInputs &Inputs;
  /// Defined function symbols of this object -> index in Inputs.Functions.
  std::map<DataRefImpl, size_t> FunctionIndex;
  /// Per function of this object: its index in Inputs.Functions, the index
  /// of its section (COFF names every function section ".text"), value.
  struct Placement {
    size_t Function;
    uint64_t Section;
    uint64_t Value;
  };
  std::vector<Placement> Placements;
  size_t FirstFunction = 0;
};
} // namespace

Error ObjectReader::read() {
  ObjectFormat Format = getFormat(Obj);
  if (Format == ObjectFormat::Unknown)
    return inputError(Where, "unsupported object file format " +
                                 Obj.getFileFormatName());
  if (Inputs.Format != ObjectFormat::Unknown && Inputs.Format != Format)
    return inputError(Where, "is " + getObjectFormatName(Format) +
                                 ", but earlier inputs are " +
                                 getObjectFormatName(Inputs.Format));
  Inputs.Format = Format;
  ++Inputs.NumObjects;
  if (Obj.isRelocatableObject())
    ++Inputs.NumRelocatable;
  FirstFunction = Inputs.Functions.size();
  if (Error E = readFunctions())
    return E;
  if (Format == ObjectFormat::ELF) {
    if (Obj.isRelocatableObject())
      readELFLoadRoots();
    return readELFCallGraph();
  }
  if (Format == ObjectFormat::COFF)
    return readIndexedCallGraph(".llvm.call-graph-profile", "");
  return readIndexedCallGraph("__cg_profile", "__LLVM");
}

StringRef kiln::getSplitParentName(StringRef SymbolName) {
  StringRef Parent = SymbolName;
  size_t Dot = Parent.rfind('.');
  bool Numbered = Dot != StringRef::npos && Dot + 1 < Parent.size() &&
                  all_of(Parent.substr(Dot + 1), isDigit);
  if (Numbered) {
    Parent = Parent.take_front(Dot);
    // `.__part.<n>`: a cluster of LLVM's basic-block sections (the n-th
    // line of the profile).
    if (StringRef Base = Parent; Base.consume_back(".__part"))
      return Base;
    // `.cold.<n>`: BOLT numbers its fragments.
  } else if (StringRef Base = Parent; Base.consume_back(".eh")) {
    // `.eh`: the landing pads basic-block sections moved out of clusters.
    return Base;
  }
  // `.cold`: the machine function splitter, basic-block sections, GCC.
  if (!Parent.consume_back(".cold"))
    return "";
  return Parent;
}

Error ObjectReader::readFunctions() {
  // In ELF symbol tables an STT_FILE symbol precedes the local symbols of
  // its file, in objects and in linked binaries alike.
  StringRef CurrentFile; // Saved in Inputs.
  unsigned NumFiles = 0;
  for (const SymbolRef &Sym : Obj.symbols()) {
    Expected<uint32_t> Flags = Sym.getFlags();
    Expected<SymbolRef::Type> Type = Sym.getType();
    if (!Flags || !Type) {
      consumeError(Flags.takeError());
      consumeError(Type.takeError());
      return inputError(Where, "corrupt symbol table");
    }
    if (*Type == SymbolRef::ST_File && isa<ELFObjectFileBase>(Obj)) {
      if (Expected<StringRef> FileName = Sym.getName())
        CurrentFile = Inputs.save(*FileName);
      else
        consumeError(FileName.takeError());
      ++NumFiles;
      continue;
    }
    if (*Flags & SymbolRef::SF_Undefined)
      continue;
    // ELF split parts are untyped (STT_NOTYPE) symbols: looked at by name.
    bool MayBeSplitPart = *Type == SymbolRef::ST_Unknown &&
                          isa<ELFObjectFileBase>(Obj) &&
                          ELFSymbolRef(Sym).getSize() > 0;
    if (*Type != SymbolRef::ST_Function && !MayBeSplitPart)
      continue;
    Expected<StringRef> Name = Sym.getName();
    Expected<section_iterator> Section = Sym.getSection();
    if (!Name || !Section) {
      consumeError(Name.takeError());
      consumeError(Section.takeError());
      return inputError(Where, "corrupt symbol table");
    }
    if (Name->empty() || *Section == Obj.section_end())
      continue;
    StringRef SplitFrom;
    if (MayBeSplitPart) {
      SplitFrom = getSplitParentName(*Name);
      if (SplitFrom.empty() || !(*Section)->isText())
        continue;
    }
    // Mach-O C symbols start with '_'; others (ltmp0, L...) are
    // assembler-private labels, not functions.
    if (isa<MachOObjectFile>(Obj) && !Name->starts_with("_"))
      continue;
    InputFunction F;
    F.Name = Inputs.save(*Name);
    F.Object = Where;
    if (Expected<StringRef> SecName = (*Section)->getName())
      F.Section = Inputs.save(*SecName);
    else
      consumeError(SecName.takeError());
    F.SplitFrom = SplitFrom.str();
    F.IsLocal = !(*Flags & SymbolRef::SF_Global);
    if (F.IsLocal)
      F.SourceFile = CurrentFile;
    if (isa<ELFObjectFileBase>(Obj)) {
      F.Size = ELFSymbolRef(Sym).getSize();
      if (Obj.isRelocatableObject())
        F.SectionSize = (*Section)->getSize();
    }
    Expected<uint64_t> Value = Sym.getValue();
    if (!Value) {
      consumeError(Value.takeError());
      return inputError(Where, "corrupt symbol table");
    }
    Expected<uint64_t> Address = Sym.getAddress();
    if (!Address) {
      consumeError(Address.takeError());
      return inputError(Where, "corrupt symbol table");
    }
    F.Address = *Address;
    FunctionIndex[Sym.getRawDataRefImpl()] = Inputs.Functions.size();
    Placements.push_back(
        {Inputs.Functions.size(), (*Section)->getIndex(), *Value});
    Inputs.Functions.push_back(std::move(F));
  }
  computeMissingSizes();
  // A relocatable object is one translation unit: when it names one source
  // file, its global functions come from that file too. This is what binds
  // a profile's `file.c;helper` to ThinLTO's promoted `helper.llvm.<hash>`,
  // which is global in the backend's object (lld makes it local, after its
  // file symbol, only in the linked output).
  if (Obj.isRelocatableObject() && NumFiles == 1)
    for (size_t I = FirstFunction; I < Inputs.Functions.size(); ++I)
      if (Inputs.Functions[I].SourceFile.empty())
        Inputs.Functions[I].SourceFile = CurrentFile;

  // Which functions can be ordered on their own. A linked binary does not
  // say how its inputs were sectioned; its functions are taken as orderable.
  if (!Obj.isRelocatableObject()) {
    for (size_t I = FirstFunction; I < Inputs.Functions.size(); ++I)
      Inputs.Functions[I].HasOwnSection = true;
    return Error::success();
  }
  DenseMap<uint64_t, unsigned> FunctionsPerSection;
  for (const Placement &P : Placements)
    ++FunctionsPerSection[P.Section];
  for (const Placement &P : Placements) {
    InputFunction &F = Inputs.Functions[P.Function];
    bool Alone = FunctionsPerSection[P.Section] == 1;
    switch (Inputs.Format) {
    case ObjectFormat::ELF:
      F.HasOwnSection = Alone && F.Section != ".text";
      break;
    case ObjectFormat::COFF:
      // lld-link orders COMDAT sections only (checked below).
      F.HasOwnSection = Alone;
      break;
    case ObjectFormat::MachO:
      // Mach-O objects are split into subsections at symbols.
      F.HasOwnSection = true;
      break;
    case ObjectFormat::Unknown:
      break;
    }
  }
  if (const auto *COFF = dyn_cast<COFFObjectFile>(&Obj)) {
    // Without IMAGE_SCN_LNK_COMDAT a section cannot be reordered.
    for (const SymbolRef &Sym : Obj.symbols()) {
      auto It = FunctionIndex.find(Sym.getRawDataRefImpl());
      if (It == FunctionIndex.end())
        continue;
      Expected<section_iterator> Sec = Sym.getSection();
      if (!Sec) {
        consumeError(Sec.takeError());
        continue;
      }
      const coff_section *Raw = COFF->getCOFFSection(**Sec);
      if (!(Raw->Characteristics & COFF::IMAGE_SCN_LNK_COMDAT))
        Inputs.Functions[It->second].HasOwnSection = false;
    }
  }
  return Error::success();
}

// COFF and Mach-O symbols have no size: a function extends to the next
// function symbol of its section, or to the section's end.
void ObjectReader::computeMissingSizes() {
  if (isa<ELFObjectFileBase>(Obj))
    return;
  DenseMap<uint64_t, uint64_t> SectionEnd;
  for (const SectionRef &Sec : Obj.sections())
    SectionEnd[Sec.getIndex()] = Sec.getAddress() + Sec.getSize();
  std::vector<Placement> Sorted = Placements;
  llvm::sort(Sorted, [](const Placement &A, const Placement &B) {
    return std::tie(A.Section, A.Value, A.Function) <
           std::tie(B.Section, B.Value, B.Function);
  });
  for (size_t I = 0; I < Sorted.size(); ++I) {
    uint64_t End = SectionEnd.lookup(Sorted[I].Section);
    if (I + 1 < Sorted.size() && Sorted[I + 1].Section == Sorted[I].Section)
      End = Sorted[I + 1].Value;
    Inputs.Functions[Sorted[I].Function].Size =
        End > Sorted[I].Value ? End - Sorted[I].Value : 0;
  }
}

Expected<InputCallEdge> ObjectReader::makeEdge(const SymbolRef &From,
                                               const SymbolRef &To,
                                               uint64_t Count) {
  InputCallEdge Edge;
  Edge.Count = Count;
  for (auto [Sym, Index, Name] : {std::tie(From, Edge.Caller, Edge.CallerName),
                                  std::tie(To, Edge.Callee, Edge.CalleeName)}) {
    Expected<StringRef> SymName = Sym.getName();
    if (!SymName)
      return SymName.takeError();
    Name = SymName->str();
    auto It = FunctionIndex.find(Sym.getRawDataRefImpl());
    if (It != FunctionIndex.end())
      Index = int64_t(It->second);
  }
  return Edge;
}

Expected<StringRef> ObjectReader::readCallGraphSection(const SectionRef &Sec,
                                                       unsigned EntrySize) {
  ++Inputs.NumInputsWithCallGraph;
  Expected<StringRef> Contents = Sec.getContents();
  if (!Contents)
    return inputError(Where, "cannot read the call graph profile: " +
                                 toString(Contents.takeError()));
  if (Contents->size() % EntrySize)
    return inputError(Where, "call graph profile section size " +
                                 Twine(Contents->size()) +
                                 " is not a multiple of " + Twine(EntrySize));
  return *Contents;
}

/// \returns whether \p Name is a section of pointers the loader or the C
/// runtime calls before `main`.
static bool isELFLoadTimeArray(StringRef Name) {
  for (StringRef Prefix : {".init_array", ".preinit_array", ".ctors"})
    if (Name == Prefix || Name.starts_with((Prefix + ".").str()))
      return true;
  return false;
}

// An entry of an init array is a relocation against the function's symbol,
// or (for a local function, as crtbegin's frame_dummy) against its section's
// symbol with the function's offset as addend. An entry that cannot be read
// is skipped: the function then only misses its place with startup code.
// LLVM's relocation iterators trust the section header: an entry size of 0
// divides by zero, a size past the end of the file reads past it (or, for a
// size in the terabytes, runs for hours), and an entry past the end or a
// symbol index past the symbol table is a fatal error. So every relocation
// section Kiln iterates is checked first, as ELFFile reads it.
template <class ELFT>
static Error checkELFRelocations(const ELFObjectFile<ELFT> &Obj,
                                 const SectionRef &Sec) {
  const ELFFile<ELFT> &File = Obj.getELFFile();
  const typename ELFT::Shdr *Header = Obj.getSection(Sec.getRawDataRefImpl());
  auto Fail = [&](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(),
                             "relocation section " + Twine(Sec.getIndex()) +
                                 ": " + Why);
  };
  Expected<const typename ELFT::Shdr *> SymbolTable =
      File.getSection(Header->sh_link);
  if (!SymbolTable)
    return Fail(toString(SymbolTable.takeError()));
  Expected<typename ELFT::SymRange> Symbols = File.symbols(*SymbolTable);
  if (!Symbols)
    return Fail(toString(Symbols.takeError()));
  const bool IsMips64EL = File.isMips64EL();
  auto CheckSymbols = [&](auto Entries) -> Error {
    if (!Entries)
      return Fail(toString(Entries.takeError()));
    for (const auto &Entry : *Entries)
      if (Entry.getSymbol(IsMips64EL) >= Symbols->size())
        return Fail("symbol index " + Twine(Entry.getSymbol(IsMips64EL)) +
                    " is out of range");
    return Error::success();
  };
  if (Header->sh_type == ELF::SHT_REL)
    return CheckSymbols(File.rels(*Header));
  if (Header->sh_type == ELF::SHT_RELA)
    return CheckSymbols(File.relas(*Header));
  // SHT_CREL: LLVM decodes (and checks) compact relocations when it opens
  // the object.
  return Error::success();
}

static Error checkELFRelocations(const ObjectFile &Obj, const SectionRef &Sec) {
  if (const auto *O = dyn_cast<ELF32LEObjectFile>(&Obj))
    return checkELFRelocations(*O, Sec);
  if (const auto *O = dyn_cast<ELF32BEObjectFile>(&Obj))
    return checkELFRelocations(*O, Sec);
  if (const auto *O = dyn_cast<ELF64LEObjectFile>(&Obj))
    return checkELFRelocations(*O, Sec);
  return checkELFRelocations(cast<ELF64BEObjectFile>(Obj), Sec);
}

void ObjectReader::readELFLoadRoots() {
  for (const SectionRef &RelSec : Obj.sections()) {
    Expected<section_iterator> Target = RelSec.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == Obj.section_end())
      continue;
    Expected<StringRef> TargetName = (*Target)->getName();
    if (!TargetName) {
      consumeError(TargetName.takeError());
      continue;
    }
    if (!isELFLoadTimeArray(*TargetName))
      continue;
    // Load-time roots are a refinement: a section that cannot be read is
    // left out, as the array's other unreadable parts are.
    if (Error E = checkELFRelocations(Obj, RelSec)) {
      consumeError(std::move(E));
      continue;
    }
    for (const RelocationRef &Reloc : RelSec.relocations()) {
      symbol_iterator Sym = Reloc.getSymbol();
      if (Sym == Obj.symbol_end())
        continue;
      auto It = FunctionIndex.find(Sym->getRawDataRefImpl());
      if (It != FunctionIndex.end()) {
        Inputs.Functions[It->second].RunsAtLoad = true;
        continue;
      }
      Expected<SymbolRef::Type> Type = Sym->getType();
      Expected<section_iterator> Sec = Sym->getSection();
      Expected<int64_t> Addend = ELFRelocationRef(Reloc).getAddend();
      if (!Type || !Sec || !Addend) {
        consumeError(Type.takeError());
        consumeError(Sec.takeError());
        consumeError(Addend.takeError());
        continue;
      }
      if (*Type != SymbolRef::ST_Debug || *Sec == Obj.section_end())
        continue;
      for (const Placement &P : Placements)
        if (P.Section == (*Sec)->getIndex() && int64_t(P.Value) == *Addend)
          Inputs.Functions[P.Function].RunsAtLoad = true;
    }
  }
}

Error ObjectReader::readELFCallGraph() {
  std::optional<SectionRef> CGSection;
  for (const SectionRef &Sec : Obj.sections())
    if (ELFSectionRef(Sec).getType() == ELF::SHT_LLVM_CALL_GRAPH_PROFILE)
      CGSection = Sec;
  if (!CGSection)
    return Error::success();
  Expected<StringRef> Contents = readCallGraphSection(*CGSection, 8);
  if (!Contents)
    return Contents.takeError();
  size_t NumEntries = Contents->size() / 8;
  std::vector<RelocationRef> Relocs;
  for (const SectionRef &Sec : Obj.sections()) {
    Expected<section_iterator> Target = Sec.getRelocatedSection();
    if (!Target) {
      consumeError(Target.takeError());
      continue;
    }
    if (*Target == Obj.section_end() || **Target != *CGSection)
      continue;
    if (Error E = checkELFRelocations(Obj, Sec))
      return inputError(Where, "call graph profile: " + toString(std::move(E)));
    append_range(Relocs, Sec.relocations());
  }
  if (Relocs.size() != 2 * NumEntries)
    return inputError(Where, "call graph profile has " + Twine(NumEntries) +
                                 " entries but " + Twine(Relocs.size()) +
                                 " relocations (expected two per entry)");
  for (size_t I = 0; I < NumEntries; ++I) {
    uint64_t Count = Obj.isLittleEndian()
                         ? support::endian::read64le(Contents->data() + 8 * I)
                         : support::endian::read64be(Contents->data() + 8 * I);
    symbol_iterator From = Relocs[2 * I].getSymbol();
    symbol_iterator To = Relocs[2 * I + 1].getSymbol();
    if (From == Obj.symbol_end() || To == Obj.symbol_end())
      return inputError(Where, "call graph profile entry " + Twine(I) +
                                   " has a relocation without a symbol");
    Expected<InputCallEdge> Edge = makeEdge(*From, *To, Count);
    if (!Edge)
      return inputError(Where, toString(Edge.takeError()));
    Inputs.Edges.push_back(std::move(*Edge));
  }
  return Error::success();
}

Expected<SymbolRef> ObjectReader::getSymbolByIndex(uint32_t Index) {
  if (const auto *MachO = dyn_cast<MachOObjectFile>(&Obj)) {
    if (Index >= MachO->getSymtabLoadCommand().nsyms)
      return inputError(Where,
                        "symbol index " + Twine(Index) + " is out of range");
    return *MachO->getSymbolByIndex(Index);
  }
  const auto *COFF = cast<COFFObjectFile>(&Obj);
  Expected<COFFSymbolRef> Sym = COFF->getSymbol(Index);
  if (!Sym)
    return inputError(Where,
                      "symbol index " + Twine(Index) + " is out of range");
  DataRefImpl Ref;
  Ref.p = reinterpret_cast<uintptr_t>(Sym->getRawPtr());
  return SymbolRef(Ref, &Obj);
}

Error ObjectReader::readIndexedCallGraph(StringRef SectionName,
                                         StringRef Segment) {
  std::optional<SectionRef> CGSection;
  for (const SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != SectionName)
      continue;
    if (const auto *MachO = dyn_cast<MachOObjectFile>(&Obj))
      if (MachO->getSectionFinalSegmentName(Sec.getRawDataRefImpl()) != Segment)
        continue;
    CGSection = Sec;
  }
  if (!CGSection)
    return Error::success();
  Expected<StringRef> Contents = readCallGraphSection(*CGSection, 16);
  if (!Contents)
    return Contents.takeError();
  for (size_t Offset = 0; Offset < Contents->size(); Offset += 16) {
    const char *Entry = Contents->data() + Offset;
    uint32_t From = support::endian::read32le(Entry);
    uint32_t To = support::endian::read32le(Entry + 4);
    uint64_t Count = support::endian::read64le(Entry + 8);
    Expected<SymbolRef> FromSym = getSymbolByIndex(From);
    if (!FromSym)
      return FromSym.takeError();
    Expected<SymbolRef> ToSym = getSymbolByIndex(To);
    if (!ToSym)
      return ToSym.takeError();
    Expected<InputCallEdge> Edge = makeEdge(*FromSym, *ToSym, Count);
    if (!Edge)
      return inputError(Where, toString(Edge.takeError()));
    Inputs.Edges.push_back(std::move(*Edge));
  }
  return Error::success();
}

/// \returns the bytes of member \p C of \p Ar. LLVM's archive reader checks
/// that a member ends within the archive only when it steps to the next
/// member, after the caller has read this one; so the bounds are checked
/// here, before anything reads the member.
static Expected<StringRef> getMemberBytes(const Archive &Ar,
                                          const Archive::Child &C) {
  Expected<StringRef> Bytes = C.getBuffer();
  if (!Bytes || Ar.isThin())
    return Bytes;
  StringRef Whole = Ar.getData();
  if (Bytes->begin() < Whole.begin() || Bytes->end() > Whole.end())
    return createStringError(inconvertibleErrorCode(),
                             "the member extends past the end of the archive");
  return Bytes;
}

/// Reads \p Bin; of an archive, only the members named \p OnlyMember (all
/// if it is empty).
static Error readBinary(Binary &Bin, StringRef Where, LinkerInputs &Inputs,
                        StringRef OnlyMember = "") {
  if (auto *Obj = dyn_cast<ObjectFile>(&Bin))
    return ObjectReader(*Obj, Where, Inputs).read();
  if (auto *Ar = dyn_cast<Archive>(&Bin)) {
    Error Err = Error::success();
    bool FoundMember = false;
    for (const Archive::Child &C : Ar->children(Err)) {
      Expected<StringRef> Member = C.getName();
      if (!Member)
        return inputError(Where, toString(Member.takeError()));
      if (!OnlyMember.empty()) {
        // Same-named members: the linker printed the name once and loaded
        // each it needed; read the first, as ld.lld's trace cannot say.
        if (*Member != OnlyMember || FoundMember)
          continue;
        FoundMember = true;
      }
      std::string MemberWhere = (Where + "(" + *Member + ")").str();
      if (Expected<StringRef> Bytes = getMemberBytes(*Ar, C); !Bytes) {
        consumeError(std::move(Err));
        return inputError(MemberWhere, toString(Bytes.takeError()));
      }
      Expected<std::unique_ptr<Binary>> Child = C.getAsBinary();
      if (!Child)
        return inputError(MemberWhere, toString(Child.takeError()));
      if (Error E = readBinary(**Child, MemberWhere, Inputs))
        return E;
    }
    if (Err)
      return inputError(Where, toString(std::move(Err)));
    if (!OnlyMember.empty() && !FoundMember)
      return inputError(Where, "has no member named '" + OnlyMember + "'");
    return Error::success();
  }
  if (Bin.isIR())
    return inputError(Where, "is LLVM bitcode, which has no call graph "
                             "profile before LTO");
  return inputError(Where, "is not an object file or archive");
}

static Error readLinkerInputUnguarded(StringRef Path, StringRef Member,
                                      LinkerInputs &Inputs) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/false,
                         /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, Buffer.getError().message());
  if (identify_magic((*Buffer)->getBuffer()) == file_magic::bitcode)
    return inputError(Path, "is LLVM bitcode, which has no call graph "
                            "profile before LTO; give the native objects, "
                            "or a profile and the linked binary");
  if (isAllNulBytes((*Buffer)->getBuffer()))
    return inputError(Path, AllNulBytesMessage);
  Expected<std::unique_ptr<Binary>> Bin =
      createBinary((*Buffer)->getMemBufferRef());
  if (!Bin)
    return inputError(Path, toString(Bin.takeError()));
  if (!Member.empty() && !isa<Archive>(**Bin))
    return inputError(Path, "is not an archive, so it has no member '" +
                                Member + "'");
  return readBinary(**Bin, Path, Inputs, Member);
}

static InputKind classifyMagic(StringRef Bytes) {
  if (isAllNulBytes(Bytes))
    return InputKind::Other;
  switch (identify_magic(Bytes)) {
  case file_magic::bitcode:
    return InputKind::Bitcode;
  case file_magic::archive:
    return InputKind::Archive;
  case file_magic::elf_relocatable:
  case file_magic::macho_object:
  case file_magic::coff_object:
  case file_magic::coff_cl_gl_object:
    return InputKind::Relocatable;
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
  case file_magic::macho_executable:
  case file_magic::macho_dynamically_linked_shared_lib:
  case file_magic::macho_dynamically_linked_shared_lib_stub:
  case file_magic::pecoff_executable:
  case file_magic::tapi_file:
  case file_magic::coff_import_library:
    return InputKind::Linked;
  default:
    return InputKind::Other;
  }
}

static Expected<InputKind> classifyLinkerInputUnguarded(StringRef Path,
                                                        StringRef Member) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/false,
                         /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return inputError(Path, Buffer.getError().message());
  InputKind Kind = classifyMagic((*Buffer)->getBuffer());
  if (Member.empty() || Kind != InputKind::Archive)
    return Kind;
  Expected<std::unique_ptr<Archive>> Ar =
      Archive::create((*Buffer)->getMemBufferRef());
  if (!Ar)
    return inputError(Path, toString(Ar.takeError()));
  Error Err = Error::success();
  for (const Archive::Child &C : (*Ar)->children(Err)) {
    Expected<StringRef> Name = C.getName();
    if (!Name) {
      consumeError(std::move(Err));
      return inputError(Path, toString(Name.takeError()));
    }
    if (*Name != Member)
      continue;
    Expected<StringRef> Bytes = getMemberBytes(**Ar, C);
    if (!Bytes) {
      consumeError(std::move(Err));
      return inputError((Path + "(" + Member + ")").str(),
                        toString(Bytes.takeError()));
    }
    consumeError(std::move(Err));
    return classifyMagic(*Bytes);
  }
  if (Err)
    return inputError(Path, toString(std::move(Err)));
  return inputError(Path, "has no member named '" + Member + "'");
}

Expected<InputKind> kiln::classifyLinkerInput(StringRef Path,
                                              StringRef Member) {
  return runGuarded([&] { return classifyLinkerInputUnguarded(Path, Member); },
                    [&]() -> Expected<InputKind> {
                      return inputError(
                          Path, "corrupt archive: LLVM's archive reader "
                                "failed on its contents");
                    });
}

Error kiln::readLinkerInput(StringRef Path, LinkerInputs &Inputs) {
  return readLinkerInputMember(Path, "", Inputs);
}

Error kiln::readLinkerInputMember(StringRef Path, StringRef Member,
                                  LinkerInputs &Inputs) {
  // The inputs are partially read after a crash; the caller does not use
  // them then.
  return runGuarded(
      [&] { return readLinkerInputUnguarded(Path, Member, Inputs); },
      [&] {
        return inputError(Path, "corrupt object file: LLVM's "
                                "object reader failed on its "
                                "contents");
      });
}

StringRef LinkerInputs::save(StringRef S) {
  if (S.empty())
    return StringRef();
  char *Copy = Strings->Allocate<char>(S.size());
  std::memcpy(Copy, S.data(), S.size());
  return StringRef(Copy, S.size());
}

//===- PrereadPlan.cpp - The startup range of a binary --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/PrereadPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace llvm::object;
using namespace kiln;

static Error prereadError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           (Path + ": " + Message).str());
}

uint64_t PrereadRange::getPages() const {
  if (!Length)
    return 0;
  uint64_t First = alignDown(VirtualAddress, PageSize);
  uint64_t End = alignTo(VirtualAddress + Length, PageSize);
  return (End - First) / PageSize;
}

namespace {
/// A function symbol of a linked binary.
struct BinarySymbol {
  uint64_t Address = 0;
  uint64_t Size = 0;
  StringRef Name;
  unsigned Section = 0;
};

/// A symbol's place in the file.
struct FileLocation {
  uint64_t FileOffset = 0;
  unsigned Section = 0;
};
} // namespace

static std::optional<uint64_t> getFileOffset(const ObjectFile &Obj,
                                             const SectionRef &Section,
                                             uint64_t Address) {
  if (Section.isVirtual() || Address < Section.getAddress() ||
      Address >= Section.getAddress() + Section.getSize())
    return std::nullopt;
  Expected<StringRef> Contents = Section.getContents();
  if (!Contents) {
    consumeError(Contents.takeError());
    return std::nullopt;
  }
  uint64_t SectionOffset = Contents->data() - Obj.getData().data();
  return SectionOffset + (Address - Section.getAddress());
}

/// Function symbols of \p Obj with sizes: the symbol's own (ELF), else up to
/// the next function or the end of its section.
static Expected<std::vector<BinarySymbol>> readFunctions(const ObjectFile &Obj,
                                                         StringRef Path) {
  std::vector<BinarySymbol> Functions;
  for (const SymbolRef &Sym : Obj.symbols()) {
    Expected<SymbolRef::Type> Type = Sym.getType();
    if (!Type) {
      consumeError(Type.takeError());
      continue;
    }
    if (*Type != SymbolRef::ST_Function)
      continue;
    Expected<StringRef> Name = Sym.getName();
    Expected<uint64_t> Address = Sym.getAddress();
    Expected<section_iterator> Section = Sym.getSection();
    if (!Name || !Address || !Section) {
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      consumeError(Section.takeError());
      return prereadError(Path, "unreadable symbol table");
    }
    if (*Section == Obj.section_end())
      continue;
    BinarySymbol F;
    F.Name = *Name;
    F.Address = *Address;
    F.Section = (*Section)->getIndex();
    if (isa<ELFObjectFileBase>(&Obj))
      F.Size = ELFSymbolRef(Sym).getSize();
    Functions.push_back(F);
  }
  llvm::sort(Functions, [](const BinarySymbol &A, const BinarySymbol &B) {
    return std::tie(A.Address, A.Name) < std::tie(B.Address, B.Name);
  });
  std::vector<uint64_t> SectionEnds(Obj.section_end()->getIndex() + 1, 0);
  for (const SectionRef &S : Obj.sections())
    if (S.getIndex() < SectionEnds.size())
      SectionEnds[S.getIndex()] = S.getAddress() + S.getSize();
  for (size_t I = 0; I < Functions.size(); ++I) {
    BinarySymbol &F = Functions[I];
    if (F.Size)
      continue;
    uint64_t End = F.Section < SectionEnds.size() ? SectionEnds[F.Section] : 0;
    for (size_t J = I + 1; J < Functions.size(); ++J)
      if (Functions[J].Section == F.Section &&
          Functions[J].Address > F.Address) {
        End = std::min(End, Functions[J].Address);
        break;
      }
    F.Size = End > F.Address ? End - F.Address : 0;
  }
  return Functions;
}

static Expected<PrereadRange>
findPrereadRangeUnguarded(StringRef Path, ArrayRef<std::string> StartupSymbols,
                          uint64_t PageSize) {
  Expected<OwningBinary<Binary>> Owning = createBinary(Path);
  if (!Owning)
    return prereadError(Path, toString(Owning.takeError()));
  const auto *Obj = dyn_cast<ObjectFile>(Owning->getBinary());
  if (!Obj || Obj->isRelocatableObject())
    return prereadError(Path, "is not a linked executable or library");
  Expected<std::vector<BinarySymbol>> Functions = readFunctions(*Obj, Path);
  if (!Functions)
    return Functions.takeError();
  if (Functions->empty())
    return prereadError(Path, "has no function symbols (stripped? link "
                              "without -s/--strip-all, or for lld-link "
                              "with /debug:symtab)");

  StringMap<std::optional<size_t>> ByName;
  for (size_t I = 0; I < Functions->size(); ++I) {
    auto [It, Inserted] = ByName.try_emplace((*Functions)[I].Name, I);
    if (!Inserted)
      It->second.reset(); // Two of that name: ambiguous.
  }

  PrereadRange Range;
  Range.Binary = Path.str();
  Range.Format = Obj->isELF()     ? "ELF"
                 : Obj->isCOFF()  ? "COFF"
                 : Obj->isMachO() ? "Mach-O"
                                  : "unknown";
  Range.PageSize = PageSize;
  Range.Requested = StartupSymbols.size();
  uint64_t Begin = UINT64_MAX, End = 0;
  unsigned BeginSection = 0;
  for (const std::string &Name : StartupSymbols) {
    auto It = ByName.find(Name);
    if (It == ByName.end() || !It->second) {
      Range.Missing.push_back(Name);
      continue;
    }
    const BinarySymbol &F = (*Functions)[*It->second];
    ++Range.Found;
    Range.FunctionBytes += F.Size;
    if (F.Address < Begin) {
      Begin = F.Address;
      BeginSection = F.Section;
    }
    End = std::max(End, F.Address + F.Size);
  }
  if (!Range.Found)
    return prereadError(Path, "none of the " + Twine(Range.Requested) +
                                  " startup functions is in its symbol table");
  Range.VirtualAddress = Begin;
  Range.Length = End - Begin;
  for (const SectionRef &S : Obj->sections())
    if (S.getIndex() == BeginSection)
      if (std::optional<uint64_t> Offset = getFileOffset(*Obj, S, Begin))
        Range.FileOffset = *Offset;
  return Range;
}

Expected<PrereadRange>
kiln::findPrereadRange(StringRef BinaryPath,
                       ArrayRef<std::string> StartupSymbols,
                       uint64_t PageSize) {
  std::optional<Expected<PrereadRange>> Result;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] {
        Result.emplace(
            findPrereadRangeUnguarded(BinaryPath, StartupSymbols, PageSize));
      }))
    return prereadError(BinaryPath, "corrupt binary: LLVM's object reader "
                                    "failed on its contents");
  return std::move(*Result);
}

void kiln::writePrereadPlanJSON(const PrereadRange &Range, raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("binary", Range.Binary);
    J.attribute("format", Range.Format);
    J.attribute("page_size", Range.PageSize);
    J.attribute("virtual_address", Range.VirtualAddress);
    J.attribute("file_offset", Range.FileOffset);
    J.attribute("length", Range.Length);
    J.attribute("pages", Range.getPages());
    J.attribute("function_bytes", Range.FunctionBytes);
    J.attribute("startup_functions", Range.Requested);
    J.attribute("found", Range.Found);
    J.attributeArray("missing", [&] {
      for (const std::string &Name : Range.Missing)
        J.value(Name);
    });
  });
  OS << '\n';
}

namespace {
/// Where the runtime helper's record is, read before the file is written.
struct RecordLocation {
  uint64_t FileOffset = 0;
  uint64_t Address = 0;
  bool LittleEndian = true;
};
} // namespace

/// The helper's record: 8 magic bytes, the signed distance from the record
/// to the range, the range's length (see lld-plugin/runtime/preread.c).
static constexpr size_t RecordSize = 24;

static Expected<std::optional<RecordLocation>> findRecord(StringRef Path) {
  Expected<OwningBinary<Binary>> Owning = createBinary(Path);
  if (!Owning)
    return prereadError(Path, toString(Owning.takeError()));
  const auto *Obj = dyn_cast<ObjectFile>(Owning->getBinary());
  if (!Obj)
    return prereadError(Path, "is not a linked executable or library");
  for (const SymbolRef &Sym : Obj->symbols()) {
    Expected<StringRef> Name = Sym.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    StringRef Plain = *Name;
    if (Obj->isMachO())
      Plain.consume_front("_");
    if (Plain != PrereadRecordSymbol)
      continue;
    if (Obj->isMachO())
      return prereadError(Path, "Mach-O binaries are code-signed: Kiln does "
                                "not patch the pre-read record after the "
                                "link; use the JSON plan");
    Expected<uint64_t> Address = Sym.getAddress();
    Expected<section_iterator> Section = Sym.getSection();
    if (!Address || !Section || *Section == Obj->section_end()) {
      if (!Address)
        consumeError(Address.takeError());
      if (!Section)
        consumeError(Section.takeError());
      return prereadError(Path, "the symbol " + PrereadRecordSymbol +
                                    " has no place in the file");
    }
    std::optional<uint64_t> Offset = getFileOffset(*Obj, **Section, *Address);
    if (!Offset || *Offset + RecordSize > Obj->getData().size())
      return prereadError(Path, "the symbol " + PrereadRecordSymbol +
                                    " is not stored in the file");
    if (Obj->getData().substr(*Offset, PrereadRecordMagic.size()) !=
        PrereadRecordMagic)
      return prereadError(Path, "the symbol " + PrereadRecordSymbol +
                                    " is not Kiln's pre-read record (wrong "
                                    "magic bytes)");
    return RecordLocation{*Offset, *Address, Obj->isLittleEndian()};
  }
  return std::nullopt;
}

Expected<bool> kiln::recordPrereadRange(StringRef BinaryPath,
                                        const PrereadRange &Range) {
  Expected<std::optional<RecordLocation>> Where = findRecord(BinaryPath);
  if (!Where)
    return Where.takeError();
  if (!*Where)
    return false;
  const RecordLocation &Record = **Where;
  std::error_code EC;
  raw_fd_ostream OS(BinaryPath, EC, sys::fs::CD_OpenExisting);
  if (EC)
    return prereadError(BinaryPath, EC.message());
  OS.seek(Record.FileOffset + PrereadRecordMagic.size());
  int64_t Distance = int64_t(Range.VirtualAddress - Record.Address);
  llvm::endianness Order =
      Record.LittleEndian ? llvm::endianness::little : llvm::endianness::big;
  char Bytes[16];
  support::endian::write<int64_t>(Bytes, Distance, Order);
  support::endian::write<uint64_t>(Bytes + 8, Range.Length, Order);
  OS.write(Bytes, sizeof(Bytes));
  OS.close();
  if (OS.has_error())
    return prereadError(BinaryPath, OS.error().message());
  return true;
}

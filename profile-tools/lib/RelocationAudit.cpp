//===- RelocationAudit.cpp - Who owns a binary's relocations --------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// ELF: reads the section headers (sections name what a relocation patches
/// and classify what it points to), the data objects (.symtab, or .dynsym
/// when stripped), then every allocated relocation section: those are the
/// loader's. A relocation's target is known without the loader for relative
/// relocations (the addend, or for REL and RELR the word stored in the file)
/// and for absolute ones against a defined symbol (symbol + addend);
/// everything else is resolved by symbol at load time and is "other".
///
/// PE/COFF: the same over RVAs, from the base relocation table; every base
/// relocation adds the load delta to an address stored in the file.
/// Mach-O: rebases (opcode tables or chained fixups) are the relative
/// relocations, binds the symbolic ones.
///
/// Relocations are all read before any is classified: a target that is
/// itself patched holds an address, never a string.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/RelocationAudit.h"

#include "kiln/Support/InputFile.h"

#include "kiln/Support/ToolError.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/COFF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/MachO.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using namespace llvm::object;
using namespace kiln;
using namespace kiln::relocs;

//===----------------------------------------------------------------------===//
// The parts that need no file
//===----------------------------------------------------------------------===//

StringRef relocs::getPointerClassName(PointerClass Class) {
  switch (Class) {
  case PointerClass::String:
    return "string";
  case PointerClass::Function:
    return "function";
  case PointerClass::Data:
    return "data";
  case PointerClass::Other:
    return "other";
  }
  llvm_unreachable("unknown pointer class");
}

std::optional<PointerClass> relocs::parsePointerClass(StringRef Name) {
  for (unsigned I = 0; I < NumPointerClasses; ++I)
    if (Name == getPointerClassName(PointerClass(I)))
      return PointerClass(I);
  return std::nullopt;
}

uint64_t relocs::getTotal(const ClassCounts &Counts) {
  uint64_t Total = 0;
  for (uint64_t Count : Counts)
    Total += Count;
  return Total;
}

std::vector<uint64_t> relocs::decodeRelr(ArrayRef<uint64_t> Entries,
                                         unsigned WordSize) {
  assert((WordSize == 4 || WordSize == 8) && "RELR words are 4 or 8 bytes");
  const unsigned BitsPerEntry = 8 * WordSize;
  // Addresses wrap like the loader's arithmetic in the file's word size.
  const uint64_t AddressMask = WordSize == 8 ? ~uint64_t(0) : 0xffffffffu;
  std::vector<uint64_t> Addresses;
  uint64_t Base = 0;
  for (uint64_t Entry : Entries) {
    if ((Entry & 1) == 0) {
      Addresses.push_back(Entry);
      Base = (Entry + WordSize) & AddressMask;
      continue;
    }
    // Bit 0 only marks the bitmap; bit I covers the word at Base + I - 1.
    for (unsigned Bit = 1; Bit < BitsPerEntry; ++Bit)
      if ((Entry >> Bit) & 1)
        Addresses.push_back((Base + uint64_t(Bit - 1) * WordSize) &
                            AddressMask);
    Base = (Base + uint64_t(BitsPerEntry - 1) * WordSize) & AddressMask;
  }
  return Addresses;
}

void AddressRangeIndex::add(uint64_t Start, uint64_t Size, uint32_t Id) {
  if (Size == 0)
    return;
  // A corrupt size must not wrap the range around to a small end.
  uint64_t End = Start + Size < Start ? UINT64_MAX : Start + Size;
  Ranges.push_back({Start, End, Id});
}

void AddressRangeIndex::finalize() {
  llvm::sort(Ranges, [](const Range &A, const Range &B) {
    return std::tie(A.Start, A.End, A.Id) < std::tie(B.Start, B.End, B.Id);
  });
  MaxEnd.resize(Ranges.size());
  uint64_t Max = 0;
  for (size_t I = 0; I < Ranges.size(); ++I) {
    Max = std::max(Max, Ranges[I].End);
    MaxEnd[I] = Max;
  }
}

std::optional<uint32_t> AddressRangeIndex::find(uint64_t Address) const {
  assert(MaxEnd.size() == Ranges.size() && "finalize() was not called");
  // Ranges starting at or before Address, nearest first; in a linked binary
  // the first one nearly always decides.
  size_t NumStartingBefore = llvm::upper_bound(Ranges, Address,
                                               [](uint64_t A, const Range &R) {
                                                 return A < R.Start;
                                               }) -
                             Ranges.begin();
  std::optional<uint32_t> Best;
  uint64_t BestSize = 0;
  for (size_t I = NumStartingBefore; I-- > 0;) {
    if (MaxEnd[I] <= Address)
      break; // No range at or before I reaches Address.
    const Range &R = Ranges[I];
    if (R.End <= Address)
      continue;
    uint64_t Size = R.End - R.Start;
    if (!Best || Size < BestSize || (Size == BestSize && R.Id < *Best)) {
      Best = R.Id;
      BestSize = Size;
    }
  }
  return Best;
}

bool relocs::looksLikeCString(ArrayRef<uint8_t> Bytes, bool AllowEmpty) {
  // Longer "strings" are more likely tables that happen to end in a zero.
  constexpr size_t MaxStringLength = 4096;
  ArrayRef<uint8_t> Window = Bytes.take_front(MaxStringLength);
  const uint8_t *Nul = llvm::find(Window, 0);
  if (Nul == Window.end())
    return false;
  size_t Length = Nul - Window.begin();
  if (Length == 0)
    return AllowEmpty;
  for (uint8_t C : Window.take_front(Length)) {
    bool IsWhitespaceOrEscape = (C >= '\t' && C <= '\r') || C == 0x1b;
    if ((C < 0x20 && !IsWhitespaceOrEscape) || C == 0x7f)
      return false;
  }
  const UTF8 *Begin = Window.data();
  return isLegalUTF8String(&Begin, Begin + Length);
}

StrtabVerdict relocs::getStrtabVerdict(const AuditedObject &Object) {
  uint64_t Total = getTotal(Object.Counts);
  if (Total == 0 || Object.Counts[unsigned(PointerClass::String)] != Total)
    return StrtabVerdict::NotAllStrings;
  // Other modules may read an exported table by symbol: changing its layout
  // changes the library's interface.
  if (Object.Binding == ObjectBinding::Exported)
    return StrtabVerdict::Exported;
  // Other translation units index it; all of them must change together.
  if (Object.Binding == ObjectBinding::Hidden)
    return StrtabVerdict::Hidden;
  // The program may store other pointers into a writable table.
  if (!Object.ReadOnlyAfterRelocation)
    return StrtabVerdict::Writable;
  return StrtabVerdict::Removable;
}

StringRef relocs::getStrtabVerdictText(StrtabVerdict Verdict) {
  switch (Verdict) {
  case StrtabVerdict::NotAllStrings:
    return "";
  case StrtabVerdict::Removable:
    return "candidate: the binary cannot show whether a use escapes";
  case StrtabVerdict::Exported:
    return "exported: interface change";
  case StrtabVerdict::Hidden:
    return "global: cross-TU change";
  case StrtabVerdict::Writable:
    return "writable: make it const";
  }
  llvm_unreachable("unknown verdict");
}

//===----------------------------------------------------------------------===//
// What the ELF and COFF readers share
//===----------------------------------------------------------------------===//

namespace {
/// A section of the loaded image, as the audit needs it.
struct SectionInfo {
  StringRef Name;
  uint64_t Address = 0; ///< ELF: virtual address; COFF: RVA.
  uint64_t Size = 0;
  /// The bytes the file holds for it: empty for .bss (or a corrupt file
  /// offset), shorter than Size when the rest is zero-filled.
  ArrayRef<uint8_t> Bytes;
  bool IsNoBits = false;
  bool Executable = false;
  bool Writable = false;
  /// ELF's SHF_MERGE | SHF_STRINGS: the compiler's mark for C strings (lld
  /// keeps it on an output section that also holds other read-only data).
  bool MergedStrings = false;
};

/// Sections and data objects by address, the classification of a target,
/// and the counts: everything but reading the file's own structures.
class AuditBuilder {
public:
  /// Adds section number Sections.size(); only \p Mapped sections are found
  /// by address.
  void addSection(const SectionInfo &S, bool Mapped) {
    if (Mapped)
      SectionIndex.add(S.Address, S.Size, Sections.size());
    Sections.push_back(S);
  }
  const SectionInfo &getSection(size_t Index) const { return Sections[Index]; }
  size_t getNumSections() const { return Sections.size(); }

  void addObject(AuditedObject O) { Objects.push_back(std::move(O)); }

  /// Indexes the sections and objects; call once, after adding them all.
  void finalize();

  AuditedObject *findObject(uint64_t Address) {
    std::optional<uint32_t> Id = ObjectIndex.find(Address);
    return Id ? &Objects[*Id] : nullptr;
  }

  /// \returns the \p Size byte word stored at \p Address in the file (0
  /// where the image is zero-filled), or nothing if no section holds it.
  std::optional<uint64_t> readWord(uint64_t Address, unsigned Size,
                                   llvm::endianness Endian) const;

  /// Tells classifyTarget() where the relocations patch, \p WordSize bytes
  /// each; call before classifying.
  void setRelocationSites(std::vector<uint64_t> Sites, unsigned WordSize);

  /// \returns the class of a pointer to \p Target.
  PointerClass classifyTarget(uint64_t Target) const;

  /// Counts a relocation of type \p TypeName patching \p Offset.
  void record(uint64_t Offset, StringRef TypeName, PointerClass Class,
              AuditedObject *Patched);

  /// \returns the audit, with the counts and objects moved in.
  RelocationAudit finish();

  RelocationAudit Result;

private:
  std::vector<SectionInfo> Sections;
  AddressRangeIndex SectionIndex;
  std::vector<AuditedObject> Objects;
  AddressRangeIndex ObjectIndex;
  std::vector<uint64_t> RelocationSites; ///< Sorted.
  unsigned SiteSize = 8;
  std::map<std::string, ClassCounts> ByType;
  std::map<std::string, ClassCounts> BySection;
};
} // namespace

void AuditBuilder::finalize() {
  SectionIndex.finalize();
  // Aliases (same address and size) are one object: keep the most visible
  // name, since that decides what may change, then the first by name.
  llvm::sort(Objects, [](const AuditedObject &A, const AuditedObject &B) {
    return std::make_tuple(A.Address, A.Size, -int(A.Binding),
                           StringRef(A.Name)) <
           std::make_tuple(B.Address, B.Size, -int(B.Binding),
                           StringRef(B.Name));
  });
  Objects.erase(
      llvm::unique(Objects,
                   [](const AuditedObject &A, const AuditedObject &B) {
                     return A.Address == B.Address && A.Size == B.Size;
                   }),
      Objects.end());
  for (size_t I = 0; I < Objects.size(); ++I)
    ObjectIndex.add(Objects[I].Address, Objects[I].Size, I);
  ObjectIndex.finalize();
}

std::optional<uint64_t> AuditBuilder::readWord(uint64_t Address, unsigned Size,
                                               llvm::endianness Endian) const {
  std::optional<uint32_t> Id = SectionIndex.find(Address);
  if (!Id)
    return std::nullopt;
  const SectionInfo &S = Sections[*Id];
  uint64_t Offset = Address - S.Address;
  if (S.IsNoBits || Offset >= S.Bytes.size())
    return 0; // Zero-filled: .bss, or past a COFF section's raw data.
  if (Offset + Size > S.Bytes.size())
    return std::nullopt;
  const uint8_t *Word = S.Bytes.data() + Offset;
  if (Size == 8)
    return support::endian::read<uint64_t>(Word, Endian);
  return support::endian::read<uint32_t>(Word, Endian);
}

void AuditBuilder::setRelocationSites(std::vector<uint64_t> Sites,
                                      unsigned WordSize) {
  llvm::sort(Sites);
  RelocationSites = std::move(Sites);
  SiteSize = WordSize;
}

PointerClass AuditBuilder::classifyTarget(uint64_t Target) const {
  std::optional<uint32_t> Id = SectionIndex.find(Target);
  if (!Id)
    return PointerClass::Other;
  const SectionInfo &S = Sections[*Id];
  if (S.Executable)
    return PointerClass::Function;
  // Strings are read-only; the bytes decide, since a section marked as
  // strings may hold other constants too, and .rodata may hold strings.
  // But a word the loader patches holds an address, whatever its bytes look
  // like (REL, RELR, PE and Mach-O files store the unrelocated one).
  auto Site = llvm::lower_bound(RelocationSites,
                                Target >= SiteSize ? Target - SiteSize + 1 : 0);
  bool TargetIsPatched =
      Site != RelocationSites.end() && *Site < Target + SiteSize;
  if (!S.Writable && !S.IsNoBits && !TargetIsPatched) {
    // A lone NUL is an empty string only where the compiler put strings,
    // and not inside a named variable (string literals have no symbol): lld
    // merges `static const int Zeros[]` into the same .rodata.
    bool AllowEmpty = S.MergedStrings && !ObjectIndex.find(Target);
    uint64_t Offset = Target - S.Address;
    if (Offset < S.Bytes.size() &&
        looksLikeCString(S.Bytes.drop_front(Offset), AllowEmpty))
      return PointerClass::String;
  }
  return PointerClass::Data;
}

void AuditBuilder::record(uint64_t Offset, StringRef TypeName,
                          PointerClass Class, AuditedObject *Patched) {
  unsigned ClassIndex = unsigned(Class);
  ++Result.Totals[ClassIndex];
  if (Patched)
    ++Patched->Counts[ClassIndex];
  else
    ++Result.OutsideObjects[ClassIndex];
  ++ByType[TypeName.str()][ClassIndex];
  std::optional<uint32_t> SectionId = SectionIndex.find(Offset);
  ++BySection[SectionId ? Sections[*SectionId].Name.str() : "<none>"]
             [ClassIndex];
}

RelocationAudit AuditBuilder::finish() {
  for (auto &[Name, Counts] : ByType)
    Result.ByType.push_back({Name, Counts});
  for (auto &[Name, Counts] : BySection)
    Result.BySection.push_back({Name, Counts});
  for (AuditedObject &O : Objects)
    if (getTotal(O.Counts) != 0)
      Result.Objects.push_back(std::move(O));
  return std::move(Result);
}

/// \returns true if \p Name is a vtable's: every slot of one (virtual
/// functions, its typeinfo) exists for virtual dispatch.
static bool isVTableName(StringRef Name) {
  return Name.starts_with("_ZTV") || Name.starts_with("??_7");
}

static Error makeMalformedError(StringRef Path, StringRef Format, Error E) {
  return makeToolError(
      "malformed " + Format + " file: " + toString(std::move(E)), Path);
}

//===----------------------------------------------------------------------===//
// Reading an ELF file
//===----------------------------------------------------------------------===//

static Error makeMalformedError(StringRef Path, Error E) {
  return makeMalformedError(Path, "ELF", std::move(E));
}

static bool isDataRelRoName(StringRef Name) {
  return Name == ".data.rel.ro" || Name.starts_with(".data.rel.ro.");
}

/// \returns the type of the relocation that stores a symbol's address in a
/// word (R_X86_64_64 and its kin), or 0 if not known for \p Machine.
static uint32_t getAbsoluteWordRelocationType(uint16_t Machine, bool Is64) {
  switch (Machine) {
  case ELF::EM_X86_64:
    return Is64 ? ELF::R_X86_64_64 : ELF::R_X86_64_32;
  case ELF::EM_386:
    return ELF::R_386_32;
  case ELF::EM_AARCH64:
    return ELF::R_AARCH64_ABS64;
  case ELF::EM_ARM:
    return ELF::R_ARM_ABS32;
  case ELF::EM_RISCV:
    return Is64 ? ELF::R_RISCV_64 : ELF::R_RISCV_32;
  case ELF::EM_PPC64:
    return ELF::R_PPC64_ADDR64;
  case ELF::EM_PPC:
    return ELF::R_PPC_ADDR32;
  case ELF::EM_LOONGARCH:
    return Is64 ? ELF::R_LARCH_64 : ELF::R_LARCH_32;
  case ELF::EM_S390:
    return ELF::R_390_64;
  default:
    return 0;
  }
}

namespace {
/// One relocation as read from any of the encodings.
struct RawRelocation {
  uint64_t Offset;
  uint32_t Type;
  uint32_t SymbolIndex;
  /// RELA's explicit addend; REL and RELR store it in the patched word.
  std::optional<int64_t> Addend;
};

/// The audit of one ELF file of type ELFT.
template <class ELFT> class ELFRelocationAuditor {
public:
  using Elf_Shdr = typename ELFT::Shdr;
  using Elf_Sym = typename ELFT::Sym;
  using WordType = typename ELFT::uint;

  ELFRelocationAuditor(const ELFObjectFile<ELFT> &Obj, StringRef Path)
      : Obj(Obj), Elf(Obj.getELFFile()), Path(Path) {}

  Expected<RelocationAudit> run();

private:
  Error readSections(ArrayRef<Elf_Shdr> Headers);
  Error readDataObjects(ArrayRef<Elf_Shdr> Headers);
  Error readRelocations(ArrayRef<Elf_Shdr> Headers);
  void setFileKind();

  std::optional<uint64_t> readWord(uint64_t Address) const {
    return Builder.readWord(Address, sizeof(WordType), ELFT::Endianness);
  }
  PointerClass classify(const RawRelocation &R, ArrayRef<Elf_Sym> Symbols,
                        const AuditedObject *Patched) const;
  void add(const RawRelocation &R, ArrayRef<Elf_Sym> Symbols);

  /// Relocations read, with the symbols of their section, classified once
  /// all are known.
  std::vector<std::pair<RawRelocation, ArrayRef<Elf_Sym>>> Pending;

  const ELFObjectFile<ELFT> &Obj;
  const ELFFile<ELFT> &Elf;
  StringRef Path;
  /// Sections numbered like the section headers.
  AuditBuilder Builder;
  uint32_t RelativeType = 0;
  uint32_t AbsoluteWordType = 0;
};
} // namespace

template <class ELFT>
Error ELFRelocationAuditor<ELFT>::readSections(ArrayRef<Elf_Shdr> Headers) {
  StringRef File(reinterpret_cast<const char *>(Elf.base()), Elf.getBufSize());
  for (const Elf_Shdr &Header : Headers) {
    Expected<StringRef> Name = Elf.getSectionName(Header);
    if (!Name)
      return makeMalformedError(Path, Name.takeError());
    SectionInfo S;
    S.Name = *Name;
    if (!(Header.sh_flags & ELF::SHF_ALLOC)) {
      Builder.addSection(S, /*Mapped=*/false);
      continue;
    }
    S.Address = Header.sh_addr;
    S.Size = Header.sh_size;
    S.IsNoBits = Header.sh_type == ELF::SHT_NOBITS;
    S.Executable = Header.sh_flags & ELF::SHF_EXECINSTR;
    S.Writable = Header.sh_flags & ELF::SHF_WRITE;
    S.MergedStrings = (Header.sh_flags & ELF::SHF_MERGE) &&
                      (Header.sh_flags & ELF::SHF_STRINGS);
    uint64_t Offset = Header.sh_offset;
    if (!S.IsNoBits && Offset <= File.size() && S.Size <= File.size() - Offset)
      S.Bytes = arrayRefFromStringRef(File.substr(Offset, S.Size));
    if (isDataRelRoName(S.Name))
      Builder.Result.DataRelRoBytes += S.Size;
    // .tbss takes no address space: its addresses belong to what follows.
    bool IsTBSS = S.IsNoBits && (Header.sh_flags & ELF::SHF_TLS);
    Builder.addSection(S, /*Mapped=*/!IsTBSS);
  }
  return Error::success();
}

template <class ELFT>
Error ELFRelocationAuditor<ELFT>::readDataObjects(ArrayRef<Elf_Shdr> Headers) {
  const Elf_Shdr *SymbolTable = nullptr;
  for (const Elf_Shdr &Header : Headers)
    if (Header.sh_type == ELF::SHT_SYMTAB)
      SymbolTable = &Header;
  // A stripped library still names its exported objects.
  if (!SymbolTable)
    for (const Elf_Shdr &Header : Headers)
      if (Header.sh_type == ELF::SHT_DYNSYM)
        SymbolTable = &Header;
  if (!SymbolTable)
    return Error::success();
  Builder.Result.SymbolTable =
      SymbolTable->sh_type == ELF::SHT_SYMTAB ? ".symtab" : ".dynsym";

  Expected<typename ELFT::SymRange> Symbols = Elf.symbols(SymbolTable);
  if (!Symbols)
    return makeMalformedError(Path, Symbols.takeError());
  Expected<StringRef> Names = Elf.getStringTableForSymtab(*SymbolTable);
  if (!Names)
    return makeMalformedError(Path, Names.takeError());
  for (const Elf_Sym &Symbol : *Symbols) {
    // Reserved indexes (ABS, COMMON) hold no bytes a relocation patches.
    if (Symbol.getType() != ELF::STT_OBJECT || Symbol.st_size == 0 ||
        Symbol.st_shndx == ELF::SHN_UNDEF ||
        Symbol.st_shndx >= ELF::SHN_LORESERVE)
      continue;
    Expected<StringRef> Name = Symbol.getName(*Names);
    if (!Name)
      return makeMalformedError(Path, Name.takeError());
    AuditedObject O;
    O.Name = Name->str();
    O.Address = Symbol.st_value;
    O.Size = Symbol.st_size;
    if (Symbol.st_shndx < Builder.getNumSections())
      O.Section = Builder.getSection(Symbol.st_shndx).Name.str();
    O.ReadOnlyAfterRelocation = isDataRelRoName(O.Section);
    // Linkers make hidden globals local in the output; their visibility
    // still says other translation units may use them.
    if (Symbol.getVisibility() == ELF::STV_HIDDEN ||
        Symbol.getVisibility() == ELF::STV_INTERNAL)
      O.Binding = ObjectBinding::Hidden;
    else if (Symbol.getBinding() == ELF::STB_LOCAL)
      O.Binding = ObjectBinding::Local;
    else
      O.Binding = ObjectBinding::Exported;
    Builder.addObject(std::move(O));
  }
  return Error::success();
}

template <class ELFT>
PointerClass
ELFRelocationAuditor<ELFT>::classify(const RawRelocation &R,
                                     ArrayRef<Elf_Sym> Symbols,
                                     const AuditedObject *Patched) const {
  if (Patched && isVTableName(Patched->Name))
    return PointerClass::Function;
  if (RelativeType != 0 && R.Type == RelativeType) {
    std::optional<uint64_t> Target =
        R.Addend ? std::optional<uint64_t>(*R.Addend) : readWord(R.Offset);
    return Target ? Builder.classifyTarget(*Target) : PointerClass::Other;
  }
  if (AbsoluteWordType == 0 || R.Type != AbsoluteWordType)
    return PointerClass::Other; // GOT, PLT, TLS, IRELATIVE, COPY, ...
  uint64_t SymbolValue = 0;
  if (R.SymbolIndex != 0) {
    if (R.SymbolIndex >= Symbols.size())
      return PointerClass::Other;
    const Elf_Sym &Symbol = Symbols[R.SymbolIndex];
    // Another module defines it: only the loader knows what it is.
    if (Symbol.st_shndx == ELF::SHN_UNDEF || Symbol.getType() == ELF::STT_TLS)
      return PointerClass::Other;
    if (Symbol.getType() == ELF::STT_FUNC ||
        Symbol.getType() == ELF::STT_GNU_IFUNC)
      return PointerClass::Function;
    SymbolValue = Symbol.st_value;
  }
  std::optional<uint64_t> Addend =
      R.Addend ? std::optional<uint64_t>(*R.Addend) : readWord(R.Offset);
  if (!Addend)
    return PointerClass::Other;
  return Builder.classifyTarget(SymbolValue + *Addend);
}

template <class ELFT>
void ELFRelocationAuditor<ELFT>::add(const RawRelocation &R,
                                     ArrayRef<Elf_Sym> Symbols) {
  AuditedObject *Patched = Builder.findObject(R.Offset);
  PointerClass Class = classify(R, Symbols, Patched);
  SmallString<32> TypeName;
  Elf.getRelocationTypeName(R.Type, TypeName);
  Builder.record(R.Offset, TypeName, Class, Patched);
}

template <class ELFT>
Error ELFRelocationAuditor<ELFT>::readRelocations(ArrayRef<Elf_Shdr> Headers) {
  const bool IsMips64EL = Elf.isMips64EL();
  for (const Elf_Shdr &Header : Headers) {
    // Relocation sections the loader does not map are the static linker's
    // (--emit-relocs), not part of the audit.
    if (!(Header.sh_flags & ELF::SHF_ALLOC))
      continue;
    unsigned Type = Header.sh_type;
    bool IsRelr = Type == ELF::SHT_RELR || Type == ELF::SHT_ANDROID_RELR;
    if (!IsRelr && Type != ELF::SHT_RELA && Type != ELF::SHT_REL &&
        Type != ELF::SHT_CREL && Type != ELF::SHT_ANDROID_REL &&
        Type != ELF::SHT_ANDROID_RELA)
      continue;

    if (IsRelr) {
      Expected<typename ELFT::RelrRange> Entries = Elf.relrs(Header);
      if (!Entries)
        return makeMalformedError(Path, Entries.takeError());
      std::vector<uint64_t> Words(Entries->begin(), Entries->end());
      std::vector<uint64_t> Addresses = decodeRelr(Words, sizeof(WordType));
      Builder.Result.RelrEntries += Words.size();
      Builder.Result.RelrRelocations += Addresses.size();
      for (uint64_t Address : Addresses)
        Pending.push_back({{Address, RelativeType, 0, std::nullopt}, {}});
      continue;
    }

    // The symbols of REL/RELA/CREL relocations: the linked table.
    ArrayRef<Elf_Sym> Symbols;
    if (Header.sh_link != 0) {
      Expected<const Elf_Shdr *> SymbolTable = Elf.getSection(Header.sh_link);
      if (!SymbolTable)
        return makeMalformedError(Path, SymbolTable.takeError());
      Expected<typename ELFT::SymRange> Range = Elf.symbols(*SymbolTable);
      if (!Range)
        return makeMalformedError(Path, Range.takeError());
      Symbols = *Range;
    }

    auto AddRel = [&](const typename ELFT::Rel &Rel) {
      Pending.push_back({{Rel.r_offset, Rel.getType(IsMips64EL),
                          Rel.getSymbol(IsMips64EL), std::nullopt},
                         Symbols});
    };
    auto AddRela = [&](const typename ELFT::Rela &Rela, bool HasAddend) {
      std::optional<int64_t> Addend;
      if (HasAddend)
        Addend = Rela.r_addend;
      Pending.push_back({{Rela.r_offset, Rela.getType(IsMips64EL),
                          Rela.getSymbol(IsMips64EL), Addend},
                         Symbols});
    };

    if (Type == ELF::SHT_RELA) {
      Expected<typename ELFT::RelaRange> Relas = Elf.relas(Header);
      if (!Relas)
        return makeMalformedError(Path, Relas.takeError());
      for (const typename ELFT::Rela &Rela : *Relas)
        AddRela(Rela, /*HasAddend=*/true);
    } else if (Type == ELF::SHT_REL) {
      Expected<typename ELFT::RelRange> Rels = Elf.rels(Header);
      if (!Rels)
        return makeMalformedError(Path, Rels.takeError());
      for (const typename ELFT::Rel &Rel : *Rels)
        AddRel(Rel);
    } else if (Type == ELF::SHT_CREL) {
      Expected<typename ELFFile<ELFT>::RelsOrRelas> Decoded = Elf.crels(Header);
      if (!Decoded)
        return makeMalformedError(Path, Decoded.takeError());
      for (const typename ELFT::Rel &Rel : Decoded->first)
        AddRel(Rel);
      for (const typename ELFT::Rela &Rela : Decoded->second)
        AddRela(Rela, /*HasAddend=*/true);
    } else {
      // Android's packed forms decode to RELA; SHT_ANDROID_REL's addends
      // still live in the patched words.
      Expected<std::vector<typename ELFT::Rela>> Relas =
          Elf.android_relas(Header);
      if (!Relas)
        return makeMalformedError(Path, Relas.takeError());
      for (const typename ELFT::Rela &Rela : *Relas)
        AddRela(Rela, /*HasAddend=*/Type == ELF::SHT_ANDROID_RELA);
    }
  }
  return Error::success();
}

template <class ELFT> void ELFRelocationAuditor<ELFT>::setFileKind() {
  if (Elf.getHeader().e_type == ELF::ET_EXEC) {
    Builder.Result.FileKind = "executable";
    return;
  }
  // A PIE has an interpreter, or lld's DF_1_PIE; a shared library neither.
  bool IsPIE = false;
  if (Expected<typename ELFT::PhdrRange> Phdrs = Elf.program_headers())
    IsPIE = llvm::any_of(*Phdrs, [](const typename ELFT::Phdr &P) {
      return P.p_type == ELF::PT_INTERP;
    });
  else
    consumeError(Phdrs.takeError()); // Only the label depends on it.
  if (Expected<typename ELFT::DynRange> Dynamic = Elf.dynamicEntries()) {
    for (const typename ELFT::Dyn &Entry : *Dynamic)
      if (Entry.d_tag == ELF::DT_FLAGS_1 && (Entry.getVal() & ELF::DF_1_PIE))
        IsPIE = true;
  } else {
    consumeError(Dynamic.takeError());
  }
  Builder.Result.FileKind = IsPIE ? "PIE" : "shared library";
}

template <class ELFT>
Expected<RelocationAudit> ELFRelocationAuditor<ELFT>::run() {
  Builder.Result.Format = Obj.getFileFormatName().str();
  Builder.Result.HasDataRelRo = true;
  setFileKind();
  RelativeType = Elf.getRelativeRelocationType();
  AbsoluteWordType =
      getAbsoluteWordRelocationType(Elf.getHeader().e_machine, ELFT::Is64Bits);

  Expected<typename ELFT::ShdrRange> Headers = Elf.sections();
  if (!Headers)
    return makeMalformedError(Path, Headers.takeError());
  if (Error E = readSections(*Headers))
    return std::move(E);
  if (Error E = readDataObjects(*Headers))
    return std::move(E);
  Builder.finalize();
  if (Error E = readRelocations(*Headers))
    return std::move(E);
  std::vector<uint64_t> Sites;
  Sites.reserve(Pending.size());
  for (const auto &[R, Symbols] : Pending)
    Sites.push_back(R.Offset);
  Builder.setRelocationSites(std::move(Sites), sizeof(WordType));
  for (const auto &[R, Symbols] : Pending)
    add(R, Symbols);

  return Builder.finish();
}

template <class ELFT>
static Expected<RelocationAudit> auditELF(const ObjectFile &Obj,
                                          StringRef Path) {
  return ELFRelocationAuditor<ELFT>(cast<ELFObjectFile<ELFT>>(Obj), Path).run();
}

//===----------------------------------------------------------------------===//
// Reading a PE/COFF image
//===----------------------------------------------------------------------===//

Expected<std::vector<BaseRelocation>>
relocs::decodeBaseRelocations(ArrayRef<uint8_t> Table) {
  constexpr size_t BlockHeaderSize = 8; // Page RVA, block size.
  std::vector<BaseRelocation> Relocations;
  size_t Offset = 0;
  while (Offset < Table.size()) {
    if (Table.size() - Offset < BlockHeaderSize)
      return createStringError("base relocation block at offset " +
                               Twine(Offset) + " is cut short");
    uint32_t PageRVA = support::endian::read32le(Table.data() + Offset);
    uint32_t BlockSize = support::endian::read32le(Table.data() + Offset + 4);
    // Each entry is two bytes; a block that is not whole would make the
    // next block start in the middle of this one.
    if (BlockSize < BlockHeaderSize || BlockSize % 2 != 0 ||
        BlockSize > Table.size() - Offset)
      return createStringError("base relocation block at offset " +
                               Twine(Offset) + " has a bad size (" +
                               Twine(BlockSize) + ")");
    for (size_t Entry = Offset + BlockHeaderSize; Entry < Offset + BlockSize;
         Entry += 2) {
      uint16_t Value = support::endian::read16le(Table.data() + Entry);
      Relocations.push_back({PageRVA + (Value & 0xfffu), uint8_t(Value >> 12)});
    }
    Offset += BlockSize;
  }
  return Relocations;
}

/// \returns the name of base relocation type \p Type.
static std::string getBaseRelocationTypeName(uint8_t Type) {
  switch (Type) {
  case COFF::IMAGE_REL_BASED_ABSOLUTE:
    return "IMAGE_REL_BASED_ABSOLUTE";
  case COFF::IMAGE_REL_BASED_HIGH:
    return "IMAGE_REL_BASED_HIGH";
  case COFF::IMAGE_REL_BASED_LOW:
    return "IMAGE_REL_BASED_LOW";
  case COFF::IMAGE_REL_BASED_HIGHLOW:
    return "IMAGE_REL_BASED_HIGHLOW";
  case COFF::IMAGE_REL_BASED_HIGHADJ:
    return "IMAGE_REL_BASED_HIGHADJ";
  case COFF::IMAGE_REL_BASED_DIR64:
    return "IMAGE_REL_BASED_DIR64";
  default:
    return "IMAGE_REL_BASED_" + std::to_string(Type);
  }
}

/// Audits the base relocations of a PE image. Addresses are RVAs. Objects
/// come from the COFF symbol table, which only some linkers write (lld-link
/// with /debug:symtab, MinGW); its symbols have no size, so an object ends
/// where the next symbol of its section starts.
static Expected<RelocationAudit> auditCOFF(const COFFObjectFile &Obj,
                                           StringRef Path) {
  auto Malformed = [&](Error E) {
    return makeMalformedError(Path, "COFF", std::move(E));
  };
  AuditBuilder Builder;
  RelocationAudit &Result = Builder.Result;
  Result.Format = Obj.getFileFormatName().str();
  Result.FileKind =
      Obj.getCharacteristics() & COFF::IMAGE_FILE_DLL ? "DLL" : "executable";

  // Section number N (from 1) is the builder's section N - 1.
  for (const SectionRef &Ref : Obj.sections()) {
    const coff_section *Header = Obj.getCOFFSection(Ref);
    Expected<StringRef> Name = Obj.getSectionName(Header);
    if (!Name)
      return Malformed(Name.takeError());
    SectionInfo S;
    S.Name = *Name;
    S.Address = Header->VirtualAddress;
    S.Size = Header->VirtualSize ? Header->VirtualSize : Header->SizeOfRawData;
    S.IsNoBits =
        Header->Characteristics & COFF::IMAGE_SCN_CNT_UNINITIALIZED_DATA;
    S.Executable = Header->Characteristics & COFF::IMAGE_SCN_MEM_EXECUTE;
    S.Writable = Header->Characteristics & COFF::IMAGE_SCN_MEM_WRITE;
    if (!S.IsNoBits) {
      ArrayRef<uint8_t> Bytes;
      if (Error E = Obj.getSectionContents(Header, Bytes))
        return Malformed(std::move(E));
      S.Bytes = Bytes.take_front(S.Size);
    }
    Builder.addSection(S, /*Mapped=*/true);
  }

  std::set<uint64_t> ExportedRVAs;
  for (const ExportDirectoryEntryRef &Export : Obj.export_directories()) {
    bool IsForwarder = false;
    uint32_t RVA = 0;
    if (Error E = Export.isForwarder(IsForwarder))
      return Malformed(std::move(E));
    if (IsForwarder)
      continue; // Names a function of another DLL.
    if (Error E = Export.getExportRVA(RVA))
      return Malformed(std::move(E));
    ExportedRVAs.insert(RVA);
  }

  // Every defined symbol ends the object before it in its section.
  std::map<int32_t, std::vector<uint64_t>> SymbolStarts;
  std::vector<std::pair<int32_t, AuditedObject>> Candidates;
  if (Obj.getNumberOfSymbols() != 0)
    Result.SymbolTable = "COFF symbol table";
  for (uint32_t I = 0; I < Obj.getNumberOfSymbols();) {
    Expected<COFFSymbolRef> Symbol = Obj.getSymbol(I);
    if (!Symbol)
      return Malformed(Symbol.takeError());
    I += 1 + Symbol->getNumberOfAuxSymbols();
    int32_t SectionNumber = Symbol->getSectionNumber();
    uint8_t StorageClass = Symbol->getStorageClass();
    if (SectionNumber <= 0 ||
        size_t(SectionNumber) > Builder.getNumSections() ||
        Symbol->getSectionDefinition() ||
        (StorageClass != COFF::IMAGE_SYM_CLASS_EXTERNAL &&
         StorageClass != COFF::IMAGE_SYM_CLASS_STATIC))
      continue;
    const SectionInfo &S = Builder.getSection(SectionNumber - 1);
    uint64_t Address = S.Address + Symbol->getValue();
    SymbolStarts[SectionNumber].push_back(Address);
    if (S.Executable ||
        Symbol->getComplexType() == COFF::IMAGE_SYM_DTYPE_FUNCTION)
      continue;
    Expected<StringRef> Name = Obj.getSymbolName(*Symbol);
    if (!Name)
      return Malformed(Name.takeError());
    AuditedObject O;
    O.Name = Name->str();
    O.Address = Address;
    O.Section = S.Name.str();
    // The loader relocates read-only sections and protects them again.
    O.ReadOnlyAfterRelocation = !S.Writable;
    if (StorageClass == COFF::IMAGE_SYM_CLASS_STATIC)
      O.Binding = ObjectBinding::Local;
    else if (ExportedRVAs.count(Address))
      O.Binding = ObjectBinding::Exported;
    else
      O.Binding = ObjectBinding::Hidden;
    Candidates.push_back({SectionNumber, std::move(O)});
  }
  for (auto &[SectionNumber, Starts] : SymbolStarts) {
    llvm::sort(Starts);
    Starts.erase(llvm::unique(Starts), Starts.end());
  }
  for (auto &[SectionNumber, O] : Candidates) {
    const SectionInfo &S = Builder.getSection(SectionNumber - 1);
    const std::vector<uint64_t> &Starts = SymbolStarts[SectionNumber];
    auto Next = llvm::upper_bound(Starts, O.Address);
    uint64_t End = Next == Starts.end() ? S.Address + S.Size : *Next;
    if (End <= O.Address)
      continue;
    O.Size = End - O.Address;
    Builder.addObject(std::move(O));
  }
  Builder.finalize();

  const data_directory *Directory =
      Obj.getDataDirectory(COFF::BASE_RELOCATION_TABLE);
  if (!Directory || Directory->RelativeVirtualAddress == 0 ||
      Directory->Size == 0)
    return Builder.finish(); // Not relocatable, or nothing to relocate.
  ArrayRef<uint8_t> Table;
  if (Error E = Obj.getRvaAndSizeAsBytes(Directory->RelativeVirtualAddress,
                                         Directory->Size, Table))
    return Malformed(std::move(E));
  Expected<std::vector<BaseRelocation>> Relocations =
      decodeBaseRelocations(Table);
  if (!Relocations)
    return Malformed(Relocations.takeError());

  std::vector<uint64_t> Sites;
  for (const BaseRelocation &R : *Relocations)
    if (R.Type != COFF::IMAGE_REL_BASED_ABSOLUTE)
      Sites.push_back(R.RVA);
  Builder.setRelocationSites(std::move(Sites), Obj.is64() ? 8 : 4);

  const uint64_t ImageBase = Obj.getImageBase();
  for (const BaseRelocation &R : *Relocations) {
    if (R.Type == COFF::IMAGE_REL_BASED_ABSOLUTE)
      continue; // Padding that keeps the next block aligned.
    AuditedObject *Patched = Builder.findObject(R.RVA);
    PointerClass Class = PointerClass::Other;
    if (Patched && isVTableName(Patched->Name)) {
      Class = PointerClass::Function;
    } else if (R.Type == COFF::IMAGE_REL_BASED_DIR64 ||
               R.Type == COFF::IMAGE_REL_BASED_HIGHLOW) {
      // The stored word is an address at the preferred image base.
      std::optional<uint64_t> Target =
          Builder.readWord(R.RVA, R.Type == COFF::IMAGE_REL_BASED_DIR64 ? 8 : 4,
                           llvm::endianness::little);
      if (Target && *Target >= ImageBase)
        Class = Builder.classifyTarget(*Target - ImageBase);
    }
    Builder.record(R.RVA, getBaseRelocationTypeName(R.Type), Class, Patched);
  }
  return Builder.finish();
}

//===----------------------------------------------------------------------===//
// Reading a Mach-O image
//===----------------------------------------------------------------------===//

namespace {
/// One rebase, bind or chained fixup, before classification.
struct MachOFixup {
  uint64_t Address;
  std::string Type;
  /// Rebases: the target, when the fixup itself holds it (chained fixups);
  /// otherwise it is the pointer stored in the file.
  std::optional<uint64_t> Target;
  bool IsBind; ///< Resolved by symbol at load time.
};
} // namespace

/// Audits a linked Mach-O image: rebases (the loader slides the pointer
/// the file stores) and binds (resolved by symbol: "other"), from the
/// opcode tables or the chained fixups. Symbols have no size: an object
/// ends where the next symbol of its section starts. Names lose Mach-O's
/// leading underscore, as `kiln callgraph` shows them.
static Expected<RelocationAudit> auditMachO(MachOObjectFile &Obj,
                                            StringRef Path) {
  auto Malformed = [&](Error E) {
    return makeMalformedError(Path, "Mach-O", std::move(E));
  };
  AuditBuilder Builder;
  RelocationAudit &Result = Builder.Result;
  Result.Format = Obj.getFileFormatName().str();
  switch (Obj.getHeader().filetype) {
  case MachO::MH_DYLIB:
    Result.FileKind = "dylib";
    break;
  case MachO::MH_BUNDLE:
    Result.FileKind = "bundle";
    break;
  default:
    Result.FileKind = "executable";
    break;
  }
  const unsigned WordSize = Obj.is64Bit() ? 8 : 4;

  // Section I of the file (SectionRef order) is the builder's section I.
  std::vector<std::string> SectionNames;
  for (const SectionRef &Ref : Obj.sections()) {
    StringRef Segment = Obj.getSectionFinalSegmentName(Ref.getRawDataRefImpl());
    Expected<StringRef> Name = Ref.getName();
    if (!Name)
      return Malformed(Name.takeError());
    SectionNames.push_back((Segment + "," + *Name).str());
  }
  size_t Index = 0;
  for (const SectionRef &Ref : Obj.sections()) {
    SectionInfo S;
    S.Name = SectionNames[Index++];
    S.Address = Ref.getAddress();
    S.Size = Ref.getSize();
    unsigned Type = Obj.getSectionType(Ref);
    S.IsNoBits = Type == MachO::S_ZEROFILL || Type == MachO::S_GB_ZEROFILL ||
                 Type == MachO::S_THREAD_LOCAL_ZEROFILL;
    S.Executable = Ref.isText();
    // __DATA_CONST is written by the loader, then made read-only.
    StringRef Segment = S.Name.split(',').first;
    S.Writable = Segment.starts_with("__DATA") || Segment.starts_with("__AUTH");
    S.MergedStrings = Type == MachO::S_CSTRING_LITERALS;
    if (!S.IsNoBits) {
      Expected<StringRef> Contents = Ref.getContents();
      if (!Contents)
        return Malformed(Contents.takeError());
      S.Bytes = arrayRefFromStringRef(*Contents);
    }
    Builder.addSection(S, /*Mapped=*/true);
  }

  // Every defined symbol ends the object before it in its section.
  std::map<size_t, std::vector<uint64_t>> SymbolStarts;
  std::vector<std::pair<size_t, AuditedObject>> Candidates;
  for (const SymbolRef &Symbol : Obj.symbols()) {
    DataRefImpl Ref = Symbol.getRawDataRefImpl();
    uint8_t NType = Obj.is64Bit() ? Obj.getSymbol64TableEntry(Ref).n_type
                                  : Obj.getSymbolTableEntry(Ref).n_type;
    uint64_t Value = Obj.is64Bit() ? Obj.getSymbol64TableEntry(Ref).n_value
                                   : Obj.getSymbolTableEntry(Ref).n_value;
    // Debug entries (stabs) and symbols not defined in a section.
    if ((NType & MachO::N_STAB) || (NType & MachO::N_TYPE) != MachO::N_SECT)
      continue;
    Expected<section_iterator> Section = Symbol.getSection();
    if (!Section)
      return Malformed(Section.takeError());
    if (*Section == Obj.section_end())
      continue;
    size_t SectionIndex = (*Section)->getIndex();
    if (SectionIndex >= Builder.getNumSections())
      continue;
    SymbolStarts[SectionIndex].push_back(Value);
    const SectionInfo &S = Builder.getSection(SectionIndex);
    if (S.Executable)
      continue;
    Expected<StringRef> Name = Symbol.getName();
    if (!Name)
      return Malformed(Name.takeError());
    AuditedObject O;
    O.Name = Name->starts_with("_") ? Name->drop_front().str() : Name->str();
    O.Address = Value;
    O.Section = S.Name.str();
    O.ReadOnlyAfterRelocation = S.Name.starts_with("__DATA_CONST,") ||
                                S.Name.starts_with("__AUTH_CONST,");
    // The linker makes private externs (hidden) non-external, and keeps
    // N_PEXT to say what they were.
    if (NType & MachO::N_PEXT)
      O.Binding = ObjectBinding::Hidden;
    else if (!(NType & MachO::N_EXT))
      O.Binding = ObjectBinding::Local;
    else
      O.Binding = ObjectBinding::Exported;
    Candidates.push_back({SectionIndex, std::move(O)});
  }
  if (!Candidates.empty() || !SymbolStarts.empty())
    Result.SymbolTable = "Mach-O symbol table";
  for (auto &[SectionIndex, Starts] : SymbolStarts) {
    llvm::sort(Starts);
    Starts.erase(llvm::unique(Starts), Starts.end());
  }
  for (auto &[SectionIndex, O] : Candidates) {
    const SectionInfo &S = Builder.getSection(SectionIndex);
    const std::vector<uint64_t> &Starts = SymbolStarts[SectionIndex];
    auto Next = llvm::upper_bound(Starts, O.Address);
    uint64_t End = Next == Starts.end() ? S.Address + S.Size : *Next;
    if (End <= O.Address)
      continue;
    O.Size = End - O.Address;
    Builder.addObject(std::move(O));
  }
  Builder.finalize();

  std::vector<MachOFixup> Fixups;
  Error Err = Error::success();
  for (const MachORebaseEntry &Entry : Obj.rebaseTable(Err))
    Fixups.push_back(
        {Entry.address(), "rebase", std::nullopt, /*IsBind=*/false});
  if (Err)
    return Malformed(std::move(Err));
  auto AddBinds = [&](iterator_range<bind_iterator> Table, StringRef Kind) {
    for (const MachOBindEntry &Entry : Table)
      Fixups.push_back({Entry.address(), Kind.str(), std::nullopt,
                        /*IsBind=*/true});
  };
  AddBinds(Obj.bindTable(Err), "bind");
  if (Err)
    return Malformed(std::move(Err));
  AddBinds(Obj.weakBindTable(Err), "weak bind");
  if (Err)
    return Malformed(std::move(Err));
  AddBinds(Obj.lazyBindTable(Err), "lazy bind");
  if (Err)
    return Malformed(std::move(Err));
  for (const MachOChainedFixupEntry &Entry : Obj.fixupTable(Err)) {
    bool IsBind = !Entry.symbolName().empty();
    Fixups.push_back(
        {Entry.address(), IsBind ? "chained bind" : "chained rebase",
         IsBind ? std::nullopt : std::optional<uint64_t>(Entry.pointerValue()),
         IsBind});
  }
  if (Err)
    return Malformed(std::move(Err));

  std::vector<uint64_t> Sites;
  for (const MachOFixup &F : Fixups)
    Sites.push_back(F.Address);
  Builder.setRelocationSites(std::move(Sites), WordSize);
  const llvm::endianness Endian =
      Obj.isLittleEndian() ? llvm::endianness::little : llvm::endianness::big;
  for (const MachOFixup &F : Fixups) {
    AuditedObject *Patched = Builder.findObject(F.Address);
    PointerClass Class = PointerClass::Other;
    if (Patched && isVTableName(Patched->Name)) {
      Class = PointerClass::Function;
    } else if (!F.IsBind) {
      std::optional<uint64_t> Target =
          F.Target ? F.Target : Builder.readWord(F.Address, WordSize, Endian);
      if (Target)
        Class = Builder.classifyTarget(*Target);
    }
    Builder.record(F.Address, F.Type, Class, Patched);
  }
  return Builder.finish();
}

static Expected<RelocationAudit> auditUnguarded(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/false,
                         /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return makeToolError(Buffer.getError().message(), Path);
  MemoryBufferRef Contents = (*Buffer)->getMemBufferRef();
  static constexpr const char *NeedsLinked =
      "give a linked shared library (-shared) or position-independent "
      "executable (-pie)";

  if (kiln::isAllNulBytes(Contents.getBuffer()))
    return makeToolError(kiln::AllNulBytesMessage, Path);
  switch (identify_magic(Contents.getBuffer())) {
  case file_magic::elf:
  case file_magic::elf_executable:
  case file_magic::elf_shared_object:
    break;
  case file_magic::elf_relocatable:
    return makeToolError("is an object file, not linked: its relocations "
                         "are for the static linker; the loader's exist only "
                         "after linking",
                         Path, NeedsLinked);
  case file_magic::elf_core:
    return makeToolError("is a core dump, not a program or library", Path);
  case file_magic::pecoff_executable:
    break;
  case file_magic::coff_object:
    return makeToolError("is a COFF object file, not linked: its relocations "
                         "are for the linker; base relocations exist only in "
                         "a linked image",
                         Path, "give a linked DLL or executable");
  case file_magic::coff_import_library:
    return makeToolError("is an import library, not a linked image", Path,
                         "give the DLL itself");
  case file_magic::macho_executable:
  case file_magic::macho_fixed_virtual_memory_shared_lib:
  case file_magic::macho_preload_executable:
  case file_magic::macho_dynamically_linked_shared_lib:
  case file_magic::macho_dynamic_linker:
  case file_magic::macho_bundle:
    break;
  case file_magic::macho_object:
    return makeToolError("is a Mach-O object file, not linked: its "
                         "relocations are for the linker; rebases and binds "
                         "exist only in a linked image",
                         Path, "give a linked dylib, bundle or executable");
  case file_magic::macho_universal_binary:
    return makeToolError("is a universal binary", Path,
                         "audit one architecture: lipo -thin <arch>");
  case file_magic::macho_core:
  case file_magic::macho_dynamically_linked_shared_lib_stub:
  case file_magic::macho_dsym_companion:
  case file_magic::macho_kext_bundle:
  case file_magic::macho_file_set:
    return makeToolError("is a Mach-O file of a kind that is not supported "
                         "for this format (kiln relocs reads dylibs, bundles "
                         "and executables)",
                         Path);
  case file_magic::bitcode:
    return makeToolError("is LLVM bitcode, which has no relocations until "
                         "it is compiled and linked",
                         Path, NeedsLinked);
  case file_magic::archive:
    return makeToolError("is an archive of object files, not linked", Path,
                         NeedsLinked);
  default:
    return makeToolError("is not an ELF, PE/COFF or Mach-O file", Path,
                         NeedsLinked);
  }

  file_magic Magic = identify_magic(Contents.getBuffer());
  if (Magic != file_magic::pecoff_executable && Magic != file_magic::elf &&
      Magic != file_magic::elf_executable &&
      Magic != file_magic::elf_shared_object) {
    Expected<std::unique_ptr<ObjectFile>> Obj =
        ObjectFile::createMachOObjectFile(Contents);
    if (!Obj)
      return makeMalformedError(Path, "Mach-O", Obj.takeError());
    return auditMachO(cast<MachOObjectFile>(**Obj), Path);
  }
  if (Magic == file_magic::pecoff_executable) {
    Expected<std::unique_ptr<ObjectFile>> Obj =
        ObjectFile::createCOFFObjectFile(Contents);
    if (!Obj)
      return makeMalformedError(Path, "COFF", Obj.takeError());
    return auditCOFF(cast<COFFObjectFile>(**Obj), Path);
  }
  Expected<std::unique_ptr<ObjectFile>> Obj =
      ObjectFile::createELFObjectFile(Contents);
  if (!Obj)
    return makeMalformedError(Path, Obj.takeError());
  if (isa<ELF64LEObjectFile>(**Obj))
    return auditELF<ELF64LE>(**Obj, Path);
  if (isa<ELF32LEObjectFile>(**Obj))
    return auditELF<ELF32LE>(**Obj, Path);
  if (isa<ELF64BEObjectFile>(**Obj))
    return auditELF<ELF64BE>(**Obj, Path);
  return auditELF<ELF32BE>(**Obj, Path);
}

Expected<RelocationAudit> relocs::auditRelocations(StringRef Path) {
  // As sources/lib/CrashGuard.h does for the linker inputs:
  // LLVM's object readers trust some offsets of a corrupt file; a fault
  // there becomes this error when the tool enabled crash recovery.
  std::optional<Expected<RelocationAudit>> Result;
  CrashRecoveryContext CRC;
  if (!CRC.RunSafely([&] { Result.emplace(auditUnguarded(Path)); }))
    return makeToolError("malformed file: LLVM's object reader failed on its "
                         "contents",
                         Path);
  return std::move(*Result);
}

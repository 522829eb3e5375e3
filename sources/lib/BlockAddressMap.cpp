//===- BlockAddressMap.cpp - A binary's block addresses -------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockAddressMap.h"

#include "CrashGuard.h"

#include "kiln/Support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;
using namespace llvm::object;

namespace kiln {

static Error mapError(StringRef Path, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Path + ": " + Message);
}

static constexpr StringLiteral LinkHint =
    "link with kiln-lld --kiln-block-address-map, or "
    "-Wl,--lto-basic-block-address-map / -fbasic-block-address-map";

BlockAddressMap BlockAddressMap::fromFunctions(
    std::vector<MappedFunction> Functions,
    std::vector<std::pair<uint64_t, uint64_t>> Code,
    std::vector<std::pair<std::string, uint64_t>> Symbols) {
  BlockAddressMap Map;
  Map.Functions = std::move(Functions);
  llvm::sort(Map.Functions,
             [](const MappedFunction &A, const MappedFunction &B) {
               return A.Address < B.Address;
             });
  Map.CodeRanges = std::move(Code);
  for (const MappedFunction &F : Map.Functions)
    Map.SymbolAddresses[F.Name].push_back(F.Address);
  for (const auto &[Name, Address] : Symbols)
    Map.SymbolAddresses[Name].push_back(Address);
  Map.index();
  return Map;
}

void BlockAddressMap::index() {
  Ranges.clear();
  for (auto [FI, F] : enumerate(Functions))
    for (auto [BI, B] : enumerate(F.Blocks))
      if (B.Size > 0)
        Ranges.push_back(
            {B.Address, B.Address + B.Size, {uint32_t(FI), uint32_t(BI)}});
  llvm::sort(Ranges, [](const BlockRange &A, const BlockRange &B) {
    return A.Begin < B.Begin;
  });
  // Mapped code is code, whatever the section headers said; merged into
  // disjoint ranges for the binary search of isCode.
  for (const BlockRange &R : Ranges)
    CodeRanges.push_back({R.Begin, R.End});
  llvm::sort(CodeRanges);
  std::vector<std::pair<uint64_t, uint64_t>> Merged;
  for (const auto &R : CodeRanges) {
    if (!Merged.empty() && R.first <= Merged.back().second) {
      Merged.back().second = std::max(Merged.back().second, R.second);
      continue;
    }
    Merged.push_back(R);
  }
  CodeRanges = std::move(Merged);
}

std::optional<BlockRef> BlockAddressMap::findBlock(uint64_t Address) const {
  auto It =
      llvm::upper_bound(Ranges, Address, [](uint64_t A, const BlockRange &R) {
        return A < R.Begin;
      });
  if (It == Ranges.begin())
    return std::nullopt;
  --It;
  if (Address >= It->End)
    return std::nullopt;
  return It->Ref;
}

std::optional<BlockRef>
BlockAddressMap::findBlockOrPadding(uint64_t Address) const {
  auto It =
      llvm::upper_bound(Ranges, Address, [](uint64_t A, const BlockRange &R) {
        return A < R.Begin;
      });
  if (It == Ranges.begin())
    return std::nullopt;
  --It;
  if (Address < It->End)
    return It->Ref;
  const MappedBlock &B = getBlock(It->Ref);
  if (B.Next && Address < Functions[It->Ref.Function].Blocks[*B.Next].Address)
    return It->Ref;
  return std::nullopt;
}

std::optional<BlockRef>
BlockAddressMap::findBlockStart(uint64_t Address) const {
  std::optional<BlockRef> B = findBlock(Address);
  if (!B || getBlock(*B).Address != Address)
    return std::nullopt;
  return B;
}

std::optional<uint32_t>
BlockAddressMap::findFunctionEntry(uint64_t Address) const {
  auto It = llvm::partition_point(
      Functions, [&](const MappedFunction &F) { return F.Address < Address; });
  if (It == Functions.end() || It->Address != Address)
    return std::nullopt;
  return uint32_t(It - Functions.begin());
}

std::optional<uint64_t>
BlockAddressMap::findSymbol(StringRef Name, unsigned LocalOrdinal) const {
  auto It = SymbolAddresses.find(Name);
  if (It == SymbolAddresses.end())
    return std::nullopt;
  const std::vector<uint64_t> &Addresses = It->second;
  if (LocalOrdinal == 0)
    return Addresses.size() == 1 ? std::optional<uint64_t>(Addresses[0])
                                 : std::nullopt;
  if (LocalOrdinal > Addresses.size())
    return std::nullopt;
  return Addresses[LocalOrdinal - 1];
}

bool BlockAddressMap::isCode(uint64_t Address) const {
  auto It =
      llvm::upper_bound(CodeRanges, Address,
                        [](uint64_t A, const std::pair<uint64_t, uint64_t> &R) {
                          return A < R.first;
                        });
  return It != CodeRanges.begin() && Address < std::prev(It)->second;
}

namespace {
/// A function symbol of the binary.
struct FunctionSymbol {
  std::string Name;
  uint64_t Address;
  bool IsGlobal;
  /// STT_FUNC (or IFUNC); otherwise a label in code (STT_NOTYPE), such as
  /// the parts `fn.__part.N` of basic-block sections, which names code but
  /// never a function's entry.
  bool IsFunction;
};
} // namespace

/// \returns whether \p Sym is defined in an executable section.
static bool isInCode(const ELFSymbolRef &Sym) {
  Expected<section_iterator> Sec = Sym.getSection();
  if (!Sec) {
    consumeError(Sec.takeError());
    return false;
  }
  if (*Sec == Sym.getObject()->section_end())
    return false;
  return ELFSectionRef(**Sec).getFlags() & ELF::SHF_EXECINSTR;
}

/// \returns the binary's function symbols and labels in code: the static
/// symbol table, or the dynamic one of a stripped binary.
static std::vector<FunctionSymbol>
readFunctionSymbols(const ELFObjectFileBase &Obj) {
  std::vector<FunctionSymbol> Result;
  auto Add = [&](const ELFSymbolRef &Sym) {
    uint8_t Type = Sym.getELFType();
    bool IsFunction = Type == ELF::STT_FUNC || Type == ELF::STT_GNU_IFUNC;
    if (!IsFunction && (Type != ELF::STT_NOTYPE || !isInCode(Sym)))
      return;
    Expected<StringRef> Name = Sym.getName();
    Expected<uint64_t> Address = Sym.getAddress();
    // Mapping symbols ($x, $d) mark instruction sets, not code of a name.
    if (!Name || !Address || Name->empty() || Name->starts_with("$")) {
      consumeError(Name.takeError());
      consumeError(Address.takeError());
      return;
    }
    Result.push_back({Name->str(), *Address, Sym.getBinding() != ELF::STB_LOCAL,
                      IsFunction});
  };
  for (const ELFSymbolRef &Sym : Obj.symbols())
    Add(Sym);
  if (Result.empty())
    for (const ELFSymbolRef &Sym : Obj.getDynamicSymbolIterators())
      Add(Sym);
  return Result;
}

/// Converts one function of LLVM's map: the entry block first, the others
/// by address, and each block's successor by address within its range.
static MappedFunction convertFunction(const BBAddrMap &Map) {
  MappedFunction F;
  F.Address = Map.getFunctionAddress();
  struct Placed {
    MappedBlock Block;
    size_t RangeIndex;
    size_t Position;
  };
  std::vector<Placed> All;
  for (auto [RI, Range] : enumerate(Map.BBRanges))
    for (auto [Pos, E] : enumerate(Range.BBEntries)) {
      MappedBlock B;
      B.ID = E.ID;
      B.Address = Range.BaseAddress + E.Offset;
      B.Size = E.Size;
      B.Hash = E.Hash;
      B.IsEHPad = E.isEHPad();
      B.CanFallThrough = E.canFallThrough();
      B.EndsInReturn = E.hasReturn() || E.hasTailCall();
      All.push_back({B, RI, Pos});
    }
  // The entry block is the first of the first range; the rest by address
  // (blocks of size 0 keep their order in the map at equal addresses).
  if (!All.empty())
    std::sort(All.begin() + 1, All.end(), [](const Placed &A, const Placed &B) {
      return std::tie(A.Block.Address, A.RangeIndex, A.Position) <
             std::tie(B.Block.Address, B.RangeIndex, B.Position);
    });
  std::map<std::pair<size_t, size_t>, uint32_t> IndexOf;
  for (auto [I, P] : enumerate(All))
    IndexOf[{P.RangeIndex, P.Position}] = uint32_t(I);
  for (Placed &P : All) {
    auto It = IndexOf.find({P.RangeIndex, P.Position + 1});
    if (It != IndexOf.end())
      P.Block.Next = It->second;
    F.Blocks.push_back(P.Block);
  }
  return F;
}

Expected<BlockAddressMap> BlockAddressMap::read(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return mapError(Path, Buffer.getError().message());
  MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
  return runGuarded([&] { return readELF(Path, Ref); },
                    [&]() -> Expected<BlockAddressMap> {
                      return mapError(Path, "is corrupt (reading its address "
                                            "map failed)");
                    });
}

Expected<BlockAddressMap> BlockAddressMap::readELF(StringRef Path,
                                                   MemoryBufferRef Buffer) {
  if (isAllNulBytes(Buffer.getBuffer()))
    return mapError(Path, AllNulBytesMessage);
  file_magic Magic = identify_magic(Buffer.getBuffer());
  if (Magic == file_magic::elf_relocatable)
    return mapError(Path, "is a relocatable object; give the linked "
                          "executable or shared object");
  if (Magic != file_magic::elf_executable &&
      Magic != file_magic::elf_shared_object)
    return mapError(Path, "is not an ELF executable or shared object");
  Expected<std::unique_ptr<ObjectFile>> Obj =
      ObjectFile::createObjectFile(Buffer);
  if (!Obj)
    return mapError(Path, toString(Obj.takeError()));
  const auto &ELF = cast<ELFObjectFileBase>(**Obj);

  bool HasMap = false;
  std::vector<std::pair<uint64_t, uint64_t>> Code;
  for (const SectionRef &Sec : ELF.sections()) {
    ELFSectionRef ESec(Sec);
    if (ESec.getType() == ELF::SHT_LLVM_BB_ADDR_MAP)
      HasMap = true;
    if ((ESec.getFlags() & ELF::SHF_EXECINSTR) && Sec.getSize() > 0)
      Code.push_back({Sec.getAddress(), Sec.getAddress() + Sec.getSize()});
  }
  if (!HasMap)
    return mapError(Path,
                    Twine("has no SHT_LLVM_BB_ADDR_MAP section; ") + LinkHint);
  Expected<std::vector<BBAddrMap>> Maps = ELF.readBBAddrMap();
  if (!Maps)
    return mapError(Path, "corrupt address map: " + toString(Maps.takeError()));

  std::vector<FunctionSymbol> Symbols = readFunctionSymbols(ELF);
  // The entry's name: a global symbol before a local one, then the
  // smallest name, so that aliases give the same choice on every run.
  std::map<uint64_t, std::vector<const FunctionSymbol *>> AtAddress;
  for (const FunctionSymbol &S : Symbols)
    if (S.IsFunction)
      AtAddress[S.Address].push_back(&S);

  std::vector<MappedFunction> Functions;
  uint64_t NumUnnamed = 0;
  for (const BBAddrMap &M : *Maps) {
    if (M.BBRanges.empty() || M.BBRanges.front().BBEntries.empty())
      continue;
    auto It = AtAddress.find(M.getFunctionAddress());
    if (It == AtAddress.end()) {
      ++NumUnnamed;
      continue;
    }
    const FunctionSymbol *Best = *llvm::min_element(
        It->second, [](const FunctionSymbol *A, const FunctionSymbol *B) {
          return std::make_tuple(!A->IsGlobal, StringRef(A->Name)) <
                 std::make_tuple(!B->IsGlobal, StringRef(B->Name));
        });
    MappedFunction F = convertFunction(M);
    F.Name = Best->Name;
    Functions.push_back(std::move(F));
  }

  // Sort by address (several text sections each have their own map) and
  // keep the first function of each name.
  std::vector<size_t> Order(Functions.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    return std::tie(Functions[A].Address, A) <
           std::tie(Functions[B].Address, B);
  });
  BlockAddressMap Map;
  StringMap<size_t> Taken; // Name -> index into Map.Functions.
  for (size_t I : Order) {
    auto [It, Inserted] =
        Taken.insert({Functions[I].Name, Map.Functions.size()});
    if (!Inserted) {
      ++Map.NumDuplicateNames;
      Map.Functions[It->second].SharedName = true;
      continue;
    }
    Map.Functions.push_back(std::move(Functions[I]));
  }
  if (Map.Functions.empty())
    return mapError(Path, "none of the " + Twine(Maps->size()) +
                              " functions of its address map has a symbol "
                              "at its entry");
  Map.NumUnnamed = NumUnnamed;

  // Every function symbol, mapped or not, in symbol table order: profiles
  // name code by any of them, and BOLT numbers locals of one name in that
  // order.
  for (const FunctionSymbol &S : Symbols)
    Map.SymbolAddresses[S.Name].push_back(S.Address);
  Map.CodeRanges = std::move(Code);
  Map.BuildID = toHex(object::getBuildID(&ELF), /*LowerCase=*/true);
  Map.index();
  return Map;
}

} // namespace kiln

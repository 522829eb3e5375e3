//===- SharedLibraries.cpp - Which program loads which library ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/SharedLibraries.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace llvm::object;

namespace kiln::pgo {

std::optional<DynamicLinkInfo> readDynamicLinkInfo(StringRef Path) {
  Expected<OwningBinary<ObjectFile>> Binary =
      ObjectFile::createObjectFile(Path);
  if (!Binary) {
    consumeError(Binary.takeError());
    return std::nullopt;
  }
  const auto *Elf = dyn_cast<ELF64LEObjectFile>(Binary->getBinary());
  if (!Elf)
    return std::nullopt;
  const ELF64LEFile &File = Elf->getELFFile();
  bool HasInterpreter = false;
  Expected<ELF64LEFile::Elf_Phdr_Range> Headers = File.program_headers();
  if (!Headers) {
    consumeError(Headers.takeError());
    return std::nullopt;
  }
  for (const ELF64LEFile::Elf_Phdr &H : *Headers)
    HasInterpreter |= H.p_type == ELF::PT_INTERP;
  Expected<ELF64LEFile::Elf_Shdr_Range> Sections = File.sections();
  if (!Sections) {
    consumeError(Sections.takeError());
    return std::nullopt;
  }
  DynamicLinkInfo Info;
  uint64_t Flags1 = 0;
  for (const ELF64LEFile::Elf_Shdr &S : *Sections) {
    if (S.sh_type != ELF::SHT_DYNAMIC)
      continue;
    Expected<StringRef> Strings = File.getLinkAsStrtab(S);
    Expected<ArrayRef<ELF64LEFile::Elf_Dyn>> Entries =
        File.getSectionContentsAsArray<ELF64LEFile::Elf_Dyn>(S);
    if (!Strings || !Entries) {
      consumeError(Strings.takeError());
      consumeError(Entries.takeError());
      return std::nullopt;
    }
    auto NameAt = [&](uint64_t Offset) -> std::string {
      if (Offset >= Strings->size())
        return "";
      return Strings->drop_front(Offset).split('\0').first.str();
    };
    for (const ELF64LEFile::Elf_Dyn &D : *Entries) {
      if (D.d_tag == ELF::DT_NEEDED)
        Info.Needed.push_back(NameAt(D.getVal()));
      else if (D.d_tag == ELF::DT_SONAME)
        Info.LoadName = NameAt(D.getVal());
      else if (D.d_tag == ELF::DT_FLAGS_1)
        Flags1 = D.getVal();
    }
  }
  Info.IsSharedLibrary = File.getHeader().e_type == ELF::ET_DYN &&
                         !HasInterpreter && !(Flags1 & ELF::DF_1_PIE);
  if (Info.LoadName.empty())
    Info.LoadName = sys::path::filename(Path).str();
  return Info;
}

bool needsLibrary(const DynamicLinkInfo &Info, StringRef LoadName,
                  ArrayRef<BuildLibrary> Libraries) {
  StringSet<> Seen;
  std::vector<const DynamicLinkInfo *> Pending = {&Info};
  while (!Pending.empty()) {
    const DynamicLinkInfo *I = Pending.back();
    Pending.pop_back();
    for (const std::string &Name : I->Needed) {
      if (Name == LoadName)
        return true;
      if (!Seen.insert(Name).second)
        continue;
      for (const BuildLibrary &L : Libraries)
        if (L.Info.LoadName == Name)
          Pending.push_back(&L.Info);
    }
  }
  return false;
}

} // namespace kiln::pgo

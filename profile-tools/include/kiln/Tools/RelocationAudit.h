//===- kiln/Tools/RelocationAudit.h - Dynamic relocation audit -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The analysis behind `kiln relocs`: read the dynamic relocations of a
/// linked ELF shared library or PIE (REL, RELA, RELR, CREL and Android's
/// packed forms), the base relocations of a PE/COFF image or the rebases
/// and binds of a Mach-O image; attribute each to the data object whose
/// bytes it patches (or to the section, when no object covers it), and
/// classify it by what the patched word points to: a C string, code (or a
/// vtable slot), other data, or something the loader resolves by symbol
/// (GOT, PLT, TLS, ...).
///
/// Every relocation the loader applies costs start-up time and makes a page
/// private to the process; tables of string pointers are the usual bulk, and
/// a local, read-only one can be rewritten as offsets into one string blob
/// (what kiln-strtab does). The audit says which objects qualify.
///
/// The pieces that need no file (RELR and base-relocation decoding, the
/// address-range index, the C-string test, the verdict) are exposed for
/// unit tests.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_RELOCATIONAUDIT_H
#define KILN_TOOLS_RELOCATIONAUDIT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln {
namespace relocs {

/// What the word a relocation writes points to.
enum class PointerClass : uint8_t {
  String,   ///< The first byte of a NUL-terminated C string.
  Function, ///< Code, or any slot of a C++ vtable (`_ZTV...`).
  Data,     ///< Anything else inside the binary.
  Other,    ///< Resolved by symbol at load time, TLS, IRELATIVE, ...
};
constexpr unsigned NumPointerClasses = 4;

/// Per-class counts, indexed by PointerClass.
using ClassCounts = std::array<uint64_t, NumPointerClasses>;

/// \returns "string", "function", "data" or "other".
llvm::StringRef getPointerClassName(PointerClass Class);

/// \returns the class named \p Name (as getPointerClassName spells it).
std::optional<PointerClass> parsePointerClass(llvm::StringRef Name);

/// \returns the sum of \p Counts.
uint64_t getTotal(const ClassCounts &Counts);

/// Decodes the entries of a SHT_RELR section: an even entry is the address
/// of a relocated word; an odd entry is a bitmap whose bit I (from bit 1)
/// marks the word I words after the current base, which then advances by
/// 8 * \p WordSize - 1 words. \p WordSize is 4 or 8 bytes.
/// \returns the relocated addresses, in encoding order.
std::vector<uint64_t> decodeRelr(llvm::ArrayRef<uint64_t> Entries,
                                 unsigned WordSize);

/// One entry of a PE image's base relocation table.
struct BaseRelocation {
  uint32_t RVA;
  uint8_t Type; ///< COFF::IMAGE_REL_BASED_*.
};

/// Decodes a PE base relocation table (the .reloc section's blocks: page
/// RVA, block size, then 16-bit entries of type << 12 | page offset).
/// \returns the entries in table order, padding (ABSOLUTE) included, or an
/// error if a block's size is inconsistent with the table.
llvm::Expected<std::vector<BaseRelocation>>
decodeBaseRelocations(llvm::ArrayRef<uint8_t> Table);

/// Address ranges [Start, Start + Size), each with an id, answering "which
/// range contains this address?". Ranges may nest or overlap: the smallest
/// containing range wins, then the lower id. Build with add(), then call
/// finalize() once before find().
class AddressRangeIndex {
public:
  /// Adds [\p Start, \p Start + \p Size); empty ranges are ignored.
  void add(uint64_t Start, uint64_t Size, uint32_t Id);
  /// Sorts the ranges; find() needs it.
  void finalize();
  /// \returns the id of the innermost range containing \p Address.
  std::optional<uint32_t> find(uint64_t Address) const;

private:
  struct Range {
    uint64_t Start;
    uint64_t End;
    uint32_t Id;
  };
  std::vector<Range> Ranges; ///< By start address after finalize().
  /// MaxEnd[I] is the largest End of Ranges[0..I]: the backward scan in
  /// find() stops once no earlier range reaches the address.
  std::vector<uint64_t> MaxEnd;
};

/// \returns true if \p Bytes (from a pointer's target to the end of its
/// section) start with a C string: a NUL within the first 4 KiB, before it
/// valid UTF-8 with no control characters other than whitespace and ESC. An
/// empty string counts only if \p AllowEmpty (in a section the compiler
/// marked as holding strings); elsewhere a lone NUL is too weak a sign.
bool looksLikeCString(llvm::ArrayRef<uint8_t> Bytes, bool AllowEmpty);

/// How a data object is visible outside its translation unit.
enum class ObjectBinding : uint8_t {
  Local,    ///< STB_LOCAL: `static`, or a compiler-made table.
  Hidden,   ///< Hidden or internal visibility: global, but not exported.
  Exported, ///< Global or weak with default or protected visibility.
};

/// A data object (STT_OBJECT) patched by at least one dynamic relocation.
struct AuditedObject {
  std::string Name; ///< As in the symbol table (mangled).
  uint64_t Address = 0;
  uint64_t Size = 0;
  std::string Section; ///< The section holding it, or "" if none.
  /// ELF: in .data.rel.ro; COFF: in a read-only section such as .rdata;
  /// Mach-O: in __DATA_CONST (or __AUTH_CONST).
  bool ReadOnlyAfterRelocation = false;
  ObjectBinding Binding = ObjectBinding::Local;
  ClassCounts Counts{}; ///< Its relocations, per class.
};

/// Whether kiln-strtab could turn an object into offsets into a string blob.
enum class StrtabVerdict : uint8_t {
  NotAllStrings, ///< Some relocation is not a string pointer.
  Removable,     ///< Local, in .data.rel.ro, only string pointers.
  Exported,      ///< Only strings, but the table is part of the ABI.
  Hidden,        ///< Only strings, but other translation units may use it.
  Writable,      ///< Only strings, but the program may write the table.
};

/// \returns the verdict for \p Object.
StrtabVerdict getStrtabVerdict(const AuditedObject &Object);

/// \returns the verdict as printed without kiln-strtab's remarks:
/// "candidate: the binary cannot show whether a use escapes", "exported:
/// interface change", ..., or "" for NotAllStrings.
llvm::StringRef getStrtabVerdictText(StrtabVerdict Verdict);

/// Relocations of one type (or of one section), per class.
struct NamedCounts {
  std::string Name;
  ClassCounts Counts{};
};

/// Everything `kiln relocs` knows about one binary.
struct RelocationAudit {
  std::string Format; ///< LLVM's name, e.g. "elf64-x86-64".
  /// "shared library", "PIE" or "executable"; PE: "DLL" or "executable";
  /// Mach-O: "dylib", "bundle" or "executable".
  std::string FileKind;
  bool HasDataRelRo = false;    ///< ELF: DataRelRoBytes is meaningful.
  ClassCounts Totals{};         ///< All dynamic relocations, per class.
  uint64_t RelrEntries = 0;     ///< Words in RELR sections.
  uint64_t RelrRelocations = 0; ///< Relocations those words encode.
  uint64_t DataRelRoBytes = 0;  ///< Size of the .data.rel.ro sections.
  /// The symbol table objects came from: ".symtab", or ".dynsym" when the
  /// binary is stripped, "COFF symbol table", "Mach-O symbol table", or ""
  /// when there is none.
  std::string SymbolTable;
  /// Per relocation type (RELR entries count as the relative type), by name.
  std::vector<NamedCounts> ByType;
  /// Per section of the patched word, by name; "<none>" outside sections.
  std::vector<NamedCounts> BySection;
  /// Relocations that patch no data object, per class.
  ClassCounts OutsideObjects{};
  /// Objects with at least one relocation, by address.
  std::vector<AuditedObject> Objects;
};

/// Audits the dynamic relocations of the linked ELF file (PE image: base
/// relocations; Mach-O image: rebases and binds) at \p Path. Corrupt input is
/// an error, never a crash (the read runs under llvm::CrashRecoveryContext when
/// the tool enabled it). A file without dynamic relocations (a static
/// executable) yields zero counts.
/// \returns the audit, or a kiln::ToolError naming \p Path: missing file,
/// not ELF, PE or Mach-O, an unlinked object file, a universal binary, or a
/// malformed file.
llvm::Expected<RelocationAudit> auditRelocations(llvm::StringRef Path);

} // namespace relocs
} // namespace kiln

#endif // KILN_TOOLS_RELOCATIONAUDIT_H

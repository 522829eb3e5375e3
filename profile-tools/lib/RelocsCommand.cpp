//===- RelocsCommand.cpp - The work of `kiln relocs` ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a RelocationAudit into `kiln relocs`'s text or JSON report. The
/// audit counts everything; --class only narrows what is listed (types,
/// sections and objects), so the totals stay the whole picture. Every list
/// has a total order (count or size, then name, then address): the same
/// input always gives the same bytes.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/RelocsCommand.h"

#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Tools/RelocationAudit.h"
#include "kiln/Tools/StrtabRemarks.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <tuple>

using namespace llvm;
using namespace kiln;
using namespace kiln::relocs;

namespace {
/// The audit as the report shows it: filtered, sorted, named.
struct RelocsReport {
  const RelocationAudit *Audit = nullptr;
  std::optional<PointerClass> Filter;
  /// Relocations the listings cover (all, or those of the filter's class).
  uint64_t Listed = 0;
  std::vector<NamedCounts> ByType;    ///< Listed count desc, then name.
  std::vector<NamedCounts> BySection; ///< Listed count desc, then name.
  /// Objects with a listed relocation, with their display names.
  std::vector<std::pair<const AuditedObject *, std::string>> Objects;
  std::vector<size_t> TopBySize;        ///< Indexes into Objects.
  std::vector<size_t> TopByRelocations; ///< Indexes into Objects.
  /// kiln-strtab's decisions, when remark files were given.
  std::optional<StrtabDecisions> Strtab;
};
} // namespace

static uint64_t countListed(const ClassCounts &Counts,
                            std::optional<PointerClass> Filter) {
  return Filter ? Counts[unsigned(*Filter)] : getTotal(Counts);
}

static std::vector<NamedCounts> sortListed(const std::vector<NamedCounts> &Rows,
                                           std::optional<PointerClass> Filter) {
  std::vector<NamedCounts> Sorted;
  for (const NamedCounts &Row : Rows)
    if (countListed(Row.Counts, Filter) != 0)
      Sorted.push_back(Row);
  llvm::sort(Sorted, [&](const NamedCounts &A, const NamedCounts &B) {
    uint64_t CountA = countListed(A.Counts, Filter);
    uint64_t CountB = countListed(B.Counts, Filter);
    return std::tie(CountB, A.Name) < std::tie(CountA, B.Name);
  });
  return Sorted;
}

static RelocsReport buildReport(const RelocationAudit &Audit,
                                const RelocsCommandOptions &Opts,
                                std::optional<PointerClass> Filter) {
  RelocsReport R;
  R.Audit = &Audit;
  R.Filter = Filter;
  R.Listed = countListed(Audit.Totals, Filter);
  R.ByType = sortListed(Audit.ByType, Filter);
  R.BySection = sortListed(Audit.BySection, Filter);
  for (const AuditedObject &O : Audit.Objects)
    if (countListed(O.Counts, Filter) != 0)
      R.Objects.push_back(
          {&O, Opts.Demangle ? llvm::demangle(O.Name) : O.Name});

  auto TopBy = [&](auto Key) {
    std::vector<size_t> Order(R.Objects.size());
    for (size_t I = 0; I < Order.size(); ++I)
      Order[I] = I;
    llvm::sort(Order, [&](size_t A, size_t B) {
      const auto &[ObjectA, NameA] = R.Objects[A];
      const auto &[ObjectB, NameB] = R.Objects[B];
      uint64_t KeyA = Key(*ObjectA), KeyB = Key(*ObjectB);
      return std::tie(KeyB, NameA, ObjectA->Address) <
             std::tie(KeyA, NameB, ObjectB->Address);
    });
    if (Opts.Top != 0 && Order.size() > Opts.Top)
      Order.resize(Opts.Top);
    return Order;
  };
  R.TopBySize = TopBy([](const AuditedObject &O) { return O.Size; });
  R.TopByRelocations = TopBy(
      [&](const AuditedObject &O) { return countListed(O.Counts, Filter); });
  return R;
}

// The kiln-strtab verdict of \p O. A local read-only string table is only a
// candidate from the binary alone; the pass's remarks say whether it refused
// it, and why.
static std::string getVerdict(const AuditedObject &O, const RelocsReport &R) {
  StrtabVerdict Verdict = getStrtabVerdict(O);
  if (Verdict != StrtabVerdict::Removable || !R.Strtab)
    return getStrtabVerdictText(Verdict).str();
  ArrayRef<StrtabRefusal> Refusals = R.Strtab->getRefusals(O.Name);
  if (Refusals.empty())
    return "candidate: kiln-strtab did not refuse it";
  std::string Text = "refused by kiln-strtab: ";
  for (const StrtabRefusal &Refusal : Refusals) {
    if (&Refusal != Refusals.begin())
      Text += ",";
    Text += Refusal.Reason;
  }
  return Text;
}

//===----------------------------------------------------------------------===//
// Text
//===----------------------------------------------------------------------===//

static void printCountTable(StringRef Title,
                            const std::vector<NamedCounts> &Rows,
                            std::optional<PointerClass> Filter,
                            raw_ostream &OS) {
  OS << Title << ":\n";
  if (Rows.empty()) {
    OS << "  (none)\n";
    return;
  }
  size_t Width = 0;
  for (const NamedCounts &Row : Rows)
    Width = std::max(Width, Row.Name.size());
  for (const NamedCounts &Row : Rows)
    OS << "  " << left_justify(Row.Name, Width) << "  "
       << format_decimal(countListed(Row.Counts, Filter), 8) << '\n';
}

static void printObjectTable(StringRef Title, const RelocsReport &R,
                             ArrayRef<size_t> Rows, raw_ostream &OS) {
  OS << Title << " (" << Rows.size() << " of " << R.Objects.size()
     << " objects with ";
  if (R.Filter)
    OS << getPointerClassName(*R.Filter) << ' ';
  OS << "relocations):\n";
  if (Rows.empty()) {
    OS << "  (none)\n";
    return;
  }
  size_t SectionWidth = strlen("section");
  size_t VerdictWidth = strlen("verdict");
  for (size_t I : Rows) {
    const AuditedObject &O = *R.Objects[I].first;
    SectionWidth = std::max(SectionWidth, O.Section.size());
    VerdictWidth = std::max(VerdictWidth, getVerdict(O, R).size());
  }
  OS << "  " << right_justify("size", 10) << "  " << right_justify("relocs", 7)
     << "  " << right_justify("string", 7) << "  "
     << right_justify("function", 8) << "  " << right_justify("data", 7) << "  "
     << right_justify("other", 7) << "  "
     << left_justify("section", SectionWidth) << "  "
     << left_justify("verdict", VerdictWidth) << "  name\n";
  for (size_t I : Rows) {
    const auto &[O, Name] = R.Objects[I];
    const ClassCounts &C = O->Counts;
    OS << "  " << format_decimal(O->Size, 10) << "  "
       << format_decimal(getTotal(C), 7) << "  "
       << format_decimal(C[unsigned(PointerClass::String)], 7) << "  "
       << format_decimal(C[unsigned(PointerClass::Function)], 8) << "  "
       << format_decimal(C[unsigned(PointerClass::Data)], 7) << "  "
       << format_decimal(C[unsigned(PointerClass::Other)], 7) << "  "
       << left_justify(O->Section, SectionWidth) << "  "
       << left_justify(getVerdict(*O, R), VerdictWidth) << "  " << Name << '\n';
  }
}

static void printText(const RelocsCommandOptions &Opts, const RelocsReport &R,
                      raw_ostream &OS) {
  const RelocationAudit &A = *R.Audit;
  OS << "kiln relocs: " << Opts.Input << ": " << A.Format << ' ' << A.FileKind
     << '\n';
  OS << "dynamic relocations: " << getTotal(A.Totals);
  if (A.RelrEntries)
    OS << " (RELR: " << A.RelrRelocations << " in " << A.RelrEntries
       << " entries)";
  OS << '\n';
  if (A.HasDataRelRo)
    OS << ".data.rel.ro: " << A.DataRelRoBytes << " bytes\n";
  if (A.SymbolTable.empty())
    OS << "data objects: none (no symbol table)\n";
  else
    OS << "data objects from " << A.SymbolTable << "; "
       << countListed(A.OutsideObjects, R.Filter)
       << " relocations patch no object\n";
  if (R.Filter)
    OS << "listing class " << getPointerClassName(*R.Filter) << ": " << R.Listed
       << " relocations\n";

  OS << "\nby class:\n";
  for (unsigned I = 0; I < NumPointerClasses; ++I)
    OS << "  " << left_justify(getPointerClassName(PointerClass(I)), 8) << "  "
       << format_decimal(A.Totals[I], 8) << '\n';
  printCountTable("by type", R.ByType, R.Filter, OS);
  printCountTable("by patched section", R.BySection, R.Filter, OS);
  OS << '\n';
  printObjectTable("largest objects", R, R.TopBySize, OS);
  OS << '\n';
  printObjectTable("most relocated objects", R, R.TopByRelocations, OS);
  if (!R.Strtab)
    return;
  const StrtabDecisions &D = *R.Strtab;
  OS << "\nkiln-strtab remarks: " << D.NumFiles << " files, "
     << D.Lowered.size() << " tables lowered, " << D.Refused.size()
     << " refusals:\n";
  if (D.Refused.empty())
    OS << "  (none)\n";
  for (const StrtabRefusal &Refusal : D.Refused) {
    OS << "  " << Refusal.Table << "  " << Refusal.Reason << "  "
       << Refusal.Text;
    if (!Refusal.Function.empty())
      OS << " (" << Refusal.Function << ')';
    OS << '\n';
  }
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static void writeClassCounts(json::OStream &J, const ClassCounts &Counts) {
  for (unsigned I = 0; I < NumPointerClasses; ++I)
    J.attribute(getPointerClassName(PointerClass(I)), Counts[I]);
}

static StringRef getBindingName(ObjectBinding Binding) {
  switch (Binding) {
  case ObjectBinding::Local:
    return "local";
  case ObjectBinding::Hidden:
    return "hidden";
  case ObjectBinding::Exported:
    return "exported";
  }
  llvm_unreachable("unknown binding");
}

static void writeObjects(json::OStream &J, StringRef Key, const RelocsReport &R,
                         ArrayRef<size_t> Rows) {
  J.attributeArray(Key, [&] {
    for (size_t I : Rows) {
      const AuditedObject *O = R.Objects[I].first;
      const std::string &Name = R.Objects[I].second;
      J.object([&] {
        J.attribute("name", Name);
        J.attribute("symbol", O->Name);
        J.attribute("address", O->Address);
        J.attribute("size", O->Size);
        J.attribute("section", O->Section);
        J.attribute("binding", getBindingName(O->Binding));
        J.attribute("relocations", getTotal(O->Counts));
        writeClassCounts(J, O->Counts);
        if (getStrtabVerdict(*O) == StrtabVerdict::NotAllStrings)
          J.attribute("verdict", nullptr);
        else
          J.attribute("verdict", getVerdict(*O, R));
      });
    }
  });
}

static void writeCountRows(json::OStream &J, StringRef Key, StringRef NameKey,
                           const std::vector<NamedCounts> &Rows,
                           std::optional<PointerClass> Filter) {
  J.attributeArray(Key, [&] {
    for (const NamedCounts &Row : Rows)
      J.object([&] {
        J.attribute(NameKey, Row.Name);
        J.attribute("count", countListed(Row.Counts, Filter));
        writeClassCounts(J, Row.Counts);
      });
  });
}

static void printJSON(const RelocsCommandOptions &Opts, const RelocsReport &R,
                      raw_ostream &OS) {
  const RelocationAudit &A = *R.Audit;
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("file", Opts.Input);
    J.attribute("format", A.Format);
    J.attribute("kind", A.FileKind);
    J.attribute("relocations", getTotal(A.Totals));
    J.attributeObject("relr", [&] {
      J.attribute("entries", A.RelrEntries);
      J.attribute("relocations", A.RelrRelocations);
    });
    J.attribute("data_rel_ro_bytes", A.DataRelRoBytes);
    J.attribute("symbol_table", A.SymbolTable);
    J.attributeObject("by_class", [&] { writeClassCounts(J, A.Totals); });
    J.attributeObject("outside_objects",
                      [&] { writeClassCounts(J, A.OutsideObjects); });
    if (R.Filter)
      J.attribute("class_filter", getPointerClassName(*R.Filter));
    else
      J.attribute("class_filter", nullptr);
    J.attribute("listed_relocations", R.Listed);
    writeCountRows(J, "by_type", "type", R.ByType, R.Filter);
    writeCountRows(J, "by_section", "section", R.BySection, R.Filter);
    J.attribute("objects_with_relocations", uint64_t(R.Objects.size()));
    writeObjects(J, "largest_objects", R, R.TopBySize);
    writeObjects(J, "most_relocated_objects", R, R.TopByRelocations);
    if (!R.Strtab) {
      J.attribute("strtab_remarks", nullptr);
      return;
    }
    J.attributeObject("strtab_remarks", [&] {
      J.attribute("files", R.Strtab->NumFiles);
      J.attributeArray("lowered", [&] {
        for (const std::string &Table : R.Strtab->Lowered)
          J.value(Table);
      });
      J.attributeArray("refused", [&] {
        for (const StrtabRefusal &Refusal : R.Strtab->Refused)
          J.object([&] {
            J.attribute("table", Refusal.Table);
            J.attribute("reason", Refusal.Reason);
            J.attribute("text", Refusal.Text);
            if (Refusal.Function.empty())
              J.attribute("function", nullptr);
            else
              J.attribute("function", Refusal.Function);
          });
      });
    });
  });
  OS << '\n';
}

Error kiln::runRelocsCommand(const RelocsCommandOptions &Opts) {
  if (Opts.Input.empty())
    return makeToolError("no input", "", "give a linked shared library or PIE");
  std::optional<PointerClass> Filter;
  if (!Opts.ClassFilter.empty()) {
    Filter = parsePointerClass(Opts.ClassFilter);
    if (!Filter)
      return makeToolError("unknown class '" + Opts.ClassFilter +
                               "'; expected string, function, data or other",
                           "--class");
  }
  std::vector<NamedFile> Inputs = {{Opts.Input, "input"}};
  for (const std::string &Remarks : Opts.Remarks)
    Inputs.push_back({Remarks, "--remarks"});
  if (Error E = checkOutputPaths({{Opts.Output, "-o"}}, Inputs))
    return makeToolError(toString(std::move(E)));
  Expected<RelocationAudit> Audit = auditRelocations(Opts.Input);
  if (!Audit)
    return Audit.takeError();
  RelocsReport Report = buildReport(*Audit, Opts, Filter);
  if (!Opts.Remarks.empty()) {
    Expected<StrtabDecisions> Decisions = readStrtabRemarks(Opts.Remarks);
    if (!Decisions)
      return Decisions.takeError();
    Report.Strtab = std::move(*Decisions);
  }

  // Opened only now, so a bad input leaves no empty report behind.
  return writeOutputFile(
      Opts.Output,
      [&](raw_ostream &OS) {
        if (Opts.JSON)
          printJSON(Opts, Report, OS);
        else
          printText(Opts, Report, OS);
      },
      sys::fs::OF_TextWithCRLF);
}

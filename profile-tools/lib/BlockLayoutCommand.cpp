//===- BlockLayoutCommand.cpp - `kiln block-layout` -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/BlockLayoutCommand.h"

#include "kiln/Order/BlockSectionsFile.h"
#include "kiln/Order/OrderFileText.h"
#include "kiln/Sources/BlockProfileText.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

using namespace llvm;
using namespace kiln;

/// Functions listed by name in the summary's warnings; the report has all.
static constexpr size_t MaxListedSkips = 10;

namespace {
/// What was planned and written, for the summary and the report.
struct BlockLayoutResult {
  const layout::BlockProfile &Profile;
  const layout::BlockLayout &Layout;
  BlockSectionsReport Sections;
  OrderFileReport Order;
  uint64_t PageSize = 4096;
  /// ceil(bytes of the blocks startup ran / page size).
  uint64_t StartupPageBound = 0;
};
} // namespace

static std::vector<std::string> getHeader(const BlockLayoutCommandOptions &Opts,
                                          const layout::BlockProfile &Profile,
                                          StringRef Format) {
  return {getOrderFileTitle("kiln block-layout"),
          "command: " + Opts.CommandLine,
          "build-id: " +
              (Profile.BuildID.empty() ? std::string("none") : Profile.BuildID),
          ("format: " + Format +
           "; page size: " + Twine(Opts.Layout.Composite.PageSize))
              .str()};
}

static void writeReport(const BlockLayoutResult &R, StringRef Input,
                        raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/2);
  J.object([&] {
    J.attribute("tool", "kiln block-layout");
    J.attribute("profile", Input);
    J.attribute("build_id", R.Profile.BuildID);
    J.attribute("page_size", int64_t(R.PageSize));
    J.attribute("functions", int64_t(R.Layout.Functions.size()));
    J.attribute("functions_not_run", int64_t(R.Layout.NumNotRun));
    J.attributeArray("skipped", [&] {
      for (const layout::SkippedFunction &S : R.Layout.Skipped)
        J.object([&] {
          J.attribute("function", R.Profile.Functions[S.Function].Name);
          J.attribute("reason", layout::getSkipReasonText(S.Reason));
        });
    });
    J.attributeObject("clusters", [&] {
      for (unsigned K = 0; K < layout::NumClusterKinds; ++K)
        J.attributeObject(
            layout::getClusterKindName(layout::ClusterKind(K)), [&] {
              J.attribute("clusters", int64_t(R.Layout.getNumClusters(
                                          layout::ClusterKind(K))));
              J.attribute("bytes", int64_t(R.Layout.getClusterBytes(
                                       layout::ClusterKind(K))));
              J.attribute("bytes_as_run", int64_t(R.Layout.RunBytes[K]));
            });
    });
    J.attributeArray("groups", [&] {
      for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
        const layout::GroupSummary &S = R.Layout.Composite.Groups[G];
        J.object([&] {
          J.attribute("group",
                      layout::getLayoutGroupName(layout::LayoutGroup(G)));
          J.attribute("clusters", int64_t(S.NumNodes));
          J.attribute("bytes", int64_t(S.Bytes));
          J.attribute("pages", int64_t(S.Pages));
          J.attribute("method", layout::getOrderMethodName(S.Method));
        });
      }
    });
    J.attribute("startup_page_bound", int64_t(R.StartupPageBound));
    J.attribute("small_parts_kept", int64_t(R.Layout.NumTinyPartsKept));
    J.attribute("shared_names_whole", int64_t(R.Layout.NumSharedNames));
    J.attribute("landing_pads_moved", int64_t(R.Layout.NumEHPadsMoved));
    J.attribute("symbols_ordered", int64_t(R.Order.Written));
    J.attributeArray("layout", [&] {
      for (const layout::ClusteredFunction &CF : R.Layout.Functions) {
        const layout::BlockFunction &F = R.Profile.Functions[CF.Function];
        J.object([&] {
          J.attribute("function", F.Name);
          J.attributeArray("clusters", [&] {
            for (uint32_t Index : CF.Clusters) {
              const layout::BlockCluster &C = R.Layout.Clusters[Index];
              J.object([&] {
                J.attribute("symbol", layout::getClusterSymbolName(F.Name, C));
                J.attribute("kind", layout::getClusterKindName(C.Kind));
                J.attribute("group", layout::getLayoutGroupName(C.Group));
                J.attribute("bytes", int64_t(C.Bytes));
                J.attributeArray("blocks", [&] {
                  for (uint32_t B : C.Blocks)
                    J.value(int64_t(F.Blocks[B].ID));
                });
              });
            }
          });
        });
      }
    });
  });
  OS << '\n';
}

static void printSummary(const BlockLayoutResult &R,
                         const BlockLayoutCommandOptions &Opts,
                         raw_ostream &Diag) {
  auto Name = [](StringRef Path) {
    return Path == "-" ? StringRef("<stdout>") : Path;
  };
  const layout::BlockLayout &L = R.Layout;
  Diag << "kiln block-layout: wrote " << R.Sections.Functions
       << " functions in " << R.Sections.Clusters << " clusters to "
       << Name(Opts.Output);
  if (!Opts.SymbolOrderingFile.empty())
    Diag << ", " << R.Order.Written << " symbols to "
         << Name(Opts.SymbolOrderingFile);
  Diag << '\n';
  for (unsigned K = 0; K < layout::NumClusterKinds; ++K) {
    auto Kind = layout::ClusterKind(K);
    Diag << "  " << layout::getClusterKindName(Kind)
         << " clusters: " << L.getNumClusters(Kind) << ", "
         << L.getClusterBytes(Kind) << " bytes\n";
  }
  for (unsigned G = 0; G < layout::NumLayoutGroups; ++G) {
    const layout::GroupSummary &S = L.Composite.Groups[G];
    if (!S.NumNodes)
      continue;
    Diag << "  placed " << layout::getLayoutGroupName(layout::LayoutGroup(G))
         << ": " << S.NumNodes << " clusters, " << S.Bytes << " bytes";
    if (S.Method == layout::OrderMethod::None)
      Diag << ", left to the linker\n";
    else
      Diag << ", " << S.Pages << " pages, by "
           << layout::getOrderMethodName(S.Method) << '\n';
  }
  Diag << "  startup: " << L.getStartupRunBytes()
       << " bytes of blocks ran; block-granularity bound " << R.StartupPageBound
       << " pages of " << R.PageSize << " bytes\n";
  if (L.NumNotRun)
    Diag << "  functions no scenario ran: " << L.NumNotRun
         << " (not listed; left to the linker)\n";
  if (L.NumTinyPartsKept || L.NumEHPadsMoved)
    Diag << "  small parts kept with their function: " << L.NumTinyPartsKept
         << "; landing pads moved to their function's other pads: "
         << L.NumEHPadsMoved << '\n';
  if (L.NumSharedNames)
    Diag << "  functions laid out whole, by a name other functions share: "
         << L.NumSharedNames << '\n';
  if (L.Skipped.empty())
    return;
  WithColor::warning(Diag, "kiln")
      << L.Skipped.size()
      << " function(s) of the profile are left out of the block layout\n";
  for (size_t I = 0; I < std::min(L.Skipped.size(), MaxListedSkips); ++I)
    Diag << "    " << R.Profile.Functions[L.Skipped[I].Function].Name << ": "
         << layout::getSkipReasonText(L.Skipped[I].Reason) << '\n';
  if (L.Skipped.size() > MaxListedSkips)
    Diag << "    ... and " << L.Skipped.size() - MaxListedSkips
         << " more (see --report)\n";
}

Error kiln::runBlockLayoutCommand(const BlockLayoutCommandOptions &Opts,
                                  raw_ostream &Diag) {
  if (Opts.Input.empty())
    return makeToolError("no input", "",
                         "give the block profile written by kiln "
                         "block-profile (a .kbp file)");
  if (Opts.Output.empty())
    return makeToolError("no output file", "-o",
                         "give -o <file> for the basic-block-sections "
                         "profile");
  // Before anything is written: no output may replace the input or another
  // output.
  if (Error E =
          checkOutputPaths({{Opts.Output, "-o"},
                            {Opts.SymbolOrderingFile, "--symbol-ordering-file"},
                            {Opts.ReportPath, "--report"}},
                           {{Opts.Input, "input"}}))
    return makeToolError(toString(std::move(E)));

  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(Opts.Input, /*IsText=*/true);
  if (!Buffer)
    return makeToolError(Opts.Input + ": " + Buffer.getError().message());
  // The parser verifies what the planner relies on.
  Expected<layout::BlockProfile> Profile =
      parseBlockProfile((*Buffer)->getMemBufferRef());
  if (!Profile)
    return makeToolError(toString(Profile.takeError()));

  layout::BlockLayout Layout = layout::planBlockLayout(*Profile, Opts.Layout);
  if (Layout.Functions.empty())
    return makeToolError(
        Opts.Input + ": no block of the profile ran in any scenario (" +
            Twine(Profile->Functions.size()) + " functions, " +
            Twine(Layout.Skipped.size()) + " skipped): nothing to lay out",
        "",
        "profile a run of the program that the block profile's address map "
        "belongs to");

  BlockLayoutResult R{*Profile, Layout, {}, {}, Opts.Layout.Composite.PageSize,
                      0};
  R.StartupPageBound = divideCeil(Layout.getStartupRunBytes(), R.PageSize);

  Expected<std::unique_ptr<OutputFile>> Sections =
      OutputFile::create(Opts.Output);
  if (!Sections)
    return makeToolError(toString(Sections.takeError()));
  R.Sections = writeBasicBlockSectionsProfile(
      *Profile, Layout,
      getHeader(Opts, *Profile, "llvm basic-block-sections v1"),
      (*Sections)->os());
  std::unique_ptr<OutputFile> Order;
  if (!Opts.SymbolOrderingFile.empty()) {
    Expected<std::unique_ptr<OutputFile>> File =
        OutputFile::create(Opts.SymbolOrderingFile);
    if (!File)
      return makeToolError(toString(File.takeError()));
    Order = std::move(*File);
    OrderFileOptions OrderOpts;
    OrderOpts.Header = getHeader(Opts, *Profile, "elf");
    R.Order = writeClusterOrderFile(*Profile, Layout, OrderOpts, Order->os());
  }
  // The report, then the files put in place, then the summary: a run that
  // fails leaves the previous files and says nothing it did not do.
  if (!Opts.ReportPath.empty())
    if (Error E = writeOutputFile(Opts.ReportPath, [&](raw_ostream &OS) {
          writeReport(R, Opts.Input, OS);
        }))
      return makeToolError(toString(std::move(E)));
  if (Error E = (*Sections)->commit())
    return makeToolError(toString(std::move(E)));
  if (Order)
    if (Error E = Order->commit())
      return makeToolError(toString(std::move(E)));
  printSummary(R, Opts, Diag);
  return Error::success();
}

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
#include "kiln/Sources/BlockAddressMap.h"
#include "kiln/Sources/BlockProfileSources.h"
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
#include <optional>

using namespace llvm;
using namespace kiln;

/// Functions listed by name in the summary's warnings; the report has all.
static constexpr size_t MaxListedSkips = 10;

namespace {
/// What re-mapping the profile onto `--binary=` found, over the functions
/// that ran in the profile (the others do not change the layout).
struct MatchSummary {
  std::string Binary;
  std::string ProfileBuildID;
  double MinPairedShare = 0;
  const layout::BlockProfile *Profiled = nullptr; ///< The profile as read.
  uint32_t Ran = 0;
  uint32_t NumByKind[layout::NumFunctionMatchKinds] = {};
  uint64_t DroppedBlocks = 0;
  /// The functions that ran and are not exact, in profile order.
  std::vector<layout::FunctionMatch> NotExact;

  uint32_t getNum(layout::FunctionMatchKind Kind) const {
    return NumByKind[unsigned(Kind)];
  }
};

/// What was planned and written, for the summary and the report.
struct BlockLayoutResult {
  const layout::BlockProfile &Profile;
  const layout::BlockLayout &Layout;
  BlockSectionsReport Sections;
  OrderFileReport Order;
  uint64_t PageSize = 4096;
  /// ceil(bytes of the blocks startup ran / page size).
  uint64_t StartupPageBound = 0;
  /// With `--binary=`: the matching.
  const MatchSummary *Match = nullptr;
};
} // namespace

static MatchSummary summarizeMatch(const layout::BlockProfile &Profiled,
                                   const layout::BlockProfileMatch &Match,
                                   const BlockLayoutCommandOptions &Opts) {
  MatchSummary S;
  S.Binary = Opts.Binary;
  S.ProfileBuildID = Profiled.BuildID;
  S.MinPairedShare = Opts.Match.MinPairedShare;
  S.Profiled = &Profiled;
  for (const layout::FunctionMatch &M : Match.Functions) {
    if (!M.Count)
      continue;
    ++S.Ran;
    ++S.NumByKind[unsigned(M.Kind)];
    if (M.Kind == layout::FunctionMatchKind::ByHash)
      S.DroppedBlocks += M.Blocks - M.PairedBlocks;
    if (M.Kind != layout::FunctionMatchKind::Exact)
      S.NotExact.push_back(M);
  }
  return S;
}

/// \returns the percentage of \p M's counts its paired blocks hold.
static uint64_t getPairedPercent(const layout::FunctionMatch &M) {
  return M.Count ? uint64_t(double(M.PairedCount) * 100 / double(M.Count)) : 0;
}

static void writeMatchReport(const MatchSummary &S, json::OStream &J) {
  using layout::FunctionMatchKind;
  J.attributeObject("match", [&] {
    J.attribute("binary", S.Binary);
    J.attribute("profile_build_id", S.ProfileBuildID);
    J.attribute("min_matched_counts", S.MinPairedShare);
    J.attribute("functions_ran", int64_t(S.Ran));
    J.attribute("exact", int64_t(S.getNum(FunctionMatchKind::Exact)));
    J.attribute("by_hash", int64_t(S.getNum(FunctionMatchKind::ByHash)));
    J.attribute("blocks_dropped", int64_t(S.DroppedBlocks));
    J.attribute("stale", int64_t(S.getNum(FunctionMatchKind::Stale)));
    J.attribute("missing", int64_t(S.getNum(FunctionMatchKind::Missing)));
    J.attributeArray("functions", [&] {
      for (const layout::FunctionMatch &M : S.NotExact)
        J.object([&] {
          J.attribute("function", S.Profiled->Functions[M.Profiled].Name);
          J.attribute("match", layout::getFunctionMatchKindName(M.Kind));
          J.attribute("blocks", int64_t(M.Blocks));
          J.attribute("matched_blocks", int64_t(M.PairedBlocks));
          J.attribute("count", int64_t(M.Count));
          J.attribute("matched_count", int64_t(M.PairedCount));
        });
    });
  });
}

static void printMatchSummary(const MatchSummary &S, raw_ostream &Diag) {
  using layout::FunctionMatchKind;
  Diag << "  matched to " << S.Binary << ": of " << S.Ran
       << " functions that ran, " << S.getNum(FunctionMatchKind::Exact)
       << " exact, " << S.getNum(FunctionMatchKind::ByHash) << " by hash ("
       << S.DroppedBlocks << " blocks dropped), "
       << S.getNum(FunctionMatchKind::Stale) << " skipped as stale, "
       << S.getNum(FunctionMatchKind::Missing) << " missing\n";
  size_t Left =
      S.getNum(FunctionMatchKind::Stale) + S.getNum(FunctionMatchKind::Missing);
  if (!Left)
    return;
  WithColor::warning(Diag, "kiln")
      << Left << " function(s) that ran in the profile keep function-level "
      << "layout in " << S.Binary << '\n';
  size_t Listed = 0;
  for (const layout::FunctionMatch &M : S.NotExact) {
    if (M.Kind == FunctionMatchKind::ByHash)
      continue;
    if (Listed++ == MaxListedSkips) {
      Diag << "    ... and " << Left - MaxListedSkips
           << " more (see --report)\n";
      break;
    }
    Diag << "    " << S.Profiled->Functions[M.Profiled].Name << ": ";
    if (M.Kind == FunctionMatchKind::Missing)
      Diag << "not in " << S.Binary << '\n';
    else if (M.WithoutHashes)
      Diag << "changed, and no block hashes to match its blocks by\n";
    else
      Diag << "stale: " << getPairedPercent(M) << "% of its counts matched\n";
  }
}

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
    J.attribute("inside_unseen_whole", int64_t(R.Layout.NumInsideUnseen));
    J.attribute("landing_pads_moved", int64_t(R.Layout.NumEHPadsMoved));
    J.attribute("fall_throughs_kept", int64_t(R.Layout.NumFallThroughsKept));
    J.attribute("fall_throughs_over_run",
                int64_t(R.Layout.NumFallThroughsOverRun));
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
    if (R.Match)
      writeMatchReport(*R.Match, J);
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
  if (L.NumFallThroughsKept)
    Diag << "  never-run blocks moved before the executed block they fall "
            "into: "
         << L.NumFallThroughsKept
         << "; of them where a block that ran fell into it, which now jumps: "
         << L.NumFallThroughsOverRun << '\n';
  if (L.NumSharedNames)
    Diag << "  functions laid out whole, by a name other functions share: "
         << L.NumSharedNames << '\n';
  if (L.NumInsideUnseen)
    Diag << "  functions laid out whole, their profile saw only their entry "
            "run (the profiler could not see inside them): "
         << L.NumInsideUnseen << '\n';
  if (R.Match)
    printMatchSummary(*R.Match, Diag);
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
                           {{Opts.Input, "input"}, {Opts.Binary, "--binary"}}))
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

  // With --binary, the layout is of that build: the profile re-mapped onto
  // its blocks.
  std::optional<layout::BlockProfileMatch> Match;
  std::optional<MatchSummary> Matched;
  if (!Opts.Binary.empty()) {
    Expected<BlockAddressMap> Map = BlockAddressMap::read(Opts.Binary);
    if (!Map)
      return makeToolError(toString(Map.takeError()));
    layout::BlockProfile Build = buildBlockProfile(*Map, {}, {});
    Match = layout::matchBlockProfile(*Profile, Build, Opts.Match);
    Matched = summarizeMatch(*Profile, *Match, Opts);
    auto HasHashes = [](const layout::BlockProfile &P) {
      return any_of(P.Functions, [](const layout::BlockFunction &F) {
        return any_of(F.Blocks,
                      [](const layout::ProfiledBlock &B) { return B.Hash; });
      });
    };
    if (!HasHashes(Build))
      WithColor::warning(Diag, "kiln")
          << Opts.Binary
          << ": its address map has no block hashes (link it with kiln-lld "
             "--kiln-block-address-map, or -Wl,-mllvm,-emit-bb-hash): only "
             "functions whose blocks kept their IDs and sizes are matched\n";
    else if (!HasHashes(*Profile))
      WithColor::warning(Diag, "kiln")
          << Opts.Input
          << ": the profile has no block hashes (its binary was linked "
             "without them): only functions whose blocks kept their IDs and "
             "sizes are matched\n";
    using layout::FunctionMatchKind;
    if (Matched->Ran && !Matched->getNum(FunctionMatchKind::Exact) &&
        !Matched->getNum(FunctionMatchKind::ByHash))
      return makeToolError(
          Opts.Input + ": no function that ran in the profile matches " +
              Opts.Binary + " (of " + Twine(Matched->Ran) + ", " +
              Twine(Matched->getNum(FunctionMatchKind::Stale)) + " stale, " +
              Twine(Matched->getNum(FunctionMatchKind::Missing)) +
              " missing): nothing to lay out",
          "",
          "the profile is of another program, or of a build too unlike this "
          "one: profile a run of " +
              Opts.Binary + " (kiln block-profile --binary=" + Opts.Binary +
              ")");
  }
  const layout::BlockProfile &Planned = Match ? Match->Profile : *Profile;

  layout::BlockLayout Layout = layout::planBlockLayout(Planned, Opts.Layout);
  if (Layout.Functions.empty())
    return makeToolError(
        Opts.Input + ": no block of the profile ran in any scenario (" +
            Twine(Profile->Functions.size()) + " functions, " +
            Twine(Layout.Skipped.size()) + " skipped): nothing to lay out",
        "",
        "profile a run of the program that the block profile's address map "
        "belongs to");

  BlockLayoutResult R{Planned, Layout, {}, {}, Opts.Layout.Composite.PageSize,
                      0};
  if (Matched)
    R.Match = &*Matched;
  R.StartupPageBound = divideCeil(Layout.getStartupRunBytes(), R.PageSize);

  Expected<std::unique_ptr<OutputFile>> Sections =
      OutputFile::create(Opts.Output);
  if (!Sections)
    return makeToolError(toString(Sections.takeError()));
  R.Sections = writeBasicBlockSectionsProfile(
      Planned, Layout, getHeader(Opts, Planned, "llvm basic-block-sections v1"),
      (*Sections)->os());
  std::unique_ptr<OutputFile> Order;
  if (!Opts.SymbolOrderingFile.empty()) {
    Expected<std::unique_ptr<OutputFile>> File =
        OutputFile::create(Opts.SymbolOrderingFile);
    if (!File)
      return makeToolError(toString(File.takeError()));
    Order = std::move(*File);
    OrderFileOptions OrderOpts;
    OrderOpts.Header = getHeader(Opts, Planned, "elf");
    R.Order = writeClusterOrderFile(Planned, Layout, OrderOpts, Order->os());
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

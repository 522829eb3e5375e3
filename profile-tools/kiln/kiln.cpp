//===- kiln.cpp - The Kiln command-line tool ------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln <subcommand> [options]`, in the shape of llvm-profdata: one
/// cl::SubCommand per job, each implemented by a `static Error xxxMain()`
/// that `main` dispatches to and whose error it reports once. The work of a
/// subcommand lives in a library; this file only parses and dispatches.
/// Documentation: docs/CommandGuide/kiln.rst.
///
//===----------------------------------------------------------------------===//

#include "kiln/Layout/CallGraph.h"
#include "kiln/Layout/LayoutAlgorithmOption.h"
#include "kiln/Order/OrderPlanner.h"
#include "kiln/Sources/EdgeList.h"
#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/ReaderDiagnostics.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/PluginLocation.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Support/Version.inc"
#include "kiln/Tools/BlockLayoutCommand.h"
#include "kiln/Tools/BlockProfileCommand.h"
#include "kiln/Tools/CallGraphDump.h"
#include "kiln/Tools/EvalCommand.h"
#include "kiln/Tools/ImportsCommand.h"
#include "kiln/Tools/OrderCommand.h"
#include "kiln/Tools/PgoCommand.h"
#include "kiln/Tools/ProfileCheckCommand.h"
#include "kiln/Tools/ProfileMergeCommand.h"
#include "kiln/Tools/RelocsCommand.h"
#include "kiln/Tools/ReportCommand.h"
#include "kiln/Tools/ThinBackend.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static const char *const ToolName = "kiln";

static cl::OptionCategory KilnCategory("kiln options");

namespace {
/// The parser of an option with named values: an unknown value is an error
/// that lists the valid ones (`kiln: error: --format: unknown value 'xml';
/// valid values: text, json, dot`), not CommandLine's "Cannot find option
/// named".
template <typename T> class ChoiceParser : public cl::parser<T> {
public:
  using cl::parser<T>::parser;

  bool parse(cl::Option &O, StringRef ArgName, StringRef Arg, T &Value) {
    std::string Valid;
    for (const auto &Choice : this->Values) {
      if (Choice.Name == Arg) {
        Value = Choice.V.getValue();
        return false;
      }
      Valid += (Valid.empty() ? "" : ", ") + Choice.Name.str();
    }
    WithColor::error(errs(), ToolName)
        << "--" << (ArgName.empty() ? O.ArgStr : ArgName) << ": unknown value '"
        << Arg << "'; valid values: " << Valid << '\n';
    return true;
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Subcommands, and the options several of them share (one spelling each)
//===----------------------------------------------------------------------===//

static cl::SubCommand PrintPluginPathCmd(
    "print-plugin-path",
    "Print the absolute path of Kiln's pass-plugin module, for "
    "-fpass-plugin= and --load-pass-plugin= "
    "(see docs/CommandGuide/kiln.rst)");

static cl::SubCommand CallGraphCmd(
    "callgraph",
    "Dump the profiled call graph: edges with counts, heaviest first "
    "(see docs/CommandGuide/kiln-callgraph.rst)");

static cl::SubCommand
    OrderCmd("order",
             "Compute a function order from profiles and write the linker's "
             "ordering file (see docs/CommandGuide/kiln-order.rst)");

static cl::SubCommand BlockLayoutCmd(
    "block-layout",
    "Plan block layout from a block profile: startup-only, shared, "
    "steady-only and never-run clusters per function, ext-TSP inside them, "
    "Kiln's order "
    "across them; write LLVM's basic-block-sections profile and the "
    "clusters' symbol ordering file "
    "(see docs/CommandGuide/kiln-block-layout.rst)");

static cl::SubCommand
    EvalCmd("eval",
            "Measure a linked program's code layout against a profile: code "
            "pages that ran, their lower bound, call locality, ext-TSP score "
            "(see docs/CommandGuide/kiln-eval.rst)");

static cl::SubCommand
    RelocsCmd("relocs",
              "Audit the dynamic relocations of a shared library or PIE (ELF; "
              "also PE base relocations, Mach-O rebases and binds): totals by "
              "type and by what they point to, and the data objects that "
              "carry them (see docs/CommandGuide/kiln-relocs.rst)");

static cl::SubCommand
    ImportsCmd("imports",
               "Plan ThinLTO imports over the whole profiled call graph under "
               "a budget; write a -thinlto-workload-def file, per-module "
               "import lists and a report "
               "(see docs/CommandGuide/kiln-imports.rst)");
static cl::SubCommand ThinBackendCmd(
    "thin-backend",
    "Run one backend job of a distributed ThinLTO build with Kiln's plugin: "
    "a module and its index from ld.lld --thinlto-index-only in, a native "
    "object out (see docs/CommandGuide/kiln-thin-backend.rst)");

static cl::SubCommand
    ProfileCmd("profile",
               "Check profiles against a build (kiln profile check "
               "--scenario=<kind>=<profile> <objects, archives or the linked "
               "program>), merge named, weighted scenarios (kiln profile "
               "merge --scenario=<name>=<profile>[,<profile>...][:<weight>] "
               "[--scale=<n>] -o <dir>), or multiply a profile's counts "
               "(kiln profile scale --factor=<n> <profile> -o <output>) "
               "(see docs/CommandGuide/kiln-profile.rst)");

static cl::SubCommand ReportCmd(
    "report",
    "Write one static HTML page and a JSON file saying what Kiln did in a "
    "build: each decision with its counts, and the code pages that ran "
    "before and after Kiln's order (see docs/CommandGuide/kiln-report.rst)");

static cl::SubCommand BlockProfileCmd(
    "block-profile",
    "Map profiles of an address-mapped binary (callgrind, BOLT .fdata, perf "
    "branch stacks) to its machine basic blocks and write the block profile "
    "(see docs/CommandGuide/kiln-block-profile.rst)");

// `kiln pgo <phase>` has subcommands of its own and parses its arguments
// itself (pgoMain); this entry lists it in `kiln --help`.
static cl::SubCommand PgoCmd(
    "pgo",
    "The guided flow around the project's own build command: kiln pgo "
    "instrument|run|optimize|status (see docs/CommandGuide/kiln-pgo.rst)");

static cl::list<std::string>
    Scenarios("scenario", cl::sub(CallGraphCmd), cl::sub(OrderCmd),
              cl::sub(EvalCmd), cl::sub(ImportsCmd), cl::sub(ReportCmd),
              cl::value_desc("kind=profile[:weight]"),
              cl::desc("a scenario's profile (instrumented or sample); kind is "
                       "'startup' or 'steady'; may be repeated"),
              cl::cat(KilnCategory));
static cl::list<std::string> Profiles(
    "profile", cl::sub(CallGraphCmd), cl::sub(OrderCmd), cl::sub(EvalCmd),
    cl::sub(ImportsCmd), cl::sub(ProfileCmd), cl::value_desc("profile"),
    cl::desc("same as --scenario=steady=<profile>"), cl::cat(KilnCategory));
static cl::list<std::string>
    EdgeLists("edges", cl::sub(CallGraphCmd), cl::sub(OrderCmd),
              cl::sub(EvalCmd), cl::value_desc("file"),
              cl::desc("an lld call-graph edge list ('caller callee count' "
                       "lines), as one more steady-state scenario; may be "
                       "repeated"),
              cl::cat(KilnCategory));

/// \returns the --scenario specs, with each --profile as a steady one.
static std::vector<std::string> getScenarioSpecs() {
  std::vector<std::string> Specs(Scenarios.begin(), Scenarios.end());
  for (const std::string &Profile : Profiles)
    Specs.push_back("steady=" + Profile);
  return Specs;
}

//===----------------------------------------------------------------------===//
// kiln print-plugin-path
//===----------------------------------------------------------------------===//

static Error printPluginPathMain(const char *Argv0) {
  // Locating the executable needs an address inside it.
  static int AddressInKiln;
  Expected<std::string> Path = kiln::findPlugin(Argv0, &AddressInKiln);
  if (!Path)
    return kiln::makeToolError(
        toString(Path.takeError()), "",
        "build the KilnPlugin target, or set KILN_PLUGIN to the module's path");
  outs() << *Path << '\n';
  return Error::success();
}

//===----------------------------------------------------------------------===//
// kiln callgraph
//===----------------------------------------------------------------------===//

static cl::list<std::string> CallGraphInputs(cl::Positional,
                                             cl::sub(CallGraphCmd),
                                             cl::desc("<object, archive...>"),
                                             cl::cat(KilnCategory));
static cl::opt<uint64_t>
    CallGraphTop("top", cl::sub(CallGraphCmd), cl::init(0), cl::value_desc("N"),
                 cl::desc("print only the N heaviest edges (default: all)"),
                 cl::cat(KilnCategory));
static cl::opt<uint64_t> CallGraphMinCount(
    "min-count", cl::sub(CallGraphCmd), cl::init(0), cl::value_desc("N"),
    cl::desc("omit edges with a count below N"), cl::cat(KilnCategory));
static cl::opt<kiln::DumpFormat, false, ChoiceParser<kiln::DumpFormat>>
    CallGraphFormat(
        "format", cl::sub(CallGraphCmd), cl::init(kiln::DumpFormat::Text),
        cl::desc("output format"),
        cl::values(clEnumValN(kiln::DumpFormat::Text, "text", "text (default)"),
                   clEnumValN(kiln::DumpFormat::JSON, "json", "JSON"),
                   clEnumValN(kiln::DumpFormat::DOT, "dot", "Graphviz DOT")),
        cl::cat(KilnCategory));
static cl::opt<bool> CallGraphNoDemangle("no-demangle", cl::sub(CallGraphCmd),
                                         cl::desc("print mangled names"),
                                         cl::cat(KilnCategory));
static cl::opt<std::string> CallGraphOutput(
    "o", cl::sub(CallGraphCmd), cl::init("-"), cl::value_desc("file"),
    cl::desc("output file (default: stdout)"), cl::cat(KilnCategory));

static Error callGraphMain() {
  if (CallGraphInputs.empty() && EdgeLists.empty())
    return kiln::makeToolError("no input", "",
                               "give objects or archives built with a "
                               "profile, or --edges=<file>");
  kiln::LinkerInputs Inputs;
  for (const std::string &Path : CallGraphInputs)
    if (Error E = kiln::readLinkerInput(Path, Inputs))
      return kiln::makeToolError(toString(std::move(E)));
  kiln::PlanOptions Plan;
  Expected<std::vector<std::shared_ptr<const kiln::EdgeListData>>> Lists =
      kiln::loadEdgeLists(EdgeLists);
  if (!Lists)
    return kiln::makeToolError(toString(Lists.takeError()));
  Plan.EdgeLists = std::move(*Lists);
  // Without objects, an edge list's names are the functions.
  if (CallGraphInputs.empty())
    kiln::addEdgeListFunctions(Plan.EdgeLists, Inputs);
  if (!CallGraphInputs.empty() && Inputs.NumInputsWithCallGraph == 0 &&
      Scenarios.empty() && Profiles.empty())
    WithColor::warning(errs(), ToolName)
        << "none of the " << Inputs.NumObjects
        << " object(s) has a call graph profile section; compile with "
           "-fprofile-use= (LLVM's CGProfile pass records it, except in "
           "ThinLTO pre-link compiles)\n";

  Expected<std::vector<kiln::ScenarioSpec>> Specs =
      kiln::parseScenarioSpecs(getScenarioSpecs());
  if (!Specs)
    return kiln::makeToolError(toString(Specs.takeError()), "--scenario");
  std::vector<kiln::NamedFile> Read;
  for (const std::string &Path : CallGraphInputs)
    Read.push_back({Path, "input"});
  for (const kiln::ScenarioSpec &S : *Specs)
    Read.push_back({S.Path, "profile"});
  for (const std::string &Path : EdgeLists)
    Read.push_back({Path, "--edges"});
  if (Error E = kiln::checkOutputPaths({{CallGraphOutput, "-o"}}, Read))
    return kiln::makeToolError(toString(std::move(E)));
  Expected<kiln::ProfiledGraph> Profiled =
      kiln::buildProfiledGraph(Inputs, *Specs, Plan);
  if (!Profiled)
    return kiln::makeToolError(toString(Profiled.takeError()));
  for (const kiln::ProfileCoverage &C : Profiled->Coverage)
    if (!C.Unbound.empty())
      WithColor::warning(errs(), ToolName)
          << C.Path << ": " << C.Unbound.size() << " of " << C.Executed
          << " executed functions are not bound to one function of the "
             "inputs; their calls are not shown\n";
  kiln::warnOfForeignProfiles(*Profiled, ToolName, errs());

  kiln::CallGraphDumpOptions Opts;
  Opts.Format = CallGraphFormat;
  Opts.Top = CallGraphTop;
  Opts.MinCount = CallGraphMinCount;
  Opts.Demangle = !CallGraphNoDemangle;
  Opts.StripLeadingUnderscore = Inputs.Format == kiln::ObjectFormat::MachO;
  return kiln::writeOutputFile(CallGraphOutput, [&](raw_ostream &OS) {
    kiln::dumpCallGraph(Profiled->Graph, Opts, OS);
  });
}

//===----------------------------------------------------------------------===//
// kiln order
//===----------------------------------------------------------------------===//

static cl::list<std::string>
    OrderInputs(cl::Positional, cl::sub(OrderCmd),
                cl::desc("<objects and archives of the link, or the linked "
                         "binary>"),
                cl::cat(KilnCategory));
namespace {
enum class OrderFormatChoice { Default, ELF, COFF, MachO, Edges };
} // namespace
static cl::opt<OrderFormatChoice, false, ChoiceParser<OrderFormatChoice>>
    OrderFormat(
        "format", cl::sub(OrderCmd), cl::init(OrderFormatChoice::Default),
        cl::desc("the ordering file's dialect (default: the inputs' format)"),
        cl::values(clEnumValN(OrderFormatChoice::ELF, "elf",
                              "ld.lld --symbol-ordering-file"),
                   clEnumValN(OrderFormatChoice::COFF, "coff",
                              "lld-link /order:@file"),
                   clEnumValN(OrderFormatChoice::MachO, "macho",
                              "ld64.lld -order_file"),
                   clEnumValN(OrderFormatChoice::Edges, "edges",
                              "lld --call-graph-ordering-file (lld sorts)")),
        cl::cat(KilnCategory));
static cl::opt<kiln::OrderAlgorithm, false, ChoiceParser<kiln::OrderAlgorithm>>
    OrderAlgorithm("algorithm", cl::sub(OrderCmd),
                   cl::init(kiln::OrderAlgorithm::Kiln),
                   cl::desc("the layout algorithm"),
                   kiln::layout::getOrderAlgorithmValues(),
                   cl::cat(KilnCategory));
static cl::opt<std::string>
    OrderPageSize("page-size", cl::sub(OrderCmd), cl::init("4K"),
                  cl::value_desc("size"),
                  cl::desc("page size the layout optimizes for (4K, 16K, "
                           "64K, 2M; default 4K)"),
                  cl::cat(KilnCategory));
static cl::opt<bool> OrderHotStartupWithHot(
    "hot-startup-with-hot", cl::sub(OrderCmd), cl::init(false),
    cl::desc("order startup functions that are hot in the steady state with "
             "the hot code instead of the startup code (better cache "
             "locality when startup and steady state share their hot code, "
             "more startup pages otherwise)"),
    cl::cat(KilnCategory));
static cl::opt<bool> OrderColdLast(
    "place-cold", cl::sub(OrderCmd),
    cl::desc("list never-executed functions last instead of leaving them to "
             "the linker"),
    cl::cat(KilnCategory));
static cl::opt<std::string> OrderEntry(
    "entry", cl::sub(OrderCmd), cl::init("_start"), cl::value_desc("symbol"),
    cl::desc("ELF: the program's entry symbol, placed with the startup code "
             "like the targets of .init_array (default _start; --entry= for "
             "none, as for a shared library)"),
    cl::cat(KilnCategory));
static cl::opt<bool> OrderSkipShared(
    "skip-shared-names", cl::sub(OrderCmd),
    cl::desc("leave out statics whose name other functions share (ELF, "
             "COFF) instead of moving them all"),
    cl::cat(KilnCategory));
static cl::opt<bool> OrderNoObjectCallGraph(
    "no-object-call-graph", cl::sub(OrderCmd),
    cl::desc("ignore the inputs' call-graph-profile sections"),
    cl::cat(KilnCategory));
static cl::opt<std::string> OrderOutput("o", cl::sub(OrderCmd), cl::init("-"),
                                        cl::value_desc("file"),
                                        cl::desc("output file (default: "
                                                 "stdout)"),
                                        cl::cat(KilnCategory));
static cl::opt<std::string>
    OrderReport("report", cl::sub(OrderCmd), cl::value_desc("file.json"),
                cl::desc("write the full coverage report as JSON"),
                cl::cat(KilnCategory));
static cl::opt<bool> OrderTimePhases(
    "time-phases", cl::sub(OrderCmd),
    cl::desc("print the time and memory of each phase to stderr"),
    cl::cat(KilnCategory));

static Error orderMain(int Argc, const char **Argv) {
  kiln::OrderCommandOptions Opts;
  Opts.Inputs.assign(OrderInputs.begin(), OrderInputs.end());
  Opts.Scenarios = getScenarioSpecs();
  Opts.EdgeLists.assign(EdgeLists.begin(), EdgeLists.end());
  Opts.Plan.Algorithm = OrderAlgorithm;
  Opts.Plan.UseObjectCallGraph = !OrderNoObjectCallGraph;
  Opts.Plan.Composite.PlaceColdNodes = OrderColdLast;
  Opts.Plan.Composite.HotStartupCodeGoesHot = OrderHotStartupWithHot;
  Expected<uint64_t> PageSize = kiln::parsePageSize(OrderPageSize);
  if (!PageSize)
    return kiln::makeToolError(toString(PageSize.takeError()), "--page-size");
  Opts.Plan.Composite.PageSize = *PageSize;
  switch (OrderFormat) {
  case OrderFormatChoice::Default:
    break;
  case OrderFormatChoice::ELF:
    Opts.Format = kiln::OrderFileFormat::ELF;
    break;
  case OrderFormatChoice::COFF:
    Opts.Format = kiln::OrderFileFormat::COFF;
    break;
  case OrderFormatChoice::MachO:
    Opts.Format = kiln::OrderFileFormat::MachO;
    break;
  case OrderFormatChoice::Edges:
    Opts.WriteEdgeList = true;
    break;
  }
  Opts.SkipSharedNames = OrderSkipShared;
  Opts.EntrySymbol = OrderEntry;
  Opts.EntryGiven = OrderEntry.getNumOccurrences() > 0;
  Opts.Output = OrderOutput;
  Opts.ReportPath = OrderReport;
  Opts.TimePhases = OrderTimePhases;
  // The header records the command, minus directories of the tool and the
  // option that only measures (the file does not depend on it).
  Opts.CommandLine = "kiln";
  for (int I = 1; I < Argc; ++I)
    if (StringRef Arg = Argv[I];
        Arg != "--time-phases" && Arg != "-time-phases")
      Opts.CommandLine += (" " + Arg).str();
  return kiln::runOrderCommand(Opts, errs());
}

//===----------------------------------------------------------------------===//
// kiln block-layout
//===----------------------------------------------------------------------===//

static cl::opt<std::string> BlockLayoutInput(cl::Positional,
                                             cl::sub(BlockLayoutCmd),
                                             cl::desc("<block profile (.kbp)>"),
                                             cl::cat(KilnCategory));
static cl::opt<std::string> BlockLayoutOutput(
    "o", cl::sub(BlockLayoutCmd), cl::value_desc("file"),
    cl::desc("the basic-block-sections profile to write (for clang's "
             "-fbasic-block-sections=list= or ld.lld's "
             "--lto-basic-block-sections=; '-' for stdout)"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    BlockLayoutOrderFile("symbol-ordering-file", cl::sub(BlockLayoutCmd),
                         cl::value_desc("file"),
                         cl::desc("also write the clusters' order for ld.lld "
                                  "--symbol-ordering-file="),
                         cl::cat(KilnCategory));
static cl::opt<std::string>
    BlockLayoutPageSize("page-size", cl::sub(BlockLayoutCmd), cl::init("4K"),
                        cl::value_desc("size"),
                        cl::desc("page size the layout optimizes for (4K, "
                                 "16K, 64K, 2M; default 4K)"),
                        cl::cat(KilnCategory));
static cl::opt<uint64_t> BlockLayoutMinSplit(
    "min-split-size", cl::sub(BlockLayoutCmd), cl::init(16),
    cl::value_desc("bytes"),
    cl::desc("keep parts smaller than this with a neighbouring cluster of "
             "their function instead of splitting them off (default 16; 0 "
             "splits every part)"),
    cl::cat(KilnCategory));
static cl::opt<uint64_t> BlockLayoutMaxFallThrough(
    "max-fall-through-size", cl::sub(BlockLayoutCmd), cl::init(16),
    cl::value_desc("bytes"),
    cl::desc("move up to this many bytes of never-run blocks that fall "
             "through into a block that ran from the cold cluster to right "
             "before that block; a block that ran and fell into it jumps "
             "(default 16; 0 leaves them cold)"),
    cl::cat(KilnCategory));
static cl::opt<bool> BlockLayoutAlignedLoops(
    "aligned-loops", cl::sub(BlockLayoutCmd), cl::init(true),
    cl::desc("plan for a relink that aligns loops as the profiled binary "
             "did (default); --aligned-loops=false plans for one given "
             "-mllvm -align-loops=1, as kiln-lld's --kiln-block-profile "
             "relinks"),
    cl::cat(KilnCategory));
static cl::opt<bool> BlockLayoutPlaceCold(
    "place-cold", cl::sub(BlockLayoutCmd),
    cl::desc("list the never-run clusters (fn.cold) last in the ordering "
             "file instead of leaving them to the linker"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    BlockLayoutReport("report", cl::sub(BlockLayoutCmd),
                      cl::value_desc("file.json"),
                      cl::desc("write every function's clusters and the "
                               "totals as JSON"),
                      cl::cat(KilnCategory));

static cl::opt<std::string> BlockLayoutBinary(
    "binary", cl::sub(BlockLayoutCmd), cl::value_desc("file"),
    cl::desc("the address-mapped binary of a later build to lay out: the "
             "profile's functions are matched to its blocks by their hashes, "
             "and those that changed too much keep function-level layout"),
    cl::cat(KilnCategory));
static cl::opt<unsigned> BlockLayoutMinMatched(
    "min-matched-counts", cl::sub(BlockLayoutCmd), cl::init(50),
    cl::value_desc("percent"),
    cl::desc("with --binary, keep a function whose blocks changed only if "
             "its matched blocks hold at least this share of its counts "
             "(default 50)"),
    cl::cat(KilnCategory));

static Error blockLayoutMain(int Argc, const char **Argv) {
  kiln::BlockLayoutCommandOptions Opts;
  Opts.Input = BlockLayoutInput;
  Opts.Output = BlockLayoutOutput;
  Opts.SymbolOrderingFile = BlockLayoutOrderFile;
  Opts.ReportPath = BlockLayoutReport;
  Expected<uint64_t> PageSize = kiln::parsePageSize(BlockLayoutPageSize);
  if (!PageSize)
    return kiln::makeToolError(toString(PageSize.takeError()), "--page-size");
  Opts.Layout.Composite.PageSize = *PageSize;
  Opts.Layout.Composite.PlaceColdNodes = BlockLayoutPlaceCold;
  Opts.Layout.MinSplitBytes = BlockLayoutMinSplit;
  Opts.Layout.MaxFallThroughBytes = BlockLayoutMaxFallThrough;
  Opts.Layout.KeepsBlockAlignment = BlockLayoutAlignedLoops;
  Opts.Binary = BlockLayoutBinary;
  if (BlockLayoutMinMatched > 100)
    return kiln::makeToolError(
        Twine(BlockLayoutMinMatched.getValue()) + " is not a percentage",
        "--min-matched-counts", "give a number from 0 to 100");
  if (BlockLayoutMinMatched.getNumOccurrences() && Opts.Binary.empty())
    return kiln::makeToolError("--min-matched-counts without --binary", "",
                               "it says which functions of a profile of "
                               "another build are kept");
  Opts.Match.MinPairedShare = BlockLayoutMinMatched / 100.0;
  Opts.CommandLine = "kiln";
  for (int I = 1; I < Argc; ++I)
    Opts.CommandLine += (" " + StringRef(Argv[I])).str();
  return kiln::runBlockLayoutCommand(Opts, errs());
}

//===----------------------------------------------------------------------===//
// kiln eval
//===----------------------------------------------------------------------===//

static cl::opt<std::string> EvalBinary(cl::Positional, cl::sub(EvalCmd),
                                       cl::desc("<linked program or library>"),
                                       cl::cat(KilnCategory));
static cl::list<std::string> EvalPageSizes(
    "page-size", cl::sub(EvalCmd), cl::CommaSeparated,
    cl::value_desc("size,..."),
    cl::desc("page sizes to count pages at (default: 4K,16K,64K)"),
    cl::cat(KilnCategory));
static cl::opt<bool> EvalJSON("json", cl::sub(EvalCmd),
                              cl::desc("print JSON instead of text"),
                              cl::cat(KilnCategory));

static Error evalMain() {
  kiln::EvalCommandOptions Opts;
  Opts.Binary = EvalBinary;
  Opts.Scenarios = getScenarioSpecs();
  Opts.EdgeLists.assign(EdgeLists.begin(), EdgeLists.end());
  if (!EvalPageSizes.empty()) {
    Opts.PageSizes.clear();
    for (const std::string &Text : EvalPageSizes) {
      Expected<uint64_t> Size = kiln::parsePageSize(Text);
      if (!Size)
        return kiln::makeToolError(toString(Size.takeError()), "--page-size");
      Opts.PageSizes.push_back(*Size);
    }
  }
  Opts.JSON = EvalJSON;
  return kiln::runEvalCommand(Opts, outs(), errs());
}

//===----------------------------------------------------------------------===//
// kiln relocs
//===----------------------------------------------------------------------===//

static cl::opt<std::string>
    RelocsInput(cl::Positional, cl::sub(RelocsCmd),
                cl::desc("<linked shared library, PIE, DLL or dylib>"),
                cl::cat(KilnCategory));
static cl::opt<uint64_t> RelocsTop(
    "top", cl::sub(RelocsCmd), cl::init(20), cl::value_desc("N"),
    cl::desc("list the N largest and N most relocated objects (default 20; "
             "0: all)"),
    cl::cat(KilnCategory));
static cl::opt<bool> RelocsJSON("json", cl::sub(RelocsCmd),
                                cl::desc("print JSON instead of text"),
                                cl::cat(KilnCategory));
static cl::opt<std::string> RelocsClass(
    "class", cl::sub(RelocsCmd), cl::value_desc("string|function|data|other"),
    cl::desc("list only relocations of this class (totals stay complete)"),
    cl::cat(KilnCategory));
static cl::opt<bool> RelocsNoDemangle("no-demangle", cl::sub(RelocsCmd),
                                      cl::desc("print mangled names"),
                                      cl::cat(KilnCategory));
static cl::opt<std::string> RelocsOutput("o", cl::sub(RelocsCmd), cl::init("-"),
                                         cl::value_desc("file"),
                                         cl::desc("output file (default: "
                                                  "stdout)"),
                                         cl::cat(KilnCategory));

static cl::list<std::string> RelocsRemarks(
    "remarks", cl::sub(RelocsCmd), cl::value_desc("file.yaml"),
    cl::desc("kiln-strtab's YAML optimization remarks of the build "
             "(-fsave-optimization-record, lld --opt-remarks-filename): "
             "verdicts and refusals from the pass's own record (repeatable)"),
    cl::cat(KilnCategory));

static Error relocsMain() {
  kiln::RelocsCommandOptions Opts;
  Opts.Input = RelocsInput;
  Opts.Top = RelocsTop;
  Opts.JSON = RelocsJSON;
  Opts.Demangle = !RelocsNoDemangle;
  Opts.ClassFilter = RelocsClass;
  Opts.Output = RelocsOutput;
  Opts.Remarks.assign(RelocsRemarks.begin(), RelocsRemarks.end());
  return kiln::runRelocsCommand(Opts);
}

//===----------------------------------------------------------------------===//
// kiln imports
//===----------------------------------------------------------------------===//

static cl::list<std::string>
    ImportsInputs(cl::Positional, cl::sub(ImportsCmd),
                  cl::desc("<ThinLTO bitcode objects and archives of the "
                           "link>"),
                  cl::cat(KilnCategory));
static cl::opt<std::string> ImportsBudget(
    "budget", cl::sub(ImportsCmd), cl::value_desc("N|P%"),
    cl::desc("instructions imported over all modules: a count, or a "
             "percentage of the program's instructions (default: unlimited)"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ImportsModuleBudget(
    "budget-per-module", cl::sub(ImportsCmd), cl::value_desc("N|P%"),
    cl::desc("instructions imported into any one module (default: "
             "unlimited)"),
    cl::cat(KilnCategory));
static cl::opt<uint32_t> ImportsMaxSize(
    "max-import-size", cl::sub(ImportsCmd), cl::init(600), cl::value_desc("N"),
    cl::desc("never import functions of more than N instructions (default "
             "600)"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ImportsWorkload(
    "workload-def", cl::sub(ImportsCmd), cl::value_desc("file.json"),
    cl::desc("write the plan for -mllvm -thinlto-workload-def=<file>"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    ImportsLists("import-lists", cl::sub(ImportsCmd), cl::value_desc("dir"),
                 cl::desc("write per-module import lists (<module>.imports and "
                          "<module>.imports.functions) under <dir>"),
                 cl::cat(KilnCategory));
static cl::opt<std::string>
    ImportsReport("report", cl::sub(ImportsCmd), cl::value_desc("file.json"),
                  cl::desc("write the plan and what it left out as JSON"),
                  cl::cat(KilnCategory));
static cl::opt<std::string> ImportsInlineBudget(
    "inline-budget", cl::sub(ImportsCmd), cl::value_desc("N|P%"),
    cl::desc("plan cross-module inlining instead of imports alone: the "
             "instructions the planned inlining may add over the program (a "
             "count, or a percentage of the program's instructions); the "
             "plan imports exactly the callees of the planned call sites"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ImportsInlinePlan(
    "inline-plan", cl::sub(ImportsCmd), cl::value_desc("file.json"),
    cl::desc("write the inline decisions for -mllvm -kiln-inline-plan=<file> "
             "(needs --inline-budget)"),
    cl::cat(KilnCategory));
static cl::opt<uint64_t> ImportsTop(
    "top", cl::sub(ImportsCmd), cl::init(20), cl::value_desc("N"),
    cl::desc("list the N heaviest left-out candidates (default 20; 0: all)"),
    cl::cat(KilnCategory));
static cl::opt<bool>
    ImportsQuiet("quiet", cl::sub(ImportsCmd),
                 cl::desc("print no summary (warnings still go to stderr)"),
                 cl::cat(KilnCategory));

static Error importsMain() {
  // An empty value is not "unlimited": say what a budget is.
  for (const cl::opt<std::string> *Budget :
       {&ImportsBudget, &ImportsModuleBudget, &ImportsInlineBudget})
    if (Budget->getNumOccurrences() && StringRef(*Budget).trim().empty())
      return kiln::makeToolError(
          "empty budget; give a number of instructions (e.g. 5000) or a "
          "percentage of the program's instructions (e.g. 10%)",
          "--" + Budget->ArgStr, "leave the option out for no limit");
  kiln::ImportsCommandOptions Opts;
  Opts.Inputs.assign(ImportsInputs.begin(), ImportsInputs.end());
  Opts.Scenarios = getScenarioSpecs();
  Opts.Budget = ImportsBudget;
  Opts.ModuleBudget = ImportsModuleBudget;
  Opts.MaxImportSize = ImportsMaxSize;
  Opts.WorkloadPath = ImportsWorkload;
  Opts.ImportListDir = ImportsLists;
  Opts.ReportPath = ImportsReport;
  Opts.InlineBudget = ImportsInlineBudget;
  Opts.InlinePlanPath = ImportsInlinePlan;
  Opts.Top = ImportsTop;
  Opts.Quiet = ImportsQuiet;
  return kiln::runImportsCommand(Opts, outs(), errs());
}

//===----------------------------------------------------------------------===//
// kiln thin-backend
//===----------------------------------------------------------------------===//

static cl::opt<std::string>
    ThinBackendInput(cl::Positional, cl::sub(ThinBackendCmd),
                     cl::desc("<module bitcode, named as the thin link was "
                              "given it>"),
                     cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendCompile(
    "c", cl::sub(ThinBackendCmd),
    cl::desc("compile to an object: the only action (accepted for clang's "
             "spelling of a backend job)"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendIndex(
    "thinlto-index", cl::sub(ThinBackendCmd), cl::value_desc("file"),
    cl::desc("the module's individual index (<module>.thinlto.bc from ld.lld "
             "--thinlto-index-only)"),
    cl::cat(KilnCategory));
static cl::alias ThinBackendIndexAlias("fthinlto-index",
                                       cl::aliasopt(ThinBackendIndex),
                                       cl::desc("alias for --thinlto-index"));
static cl::opt<std::string>
    ThinBackendOutput("o", cl::sub(ThinBackendCmd), cl::value_desc("file"),
                      cl::desc("the native object to write"),
                      cl::cat(KilnCategory));
static cl::opt<unsigned> ThinBackendOptLevel(
    "O", cl::sub(ThinBackendCmd), cl::Prefix, cl::init(2),
    cl::value_desc("level"),
    cl::desc("optimization level 0-3, as ld.lld's --lto-O (default 2)"),
    cl::cat(KilnCategory));
static cl::opt<Reloc::Model, false, ChoiceParser<Reloc::Model>>
    ThinBackendRelocModel(
        "relocation-model", cl::sub(ThinBackendCmd), cl::init(Reloc::PIC_),
        cl::desc("relocation model, as ld.lld chooses it for the link "
                 "(-mllvm -relocation-model= overrides it, as in ld.lld)"),
        cl::values(clEnumValN(Reloc::PIC_, "pic",
                              "-pie and -shared links (default)"),
                   clEnumValN(Reloc::Static, "static",
                              "executables linked without -pie")),
        cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendPlugin(
    "plugin", cl::sub(ThinBackendCmd), cl::value_desc("file"),
    cl::desc("Kiln's pass-plugin module (default: the one 'kiln "
             "print-plugin-path' prints)"),
    cl::cat(KilnCategory));
static cl::alias ThinBackendPluginAlias("fpass-plugin",
                                        cl::aliasopt(ThinBackendPlugin),
                                        cl::desc("alias for --plugin"));
// The rest of the options lld's distributed ThinLTO (--thinlto-distributor=)
// gives its remote compiler, in clang's spelling, so that kiln thin-backend
// can be that compiler.
static cl::opt<bool> ThinBackendFPic(
    "fpic", cl::sub(ThinBackendCmd),
    cl::desc("as --relocation-model=pic, wherever it comes (lld's distributed "
             "ThinLTO gives it for -pie and -shared links)"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendTarget(
    "target", cl::sub(ThinBackendCmd), cl::value_desc("triple"),
    cl::desc("the link's target, as lld's distributed ThinLTO gives it: "
             "accepted; the module's own triple is used, as in ld.lld's "
             "backends"),
    cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendAddrsig(
    "faddrsig", cl::sub(ThinBackendCmd),
    cl::desc("accepted: address-significance tables are always emitted, as "
             "by ld.lld's backends"),
    cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendFunctionSections(
    "ffunction-sections", cl::sub(ThinBackendCmd),
    cl::desc("accepted: functions always get their own sections, as with "
             "ld.lld's backends"),
    cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendDataSections(
    "fdata-sections", cl::sub(ThinBackendCmd),
    cl::desc("accepted: data always gets its own sections, as with ld.lld's "
             "backends"),
    cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendNoUnusedArgWarning(
    "Wno-unused-command-line-argument", cl::sub(ThinBackendCmd),
    cl::desc("accepted: kiln thin-backend has no argument it leaves unused"),
    cl::cat(KilnCategory));
static cl::list<std::string> ThinBackendLLVMOptions(
    "mllvm", cl::sub(ThinBackendCmd), cl::value_desc("option"),
    cl::desc("a Kiln option (-kiln-...) or another LLVM option, as for clang "
             "and kiln-lld; may be repeated"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendRemarksOutput(
    "pass-remarks-output", cl::sub(ThinBackendCmd), cl::value_desc("file"),
    cl::desc("write optimization remarks as YAML"), cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendRemarksFilter(
    "pass-remarks-filter", cl::sub(ThinBackendCmd), cl::value_desc("regex"),
    cl::desc("only the remarks of passes matching this"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ThinBackendCSProfile(
    "lto-cs-profile-file", cl::sub(ThinBackendCmd), cl::value_desc("file"),
    cl::desc("run the backend with this profile, as ld.lld's "
             "--lto-cs-profile-file= (which clang gives a link that has "
             "-fprofile-use): LLVM's profile-guided passes of the backends "
             "run; a profile without context-sensitive records annotates "
             "nothing"),
    cl::cat(KilnCategory));
static cl::opt<bool> ThinBackendPrintCacheKey(
    "print-cache-key", cl::sub(ThinBackendCmd),
    cl::desc("print the job's cache key (module, index, imported modules, "
             "options, plugin) instead of running it"),
    cl::cat(KilnCategory));

static Error thinBackendMain(const char *Argv0) {
  kiln::ThinBackendOptions Opts;
  Opts.Input = ThinBackendInput;
  Opts.IndexFile = ThinBackendIndex;
  Opts.Output = ThinBackendOutput;
  Opts.OptLevel = ThinBackendOptLevel;
  Opts.RelocModel = ThinBackendFPic ? Reloc::PIC_ : ThinBackendRelocModel;
  Opts.LLVMOptions.assign(ThinBackendLLVMOptions.begin(),
                          ThinBackendLLVMOptions.end());
  Opts.RemarksFile = ThinBackendRemarksOutput;
  Opts.RemarksFilter = ThinBackendRemarksFilter;
  Opts.CSProfileFile = ThinBackendCSProfile;
  Opts.PrintCacheKey = ThinBackendPrintCacheKey;
  if (!ThinBackendPlugin.empty()) {
    // dlopen searches the library path for a name without a slash.
    SmallString<256> Path(ThinBackendPlugin);
    sys::fs::make_absolute(Path);
    Opts.PluginPath = Path.str().str();
  } else {
    static int AddressInKiln;
    Expected<std::string> Path = kiln::findPlugin(Argv0, &AddressInKiln);
    if (!Path)
      return kiln::makeToolError(toString(Path.takeError()), "",
                                 "build the KilnPlugin target, or name the "
                                 "module with --plugin= or KILN_PLUGIN");
    Opts.PluginPath = *Path;
  }
  return kiln::runThinBackend(Opts, outs(), errs());
}

//===----------------------------------------------------------------------===//
// kiln profile
//===----------------------------------------------------------------------===//

static cl::list<std::string>
    ProfileArgs(cl::Positional, cl::sub(ProfileCmd), cl::OneOrMore,
                cl::desc("check <objects and archives of the build, or the "
                         "linked program> | merge | scale <profile>"),
                cl::cat(KilnCategory));
// kiln profile's own --scenario: merge names its scenarios.
static cl::list<std::string> ProfileScenarios(
    "scenario", cl::sub(ProfileCmd), cl::value_desc("spec"),
    cl::desc("check: <kind>=<profile>[:<weight>], kind 'startup' or "
             "'steady'; merge: <name>=<profile>[,<profile>...][:<weight>], "
             "the scenario named 'startup' is the startup kind; may be "
             "repeated"),
    cl::cat(KilnCategory));
static cl::opt<bool> ProfileJSON("json", cl::sub(ProfileCmd),
                                 cl::desc("check: print JSON instead of text"),
                                 cl::cat(KilnCategory));
static cl::opt<std::string>
    ProfileOutput("o", cl::sub(ProfileCmd), cl::value_desc("path"),
                  cl::desc("merge: the output directory; scale: the output "
                           "profile"),
                  cl::cat(KilnCategory));
static cl::opt<std::string> ProfileScale(
    "scale", cl::sub(ProfileCmd), cl::init("1"), cl::value_desc("n"),
    cl::desc("merge: multiply the compile profile's counts by n (64 for "
             "function splitting)"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    ProfileFactor("factor", cl::sub(ProfileCmd), cl::value_desc("n"),
                  cl::desc("scale: multiply every count by n (saturating)"),
                  cl::cat(KilnCategory));

static Error profileMain() {
  StringRef Action = ProfileArgs.front();
  if (Action == "merge") {
    if (ProfileArgs.size() > 1)
      return kiln::makeToolError("unexpected argument '" + ProfileArgs[1] + "'",
                                 "kiln profile merge",
                                 "each scenario's profiles go in its "
                                 "--scenario=<name>=<profile>[,<profile>...]");
    kiln::ProfileMergeOptions Opts;
    Opts.Scenarios.assign(ProfileScenarios.begin(), ProfileScenarios.end());
    Opts.Scale = ProfileScale;
    Opts.OutputDir = ProfileOutput;
    return kiln::runProfileMerge(Opts, outs(), errs());
  }
  if (Action == "scale") {
    kiln::ProfileScaleOptions Opts;
    Opts.Inputs.assign(ProfileArgs.begin() + 1, ProfileArgs.end());
    Opts.Factor = ProfileFactor;
    Opts.Output = ProfileOutput;
    return kiln::runProfileScale(Opts, outs(), errs());
  }
  if (Action != "check")
    return kiln::makeToolError("unknown action '" + Action + "'",
                               "kiln profile",
                               "the actions are check, merge and scale");
  kiln::ProfileCheckOptions Opts;
  Opts.Inputs.assign(ProfileArgs.begin() + 1, ProfileArgs.end());
  Opts.Scenarios.assign(ProfileScenarios.begin(), ProfileScenarios.end());
  for (const std::string &Profile : Profiles)
    Opts.Scenarios.push_back("steady=" + Profile);
  Opts.JSON = ProfileJSON;
  return kiln::runProfileCheck(Opts, outs());
}

//===----------------------------------------------------------------------===//
// kiln report
//===----------------------------------------------------------------------===//

static cl::opt<std::string> ReportWorkspace(
    "workspace", cl::sub(ReportCmd), cl::init(".kiln"), cl::value_desc("dir"),
    cl::desc("the kiln pgo workspace to report on (default: .kiln)"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    ReportOutput("o", cl::sub(ReportCmd), cl::value_desc("dir"),
                 cl::desc("write report.html and report.json here (default: "
                          "<workspace>/report)"),
                 cl::cat(KilnCategory));
static cl::opt<std::string> ReportBinary(
    "binary", cl::sub(ReportCmd), cl::value_desc("file"),
    cl::desc("outside the flow: the program linked with Kiln's order "
             "(with --scenario=; needs -o)"),
    cl::cat(KilnCategory));
static cl::opt<std::string> ReportUnordered(
    "unordered", cl::sub(ReportCmd), cl::value_desc("file"),
    cl::desc("with --binary: the same program linked without Kiln's order "
             "(kiln-lld --kiln-unordered-out=)"),
    cl::cat(KilnCategory));
static cl::opt<std::string>
    ReportLinkReport("link-report", cl::sub(ReportCmd),
                     cl::value_desc("file.json"),
                     cl::desc("with --binary: kiln-lld's report of its link "
                              "(--kiln-report=)"),
                     cl::cat(KilnCategory));

static Error reportMain() {
  kiln::ReportOptions Opts;
  Opts.Workspace = ReportWorkspace;
  Opts.OutputDir = ReportOutput;
  Opts.Binary = ReportBinary;
  Opts.Unordered = ReportUnordered;
  Opts.LinkReport = ReportLinkReport;
  Opts.Scenarios = getScenarioSpecs();
  return kiln::runReportCommand(Opts, outs(), errs());
}

//===----------------------------------------------------------------------===//
// kiln block-profile
//===----------------------------------------------------------------------===//

static cl::opt<std::string> BlockProfileBinary(
    "binary", cl::sub(BlockProfileCmd), cl::value_desc("file"),
    cl::desc("the profiled ELF executable or shared object, linked with a "
             "basic-block address map"),
    cl::cat(KilnCategory));
static cl::list<std::string> BlockProfileScenarios(
    "scenario", cl::sub(BlockProfileCmd),
    cl::value_desc("kind[:name]=file[,file...][:weight]"),
    cl::desc("a scenario's profiles of the binary, summed; kind is 'startup' "
             "or 'steady'; may be repeated"),
    cl::cat(KilnCategory));
static cl::opt<kiln::BlockProfileFormat, false,
               ChoiceParser<kiln::BlockProfileFormat>>
    BlockProfileFormat(
        "format", cl::sub(BlockProfileCmd),
        cl::init(kiln::BlockProfileFormat::Auto),
        cl::desc("the profiles' format (default: told from each file)"),
        cl::values(clEnumValN(kiln::BlockProfileFormat::Auto, "auto",
                              "from each file's contents (default)"),
                   clEnumValN(kiln::BlockProfileFormat::Callgrind, "callgrind",
                              "valgrind --tool=callgrind --dump-instr=yes "
                              "--collect-jumps=yes"),
                   clEnumValN(kiln::BlockProfileFormat::Fdata, "fdata",
                              "llvm-bolt -instrument's .fdata"),
                   clEnumValN(kiln::BlockProfileFormat::Perf, "perf",
                              "perf script -F ip,brstack")),
        cl::cat(KilnCategory));
static cl::opt<std::string> BlockProfileOutput(
    "o", cl::sub(BlockProfileCmd), cl::init("-"), cl::value_desc("file.kbp"),
    cl::desc("the block profile (default: stdout)"), cl::cat(KilnCategory));

static Error blockProfileMain() {
  kiln::BlockProfileOptions Opts;
  Opts.Binary = BlockProfileBinary;
  Opts.Scenarios.assign(BlockProfileScenarios.begin(),
                        BlockProfileScenarios.end());
  Opts.Format = BlockProfileFormat;
  Opts.Output = BlockProfileOutput;
  return kiln::runBlockProfile(Opts, outs(), errs());
}

//===----------------------------------------------------------------------===//
// kiln pgo
//===----------------------------------------------------------------------===//

static Error pgoMain(int Argc, const char **Argv) {
  static int AddressInKiln;
  kiln::PgoEnvironment Env;
  Env.KilnBinDir = sys::path::parent_path(
                       sys::fs::getMainExecutable(Argv[0], &AddressInKiln))
                       .str();
  if (Expected<std::string> Plugin = kiln::findPlugin(Argv[0], &AddressInKiln))
    Env.Plugin = *Plugin;
  else
    consumeError(Plugin.takeError());
  Env.KilnVersion = KILN_VERSION_STRING;
  std::vector<std::string> Args(Argv + 2, Argv + Argc);
  return kiln::runPgoCommand(Args, Env, outs(), errs());
}

//===----------------------------------------------------------------------===//
// main
//===----------------------------------------------------------------------===//

static void printVersion(raw_ostream &OS) {
  OS << "Kiln version " << KILN_VERSION_STRING << " (built with LLVM "
     << KILN_LLVM_VERSION_STRING << ")\n";
}

static Error runSubcommand(int Argc, const char **Argv) {
  if (PrintPluginPathCmd)
    return printPluginPathMain(Argv[0]);
  if (CallGraphCmd)
    return callGraphMain();
  if (OrderCmd)
    return orderMain(Argc, Argv);
  if (BlockLayoutCmd)
    return blockLayoutMain(Argc, Argv);
  if (EvalCmd)
    return evalMain();
  if (RelocsCmd)
    return relocsMain();
  if (ImportsCmd)
    return importsMain();
  if (ProfileCmd)
    return profileMain();
  if (ReportCmd)
    return reportMain();
  if (BlockProfileCmd)
    return blockProfileMain();
  return thinBackendMain(Argv[0]);
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  // Corrupt inputs can fault inside LLVM's readers; turn that into errors.
  CrashRecoveryContext::Enable();
  kiln::enableQuietAllocationFailuresInGuardedReads();
  cl::SetVersionPrinter(printVersion);
  // libLLVM registers hundreds of global options; `kiln --help` shows Kiln's.
  for (cl::SubCommand *Sub : cl::getRegisteredSubcommands())
    cl::HideUnrelatedOptions(KilnCategory, *Sub);

  if (Argc < 2) {
    WithColor::error(errs(), ToolName)
        << "no subcommand specified; run 'kiln --help' for the list\n";
    return 1;
  }
  if (StringRef(Argv[1]) == "pgo")
    return kiln::reportToolError(ToolName, pgoMain(Argc, Argv));
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "Kiln: profile-driven function layout, section placement, ThinLTO "
      "imports and string tables for clang and lld\n");

  if (!PrintPluginPathCmd && !CallGraphCmd && !OrderCmd && !BlockLayoutCmd &&
      !EvalCmd && !RelocsCmd && !ImportsCmd && !ThinBackendCmd && !ProfileCmd &&
      !ReportCmd && !BlockProfileCmd) {
    WithColor::error(errs(), ToolName)
        << "no subcommand specified; run 'kiln --help' for the list\n";
    return 1;
  }
  // Before running: thin-backend parses -mllvm options, which deselects the
  // subcommand.
  StringRef Reporter = ThinBackendCmd ? "kiln thin-backend" : ToolName;
  // What went to stdout is checked too: `kiln eval ... > /dev/full` is an
  // error, not an abort when the stream is destroyed.
  Error E = joinErrors(runSubcommand(Argc, Argv), kiln::checkStdout());
  return kiln::reportToolError(Reporter, std::move(E));
}

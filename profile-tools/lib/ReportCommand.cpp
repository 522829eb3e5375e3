//===- ReportCommand.cpp - The work of `kiln report` ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Gathering the report: the workspace's manifest says which programs the
/// optimize build linked and which scenarios trained them; each program's
/// link record (PgoLinkRecordDir) holds kiln-lld's report and the program
/// without Kiln's order; kiln eval's evaluator measures both layouts. Every
/// kind of decision the issue names appears, as recorded or with the reason
/// it is not: nothing is inferred that the build did not write down.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ReportCommand.h"

#include "PgoSteps.h"

#include "kiln/Layout/BlockLayout.h"
#include "kiln/Sources/BlockProfileText.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Tools/EvalCommand.h"
#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace llvm;
using namespace kiln;

/// The page sizes of the summary's pages-against-bound table: kiln eval's.
static const uint64_t SummaryPageSizes[] = {4096, 16384, 65536};

namespace {
/// One scenario as the report names it, with the profile that measures it.
struct NamedScenario {
  std::string Name;
  ScenarioSpec Spec;
};

/// What the report knows of one program before it is measured.
struct ProgramInputs {
  std::string Program;    ///< The linked program (after Kiln's order).
  std::string Unordered;  ///< The same link without it ("": not recorded).
  std::string LinkReport; ///< kiln-lld's report ("": not recorded).
  /// Why LinkReport and Unordered are missing, when they are.
  std::string WhyNotRecorded;
  /// What block layout did to this program: "done", why it kept its
  /// function-level layout, or "" when block layout was off.
  std::string BlockLayoutOutcome;
  /// The block profile it was relinked from, when it was.
  std::string BlockProfile;
};

/// What the build ran, for the kinds of decision it may not have made.
struct BuildFacts {
  bool Recorded = false; ///< From a workspace (else: explicit inputs).
  std::string Flags;     ///< Every flag the optimize build added.
  /// The links took the build's training profiles as their own.
  bool ProfilesOfBuild = false;
  std::string Switches;      ///< The optimize switches (`--no-split`, ...).
  std::string Phase;         ///< The manifest's phase.
  std::string CSRelink;      ///< PgoBuild::ContextSensitive.
  std::string CompilePolicy; ///< PgoBuild::CompilePolicy.
  /// Per program, what block layout did: "<program>: <source>: done" or
  /// "<program>: <source>: <why not>"; empty when it was off.
  std::vector<std::string> BlockLayouts;
  /// Where the block profiles came from ("bolt", "callgrind"; "" when off).
  std::string BlockLayoutSource;
  /// How much of the program the steady-state training ran.
  std::optional<TrainingCoverage> SteadyTraining;
};
} // namespace

/// \returns the kiln-lld report at \p Path, checked for the fields the
/// report reads, or an error naming the file.
static Expected<json::Value> readLinkReport(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return makeToolError(
        "cannot read kiln-lld's report: " + Buf.getError().message(), Path);
  Expected<json::Value> V = json::parse((*Buf)->getBuffer());
  if (!V)
    return makeToolError("not a kiln-lld report: " + toString(V.takeError()),
                         Path);
  const json::Object *O = V->getAsObject();
  if (!O)
    return makeToolError("not a kiln-lld report: the JSON is not an object",
                         Path);
  for (StringRef Field : {"functions", "scenarios", "profiles"})
    if (!O->getArray(Field))
      return makeToolError("not a kiln-lld report: no '" + Field +
                               "' array (written by a kiln-lld without "
                               "per-function records?)",
                           Path, "link again with this Kiln's kiln-lld");
  for (const json::Value &F : *O->getArray("functions")) {
    const json::Object *FO = F.getAsObject();
    if (!FO || !FO->getString("name") || !FO->getArray("counts") ||
        !FO->getInteger("size"))
      return makeToolError("not a kiln-lld report: a 'functions' entry lacks "
                           "its name, size or counts",
                           Path);
  }
  return V;
}

// Every string put into the report's JSON is a copy (std::string): a
// json::Value made from a StringRef only refers to its bytes.

static json::Object notMade(StringRef Status, const Twine &Reason) {
  return json::Object{{"status", Status.str()}, {"reason", Reason.str()}};
}

/// A decision the report cannot see outside the kiln pgo flow.
static json::Object notRecordedOutsideFlow() {
  return notMade("not recorded",
                 "outside the kiln pgo flow the report reads only the "
                 "inputs given on its command line");
}

/// The kinds of decision no record of the build holds: whether Kiln's pass
/// for it ran (its flag is in the build's flags) and why nothing says what
/// it decided.
static json::Object describeUnrecorded(const BuildFacts &Build, StringRef Flag,
                                       StringRef What, StringRef Default) {
  if (!Build.Recorded)
    return notRecordedOutsideFlow();
  if (StringRef(Build.Flags).contains(Flag))
    return notMade("not recorded", "the build ran " + Flag +
                                       ", but kiln pgo optimize does not "
                                       "collect its optimization remarks");
  return notMade("not run", "kiln pgo optimize does not enable Kiln's " + What +
                                " (" + Flag + "): " + Default);
}

/// String-table lowering: on by default in kiln-lld's ThinLTO backends (the
/// profiled programs' links load the plugin), off with `--no-strtab`; the
/// flow does not collect its remarks.
static json::Object describeStringTables(const BuildFacts &Build) {
  if (!Build.Recorded)
    return notRecordedOutsideFlow();
  if (StringRef(Build.Flags).contains("-kiln-strtab=false"))
    return notMade("not run", "the optimize build turned Kiln's string-table "
                              "lowering off (--no-strtab)");
  return notMade("not recorded",
                 "Kiln's string-table lowering (-kiln-strtab) ran in the "
                 "ThinLTO backends of the profiled programs' links, but kiln "
                 "pgo optimize does not collect its optimization remarks "
                 "('kiln relocs' on a program lists the tables left with "
                 "relocations)");
}

/// What block layout did to \p In: the planner's clusters, planned again
/// from the block profile the program was relinked from (the plan is
/// deterministic: the same profile gives kiln-lld's plan), or why there
/// are none.
static json::Object describeBlockLayout(const BuildFacts &Build,
                                        const ProgramInputs &In) {
  if (!Build.Recorded)
    return notRecordedOutsideFlow();
  if (In.BlockLayoutOutcome.empty())
    return notMade("not run", "the optimize build did not lay out blocks (" +
                                  Build.Switches + ")");
  if (In.BlockProfile.empty())
    return notMade("not made", "the program kept its function-level layout: " +
                                   In.BlockLayoutOutcome);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      getInputFile(In.BlockProfile, /*IsText=*/true);
  if (!Buffer)
    return notMade("not recorded",
                   In.BlockProfile + ": " + Buffer.getError().message());
  Expected<layout::BlockProfile> Profile =
      parseBlockProfile((*Buffer)->getMemBufferRef());
  if (!Profile)
    return notMade("not recorded", toString(Profile.takeError()));
  layout::BlockLayout L = layout::planBlockLayout(*Profile);
  json::Array Clusters;
  for (layout::ClusterKind K :
       {layout::ClusterKind::Startup, layout::ClusterKind::Shared,
        layout::ClusterKind::Steady, layout::ClusterKind::Cold})
    Clusters.push_back(
        json::Object{{"kind", layout::getClusterKindName(K).str()},
                     {"clusters", int64_t(L.getNumClusters(K))},
                     {"bytes", int64_t(L.getClusterBytes(K))}});
  uint64_t StartupBytes = L.getStartupRunBytes();
  return json::Object{
      {"status", "recorded"},
      {"source", Build.BlockLayoutSource},
      {"profile", In.BlockProfile},
      {"functions", int64_t(L.Functions.size())},
      {"whole_shared_names", int64_t(L.NumSharedNames)},
      {"whole_inside_unseen", int64_t(L.NumInsideUnseen)},
      {"not_run", int64_t(L.NumNotRun)},
      {"skipped", int64_t(L.Skipped.size())},
      {"clusters", std::move(Clusters)},
      {"startup_run_bytes", int64_t(StartupBytes)},
      {"startup_block_bound",
       int64_t((StartupBytes + ReportPageSize - 1) / ReportPageSize)}};
}

static json::Object describeDecisions(const BuildFacts &Build,
                                      const ProgramInputs &In,
                                      const json::Value *LinkReport,
                                      json::Array Parts) {
  StringRef WhyNoLinkReport = In.WhyNotRecorded;
  json::Object D;
  if (LinkReport) {
    const json::Object &R = *LinkReport->getAsObject();
    json::Object Order{{"status", "recorded"}};
    for (StringRef Field :
         {"algorithm", "page_size", "groups", "scenarios", "functions",
          "profiles", "skipped", "load_code_at_startup"})
      if (const json::Value *V = R.get(Field))
        Order[Field] = *V;
    D["order"] = std::move(Order);
  } else {
    D["order"] = notMade("not recorded", WhyNoLinkReport);
  }
  // The parts are the binary's own symbols: kiln-lld's order leaves them
  // to the linker (no profile counts them), so its report does not list
  // them all.
  bool SplitRan = !Build.Recorded ||
                  StringRef(Build.Flags).contains("-kiln-split-functions");
  if (!Parts.empty() || SplitRan)
    D["split"] = json::Object{
        {"status", "recorded"},
        {"source", "the split parts (fn.cold) in the program's symbol table, "
                   "with the counts of the function they were split from; "
                   "the splitter's per-block counts are not recorded"},
        {"parts", std::move(Parts)}};
  else
    D["split"] = notMade("not run", "the optimize build did not split "
                                    "functions (" +
                                        Build.Switches + ")");
  D["imports"] = describeUnrecorded(
      Build, "-kiln-import-shaping", "import shaping",
      "ThinLTO's importer decided with LLVM's default thresholds and the "
      "profile's hotness");
  D["inlining"] = describeUnrecorded(
      Build, "-kiln-inline", "profile inline advisor",
      "LLVM's default inliner decided, so no inlining differs from the "
      "default");
  D["string_tables"] = describeStringTables(Build);
  D["block_layout"] = describeBlockLayout(Build, In);
  return D;
}

/// Measures \p Binary as the layout \p Name of the report; its split parts
/// go to \p Parts if not null. The profiles' functions that bind to none of
/// \p Binary's, and a profile that looks like another program's, are in
/// the report ("profiles"), not warned of: in an optimized program inlining
/// makes the first the rule, and in a build of several programs (a library
/// and the program that loads it) one training profile covers them all.
/// With \p ProfilesOfBuild (the flow linked with --kiln-profiles-of-build)
/// a profile that binds little is the build's one training profile, not
/// another program's: its share is given as such ("of_build").
static Expected<json::Object>
measureLayout(StringRef Name, StringRef Description, StringRef Binary,
              ArrayRef<NamedScenario> Scenarios, bool ProfilesOfBuild,
              json::Array *Parts, raw_ostream &Diag) {
  std::vector<ScenarioSpec> Specs;
  for (const NamedScenario &S : Scenarios)
    Specs.push_back(S.Spec);
  Expected<BinaryEvaluation> E =
      evaluateBinary(Binary, Specs, {}, SummaryPageSizes, ReportPageSize, Diag,
                     /*WarnOfBindings=*/false);
  if (!E)
    return E.takeError();
  if (Parts)
    for (const SplitPartFigures &P : E->Parts)
      Parts->push_back(
          json::Object{{"name", P.Name},
                       {"split_from", P.SplitFrom},
                       {"size", P.Size},
                       {"parent_size", P.ParentSize},
                       {"parent_counts", json::Array(P.ParentCounts)}});
  json::Array Figures;
  for (size_t I = 0; I < E->Scenarios.size(); ++I) {
    const ScenarioFigures &S = E->Scenarios[I];
    json::Array Pages, Bytes, Counts;
    for (size_t P = 0; P < E->PageSizes.size(); ++P)
      Pages.push_back(
          json::Object{{"page_size", E->PageSizes[P]},
                       {"pages", S.Pages[P].PagesTouched},
                       {"lower_bound", S.Pages[P].LowerBound},
                       {"executed_bytes", S.Pages[P].ExecutedBytes}});
    for (const PageHeat &H : S.Heat) {
      Bytes.push_back(H.ExecutedBytes);
      Counts.push_back(H.Count);
    }
    Figures.push_back(json::Object{
        {"name", I < Scenarios.size() ? Scenarios[I].Name : "all scenarios"},
        {"kind", S.Kind},
        {"executed_functions", S.ExecutedFunctions},
        {"pages", std::move(Pages)},
        {"heat_bytes", std::move(Bytes)},
        {"heat_counts", std::move(Counts)}});
  }
  json::Array Profiles;
  for (const ProfileBinding &B : E->Bindings) {
    json::Object P{{"path", B.Profile},
                   {"executed_functions", B.Executed},
                   {"not_in_binary", B.Unbound}};
    if (!B.Foreign.empty() && ProfilesOfBuild) {
      std::string OfBuild;
      raw_string_ostream OS(OfBuild);
      OS << "the build's one training profile: " << B.Bound << " of its "
         << B.Executed << " executed functions ("
         << format("%.1f", B.ExecutedCount ? 100.0 * double(B.BoundCount) /
                                                 double(B.ExecutedCount)
                                           : 0.0)
         << "% of its counts) are this program's, the others the build's "
            "other programs'";
      P["of_build"] = std::move(OfBuild);
    } else if (!B.Foreign.empty()) {
      P["foreign"] = B.Foreign;
    }
    Profiles.push_back(std::move(P));
  }
  return json::Object{{"name", Name.str()},
                      {"description", Description.str()},
                      {"binary", Binary.str()},
                      {"profiles", std::move(Profiles)},
                      {"functions", E->Functions},
                      {"split_parts", E->SplitParts},
                      {"page_size", E->HeatPageSize},
                      {"first_page", E->HeatFirstPage},
                      {"page_count", E->HeatPages},
                      {"ext_tsp_score", E->ExtTspScore},
                      {"scenarios", std::move(Figures)}};
}

static Expected<json::Object> reportProgram(const ProgramInputs &In,
                                            ArrayRef<NamedScenario> Scenarios,
                                            const BuildFacts &Build,
                                            raw_ostream &Diag) {
  std::optional<json::Value> LinkReport;
  if (!In.LinkReport.empty()) {
    Expected<json::Value> R = readLinkReport(In.LinkReport);
    if (!R)
      return R.takeError();
    LinkReport = std::move(*R);
  }
  json::Array Layouts;
  if (!In.Unordered.empty()) {
    Expected<json::Object> Before = measureLayout(
        "before",
        "the same objects linked by lld without Kiln's order (kiln-lld's "
        "preliminary link)",
        In.Unordered, Scenarios, Build.ProfilesOfBuild, nullptr, Diag);
    if (!Before)
      return Before.takeError();
    Layouts.push_back(std::move(*Before));
  }
  json::Array Parts;
  Expected<json::Object> After = measureLayout(
      "after",
      In.BlockProfile.empty()
          ? "the program as linked with Kiln's order"
          : "the program as relinked with Kiln's block layout (its "
            "functions' clusters in the block plan's order)",
      In.Program, Scenarios, Build.ProfilesOfBuild, &Parts, Diag);
  if (!After)
    return After.takeError();
  Layouts.push_back(std::move(*After));
  json::Object P{
      {"program", In.Program},
      {"link_report", In.LinkReport},
      {"unordered", In.Unordered},
      {"decisions",
       describeDecisions(Build, In, LinkReport ? &*LinkReport : nullptr,
                         std::move(Parts))},
      {"layouts", std::move(Layouts)}};
  if (In.Unordered.empty())
    P["before_missing"] = In.WhyNotRecorded;
  return P;
}

/// The programs, scenarios and facts of a workspace after `optimize`.
static Error readWorkspace(const ReportOptions &Opts,
                           std::vector<ProgramInputs> &Programs,
                           std::vector<NamedScenario> &Scenarios,
                           BuildFacts &Build) {
  pgo::Workspace WS(Opts.Workspace);
  Expected<PgoManifest> M = pgo::loadManifest(WS, /*MustExist=*/true, "report");
  if (!M)
    return M.takeError();
  if (!M->Optimize || M->Phase != "optimized")
    return makeToolError("report: kiln pgo optimize has not completed in this "
                         "workspace (phase: " +
                             M->Phase + ")",
                         WS.display(WS.manifest()),
                         "run '" + WS.command("optimize") +
                             " -- <build command>' first");
  Build.Recorded = true;
  Build.Phase = M->Phase;
  Build.Flags = join(M->Optimize->Flags, " ");
  Build.ProfilesOfBuild =
      StringRef(Build.Flags).contains("--kiln-profiles-of-build");
  Build.Switches = M->Optimize->Options.empty()
                       ? std::string("no switches")
                       : join(M->Optimize->Options, " ");
  Build.CSRelink = M->Optimize->ContextSensitive;
  Build.CompilePolicy = M->Optimize->CompilePolicy;
  Build.BlockLayoutSource = M->Optimize->BlockLayoutSource;
  Expected<std::optional<TrainingCoverage>> Coverage =
      pgo::steadyTrainingCoverage(WS, *M);
  if (!Coverage)
    return Coverage.takeError();
  Build.SteadyTraining = *Coverage;
  for (const PgoBlockLayout &L : M->Optimize->BlockLayouts)
    Build.BlockLayouts.push_back(
        L.Program + ": " + M->Optimize->BlockLayoutSource + ": " + L.Outcome);
  for (const std::string &S : M->usableScenarios()) {
    NamedScenario N;
    N.Name = S;
    N.Spec.Kind = isStartupScenario(S) ? layout::ScenarioKind::Startup
                                       : layout::ScenarioKind::SteadyState;
    N.Spec.Path = pgo::scenarioProfile(WS, S);
    if (!sys::fs::exists(N.Spec.Path))
      return makeToolError("report: the profile of scenario '" + S +
                               "' is missing",
                           N.Spec.Path, "run its scenario again");
    Scenarios.push_back(std::move(N));
  }
  if (Scenarios.empty())
    return makeToolError("report: no scenario has a usable profile",
                         WS.display(WS.manifest()));
  // The optimize build linked the programs the instrumented build did; the
  // N-th of them recorded under <N>.
  const std::vector<PgoFileStamp> &Targets = M->Instrument->Programs;
  for (size_t I = 0; I < Targets.size(); ++I) {
    if (none_of(M->Optimize->Programs, [&](const PgoFileStamp &P) {
          return P.Path == Targets[I].Path;
        }))
      continue; // Not linked again: not optimized (optimize warned).
    ProgramInputs P;
    P.Program = Targets[I].Path;
    for (const PgoBlockLayout &L : M->Optimize->BlockLayouts)
      if (L.Program == P.Program) {
        P.BlockLayoutOutcome = L.Outcome;
        if (L.Outcome == "done")
          P.BlockProfile = L.Profile;
      }
    std::string Stem = WS.path(Twine(PgoLinkRecordDir) + "/" + Twine(I));
    if (sys::fs::exists(Stem + ".json"))
      P.LinkReport = Stem + ".json";
    if (sys::fs::exists(Stem + ".unordered"))
      P.Unordered = Stem + ".unordered";
    if (P.LinkReport.empty())
      P.WhyNotRecorded =
          StringRef(Build.Flags).contains("--kiln-profile") ||
                  StringRef(Build.Flags).contains("--kiln-startup-profile")
              ? "kiln-lld linked this program without Kiln's order (its "
                "warnings are in the optimize build's output)"
              : "the optimize build gave no Kiln order (" + Build.Switches +
                    ")";
    Programs.push_back(std::move(P));
  }
  if (Programs.empty())
    return makeToolError("report: the optimize build linked none of the "
                         "profiled programs",
                         WS.display(WS.manifest()));
  return Error::success();
}

/// The inputs given on the command line, outside the flow.
static Error readExplicitInputs(const ReportOptions &Opts,
                                std::vector<ProgramInputs> &Programs,
                                std::vector<NamedScenario> &Scenarios) {
  if (Opts.Scenarios.empty())
    return makeToolError("no profile: nothing says which functions ran", "",
                         "add --scenario=startup=<profile> or "
                         "--scenario=steady=<profile>");
  Expected<std::vector<ScenarioSpec>> Specs =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Specs)
    return makeToolError(toString(Specs.takeError()), "--scenario");
  for (const ScenarioSpec &S : *Specs)
    Scenarios.push_back(
        {(getScenarioKindName(S.Kind) + ":" + sys::path::filename(S.Path))
             .str(),
         S});
  ProgramInputs P;
  P.Program = Opts.Binary;
  P.Unordered = Opts.Unordered;
  P.LinkReport = Opts.LinkReport;
  P.WhyNotRecorded = "not given (--link-report=, --unordered=)";
  Programs.push_back(std::move(P));
  return Error::success();
}

Expected<json::Value> kiln::gatherReport(const ReportOptions &Opts,
                                         raw_ostream &Diag) {
  std::vector<ProgramInputs> Programs;
  std::vector<NamedScenario> Scenarios;
  BuildFacts Build;
  if (Error E = Opts.Binary.empty()
                    ? readWorkspace(Opts, Programs, Scenarios, Build)
                    : readExplicitInputs(Opts, Programs, Scenarios))
    return std::move(E);
  json::Array Reports;
  for (const ProgramInputs &P : Programs) {
    Expected<json::Object> R = reportProgram(P, Scenarios, Build, Diag);
    if (!R)
      return R.takeError();
    Reports.push_back(std::move(*R));
  }
  json::Array Names;
  for (const NamedScenario &S : Scenarios)
    Names.push_back(
        json::Object{{"name", S.Name},
                     {"kind", getScenarioKindName(S.Spec.Kind).str()},
                     {"profile", S.Spec.Path}});
  json::Object Report{{"kiln_report", 1},
                      {"page_size", ReportPageSize},
                      {"scenarios", std::move(Names)},
                      {"programs", std::move(Reports)}};
  if (Build.Recorded)
    Report["build"] =
        json::Object{{"workspace", pgo::Workspace(Opts.Workspace).Root},
                     {"flags", Build.Flags},
                     {"switches", Build.Switches},
                     {"compile_policy", Build.CompilePolicy},
                     {"context_sensitive_relink", Build.CSRelink},
                     {"block_layout", Build.BlockLayouts}};
  if (const std::optional<TrainingCoverage> &T = Build.SteadyTraining)
    Report.getObject("build")->try_emplace(
        "steady_training",
        json::Object{{"functions", int64_t(T->Functions)},
                     {"executed_functions", int64_t(T->ExecutedFunctions)},
                     {"counters", int64_t(T->Counters)},
                     {"nonzero_counters", int64_t(T->NonZeroCounters)},
                     {"thin", pgo::isThinTraining(*T)}});
  return json::Value(std::move(Report));
}

/// The files the report reads, for checkOutputPaths.
static std::vector<NamedFile> collectInputs(const json::Value &Report) {
  std::vector<NamedFile> Read;
  const json::Object &R = *Report.getAsObject();
  for (const json::Value &S : *R.getArray("scenarios"))
    Read.push_back({S.getAsObject()->getString("profile")->str(), "profile"});
  for (const json::Value &P : *R.getArray("programs")) {
    const json::Object &PO = *P.getAsObject();
    Read.push_back({PO.getString("program")->str(), "program"});
    Read.push_back({PO.getString("unordered")->str(), "--unordered"});
    Read.push_back({PO.getString("link_report")->str(), "--link-report"});
  }
  return Read;
}

Expected<std::string> kiln::writeReport(const ReportOptions &Opts,
                                        raw_ostream &Diag) {
  Expected<json::Value> Report = gatherReport(Opts, Diag);
  if (!Report)
    return Report.takeError();
  std::string Dir = Opts.OutputDir;
  if (Dir.empty())
    Dir = pgo::Workspace(Opts.Workspace).path("report");
  if (sys::fs::exists(Dir) && !sys::fs::is_directory(Dir))
    return makeToolError("is not a directory: the report is two files, "
                         "report.html and report.json",
                         Dir);
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return makeToolError("cannot create the directory: " + EC.message(), Dir);
  std::string JSONPath = (Dir + "/report.json");
  std::string HTMLPath = (Dir + "/report.html");
  if (Error E = checkOutputPaths(
          {{JSONPath, "report.json"}, {HTMLPath, "report.html"}},
          collectInputs(*Report)))
    return makeToolError(toString(std::move(E)));
  if (Error E = writeOutputFile(
          JSONPath,
          [&](raw_ostream &OS) { OS << formatv("{0:2}", *Report) << '\n'; },
          sys::fs::OF_Text))
    return makeToolError(toString(std::move(E)));
  if (Error E = writeOutputFile(
          HTMLPath, [&](raw_ostream &OS) { writeReportHTML(*Report, OS); },
          sys::fs::OF_Text))
    return makeToolError(toString(std::move(E)));
  return HTMLPath;
}

Error kiln::runReportCommand(const ReportOptions &Opts, raw_ostream &Out,
                             raw_ostream &Diag) {
  if (Opts.Binary.empty() &&
      (!Opts.Unordered.empty() || !Opts.LinkReport.empty() ||
       !Opts.Scenarios.empty()))
    return makeToolError("--unordered, --link-report and --scenario describe "
                         "a program given with --binary",
                         "",
                         "add --binary=<linked program>, or leave them "
                         "out to read the workspace");
  if (!Opts.Binary.empty() && Opts.OutputDir.empty())
    return makeToolError("-o is required with --binary (there is no "
                         "workspace to write into)");
  Expected<std::string> HTML = writeReport(Opts, Diag);
  if (!HTML)
    return HTML.takeError();
  Out << "kiln report: " << *HTML << '\n'
      << "kiln report: " << sys::path::parent_path(*HTML) << "/report.json\n";
  return Error::success();
}

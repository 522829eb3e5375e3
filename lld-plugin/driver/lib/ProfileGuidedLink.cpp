//===- ProfileGuidedLink.cpp - kiln-lld --kiln-profile --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/ProfileGuidedLink.h"
#include "kiln/LLDDriver/ProfileGuidedLinkSteps.h"

#include "kiln/LLDDriver/ImportInlinePlanStep.h"
#include "kiln/LLDDriver/PrereadPlan.h"
#include "kiln/LLDDriver/ScratchDirectory.h"
#include "kiln/Order/LinkerPolicy.h"
#include "kiln/Order/OrderEmitter.h"
#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/StaleProfile.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <csignal>
#include <cstdlib>

using namespace llvm;
using namespace kiln;

static constexpr StringLiteral ToolName = "kiln-lld";

static Error linkError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message.str());
}

namespace {
class ProfileGuidedLink {
public:
  ProfileGuidedLink(LinkerFlavor Flavor, ArrayRef<std::string> LinkerArgs,
                    const KilnLinkOptions &Options, ScratchDirectory &Scratch,
                    RunLinkerFn RunLinker, raw_ostream &Stdout,
                    raw_ostream &Diag)
      : Flavor(Flavor), LinkerArgs(LinkerArgs), Options(Options),
        Scratch(Scratch), RunLinker(RunLinker), Stdout(Stdout), Diag(Diag) {}

  int run();

private:
  /// Kiln cannot help this link: with --kiln-strict an error, otherwise a
  /// warning and the link as the user wrote it.
  int linkWithoutKiln(Error Why);
  Error checkOptions();
  Expected<LinkerInputs> readLinkedObjects(StringRef TraceStdout,
                                           StringRef TraceStderr,
                                           const ScratchPaths &Scratch);
  Error checkCoverage(const OrderPlan &Plan);
  void warnAboutStaleProfiles(StringRef TraceStdout, StringRef TraceStderr);
  Error checkOutputs(StringRef TraceStdout, StringRef TraceStderr);
  Expected<std::string> writeOrder(const OrderPlan &Plan,
                                   const LinkerInputs &Inputs,
                                   StringRef ScratchOrderFile);
  void writePrereadPlan(const OrderPlan &Plan, const LinkerInputs &Inputs);
  void keepUnorderedLink(StringRef PreliminaryOutput);
  Error addInlinePlan(const ScratchDirectory &Scratch);
  void warn(const Twine &Message) {
    WithColor::warning(Diag, ToolName) << Message << '\n';
  }

  LinkerFlavor Flavor;
  ArrayRef<std::string> LinkerArgs;
  const KilnLinkOptions &Options;
  ScratchDirectory &Scratch;
  RunLinkerFn RunLinker;
  raw_ostream &Stdout;
  raw_ostream &Diag;

  std::vector<ScenarioSpec> Scenarios;
  PlanOptions Plan;
  OrderFileReport Written;
  /// The user's arguments and the import and inline plan's options, once
  /// planned (LinkerArgs then refers to it).
  std::vector<std::string> ArgsWithInlinePlan;
};
} // namespace

int ProfileGuidedLink::linkWithoutKiln(Error Why) {
  if (Options.Strict) {
    WithColor::error(Diag, ToolName) << toString(std::move(Why)) << '\n';
    return 1;
  }
  warn(toString(std::move(Why)) + "; linking without Kiln's order");
  return RunLinker(LinkerArgs, Stdout, Diag);
}

Error ProfileGuidedLink::checkOptions() {
  Expected<std::vector<ScenarioSpec>> Specs =
      parseScenarioSpecs(Options.Scenarios);
  if (!Specs)
    return Specs.takeError();
  Scenarios = std::move(*Specs);
  for (const ScenarioSpec &S : Scenarios)
    if (std::error_code EC = checkRegularFile(S.Path))
      return linkError(
          S.Path + ": " +
          (sys::fs::exists(S.Path) ? EC.message() : "no such profile"));
  Expected<OrderAlgorithm> Algorithm = parseOrderAlgorithm(Options.Algorithm);
  if (!Algorithm)
    return linkError("--kiln-algorithm: " + toString(Algorithm.takeError()));
  Plan.Algorithm = *Algorithm;
  Expected<uint64_t> PageSize = parsePageSize(Options.PageSize);
  if (!PageSize)
    return linkError("--kiln-page-size: " + toString(PageSize.takeError()));
  Plan.Composite.PageSize = *PageSize;
  if (Flavor == LinkerFlavor::MinGW || Flavor == LinkerFlavor::Unknown)
    return linkError("profile-guided links are supported for ELF, COFF "
                     "(lld-link) and Mach-O, not for " +
                     getFlavorName(Flavor));
  return Error::success();
}

/// The native objects LTO produced: the files lld saved at the LTO object
/// path (`lto.o`, `lto.o1`, ... for ELF; `<n>.<arch>.lto.o` in a directory
/// for Mach-O; the merged object for lld-link) and the scratch ThinLTO
/// cache's files, since lld saves an empty file for a backend whose object
/// went through the cache. Empty files and second copies (same bytes) are
/// left out.
static std::vector<std::string> listLTOObjects(LinkerFlavor Flavor,
                                               const ScratchPaths &Scratch) {
  std::vector<std::string> Saved, Cached;
  auto ListDirectory = [](StringRef Dir, auto Wanted,
                          std::vector<std::string> &Into) {
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      if (Wanted(sys::path::filename(It->path())))
        Into.push_back(It->path());
  };
  if (Flavor == LinkerFlavor::MachO) {
    ListDirectory(
        Scratch.LTOObjects,
        [](StringRef Name) { return Name.ends_with(".lto.o"); }, Saved);
  } else {
    StringRef Base = sys::path::filename(Scratch.LTOObjects);
    ListDirectory(
        sys::path::parent_path(Scratch.LTOObjects),
        [Base](StringRef Name) {
          uint64_t Task;
          return Name.consume_front(Base) &&
                 (Name.empty() || !Name.getAsInteger(10, Task));
        },
        Saved);
  }
  ListDirectory(
      Scratch.LTOCache,
      [](StringRef Name) { return Name.starts_with("llvmcache-"); }, Cached);
  // Directory order is the file system's: sort for determinism.
  llvm::sort(Saved);
  llvm::sort(Cached);
  llvm::append_range(Saved, Cached);

  // Only files of equal size can be copies: hash just those, so that the
  // common case reads each object once (when Kiln parses it).
  std::vector<uint64_t> Sizes(Saved.size(), 0);
  DenseMap<uint64_t, unsigned> FilesOfSize;
  for (size_t I = 0; I < Saved.size(); ++I)
    if (!sys::fs::file_size(Saved[I], Sizes[I]) && Sizes[I])
      ++FilesOfSize[Sizes[I]];
  std::vector<std::string> Paths;
  DenseSet<uint64_t> SeenContents;
  for (size_t I = 0; I < Saved.size(); ++I) {
    if (!Sizes[I])
      continue;
    if (FilesOfSize[Sizes[I]] > 1) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(
          Saved[I], /*IsText=*/false, /*RequiresNullTerminator=*/false);
      if (!Buffer ||
          !SeenContents.insert(xxh3_64bits((*Buffer)->getBuffer())).second)
        continue;
    }
    Paths.push_back(Saved[I]);
  }
  return Paths;
}

Expected<LinkerInputs> ProfileGuidedLink::readLinkedObjects(
    StringRef TraceStdout, StringRef TraceStderr, const ScratchPaths &Scratch) {
  LinkerInputs Inputs;
  for (const TracedInput &In :
       parseTracedInputs(TraceStdout, TraceStderr, Flavor)) {
    // Lines of lld's output that are not files (warnings, maps) are not
    // inputs.
    if (!sys::fs::is_regular_file(In.Path))
      continue;
    Expected<InputKind> Kind = classifyLinkerInput(In.Path, In.Member);
    if (!Kind)
      return Kind.takeError();
    // Bitcode becomes the LTO objects read below; shared libraries and
    // archives as such place no code of their own.
    if (*Kind != InputKind::Relocatable)
      continue;
    if (Error E = readLinkerInputMember(In.Path, In.Member, Inputs))
      return std::move(E);
  }
  for (const std::string &Path : listLTOObjects(Flavor, Scratch)) {
    Expected<InputKind> Kind = classifyLinkerInput(Path);
    if (!Kind)
      return Kind.takeError();
    if (*Kind != InputKind::Relocatable)
      continue;
    if (Error E = readLinkerInput(Path, Inputs))
      return std::move(E);
  }
  if (Inputs.Functions.empty())
    return linkError("the link has no native function Kiln could order");
  return Inputs;
}

/// Kiln's outputs must not replace a file the link reads or writes: checked
/// against the link's output, each other, and the inputs lld really loaded.
/// The link's own output is lld's business (a library linked against its
/// previous build is a link plain lld performs).
Error ProfileGuidedLink::checkOutputs(StringRef TraceStdout,
                                      StringRef TraceStderr) {
  std::vector<NamedFile> Read;
  for (const TracedInput &In :
       parseTracedInputs(TraceStdout, TraceStderr, Flavor))
    if (sys::fs::is_regular_file(In.Path))
      Read.push_back({In.Path, "input"});
  for (const ScenarioSpec &S : Scenarios)
    Read.push_back({S.Path, "profile"});
  std::vector<NamedFile> KilnOutputs = {
      {Options.OrderOut, "--kiln-order-out"},
      {Options.ReportOut, "--kiln-report"},
      {Options.PrereadOut, "--kiln-preread-out"},
      {Options.UnorderedOut, "--kiln-unordered-out"}};
  std::vector<NamedFile> AllOutputs = {
      {findOutputPath(LinkerArgs, Flavor), "the link's output"}};
  append_range(AllOutputs, KilnOutputs);
  if (Error E = checkOutputPaths(AllOutputs, {}))
    return E;
  return checkOutputPaths(KilnOutputs, Read);
}

// An order from a profile that does not describe this link would replace
// lld's own sort with a worse one: such a link keeps lld's order. Profiles
// that kiln pgo collected from this very build describe it by construction.
Error ProfileGuidedLink::checkCoverage(const OrderPlan &Planned) {
  if (Options.ProfilesOfBuild)
    return Error::success();
  for (const ProfileCoverage &C : Planned.Coverage) {
    if (C.Path.empty())
      continue;
    if (std::optional<std::string> Why =
            whyProfileIsForeign(C, Planned.NumLinkFunctions))
      return linkError(C.Path + ": " + *Why);
  }
  return Error::success();
}

// A profile older than the code still orders the functions by name, but
// clang compiled the changed ones without their counts: say so, from what
// the bitcode inputs record (kiln/Sources/StaleProfile.h). Archive members
// and native objects carry no such record and are not read.
void ProfileGuidedLink::warnAboutStaleProfiles(StringRef TraceStdout,
                                               StringRef TraceStderr) {
  std::vector<ProfileUseFunction> Compiled;
  for (const TracedInput &In :
       parseTracedInputs(TraceStdout, TraceStderr, Flavor)) {
    if (!In.Member.empty() || !sys::fs::is_regular_file(In.Path))
      continue;
    Expected<InputKind> Kind = classifyLinkerInput(In.Path);
    if (!Kind) {
      consumeError(Kind.takeError());
      continue;
    }
    if (*Kind != InputKind::Bitcode)
      continue;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        getInputFile(In.Path, /*IsText=*/false,
                     /*RequiresNullTerminator=*/false);
    if (!Buffer)
      continue;
    Expected<std::vector<ProfileUseFunction>> Functions =
        readProfileUseFunctions(In.Path, **Buffer);
    // lld linked it: what Kiln cannot read of it only leaves the check
    // without that module.
    if (!Functions) {
      consumeError(Functions.takeError());
      continue;
    }
    llvm::append_range(Compiled, *Functions);
  }
  if (Compiled.empty())
    return;
  for (const ScenarioSpec &S : Scenarios) {
    Expected<LayoutProfile> Profile = readProfile(S.Path);
    if (!Profile) {
      consumeError(Profile.takeError());
      continue;
    }
    if (Profile->Kind != ProfileKind::Instrumented)
      continue;
    // The build's own profiles: the compile profile is kiln pgo's sparse
    // one, of other runs than the ordering profiles'.
    std::string Warning = describeStaleProfile(
        S.Path, findStaleFunctions(*Profile, Compiled,
                                   /*SparseCompileProfile=*/
                                   Options.ProfilesOfBuild));
    if (!Warning.empty())
      warn(Warning);
  }
}

static OrderFileFormat getOrderFileFormat(LinkerFlavor Flavor) {
  switch (Flavor) {
  case LinkerFlavor::COFF:
    return OrderFileFormat::COFF;
  case LinkerFlavor::MachO:
    return OrderFileFormat::MachO;
  default:
    return OrderFileFormat::ELF;
  }
}

Expected<std::string>
ProfileGuidedLink::writeOrder(const OrderPlan &Planned,
                              const LinkerInputs &Inputs,
                              StringRef ScratchOrderFile) {
  OrderEmission What;
  What.Tool = ToolName;
  What.Program = ToolName;
  What.Provenance = {"link: " + join(LinkerArgs, " "),
                     "profiles: " + join(Options.Scenarios, " ")};
  What.OutputPath =
      Options.OrderOut.empty() ? ScratchOrderFile.str() : Options.OrderOut;
  What.ReportPath = Options.ReportOut;
  What.Format = getOrderFileFormat(Flavor);
  What.Algorithm = Plan.Algorithm;
  What.PageSize = Plan.Composite.PageSize;
  What.PrintSummary = Options.Verbose;
  Expected<PendingOrder> File = writePlannedOrder(What, Planned, Inputs);
  if (!File)
    return File.takeError();
  if (Error E = finishPlannedOrder(What, Planned, Inputs, *File, Diag))
    return std::move(E);
  Written = std::move(File->Report);
  return What.OutputPath;
}

void ProfileGuidedLink::writePrereadPlan(const OrderPlan &Planned,
                                         const LinkerInputs &Inputs) {
  std::vector<std::string> Startup;
  StringSet<> Seen;
  for (size_t I = 0; I < Planned.Functions.size(); ++I)
    if (I < Planned.Groups.size() &&
        Planned.Groups[I] == layout::LayoutGroup::Startup) {
      StringRef Name = Inputs.Functions[Planned.Functions[I]].Name;
      if (Seen.insert(Name).second)
        Startup.push_back(Name.str());
    }
  if (Startup.empty()) {
    warn("--kiln-preread-out: the order has no startup group (give "
         "--kiln-startup-profile=, and --kiln-algorithm=kiln); no plan "
         "written");
    return;
  }
  std::string Binary = findOutputPath(LinkerArgs, Flavor);
  if (Binary.empty()) {
    warn("--kiln-preread-out: name the output (/out:) so Kiln can find it");
    return;
  }
  Expected<PrereadRange> Range =
      findPrereadRange(Binary, Startup, Plan.Composite.PageSize);
  if (!Range) {
    warn("--kiln-preread-out: " + toString(Range.takeError()));
    return;
  }
  if (Error E = writeOutputFile(
          Options.PrereadOut,
          [&](raw_ostream &OS) { writePrereadPlanJSON(*Range, OS); },
          sys::fs::OF_Text)) {
    warn(toString(std::move(E)));
    return;
  }
  Expected<bool> Recorded = recordPrereadRange(Binary, *Range);
  if (!Recorded)
    warn("--kiln-preread-out: " + toString(Recorded.takeError()));
  else if (Options.Verbose)
    Diag << ToolName << ": startup range " << Range->Length << " bytes ("
         << Range->getPages() << " pages) at file offset " << Range->FileOffset
         << (*Recorded ? ", recorded for kiln_preread()" : "") << '\n';
}

/// Plans imports and inlining and adds the plan's options to LinkerArgs. An
/// error leaves LinkerArgs alone: the link keeps LLVM's default importer.
Error ProfileGuidedLink::addInlinePlan(const ScratchDirectory &Scratch) {
  if (Flavor != LinkerFlavor::ELF)
    return linkError("--kiln-inline-plan: planned ThinLTO imports and "
                     "inlining are for ELF links (ld.lld), not for " +
                     getFlavorName(Flavor));
  InlinePlanStepContext Ctx{LinkerArgs,         Scenarios,
                            Options.InlinePlan, Scratch.file("plan"),
                            Options.Verbose,    RunLinker};
  if (std::error_code EC = sys::fs::create_directory(Ctx.ScratchDir))
    return linkError("cannot create " + Ctx.ScratchDir + ": " + EC.message());
  Expected<std::vector<std::string>> Extra = planImportsAndInlining(Ctx, Diag);
  if (!Extra)
    return Extra.takeError();
  ArgsWithInlinePlan.assign(LinkerArgs.begin(), LinkerArgs.end());
  llvm::append_range(ArgsWithInlinePlan, *Extra);
  LinkerArgs = ArgsWithInlinePlan;
  return Error::success();
}

/// The preliminary link is the user's link with lld's own order (its
/// extra options only list inputs and keep LTO objects): kept, it is the
/// program as it would be without Kiln, at the cost of a copy.
void ProfileGuidedLink::keepUnorderedLink(StringRef PreliminaryOutput) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(PreliminaryOutput, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    warn("--kiln-unordered-out: " + PreliminaryOutput + ": " +
         Buffer.getError().message());
    return;
  }
  if (Error E = writeOutputFile(Options.UnorderedOut, [&](raw_ostream &OS) {
        OS << (*Buffer)->getBuffer();
      }))
    warn(toString(std::move(E)));
}

int ProfileGuidedLink::run() {
  std::vector<std::string> Conflicts =
      findConflictingOrderOptions(LinkerArgs, Flavor);
  if (!Conflicts.empty()) {
    WithColor::error(Diag, ToolName)
        << Conflicts.front()
        << " and --kiln-profile both decide the order of functions; drop "
           "one of them\n";
    return 1;
  }
  if (Error E = checkOptions())
    return linkWithoutKiln(std::move(E));

  if (Error E = Scratch.create())
    return linkWithoutKiln(std::move(E));
  if (Options.SaveTemps)
    Scratch.keep(Diag);
  ScratchPaths Paths;
  Paths.Output = Scratch.file("preliminary.out");
  Paths.SideOutputs = Scratch.file("preliminary");
  if (Flavor == LinkerFlavor::MachO) {
    Paths.LTOObjects = Scratch.file("lto-objects");
    sys::fs::create_directory(Paths.LTOObjects);
  } else {
    Paths.LTOObjects =
        Scratch.file(Flavor == LinkerFlavor::COFF ? "lto.obj" : "lto.o");
  }
  // Both links share a scratch ThinLTO cache, so backends run once and the
  // preliminary link's objects can be read from it. It overrides a cache the
  // user named (the last cache option wins), which this link then neither
  // reads nor fills.
  Paths.LTOCache = Scratch.file("thinlto-cache");
  if (requestsInlinePlan(Options.InlinePlan)) {
    if (Error E = addInlinePlan(Scratch)) {
      if (Options.Strict) {
        WithColor::error(Diag, ToolName) << toString(std::move(E)) << '\n';
        return 1;
      }
      warn(toString(std::move(E)) +
           "; the link keeps LLVM's default importer and inliner");
    }
  }
  if (std::string UserCache = findUserLTOCache(LinkerArgs, Flavor);
      !UserCache.empty() && Options.Verbose)
    Diag << ToolName << ": note: this link uses a scratch ThinLTO cache, not "
         << UserCache << '\n';

  std::string TraceOut, TraceErr;
  raw_string_ostream TraceOutStream(TraceOut), TraceErrStream(TraceErr);
  int Preliminary =
      RunLinker(buildPreliminaryLinkArgs(LinkerArgs, Flavor, Paths),
                TraceOutStream, TraceErrStream);
  if (Preliminary != 0) {
    // The user's link fails as it is: show why, as lld would have.
    Diag << TraceErr;
    return Preliminary;
  }
  // For the test of interrupted links (test/kiln-lld/interrupt.test): a
  // signal while the scratch directory is full.
  if (getenv("KILN_LLD_TEST_INTERRUPT"))
    raise(SIGINT);

  if (Error E = checkOutputs(TraceOut, TraceErr)) {
    WithColor::error(Diag, ToolName) << toString(std::move(E)) << '\n';
    return 1;
  }
  Expected<LinkerInputs> Inputs = readLinkedObjects(TraceOut, TraceErr, Paths);
  if (!Inputs)
    return linkWithoutKiln(Inputs.takeError());
  if (Flavor == LinkerFlavor::ELF)
    markLoadEntry(*Inputs, getELFEntrySymbol(LinkerArgs));
  Expected<OrderPlan> Planned = planOrder(*Inputs, Scenarios, Plan);
  if (!Planned)
    return linkWithoutKiln(Planned.takeError());
  if (Error E = checkCoverage(*Planned))
    return linkWithoutKiln(std::move(E));
  warnAboutStaleProfiles(TraceOut, TraceErr);
  Expected<std::string> OrderFile =
      writeOrder(*Planned, *Inputs, Scratch.file("order.txt"));
  if (!OrderFile)
    return linkWithoutKiln(OrderFile.takeError());

  int Final = RunLinker(
      buildFinalLinkArgs(LinkerArgs, Flavor, *OrderFile, Paths.LTOCache),
      Stdout, Diag);
  if (Final == 0 && !Options.PrereadOut.empty())
    writePrereadPlan(*Planned, *Inputs);
  if (Final == 0 && !Options.UnorderedOut.empty())
    keepUnorderedLink(Paths.Output);
  return Final;
}

int kiln::runProfileGuidedLink(LinkerFlavor Flavor,
                               ArrayRef<std::string> LinkerArgs,
                               const KilnLinkOptions &Options,
                               ScratchDirectory &Scratch, RunLinkerFn RunLinker,
                               raw_ostream &Stdout, raw_ostream &Diag) {
  return ProfileGuidedLink(Flavor, LinkerArgs, Options, Scratch, RunLinker,
                           Stdout, Diag)
      .run();
}

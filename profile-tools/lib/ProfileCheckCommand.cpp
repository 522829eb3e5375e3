//===- ProfileCheckCommand.cpp - kiln profile check -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProfileCheckCommand.h"

#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/Profile.h"
#include "kiln/Sources/ProfiledGraph.h"
#include "kiln/Sources/StaleProfile.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/ToolError.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

#include <optional>

using namespace llvm;
using namespace kiln;

/// At most this many unbound names are listed in text.
static constexpr size_t MaxListedUnbound = 10;

static double percent(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 100.0;
}

namespace {
/// What the bitcode inputs say of each instrumented profile (see
/// kiln/Sources/StaleProfile.h).
struct StaleCheck {
  std::string Path;
  StaleProfileFinding Finding;
};
} // namespace

static void printStaleText(ArrayRef<StaleCheck> Checks, raw_ostream &Out) {
  for (const StaleCheck &C : Checks) {
    std::string Warning = describeStaleProfile(C.Path, C.Finding);
    if (!Warning.empty())
      Out << Warning << '\n';
    else
      Out << C.Path << ": the " << C.Finding.CompiledFunctions
          << " functions it has counts for in the bitcode were compiled "
             "with them\n";
  }
}

static void printStaleJSON(ArrayRef<StaleCheck> Checks, json::OStream &J) {
  J.attributeArray("stale", [&] {
    for (const StaleCheck &C : Checks)
      J.object([&] {
        J.attribute("profile", C.Path);
        J.attribute("compiled_functions", C.Finding.CompiledFunctions);
        J.attribute("stale_functions", C.Finding.StaleFunctions);
        J.attribute("stale_weight", C.Finding.StaleWeight);
        J.attribute("total_weight", C.Finding.TotalWeight);
        J.attributeArray("stale_names", [&] {
          for (const std::string &Name : C.Finding.StaleNames)
            J.value(Name);
        });
      });
  });
}

static void printText(const ProfileCheckOptions &Opts, const ProfiledGraph &G,
                      raw_ostream &Out) {
  Out << "kiln profile check: " << G.NumLinkFunctions << " functions in "
      << Opts.Inputs.size() << " input(s)\n";
  for (const ProfileCoverage &C : G.Coverage) {
    std::optional<std::string> Foreign =
        whyProfileIsForeign(C, G.NumLinkFunctions);
    Out << C.Path << " (" << C.Scenario << "): " << C.Bound << " of "
        << C.Executed << " executed functions bind, "
        << format("%.1f", percent(C.BoundWeight, C.ExecutedWeight))
        << "% of their counts: "
        << (Foreign ? "does not belong to this build"
                    : "Kiln uses the functions that bind")
        << '\n';
    if (Foreign)
      Out << "  " << *Foreign << '\n';
    for (size_t I = 0; I < std::min(C.Unbound.size(), MaxListedUnbound); ++I)
      Out << "  not bound: " << C.Unbound[I].first << ": "
          << C.Unbound[I].second << '\n';
    if (C.Unbound.size() > MaxListedUnbound)
      Out << "  ... and " << C.Unbound.size() - MaxListedUnbound
          << " more (--json lists all)\n";
  }
}

static void printJSON(const ProfiledGraph &G, ArrayRef<StaleCheck> Stale,
                      bool HasBitcode, raw_ostream &Out) {
  json::OStream J(Out, 2);
  J.object([&] {
    J.attribute("functions", G.NumLinkFunctions);
    if (HasBitcode)
      printStaleJSON(Stale, J);
    J.attributeArray("profiles", [&] {
      for (const ProfileCoverage &C : G.Coverage) {
        std::optional<std::string> Foreign =
            whyProfileIsForeign(C, G.NumLinkFunctions);
        J.object([&] {
          writeCoverageJSON(J, C, [&] {
            J.attribute("belongs", !Foreign);
            if (Foreign)
              J.attribute("why_not", *Foreign);
          });
        });
      }
    });
  });
  Out << '\n';
}

/// Reads the bitcode among \p Paths for the stale check; the rest are
/// native inputs for the coverage check.
static Error readInputs(ArrayRef<std::string> Paths, LinkerInputs &Native,
                        unsigned &NumNative,
                        std::vector<ProfileUseFunction> &Compiled,
                        unsigned &NumBitcode) {
  for (const std::string &Path : Paths) {
    Expected<InputKind> Kind = classifyLinkerInput(Path);
    if (!Kind)
      return Kind.takeError();
    if (*Kind != InputKind::Bitcode) {
      if (Error E = readLinkerInput(Path, Native))
        return E;
      ++NumNative;
      continue;
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
        getInputFile(Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!Buffer)
      return createStringError(Buffer.getError(),
                               Path + ": " + Buffer.getError().message());
    Expected<std::vector<ProfileUseFunction>> Functions =
        readProfileUseFunctions(Path, **Buffer);
    if (!Functions)
      return Functions.takeError();
    llvm::append_range(Compiled, *Functions);
    ++NumBitcode;
  }
  return Error::success();
}

Error kiln::runProfileCheck(const ProfileCheckOptions &Opts, raw_ostream &Out) {
  if (Opts.Inputs.empty())
    return makeToolError("no input", "",
                         "give the build's objects and archives, or the "
                         "linked program, and --scenario=<kind>=<profile>");
  if (Opts.Scenarios.empty())
    return makeToolError("no profile to check", "",
                         "add --scenario=startup=<profile> or "
                         "--scenario=steady=<profile>");
  LinkerInputs Inputs;
  unsigned NumNative = 0, NumBitcode = 0;
  std::vector<ProfileUseFunction> Compiled;
  if (Error E =
          readInputs(Opts.Inputs, Inputs, NumNative, Compiled, NumBitcode))
    return makeToolError(toString(std::move(E)));
  Expected<std::vector<ScenarioSpec>> Scenarios =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Scenarios)
    return makeToolError(toString(Scenarios.takeError()), "--scenario");

  // Bitcode (`-flto` objects compiled with -fprofile-use) says which
  // functions clang compiled without their counts.
  std::vector<StaleCheck> Stale;
  if (NumBitcode)
    for (const ScenarioSpec &S : *Scenarios) {
      Expected<LayoutProfile> Profile = readProfile(S.Path);
      if (!Profile)
        return makeToolError(toString(Profile.takeError()));
      if (Profile->Kind == ProfileKind::Instrumented)
        Stale.push_back({S.Path, findStaleFunctions(*Profile, Compiled)});
    }
  if (!NumNative) {
    // Only bitcode: there are no native functions to bind yet.
    if (Opts.JSON) {
      json::OStream J(Out, 2);
      J.object([&] { printStaleJSON(Stale, J); });
      Out << '\n';
    } else {
      printStaleText(Stale, Out);
    }
    return Error::success();
  }

  GraphOptions Options;
  Options.UseObjectCallGraph = false;
  Options.PlaceLoadCodeAtStartup = false;
  Expected<ProfiledGraph> G = buildProfiledGraph(Inputs, *Scenarios, Options);
  if (!G)
    return makeToolError(toString(G.takeError()));
  if (Opts.JSON) {
    printJSON(*G, Stale, NumBitcode != 0, Out);
  } else {
    printText(Opts, *G, Out);
    printStaleText(Stale, Out);
  }
  unsigned Foreign = 0;
  for (const ProfileCoverage &C : G->Coverage)
    Foreign += bool(whyProfileIsForeign(C, G->NumLinkFunctions));
  if (Foreign)
    return makeToolError(Twine(Foreign).str() + " of " +
                         Twine(G->Coverage.size()).str() +
                         " profile(s) do not belong to this build");
  return Error::success();
}

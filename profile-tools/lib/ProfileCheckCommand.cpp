//===- ProfileCheckCommand.cpp - kiln profile check -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProfileCheckCommand.h"

#include "kiln/Sources/LinkerInputs.h"
#include "kiln/Sources/ProfiledGraph.h"
#include "kiln/Support/ToolError.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"

#include <optional>

using namespace llvm;
using namespace kiln;

/// At most this many unbound names are listed in text.
static constexpr size_t MaxListedUnbound = 10;

static double percent(uint64_t Part, uint64_t Whole) {
  return Whole ? 100.0 * double(Part) / double(Whole) : 100.0;
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

static void printJSON(const ProfiledGraph &G, raw_ostream &Out) {
  json::OStream J(Out, 2);
  J.object([&] {
    J.attribute("functions", G.NumLinkFunctions);
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
  for (const std::string &Path : Opts.Inputs)
    if (Error E = readLinkerInput(Path, Inputs))
      return makeToolError(toString(std::move(E)));
  Expected<std::vector<ScenarioSpec>> Scenarios =
      parseScenarioSpecs(Opts.Scenarios);
  if (!Scenarios)
    return makeToolError(toString(Scenarios.takeError()), "--scenario");
  GraphOptions Options;
  Options.UseObjectCallGraph = false;
  Options.PlaceLoadCodeAtStartup = false;
  Expected<ProfiledGraph> G = buildProfiledGraph(Inputs, *Scenarios, Options);
  if (!G)
    return makeToolError(toString(G.takeError()));
  if (Opts.JSON)
    printJSON(*G, Out);
  else
    printText(Opts, *G, Out);
  unsigned Foreign = 0;
  for (const ProfileCoverage &C : G->Coverage)
    Foreign += bool(whyProfileIsForeign(C, G->NumLinkFunctions));
  if (Foreign)
    return makeToolError(Twine(Foreign).str() + " of " +
                         Twine(G->Coverage.size()).str() +
                         " profile(s) do not belong to this build");
  return Error::success();
}

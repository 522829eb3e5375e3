//===- PgoCommand.cpp - The work of kiln pgo ------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoCommand.h"

#include "PgoSteps.h"

#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::pgo;

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

static const char *const Usage =
    "usage: kiln pgo instrument [--workspace=DIR] -- <build command>\n"
    "       kiln pgo run --scenario=NAME [--keep-failed] [--workspace=DIR] "
    "-- <command>\n"
    "       kiln pgo optimize [--no-split] [--no-order] [--no-cs] [--no-lto] "
    "[--no-strtab]\n"
    "                     [--no-partial-training] [--untrained-size] "
    "[--no-pgso] [--cs-compile]\n"
    "                     [--no-bind-hot-imports]\n"
    "                     [--block-layout=callgrind|bolt|off] "
    "[--callgrind-budget=SECONDS]\n"
    "                     [--icp=guarded|stock|off] [--workspace=DIR] "
    "-- <build command>\n"
    "       kiln pgo status [--workspace=DIR]\n"
    "(see docs/CommandGuide/kiln-pgo.rst)\n";

/// Records `Name=Value` in \p Switches (what status and the report list)
/// in place of an earlier value of \p Name: the last one given counts, as
/// for the build's own options. \p Keep false drops it without a new one.
static void recordValueSwitch(std::vector<std::string> &Switches,
                              StringRef Name, StringRef Value,
                              bool Keep = true) {
  std::string Prefix = (Name + "=").str();
  erase_if(Switches, [&](StringRef S) { return S.starts_with(Prefix); });
  if (Keep)
    Switches.push_back(Prefix + Value.str());
}

static Expected<PgoOptions> parsePgoArgs(ArrayRef<std::string> Args) {
  PgoOptions O;
  if (Args.empty())
    return makeToolError("no subcommand (instrument, run, optimize, status)",
                         "pgo", "run 'kiln pgo --help'");
  O.Subcommand = Args[0];
  if (!is_contained({"instrument", "run", "optimize", "status"}, O.Subcommand))
    return makeToolError("unknown subcommand '" + O.Subcommand +
                             "' (known: instrument, run, optimize, status)",
                         "pgo", "run 'kiln pgo --help'");
  bool IsRun = O.Subcommand == "run", IsOptimize = O.Subcommand == "optimize";
  // Whether --block-layout was given: the default gives way to --no-lto
  // and --no-order.
  bool BlockLayoutGiven = false;
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A == "--") {
      O.HasCommand = true;
      O.Command.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    auto Value = [&](StringRef Name, std::string &Field) -> bool {
      if (A.consume_front(Name)) {
        if (A.consume_front("=")) {
          Field = A.str();
          return true;
        }
        if (A.empty() && I + 1 < Args.size()) {
          Field = Args[++I];
          return true;
        }
      }
      A = Args[I];
      return false;
    };
    if (Value("--workspace", O.Workspace))
      continue;
    if (IsRun && Value("--scenario", O.Scenario))
      continue;
    if (IsRun && A == "--keep-failed") {
      O.KeepFailed = true;
      continue;
    }
    if (IsOptimize &&
        (A == "--no-split" || A == "--no-order" || A == "--no-lto" ||
         A == "--no-cs" || A == "--no-strtab" || A == "--no-partial-training" ||
         A == "--no-bind-hot-imports")) {
      O.Switches.push_back(A.str());
      (A == "--no-split"              ? O.Transforms.Split
       : A == "--no-order"            ? O.Transforms.Order
       : A == "--no-cs"               ? O.Transforms.ContextSensitive
       : A == "--no-strtab"           ? O.Transforms.StringTables
       : A == "--no-partial-training" ? O.Transforms.PartialTraining
       : A == "--no-bind-hot-imports" ? O.Transforms.BindHotImports
                                      : O.Transforms.ThinLTO) = false;
      continue;
    }
    if (IsOptimize && A == "--untrained-size") {
      O.Switches.push_back(A.str());
      O.Transforms.UntrainedSize = true;
      continue;
    }
    if (IsOptimize && A == "--no-pgso") {
      O.Switches.push_back(A.str());
      O.Transforms.ColdCodeForSpeed = true;
      continue;
    }
    if (IsOptimize && A == "--cs-compile") {
      O.Switches.push_back(A.str());
      O.Transforms.ContextSensitiveCompile = true;
      O.Transforms.PolicyChosen = true;
      continue;
    }
    std::string BlockLayout;
    if (IsOptimize && Value("--block-layout", BlockLayout)) {
      if (BlockLayout != "bolt" && BlockLayout != "callgrind" &&
          BlockLayout != "off")
        return makeToolError("unknown profile source '" + BlockLayout +
                                 "' (known: bolt, callgrind, off)",
                             "--block-layout");
      O.Transforms.BlockLayout =
          BlockLayout == "bolt"        ? PgoBlockLayoutSource::Bolt
          : BlockLayout == "callgrind" ? PgoBlockLayoutSource::Callgrind
                                       : PgoBlockLayoutSource::Off;
      BlockLayoutGiven = O.Transforms.BlockLayoutChosen = true;
      // The default is not a switch.
      recordValueSwitch(O.Switches, "--block-layout", BlockLayout,
                        /*Keep=*/BlockLayout != "callgrind");
      continue;
    }
    std::string ICP;
    if (IsOptimize && Value("--icp", ICP)) {
      if (ICP != "guarded" && ICP != "stock" && ICP != "off")
        return makeToolError("unknown indirect-call promotion policy '" + ICP +
                                 "' (known: guarded, stock, off)",
                             "--icp");
      O.Transforms.ICP = ICP == "guarded" ? PgoIndirectCallPromotion::Guarded
                         : ICP == "stock" ? PgoIndirectCallPromotion::Stock
                                          : PgoIndirectCallPromotion::Off;
      // The default is not a switch.
      // Given, even as the default: the policy is the user's, not measured.
      recordValueSwitch(O.Switches, "--icp", ICP);
      O.Transforms.PolicyChosen = true;
      continue;
    }
    std::string Budget;
    if (IsOptimize && Value("--callgrind-budget", Budget)) {
      if (!to_integer(Budget, O.Transforms.CallgrindBudgetSeconds, 10))
        return makeToolError("'" + Budget +
                                 "' is not a number of seconds (0 or more)",
                             "--callgrind-budget");
      recordValueSwitch(O.Switches, "--callgrind-budget", Budget);
      continue;
    }
    return makeToolError("unknown option '" + A + "' for 'kiln pgo " +
                             O.Subcommand + "'",
                         "pgo " + O.Subcommand, "run 'kiln pgo --help'");
  }
  if (O.Workspace.empty())
    return makeToolError("needs a directory", "--workspace");
  if (BlockLayoutGiven &&
      O.Transforms.BlockLayout != PgoBlockLayoutSource::Off &&
      !O.Transforms.ThinLTO)
    return makeToolError("block layout needs ThinLTO: the relink lays out "
                         "blocks in LTO code generation",
                         "--block-layout", "drop --no-lto or --block-layout");
  if (BlockLayoutGiven &&
      O.Transforms.BlockLayout != PgoBlockLayoutSource::Off &&
      !O.Transforms.Order)
    return makeToolError("block layout places the clusters by Kiln's order",
                         "--block-layout", "drop --no-order or --block-layout");
  if (O.Transforms.ContextSensitiveCompile &&
      !O.Transforms.usesContextSensitiveRelink())
    return makeToolError("the context-sensitive profiles come from the "
                         "context-sensitive relink, which needs ThinLTO and "
                         "Kiln's order",
                         "--cs-compile",
                         "drop --no-cs, --no-order or --no-lto, or "
                         "--cs-compile");
  if (O.Subcommand == "status") {
    if (O.HasCommand)
      return makeToolError("takes no command", "pgo status");
    return O;
  }
  if (!O.HasCommand || O.Command.empty())
    return makeToolError("no command given after '--'", "pgo " + O.Subcommand,
                         IsRun ? "kiln pgo run --scenario=<name> -- <program> "
                                 "<arguments>"
                               : "kiln pgo " + O.Subcommand +
                                     " -- <the project's build command>");
  if (IsRun) {
    if (O.Scenario.empty())
      return makeToolError("needs --scenario=<name> (startup for the startup "
                           "scenario; any other name is a steady state)",
                           "pgo run");
    if (Error E = checkScenarioName(O.Scenario))
      return makeToolError(toString(std::move(E)), "--scenario");
  }
  return O;
}

Error kiln::runPgoCommand(ArrayRef<std::string> Args,
                          const PgoEnvironment &GivenEnv, raw_ostream &Out,
                          raw_ostream &Err) {
  PgoEnvironment Env = GivenEnv;
  if (Env.LLVMBinDir.empty()) {
    const char *Dir = ::getenv("KILN_LLVM_BIN");
    Env.LLVMBinDir = Dir && *Dir ? Dir : KILN_LLVM_BIN_DIR;
  }
  // `kiln pgo --help`, `kiln pgo help`, and `--help` among a subcommand's
  // own options (before `--`: after it, it is the command's).
  auto IsHelp = [](StringRef A) {
    return A == "--help" || A == "-help" || A == "-h";
  };
  bool WantsHelp = !Args.empty() && Args[0] == "help";
  for (StringRef A : Args) {
    if (A == "--")
      break;
    WantsHelp |= IsHelp(A);
  }
  if (WantsHelp) {
    Out << Usage;
    return Error::success();
  }
  Expected<PgoOptions> Opts = parsePgoArgs(Args);
  if (!Opts)
    return Opts.takeError();
  // Progress goes to stderr: the build's and the training command's stdout
  // stay theirs.
  if (Opts->Subcommand == "instrument")
    return instrumentMain(*Opts, Env, Err);
  if (Opts->Subcommand == "run")
    return runMain(*Opts, Env, Err);
  if (Opts->Subcommand == "optimize")
    return optimizeMain(*Opts, Env, Err, Err);
  return statusMain(*Opts, Out);
}

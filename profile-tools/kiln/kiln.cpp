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

#include "kiln/Support/PluginLocation.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Support/Version.inc"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static const char *const ToolName = "kiln";

static cl::OptionCategory KilnCategory("kiln options");

//===----------------------------------------------------------------------===//
// kiln print-plugin-path
//===----------------------------------------------------------------------===//

static cl::SubCommand PrintPluginPathCmd(
    "print-plugin-path",
    "Print the absolute path of Kiln's pass-plugin module, for "
    "-fpass-plugin= and --load-pass-plugin= "
    "(see docs/CommandGuide/kiln.rst)");

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
// main
//===----------------------------------------------------------------------===//

static void printVersion(raw_ostream &OS) {
  OS << "Kiln version " << KILN_VERSION_STRING << " (built with LLVM "
     << KILN_LLVM_VERSION_STRING << ")\n";
}

int main(int Argc, const char **Argv) {
  InitLLVM X(Argc, Argv);
  cl::SetVersionPrinter(printVersion);
  // libLLVM registers hundreds of global options; `kiln --help` shows Kiln's.
  for (cl::SubCommand *Sub : cl::getRegisteredSubcommands())
    cl::HideUnrelatedOptions(KilnCategory, *Sub);

  if (Argc < 2) {
    WithColor::error(errs(), ToolName)
        << "no subcommand specified; run 'kiln --help' for the list\n";
    return 1;
  }
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "Kiln: profile-driven function layout, section placement, ThinLTO "
      "imports and string tables for clang and lld\n");

  if (PrintPluginPathCmd)
    return kiln::reportToolError(ToolName, printPluginPathMain(Argv[0]));

  WithColor::error(errs(), ToolName)
      << "no subcommand specified; run 'kiln --help' for the list\n";
  return 1;
}

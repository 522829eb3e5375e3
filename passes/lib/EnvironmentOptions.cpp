//===- EnvironmentOptions.cpp - Kiln options from KILN_OPTIONS ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EnvironmentOptions.h"

#include "kiln/Support/ConfigurationDigest.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

static constexpr const char *VariableName = "KILN_OPTIONS";

namespace {
/// The environment's options, read once, and what guards applying them.
struct EnvironmentState {
  std::mutex Lock;
  bool Read = false;
  /// The options of KILN_OPTIONS, if all of them are Kiln's.
  std::vector<std::string> Args;
};
} // namespace

/// \returns the options of KILN_OPTIONS, or none (after a warning) if one
/// of them is not a Kiln option.
static std::vector<std::string> readEnvironmentOptions() {
  std::optional<std::string> Value = sys::Process::GetEnv(VariableName);
  if (!Value || StringRef(*Value).trim().empty())
    return {};
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 8> Tokens;
  cl::TokenizeGNUCommandLine(*Value, Saver, Tokens);
  std::vector<std::string> Args;
  for (const char *Arg : Tokens) {
    StringRef Option(Arg);
    Option.consume_front("-");
    Option.consume_front("-");
    // Only Kiln's own options: KILN_OPTIONS must not change how the host
    // compiles otherwise.
    if (!Option.starts_with("kiln-")) {
      WithColor::warning(errs(), "kiln")
          << VariableName << ": '" << Arg
          << "' is not a Kiln option (-kiln-...); " << VariableName
          << " ignored\n";
      return {};
    }
    Args.push_back(Arg);
  }
  return Args;
}

static void parseOptions(ArrayRef<std::string> Args) {
  if (Args.empty())
    return;
  SmallVector<const char *, 8> Argv = {"kiln"};
  for (const std::string &Arg : Args)
    Argv.push_back(Arg.c_str());
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &ErrorStream))
    WithColor::warning(errs(), "kiln")
        << VariableName << ": " << StringRef(Errors).trim() << "; the rest of "
        << VariableName << " may be ignored\n";
}

void kiln::applyEnvironmentOptions() {
  static EnvironmentState State;
  std::lock_guard<std::mutex> Guard(State.Lock);
  if (!State.Read) {
    State.Read = true;
    State.Args = readEnvironmentOptions();
    parseOptions(State.Args);
    return;
  }
  // A host that compiles several times in one process may reset every
  // option in between: lld does after each link, and kiln-lld links twice.
  // Options that lost their value get it again; the others (set, or given
  // since by -mllvm) are left alone.
  std::vector<std::string> Lost;
  for (const std::string &Arg : State.Args) {
    cl::Option *Opt = cl::getRegisteredOptions().lookup(getOptionName(Arg));
    if (Opt && Opt->getNumOccurrences() == 0)
      Lost.push_back(Arg);
  }
  parseOptions(Lost);
}

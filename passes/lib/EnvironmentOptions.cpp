//===- EnvironmentOptions.cpp - Kiln options from KILN_OPTIONS ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EnvironmentOptions.h"

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

using namespace llvm;

static constexpr const char *VariableName = "KILN_OPTIONS";

static void parseEnvironmentOptions() {
  std::optional<std::string> Value = sys::Process::GetEnv(VariableName);
  if (!Value || StringRef(*Value).trim().empty())
    return;
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 8> Argv = {"kiln"};
  cl::TokenizeGNUCommandLine(*Value, Saver, Argv);
  for (const char *Arg : ArrayRef(Argv).drop_front()) {
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
      return;
    }
  }
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  if (!cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &ErrorStream))
    WithColor::warning(errs(), "kiln")
        << VariableName << ": " << StringRef(Errors).trim() << "; the rest of "
        << VariableName << " may be ignored\n";
}

void kiln::applyEnvironmentOptions() {
  static std::once_flag Once;
  std::call_once(Once, parseEnvironmentOptions);
}

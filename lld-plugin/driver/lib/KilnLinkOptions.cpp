//===- KilnLinkOptions.cpp - kiln-lld's own options -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/KilnLinkOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

#include <functional>
#include <optional>

using namespace llvm;
using namespace kiln;

static Error optionError(StringRef Option, const Twine &Message) {
  return createStringError(inconvertibleErrorCode(),
                           Twine(Option + ": " + Message).str());
}

/// \returns the option's name without its prefix (`--kiln-x=v`, and for
/// lld-link `/kiln-x:v`) and sets \p Value, or std::nullopt if \p Arg is not
/// a Kiln link option. Every argument with the prefix is one, also with an
/// empty name (`--kiln-`, `--kiln-=v`): none is lld's. A single dash is not
/// accepted: `-kiln-x` is the spelling of the plugin's LLVM options, given to
/// the linker after `-mllvm`.
static std::optional<StringRef>
parseKilnOption(StringRef Arg, LinkerFlavor Flavor,
                std::optional<StringRef> &Value) {
  char Separator = '=';
  if (!Arg.consume_front("--kiln-")) {
    if (Flavor != LinkerFlavor::COFF || !Arg.consume_front("/kiln-"))
      return std::nullopt;
    Separator = ':';
  }
  size_t At = Arg.find(Separator);
  if (At == StringRef::npos) {
    Value.reset();
    return Arg;
  }
  Value = Arg.substr(At + 1);
  return Arg.take_front(At);
}

Expected<SplitLinkCommand>
kiln::splitKilnLinkOptions(ArrayRef<const char *> Args, LinkerFlavor Flavor) {
  SplitLinkCommand Split;
  KilnLinkOptions &K = Split.Kiln;
  bool GaveOutputOption = false;
  bool IsValueOfPreviousOption = false;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    std::optional<StringRef> Value;
    std::optional<StringRef> KilnName =
        I == 0 || IsValueOfPreviousOption ? std::nullopt
                                          : parseKilnOption(Arg, Flavor, Value);
    // `-mllvm --kiln-x` is an LLVM option for the plugin, not ours.
    IsValueOfPreviousOption = Arg == "-mllvm" || Arg == "--mllvm" ||
                              Arg == "-plugin-opt" || Arg == "--plugin-opt";
    if (!KilnName) {
      Split.LinkerArgs.emplace_back(Arg);
      continue;
    }
    StringRef Name = *KilnName;
    auto Flag = [&](bool &Field) -> Error {
      if (Value)
        return optionError(Arg, "takes no value");
      Field = true;
      return Error::success();
    };
    auto Text = [&](std::string &Field) -> Error {
      if (!Value || Value->empty())
        return optionError(Arg, "needs a value (" + Name + "=<value>)");
      Field = Value->str();
      return Error::success();
    };
    // A scenario given again with the same spelling is the same scenario:
    // build systems repeat LDFLAGS, and counting it twice would double its
    // weight (and, for startup, change how the startup group is ordered).
    auto AddScenario = [&](std::string Spec) {
      if (!is_contained(K.Scenarios, Spec))
        K.Scenarios.push_back(std::move(Spec));
    };
    auto Scenario = [&](StringRef Kind) -> Error {
      std::string Path;
      if (Error E = Text(Path))
        return E;
      AddScenario((Kind + "=" + Path).str());
      return Error::success();
    };
    Error E =
        StringSwitch<std::function<Error()>>(Name)
            .Case("profile", [&] { return Scenario("steady"); })
            .Case("startup-profile", [&] { return Scenario("startup"); })
            .Case("scenario",
                  [&]() -> Error {
                    std::string Spec;
                    if (Error E = Text(Spec))
                      return E;
                    AddScenario(std::move(Spec));
                    return Error::success();
                  })
            .Case("algorithm", [&] { return Text(K.Algorithm); })
            .Case("page-size", [&] { return Text(K.PageSize); })
            .Case("order-out",
                  [&] {
                    GaveOutputOption = true;
                    return Text(K.OrderOut);
                  })
            .Case("report",
                  [&] {
                    GaveOutputOption = true;
                    return Text(K.ReportOut);
                  })
            .Case("preread-out",
                  [&] {
                    GaveOutputOption = true;
                    return Text(K.PrereadOut);
                  })
            .Case("unordered-out",
                  [&] {
                    GaveOutputOption = true;
                    return Text(K.UnorderedOut);
                  })
            .Case("inline-plan",
                  [&] {
                    GaveOutputOption = true;
                    return Text(K.InlinePlan);
                  })
            .Case("strict", [&] { return Flag(K.Strict); })
            .Case("profiles-of-build", [&] { return Flag(K.ProfilesOfBuild); })
            .Case("verbose", [&] { return Flag(K.Verbose); })
            .Case("save-temps", [&] { return Flag(K.SaveTemps); })
            .Case("block-address-map", [&] { return Flag(K.BlockAddressMap); })
            .Case("block-hashes", [&] { return Flag(K.BlockHashes); })
            .Case("block-sections", [&] { return Text(K.BlockSections); })
            .Case("block-profile", [&] { return Text(K.BlockProfile); })
            .Default([&] {
              return optionError(Arg,
                                 "unknown kiln-lld option (known: "
                                 "--kiln-profile=, --kiln-startup-profile=, "
                                 "--kiln-scenario=, --kiln-algorithm=, "
                                 "--kiln-page-size=, --kiln-order-out=, "
                                 "--kiln-report=, --kiln-preread-out=, "
                                 "--kiln-unordered-out=, --kiln-inline-plan=, "
                                 "--kiln-strict, --kiln-profiles-of-build, "
                                 "--kiln-verbose, "
                                 "--kiln-save-temps, --kiln-block-address-map, "
                                 "--kiln-block-hashes, --kiln-block-sections=, "
                                 "--kiln-block-profile=)");
            })();
    if (E)
      return std::move(E);
  }
  if (GaveOutputOption && !K.requestsProfileGuidedLink())
    return optionError("--kiln-order-out/--kiln-report/--kiln-preread-out/"
                       "--kiln-unordered-out/--kiln-inline-plan",
                       "only take effect with a profile: add "
                       "--kiln-profile=<file.profdata>");
  return Split;
}

/// The linker options that already decide the order of functions.
static bool ordersOutput(StringRef Arg, LinkerFlavor Flavor) {
  switch (Flavor) {
  case LinkerFlavor::ELF:
  case LinkerFlavor::MinGW:
  case LinkerFlavor::Unknown:
    Arg.consume_front("-");
    Arg.consume_front("-");
    return Arg.starts_with("symbol-ordering-file") ||
           Arg.starts_with("call-graph-ordering-file") ||
           Arg.starts_with("bp-startup-sort") ||
           Arg.starts_with("bp-compression-sort") ||
           Arg.starts_with("irpgo-profile");
  case LinkerFlavor::COFF:
    Arg = Arg.drop_front(Arg.starts_with("/") || Arg.starts_with("-"));
    return Arg.starts_with_insensitive("order:") ||
           Arg.starts_with_insensitive("call-graph-ordering-file:");
  case LinkerFlavor::MachO:
    Arg.consume_front("-");
    Arg.consume_front("-");
    return Arg == "order_file" || Arg.starts_with("bp-startup-sort") ||
           Arg.starts_with("bp-compression-sort") ||
           Arg.starts_with("irpgo-profile");
  }
  return false;
}

std::vector<std::string>
kiln::findConflictingOrderOptions(ArrayRef<std::string> LinkerArgs,
                                  LinkerFlavor Flavor) {
  std::vector<std::string> Conflicts;
  for (size_t I = 1; I < LinkerArgs.size(); ++I)
    if (ordersOutput(LinkerArgs[I], Flavor))
      Conflicts.push_back(LinkerArgs[I]);
  return Conflicts;
}

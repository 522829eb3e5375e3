//===- OrderPlanner.cpp - From profiles to a function order ---------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/OrderPlanner.h"

#include "kiln/Layout/LayoutAlgorithm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace llvm;
using namespace kiln;
using namespace kiln::layout;

Expected<OrderAlgorithm> kiln::parseOrderAlgorithm(StringRef Name) {
  if (std::optional<OrderAlgorithm> Algorithm = findOrderAlgorithm(Name))
    return *Algorithm;
  return createStringError(
      inconvertibleErrorCode(), "unknown layout algorithm '%s' (one of %s)",
      Name.str().c_str(), listOrderAlgorithmNames().c_str());
}

Expected<uint64_t> kiln::parsePageSize(StringRef Text) {
  uint64_t Multiplier = 1;
  StringRef Number = Text;
  if (Number.consume_back_insensitive("k"))
    Multiplier = 1024;
  else if (Number.consume_back_insensitive("m"))
    Multiplier = 1024 * 1024;
  uint64_t Value;
  const bool IsNumber = !Number.getAsInteger(10, Value);
  // The product is checked before it is taken: a wrapped one can be a power
  // of two (3 * 2^53 K wraps to 2^63).
  if (IsNumber && Value > UINT64_MAX / Multiplier)
    return createStringError(inconvertibleErrorCode(),
                             "page size '%s' is too large (2^64 bytes or "
                             "more)",
                             Text.str().c_str());
  if (!IsNumber || Value == 0 || !isPowerOf2_64(Value * Multiplier))
    return createStringError(inconvertibleErrorCode(),
                             "page size '%s' is not a power of two (bytes, "
                             "or with K/M: 4K, 16K, 64K, 2M)",
                             Text.str().c_str());
  return Value * Multiplier;
}

Expected<OrderPlan> kiln::planOrder(const LinkerInputs &Inputs,
                                    ArrayRef<ScenarioSpec> Scenarios,
                                    const PlanOptions &Options) {
  std::optional<PhaseTimes::Scope> Phase;
  Phase.emplace(Options.Times, "build graph");
  Expected<ProfiledGraph> Profiled =
      buildProfiledGraph(Inputs, Scenarios, Options);
  if (!Profiled)
    return Profiled.takeError();
  // Balanced partitioning orders by startup traces alone: without any, it
  // has nothing to order, whatever the profiles bind.
  if (Options.Algorithm == OrderAlgorithm::Partitioning &&
      none_of(Profiled->Graph.getScenarios(), [](const Scenario &S) {
        return S.Kind == ScenarioKind::Startup && !S.Traces.empty();
      }))
    return createStringError(
        inconvertibleErrorCode(),
        "the bp algorithm orders by temporal profile traces, and no startup "
        "profile has any: give a startup profile of a build made with "
        "-ftemporal-profile (--scenario=startup=<profile>), or choose "
        "another algorithm");
  OrderPlan Plan;
  static_cast<ProfiledGraph &>(Plan) = std::move(*Profiled);
  Phase.emplace(Options.Times,
                "layout (" + getOrderAlgorithmName(Options.Algorithm) + ")");
  Plan.Layout = orderCallGraph(Plan.Graph, Options.Algorithm, Options.Composite,
                               Options.Times);

  Phase.emplace(Options.Times, "map nodes to functions");
  for (const PlacedNode &P : Plan.Layout.Order) {
    int64_t Function = Plan.FunctionOfNode[P.Node];
    if (Function < 0)
      continue; // Defined outside the inputs: not ours to place.
    Plan.Functions.push_back(size_t(Function));
    Plan.Groups.push_back(P.Group);
    ++Plan.FunctionsPerGroup[unsigned(P.Group)];
  }
  // Cold input functions the layout left to the linker.
  if (!Options.Composite.PlaceColdNodes)
    Plan.FunctionsPerGroup[unsigned(LayoutGroup::Cold)] =
        count_if(Plan.FunctionOfNode, [](int64_t F) { return F >= 0; }) -
        Plan.Functions.size();
  if (Plan.Functions.empty())
    return createStringError(inconvertibleErrorCode(),
                             "no function of the inputs was executed in any "
                             "profile (profiles of another program?): nothing "
                             "to order");
  return std::move(Plan);
}

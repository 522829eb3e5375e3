//===- InlinePlanFile.cpp - Read and write the inline plan ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Imports/InlinePlanFile.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>

using namespace llvm;
using namespace kiln;
using namespace kiln::imports;

static constexpr StringLiteral FormatKey = "kiln-inline-plan";
static constexpr int64_t FormatVersion = 1;

void kiln::imports::writeInlinePlanFile(const InlinePlanFile &Plan,
                                        raw_ostream &OS) {
  json::OStream J(OS, /*IndentSize=*/1);
  J.object([&] {
    J.attribute(FormatKey, FormatVersion);
    J.attribute("budget", int64_t(Plan.Budget));
    J.attribute("growth", int64_t(Plan.Growth));
    J.attributeArray("modules", [&] {
      for (const InlinePlanModule &M : Plan.Modules)
        J.object([&] {
          J.attribute("source", M.Source);
          J.attribute("module", M.Module);
          J.attributeArray("sites", [&] {
            for (const InlinePlanSite &S : M.Sites)
              J.object([&] {
                J.attribute("caller", S.Caller);
                J.attribute("callee", S.Callee);
                J.attribute("site", int64_t(S.Ordinal));
                J.attribute("sites", int64_t(S.NumSites));
                J.attribute("count", int64_t(S.Count));
                J.attribute("growth", int64_t(S.Growth));
              });
          });
        });
    });
  });
  OS << '\n';
}

static Error planError(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

// Reads the non-negative integer field \p Key of \p O into \p Out.
template <typename T>
static Error readCount(const json::Object &O, StringRef Key, StringRef Where,
                       T &Out) {
  std::optional<int64_t> V = O.getInteger(Key);
  if (!V || *V < 0 || uint64_t(*V) > std::numeric_limits<T>::max())
    return planError(Where + ": '" + Key + "' is not a count");
  Out = T(*V);
  return Error::success();
}

static Error readString(const json::Object &O, StringRef Key, StringRef Where,
                        std::string &Out) {
  std::optional<StringRef> V = O.getString(Key);
  if (!V || V->empty())
    return planError(Where + ": '" + Key + "' is not a name");
  Out = V->str();
  return Error::success();
}

static Error readSite(const json::Value &V, const std::string &Where,
                      InlinePlanSite &S) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return planError(Where + ": not an object");
  if (Error E = readString(*O, "caller", Where, S.Caller))
    return E;
  if (Error E = readString(*O, "callee", Where, S.Callee))
    return E;
  if (Error E = readCount(*O, "site", Where, S.Ordinal))
    return E;
  if (Error E = readCount(*O, "sites", Where, S.NumSites))
    return E;
  if (Error E = readCount(*O, "count", Where, S.Count))
    return E;
  if (Error E = readCount(*O, "growth", Where, S.Growth))
    return E;
  if (S.Ordinal >= S.NumSites)
    return planError(Where + ": site " + Twine(S.Ordinal) + " of " +
                     Twine(S.NumSites) + " call(s)");
  return Error::success();
}

static Error readModule(const json::Value &V, const std::string &Where,
                        InlinePlanModule &M) {
  const json::Object *O = V.getAsObject();
  if (!O)
    return planError(Where + ": not an object");
  if (Error E = readString(*O, "source", Where, M.Source))
    return E;
  if (Error E = readString(*O, "module", Where, M.Module))
    return E;
  const json::Array *Sites = O->getArray("sites");
  if (!Sites)
    return planError(Where + ": 'sites' is not an array");
  for (size_t I = 0; I < Sites->size(); ++I) {
    M.Sites.emplace_back();
    if (Error E =
            readSite((*Sites)[I], Where + ", site " + std::to_string(I + 1),
                     M.Sites.back()))
      return E;
  }
  return Error::success();
}

Expected<InlinePlanFile> kiln::imports::parseInlinePlanFile(StringRef Text) {
  Expected<json::Value> Root = json::parse(Text);
  if (!Root)
    return planError("not JSON: " + toString(Root.takeError()));
  const json::Object *O = Root->getAsObject();
  if (!O || O->getInteger(FormatKey) != FormatVersion)
    return planError("not a Kiln inline plan (no \"kiln-inline-plan\": 1; "
                     "write one with kiln imports --inline-plan=)");
  InlinePlanFile Plan;
  if (Error E = readCount(*O, "budget", "the plan", Plan.Budget))
    return std::move(E);
  if (Error E = readCount(*O, "growth", "the plan", Plan.Growth))
    return std::move(E);
  const json::Array *Modules = O->getArray("modules");
  if (!Modules)
    return planError("the plan: 'modules' is not an array");
  for (size_t I = 0; I < Modules->size(); ++I) {
    Plan.Modules.emplace_back();
    if (Error E = readModule((*Modules)[I], "module " + std::to_string(I + 1),
                             Plan.Modules.back()))
      return std::move(E);
  }
  return std::move(Plan);
}

//===- BlockProfileText.cpp - Block profiles as text ----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileText.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <tuple>

using namespace llvm;

namespace kiln {

using layout::BlockCall;
using layout::BlockEdge;
using layout::BlockFunction;
using layout::BlockProfile;
using layout::BlockScenario;
using layout::ProfiledBlock;
using layout::ScenarioCounts;
using layout::ScenarioKind;

static constexpr StringLiteral Magic = "kiln-block-profile";
/// Version 2 added the `ft` block flag; a version 1 profile reads as one
/// whose blocks are not known to fall through.
static constexpr unsigned FormatVersion = 2;
static constexpr unsigned OldestFormatVersion = 1;

namespace {

/// Parses one buffer line by line, remembering where it is for errors.
class BlockProfileParser {
public:
  explicit BlockProfileParser(MemoryBufferRef Buffer) : Buffer(Buffer) {}

  Expected<BlockProfile> parse();

private:
  Error error(const Twine &Message) const {
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() + ":" +
                                 Twine(LineNo) + ": " + Message);
  }

  Error parseHeader(ArrayRef<StringRef> Fields);
  Error parseScenario(ArrayRef<StringRef> Fields);
  Error parseFunction(ArrayRef<StringRef> Fields);
  Error parseBlock(ArrayRef<StringRef> Fields);
  Error parseBlockFlags(StringRef Field, ProfiledBlock &B) const;
  Error parseEdge(ArrayRef<StringRef> Fields);
  Error parseCall(ArrayRef<StringRef> Fields);
  Error parseCounts(ArrayRef<StringRef> Fields, ScenarioCounts &Counts);
  Expected<uint32_t> lookUpBlock(StringRef Field) const;
  Error finishFunction();
  Error resolveCalls();

  MemoryBufferRef Buffer;
  unsigned LineNo = 0;
  bool SawHeader = false;
  bool SawBuildID = false;
  BlockProfile Profile;
  /// The current function's block IDs -> index, and whether its edge or
  /// call lines have started (no more blocks then).
  DenseMap<uint32_t, uint32_t> BlockIndex;
  bool InBody = false;
  /// Calls of every function by callee name, resolved at the end.
  struct PendingCall {
    size_t Function;
    uint32_t FromBlock;
    std::string Callee;
    ScenarioCounts Counts;
    unsigned LineNo;
  };
  std::vector<PendingCall> PendingCalls;
};

} // namespace

static bool parseUnsigned(StringRef Field, uint64_t &Value) {
  return !Field.getAsInteger(10, Value);
}

static bool parseHex(StringRef Field, uint64_t &Value) {
  return Field.consume_front("0x") && !Field.empty() &&
         !Field.getAsInteger(16, Value);
}

Error BlockProfileParser::parseHeader(ArrayRef<StringRef> Fields) {
  uint64_t Version = 0;
  if (Fields.size() != 2 || Fields[0] != Magic ||
      !parseUnsigned(Fields[1], Version))
    return error("not a Kiln block profile (expected '" + Magic + " " +
                 Twine(FormatVersion) + "')");
  if (Version < OldestFormatVersion || Version > FormatVersion)
    return error("unsupported block profile version " + Twine(Version) +
                 " (this Kiln reads versions " + Twine(OldestFormatVersion) +
                 " to " + Twine(FormatVersion) + ")");
  SawHeader = true;
  return Error::success();
}

Error BlockProfileParser::parseScenario(ArrayRef<StringRef> Fields) {
  if (!Profile.Functions.empty())
    return error("scenario after the first function");
  if (Fields.size() != 4)
    return error("expected 'scenario <name> startup|steady <weight>'");
  BlockScenario S;
  S.Name = Fields[1].str();
  if (Fields[2] == "startup")
    S.Kind = ScenarioKind::Startup;
  else if (Fields[2] == "steady")
    S.Kind = ScenarioKind::SteadyState;
  else
    return error("scenario kind '" + Fields[2] +
                 "' is neither 'startup' nor 'steady'");
  if (Fields[3].getAsDouble(S.Weight) ||
      !layout::isValidScenarioWeight(S.Weight))
    return error("scenario weight '" + Fields[3] +
                 "' is not a number from 1e-6 to 1e6");
  for (const BlockScenario &Other : Profile.Scenarios)
    if (Other.Name == S.Name)
      return error("scenario '" + S.Name + "' appears twice");
  Profile.Scenarios.push_back(std::move(S));
  return Error::success();
}

Error BlockProfileParser::parseCounts(ArrayRef<StringRef> Fields,
                                      ScenarioCounts &Counts) {
  if (Fields.size() != Profile.Scenarios.size())
    return error("expected " + Twine(Profile.Scenarios.size()) +
                 " count(s), one per scenario, found " + Twine(Fields.size()));
  for (StringRef Field : Fields) {
    uint64_t Count = 0;
    if (!parseUnsigned(Field, Count))
      return error("count '" + Field + "' is not an unsigned integer");
    Counts.push_back(Count);
  }
  return Error::success();
}

Error BlockProfileParser::finishFunction() {
  if (!Profile.Functions.empty() && Profile.Functions.back().Blocks.empty())
    return error("function '" + Profile.Functions.back().Name +
                 "' has no blocks");
  return Error::success();
}

Error BlockProfileParser::parseFunction(ArrayRef<StringRef> Fields) {
  if (Profile.Scenarios.empty())
    return error("function before any scenario");
  if (Fields.size() != 3 && !(Fields.size() == 4 && Fields[3] == "shared"))
    return error("expected 'function <symbol> 0x<address> [shared]'");
  if (Error E = finishFunction())
    return E;
  BlockFunction F;
  F.Name = Fields[1].str();
  if (!parseHex(Fields[2], F.Address))
    return error("address '" + Fields[2] + "' is not 0x<hex>");
  F.SharedName = Fields.size() == 4;
  Profile.Functions.push_back(std::move(F));
  BlockIndex.clear();
  InBody = false;
  return Error::success();
}

Error BlockProfileParser::parseBlock(ArrayRef<StringRef> Fields) {
  if (Profile.Functions.empty())
    return error("block before any function");
  if (InBody)
    return error("block after the function's edges or calls");
  if (Fields.size() < 6)
    return error("expected 'block <id> 0x<address> <size> 0x<hash> <flags> "
                 "<count>...'");
  ProfiledBlock B;
  uint64_t ID = 0;
  if (!parseUnsigned(Fields[1], ID) || ID > UINT32_MAX)
    return error("block ID '" + Fields[1] + "' is not a 32-bit unsigned");
  B.ID = static_cast<uint32_t>(ID);
  if (!parseHex(Fields[2], B.Address))
    return error("address '" + Fields[2] + "' is not 0x<hex>");
  if (!parseUnsigned(Fields[3], B.Size))
    return error("size '" + Fields[3] + "' is not an unsigned integer");
  if (!parseHex(Fields[4], B.Hash))
    return error("hash '" + Fields[4] + "' is not 0x<hex>");
  if (Error E = parseBlockFlags(Fields[5], B))
    return E;
  if (Error E = parseCounts(Fields.drop_front(6), B.Counts))
    return E;
  BlockFunction &F = Profile.Functions.back();
  if (!BlockIndex.try_emplace(B.ID, F.Blocks.size()).second)
    return error("block " + Twine(B.ID) + " appears twice in '" + F.Name + "'");
  F.Blocks.push_back(std::move(B));
  return Error::success();
}

// `-`, or `eh`, `ft` or both, comma-separated, each once.
Error BlockProfileParser::parseBlockFlags(StringRef Field,
                                          ProfiledBlock &B) const {
  if (Field == "-")
    return Error::success();
  SmallVector<StringRef, 2> Flags;
  Field.split(Flags, ',');
  for (StringRef Flag : Flags) {
    bool &Set = Flag == "eh" ? B.IsEHPad : B.FallsThrough;
    if ((Flag != "eh" && Flag != "ft") || Set)
      return error("block flags '" + Field +
                   "' are not '-' or a list of 'eh' and 'ft', each once");
    Set = true;
  }
  return Error::success();
}

Expected<uint32_t> BlockProfileParser::lookUpBlock(StringRef Field) const {
  uint64_t ID = 0;
  if (!parseUnsigned(Field, ID) || ID > UINT32_MAX)
    return error("block ID '" + Field + "' is not a 32-bit unsigned");
  auto It = BlockIndex.find(static_cast<uint32_t>(ID));
  if (It == BlockIndex.end())
    return error("block " + Field + " is not a block of '" +
                 Profile.Functions.back().Name + "'");
  return It->second;
}

Error BlockProfileParser::parseEdge(ArrayRef<StringRef> Fields) {
  if (Profile.Functions.empty())
    return error("edge before any function");
  if (Fields.size() < 3)
    return error("expected 'edge <from id> <to id> <count>...'");
  InBody = true;
  BlockEdge Edge;
  Expected<uint32_t> From = lookUpBlock(Fields[1]);
  if (!From)
    return From.takeError();
  Expected<uint32_t> To = lookUpBlock(Fields[2]);
  if (!To)
    return To.takeError();
  Edge.From = *From;
  Edge.To = *To;
  if (Error E = parseCounts(Fields.drop_front(3), Edge.Counts))
    return E;
  Profile.Functions.back().Edges.push_back(std::move(Edge));
  return Error::success();
}

Error BlockProfileParser::parseCall(ArrayRef<StringRef> Fields) {
  if (Profile.Functions.empty())
    return error("call before any function");
  if (Fields.size() < 3)
    return error("expected 'call <from id> <callee symbol> <count>...'");
  InBody = true;
  PendingCall Call;
  Expected<uint32_t> From = lookUpBlock(Fields[1]);
  if (!From)
    return From.takeError();
  Call.Function = Profile.Functions.size() - 1;
  Call.FromBlock = *From;
  Call.Callee = Fields[2].str();
  Call.LineNo = LineNo;
  if (Error E = parseCounts(Fields.drop_front(3), Call.Counts))
    return E;
  PendingCalls.push_back(std::move(Call));
  return Error::success();
}

Error BlockProfileParser::resolveCalls() {
  StringMap<uint32_t> FunctionIndex;
  for (auto [I, F] : enumerate(Profile.Functions))
    if (!FunctionIndex.try_emplace(F.Name, I).second)
      return createStringError(inconvertibleErrorCode(),
                               Buffer.getBufferIdentifier() + ": function '" +
                                   F.Name + "' appears twice");
  for (PendingCall &Call : PendingCalls) {
    auto It = FunctionIndex.find(Call.Callee);
    if (It == FunctionIndex.end()) {
      LineNo = Call.LineNo;
      return error("callee '" + Call.Callee +
                   "' is not a function of the "
                   "profile");
    }
    Profile.Functions[Call.Function].Calls.push_back(
        BlockCall{Call.FromBlock, It->second, std::move(Call.Counts)});
  }
  return Error::success();
}

Expected<BlockProfile> BlockProfileParser::parse() {
  StringRef Rest = Buffer.getBuffer();
  while (!Rest.empty()) {
    StringRef Line;
    std::tie(Line, Rest) = Rest.split('\n');
    ++LineNo;
    Line = Line.take_until([](char C) { return C == '#'; });
    SmallVector<StringRef, 16> Fields;
    SplitString(Line, Fields);
    if (Fields.empty())
      continue;
    if (!SawHeader) {
      if (Error E = parseHeader(Fields))
        return std::move(E);
      continue;
    }
    StringRef Keyword = Fields[0];
    Error E = Error::success();
    if (Keyword == "build-id") {
      if (Fields.size() != 2 || SawBuildID || !Profile.Scenarios.empty())
        E = error("expected one 'build-id <hex>|-' line before the "
                  "scenarios");
      else if (Fields[1] != "-")
        Profile.BuildID = Fields[1].lower();
      SawBuildID = true;
    } else if (Keyword == "scenario") {
      E = parseScenario(Fields);
    } else if (Keyword == "function") {
      E = parseFunction(Fields);
    } else if (Keyword == "block") {
      E = parseBlock(Fields);
    } else if (Keyword == "edge") {
      E = parseEdge(Fields);
    } else if (Keyword == "call") {
      E = parseCall(Fields);
    } else {
      E = error("unknown record '" + Keyword + "'");
    }
    if (E)
      return std::move(E);
  }
  if (!SawHeader)
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() +
                                 ": empty file, not a Kiln block profile");
  if (Profile.Scenarios.empty())
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() +
                                 ": the profile has no scenario");
  if (Error E = finishFunction())
    return std::move(E);
  if (Error E = resolveCalls())
    return std::move(E);
  for (BlockFunction &F : Profile.Functions) {
    llvm::sort(F.Edges, [](const BlockEdge &A, const BlockEdge &B) {
      return std::tie(A.From, A.To) < std::tie(B.From, B.To);
    });
    llvm::sort(F.Calls, [](const BlockCall &A, const BlockCall &B) {
      return std::tie(A.FromBlock, A.Callee) < std::tie(B.FromBlock, B.Callee);
    });
  }
  if (Error E = verifyBlockProfile(Profile))
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() + ": " +
                                 toString(std::move(E)));
  return std::move(Profile);
}

Expected<BlockProfile> parseBlockProfile(MemoryBufferRef Buffer) {
  return BlockProfileParser(Buffer).parse();
}

static void writeCounts(const ScenarioCounts &Counts, raw_ostream &OS) {
  for (uint64_t Count : Counts)
    OS << ' ' << Count;
  OS << '\n';
}

void writeBlockProfile(const BlockProfile &Profile, raw_ostream &OS) {
  OS << Magic << ' ' << FormatVersion << '\n';
  OS << "build-id " << (Profile.BuildID.empty() ? "-" : Profile.BuildID)
     << '\n';
  for (const BlockScenario &S : Profile.Scenarios)
    OS << "scenario " << S.Name << ' '
       << (S.Kind == ScenarioKind::Startup ? "startup" : "steady") << ' '
       << format("%.17g", S.Weight) << '\n';
  for (const BlockFunction &F : Profile.Functions) {
    OS << "function " << F.Name << ' ' << format_hex(F.Address, 0)
       << (F.SharedName ? " shared" : "") << '\n';
    for (const ProfiledBlock &B : F.Blocks) {
      OS << "block " << B.ID << ' ' << format_hex(B.Address, 0) << ' ' << B.Size
         << ' ' << format_hex(B.Hash, 0) << ' '
         << (B.IsEHPad && B.FallsThrough ? "eh,ft"
             : B.IsEHPad                 ? "eh"
             : B.FallsThrough            ? "ft"
                                         : "-");
      writeCounts(B.Counts, OS);
    }
    for (const BlockEdge &E : F.Edges) {
      OS << "edge " << F.Blocks[E.From].ID << ' ' << F.Blocks[E.To].ID;
      writeCounts(E.Counts, OS);
    }
    for (const BlockCall &C : F.Calls) {
      OS << "call " << F.Blocks[C.FromBlock].ID << ' '
         << Profile.Functions[C.Callee].Name;
      writeCounts(C.Counts, OS);
    }
  }
}

static Error invalid(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
}

Error verifyBlockProfile(const BlockProfile &Profile) {
  size_t NumScenarios = Profile.Scenarios.size();
  if (NumScenarios == 0)
    return invalid("the profile has no scenario");
  for (const BlockScenario &S : Profile.Scenarios)
    if (!layout::isValidScenarioWeight(S.Weight))
      return invalid("scenario '" + S.Name + "' has an invalid weight");
  StringMap<bool> Names;
  const BlockFunction *Previous = nullptr;
  for (const BlockFunction &F : Profile.Functions) {
    if (!Names.try_emplace(F.Name, true).second)
      return invalid("function '" + F.Name + "' appears twice");
    if (Previous && Previous->Address > F.Address)
      return invalid("function '" + F.Name + "' is not in address order");
    Previous = &F;
    if (F.Blocks.empty())
      return invalid("function '" + F.Name + "' has no blocks");
    DenseMap<uint32_t, bool> IDs;
    for (const ProfiledBlock &B : F.Blocks) {
      if (!IDs.try_emplace(B.ID, true).second)
        return invalid("block " + Twine(B.ID) + " appears twice in '" + F.Name +
                       "'");
      if (B.Counts.size() != NumScenarios)
        return invalid("block " + Twine(B.ID) + " of '" + F.Name +
                       "' does not have one count per scenario");
    }
    for (auto [I, E] : enumerate(F.Edges)) {
      if (E.From >= F.Blocks.size() || E.To >= F.Blocks.size())
        return invalid("an edge of '" + F.Name + "' names no block");
      if (E.Counts.size() != NumScenarios)
        return invalid("an edge of '" + F.Name +
                       "' does not have one count per scenario");
      if (I && std::tie(F.Edges[I - 1].From, F.Edges[I - 1].To) >=
                   std::tie(E.From, E.To))
        return invalid("edges of '" + F.Name + "' are not sorted and unique (" +
                       Twine(F.Blocks[E.From].ID) + " -> " +
                       Twine(F.Blocks[E.To].ID) + ")");
    }
    for (auto [I, C] : enumerate(F.Calls)) {
      if (C.FromBlock >= F.Blocks.size() ||
          C.Callee >= Profile.Functions.size())
        return invalid("a call of '" + F.Name + "' names no block or callee");
      if (C.Counts.size() != NumScenarios)
        return invalid("a call of '" + F.Name +
                       "' does not have one count per scenario");
      if (I && std::tie(F.Calls[I - 1].FromBlock, F.Calls[I - 1].Callee) >=
                   std::tie(C.FromBlock, C.Callee))
        return invalid("calls of '" + F.Name + "' are not sorted and unique");
    }
  }
  return Error::success();
}

} // namespace kiln

//===- CallgrindBlockReader.cpp - Block counts from callgrind output ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads callgrind's output format (valgrind's docs/callgrind-format) as
/// written with `--dump-instr=yes --collect-jumps=yes`: cost lines give the
/// executions of each instruction (the `Ir` event), `jump=` and `jcnd=`
/// records the taken branches, `calls=` records the calls. Positions are
/// compressed (`+N`, `-N`, `*` relative to the previous cost line's; a
/// record's target is relative to it too but does not move it) and names
/// are compressed (`(N) name` defines, `(N)` refers). The line after a
/// `calls=` or a jump record is the call or jump instruction itself, with
/// the call's inclusive cost: it is not an execution of that instruction.
///
//===----------------------------------------------------------------------===//

#include "kiln/Sources/BlockProfileSources.h"

#include "BlockBranches.h"

#include "kiln/Layout/Counts.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

using namespace llvm;

namespace kiln {

namespace {

/// A jump or call record: where it was, where it went, how often.
struct TransferRecord {
  uint64_t From;
  uint64_t To;
  uint64_t Count;
};

/// Parses one callgrind file, keeping the costs of the binary's object.
class CallgrindParser {
public:
  CallgrindParser(MemoryBufferRef Buffer, StringRef BinaryPath)
      : Buffer(Buffer), BinaryPath(BinaryPath) {}

  Error parse();

  /// Executions per instruction address of the binary.
  std::map<uint64_t, uint64_t> Executions;
  std::vector<TransferRecord> Jumps;
  std::vector<TransferRecord> Calls;
  /// Objects named in the file, for the error of a foreign profile.
  std::vector<std::string> ObjectNames;
  bool SawBinary = false;
  bool SawJumpRecord = false;
  std::string Command;

private:
  Error error(const Twine &Message) const {
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() + ":" +
                                 Twine(LineNo) + ": " + Message);
  }

  Error parseHeader(StringRef Key, StringRef Value);
  Error parseName(StringRef Value, DenseMap<uint64_t, std::string> &Table,
                  std::string &Name);
  /// Parses \p Count position fields of \p Fields into \p Out, relative to
  /// Current; \returns the fields after them.
  Expected<ArrayRef<StringRef>> parsePosition(ArrayRef<StringRef> Fields,
                                              SmallVectorImpl<uint64_t> &Out);
  Error parseCostLine(StringRef Line);
  Error parseTransfer(StringRef Key, StringRef Value);
  bool isBinary(StringRef ObjectName);

  MemoryBufferRef Buffer;
  StringRef BinaryPath;
  unsigned LineNo = 0;

  SmallVector<std::string, 2> Positions;
  unsigned InstrIndex = 0;
  std::optional<unsigned> IrIndex;
  bool SawEvents = false;
  bool SawCostLine = false;
  SmallVector<uint64_t, 2> Current;

  DenseMap<uint64_t, std::string> ObjectTable;
  StringMap<bool> BinaryNameCache;
  bool InBinary = false;
  /// The called object of the next `calls=` (cob=), or the current one.
  std::optional<bool> CalleeInBinary;

  /// What the next cost line is: a plain cost, a call's or a jump's site.
  enum class NextLine { Cost, CallSite, JumpSite } Next = NextLine::Cost;
  TransferRecord Pending{0, 0, 0};
  bool PendingInBinary = false;
};

} // namespace

static bool parseNumber(StringRef Field, uint64_t &Value) {
  if (Field.starts_with("0x") || Field.starts_with("0X"))
    return !Field.drop_front(2).getAsInteger(16, Value);
  return !Field.getAsInteger(10, Value);
}

bool CallgrindParser::isBinary(StringRef ObjectName) {
  auto It = BinaryNameCache.find(ObjectName);
  if (It != BinaryNameCache.end())
    return It->second;
  bool Same = false;
  if (sys::fs::equivalent(ObjectName, BinaryPath, Same) || !Same)
    Same = sys::path::filename(ObjectName) == sys::path::filename(BinaryPath);
  BinaryNameCache[ObjectName] = Same;
  return Same;
}

Error CallgrindParser::parseName(StringRef Value,
                                 DenseMap<uint64_t, std::string> &Table,
                                 std::string &Name) {
  Value = Value.trim();
  if (!Value.consume_front("(")) {
    Name = Value.str();
    return Error::success();
  }
  auto [IDText, Rest] = Value.split(')');
  uint64_t ID = 0;
  if (IDText.getAsInteger(10, ID) || !Value.contains(')'))
    return error("malformed compressed name '(" + Value + "'");
  Rest = Rest.trim();
  if (!Rest.empty()) {
    Table[ID] = Rest.str();
    Name = Rest.str();
    return Error::success();
  }
  auto It = Table.find(ID);
  if (It == Table.end())
    return error("name (" + Twine(ID) + ") is used before it is defined");
  Name = It->second;
  return Error::success();
}

Error CallgrindParser::parseHeader(StringRef Key, StringRef Value) {
  Value = Value.trim();
  if (Key == "positions") {
    if (SawCostLine)
      return error("'positions:' after the first cost line");
    Positions.clear();
    SmallVector<StringRef, 2> Names;
    Value.split(Names, ' ', -1, /*KeepEmpty=*/false);
    std::optional<unsigned> Instr;
    for (auto [I, N] : enumerate(Names)) {
      Positions.push_back(N.str());
      if (N == "instr")
        Instr = I;
    }
    if (!Instr)
      return error("positions are '" + Value +
                   "': the profile has no instruction addresses (run "
                   "callgrind with --dump-instr=yes)");
    InstrIndex = *Instr;
    Current.assign(Positions.size(), 0);
    return Error::success();
  }
  if (Key == "events") {
    SmallVector<StringRef, 4> Names;
    Value.split(Names, ' ', -1, /*KeepEmpty=*/false);
    IrIndex.reset();
    for (auto [I, N] : enumerate(Names))
      if (N == "Ir")
        IrIndex = I;
    if (!IrIndex)
      return error("events are '" + Value +
                   "': no 'Ir' (instructions executed) event");
    SawEvents = true;
    return Error::success();
  }
  if (Key == "cmd")
    Command = Value.str();
  // version, creator, pid, thread, part, desc, summary, totals, event: not
  // needed for block counts.
  return Error::success();
}

Expected<ArrayRef<StringRef>>
CallgrindParser::parsePosition(ArrayRef<StringRef> Fields,
                               SmallVectorImpl<uint64_t> &Out) {
  if (Fields.size() < Positions.size())
    return error("expected " + Twine(Positions.size()) +
                 " position field(s) (" + join(Positions, " ") + ")");
  Out.assign(Current.begin(), Current.end());
  for (size_t I = 0; I < Positions.size(); ++I) {
    StringRef F = Fields[I];
    uint64_t V = 0;
    if (F == "*")
      continue;
    if (F.starts_with("+") || F.starts_with("-")) {
      if (!parseNumber(F.drop_front(), V))
        return error("malformed relative position '" + F + "'");
      Out[I] = F[0] == '+' ? Out[I] + V : Out[I] - V;
      continue;
    }
    if (!parseNumber(F, V))
      return error("malformed position '" + F + "'");
    Out[I] = V;
  }
  return Fields.drop_front(Positions.size());
}

Error CallgrindParser::parseCostLine(StringRef Line) {
  if (Positions.empty())
    return error("cost line before 'positions:'");
  if (!SawEvents)
    return error("cost line before 'events:'");
  SmallVector<StringRef, 8> Fields;
  Line.split(Fields, ' ', -1, /*KeepEmpty=*/false);
  SmallVector<uint64_t, 2> Position;
  Expected<ArrayRef<StringRef>> Costs = parsePosition(Fields, Position);
  if (!Costs)
    return Costs.takeError();
  Current = Position;
  SawCostLine = true;
  uint64_t Instr = Position[InstrIndex];
  SmallVector<uint64_t, 4> Values;
  for (StringRef F : *Costs) {
    uint64_t V = 0;
    if (!parseNumber(F, V))
      return error("malformed cost '" + F + "'");
    Values.push_back(V);
  }
  NextLine Kind = Next;
  Next = NextLine::Cost;
  if (Kind != NextLine::Cost) {
    // The site of the record before: the jump or call instruction.
    if (!PendingInBinary)
      return Error::success();
    Pending.From = Instr;
    (Kind == NextLine::CallSite ? Calls : Jumps).push_back(Pending);
    return Error::success();
  }
  if (!InBinary)
    return Error::success();
  uint64_t Ir = *IrIndex < Values.size() ? Values[*IrIndex] : 0;
  if (Ir == 0)
    return Error::success();
  uint64_t &Count = Executions[Instr];
  Count = layout::addCounts(Count, Ir);
  return Error::success();
}

Error CallgrindParser::parseTransfer(StringRef Key, StringRef Value) {
  if (Positions.empty() || !SawEvents)
    return error("'" + Key + "=' before 'positions:' and 'events:'");
  if (Next != NextLine::Cost)
    return error("'" + Key +
                 "=' where the site of the record before was "
                 "expected");
  SmallVector<StringRef, 4> Fields;
  Value.split(Fields, ' ', -1, /*KeepEmpty=*/false);
  if (Fields.empty())
    return error("'" + Key + "=' without a count");
  uint64_t Count = 0;
  StringRef CountText = Fields[0];
  if (Key == "jcnd") {
    // jcnd=<taken>/<executed>: only the taken count is a branch (the
    // executions are the instruction's cost).
    auto [Taken, Executed] = CountText.split('/');
    uint64_t ExecutedCount = 0;
    if (!CountText.contains('/') || !parseNumber(Executed, ExecutedCount))
      return error("expected 'jcnd=<taken>/<executed> <target>'");
    CountText = Taken;
  }
  if (!parseNumber(CountText, Count))
    return error("malformed count '" + CountText + "' in '" + Key + "='");
  SmallVector<uint64_t, 2> Target;
  Expected<ArrayRef<StringRef>> Rest =
      parsePosition(ArrayRef(Fields).drop_front(), Target);
  if (!Rest)
    return Rest.takeError();
  Pending = {0, Target[InstrIndex], Count};
  if (Key == "calls") {
    PendingInBinary = InBinary && CalleeInBinary.value_or(true);
    CalleeInBinary.reset();
    Next = NextLine::CallSite;
    return Error::success();
  }
  SawJumpRecord = true;
  PendingInBinary = InBinary;
  Next = NextLine::JumpSite;
  return Error::success();
}

Error CallgrindParser::parse() {
  DenseMap<uint64_t, std::string> FunctionTable, FileTable;
  StringRef Rest = Buffer.getBuffer();
  while (!Rest.empty()) {
    auto [Line, Next] = Rest.split('\n');
    Rest = Next;
    ++LineNo;
    Line = Line.rtrim("\r \t");
    if (Line.empty() || Line.starts_with("#"))
      continue;
    char C = Line[0];
    if (isDigit(C) || C == '+' || C == '-' || C == '*') {
      if (Error E = parseCostLine(Line))
        return E;
      continue;
    }
    size_t Eq = Line.find('=');
    size_t Colon = Line.find(':');
    if (Eq != StringRef::npos && (Colon == StringRef::npos || Eq < Colon)) {
      StringRef Key = Line.take_front(Eq);
      StringRef Value = Line.drop_front(Eq + 1);
      std::string Name;
      if (Key == "ob" || Key == "cob") {
        if (Error E = parseName(Value, ObjectTable, Name))
          return E;
        if (!is_contained(ObjectNames, Name))
          ObjectNames.push_back(Name);
        bool Binary = isBinary(Name);
        if (Key == "ob") {
          InBinary = Binary;
          SawBinary |= Binary;
        } else {
          CalleeInBinary = Binary;
        }
        continue;
      }
      if (Key == "fn" || Key == "cfn" || Key == "jfn") {
        if (Error E = parseName(Value, FunctionTable, Name))
          return E;
        continue;
      }
      if (Key == "fl" || Key == "fi" || Key == "fe" || Key == "cfi" ||
          Key == "cfl" || Key == "jfi") {
        if (Error E = parseName(Value, FileTable, Name))
          return E;
        continue;
      }
      if (Key == "calls" || Key == "jump" || Key == "jcnd") {
        if (Error E = parseTransfer(Key, Value))
          return E;
        continue;
      }
      return error("unknown record '" + Key + "='");
    }
    if (Colon != StringRef::npos) {
      if (Error E =
              parseHeader(Line.take_front(Colon), Line.drop_front(Colon + 1)))
        return E;
      continue;
    }
    return error("not a callgrind record: '" + Line + "'");
  }
  if (Next != NextLine::Cost)
    return error("truncated: the file ends before the site of its last "
                 "record");
  if (!SawEvents)
    return createStringError(inconvertibleErrorCode(),
                             Buffer.getBufferIdentifier() +
                                 ": not a callgrind output (no 'events:')");
  return Error::success();
}

Expected<uint64_t> readCallgrindBinaryInstructions(MemoryBufferRef Buffer,
                                                   StringRef BinaryPath) {
  CallgrindParser P(Buffer, BinaryPath);
  if (Error E = P.parse())
    return std::move(E);
  uint64_t Instructions = 0;
  for (const auto &[Address, Count] : P.Executions)
    Instructions = layout::addCounts(Instructions, Count);
  return Instructions;
}

Error readCallgrindProfile(MemoryBufferRef Buffer, StringRef BinaryPath,
                           const BlockAddressMap &Map, BlockCounts &Counts,
                           BlockReadStats &Stats) {
  CallgrindParser P(Buffer, BinaryPath);
  if (Error E = P.parse())
    return E;
  StringRef Name = Buffer.getBufferIdentifier();
  if (!P.SawBinary)
    return createStringError(
        inconvertibleErrorCode(),
        Name + ": a callgrind profile of another program (command '" +
            P.Command + "', objects: " + join(P.ObjectNames, ", ") +
            "); none of its objects is " + BinaryPath);
  if (!P.SawJumpRecord)
    return createStringError(inconvertibleErrorCode(),
                             Name + ": has no jump records (run callgrind "
                                    "with --collect-jumps=yes)");

  // This file's counts on their own: a fall-through is bounded by its
  // block's count in this trace.
  BlockCounts Local(Map);

  // Executions: every executed instruction is a record; a block's count is
  // its first instruction's.
  for (const auto &[Address, Count] : P.Executions) {
    ++Stats.Records;
    std::optional<BlockRef> B = Map.findBlock(Address);
    if (!B) {
      ++(Map.isCode(Address) ? Stats.UnmappedCode : Stats.Outside);
      continue;
    }
    ++Stats.Mapped;
    if (Map.getBlock(*B).Address == Address)
      Local.addBlock(*B, Count);
  }

  // Taken jumps, and what they take away from each instruction's
  // fall-through.
  std::map<uint64_t, uint64_t> TakenFrom;
  for (const TransferRecord &J : P.Jumps) {
    if (J.Count == 0)
      continue;
    uint64_t &T = TakenFrom[J.From];
    T = layout::addCounts(T, J.Count);
    addTakenBranch(Map, J.From, J.To, J.Count, Local, Stats);
  }
  for (const TransferRecord &Call : P.Calls) {
    if (Call.Count == 0)
      continue;
    std::optional<uint32_t> Callee = Map.findFunctionEntry(Call.To);
    std::optional<BlockRef> Site = Map.findBlock(Call.From);
    if (Callee && Site)
      Local.addCall(*Site, *Callee, Call.Count);
  }

  // Fall-through: the executions of a block's last instruction that did
  // not jump away continued at the next block: the next of its range when
  // the block can fall through, or the block right after it when it ends
  // with a jump there (basic-block sections end every block with one),
  // which callgrind does not record as a jump.
  std::set<uint64_t> CallSites;
  for (const TransferRecord &Call : P.Calls)
    CallSites.insert(Call.From);
  for (auto [FI, F] : enumerate(Map.getFunctions()))
    for (auto [BI, B] : enumerate(F.Blocks)) {
      if (B.Size == 0 || B.EndsInReturn)
        continue;
      auto It = P.Executions.lower_bound(B.Address + B.Size);
      if (It == P.Executions.begin())
        continue;
      --It;
      if (It->first < B.Address)
        continue;
      std::optional<uint32_t> Next;
      if (B.CanFallThrough && B.Next)
        Next = B.Next;
      else if (std::optional<BlockRef> After =
                   Map.findBlockStart(B.Address + B.Size);
               After && After->Function == FI && !CallSites.count(It->first))
        Next = After->Block;
      if (!Next)
        continue;
      // At most the block's own count: callgrind sometimes counts a call
      // through a lazily bound PLT entry twice.
      uint64_t Executed = std::min(
          It->second, Local.getBlockCount({uint32_t(FI), uint32_t(BI)}));
      uint64_t Taken = 0;
      if (auto T = TakenFrom.find(It->first); T != TakenFrom.end())
        Taken = T->second;
      if (Executed <= Taken)
        continue;
      Local.addEdge({uint32_t(FI), uint32_t(BI)}, {uint32_t(FI), *Next},
                    Executed - Taken);
    }
  Counts.merge(Local);
  return Error::success();
}

} // namespace kiln

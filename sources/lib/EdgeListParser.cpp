//===- EdgeListParser.cpp - Parse lld edge lists --------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "EdgeListParser.h"

#include "NameInterner.h"

#include <array>
#include <cstring>

using namespace llvm;
using namespace kiln;

namespace {
/// What a byte is to the scanner.
enum class CharClass : uint8_t { Field, Blank, End };

/// The class of every byte: blanks separate fields, a newline ends the
/// line and '#' the fields on it. One table load per byte of the list.
class CharClasses {
public:
  constexpr CharClasses() {
    for (CharClass &C : Table)
      C = CharClass::Field;
    Table[uint8_t(' ')] = Table[uint8_t('\t')] = Table[uint8_t('\r')] =
        CharClass::Blank;
    Table[uint8_t('\n')] = Table[uint8_t('#')] = CharClass::End;
  }
  CharClass operator[](char C) const { return Table[uint8_t(C)]; }

private:
  CharClass Table[256] = {};
};

/// A scanned line whose names are not interned yet.
struct PendingEdge {
  StringRef Caller, Callee;
  uint32_t CallerHash = 0, CalleeHash = 0;
  uint64_t Count = 0;
};
} // namespace

static constexpr CharClasses Classes;

// Parses a count as StringRef::getAsInteger would in base 10: digits only,
// no sign, no overflow. Inline: it runs once per line.
static bool parseCount(StringRef Text, uint64_t &Count) {
  uint64_t Value = 0;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return false;
    unsigned Digit = unsigned(C - '0');
    if (Value > (UINT64_MAX - Digit) / 10)
      return false;
    Value = Value * 10 + Digit;
  }
  Count = Value;
  return true;
}

static size_t countLines(StringRef Text) {
  size_t Lines = 1;
  for (const char *P = Text.begin(), *End = Text.end();
       (P = static_cast<const char *>(std::memchr(P, '\n', End - P))); ++P)
    ++Lines;
  return Lines;
}

Expected<ParsedEdgeList> kiln::parseEdgeList(MemoryBufferRef Buffer) {
  StringRef Text = Buffer.getBuffer();
  const size_t MaxEdges = countLines(Text);
  ParsedEdgeList Result;
  // At most one edge per line: reserving that after one cheap pass spares
  // copying the edges as the vector grows (and twice their memory).
  Result.Edges.reserve(MaxEdges);
  // Call graphs have several calls per function: a first guess, it grows.
  NameInterner Names(MaxEdges / 8);

  // Names are interned a few lines after they are scanned, so that their
  // hash-table slots and names are fetched from memory meanwhile:
  // interning millions of names costs cache misses more than anything (see
  // NameInterner).
  constexpr size_t Lookahead = 8; // Lines in flight; a power of two.
  std::array<PendingEdge, Lookahead> InFlight;
  size_t NumScanned = 0;
  auto Finish = [&](const PendingEdge &E) {
    uint32_t Caller = Names.intern(E.Caller, E.CallerHash);
    uint32_t Callee = Names.intern(E.Callee, E.CalleeHash);
    Result.Edges.push_back({Caller, Callee, E.Count});
  };

  const char *P = Text.begin(), *End = Text.end();
  for (unsigned LineNo = 1; P < End; ++LineNo) {
    StringRef Fields[3];
    unsigned NumFields = 0;
    while (P < End && Classes[*P] != CharClass::End) {
      if (Classes[*P] == CharClass::Blank) {
        ++P;
        continue;
      }
      const char *Start = P;
      while (P < End && Classes[*P] == CharClass::Field)
        ++P;
      if (NumFields < 3)
        Fields[NumFields] = StringRef(Start, P - Start);
      ++NumFields;
    }
    // Skip a comment, then the newline.
    if (P < End && *P == '#')
      if (!(P = static_cast<const char *>(std::memchr(P, '\n', End - P))))
        P = End;
    ++P;
    if (NumFields == 0)
      continue;
    if (NumFields != 3)
      return createStringError(
          inconvertibleErrorCode(),
          "%s:%u: expected 'caller callee count', found %u field(s)",
          Buffer.getBufferIdentifier().str().c_str(), LineNo, NumFields);
    PendingEdge E;
    if (!parseCount(Fields[2], E.Count))
      return createStringError(inconvertibleErrorCode(),
                               "%s:%u: count '%s' is not an unsigned integer",
                               Buffer.getBufferIdentifier().str().c_str(),
                               LineNo, Fields[2].str().c_str());
    E.Caller = Fields[0];
    E.Callee = Fields[1];
    E.CallerHash = NameInterner::hash(E.Caller);
    E.CalleeHash = NameInterner::hash(E.Callee);
    Names.prefetchSlot(E.CallerHash);
    Names.prefetchSlot(E.CalleeHash);
    // Intern the oldest line in flight (in file order), take its place,
    // and fetch the names of the line half way along.
    PendingEdge &Slot = InFlight[NumScanned % Lookahead];
    if (NumScanned >= Lookahead)
      Finish(Slot);
    Slot = E;
    ++NumScanned;
    if (NumScanned > Lookahead / 2) {
      const PendingEdge &Half =
          InFlight[(NumScanned - Lookahead / 2) % Lookahead];
      Names.prefetchName(Half.CallerHash);
      Names.prefetchName(Half.CalleeHash);
    }
  }
  for (size_t I = NumScanned > Lookahead ? NumScanned - Lookahead : 0;
       I < NumScanned; ++I)
    Finish(InFlight[I % Lookahead]);
  Result.Names = std::move(Names.getNames());
  return Result;
}

//===- StringTableAnalysis.h - Which string tables, which uses --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The analysis half of `kiln-strtab` (private to passes/lib): whether a
/// global is a string table, the layout of its elements, where each string
/// entry points, and every use of the table, as byte offsets from an anchor.
/// Element addresses are followed through module-local functions whose
/// every call site is known: into their pointer arguments and out of their
/// return values. StringTableLowering.cpp rewrites what this file accepted;
/// any use it does not understand becomes a Refusal, reported as a missed
/// remark.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_LIB_STRINGTABLEANALYSIS_H
#define KILN_PASSES_LIB_STRINGTABLEANALYSIS_H

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class Argument;
class CallBase;
class Constant;
class DataLayout;
class Function;
class GlobalValue;
class GlobalVariable;
class ICmpInst;
class Instruction;
class LoadInst;
class Type;
class Value;
} // namespace llvm

namespace kiln {
namespace strtab {

/// Why a table was left alone; each reason has its own remark name.
enum class Refusal {
  NotLocal,
  ExplicitSection,
  Used,
  ThreadLocal,
  NotAllStrings,
  Escape,
  Store,
  IdentityCompare,
  Volatile,
  UnknownUse,
  TooLarge,
  MayWrap,
  SignificantAddress,
  UnknownCallee,
  IndirectCall,
  ExternalFunction,
  AddressTaken,
  VarArgs,
  ForeignPointer,
};

/// A pointer into the table as its users compute it: Anchor + Constant +
/// sum(Variable * Scale), in bytes. The anchor is the table, or a value
/// holding element-aligned pointers into it (or null): a phi or select, an
/// argument of a module-local function, or a call of one returning them.
struct TableAddress {
  llvm::Value *Anchor = nullptr;
  llvm::APInt Constant;
  llvm::SmallMapVector<llvm::Value *, llvm::APInt, 4> Variables;
  /// Every GEP from the anchor to here was inbounds.
  bool InBounds = true;
};

/// One top-level field of a table element (the only field of an array of
/// pointers).
struct TableField {
  uint64_t Offset = 0; ///< In the old element.
  uint64_t Size = 0;   ///< Store size of the field type.
  llvm::Type *Ty = nullptr;
  /// A pointer field whose every entry is a string or null: it becomes an
  /// offset into the blob.
  bool IsString = false;
  bool HasNull = false;
  /// Some load reads the field; unread fields are dropped.
  bool IsLoaded = false;
  /// Position in the new element type, if kept.
  std::optional<unsigned> NewIndex;

  TableField(uint64_t Offset, uint64_t Size, llvm::Type *Ty)
      : Offset(Offset), Size(Size), Ty(Ty) {}
};

/// Where an entry of a string field points: a byte of a string constant.
struct StringTarget {
  llvm::GlobalVariable *String = nullptr;
  uint64_t Offset = 0;
};

/// A load from the table, the field it reads and where in the field.
struct TableLoad {
  llvm::LoadInst *Load;
  unsigned Field;
  uint64_t OffsetInField;
};

/// A refusal and the instruction that caused it, when there is one.
struct Verdict {
  Refusal Reason;
  const llvm::Instruction *At = nullptr;
  /// The function an element address was passed to or returned from, for
  /// the refusals about calls.
  const llvm::Function *Through = nullptr;
};

/// Everything known about one candidate table.
struct TableInfo {
  llvm::GlobalVariable *Table = nullptr;
  /// Entries of the table, nested arrays flattened, in memory order.
  llvm::SmallVector<llvm::Constant *, 16> Elements;
  uint64_t NumElements = 0;
  uint64_t Stride = 0; ///< Alloc size of the old element.
  bool IsStruct = false;
  llvm::SmallVector<TableField, 4> Fields;
  /// Entries[Element][Field] for string fields: null is an empty optional.
  std::vector<llvm::SmallVector<std::optional<StringTarget>, 2>> Entries;
  /// Every pointer derived from the table, in discovery order.
  llvm::MapVector<llvm::Value *, TableAddress> Addresses;
  llvm::SmallVector<TableLoad, 8> Loads;
  llvm::SmallVector<llvm::ICmpInst *, 4> Compares;
  /// Phis and selects holding derived pointers (they are rebuilt).
  llvm::SmallVector<llvm::Instruction *, 4> Anchors;
  /// Arguments of module-local functions that receive derived pointers (or
  /// null) at every call site; they keep their place and carry new-table
  /// pointers once the call sites are rewritten.
  llvm::SmallVector<llvm::Argument *, 4> Arguments;
  /// Module-local functions returning derived pointers (or null) from every
  /// return; their calls are anchors, kept like the arguments.
  llvm::SmallVector<llvm::Function *, 4> Returning;
  llvm::SmallVector<llvm::CallBase *, 4> Calls;
  /// Some entry points to a string constant whose address is significant
  /// (named, without unnamed_addr): the string cannot move into the blob.
  bool HasSignificantString = false;
};

/// \returns the remark name of \p R (one per reason, CamelCase).
llvm::StringRef getRemarkName(Refusal R);

/// \returns the user-facing explanation of \p R.
llvm::StringRef getRefusalText(Refusal R);

/// \returns \p A / \p B rounded towards negative infinity, so that a negative
/// byte offset splits into an element and a non-negative offset inside it.
int64_t floorDiv(int64_t A, int64_t B);

/// \returns true if \p V times \p Scale (a term of a byte offset) is known to
/// be a whole number of \p Stride-byte elements: the scale is a multiple of
/// the stride, or the stride is a power of two and enough low bits of the
/// product are known zero.
bool isWholeElements(const llvm::Value *V, const llvm::APInt &Scale,
                     uint64_t Stride, const llvm::DataLayout &DL);

/// \returns the innermost element type of the (nested) array type
/// \p TableTy: an array of arrays of pointers is handled as one flat array.
llvm::Type *getFlatElementType(llvm::Type *TableTy);

/// \returns the bytes of the string constant \p GV (its whole array).
std::string getStringBytes(const llvm::GlobalVariable &GV);

/// Fills the element layout and the string entries of \p T, whose Table is
/// set. \returns std::nullopt if the global is no string table at all
/// (nothing to report), otherwise whether its entries qualify.
std::optional<bool> describeElements(TableInfo &T, const llvm::DataLayout &DL);

/// \returns the first instruction found using \p V, directly or through
/// constants and the initializers of other globals; remarks about a table as
/// a whole are attached to it.
const llvm::Instruction *findFirstInstructionUser(const llvm::Value *V);

/// \returns the refusal that applies to the table \p GV as a whole (linkage,
/// section, \p Used, thread-locality), if any.
std::optional<Refusal>
checkTableProperties(const llvm::GlobalVariable &GV,
                     const llvm::SmallPtrSetImpl<llvm::GlobalValue *> &Used);

/// Walks every use of the table of \p T, recording its loads (with the field
/// each reads), compares and anchors. \returns the first refusal found, if
/// any; \p T is complete for rewriting only when there is none.
std::optional<Verdict> analyzeUses(TableInfo &T, const llvm::DataLayout &DL);

} // namespace strtab
} // namespace kiln

#endif // KILN_PASSES_LIB_STRINGTABLEANALYSIS_H

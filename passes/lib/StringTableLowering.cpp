//===- StringTableLowering.cpp - Relocation-free string tables ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// DESCRIPTION
///   In position-independent code every pointer in a constant table needs a
///   dynamic relocation (R_X86_64_RELATIVE) and 8 bytes. For a table whose
///   pointers all point to constant strings, this pass writes the strings
///   into one private character blob (duplicates and suffixes share bytes,
///   see StringBlob.h) and replaces the table by one of the narrowest integer
///   offsets that fit (i8, i16 or i32), so
///     %p = getelementptr ptr, ptr @errors, i64 %i
///     %s = load ptr, ptr %p
///   becomes
///     %p = getelementptr i8, ptr @errors.offsets, i64 %i
///     %o = load i8, ptr %p
///     %z = zext i8 %o to i64
///     %s = getelementptr inbounds i8, ptr @errors.chars, i64 %z
///   A null entry is encoded as the all-ones offset and rematerialized with a
///   select. Tables of structs are rewritten field-wise: string fields become
///   offsets, other fields keep their type, fields no load reads are dropped,
///   and the fields are reordered by alignment when that makes the struct
///   smaller.
///
///   Addresses are analysed as byte offsets (an anchor plus a constant plus
///   scaled variables), not as GEP shapes, because InstCombine rewrites
///   `gep [N x ptr], @t, 0, %i` into `gep ptr, @t, %i` and field accesses
///   into `gep i8` chains. An anchor is the table itself or a phi/select that
///   only ever holds element-aligned pointers into the table: that is how a
///   loop walking the table by pointer is understood. The mapping
///   `new = new_table + (old - table) / OldStride * NewStride` is affine and
///   increasing, so it preserves loads, equality and unsigned order of such
///   pointers.
///
///   Any use that is not understood (a call, a store, a return, a ptrtoint,
///   a comparison with a foreign pointer, a volatile load, ...) makes the
///   pass leave the table alone and emit one missed remark naming the reason.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-strtab \
///       -pass-remarks=kiln-strtab -pass-remarks-missed=kiln-strtab in.ll
///   clang -O2 -fPIC -fpass-plugin=KilnPlugin-22.so -mllvm -kiln-strtab ...
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/StringTableLowering.h"

#include "kiln/Passes/StringBlob.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;
using kiln::StringBlob;

#define DEBUG_TYPE "kiln-strtab"

namespace {

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
};

/// A pointer into the table as its users compute it: Anchor + Constant +
/// sum(Variable * Scale), in bytes. The anchor is the table or a phi/select
/// holding element-aligned pointers into it.
struct TableAddress {
  Value *Anchor = nullptr;
  APInt Constant;
  SmallMapVector<Value *, APInt, 4> Variables;
  /// Every GEP from the anchor to here was inbounds.
  bool InBounds = true;
};

/// One top-level field of a table element (the only field of an array of
/// pointers).
struct TableField {
  uint64_t Offset = 0; ///< In the old element.
  uint64_t Size = 0;   ///< Store size of the field type.
  Type *Ty = nullptr;
  /// A pointer field whose every entry is a string or null: it becomes an
  /// offset into the blob.
  bool IsString = false;
  bool HasNull = false;
  /// Some load reads the field; unread fields are dropped.
  bool IsLoaded = false;
  /// Position in the new element type, if kept.
  std::optional<unsigned> NewIndex;

  TableField(uint64_t Offset, uint64_t Size, Type *Ty)
      : Offset(Offset), Size(Size), Ty(Ty) {}
};

/// Where an entry of a string field points: a byte of a string constant.
struct StringRefInfo {
  GlobalVariable *String = nullptr;
  uint64_t Offset = 0;
};

/// A load from the table, the field it reads and where in the field.
struct TableLoad {
  LoadInst *Load;
  unsigned Field;
  uint64_t OffsetInField;
};

/// A refusal and the instruction that caused it, when there is one.
struct Verdict {
  Refusal Reason;
  const Instruction *At = nullptr;
};

/// Everything known about one candidate table.
struct TableInfo {
  GlobalVariable *Table = nullptr;
  uint64_t NumElements = 0;
  uint64_t Stride = 0; ///< Alloc size of the old element.
  bool IsStruct = false;
  SmallVector<TableField, 4> Fields;
  /// Entries[Element][Field] for string fields: null is an empty optional.
  std::vector<SmallVector<std::optional<StringRefInfo>, 2>> Entries;
  /// Every pointer derived from the table, in discovery order.
  MapVector<Value *, TableAddress> Addresses;
  SmallVector<TableLoad, 8> Loads;
  SmallVector<ICmpInst *, 4> Compares;
  SmallVector<Instruction *, 4> Anchors;
};

} // namespace

static StringRef getRemarkName(Refusal R) {
  switch (R) {
  case Refusal::NotLocal:
    return "NotLocal";
  case Refusal::ExplicitSection:
    return "ExplicitSection";
  case Refusal::Used:
    return "Used";
  case Refusal::ThreadLocal:
    return "ThreadLocal";
  case Refusal::NotAllStrings:
    return "NotAllStrings";
  case Refusal::Escape:
    return "Escape";
  case Refusal::Store:
    return "Store";
  case Refusal::IdentityCompare:
    return "IdentityCompare";
  case Refusal::Volatile:
    return "Volatile";
  case Refusal::UnknownUse:
    return "UnknownUse";
  case Refusal::TooLarge:
    return "TooLarge";
  }
  llvm_unreachable("unknown Refusal");
}

static StringRef getRefusalText(Refusal R) {
  switch (R) {
  case Refusal::NotLocal:
    return "it is not local to the module (external linkage)";
  case Refusal::ExplicitSection:
    return "it has an explicit section";
  case Refusal::Used:
    return "it is in llvm.used or llvm.compiler.used";
  case Refusal::ThreadLocal:
    return "it is thread-local";
  case Refusal::NotAllStrings:
    return "not all elements are strings or null";
  case Refusal::Escape:
    return "its address escapes (call, return, ptrtoint, stored or in an "
           "initializer)";
  case Refusal::Store:
    return "it is stored to";
  case Refusal::IdentityCompare:
    return "a pointer it holds or into it is compared by identity";
  case Refusal::Volatile:
    return "it is read by a volatile or atomic load";
  case Refusal::UnknownUse:
    return "it has a use the pass does not understand";
  case Refusal::TooLarge:
    return "its strings do not fit 32-bit offsets";
  }
  llvm_unreachable("unknown Refusal");
}

// Floor division, so that negative constant offsets (a walk starting before
// an element) still split into an element and an offset inside it.
static int64_t floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

/// \returns where \p V points if it is a string: a byte inside a constant,
/// unnamed_addr, module-local array of i8. The whole array (not just up to
/// the first NUL) is what the blob will hold, so reads anywhere inside the
/// original object stay valid.
static std::optional<StringRefInfo> getStringRef(Constant *V,
                                                 const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(V->getType()), 0);
  auto *Base = dyn_cast<GlobalVariable>(
      V->stripAndAccumulateConstantOffsets(DL, Offset,
                                           /*AllowNonInbounds=*/true));
  if (!Base || !Base->isConstant() || !Base->hasDefinitiveInitializer() ||
      !Base->hasLocalLinkage() || !Base->hasGlobalUnnamedAddr() ||
      Base->isThreadLocal() || Base->hasSection())
    return std::nullopt;
  auto *ArrayTy = dyn_cast<ArrayType>(Base->getValueType());
  if (!ArrayTy || !ArrayTy->getElementType()->isIntegerTy(8) ||
      ArrayTy->getNumElements() == 0)
    return std::nullopt;
  Constant *Init = Base->getInitializer();
  if (!isa<ConstantDataArray>(Init) && !isa<ConstantAggregateZero>(Init))
    return std::nullopt;
  if (Offset.isNegative() || Offset.getZExtValue() >= ArrayTy->getNumElements())
    return std::nullopt;
  return StringRefInfo{Base, Offset.getZExtValue()};
}

/// \returns the bytes of the string constant \p GV.
static std::string getStringBytes(const GlobalVariable &GV) {
  const Constant *Init = GV.getInitializer();
  if (const auto *Data = dyn_cast<ConstantDataArray>(Init))
    return Data->getRawDataValues().str();
  return std::string(cast<ArrayType>(GV.getValueType())->getNumElements(),
                     '\0');
}

/// Fills the element layout and the string entries of \p T.
/// \returns std::nullopt if \p GV is no string table at all (nothing to say
/// about it), otherwise whether its entries qualify.
static std::optional<bool> describeElements(TableInfo &T,
                                            const DataLayout &DL) {
  GlobalVariable &GV = *T.Table;
  auto *ArrayTy = dyn_cast<ArrayType>(GV.getValueType());
  if (!ArrayTy || ArrayTy->getNumElements() == 0 ||
      !GV.hasDefinitiveInitializer())
    return std::nullopt;
  Type *ElementTy = ArrayTy->getElementType();
  T.NumElements = ArrayTy->getNumElements();
  T.Stride = DL.getTypeAllocSize(ElementTy);
  auto IsDataPointer = [](Type *Ty) {
    return Ty->isPointerTy() && Ty->getPointerAddressSpace() == 0;
  };
  if (IsDataPointer(ElementTy)) {
    T.Fields.emplace_back(0, DL.getTypeStoreSize(ElementTy), ElementTy);
  } else if (auto *StructTy = dyn_cast<StructType>(ElementTy)) {
    T.IsStruct = true;
    const StructLayout *Layout = DL.getStructLayout(StructTy);
    for (unsigned I = 0; I < StructTy->getNumElements(); ++I) {
      Type *FieldTy = StructTy->getElementType(I);
      T.Fields.emplace_back(Layout->getElementOffset(I),
                            DL.getTypeStoreSize(FieldTy), FieldTy);
    }
  } else {
    return std::nullopt;
  }

  // A pointer field is a string field if every entry is a string or null; a
  // table qualifies if it has at least one string field.
  Constant *Init = GV.getInitializer();
  T.Entries.assign(T.NumElements, {});
  bool SawString = false, SawOtherPointer = false, AnyStringField = false;
  for (unsigned F = 0; F < T.Fields.size(); ++F) {
    TableField &Field = T.Fields[F];
    if (!IsDataPointer(Field.Ty))
      continue;
    bool AllStrings = true;
    SmallVector<std::optional<StringRefInfo>, 16> Column;
    for (uint64_t E = 0; E < T.NumElements && AllStrings; ++E) {
      Constant *Element = Init->getAggregateElement(E);
      Constant *Value =
          T.IsStruct && Element ? Element->getAggregateElement(F) : Element;
      if (!Value) {
        AllStrings = false;
      } else if (Value->isNullValue()) {
        Column.push_back(std::nullopt);
        Field.HasNull = true;
      } else if (std::optional<StringRefInfo> S = getStringRef(Value, DL)) {
        Column.push_back(*S);
        SawString = true;
      } else {
        AllStrings = false;
      }
    }
    if (!AllStrings) {
      SawOtherPointer = true;
      Field.HasNull = false;
      continue;
    }
    Field.IsString = true;
    AnyStringField = true;
    for (uint64_t E = 0; E < T.NumElements; ++E)
      T.Entries[E].push_back(Column[E]);
  }
  if (!SawString)
    return std::nullopt;
  // A plain pointer array must be strings throughout; a struct keeps its
  // other pointer fields as they are.
  return AnyStringField && (T.IsStruct || !SawOtherPointer);
}

static const Instruction *findFirstInstructionUser(const Value *V) {
  SmallVector<const Value *, 8> Worklist = {V};
  SmallPtrSet<const Value *, 8> Visited;
  while (!Worklist.empty()) {
    const Value *Current = Worklist.pop_back_val();
    for (const User *U : Current->users()) {
      if (const auto *I = dyn_cast<Instruction>(U))
        return I;
      if (isa<ConstantExpr>(U) && Visited.insert(U).second)
        Worklist.push_back(U);
    }
  }
  return nullptr;
}

static bool isElementAligned(const TableAddress &A, uint64_t Stride) {
  if (A.Constant.srem(Stride) != 0)
    return false;
  return all_of(A.Variables,
                [&](const auto &Var) { return Var.second.srem(Stride) == 0; });
}

// A loaded string pointer must not be compared with, or converted to an
// integer for comparison with, anything but null: its object changes.
static const Instruction *findIdentityUse(LoadInst &Load) {
  SmallVector<const Value *, 8> Worklist = {&Load};
  SmallPtrSet<const Value *, 8> Visited = {&Load};
  while (!Worklist.empty()) {
    const Value *Current = Worklist.pop_back_val();
    for (const User *U : Current->users()) {
      const auto *I = cast<Instruction>(U);
      if (const auto *Cmp = dyn_cast<ICmpInst>(I)) {
        const Value *Other = Cmp->getOperand(0) == Current ? Cmp->getOperand(1)
                                                           : Cmp->getOperand(0);
        if (!isa<ConstantPointerNull>(Other))
          return I;
        continue;
      }
      if (isa<PtrToIntInst>(I))
        return I;
      if ((isa<PHINode>(I) || isa<SelectInst>(I) ||
           isa<GetElementPtrInst>(I)) &&
          Visited.insert(I).second)
        Worklist.push_back(I);
    }
  }
  return nullptr;
}

/// Walks every use of the table, recording loads, compares and anchors.
/// \returns the first refusal found, if any.
static std::optional<Verdict> analyzeUses(TableInfo &T, const DataLayout &DL) {
  unsigned IndexBits = DL.getIndexTypeSizeInBits(T.Table->getType());
  T.Addresses[T.Table] = {T.Table, APInt(IndexBits, 0), {}, true};
  SmallVector<Value *, 16> Worklist = {T.Table};
  while (!Worklist.empty()) {
    Value *Current = Worklist.pop_back_val();
    // Copy: inserting into Addresses may move its storage.
    TableAddress Form = T.Addresses[Current];
    for (Use &U : Current->uses()) {
      User *Usr = U.getUser();
      auto *I = dyn_cast<Instruction>(Usr);
      if (auto *GEP = dyn_cast<GEPOperator>(Usr)) {
        if (GEP->getType()->isVectorTy())
          return Verdict{Refusal::UnknownUse, I};
        SmallMapVector<Value *, APInt, 4> Variables;
        APInt Constant(IndexBits, 0);
        if (!GEP->collectOffset(DL, IndexBits, Variables, Constant))
          return Verdict{Refusal::UnknownUse, I};
        TableAddress Derived = Form;
        Derived.Constant += Constant;
        for (auto &[V, Scale] : Variables) {
          auto [It, Inserted] = Derived.Variables.try_emplace(V, Scale);
          if (!Inserted)
            It->second += Scale;
        }
        Derived.InBounds &= GEP->isInBounds();
        if (T.Addresses.insert({GEP, Derived}).second)
          Worklist.push_back(GEP);
        continue;
      }
      if (auto *Load = dyn_cast<LoadInst>(Usr)) {
        if (!Load->isSimple())
          return Verdict{Refusal::Volatile, Load};
        T.Loads.push_back({Load, 0, 0});
        continue;
      }
      if (auto *Store = dyn_cast<StoreInst>(Usr)) {
        if (Store->getPointerOperand() == Current)
          return Verdict{Refusal::Store, Store};
        return Verdict{Refusal::Escape, Store};
      }
      if (isa<AtomicRMWInst>(Usr) || isa<AtomicCmpXchgInst>(Usr))
        return Verdict{Refusal::Store, I};
      if (auto *Cmp = dyn_cast<ICmpInst>(Usr)) {
        if (!is_contained(T.Compares, Cmp))
          T.Compares.push_back(Cmp);
        continue;
      }
      if (isa<PHINode>(Usr) || isa<SelectInst>(Usr)) {
        if (T.Addresses.insert({Usr, {Usr, APInt(IndexBits, 0), {}, true}})
                .second) {
          T.Anchors.push_back(I);
          Worklist.push_back(Usr);
        }
        continue;
      }
      if (isa<CallBase>(Usr) || isa<ReturnInst>(Usr) ||
          isa<PtrToIntOperator>(Usr) || isa<GlobalValue>(Usr) ||
          isa<ConstantAggregate>(Usr))
        return Verdict{Refusal::Escape, I};
      return Verdict{Refusal::UnknownUse, I};
    }
  }

  // Loads: each must read inside one field, a string field exactly as a
  // pointer; a load at a constant address must hit a real element.
  for (TableLoad &TL : T.Loads) {
    LoadInst &Load = *TL.Load;
    const TableAddress &A = T.Addresses[Load.getPointerOperand()];
    if (!all_of(A.Variables, [&](const auto &Var) {
          return Var.second.srem(T.Stride) == 0;
        }))
      return Verdict{Refusal::UnknownUse, &Load};
    int64_t Constant = A.Constant.getSExtValue();
    int64_t Element = floorDiv(Constant, T.Stride);
    uint64_t InElement = Constant - Element * int64_t(T.Stride);
    if (A.Anchor == T.Table && A.Variables.empty() &&
        (Element < 0 || uint64_t(Element) >= T.NumElements))
      return Verdict{Refusal::UnknownUse, &Load};
    uint64_t LoadSize = DL.getTypeStoreSize(Load.getType());
    auto Field = find_if(T.Fields, [&](const TableField &F) {
      return F.Offset <= InElement && InElement + LoadSize <= F.Offset + F.Size;
    });
    if (Field == T.Fields.end())
      return Verdict{Refusal::UnknownUse, &Load};
    if (Field->IsString) {
      if (InElement != Field->Offset || Load.getType() != Field->Ty)
        return Verdict{Refusal::UnknownUse, &Load};
      if (const Instruction *Culprit = findIdentityUse(Load))
        return Verdict{Refusal::IdentityCompare, Culprit};
    }
    Field->IsLoaded = true;
    TL.Field = Field - T.Fields.begin();
    TL.OffsetInField = InElement - Field->Offset;
  }

  // Anchors: every value reaching a phi or select must be an element-aligned
  // pointer into the table, or the anchor may hold anything.
  for (Instruction *Anchor : T.Anchors) {
    SmallVector<Value *, 4> Operands;
    if (auto *Phi = dyn_cast<PHINode>(Anchor))
      Operands.append(Phi->incoming_values().begin(),
                      Phi->incoming_values().end());
    else
      Operands = {Anchor->getOperand(1), Anchor->getOperand(2)};
    for (Value *V : Operands) {
      auto It = T.Addresses.find(V);
      if (It == T.Addresses.end() || !isElementAligned(It->second, T.Stride))
        return Verdict{Refusal::UnknownUse, Anchor};
    }
  }

  // Compares between two element-aligned pointers into the table survive the
  // increasing mapping; anything else compares identities.
  for (ICmpInst *Cmp : T.Compares) {
    if (Cmp->isSigned())
      return Verdict{Refusal::IdentityCompare, Cmp};
    for (Value *Operand : Cmp->operands()) {
      auto It = T.Addresses.find(Operand);
      if (It == T.Addresses.end() || !isElementAligned(It->second, T.Stride))
        return Verdict{Refusal::IdentityCompare, Cmp};
    }
  }
  return std::nullopt;
}

/// \returns the refusal that applies to the table as a whole, if any.
static std::optional<Refusal>
checkTableProperties(const GlobalVariable &GV,
                     const SmallPtrSetImpl<GlobalValue *> &Used) {
  if (!GV.hasLocalLinkage())
    return Refusal::NotLocal;
  if (GV.hasSection())
    return Refusal::ExplicitSection;
  if (Used.contains(&GV))
    return Refusal::Used;
  if (GV.isThreadLocal())
    return Refusal::ThreadLocal;
  return std::nullopt;
}

namespace {

/// Builds the replacement globals of one table and rewrites its uses.
class TableRewriter {
public:
  TableRewriter(TableInfo &T, const StringBlob &Blob,
                ArrayRef<uint64_t> EntryOffsets, unsigned OffsetBits)
      : T(T), Blob(Blob), EntryOffsets(EntryOffsets), OffsetBits(OffsetBits),
        M(*T.Table->getParent()), DL(M.getDataLayout()), Ctx(M.getContext()) {}

  /// \returns the bytes of the new globals.
  uint64_t run();

private:
  void buildElementType();
  Constant *buildFieldValue(uint64_t Element, unsigned Field,
                            Constant *OldElement);
  void buildGlobals();
  Value *materialize(const TableAddress &A, uint64_t NewInElement,
                     Instruction *InsertBefore);
  Value *mapAddress(Value *Old, uint64_t NewInElement, Instruction *User);
  Value *getStringPointer(uint64_t Element, unsigned Field);
  Value *rewriteLoad(const TableLoad &TL);

  TableInfo &T;
  const StringBlob &Blob;
  /// Blob offset of each (element, string field) entry, row-major; null
  /// entries hold the all-ones marker.
  ArrayRef<uint64_t> EntryOffsets;
  unsigned OffsetBits;
  Module &M;
  const DataLayout &DL;
  LLVMContext &Ctx;

  IntegerType *OffsetTy = nullptr;
  Type *NewElementTy = nullptr;
  uint64_t NewStride = 0;
  /// Offset of each kept field in the new element.
  SmallVector<uint64_t, 4> NewFieldOffset;
  GlobalVariable *Chars = nullptr;
  GlobalVariable *NewTable = nullptr;
  DenseMap<Value *, Instruction *> NewAnchors;
  /// Addresses already emitted for an old GEP and an in-element offset.
  DenseMap<std::pair<Value *, uint64_t>, Value *> Mapped;
  /// Column of each string field in EntryOffsets.
  SmallVector<unsigned, 4> StringColumn;
  unsigned NumStringFields = 0;
};

} // namespace

void TableRewriter::buildElementType() {
  OffsetTy = IntegerType::get(Ctx, OffsetBits);
  // Keep the fields some load reads; keep at least one field so that the
  // stride, which pointer walks rely on, is not zero.
  SmallVector<unsigned, 4> Kept;
  for (unsigned F = 0; F < T.Fields.size(); ++F)
    if (T.Fields[F].IsLoaded)
      Kept.push_back(F);
  if (Kept.empty())
    Kept.push_back(
        find_if(T.Fields, [](const TableField &F) { return F.IsString; }) -
        T.Fields.begin());
  auto NewType = [&](unsigned F) {
    return T.Fields[F].IsString ? OffsetTy : T.Fields[F].Ty;
  };

  if (!T.IsStruct || Kept.size() == 1) {
    NewElementTy = NewType(Kept.front());
    T.Fields[Kept.front()].NewIndex = 0;
    NewFieldOffset.assign(T.Fields.size(), 0);
    NewStride = DL.getTypeAllocSize(NewElementTy);
    return;
  }

  // Declaration order, or by decreasing alignment if that is smaller
  // ({i8, i32, i8} pads to 12 bytes, {i32, i8, i8} to 8).
  auto MakeStruct = [&](ArrayRef<unsigned> Order) {
    SmallVector<Type *, 4> Types;
    for (unsigned F : Order)
      Types.push_back(NewType(F));
    return StructType::get(Ctx, Types);
  };
  SmallVector<unsigned, 4> Sorted(Kept);
  llvm::sort(Sorted, [&](unsigned A, unsigned B) {
    Align AlignA = DL.getABITypeAlign(NewType(A));
    Align AlignB = DL.getABITypeAlign(NewType(B));
    return AlignA != AlignB ? AlignA > AlignB : A < B;
  });
  StructType *InOrder = MakeStruct(Kept);
  StructType *BySize = MakeStruct(Sorted);
  bool UseSorted = DL.getTypeAllocSize(BySize) < DL.getTypeAllocSize(InOrder);
  ArrayRef<unsigned> Order = UseSorted ? Sorted : Kept;
  auto *StructTy = UseSorted ? BySize : InOrder;
  NewElementTy = StructTy;
  NewStride = DL.getTypeAllocSize(StructTy);
  const StructLayout *Layout = DL.getStructLayout(StructTy);
  NewFieldOffset.assign(T.Fields.size(), 0);
  for (unsigned I = 0; I < Order.size(); ++I) {
    T.Fields[Order[I]].NewIndex = I;
    NewFieldOffset[Order[I]] = Layout->getElementOffset(I);
  }
}

Constant *TableRewriter::buildFieldValue(uint64_t Element, unsigned Field,
                                         Constant *OldElement) {
  if (!T.Fields[Field].IsString)
    return OldElement->getAggregateElement(Field);
  uint64_t Offset =
      EntryOffsets[Element * NumStringFields + StringColumn[Field]];
  return ConstantInt::get(OffsetTy, Offset);
}

void TableRewriter::buildGlobals() {
  Constant *OldInit = T.Table->getInitializer();
  SmallVector<Constant *, 16> Elements;
  for (uint64_t E = 0; E < T.NumElements; ++E) {
    Constant *OldElement = OldInit->getAggregateElement(E);
    if (!isa<StructType>(NewElementTy)) {
      unsigned Field =
          find_if(T.Fields,
                  [](const TableField &F) { return F.NewIndex.has_value(); }) -
          T.Fields.begin();
      Elements.push_back(buildFieldValue(E, Field, OldElement));
      continue;
    }
    auto *StructTy = cast<StructType>(NewElementTy);
    SmallVector<Constant *, 4> Values(StructTy->getNumElements());
    for (unsigned F = 0; F < T.Fields.size(); ++F)
      if (T.Fields[F].NewIndex)
        Values[*T.Fields[F].NewIndex] = buildFieldValue(E, F, OldElement);
    Elements.push_back(ConstantStruct::get(StructTy, Values));
  }
  auto *NewArrayTy = ArrayType::get(NewElementTy, T.NumElements);

  std::string Name = T.Table->getName().str();
  Chars = new GlobalVariable(
      M, ArrayType::get(Type::getInt8Ty(Ctx), Blob.Bytes.size()),
      /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantDataArray::getString(Ctx, Blob.Bytes, /*AddNull=*/false),
      Name + ".chars", T.Table);
  Chars->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Chars->setAlignment(Align(1));

  NewTable = new GlobalVariable(
      M, NewArrayTy, /*isConstant=*/true, GlobalValue::PrivateLinkage,
      ConstantArray::get(NewArrayTy, Elements), Name + ".offsets", T.Table,
      GlobalValue::NotThreadLocal, T.Table->getAddressSpace());
  NewTable->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  NewTable->setAlignment(DL.getABITypeAlign(NewElementTy));
}

// Emits the new-table address corresponding to \p A, whose in-element part
// is \p NewInElement in the new layout. Addresses at a constant position in
// the table itself become constant expressions.
Value *TableRewriter::materialize(const TableAddress &A, uint64_t NewInElement,
                                  Instruction *InsertBefore) {
  int64_t Constant = A.Constant.getSExtValue();
  int64_t Element = floorDiv(Constant, T.Stride);
  int64_t ByteOffset = Element * int64_t(NewStride) + int64_t(NewInElement);
  Type *IndexTy = DL.getIndexType(NewTable->getType());
  Type *Int8Ty = Type::getInt8Ty(Ctx);
  GEPNoWrapFlags Flags =
      A.InBounds ? GEPNoWrapFlags::inBounds() : GEPNoWrapFlags::none();
  if (A.Anchor == T.Table && A.Variables.empty())
    return ConstantExpr::getGetElementPtr(
        Int8Ty, NewTable, ConstantInt::get(IndexTy, ByteOffset, true), Flags);

  Value *Base = A.Anchor == T.Table ? static_cast<Value *>(NewTable)
                                    : NewAnchors.lookup(A.Anchor);
  assert(Base && "anchor without a replacement");
  IRBuilder<> Builder(InsertBefore);
  // An element index: sum(Variable * Scale / OldStride) + Element.
  Value *Index = nullptr;
  for (const auto &[V, Scale] : A.Variables) {
    Value *Term = Builder.CreateSExtOrTrunc(V, IndexTy);
    int64_t Elements = Scale.getSExtValue() / int64_t(T.Stride);
    if (Elements != 1)
      Term = Builder.CreateMul(Term, ConstantInt::get(IndexTy, Elements, true));
    Index = Index ? Builder.CreateAdd(Index, Term) : Term;
  }
  if (!Index && Element == 0)
    return NewInElement
               ? Builder.CreateGEP(Int8Ty, Base,
                                   ConstantInt::get(IndexTy, NewInElement), "",
                                   Flags)
               : Base;
  if (!Index)
    return Builder.CreateGEP(
        Int8Ty, Base, ConstantInt::get(IndexTy, ByteOffset, true), "", Flags);
  if (Element != 0)
    Index = Builder.CreateAdd(Index, ConstantInt::get(IndexTy, Element, true));
  Value *Address = Builder.CreateGEP(NewElementTy, Base, Index, "", Flags);
  if (NewInElement)
    Address = Builder.CreateGEP(
        Int8Ty, Address, ConstantInt::get(IndexTy, NewInElement), "", Flags);
  return Address;
}

// Emits the new address of the old pointer \p Old, once per GEP: at the old
// GEP, which dominates every user of it, or else at \p User.
Value *TableRewriter::mapAddress(Value *Old, uint64_t NewInElement,
                                 Instruction *User) {
  auto *OldGEP = dyn_cast<GetElementPtrInst>(Old);
  if (!OldGEP)
    return materialize(T.Addresses[Old], NewInElement, User);
  Value *&New = Mapped[{Old, NewInElement}];
  if (!New)
    New = materialize(T.Addresses[Old], NewInElement, OldGEP);
  return New;
}

Value *TableRewriter::getStringPointer(uint64_t Element, unsigned Field) {
  uint64_t Offset =
      EntryOffsets[Element * NumStringFields + StringColumn[Field]];
  if (Offset == maskTrailingOnes<uint64_t>(OffsetBits))
    return ConstantPointerNull::get(PointerType::get(Ctx, 0));
  return ConstantExpr::getInBoundsGetElementPtr(
      Type::getInt8Ty(Ctx), Chars,
      ConstantInt::get(Type::getInt64Ty(Ctx), Offset));
}

// Emits the replacement of a load; the old load stays until every address
// is emitted, since a value it loaded may index the table again.
Value *TableRewriter::rewriteLoad(const TableLoad &TL) {
  LoadInst &Load = *TL.Load;
  const TableField &Field = T.Fields[TL.Field];
  Value *OldAddress = Load.getPointerOperand();
  const TableAddress &A = T.Addresses[OldAddress];
  Value *Result;
  IRBuilder<> Builder(&Load);
  if (Field.IsString && A.Anchor == T.Table && A.Variables.empty()) {
    // A constant index: the string is known, no load is left.
    uint64_t Element = A.Constant.getZExtValue() / T.Stride;
    Result = getStringPointer(Element, TL.Field);
  } else if (Field.IsString) {
    Value *Address = mapAddress(OldAddress, NewFieldOffset[TL.Field], &Load);
    LoadInst *Offset = Builder.CreateAlignedLoad(
        OffsetTy, Address, DL.getABITypeAlign(OffsetTy),
        Load.hasName() ? Load.getName() + ".offset" : "strtab.offset");
    Value *Wide = Builder.CreateZExt(Offset, Builder.getInt64Ty());
    Result = Builder.CreateInBoundsGEP(Builder.getInt8Ty(), Chars, Wide);
    if (Field.HasNull) {
      Value *IsNull = Builder.CreateICmpEQ(
          Offset,
          ConstantInt::get(OffsetTy, maskTrailingOnes<uint64_t>(OffsetBits)));
      Result = Builder.CreateSelect(
          IsNull, Constant::getNullValue(Load.getType()), Result);
    }
  } else {
    Value *Address = mapAddress(
        OldAddress, NewFieldOffset[TL.Field] + TL.OffsetInField, &Load);
    Result = Builder.CreateAlignedLoad(
        Load.getType(), Address,
        commonAlignment(DL.getABITypeAlign(NewElementTy),
                        NewFieldOffset[TL.Field] + TL.OffsetInField));
  }
  return Result;
}

uint64_t TableRewriter::run() {
  StringColumn.assign(T.Fields.size(), 0);
  for (unsigned F = 0; F < T.Fields.size(); ++F)
    if (T.Fields[F].IsString)
      StringColumn[F] = NumStringFields++;
  buildElementType();
  buildGlobals();

  // Anchors first, so that addresses based on them can be emitted; their
  // operands are filled in once every anchor exists.
  auto *PtrTy = NewTable->getType();
  for (Instruction *Anchor : T.Anchors) {
    Instruction *New;
    if (auto *Phi = dyn_cast<PHINode>(Anchor))
      New = PHINode::Create(PtrTy, Phi->getNumIncomingValues(),
                            Phi->getName() + ".strtab", Phi->getIterator());
    else
      New = SelectInst::Create(cast<SelectInst>(Anchor)->getCondition(),
                               PoisonValue::get(PtrTy), PoisonValue::get(PtrTy),
                               Anchor->getName() + ".strtab",
                               Anchor->getIterator());
    New->setDebugLoc(Anchor->getDebugLoc());
    NewAnchors[Anchor] = New;
  }
  for (Instruction *Anchor : T.Anchors) {
    Instruction *New = NewAnchors[Anchor];
    if (auto *Phi = dyn_cast<PHINode>(Anchor)) {
      auto *NewPhi = cast<PHINode>(New);
      for (unsigned I = 0; I < Phi->getNumIncomingValues(); ++I) {
        BasicBlock *From = Phi->getIncomingBlock(I);
        // A block reaching the phi on several edges must bring one value.
        int Earlier = NewPhi->getBasicBlockIndex(From);
        Value *V = Earlier >= 0 ? NewPhi->getIncomingValue(Earlier)
                                : mapAddress(Phi->getIncomingValue(I), 0,
                                             From->getTerminator());
        NewPhi->addIncoming(V, From);
      }
      continue;
    }
    New->setOperand(1, mapAddress(Anchor->getOperand(1), 0, New));
    New->setOperand(2, mapAddress(Anchor->getOperand(2), 0, New));
  }

  SmallVector<std::pair<Instruction *, Value *>, 16> Replacements;
  for (const TableLoad &TL : T.Loads)
    Replacements.push_back({TL.Load, rewriteLoad(TL)});
  for (ICmpInst *Cmp : T.Compares) {
    IRBuilder<> Builder(Cmp);
    Value *LHS = mapAddress(Cmp->getOperand(0), 0, Cmp);
    Value *RHS = mapAddress(Cmp->getOperand(1), 0, Cmp);
    Replacements.push_back(
        {Cmp, Builder.CreateICmp(Cmp->getPredicate(), LHS, RHS)});
  }
  for (auto &[Old, New] : Replacements) {
    if (!isa<Constant>(New))
      New->takeName(Old);
    Old->replaceAllUsesWith(New);
    Old->eraseFromParent();
  }

  // The old address computations now only feed each other.
  SmallVector<Instruction *, 16> Dead;
  for (auto &[V, Address] : T.Addresses)
    if (auto *I = dyn_cast<Instruction>(V))
      Dead.push_back(I);
  for (Instruction *I : Dead)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Dead)
    I->eraseFromParent();

  return Blob.Bytes.size() + DL.getTypeAllocSize(NewTable->getValueType());
}

// Lowers one table if it qualifies, with one remark either way.
static bool lowerTable(GlobalVariable &GV,
                       const SmallPtrSetImpl<GlobalValue *> &Used,
                       FunctionAnalysisManager &FAM) {
  const DataLayout &DL = GV.getParent()->getDataLayout();
  TableInfo T;
  T.Table = &GV;
  std::optional<bool> Qualifies = describeElements(T, DL);
  if (!Qualifies)
    return false;
  // A table no code reads is left to GlobalDCE.
  const Instruction *FirstUser = findFirstInstructionUser(&GV);
  if (!FirstUser)
    return false;

  auto Refuse = [&](Refusal R, const Instruction *At) {
    if (!At)
      At = FirstUser;
    OptimizationRemarkEmitter &ORE =
        FAM.getResult<OptimizationRemarkEmitterAnalysis>(
            *const_cast<Function *>(At->getFunction()));
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, getRemarkName(R), At)
             << "string table " << ore::NV("Table", GV.getName())
             << " not lowered: " << ore::NV("Reason", getRefusalText(R));
    });
    return false;
  };

  if (std::optional<Refusal> R = checkTableProperties(GV, Used))
    return Refuse(*R, nullptr);
  if (!*Qualifies)
    return Refuse(Refusal::NotAllStrings, nullptr);
  if (std::optional<Verdict> V = analyzeUses(T, DL))
    return Refuse(V->Reason, V->At);

  // The blob holds each distinct string object once; entries point into it.
  SmallVector<GlobalVariable *, 16> StringObjects;
  DenseMap<GlobalVariable *, unsigned> ObjectIndex;
  SmallVector<std::string, 16> ObjectBytes;
  uint64_t OldStringBytes = 0;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringRefInfo> &Entry : Row)
      if (Entry &&
          ObjectIndex.try_emplace(Entry->String, StringObjects.size()).second) {
        StringObjects.push_back(Entry->String);
        ObjectBytes.push_back(getStringBytes(*Entry->String));
        OldStringBytes += ObjectBytes.back().size();
      }
  SmallVector<StringRef, 16> ObjectRefs(ObjectBytes.begin(), ObjectBytes.end());
  StringBlob Blob = kiln::buildStringBlob(ObjectRefs);

  bool HasNull = any_of(
      T.Fields, [](const TableField &F) { return F.IsString && F.HasNull; });
  uint64_t MaxOffset = 0;
  unsigned NumStrings = 0;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringRefInfo> &Entry : Row)
      if (Entry) {
        ++NumStrings;
        MaxOffset =
            std::max(MaxOffset,
                     Blob.Offsets[ObjectIndex[Entry->String]] + Entry->Offset);
      }
  unsigned OffsetBits = kiln::getOffsetBitWidth(MaxOffset, HasNull);
  if (!OffsetBits)
    return Refuse(Refusal::TooLarge, nullptr);
  uint64_t NullMarker = maskTrailingOnes<uint64_t>(OffsetBits);
  std::vector<uint64_t> EntryOffsets;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringRefInfo> &Entry : Row)
      EntryOffsets.push_back(Entry ? Blob.Offsets[ObjectIndex[Entry->String]] +
                                         Entry->Offset
                                   : NullMarker);

  uint64_t OldBytes = DL.getTypeAllocSize(GV.getValueType()) + OldStringBytes;
  std::string TableName = GV.getName().str();
  Function &RemarkFunction = *const_cast<Function *>(FirstUser->getFunction());
  DebugLoc RemarkLoc = FirstUser->getDebugLoc();
  const BasicBlock *RemarkBlock = FirstUser->getParent();

  TableRewriter Rewriter(T, Blob, EntryOffsets, OffsetBits);
  uint64_t NewBytes = Rewriter.run();

  // The table and the strings only it used are dead now; a DIGlobalVariable
  // describing the table stays in its compile unit as optimized out.
  GV.removeDeadConstantUsers();
  if (GV.use_empty())
    GV.eraseFromParent();
  for (GlobalVariable *String : StringObjects) {
    String->removeDeadConstantUsers();
    if (String->use_empty())
      String->eraseFromParent();
  }

  OptimizationRemarkEmitter &ORE =
      FAM.getResult<OptimizationRemarkEmitterAnalysis>(RemarkFunction);
  ORE.emit([&] {
    return OptimizationRemark(DEBUG_TYPE, "Lowered", RemarkLoc, RemarkBlock)
           << "string table " << ore::NV("Table", TableName)
           << " lowered: " << ore::NV("Entries", T.NumElements) << " entries ("
           << ore::NV("Strings", NumStrings) << " strings), "
           << ore::NV("OldBytes", OldBytes) << " bytes to "
           << ore::NV("NewBytes", NewBytes) << " bytes with i"
           << ore::NV("OffsetBits", OffsetBits) << " offsets";
  });
  return true;
}

PreservedAnalyses
kiln::StringTableLoweringPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  SmallVector<GlobalValue *, 8> UsedList;
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/true);
  SmallPtrSet<GlobalValue *, 8> Used(UsedList.begin(), UsedList.end());

  // Module order; lowering adds globals before the table and may erase the
  // table and strings after it, so collect first.
  // Only arrays of pointers or structs are candidates, so the strings a
  // lowering erases (arrays of i8) are never among them.
  SmallVector<GlobalVariable *, 16> Candidates;
  for (GlobalVariable &GV : M.globals()) {
    auto *ArrayTy = dyn_cast<ArrayType>(GV.getValueType());
    if (ArrayTy && GV.hasInitializer() &&
        (ArrayTy->getElementType()->isPointerTy() ||
         ArrayTy->getElementType()->isStructTy()))
      Candidates.push_back(&GV);
  }
  bool Changed = false;
  for (GlobalVariable *GV : Candidates)
    Changed |= lowerTable(*GV, Used, FAM);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

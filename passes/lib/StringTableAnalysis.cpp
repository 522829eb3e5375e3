//===- StringTableAnalysis.cpp - Which string tables, which uses ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Addresses are analysed as byte offsets, not as GEP shapes, because
/// InstCombine rewrites `gep [N x ptr], @t, 0, %i` into `gep ptr, @t, %i` and
/// field accesses into `gep i8` chains: each pointer derived from the table
/// is an anchor (the table itself, or a phi/select that only ever holds
/// element-aligned pointers into the table) plus a constant plus variables
/// times scales (GEPOperator::collectOffset). An anchor is how a loop walking
/// the table by pointer is understood. Every user of every derived pointer
/// must be a GEP, a load inside one field, an anchor, or a compare between
/// two element-aligned derived pointers; anything else refuses the table.
///
//===----------------------------------------------------------------------===//

#include "StringTableAnalysis.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/KnownBits.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace kiln::strtab;

StringRef kiln::strtab::getRemarkName(Refusal R) {
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

StringRef kiln::strtab::getRefusalText(Refusal R) {
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

int64_t kiln::strtab::floorDiv(int64_t A, int64_t B) {
  int64_t Q = A / B;
  return (A % B != 0 && (A < 0) != (B < 0)) ? Q - 1 : Q;
}

// Returns where V points if it is a string: a byte inside a constant,
// unnamed_addr (its address is not significant), module-local array of i8.
// The whole array, not just up to the first NUL, is what the blob will hold,
// so reads anywhere inside the original object stay valid.
static std::optional<StringTarget> getStringTarget(Constant *V,
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
  return StringTarget{Base, Offset.getZExtValue()};
}

std::string kiln::strtab::getStringBytes(const GlobalVariable &GV) {
  const Constant *Init = GV.getInitializer();
  if (const auto *Data = dyn_cast<ConstantDataArray>(Init))
    return Data->getRawDataValues().str();
  return std::string(cast<ArrayType>(GV.getValueType())->getNumElements(),
                     '\0');
}

Type *kiln::strtab::getFlatElementType(Type *TableTy) {
  while (auto *ArrayTy = dyn_cast<ArrayType>(TableTy))
    TableTy = ArrayTy->getElementType();
  return TableTy;
}

// Appends the innermost elements of the (nested) array constant Init.
static void collectFlatElements(Constant *Init,
                                SmallVectorImpl<Constant *> &Elements) {
  auto *ArrayTy = dyn_cast<ArrayType>(Init->getType());
  if (!ArrayTy) {
    Elements.push_back(Init);
    return;
  }
  for (uint64_t I = 0; I < ArrayTy->getNumElements(); ++I)
    collectFlatElements(Init->getAggregateElement(I), Elements);
}

std::optional<bool> kiln::strtab::describeElements(TableInfo &T,
                                                   const DataLayout &DL) {
  GlobalVariable &GV = *T.Table;
  if (!isa<ArrayType>(GV.getValueType()) || !GV.hasDefinitiveInitializer())
    return std::nullopt;
  // Nested arrays (`const char *grid[3][2]`) are one flat array: addresses
  // are byte offsets, so the row/column split of a GEP does not matter.
  T.Elements.clear();
  collectFlatElements(GV.getInitializer(), T.Elements);
  Type *ElementTy = getFlatElementType(GV.getValueType());
  T.NumElements = T.Elements.size();
  if (T.NumElements == 0)
    return std::nullopt;
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
  T.Entries.assign(T.NumElements, {});
  bool SawString = false, SawOtherPointer = false, AnyStringField = false;
  for (unsigned F = 0; F < T.Fields.size(); ++F) {
    TableField &Field = T.Fields[F];
    if (!IsDataPointer(Field.Ty))
      continue;
    bool AllStrings = true;
    SmallVector<std::optional<StringTarget>, 16> Column;
    for (uint64_t E = 0; E < T.NumElements && AllStrings; ++E) {
      Constant *Element = T.Elements[E];
      Constant *Value =
          T.IsStruct && Element ? Element->getAggregateElement(F) : Element;
      if (!Value) {
        AllStrings = false;
      } else if (Value->isNullValue()) {
        Column.push_back(std::nullopt);
        Field.HasNull = true;
      } else if (std::optional<StringTarget> S = getStringTarget(Value, DL)) {
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

const Instruction *kiln::strtab::findFirstInstructionUser(const Value *V) {
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

bool kiln::strtab::isWholeElements(const Value *V, const APInt &Scale,
                                   uint64_t Stride, const DataLayout &DL) {
  if (Scale.srem(Stride) == 0)
    return true;
  // A byte offset computed apart from the GEP (`gep i8, @t, (shl %i, 3)`, or
  // SCEV's `sub 48, %x*8`) is a whole number of elements if its low bits are
  // known zero.
  if (!isPowerOf2_64(Stride))
    return false;
  unsigned TrailingZeros =
      computeKnownBits(V, DL).countMinTrailingZeros() + Scale.countr_zero();
  return TrailingZeros >= Log2_64(Stride);
}

static bool isElementAligned(const TableAddress &A, uint64_t Stride,
                             const DataLayout &DL) {
  if (A.Constant.srem(Stride) != 0)
    return false;
  return all_of(A.Variables, [&](const auto &Var) {
    return isWholeElements(Var.first, Var.second, Stride, DL);
  });
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

std::optional<Verdict> kiln::strtab::analyzeUses(TableInfo &T,
                                                 const DataLayout &DL) {
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
          return isWholeElements(Var.first, Var.second, T.Stride, DL);
        }))
      return Verdict{Refusal::UnknownUse, &Load};
    int64_t Constant = A.Constant.getSExtValue();
    int64_t Element = floorDiv(Constant, T.Stride);
    uint64_t InElement = Constant - Element * int64_t(T.Stride);
    if (A.Anchor == T.Table && A.Variables.empty() &&
        (Element < 0 || uint64_t(Element) >= T.NumElements))
      return Verdict{Refusal::UnknownUse, &Load};
    uint64_t LoadSize = DL.getTypeStoreSize(Load.getType());
    auto *Field = find_if(T.Fields, [&](const TableField &F) {
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
      auto *It = T.Addresses.find(V);
      if (It == T.Addresses.end() ||
          !isElementAligned(It->second, T.Stride, DL))
        return Verdict{Refusal::UnknownUse, Anchor};
    }
  }

  // Compares between two element-aligned pointers into the table survive the
  // increasing mapping; anything else compares identities.
  for (ICmpInst *Cmp : T.Compares) {
    if (Cmp->isSigned())
      return Verdict{Refusal::IdentityCompare, Cmp};
    for (Value *Operand : Cmp->operands()) {
      auto *It = T.Addresses.find(Operand);
      if (It == T.Addresses.end() ||
          !isElementAligned(It->second, T.Stride, DL))
        return Verdict{Refusal::IdentityCompare, Cmp};
    }
  }
  return std::nullopt;
}

std::optional<Refusal>
kiln::strtab::checkTableProperties(const GlobalVariable &GV,
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

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
///   see StringBlob.h; the tables of a module share a blob while no table
///   needs wider offsets for it) and replaces the table by one of the
///   narrowest integer offsets that fit (i8, i16 or i32), so
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
///   Which tables qualify and how their uses are understood (as byte
///   offsets from an anchor, so loops walking the table by pointer too) is
///   StringTableAnalysis.cpp. Here, the map
///     new = new_table + (old - table) / OldStride * NewStride
///   rewrites each understood address: it is affine and increasing, so it
///   preserves the entry a load reads, equality and unsigned order of
///   element-aligned pointers. Null maps to null. Pointers into the table
///   that module-local functions receive or return keep their type: the
///   call sites and returns pass the new-table pointer instead, so no
///   signature changes (the proof is in StringTableAnalysis.cpp).
///
///   Any use that is not understood (a call of a function whose callers are
///   not all known, a store, a ptrtoint, a comparison with a foreign
///   pointer, a volatile load, ...) makes the
///   pass leave the table alone and emit one missed remark naming the reason.
///
/// USAGE
///   opt -load-pass-plugin=KilnPlugin-22.so -passes=kiln-strtab \
///       -pass-remarks=kiln-strtab -pass-remarks-missed=kiln-strtab in.ll
///   clang -O2 -fPIC -fpass-plugin=KilnPlugin-22.so -mllvm -kiln-strtab ...
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/StringTableLowering.h"
#include "StringTableAnalysis.h"

#include "kiln/Passes/StringBlob.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Operator.h"
#include "llvm/Support/Debug.h"

#include <optional>

using namespace llvm;
using namespace kiln::strtab;
using kiln::StringBlob;

#define DEBUG_TYPE "kiln-strtab"

STATISTIC(NumTablesLowered, "Number of string tables lowered");
STATISTIC(NumTablesRefused, "Number of string tables left alone");
STATISTIC(NumRelocationsRemoved,
          "Number of string pointers (relocations in PIC) removed");
STATISTIC(NumBytesSaved, "Number of bytes of tables and strings saved");

namespace {

/// Builds the replacement globals of one table and rewrites its uses.
class TableRewriter {
public:
  /// \p Chars is the blob's global, shared by the tables of one blob group:
  /// created by the first of them to be rewritten.
  TableRewriter(TableInfo &T, const StringBlob &Blob, GlobalVariable *&Chars,
                ArrayRef<uint64_t> EntryOffsets, unsigned OffsetBits)
      : T(T), Blob(Blob), SharedChars(Chars), EntryOffsets(EntryOffsets),
        OffsetBits(OffsetBits), M(*T.Table->getParent()), DL(M.getDataLayout()),
        Ctx(M.getContext()) {}

  /// \returns the bytes of the new table.
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
  void rewriteCallEdges();
  Value *rewriteLoad(const TableLoad &TL);

  TableInfo &T;
  const StringBlob &Blob;
  GlobalVariable *&SharedChars;
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
  /// The replacement of each anchor: a new phi or select, or the argument
  /// or call itself.
  DenseMap<Value *, Value *> NewAnchors;
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
  SmallVector<Constant *, 16> Elements;
  for (uint64_t E = 0; E < T.NumElements; ++E) {
    Constant *OldElement = T.Elements[E];
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
  if (!SharedChars) {
    SharedChars = new GlobalVariable(
        M, ArrayType::get(Type::getInt8Ty(Ctx), Blob.Bytes.size()),
        /*isConstant=*/true, GlobalValue::PrivateLinkage,
        ConstantDataArray::getString(Ctx, Blob.Bytes, /*AddNull=*/false),
        Name + ".chars", T.Table);
    SharedChars->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    SharedChars->setAlignment(Align(Blob.Alignment));
  }
  Chars = SharedChars;

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
    if (Scale.isZero())
      continue;
    Value *Term = Builder.CreateSExtOrTrunc(V, IndexTy);
    if (Scale.srem(T.Stride) == 0) {
      int64_t Elements = Scale.getSExtValue() / int64_t(T.Stride);
      if (Elements != 1)
        Term =
            Builder.CreateMul(Term, ConstantInt::get(IndexTy, Elements, true));
    } else {
      // The analysis proved V * Scale a multiple of the (power-of-two)
      // stride from its known low zero bits.
      if (!Scale.isOne())
        Term = Builder.CreateMul(
            Term, ConstantInt::get(IndexTy, Scale.getSExtValue(), true));
      Term = Builder.CreateAShr(Term, Log2_64(T.Stride), "", /*isExact=*/true);
    }
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
  if (isa<ConstantPointerNull>(Old)) {
    assert(NewInElement == 0 && "null is only ever an anchor's operand");
    return Old;
  }
  auto *OldGEP = dyn_cast<GetElementPtrInst>(Old);
  if (!OldGEP)
    return materialize(T.Addresses[Old], NewInElement, User);
  if (Value *New = Mapped.lookup({Old, NewInElement}))
    return New;
  const TableAddress &A = T.Addresses[Old];
  Value *New;
  if (NewInElement && !A.Variables.empty()) {
    // A field of a variable element: one element address serves the
    // element itself (a call argument, a return) and each of its fields.
    Value *Element = mapAddress(Old, 0, User);
    IRBuilder<> Builder(OldGEP);
    New = Builder.CreateGEP(
        Type::getInt8Ty(Ctx), Element,
        ConstantInt::get(DL.getIndexType(NewTable->getType()), NewInElement),
        "", A.InBounds ? GEPNoWrapFlags::inBounds() : GEPNoWrapFlags::none());
  } else {
    New = materialize(A, NewInElement, OldGEP);
  }
  Mapped[{Old, NewInElement}] = New;
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

// The attributes that describe the pointee of an old element address.
static AttributeMask getElementAttributes() {
  AttributeMask Mask;
  Mask.addAttribute(Attribute::Dereferenceable);
  Mask.addAttribute(Attribute::DereferenceableOrNull);
  Mask.addAttribute(Attribute::Alignment);
  Mask.addAttribute(Attribute::NoAlias);
  return Mask;
}

// Passes new-table pointers along the call edges the analysis followed:
// the actual arguments of the functions that receive derived pointers, and
// the return values of those that return them.
void TableRewriter::rewriteCallEdges() {
  AttributeMask Stale = getElementAttributes();
  for (Argument *Arg : T.Arguments) {
    Function &F = *Arg->getParent();
    unsigned ArgNo = Arg->getArgNo();
    F.removeParamAttrs(ArgNo, Stale);
    for (User *Caller : F.users()) {
      auto *Call = cast<CallBase>(Caller);
      Call->setArgOperand(ArgNo,
                          mapAddress(Call->getArgOperand(ArgNo), 0, Call));
      Call->removeParamAttrs(ArgNo, Stale);
    }
  }
  for (Function *F : T.Returning) {
    F->removeRetAttrs(Stale);
    for (Instruction &I : instructions(*F))
      if (auto *Ret = dyn_cast<ReturnInst>(&I))
        Ret->setOperand(0, mapAddress(Ret->getReturnValue(), 0, Ret));
  }
  for (CallBase *Call : T.Calls)
    Call->removeRetAttrs(Stale);
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
  // Arguments and calls stay; they will carry new-table pointers.
  for (Argument *Arg : T.Arguments)
    NewAnchors[Arg] = Arg;
  for (CallBase *Call : T.Calls)
    NewAnchors[Call] = Call;
  for (Instruction *Anchor : T.Anchors) {
    auto *New = cast<Instruction>(NewAnchors[Anchor]);
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
  rewriteCallEdges();

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

  // The old address computations now only feed each other; the calls that
  // were anchors stay.
  SmallVector<Instruction *, 16> Dead;
  for (auto &[V, Address] : T.Addresses)
    if (auto *I = dyn_cast<Instruction>(V); I && !isa<CallBase>(I))
      Dead.push_back(I);
  for (Instruction *I : Dead)
    I->replaceAllUsesWith(PoisonValue::get(I->getType()));
  for (Instruction *I : Dead)
    I->eraseFromParent();

  return DL.getTypeAllocSize(NewTable->getValueType());
}

namespace {

/// What the analysis concluded about one global.
struct Analysis {
  /// A string table that some code reads (everything else is not reported).
  bool IsCandidate = false;
  /// Remarks about the table as a whole are attached here.
  const Instruction *FirstUser = nullptr;
  /// Why the table is left alone, if it is.
  std::optional<Verdict> Refused;
};

/// A table the analysis accepted, as the blob grouping sees it.
struct BlobMember {
  GlobalVariable *Table = nullptr;
  /// Every non-null string entry: the string object and the offset in it.
  SmallVector<StringTarget, 16> Entries;
  bool HasNull = false;
  /// The offset width with a blob of its own; a group never widens it.
  unsigned OwnBits = 0;
};

/// Tables whose strings share one blob, and the blob.
struct BlobGroup {
  SmallVector<BlobMember, 4> Members;
  /// Distinct string objects, in order of first occurrence.
  SmallVector<GlobalVariable *, 16> Objects;
  DenseMap<GlobalVariable *, unsigned> ObjectIndex;
  StringBlob Blob;
  /// Created when the first member is rewritten.
  GlobalVariable *Chars = nullptr;
};

} // namespace

static Analysis analyzeTable(GlobalVariable &GV,
                             const SmallPtrSetImpl<GlobalValue *> &Used,
                             TableInfo &T) {
  Analysis A;
  const DataLayout &DL = GV.getParent()->getDataLayout();
  T.Table = &GV;
  std::optional<bool> Qualifies = describeElements(T, DL);
  if (!Qualifies)
    return A;
  // A table no code reads is left to GlobalDCE.
  A.FirstUser = findFirstInstructionUser(&GV);
  if (!A.FirstUser)
    return A;
  A.IsCandidate = true;
  if (std::optional<Refusal> R = checkTableProperties(GV, Used))
    A.Refused = Verdict{*R};
  else if (!*Qualifies)
    A.Refused = Verdict{T.HasSignificantString ? Refusal::SignificantAddress
                                               : Refusal::NotAllStrings};
  else
    A.Refused = analyzeUses(T, DL);
  return A;
}

// The string objects of \p Objects, their bytes and alignments, for
// buildStringBlob. Objects keep their alignment: a `static const char
// name[]` of 16 bytes or more is 16-aligned on x86-64, and code may assume
// it (__builtin_assume_aligned) after reading the pointer from the table.
static StringBlob buildBlob(ArrayRef<GlobalVariable *> Objects,
                            const DataLayout &DL) {
  SmallVector<std::string, 16> Bytes;
  SmallVector<uint64_t, 16> Alignments;
  for (GlobalVariable *String : Objects) {
    Bytes.push_back(getStringBytes(*String));
    Alignments.push_back(DL.getValueOrABITypeAlignment(String->getAlign(),
                                                       String->getValueType())
                             .value());
  }
  SmallVector<StringRef, 16> Refs(Bytes.begin(), Bytes.end());
  return kiln::buildStringBlob(Refs, Alignments);
}

// \returns the largest entry offset of \p Member in the blob of \p Group.
static uint64_t getMaxOffset(const BlobMember &Member, const BlobGroup &Group) {
  uint64_t Max = 0;
  for (const StringTarget &Entry : Member.Entries)
    Max = std::max(Max,
                   Group.Blob.Offsets[Group.ObjectIndex.lookup(Entry.String)] +
                       Entry.Offset);
  return Max;
}

// Adds \p Member to \p Group if every member, the new one included, keeps
// the offset width it has with a blob of its own: sharing may only save
// bytes (identical literals of different tables stored once), never widen
// a table. \returns whether it was added.
static bool tryAddToGroup(BlobGroup &Group, const BlobMember &Member,
                          const DataLayout &DL) {
  BlobGroup Merged = Group;
  for (const StringTarget &Entry : Member.Entries)
    if (Merged.ObjectIndex.try_emplace(Entry.String, Merged.Objects.size())
            .second)
      Merged.Objects.push_back(Entry.String);
  Merged.Blob = buildBlob(Merged.Objects, DL);
  Merged.Members.push_back(Member);
  for (const BlobMember &M : Merged.Members)
    if (kiln::getOffsetBitWidth(getMaxOffset(M, Merged), M.HasNull) > M.OwnBits)
      return false;
  Group = std::move(Merged);
  return true;
}

// Describes a table the analysis accepted for grouping; OwnBits stays 0 if
// its strings do not fit 32-bit offsets even alone.
static BlobMember describeMember(const TableInfo &T, const DataLayout &DL) {
  BlobMember Member;
  Member.Table = T.Table;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringTarget> &Entry : Row) {
      if (Entry)
        Member.Entries.push_back(*Entry);
      else
        Member.HasNull = true;
    }
  BlobGroup Alone;
  Alone.Members.push_back(Member);
  for (const StringTarget &Entry : Member.Entries)
    if (Alone.ObjectIndex.try_emplace(Entry.String, Alone.Objects.size())
            .second)
      Alone.Objects.push_back(Entry.String);
  Alone.Blob = buildBlob(Alone.Objects, DL);
  Member.OwnBits =
      kiln::getOffsetBitWidth(getMaxOffset(Member, Alone), Member.HasNull);
  return Member;
}

// Emits the missed remark of a table left alone.
static void reportRefusal(GlobalVariable &GV, const Analysis &A,
                          FunctionAnalysisManager &FAM) {
  ++NumTablesRefused;
  Refusal R = A.Refused->Reason;
  const Instruction *At = A.Refused->At ? A.Refused->At : A.FirstUser;
  const Function *Through = A.Refused->Through;
  LLVM_DEBUG(dbgs() << "kiln-strtab: " << GV.getName()
                    << " refused: " << getRemarkName(R) << '\n');
  OptimizationRemarkEmitter &ORE =
      FAM.getResult<OptimizationRemarkEmitterAnalysis>(
          *const_cast<Function *>(At->getFunction()));
  ORE.emit([&] {
    OptimizationRemarkMissed Remark(DEBUG_TYPE, getRemarkName(R), At);
    Remark << "string table " << ore::NV("Table", GV.getName())
           << " not lowered: " << ore::NV("Reason", getRefusalText(R));
    if (Through)
      Remark << " (" << ore::NV("Function", Through->getName()) << ")";
    return Remark;
  });
}

// Lowers the accepted table \p T into the blob of \p Group, with its remark.
static bool lowerTable(TableInfo &T, const Analysis &A, BlobGroup &Group,
                       FunctionAnalysisManager &FAM) {
  GlobalVariable &GV = *T.Table;
  const DataLayout &DL = GV.getParent()->getDataLayout();
  bool HasNull = any_of(
      T.Fields, [](const TableField &F) { return F.IsString && F.HasNull; });
  auto GetOffset = [&](const StringTarget &Entry) {
    return Group.Blob.Offsets[Group.ObjectIndex.lookup(Entry.String)] +
           Entry.Offset;
  };
  uint64_t MaxOffset = 0;
  unsigned NumStrings = 0;
  uint64_t OldStringBytes = 0;
  SmallPtrSet<GlobalVariable *, 16> Counted;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringTarget> &Entry : Row) {
      if (!Entry)
        continue;
      ++NumStrings;
      if (Counted.insert(Entry->String).second)
        OldStringBytes += getStringBytes(*Entry->String).size();
      MaxOffset = std::max(MaxOffset, GetOffset(*Entry));
    }
  unsigned OffsetBits = kiln::getOffsetBitWidth(MaxOffset, HasNull);
  if (!OffsetBits) {
    Analysis TooLarge = A;
    TooLarge.Refused = Verdict{Refusal::TooLarge};
    reportRefusal(GV, TooLarge, FAM);
    return false;
  }
  uint64_t NullMarker = maskTrailingOnes<uint64_t>(OffsetBits);
  std::vector<uint64_t> EntryOffsets;
  for (const auto &Row : T.Entries)
    for (const std::optional<StringTarget> &Entry : Row)
      EntryOffsets.push_back(Entry ? GetOffset(*Entry) : NullMarker);

  uint64_t OldBytes = DL.getTypeAllocSize(GV.getValueType()) + OldStringBytes;
  std::string TableName = GV.getName().str();
  Function &RemarkFunction =
      *const_cast<Function *>(A.FirstUser->getFunction());
  DebugLoc RemarkLoc = A.FirstUser->getDebugLoc();
  const BasicBlock *RemarkBlock = A.FirstUser->getParent();

  // The first member rewritten creates the blob and counts its bytes.
  bool CreatesBlob = !Group.Chars;
  TableRewriter Rewriter(T, Group.Blob, Group.Chars, EntryOffsets, OffsetBits);
  uint64_t NewBytes = Rewriter.run();
  if (CreatesBlob)
    NewBytes += Group.Blob.Bytes.size();
  ++NumTablesLowered;
  NumRelocationsRemoved += NumStrings;
  if (OldBytes > NewBytes)
    NumBytesSaved += OldBytes - NewBytes;
  LLVM_DEBUG(dbgs() << "kiln-strtab: " << TableName << " lowered, " << OldBytes
                    << " -> " << NewBytes << " bytes\n");

  // The table is dead now; a DIGlobalVariable describing it stays in its
  // compile unit as optimized out. Its strings are dealt with once every
  // table is lowered (shareStrings).
  GV.removeDeadConstantUsers();
  if (GV.use_empty())
    GV.eraseFromParent();

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

// Once the tables are lowered, a string object of a blob that other code
// still uses (a printf of the same literal, a table left alone) would be
// stored twice: its uses move into the blob, which holds the same bytes at
// an offset aligned as the object was. The object is unnamed_addr (its
// address is not significant) and module-local, and the blob copies it
// whole, so every access inside it stays inside the same bytes. Objects in
// llvm.used or a comdat stay.
static void shareStrings(MutableArrayRef<BlobGroup> Groups,
                         const SmallPtrSetImpl<GlobalValue *> &Used) {
  SmallPtrSet<GlobalVariable *, 32> Done;
  for (BlobGroup &Group : Groups) {
    if (!Group.Chars)
      continue;
    for (unsigned I = 0; I < Group.Objects.size(); ++I) {
      GlobalVariable *String = Group.Objects[I];
      if (!Done.insert(String).second)
        continue;
      String->removeDeadConstantUsers();
      if (!String->use_empty() && !Used.contains(String) &&
          !String->hasComdat())
        String->replaceAllUsesWith(ConstantExpr::getInBoundsGetElementPtr(
            Type::getInt8Ty(String->getContext()), Group.Chars,
            ConstantInt::get(Type::getInt64Ty(String->getContext()),
                             Group.Blob.Offsets[I])));
      if (String->use_empty())
        String->eraseFromParent();
    }
  }
}

PreservedAnalyses
kiln::StringTableLoweringPass::run(Module &M, ModuleAnalysisManager &MAM) {
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  const DataLayout &DL = M.getDataLayout();
  SmallVector<GlobalValue *, 8> UsedList;
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/false);
  collectUsedGlobalVariables(M, UsedList, /*CompilerUsed=*/true);
  SmallPtrSet<GlobalValue *, 8> Used(UsedList.begin(), UsedList.end());

  // Module order; lowering adds globals before the table and may erase the
  // table and strings after it, so collect first.
  // Only (nested) arrays of pointers or structs are candidates, so the
  // strings a lowering erases (arrays of i8) are never among them.
  SmallVector<GlobalVariable *, 16> Candidates;
  for (GlobalVariable &GV : M.globals()) {
    Type *ElementTy = getFlatElementType(GV.getValueType());
    if (isa<ArrayType>(GV.getValueType()) && GV.hasInitializer() &&
        (ElementTy->isPointerTy() || ElementTy->isStructTy()))
      Candidates.push_back(&GV);
  }

  // First, which tables qualify, and which share a blob: in module order,
  // each joins the current group while no member's offsets widen.
  SmallVector<BlobGroup, 4> Groups;
  DenseMap<GlobalVariable *, unsigned> GroupOf;
  for (GlobalVariable *GV : Candidates) {
    TableInfo T;
    Analysis A = analyzeTable(*GV, Used, T);
    if (!A.IsCandidate || A.Refused)
      continue;
    BlobMember Member = describeMember(T, DL);
    if (!Member.OwnBits)
      continue; // Refused as TooLarge below.
    if (Groups.empty() || !tryAddToGroup(Groups.back(), Member, DL)) {
      Groups.emplace_back();
      tryAddToGroup(Groups.back(), Member, DL);
    }
    GroupOf[GV] = Groups.size() - 1;
  }

  // Then each table is analysed again and rewritten: rewriting one table
  // replaces instructions another's analysis may have recorded (a field
  // loaded from one table indexing another).
  bool Changed = false;
  for (GlobalVariable *GV : Candidates) {
    TableInfo T;
    Analysis A = analyzeTable(*GV, Used, T);
    if (!A.IsCandidate)
      continue;
    if (!A.Refused && !GroupOf.count(GV))
      A.Refused = Verdict{Refusal::TooLarge};
    if (A.Refused) {
      reportRefusal(*GV, A, FAM);
      continue;
    }
    Changed |= lowerTable(T, A, Groups[GroupOf[GV]], FAM);
  }
  shareStrings(Groups, Used);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA;
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

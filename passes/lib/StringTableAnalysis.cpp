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
/// The no-wrap rule. The rewrite computes the new address from the old byte
/// offset's terms: Constant + sum(V * Scale) becomes
/// NewTable + (floor(Constant / S) + sum(V * Scale / S)) * S' (+ in-field
/// part), with S the old and S' the new element size, in the index type's
/// two's-complement arithmetic. That is exact only if the old offset, as
/// computed, equals the mathematical one. In Alive2 terms, for
///   src: %p = getelementptr ptr, ptr @t, i64 %i ; load ptr, ptr %p
///   tgt: %q = getelementptr i8, ptr @t.offsets, i64 %i ; load i8, ptr %q
/// with S = 8 and S' = 1, %i = 2^61 + 3 is a counterexample: src computes
/// 8 * %i = 2^64 + 24 = 24 (mod 2^64) and reads entry 3, while tgt reads
/// byte 2^61 + 3 of a 4-byte table (undefined behaviour). 8 * %i mod 2^64
/// determines %i only mod 2^61, so no rewrite of a wrapping offset can be
/// right.
///
/// With `inbounds` (which implies `nusw`), LangRef makes the GEP poison
/// unless every index times its type size and every addition of the offset
/// to the base is free of signed wrap, and the result is in bounds of @t.
/// So in any execution where the load is defined, 0 <= offset <= sizeof(@t)
/// holds over the mathematical integers, every term V * Scale is exact and
/// a multiple of S (checked: isWholeElements), each V * Scale / S is exact,
/// their sum is the entry index k in [0, N), and tgt computes k * S' + f,
/// in bounds of the new table: src and tgt read the same entry. `nusw` or
/// `nuw` alone give the same exactness (the offset is computed without
/// wrap; a load outside @t is undefined in src anyway). Constant terms
/// never matter: they are folded modulo 2^64 into Constant, which is the
/// address src really uses. A term of scale +-1 cannot wrap either (there is
/// no multiplication, and the single addition lands in @t). Without a flag,
/// a variable term is accepted only if its value is provably small
/// (ComputeNumSignBits): |V| * |Scale| summed over the GEP's terms below
/// 2^61, with every earlier GEP inbounds, so that nothing wraps. Anything
/// else is refused as `MayWrap`.
///
/// Through functions. A derived pointer passed to a function, or returned
/// from one, is followed when the function is module-local, not variadic,
/// and every use of it is a direct call with its own function type: its
/// address is not taken, so every caller is in the module and seen here.
/// The argument (or the result of every call) is then an anchor like a phi,
/// whose incoming values are the actual arguments at all call sites (or the
/// values of all returns); each must be an element-aligned derived pointer
/// or null, else `ForeignPointer`. The rewrite keeps every signature and
/// passes new-table pointers instead. With m the map of
/// StringTableLowering.cpp extended by m(null) = null:
///   src: define internal ptr @find(ptr %lo) { %p = gep inbounds %S, ptr %lo,
///          i64 %k ; ret ptr %p }
///        %e = call ptr @find(ptr @t) ; %f = gep inbounds i8, ptr %e, i64 8
///        %v = load i32, ptr %f
///   tgt: @find's %p = gep inbounds %S', ptr %lo, i64 %k ; same ret
///        %e = call ptr @find(ptr @t.offsets) ; %f = gep inbounds i8, ptr %e,
///          i64 4 (the field's new offset) ; %v = load i32, ptr %f
/// Call edges are the only way a value reaches an argument or a call's
/// result (no caller is unknown), and each carries m(src value), so by
/// induction over the execution every anchor holds m of what it holds in
/// src, as for a phi; loads and GEPs from an anchor are the single-function
/// case above. No code outside the module can observe the new address: the
/// functions cannot be reached from it, and every other use is understood.
/// The attributes that describe the old element (dereferenceable,
/// dereferenceable_or_null, align, noalias) are dropped; nonnull and noundef
/// stay true, since m preserves null and poison.
///
/// Null. A phi, select, argument or return may also receive null. A load
/// through an address derived from null is undefined in src, so tgt may do
/// anything there. A compare with null, or with a pointer whose anchor may
/// hold null, needs m to keep equality and unsigned order between null and
/// table pointers. It does on {null} + [t, t + sizeof(t)]: null is below
/// every object's address, and m maps that set into {null} +
/// [t', t' + sizeof(t')] increasingly. A pointer is in that set (or poison)
/// when every GEP from its anchor to it is inbounds (on null, a nonzero
/// inbounds offset is poison; on an object, it stays in bounds or is poison)
/// and its anchor only ever receives null or such pointers, a greatest
/// fixed point over the anchors; such a compare is refused as
/// `IdentityCompare` otherwise.
///
//===----------------------------------------------------------------------===//

#include "StringTableAnalysis.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
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
  case Refusal::MayWrap:
    return "MayWrap";
  case Refusal::SignificantAddress:
    return "SignificantAddress";
  case Refusal::UnknownCallee:
    return "UnknownCallee";
  case Refusal::IndirectCall:
    return "IndirectCall";
  case Refusal::ExternalFunction:
    return "ExternalFunction";
  case Refusal::AddressTaken:
    return "AddressTaken";
  case Refusal::VarArgs:
    return "VarArgs";
  case Refusal::ForeignPointer:
    return "ForeignPointer";
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
    return "its address escapes (ptrtoint, stored, in an initializer or an "
           "operand bundle)";
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
  case Refusal::MayWrap:
    return "its address arithmetic may wrap (a getelementptr without "
           "inbounds, nusw or nuw scales an index not known to be small), "
           "so its offsets cannot be rewritten exactly";
  case Refusal::SignificantAddress:
    return "an entry points to a string whose address is significant (a "
           "named constant without unnamed_addr), which cannot move";
  case Refusal::UnknownCallee:
    return "an address into it is passed to a function the module does not "
           "define";
  case Refusal::IndirectCall:
    return "an address into it is passed through an indirect call, or a "
           "function it reaches is called with another function type";
  case Refusal::ExternalFunction:
    return "an address into it is passed to or returned from a function that "
           "is not local to the module (its other callers are unknown)";
  case Refusal::AddressTaken:
    return "an address into it is passed to or returned from a function "
           "whose address is taken (its other callers are unknown)";
  case Refusal::VarArgs:
    return "an address into it is passed to a variadic function";
  case Refusal::ForeignPointer:
    return "an argument or return value that carries addresses into it also "
           "carries a pointer from elsewhere";
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

// Returns whether V points into a module-local constant array of i8 that
// getStringTarget() rejects only because its address is significant.
static bool isSignificantString(Constant *V, const DataLayout &DL) {
  APInt Offset(DL.getIndexTypeSizeInBits(V->getType()), 0);
  auto *Base = dyn_cast<GlobalVariable>(
      V->stripAndAccumulateConstantOffsets(DL, Offset,
                                           /*AllowNonInbounds=*/true));
  if (!Base || Base->hasGlobalUnnamedAddr() || !Base->isConstant() ||
      !Base->hasDefinitiveInitializer() || !Base->hasLocalLinkage())
    return false;
  auto *ArrayTy = dyn_cast<ArrayType>(Base->getValueType());
  return ArrayTy && ArrayTy->getElementType()->isIntegerTy(8);
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
        // A string in all but its significant address: still a string
        // table, refused with its own reason.
        if (isSignificantString(Value, DL)) {
          SawString = true;
          T.HasSignificantString = true;
        }
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
  // Through constants and the globals whose initializers hold them: a table
  // whose address is only in another table (a switch table of element
  // addresses) is still read by code, and its refusal must be reported.
  SmallVector<const Value *, 8> Worklist = {V};
  SmallPtrSet<const Value *, 8> Visited;
  while (!Worklist.empty()) {
    const Value *Current = Worklist.pop_back_val();
    for (const User *U : Current->users()) {
      if (const auto *I = dyn_cast<Instruction>(U))
        return I;
      if ((isa<ConstantExpr>(U) || isa<ConstantAggregate>(U) ||
           isa<GlobalVariable>(U)) &&
          Visited.insert(U).second)
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

// The no-wrap rule (file comment): \returns whether the byte offset that
// GEP adds, Variables times their scales, is computed without wrap. \p
// BaseInBounds says every earlier GEP from the anchor was inbounds.
static bool hasExactOffset(const GEPOperator &GEP,
                           const SmallMapVector<Value *, APInt, 4> &Variables,
                           bool BaseInBounds, const DataLayout &DL) {
  GEPNoWrapFlags Flags = GEP.getNoWrapFlags();
  if (Flags.hasNoUnsignedSignedWrap() || Flags.hasNoUnsignedWrap())
    return true;
  if (!BaseInBounds)
    return false;
  if (Variables.size() == 1 && Variables.front().second.abs().isOne())
    return true;
  // Every |V| * |Scale| bounded, and their sum below 2^61.
  uint64_t Bound = 0;
  for (const auto &[V, Scale] : Variables) {
    unsigned Bits = V->getType()->getScalarSizeInBits();
    unsigned SignBits = ComputeNumSignBits(V, DL);
    // V lies in [-2^(Bits - SignBits), 2^(Bits - SignBits)).
    unsigned Magnitude = Bits - SignBits;
    if (Magnitude >= 61 || Scale.abs().getActiveBits() > 62)
      return false;
    bool Overflow = false;
    Bound = SaturatingMultiplyAdd(uint64_t(1) << Magnitude,
                                  Scale.abs().getZExtValue(), Bound, &Overflow);
    if (Overflow || Bound >= (uint64_t(1) << 61))
      return false;
  }
  return true;
}

// A function can carry derived pointers when every caller is known: defined
// here, local, not variadic, and only ever the callee of direct calls of its
// own type. \p At is the call or return that reaches it.
static std::optional<Verdict> checkKnownCallers(const Function &F,
                                                const Instruction *At) {
  if (F.isDeclaration())
    return Verdict{Refusal::UnknownCallee, At, &F};
  if (!F.hasLocalLinkage())
    return Verdict{Refusal::ExternalFunction, At, &F};
  if (F.isVarArg())
    return Verdict{Refusal::VarArgs, At, &F};
  for (const Use &U : F.uses()) {
    const auto *Call = dyn_cast<CallBase>(U.getUser());
    if (!Call || !Call->isCallee(&U)) {
      const auto *I = dyn_cast<Instruction>(U.getUser());
      return Verdict{Refusal::AddressTaken, I ? I : At, &F};
    }
    if (Call->getFunctionType() != F.getFunctionType())
      return Verdict{Refusal::IndirectCall, Call, &F};
  }
  return std::nullopt;
}

// An argument whose pointee is copied, allocated or otherwise given meaning
// by its attributes is not a plain pointer the rewrite can swap.
static bool isPlainPointerArgument(const CallBase &Call, unsigned ArgNo) {
  if (Call.isPassPointeeByValueArgument(ArgNo) ||
      Call.paramHasAttr(ArgNo, Attribute::StructRet) ||
      Call.paramHasAttr(ArgNo, Attribute::ByRef) ||
      Call.paramHasAttr(ArgNo, Attribute::Nest) ||
      Call.paramHasAttr(ArgNo, Attribute::SwiftSelf) ||
      Call.paramHasAttr(ArgNo, Attribute::SwiftError))
    return false;
  return true;
}

// Adds \p Anchor (an argument or a call) as an anchor of \p T.
static void addAnchor(TableInfo &T, Value *Anchor, unsigned IndexBits,
                      SmallVectorImpl<Value *> &Worklist) {
  if (T.Addresses.insert({Anchor, {Anchor, APInt(IndexBits, 0), {}, true}})
          .second)
    Worklist.push_back(Anchor);
}

// Follows a derived pointer passed as an argument of \p Call (use \p U).
static std::optional<Verdict>
followArgument(TableInfo &T, CallBase &Call, const Use &U, unsigned IndexBits,
               SmallVectorImpl<Value *> &Worklist) {
  if (Call.isCallee(&U))
    return Verdict{Refusal::UnknownUse, &Call};
  if (Call.isBundleOperand(&U))
    return Verdict{Refusal::Escape, &Call};
  Function *Callee = Call.getCalledFunction();
  if (!Callee) {
    // A call of a function with another type is a direct call in name only.
    const auto *Named = dyn_cast<Function>(Call.getCalledOperand());
    return Verdict{Refusal::IndirectCall, &Call, Named};
  }
  if (std::optional<Verdict> V = checkKnownCallers(*Callee, &Call))
    return V;
  unsigned ArgNo = Call.getArgOperandNo(&U);
  for (const User *Caller : Callee->users())
    if (!isPlainPointerArgument(*cast<CallBase>(Caller), ArgNo))
      return Verdict{Refusal::UnknownUse, cast<CallBase>(Caller), Callee};
  Argument *Arg = Callee->getArg(ArgNo);
  if (!T.Addresses.contains(Arg))
    T.Arguments.push_back(Arg);
  addAnchor(T, Arg, IndexBits, Worklist);
  return std::nullopt;
}

// Follows a derived pointer returned by \p Ret into every call of its
// function.
static std::optional<Verdict> followReturn(TableInfo &T, ReturnInst &Ret,
                                           unsigned IndexBits,
                                           SmallVectorImpl<Value *> &Worklist) {
  Function &F = *Ret.getFunction();
  if (std::optional<Verdict> V = checkKnownCallers(F, &Ret))
    return V;
  if (is_contained(T.Returning, &F))
    return std::nullopt;
  T.Returning.push_back(&F);
  for (User *Caller : F.users()) {
    auto *Call = cast<CallBase>(Caller);
    T.Calls.push_back(Call);
    addAnchor(T, Call, IndexBits, Worklist);
  }
  return std::nullopt;
}

// One value reaching an anchor and the instruction it reaches it at.
using AnchorOperand = std::pair<Value *, const Instruction *>;

// The values \p Anchor can hold: a phi's incoming values, a select's
// operands, an argument's actual at every call site, or every value its
// called function returns.
static void getAnchorOperands(Value *Anchor,
                              SmallVectorImpl<AnchorOperand> &Operands) {
  if (auto *Phi = dyn_cast<PHINode>(Anchor)) {
    for (Value *V : Phi->incoming_values())
      Operands.push_back({V, Phi});
    return;
  }
  if (auto *Select = dyn_cast<SelectInst>(Anchor)) {
    Operands.push_back({Select->getTrueValue(), Select});
    Operands.push_back({Select->getFalseValue(), Select});
    return;
  }
  if (auto *Arg = dyn_cast<Argument>(Anchor)) {
    for (User *Caller : Arg->getParent()->users()) {
      auto *Call = cast<CallBase>(Caller);
      Operands.push_back({Call->getArgOperand(Arg->getArgNo()), Call});
    }
    return;
  }
  Function *Callee = cast<CallBase>(Anchor)->getCalledFunction();
  for (Instruction &I : instructions(*Callee))
    if (auto *Ret = dyn_cast<ReturnInst>(&I))
      Operands.push_back({Ret->getReturnValue(), Ret});
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
        if (!Variables.empty() &&
            !hasExactOffset(*GEP, Variables, Form.InBounds, DL))
          return Verdict{Refusal::MayWrap, I};
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
      if (auto *Call = dyn_cast<CallBase>(Usr)) {
        if (std::optional<Verdict> V =
                followArgument(T, *Call, U, IndexBits, Worklist))
          return V;
        continue;
      }
      if (auto *Ret = dyn_cast<ReturnInst>(Usr)) {
        if (std::optional<Verdict> V =
                followReturn(T, *Ret, IndexBits, Worklist))
          return V;
        continue;
      }
      if (isa<PtrToIntOperator>(Usr) || isa<GlobalValue>(Usr) ||
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

  // Anchors: every value reaching one must be an element-aligned pointer
  // into the table, or null, or the anchor may hold anything.
  SmallVector<Value *, 8> AllAnchors(T.Anchors.begin(), T.Anchors.end());
  AllAnchors.append(T.Arguments.begin(), T.Arguments.end());
  AllAnchors.append(T.Calls.begin(), T.Calls.end());
  MapVector<Value *, SmallVector<AnchorOperand, 4>> AnchorOperands;
  for (Value *Anchor : AllAnchors) {
    SmallVector<AnchorOperand, 4> &Operands = AnchorOperands[Anchor];
    getAnchorOperands(Anchor, Operands);
    for (auto [V, Site] : Operands) {
      if (isa<ConstantPointerNull>(V))
        continue;
      auto *It = T.Addresses.find(V);
      if (It != T.Addresses.end() && isElementAligned(It->second, T.Stride, DL))
        continue;
      if (isa<PHINode>(Anchor) || isa<SelectInst>(Anchor))
        return Verdict{Refusal::UnknownUse, cast<Instruction>(Anchor)};
      const Function *Through =
          isa<Argument>(Anchor) ? cast<Argument>(Anchor)->getParent()
                                : cast<CallBase>(Anchor)->getCalledFunction();
      return Verdict{Refusal::ForeignPointer, Site, Through};
    }
  }

  // Which anchors may hold null (a least fixed point), and which hold only
  // null or pointers inside the table (a greatest one: the file comment).
  SmallPtrSet<Value *, 8> Nullable, Inexact;
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (auto &[Anchor, Operands] : AnchorOperands) {
      for (auto [V, Site] : Operands) {
        bool IsNull = isa<ConstantPointerNull>(V);
        const TableAddress *A = IsNull ? nullptr : &T.Addresses[V];
        if (!Nullable.contains(Anchor) &&
            (IsNull || Nullable.contains(A->Anchor)))
          Changed |= Nullable.insert(Anchor).second;
        if (!Inexact.contains(Anchor) && !IsNull &&
            (!A->InBounds || Inexact.contains(A->Anchor)))
          Changed |= Inexact.insert(Anchor).second;
      }
    }
  }

  // Compares between two element-aligned pointers into the table survive the
  // increasing mapping; so do compares with null, when the pointers are
  // inside the table or null. Anything else compares identities.
  for (ICmpInst *Cmp : T.Compares) {
    if (Cmp->isSigned())
      return Verdict{Refusal::IdentityCompare, Cmp};
    bool WithNull = false;
    SmallVector<const TableAddress *, 2> Sides;
    for (Value *Operand : Cmp->operands()) {
      if (isa<ConstantPointerNull>(Operand)) {
        WithNull = true;
        continue;
      }
      auto *It = T.Addresses.find(Operand);
      if (It == T.Addresses.end() ||
          !isElementAligned(It->second, T.Stride, DL))
        return Verdict{Refusal::IdentityCompare, Cmp};
      Sides.push_back(&It->second);
      WithNull |= Nullable.contains(It->second.Anchor);
    }
    if (WithNull && any_of(Sides, [&](const TableAddress *A) {
          return !A->InBounds || Inexact.contains(A->Anchor);
        }))
      return Verdict{Refusal::IdentityCompare, Cmp};
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

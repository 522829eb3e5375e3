//===- StringTableFuzzer.cpp - Fuzz kiln-strtab on generated IR -----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Decodes the bytes into a small recipe of a string table and the code
/// that reads it, builds the module with IRBuilder, and runs `kiln-strtab`
/// through the plugin's entry point (registerKilnPassBuilderCallbacks and
/// the pipeline text `kiln-strtab`, as opt and clang reach it). What must
/// hold:
///  - the module still verifies;
///  - where the module is runnable (no call out of it, every index in
///    bounds for the arguments it is run with), `@run` computes the same
///    value before and after the pass, in LLVM's interpreter.
///
/// The recipe covers what the pass decides on: the table's element (a
/// string pointer, or a struct with one), its entries (shared strings, null
/// entries, strings whose address is significant), its linkage, and per
/// reader the index expression (variable, masked, remainder, constant, a
/// narrow index, an index that wraps), the getelementptr's form and flags
/// (inbounds, nusw, nuw, none; array-typed, element-typed, byte offset),
/// and what is done with the loaded string (its first byte, its length,
/// compared with a string's address, stored and loaded back, passed out of
/// the module, loaded volatile).
///
//===----------------------------------------------------------------------===//

#include "kiln/Passes/PassRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/ExecutionEngine.h"
#include "llvm/ExecutionEngine/GenericValue.h"
#include "llvm/ExecutionEngine/Interpreter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

using namespace llvm;

namespace {

/// How a reader computes the index into the table from its argument %i,
/// which `@run` passes from 0 to the number of entries minus one.
enum class IndexShape {
  Argument,  ///< %i itself.
  Masked,    ///< %i & (a power of two minus one, below the entries).
  Remainder, ///< %i urem the number of entries.
  Constant,  ///< An entry's index, ignoring %i.
  Narrow,    ///< trunc %i to i32: a getelementptr index of type i32.
  Wrapping,  ///< %i + 2^61: in a non-inbounds getelementptr, wraps around.
  Last = Wrapping
};

/// The getelementptr a reader addresses its entry with.
enum class AddressForm {
  ArrayTyped,   ///< gep [N x T], @t, 0, idx(, field)
  ElementTyped, ///< gep T, @t, idx(, field)
  ByteOffset,   ///< gep i8, @t, idx * sizeof(T) (+ field offset)
  Last = ByteOffset
};

/// What a reader does with the string it loaded.
enum class StringUse {
  FirstByte,    ///< Returns its first byte.
  Length,       ///< Returns its length (a loop in the module).
  CompareFirst, ///< Returns whether it is the first string (by address).
  StoreAndLoad, ///< Stores it to a global, loads it back, first byte.
  PassOut,      ///< Passes it to a function outside the module.
  VolatileLoad, ///< Loads the entry volatile, then its first byte.
  Last = VolatileLoad
};

struct Reader {
  IndexShape Index;
  AddressForm Form;
  GEPNoWrapFlags Flags;
  StringUse Use;
  /// For struct tables: also add the entry's integer field.
  bool ReadsField;
};

struct Recipe {
  std::vector<std::string> Strings;
  /// Strings whose address is significant (no unnamed_addr).
  std::vector<bool> Significant;
  /// Per entry: the index of its string, or none for a null entry.
  std::vector<std::optional<unsigned>> Entries;
  bool StructTable = false;
  /// In a struct table: the integer field comes first.
  bool FieldFirst = false;
  bool InternalTable = true;
  std::vector<Reader> Readers;
};

} // namespace

template <typename EnumT> static EnumT pick(FuzzedDataProvider &Data) {
  return static_cast<EnumT>(
      Data.ConsumeIntegralInRange<unsigned>(0, unsigned(EnumT::Last)));
}

static GEPNoWrapFlags pickFlags(FuzzedDataProvider &Data) {
  switch (Data.ConsumeIntegralInRange<unsigned>(0, 3)) {
  case 0:
    return GEPNoWrapFlags::inBounds();
  case 1:
    return GEPNoWrapFlags::noUnsignedSignedWrap();
  case 2:
    return GEPNoWrapFlags::noUnsignedWrap();
  default:
    return GEPNoWrapFlags::none();
  }
}

static Recipe decodeRecipe(FuzzedDataProvider &Data) {
  Recipe R;
  unsigned NumStrings = Data.ConsumeIntegralInRange<unsigned>(1, 6);
  for (unsigned I = 0; I < NumStrings; ++I) {
    std::string S = Data.ConsumeRandomLengthString(8);
    // No NUL inside: each string is one C string.
    for (char &C : S)
      C = C ? C : 'x';
    R.Strings.push_back(S);
    R.Significant.push_back(Data.ConsumeIntegralInRange<unsigned>(0, 7) == 0);
  }
  unsigned NumEntries = Data.ConsumeIntegralInRange<unsigned>(1, 8);
  for (unsigned I = 0; I < NumEntries; ++I) {
    if (Data.ConsumeIntegralInRange<unsigned>(0, 7) == 0)
      R.Entries.push_back(std::nullopt);
    else
      R.Entries.push_back(
          Data.ConsumeIntegralInRange<unsigned>(0, NumStrings - 1));
  }
  R.StructTable = Data.ConsumeBool();
  R.FieldFirst = Data.ConsumeBool();
  R.InternalTable = Data.ConsumeIntegralInRange<unsigned>(0, 7) != 0;
  unsigned NumReaders = Data.ConsumeIntegralInRange<unsigned>(1, 4);
  for (unsigned I = 0; I < NumReaders; ++I) {
    Reader Rd;
    Rd.Index = pick<IndexShape>(Data);
    Rd.Form = pick<AddressForm>(Data);
    Rd.Flags = pickFlags(Data);
    Rd.Use = pick<StringUse>(Data);
    Rd.ReadsField = Data.ConsumeBool();
    R.Readers.push_back(Rd);
  }
  return R;
}

namespace {
/// Builds the module of a recipe, and says whether it can be run.
class ModuleBuilder {
public:
  ModuleBuilder(const Recipe &R, LLVMContext &Context)
      : R(R), Context(Context), M(std::make_unique<Module>("fuzz", Context)),
        B(Context), I8(B.getInt8Ty()), I32(B.getInt32Ty()), I64(B.getInt64Ty()),
        Ptr(B.getPtrTy()) {}

  std::unique_ptr<Module> build();
  bool isRunnable() const { return Runnable; }

private:
  void buildTable();
  Function *buildLength();
  Function *buildReader(const Reader &Rd, unsigned Number);
  Value *buildIndex(const Reader &Rd, Value *Arg);
  Value *buildAddress(const Reader &Rd, Value *Index, unsigned Field);
  unsigned stringField() const { return R.FieldFirst ? 1 : 0; }
  unsigned intField() const { return R.FieldFirst ? 0 : 1; }

  const Recipe &R;
  LLVMContext &Context;
  std::unique_ptr<Module> M;
  IRBuilder<> B;
  Type *I8, *I32, *I64, *Ptr;
  Type *ElementTy = nullptr;
  ArrayType *TableTy = nullptr;
  GlobalVariable *Table = nullptr;
  GlobalVariable *Empty = nullptr;
  GlobalVariable *Sink = nullptr;
  std::vector<GlobalVariable *> StringGlobals;
  Function *Length = nullptr;
  bool Runnable = true;
};
} // namespace

void ModuleBuilder::buildTable() {
  for (size_t I = 0; I < R.Strings.size(); ++I) {
    Constant *Init = ConstantDataArray::getString(Context, R.Strings[I]);
    auto *GV = new GlobalVariable(*M, Init->getType(), /*isConstant=*/true,
                                  GlobalValue::PrivateLinkage, Init,
                                  ".str" + Twine(I));
    if (!R.Significant[I])
      GV->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    StringGlobals.push_back(GV);
  }
  ElementTy = R.StructTable
                  ? static_cast<Type *>(StructType::get(
                        Context, R.FieldFirst ? ArrayRef<Type *>{I32, Ptr}
                                              : ArrayRef<Type *>{Ptr, I32}))
                  : Ptr;
  TableTy = ArrayType::get(ElementTy, R.Entries.size());
  std::vector<Constant *> Entries;
  for (size_t I = 0; I < R.Entries.size(); ++I) {
    Constant *S = R.Entries[I]
                      ? static_cast<Constant *>(StringGlobals[*R.Entries[I]])
                      : ConstantPointerNull::get(B.getPtrTy());
    if (!R.StructTable) {
      Entries.push_back(S);
      continue;
    }
    Constant *N = ConstantInt::get(I32, 100 + I);
    Entries.push_back(ConstantStruct::get(cast<StructType>(ElementTy),
                                          R.FieldFirst
                                              ? ArrayRef<Constant *>{N, S}
                                              : ArrayRef<Constant *>{S, N}));
  }
  Table = new GlobalVariable(*M, TableTy, /*isConstant=*/true,
                             R.InternalTable ? GlobalValue::InternalLinkage
                                             : GlobalValue::ExternalLinkage,
                             ConstantArray::get(TableTy, Entries), "table");
  Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  Constant *EmptyInit = ConstantDataArray::getString(Context, "");
  Empty = new GlobalVariable(*M, EmptyInit->getType(), /*isConstant=*/true,
                             GlobalValue::PrivateLinkage, EmptyInit, ".empty");
  Sink = new GlobalVariable(*M, Ptr, /*isConstant=*/false,
                            GlobalValue::InternalLinkage,
                            ConstantPointerNull::get(B.getPtrTy()), "sink");
}

// i64 @length(ptr %s): the bytes before the NUL.
Function *ModuleBuilder::buildLength() {
  Function *F = Function::Create(FunctionType::get(I64, {Ptr}, false),
                                 GlobalValue::InternalLinkage, "length", *M);
  BasicBlock *Entry = BasicBlock::Create(Context, "entry", F);
  BasicBlock *Loop = BasicBlock::Create(Context, "loop", F);
  BasicBlock *Exit = BasicBlock::Create(Context, "exit", F);
  B.SetInsertPoint(Entry);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *N = B.CreatePHI(I64, 2, "n");
  N->addIncoming(B.getInt64(0), Entry);
  Value *C = B.CreateLoad(I8, B.CreateGEP(I8, F->getArg(0), N));
  Value *Next = B.CreateAdd(N, B.getInt64(1));
  N->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpEQ(C, B.getInt8(0)), Exit, Loop);
  B.SetInsertPoint(Exit);
  B.CreateRet(N);
  return F;
}

Value *ModuleBuilder::buildIndex(const Reader &Rd, Value *Arg) {
  uint64_t NumEntries = R.Entries.size();
  switch (Rd.Index) {
  case IndexShape::Argument:
    return Arg;
  case IndexShape::Masked: {
    uint64_t Mask = 1;
    while (Mask * 2 <= NumEntries)
      Mask *= 2;
    return B.CreateAnd(Arg, B.getInt64(Mask - 1));
  }
  case IndexShape::Remainder:
    return B.CreateURem(Arg, B.getInt64(NumEntries));
  case IndexShape::Constant:
    return B.getInt64(NumEntries - 1);
  case IndexShape::Narrow:
    return B.CreateTrunc(Arg, I32);
  case IndexShape::Wrapping:
    // Reads entry %i only if the address arithmetic wraps: run as is, the
    // original reads far out of bounds.
    Runnable = false;
    return B.CreateAdd(Arg, B.getInt64(uint64_t(1) << 61));
  }
  llvm_unreachable("unknown index shape");
}

Value *ModuleBuilder::buildAddress(const Reader &Rd, Value *Index,
                                   unsigned Field) {
  const DataLayout &DL = M->getDataLayout();
  switch (Rd.Form) {
  case AddressForm::ArrayTyped: {
    SmallVector<Value *, 3> Indices = {B.getInt64(0), Index};
    if (R.StructTable)
      Indices.push_back(B.getInt32(Field));
    return B.CreateGEP(TableTy, Table, Indices, "entry", Rd.Flags);
  }
  case AddressForm::ElementTyped: {
    SmallVector<Value *, 2> Indices = {Index};
    if (R.StructTable)
      Indices.push_back(B.getInt32(Field));
    return B.CreateGEP(ElementTy, Table, Indices, "entry", Rd.Flags);
  }
  case AddressForm::ByteOffset: {
    uint64_t Size = DL.getTypeAllocSize(ElementTy);
    uint64_t FieldOffset = R.StructTable
                               ? DL.getStructLayout(cast<StructType>(ElementTy))
                                     ->getElementOffset(Field)
                               : 0;
    Value *Wide = B.CreateZExtOrTrunc(Index, I64);
    Value *Offset = B.CreateAdd(B.CreateMul(Wide, B.getInt64(Size)),
                                B.getInt64(FieldOffset));
    return B.CreateGEP(I8, Table, Offset, "entry", Rd.Flags);
  }
  }
  llvm_unreachable("unknown address form");
}

// i64 @readN(i64 %i)
Function *ModuleBuilder::buildReader(const Reader &Rd, unsigned Number) {
  Function *F = Function::Create(FunctionType::get(I64, {I64}, false),
                                 GlobalValue::InternalLinkage,
                                 "read" + Twine(Number), *M);
  B.SetInsertPoint(BasicBlock::Create(Context, "entry", F));
  Value *Index = buildIndex(Rd, F->getArg(0));
  LoadInst *Loaded =
      B.CreateLoad(Ptr, buildAddress(Rd, Index, stringField()), "string");
  Loaded->setVolatile(Rd.Use == StringUse::VolatileLoad);
  // A null entry reads as the empty string.
  Value *S = B.CreateSelect(B.CreateICmpEQ(Loaded, Constant::getNullValue(Ptr)),
                            Empty, Loaded);
  Value *Result = nullptr;
  switch (Rd.Use) {
  case StringUse::FirstByte:
  case StringUse::VolatileLoad:
    Result = B.CreateZExt(B.CreateLoad(I8, S), I64);
    break;
  case StringUse::Length:
    Result = B.CreateCall(Length, {S});
    break;
  case StringUse::CompareFirst:
    Result = B.CreateZExt(B.CreateICmpEQ(Loaded, StringGlobals.front()), I64);
    break;
  case StringUse::StoreAndLoad: {
    B.CreateStore(S, Sink);
    Value *Back = B.CreateLoad(Ptr, Sink);
    Result = B.CreateZExt(B.CreateLoad(I8, Back), I64);
    break;
  }
  case StringUse::PassOut: {
    FunctionCallee Out =
        M->getOrInsertFunction("outside", FunctionType::get(I64, {Ptr}, false));
    Result = B.CreateCall(Out, {S});
    Runnable = false;
    break;
  }
  }
  if (R.StructTable && Rd.ReadsField) {
    Value *Field = B.CreateLoad(I32, buildAddress(Rd, Index, intField()));
    Result = B.CreateAdd(Result, B.CreateZExt(Field, I64));
  }
  B.CreateRet(Result);
  return F;
}

std::unique_ptr<Module> ModuleBuilder::build() {
  buildTable();
  Length = buildLength();
  std::vector<Function *> Readers;
  for (size_t I = 0; I < R.Readers.size(); ++I)
    Readers.push_back(buildReader(R.Readers[I], I));
  // i64 @run(): every reader on every index, hashed.
  Function *Run = Function::Create(FunctionType::get(I64, {}, false),
                                   GlobalValue::ExternalLinkage, "run", *M);
  B.SetInsertPoint(BasicBlock::Create(Context, "entry", Run));
  Value *Hash = B.getInt64(17);
  for (Function *Read : Readers)
    for (size_t I = 0; I < R.Entries.size(); ++I) {
      Value *V = B.CreateCall(Read, {B.getInt64(I)});
      Hash = B.CreateAdd(B.CreateMul(Hash, B.getInt64(31)), V);
    }
  B.CreateRet(Hash);
  return std::move(M);
}

static uint64_t runInInterpreter(std::unique_ptr<Module> M) {
  std::string Error;
  Module *Raw = M.get();
  std::unique_ptr<ExecutionEngine> Engine(
      EngineBuilder(std::move(M))
          .setEngineKind(EngineKind::Interpreter)
          .setErrorStr(&Error)
          .create());
  if (!Engine) {
    errs() << "kiln-fuzz: error: cannot create the interpreter: " << Error
           << "\n";
    std::abort();
  }
  GenericValue Result = Engine->runFunction(Raw->getFunction("run"), {});
  return Result.IntVal.getZExtValue();
}

static void runStringTablePass(Module &M) {
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB;
  kiln::registerKilnPassBuilderCallbacks(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM;
  if (Error E = PB.parsePassPipeline(MPM, "kiln-strtab")) {
    errs() << "kiln-fuzz: error: " << toString(std::move(E)) << "\n";
    std::abort();
  }
  MPM.run(M, MAM);
}

namespace {
/// What the run exercised, printed at exit: a fuzzer whose modules the pass
/// never rewrites, or never runs, would test little.
struct Tally {
  unsigned Modules = 0;
  unsigned Rewritten = 0;
  unsigned Run = 0;
  unsigned RewrittenAndRun = 0;
  ~Tally() {
    std::fprintf(stderr,
                 "kiln-fuzz: modules %u, tables rewritten %u, run in the "
                 "interpreter %u (of which rewritten %u)\n",
                 Modules, Rewritten, Run, RewrittenAndRun);
  }
};
} // namespace

static Tally Counts;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Bytes, size_t Size) {
  FuzzedDataProvider Data(Bytes, Size);
  Recipe R = decodeRecipe(Data);
  LLVMContext Context;
  ModuleBuilder Builder(R, Context);
  std::unique_ptr<Module> M = Builder.build();
  if (verifyModule(*M, &errs())) {
    errs() << "kiln-fuzz: error: the generated module is invalid\n";
    std::abort();
  }
  std::unique_ptr<Module> Before =
      Builder.isRunnable() ? CloneModule(*M) : nullptr;
  runStringTablePass(*M);
  if (verifyModule(*M, &errs())) {
    errs() << "kiln-fuzz: error: kiln-strtab left an invalid module:\n" << *M;
    std::abort();
  }
  // The pass replaces the table by `table.offsets` and a blob.
  bool Rewritten = M->getNamedGlobal("table.offsets") != nullptr;
  ++Counts.Modules;
  Counts.Rewritten += Rewritten;
  if (!Before)
    return 0;
  ++Counts.Run;
  Counts.RewrittenAndRun += Rewritten;
  std::string Original;
  raw_string_ostream(Original) << *Before;
  uint64_t Expected = runInInterpreter(std::move(Before));
  uint64_t Got = runInInterpreter(CloneModule(*M));
  if (Expected != Got) {
    errs() << "kiln-fuzz: error: @run computes " << Got
           << " after kiln-strtab, " << Expected << " before\nbefore:\n"
           << Original << "after:\n"
           << *M;
    std::abort();
  }
  return 0;
}

//===- LinkBitcode.cpp - The functions of a link's bitcode ----------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/LLDDriver/LinkBitcode.h"
#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/ADT/STLExtras.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/BinaryFormat/Magic.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/Object/Archive.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <optional>

using namespace llvm;
using namespace kiln;

/// \returns the value of \p Arg if it is the option `-<Short>` or
/// `--<Long>` with its value joined (`-Lx`, `--library-path=x`) or in the
/// next argument (then \p I moves to it).
static std::optional<StringRef> getValue(ArrayRef<std::string> Args, size_t &I,
                                         StringRef Short, StringRef Long) {
  StringRef Arg = Args[I];
  auto Next = [&]() -> std::optional<StringRef> {
    if (I + 1 == Args.size())
      return std::nullopt;
    return StringRef(Args[++I]);
  };
  if (Arg == "-" + Short.str() || Arg == "--" + Long.str())
    return Next();
  if (Arg.consume_front("--") && Arg.consume_front(Long) &&
      Arg.consume_front("="))
    return Arg;
  Arg = Args[I];
  if (Arg.consume_front("-") && !Arg.starts_with("-") &&
      Arg.consume_front(Short) && !Arg.empty())
    return Arg;
  return std::nullopt;
}

std::vector<std::string>
kiln::findLinkInputFiles(ArrayRef<std::string> LinkerArgs) {
  std::vector<std::string> SearchDirs, Libraries, Files;
  for (size_t I = 1; I < LinkerArgs.size(); ++I) {
    if (std::optional<StringRef> Dir =
            getValue(LinkerArgs, I, "L", "library-path")) {
      SearchDirs.push_back(Dir->str());
      continue;
    }
    if (std::optional<StringRef> Lib =
            getValue(LinkerArgs, I, "l", "library")) {
      Libraries.push_back(Lib->str());
      continue;
    }
    // An option's separate value that names a file (`-o app` of a previous
    // build, `-T script`) is read too; it holds no bitcode.
    if (sys::fs::is_regular_file(LinkerArgs[I]))
      Files.push_back(LinkerArgs[I]);
  }
  for (StringRef Lib : Libraries) {
    // `-l:name` is the file itself; `-lname`, the first libname.a (a shared
    // library holds no bitcode).
    std::string Name =
        Lib.consume_front(":") ? Lib.str() : ("lib" + Lib + ".a").str();
    for (StringRef Dir : SearchDirs) {
      SmallString<128> Path(Dir);
      sys::path::append(Path, Name);
      if (sys::fs::is_regular_file(Path)) {
        Files.push_back(Path.str().str());
        break;
      }
    }
  }
  std::vector<std::string> Unique;
  StringSet<> Seen;
  for (std::string &File : Files)
    if (Seen.insert(File).second)
      Unique.push_back(std::move(File));
  return Unique;
}

namespace {
/// One definition of a local function.
struct LocalDefinition {
  /// The name ThinLTO gives it if it promotes it ("" if its module has no
  /// hash).
  std::string Promoted;
  std::string SourceFileName;
  /// Its module has a summary: ThinLTO compiles it, and the backend renames
  /// it if kiln-lld asks (kiln/Support/UniqueLocalNames.h).
  bool ThinLTO = false;
};

/// Collects the definitions module by module.
class BitcodeNameReader {
public:
  Error readFile(StringRef Path);
  LinkBitcode finish();

private:
  Error readBuffer(MemoryBufferRef Buffer, StringRef Where);

  LinkBitcode Result;
  /// Local name -> its definitions, in the order the modules were read.
  StringMap<std::vector<LocalDefinition>> Locals;
  /// Names of functions visible outside their module: a local of the same
  /// name is ambiguous too.
  StringSet<> Externals;
};
} // namespace

Error BitcodeNameReader::readBuffer(MemoryBufferRef Buffer, StringRef Where) {
  Expected<std::vector<BitcodeModule>> Modules = getBitcodeModuleList(Buffer);
  if (!Modules)
    return createStringError(inconvertibleErrorCode(),
                             Where + ": " + toString(Modules.takeError()));
  for (BitcodeModule &BM : *Modules) {
    LLVMContext Context;
    Expected<std::unique_ptr<Module>> M =
        BM.getLazyModule(Context, /*ShouldLazyLoadMetadata=*/true,
                         /*IsImporting=*/false);
    if (!M)
      return createStringError(inconvertibleErrorCode(),
                               Where + ": " + toString(M.takeError()));
    ++Result.NumModules;
    // ThinLTO names a promoted local after the module hash that its summary
    // records, and its backends rename same-named locals when asked; full
    // LTO (a module without a ThinLTO summary) does neither.
    bool ThinLTO = false;
    if (Expected<BitcodeLTOInfo> Info = BM.getLTOInfo())
      ThinLTO = Info->IsThinLTO;
    else
      consumeError(Info.takeError());
    std::optional<ModuleHash> Hash;
    if (Expected<std::unique_ptr<ModuleSummaryIndex>> Index = BM.getSummary()) {
      for (const auto &Entry : (*Index)->modulePaths())
        if (llvm::any_of(Entry.second, [](uint32_t W) { return W != 0; }))
          Hash = Entry.second;
    } else {
      consumeError(Index.takeError());
    }
    for (const GlobalAlias &A : (*M)->aliases())
      if (const auto *F = dyn_cast_or_null<Function>(A.getAliaseeObject()))
        if (!F->isDeclaration() && !A.hasLocalLinkage())
          Result.Names.Aliases[A.getName()] = F->getName().str();
    for (const Function &F : **M) {
      if (F.isDeclaration())
        continue;
      Result.Names.Defined.insert(F.getName());
      if (!F.hasLocalLinkage()) {
        Externals.insert(F.getName());
        continue;
      }
      LocalDefinition Definition;
      if (Hash)
        Definition.Promoted =
            ModuleSummaryIndex::getGlobalNameForLocal(F.getName(), *Hash);
      Definition.SourceFileName = (*M)->getSourceFileName();
      Definition.ThinLTO = ThinLTO;
      Locals[F.getName()].push_back(std::move(Definition));
    }
  }
  return Error::success();
}

Error BitcodeNameReader::readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(),
                             Path + ": " + Buffer.getError().message());
  MemoryBufferRef Ref = (*Buffer)->getMemBufferRef();
  file_magic Magic = identify_magic(Ref.getBuffer());
  if (Magic == file_magic::bitcode)
    return readBuffer(Ref, Path);
  if (Magic != file_magic::archive)
    return Error::success();
  Expected<std::unique_ptr<object::Archive>> Archive =
      object::Archive::create(Ref);
  if (!Archive)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(Archive.takeError()));
  Error Err = Error::success();
  for (const object::Archive::Child &C : (*Archive)->children(Err)) {
    Expected<MemoryBufferRef> Member = C.getMemoryBufferRef();
    Expected<StringRef> Name = C.getName();
    if (!Member || !Name) {
      consumeError(Member.takeError());
      consumeError(Name.takeError());
      continue;
    }
    if (identify_magic(Member->getBuffer()) != file_magic::bitcode)
      continue;
    if (Error E = readBuffer(*Member, (Path + "(" + *Name + ")").str()))
      return E;
  }
  if (Err)
    return createStringError(inconvertibleErrorCode(),
                             Path + ": " + toString(std::move(Err)));
  return Error::success();
}

LinkBitcode BitcodeNameReader::finish() {
  LinkFunctionNames &Names = Result.Names;
  for (const auto &Local : Locals) {
    StringRef Name = Local.first();
    const std::vector<LocalDefinition> &Definitions = Local.second;
    unsigned Count = Definitions.size() + (Externals.contains(Name) ? 1 : 0);
    if (Count == 1) {
      if (!Definitions.front().Promoted.empty())
        Names.PromotedNames[Name] = Definitions.front().Promoted;
      continue;
    }
    Names.AmbiguousNames[Name] = Count;
    StringMap<unsigned> PerSource;
    for (const LocalDefinition &Definition : Definitions)
      ++PerSource[Definition.SourceFileName];
    for (const LocalDefinition &Definition : Definitions) {
      // Each module's promoted name is its own: a profile of the binary
      // names such a function unambiguously.
      if (!Definition.Promoted.empty())
        Names.Defined.insert(Definition.Promoted);
      // Two modules of one source file would get the same new name.
      if (!Definition.ThinLTO || PerSource[Definition.SourceFileName] > 1)
        continue;
      std::string Unique =
          Name.str() + getUniqueLocalSuffix(Definition.SourceFileName);
      Names.Defined.insert(Unique);
      Names.UniqueNames[Name].push_back({Definition.SourceFileName, Unique});
      Result.UniqueLocals.push_back({Name.str(), Definition.SourceFileName});
    }
  }
  llvm::sort(Result.UniqueLocals);
  for (auto &Entry : Names.UniqueNames)
    llvm::sort(Entry.second);
  return std::move(Result);
}

Expected<LinkBitcode> kiln::readLinkBitcode(ArrayRef<std::string> Paths) {
  BitcodeNameReader Reader;
  for (const std::string &Path : Paths)
    if (Error E = Reader.readFile(Path))
      return std::move(E);
  return Reader.finish();
}

//===- UniqueLocalNames.cpp - Rename same-named statics in a backend ------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Passes/UniqueLocalNames.h"
#include "Diagnostics.h"

#include "kiln/Support/InputFile.h"
#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <mutex>

using namespace llvm;

static cl::opt<std::string> UniqueLocalNamesList(
    "kiln-unique-local-names", cl::init(""), cl::value_desc("file"),
    cl::desc("in ThinLTO backends, rename the local functions the file lists "
             "(`<name> <source file name>` lines, written by kiln-lld for "
             "block layout) to `<name>.__uniq.<hash of the source file "
             "name>`, as -funique-internal-linkage-names would"));

bool kiln::isUniqueLocalNamesRequested() {
  return !UniqueLocalNamesList.empty();
}

namespace {
/// The list, read once per path: every backend thread of a link reads the
/// same file. Source file name -> the names of its locals to rename.
struct ParsedList {
  std::string Path;
  std::string Error; ///< Why the list is unusable ("" if it is usable).
  StringMap<std::vector<std::string>> BySource;
};
} // namespace

static std::shared_ptr<const ParsedList> readList(StringRef Path) {
  static std::mutex Lock;
  static std::shared_ptr<const ParsedList> Cached;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Cached && Cached->Path == Path)
    return Cached;
  auto List = std::make_shared<ParsedList>();
  List->Path = Path.str();
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      kiln::getInputFile(Path, /*IsText=*/true);
  if (!Buffer) {
    List->Error = (Path + ": " + Buffer.getError().message()).str();
  } else if (Expected<std::vector<kiln::UniqueLocal>> Locals =
                 kiln::parseUniqueLocalNames(Path, (*Buffer)->getBuffer())) {
    for (kiln::UniqueLocal &Local : *Locals)
      List->BySource[Local.SourceFileName].push_back(std::move(Local.Name));
  } else {
    List->Error = toString(Locals.takeError());
  }
  Cached = List;
  return Cached;
}

PreservedAnalyses kiln::UniqueLocalNamesPass::run(Module &M,
                                                  ModuleAnalysisManager &) {
  if (UniqueLocalNamesList.empty())
    return PreservedAnalyses::all();
  std::shared_ptr<const ParsedList> List = readList(UniqueLocalNamesList);
  if (!List->Error.empty()) {
    reportUnusableInput(M.getContext(),
                        "kiln-unique-local-names: " + List->Error +
                            "; the local functions of '" +
                            M.getModuleIdentifier() + "' keep their names");
    return PreservedAnalyses::all();
  }
  auto It = List->BySource.find(M.getSourceFileName());
  if (It == List->BySource.end())
    return PreservedAnalyses::all();
  std::string Suffix = getUniqueLocalSuffix(M.getSourceFileName());
  bool Changed = false;
  for (const std::string &Name : It->second) {
    Function *F = M.getFunction(Name);
    // Promoted by ThinLTO (then it has another name already) or gone.
    if (!F || !F->hasLocalLinkage() || F->isDeclaration())
      continue;
    std::string NewName = Name + Suffix;
    if (M.getNamedValue(NewName))
      continue;
    F->setName(NewName);
    Changed = true;
    // The debug information's linkage name follows, as the
    // UniqueInternalLinkageNamesPass does it.
    if (DISubprogram *SP = F->getSubprogram()) {
      if (SP->getRawLinkageName()) {
        MDString *Linkage = MDString::get(M.getContext(), NewName);
        SP->replaceRawLinkageName(Linkage);
        if (DISubprogram *Decl = SP->getDeclaration())
          if (Decl->getRawLinkageName())
            Decl->replaceRawLinkageName(Linkage);
      }
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

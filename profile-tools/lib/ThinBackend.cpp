//===- ThinBackend.cpp - kiln thin-backend --------------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ThinBackend.h"

#include "kiln/Support/ConfigurationDigest.h"
#include "kiln/Support/InputFile.h"
#include "kiln/Support/OutputFile.h"
#include "kiln/Support/ToolError.h"
#include "kiln/Support/Version.inc"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ModuleSummaryIndex.h"
#include "llvm/LTO/Config.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/Plugins/PassPlugin.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/Caching.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/FunctionImport.h"

#include <map>

using namespace llvm;
using kiln::makeToolError;

static constexpr StringLiteral ToolName = "kiln thin-backend";

// ld.lld registers LLVM's codegen flags (-mcpu, -mattr, -relocation-model,
// -code-model, ...) so that `-mllvm` can set them for its LTO; registering
// them here gives the same `-mllvm` options the same meaning in both.
static codegen::RegisterCodeGenFlags CodeGenFlags;

static constexpr StringLiteral IndexHint =
    "give the <module>.thinlto.bc file that ld.lld --thinlto-index-only "
    "wrote for this module";

static Expected<std::unique_ptr<MemoryBuffer>> readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = kiln::getInputFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return makeToolError(Buffer.getError().message(), Path);
  return std::move(*Buffer);
}

/// \returns the ThinLTO module in the bitcode file \p Buffer, or an error
/// saying what the file is instead; \p Hint tells the user what to do about
/// a module without a ThinLTO summary.
static Expected<BitcodeModule> findThinModule(MemoryBufferRef Buffer,
                                              StringRef Hint) {
  StringRef Path = Buffer.getBufferIdentifier();
  const unsigned char *Start = Buffer.getBuffer().bytes_begin();
  if (!isBitcode(Start, Start + Buffer.getBufferSize()))
    return makeToolError("not an LLVM bitcode file", Path,
                         "give the bitcode object the thin link was given "
                         "(compiled with -flto=thin), not a native object");
  Expected<std::vector<BitcodeModule>> Modules = getBitcodeModuleList(Buffer);
  if (!Modules)
    return makeToolError("unreadable bitcode: " + toString(Modules.takeError()),
                         Path);
  bool HasFullLTOSummary = false;
  for (BitcodeModule &Module : *Modules) {
    Expected<BitcodeLTOInfo> Info = Module.getLTOInfo();
    if (!Info)
      return makeToolError("unreadable bitcode: " + toString(Info.takeError()),
                           Path);
    if (Info->IsThinLTO)
      return Module;
    HasFullLTOSummary |= Info->HasSummary;
  }
  if (HasFullLTOSummary)
    return makeToolError("bitcode for full LTO (-flto=full): it has no "
                         "ThinLTO summary",
                         Path, Hint);
  return makeToolError("bitcode without a ThinLTO summary (not compiled "
                       "with -flto=thin)",
                       Path, Hint);
}

/// \returns the summaries \p Index defines for module \p ModuleID, and sets
/// \p Hash to the hash it records for it (all zeros if the producer wrote
/// none); an empty map if the index does not name the module.
static GVSummaryMapTy getModuleSummaries(const ModuleSummaryIndex &Index,
                                         StringRef ModuleID, ModuleHash &Hash) {
  Hash = {};
  auto It = Index.modulePaths().find(ModuleID);
  if (It == Index.modulePaths().end())
    return GVSummaryMapTy();
  Hash = It->second;
  DenseMap<StringRef, GVSummaryMapTy> PerModule;
  Index.collectDefinedGVSummariesPerModule(PerModule);
  return PerModule.lookup(ModuleID);
}

static bool isKnownHash(const ModuleHash &Hash) {
  return llvm::any_of(Hash, [](uint32_t Word) { return Word != 0; });
}

/// Checks that \p Module (named \p Path) is the build of the module the
/// thin link saw, whose hash it recorded as \p Recorded in \p IndexFile.
static Error checkModuleHash(BitcodeModule &Module, StringRef Path,
                             const ModuleHash &Recorded, StringRef IndexFile) {
  if (!isKnownHash(Recorded))
    return Error::success();
  Expected<std::unique_ptr<ModuleSummaryIndex>> Own = Module.getSummary();
  if (!Own)
    return makeToolError("unreadable summary: " + toString(Own.takeError()),
                         Path);
  ModuleHash Hash;
  getModuleSummaries(**Own, Module.getModuleIdentifier(), Hash);
  if (isKnownHash(Hash) && Hash != Recorded)
    return makeToolError("changed since the thin link wrote " + IndexFile +
                             " (its module hash differs)",
                         Path, "run the thin link again, then the backends");
  return Error::success();
}

/// Reads the individual index \p Buffer (named \p Path).
static Expected<std::unique_ptr<ModuleSummaryIndex>>
readIndex(const MemoryBuffer &Buffer) {
  StringRef Path = Buffer.getBufferIdentifier();
  // ld.lld writes an empty file for an input it indexed but does not hand
  // to a backend: one without a ThinLTO summary, compiled by the thin link.
  if (Buffer.getBufferSize() == 0)
    return makeToolError("empty index: the thin link left this module to "
                         "no backend",
                         Path,
                         "ld.lld compiles inputs without a ThinLTO summary "
                         "itself, into the object --lto-obj-path= names; "
                         "link that object instead");
  const unsigned char *Start = Buffer.getBuffer().bytes_begin();
  if (!isBitcode(Start, Start + Buffer.getBufferSize()))
    return makeToolError("not a ThinLTO index (not an LLVM bitcode file)", Path,
                         IndexHint);
  Expected<std::unique_ptr<ModuleSummaryIndex>> Index =
      getModuleSummaryIndex(Buffer.getMemBufferRef());
  if (!Index)
    return makeToolError("not a ThinLTO index: " + toString(Index.takeError()),
                         Path, IndexHint);
  if ((*Index)->skipModuleByDistributedBackend())
    return Index;
  // A thin link always runs dead-symbol analysis and records it in the
  // indexes it writes; a module's own summary does not have it.
  if (!(*Index)->withGlobalValueDeadStripping())
    return makeToolError("not an individual index from a thin link (it is a "
                         "module's own summary)",
                         Path, IndexHint);
  return Index;
}

/// Loads Kiln's plugin now, so that its `-kiln-*` options exist when the
/// `-mllvm` options are parsed and a plugin that cannot load is a clear
/// error (LTO itself would stop with a fatal error). The LTO backend loads
/// the same file again: the library stays mapped, once.
static Error loadPlugin(StringRef Path) {
  Expected<PassPlugin> Plugin = PassPlugin::Load(Path.str());
  if (!Plugin)
    return makeToolError(
        "cannot load the Kiln plugin: " + toString(Plugin.takeError()), Path);
  return Error::success();
}

/// Parses \p Options as LLVM options, as `-mllvm` does in clang and lld.
static Error applyLLVMOptions(ArrayRef<std::string> Options) {
  if (Options.empty())
    return Error::success();
  SmallVector<const char *, 16> Argv = {"-mllvm"};
  for (const std::string &Option : Options)
    Argv.push_back(Option.c_str());
  std::string Errors;
  raw_string_ostream ErrorStream(Errors);
  if (cl::ParseCommandLineOptions(Argv.size(), Argv.data(), "", &ErrorStream))
    return Error::success();
  // CommandLine prefixes each line with the program name ("-mllvm: ...") and
  // suggests `-mllvm --help`, which means nothing here.
  SmallVector<StringRef, 4> Lines;
  StringRef(Errors).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Message;
  for (StringRef Line : Lines) {
    Line.consume_front("-mllvm: ");
    Line = Line.take_until([](char C) { return C == '\n'; });
    size_t Try = Line.find("  Try: ");
    if (Try != StringRef::npos)
      Line = Line.take_front(Try);
    Line = Line.trim();
    Line.consume_back(".");
    if (Line.empty())
      continue;
    // Lowercase, as Kiln's other messages.
    Message += (Message.empty() ? "" : "; ") + Line.substr(0, 1).lower() +
               Line.drop_front().str();
  }
  return makeToolError(Message, "-mllvm",
                       "Kiln's options are listed in docs/Plugin.rst");
}

namespace {
/// Diagnostics the backend reported.
struct DiagnosticState {
  raw_ostream &OS;
  std::string Input;
  unsigned Errors = 0;
};
} // namespace

/// The configuration ld.lld gives its in-process ThinLTO backends
/// (lld/ELF/LTO.cpp createConfig), with Kiln's plugin.
static lto::Config createConfig(const kiln::ThinBackendOptions &Opts,
                                DiagnosticState &Diags) {
  lto::Config Conf;
  // lld passes a default Triple too: the options must not depend on the
  // module's.
  Conf.Options = codegen::InitTargetOptionsFromCodeGenFlags(Triple());
  Conf.Options.EmitAddrsig = true;
  Conf.Options.FunctionSections = true;
  Conf.Options.DataSections = true;
  Conf.MllvmArgs = Opts.LLVMOptions;
  if (std::optional<Reloc::Model> Explicit = codegen::getExplicitRelocModel())
    Conf.RelocModel = *Explicit;
  else
    Conf.RelocModel = Opts.RelocModel;
  Conf.CodeModel = codegen::getExplicitCodeModel();
  Conf.CPU = codegen::getCPUStr();
  Conf.MAttrs = codegen::getMAttrs();
  Conf.OptLevel = Opts.OptLevel;
  // lld: code generation at -O2 unless --lto-O3 (lld::args::getCGOptLevel).
  Conf.CGOptLevel = Opts.OptLevel == 3 ? CodeGenOptLevel::Aggressive
                                       : CodeGenOptLevel::Default;
  Conf.PTO.LoopVectorization = Opts.OptLevel > 1;
  Conf.PTO.SLPVectorization = Opts.OptLevel > 1;
  Conf.PassPlugins = {Opts.PluginPath};
  // lld: --lto-cs-profile-file= (clang's -plugin-opt=cs-profile-path=).
  Conf.CSIRProfile = Opts.CSProfileFile;
  Conf.RemarksFilename = Opts.RemarksFile;
  Conf.RemarksPasses = Opts.RemarksFilter;
  Conf.DiagHandler = [&Diags](const DiagnosticInfo &DI) {
    switch (DI.getSeverity()) {
    case DS_Error:
      ++Diags.Errors;
      WithColor::error(Diags.OS, ToolName);
      break;
    case DS_Warning:
      WithColor::warning(Diags.OS, ToolName);
      break;
    case DS_Remark:
      WithColor::remark(Diags.OS, ToolName);
      break;
    case DS_Note:
      WithColor::note(Diags.OS, ToolName);
      break;
    }
    Diags.OS << Diags.Input << ": ";
    // Remarks: the function and the pass, and a location only if there is
    // one (objects built without -g have none).
    if (const auto *Remark = dyn_cast<DiagnosticInfoOptimizationBase>(&DI)) {
      if (Remark->isLocationAvailable())
        Diags.OS << Remark->getLocationStr() << ": ";
      Diags.OS << Remark->getFunction().getName() << ": " << Remark->getMsg()
               << " [" << Remark->getPassName() << "]\n";
      return;
    }
    DiagnosticPrinterRawOStream Printer(Diags.OS);
    DI.print(Printer);
    Diags.OS << '\n';
  };
  return Conf;
}

Expected<std::string>
kiln::computeThinBackendCacheKey(const ThinBackendKeyInputs &Inputs) {
  StableDigest Digest;
  // Bump the format when the key's composition changes.
  Digest.add("format", "kiln-thin-backend-key-1");
  Digest.add("kiln", KILN_VERSION_STRING);
  Digest.add("llvm", KILN_LLVM_VERSION_STRING);
  Digest.add("opt-level", Twine(Inputs.OptLevel).str());
  Digest.add("relocation-model",
             Twine(static_cast<int>(Inputs.RelocModel)).str());
  Digest.add("cpu", Inputs.CPU);
  if (Error E = addKilnConfiguration(Digest, Inputs.PluginPath, Inputs.Options))
    return makeToolError(toString(std::move(E)));
  Digest.add("module-path", Inputs.Input);
  Digest.add("module", hashBytes(Inputs.InputBytes));
  Digest.add("index", hashBytes(Inputs.IndexBytes));
  std::vector<std::pair<std::string, StringRef>> Imports = Inputs.Imports;
  llvm::sort(Imports,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  for (const auto &[Path, Bytes] : Imports) {
    Digest.add("import-path", Path);
    Digest.add("import", hashBytes(Bytes));
  }
  // By content: the same profile under another name makes the same object.
  if (Inputs.CSProfileBytes)
    Digest.add("cs-profile", hashBytes(*Inputs.CSProfileBytes));
  return Digest.hex();
}

Error kiln::runThinBackend(const ThinBackendOptions &Opts, raw_ostream &Out,
                           raw_ostream &Diag) {
  if (Opts.Input.empty())
    return makeToolError("no input module", "",
                         "give the module's bitcode object, under the path "
                         "the thin link was given");
  if (Opts.IndexFile.empty())
    return makeToolError("no index given", "--thinlto-index", IndexHint);
  if (Opts.Output.empty() && !Opts.PrintCacheKey)
    return makeToolError("no output file given", "-o");
  if (Opts.OptLevel > 3)
    return makeToolError("optimization level must be 0, 1, 2 or 3", "-O");

  if (Error E = loadPlugin(Opts.PluginPath))
    return E;
  if (Error E = applyLLVMOptions(Opts.LLVMOptions))
    return E;

  // The module first: if it is not a ThinLTO module, that is what to fix,
  // whatever its index says.
  Expected<std::unique_ptr<MemoryBuffer>> InputBuffer = readFile(Opts.Input);
  if (!InputBuffer)
    return InputBuffer.takeError();
  Expected<BitcodeModule> ThinModule = findThinModule(
      (*InputBuffer)->getMemBufferRef(),
      "ld.lld compiles such inputs in the thin link itself: give it "
      "--lto-obj-path=<file> and link that object instead of a backend's");
  if (!ThinModule)
    return ThinModule.takeError();

  Expected<std::unique_ptr<MemoryBuffer>> IndexBuffer =
      readFile(Opts.IndexFile);
  if (!IndexBuffer)
    return IndexBuffer.takeError();
  Expected<std::unique_ptr<ModuleSummaryIndex>> IndexOrErr =
      readIndex(**IndexBuffer);
  if (!IndexOrErr)
    return IndexOrErr.takeError();
  ModuleSummaryIndex &Index = **IndexOrErr;
  bool SkipModule = Index.skipModuleByDistributedBackend();

  DiagnosticState Diags{Diag, Opts.Input};
  lto::Config Conf = createConfig(Opts, Diags);
  lto::LTOLLVMContext Context(Conf);
  Expected<std::unique_ptr<Module>> ModuleOrErr =
      ThinModule->parseModule(Context);
  if (!ModuleOrErr)
    return makeToolError(
        "unreadable bitcode: " + toString(ModuleOrErr.takeError()), Opts.Input);
  Module &M = **ModuleOrErr;
  StringRef ModuleID = M.getModuleIdentifier();

  GVSummaryMapTy DefinedGlobals;
  FunctionImporter::ImportIDTable ImportIDs;
  FunctionImporter::ImportMapTy ImportList(ImportIDs);
  std::map<std::string, std::unique_ptr<MemoryBuffer>> ImportBuffers;
  if (!SkipModule) {
    ModuleHash IndexHash;
    DefinedGlobals = getModuleSummaries(Index, ModuleID, IndexHash);
    if (!Index.modulePaths().count(ModuleID)) {
      std::vector<std::string> Named;
      for (const auto &Entry : Index.modulePaths())
        Named.push_back(Entry.first().str());
      llvm::sort(Named);
      // The right module under another spelling of its path?
      std::string Hint = "name the module by the path the thin link was "
                         "given, and give its own index";
      for (const std::string &Path : Named) {
        bool Same = false;
        if (!sys::fs::equivalent(Path, Opts.Input, Same) && Same)
          Hint =
              "the thin link named this module '" + Path + "': give that path";
      }
      return makeToolError("not the index of " + Opts.Input + ": it names " +
                               join(Named, ", "),
                           Opts.IndexFile, Hint);
    }
    // A module's own index has every summary of the module; a module that
    // imports from it has only those it imports.
    Expected<std::unique_ptr<ModuleSummaryIndex>> Own =
        ThinModule->getSummary();
    if (!Own)
      return makeToolError("unreadable summary: " + toString(Own.takeError()),
                           Opts.Input);
    ModuleHash OwnHash;
    GVSummaryMapTy OwnDefined =
        getModuleSummaries(**Own, ThinModule->getModuleIdentifier(), OwnHash);
    if (DefinedGlobals.size() < OwnDefined.size())
      return makeToolError("not the index of " + Opts.Input +
                               " but of a module that imports from it (" +
                               Twine(DefinedGlobals.size()) + " of its " +
                               Twine(OwnDefined.size()) + " summaries)",
                           Opts.IndexFile, IndexHint);
    if (isKnownHash(IndexHash) && isKnownHash(OwnHash) && IndexHash != OwnHash)
      return makeToolError("changed since the thin link wrote " +
                               Opts.IndexFile + " (its module hash differs)",
                           Opts.Input,
                           "run the thin link again, then the backends");

    // Imports come from the files the index names, as in clang; check them
    // now so that a missing or rebuilt one is reported by name.
    // initImportList only declines (returns false) when told that all
    // modules were merged into one, which a thin link never does.
    lto::initImportList(M, Index, ImportList);
    for (StringRef Source : ImportList.getSourceModules()) {
      Expected<std::unique_ptr<MemoryBuffer>> Buffer = readFile(Source);
      if (!Buffer)
        return makeToolError(
            toString(Buffer.takeError()) + " (" + Opts.IndexFile +
                " imports from it)",
            "",
            "run the backend where the thin link ran: the index names "
            "modules by the paths the thin link was given");
      Expected<BitcodeModule> SourceModule = findThinModule(
          (*Buffer)->getMemBufferRef(), "run the thin link again");
      if (!SourceModule)
        return SourceModule.takeError();
      if (Error E =
              checkModuleHash(*SourceModule, Source,
                              Index.getModuleHash(Source), Opts.IndexFile))
        return E;
      ImportBuffers[Source.str()] = std::move(*Buffer);
    }
  }

  // The profile, read now so that an unusable one is named before any work
  // (the backend would only report that it could not use it) and its bytes
  // go into the cache key.
  std::unique_ptr<MemoryBuffer> CSProfileBuffer;
  if (!Opts.CSProfileFile.empty()) {
    Expected<std::unique_ptr<MemoryBuffer>> Buffer =
        readFile(Opts.CSProfileFile);
    if (!Buffer)
      return Buffer.takeError();
    Expected<std::unique_ptr<IndexedInstrProfReader>> Reader =
        IndexedInstrProfReader::create(MemoryBuffer::getMemBuffer(
            (*Buffer)->getMemBufferRef(), /*RequiresNullTerminator=*/false));
    if (!Reader)
      return makeToolError("not an indexed profile: " +
                               toString(Reader.takeError()),
                           Opts.CSProfileFile,
                           "give the .profdata that llvm-profdata merge "
                           "writes, as for -fprofile-use");
    CSProfileBuffer = std::move(*Buffer);
  }

  // Before anything is written: no output may replace an input.
  std::vector<kiln::NamedFile> Read = {{Opts.Input, "module"},
                                       {Opts.IndexFile, "--thinlto-index"},
                                       {Opts.PluginPath, "plugin"}};
  if (CSProfileBuffer)
    Read.push_back({Opts.CSProfileFile, "--lto-cs-profile-file"});
  for (const auto &Import : ImportBuffers)
    Read.push_back({Import.first, "imported module"});
  if (Error E = kiln::checkOutputPaths(
          {{Opts.Output, "-o"}, {Opts.RemarksFile, "--pass-remarks-output"}},
          Read))
    return makeToolError(toString(std::move(E)));

  if (Opts.PrintCacheKey) {
    ThinBackendKeyInputs Key;
    Key.PluginPath = Opts.PluginPath;
    Key.Options = Opts.LLVMOptions;
    llvm::append_range(Key.Options, getKilnOptionsFromEnvironment());
    Key.OptLevel = Opts.OptLevel;
    Key.RelocModel = Conf.RelocModel.value_or(Opts.RelocModel);
    Key.CPU = Conf.CPU;
    Key.Input = Opts.Input;
    Key.InputBytes = (*InputBuffer)->getBuffer();
    Key.IndexBytes = (*IndexBuffer)->getBuffer();
    for (const auto &[Path, Buffer] : ImportBuffers)
      Key.Imports.emplace_back(Path, Buffer->getBuffer());
    if (CSProfileBuffer)
      Key.CSProfileBytes = CSProfileBuffer->getBuffer();
    Expected<std::string> Digest = computeThinBackendCacheKey(Key);
    if (!Digest)
      return Digest.takeError();
    Out << *Digest << '\n';
    return Error::success();
  }
  // The imports are loaded again by the backend, one at a time.
  ImportBuffers.clear();

  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers();

  // LLVM opens the remarks file by name and truncates it at once; it
  // writes a temporary instead, renamed into place with the object, so that
  // a failed backend leaves the previous remarks as they were.
  std::unique_ptr<kiln::OutputFile> Remarks;
  if (!Opts.RemarksFile.empty()) {
    Expected<std::unique_ptr<kiln::OutputFile>> File =
        kiln::OutputFile::create(Opts.RemarksFile, sys::fs::OF_Text);
    if (!File)
      return makeToolError(toString(File.takeError()));
    Remarks = std::move(*File);
    Conf.RemarksFilename = Remarks->pathToWrite().str();
  }

  SmallString<0> Object;
  bool Produced = false;
  auto AddStream =
      [&](unsigned,
          const Twine &) -> Expected<std::unique_ptr<CachedFileStream>> {
    Produced = true;
    return std::make_unique<CachedFileStream>(
        std::make_unique<raw_svector_ostream>(Object));
  };
  Error Result = Error::success();
  if (SkipModule) {
    // Nothing of this module is in the link (an unused lazy object): an
    // empty object of the module's target, as clang writes, so that a build
    // that links every backend's output still links. No pass runs on it.
    Module Empty("empty", Context);
    Empty.setTargetTriple(M.getTargetTriple());
    Empty.setDataLayout(M.getDataLayout());
    Result = lto::thinBackend(Conf, /*Task=*/-1, AddStream, Empty, Index,
                              ImportList, DefinedGlobals,
                              /*ModuleMap=*/nullptr, /*CodeGenOnly=*/true);
  } else {
    Result = lto::thinBackend(Conf, /*Task=*/-1, AddStream, M, Index,
                              ImportList, DefinedGlobals,
                              /*ModuleMap=*/nullptr, /*CodeGenOnly=*/false);
  }
  if (Result)
    return makeToolError(
        "ThinLTO backend failed: " + toString(std::move(Result)), Opts.Input);
  if (Diags.Errors)
    return makeToolError("the backend reported " + Twine(Diags.Errors) +
                             " error(s); no object written",
                         Opts.Input);
  if (!Produced)
    return makeToolError("the backend produced no object", Opts.Input);

  if (Error E = kiln::writeOutputFile(Opts.Output,
                                      [&](raw_ostream &OS) { OS << Object; }))
    return makeToolError(toString(std::move(E)));
  if (Remarks)
    if (Error E = Remarks->commit())
      return makeToolError(toString(std::move(E)));
  return Error::success();
}

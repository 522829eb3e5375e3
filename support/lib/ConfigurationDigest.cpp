//===- ConfigurationDigest.cpp - Kiln in cache keys -----------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/ConfigurationDigest.h"
#include "kiln/Support/InputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <optional>

using namespace llvm;

std::string kiln::hashBytes(StringRef Bytes) {
  XXH128_hash_t Hash =
      xxh3_128bits(ArrayRef(Bytes.bytes_begin(), Bytes.size()));
  std::string Hex;
  raw_string_ostream OS(Hex);
  OS << format_hex_no_prefix(Hash.high64, 16)
     << format_hex_no_prefix(Hash.low64, 16);
  return Hex;
}

void kiln::StableDigest::add(StringRef Label, StringRef Bytes) {
  // label NUL size(8 bytes, little endian) bytes: self-delimiting.
  Stream.append(Label.begin(), Label.end());
  Stream.push_back('\0');
  char Size[8];
  support::endian::write64le(Size, Bytes.size());
  Stream.append(Size, sizeof(Size));
  Stream.append(Bytes.begin(), Bytes.end());
}

Error kiln::StableDigest::addFile(StringRef Label, StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = kiln::getInputFile(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), "cannot read %s: %s",
                             Path.str().c_str(),
                             Buffer.getError().message().c_str());
  add(Label, hashBytes((*Buffer)->getBuffer()));
  return Error::success();
}

std::string kiln::StableDigest::hex() const { return hashBytes(Stream); }

StringRef kiln::getOptionName(StringRef Arg) {
  Arg.consume_front("-");
  Arg.consume_front("-");
  return Arg.take_until([](char C) { return C == '='; });
}

std::vector<std::string>
kiln::canonicalizeOptions(ArrayRef<std::string> Options) {
  // A stable sort, spelled as a sort on (name, position): libstdc++'s
  // std::stable_sort uses a deprecated API that clang warns about.
  std::vector<size_t> Order(Options.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  llvm::sort(Order, [&](size_t A, size_t B) {
    StringRef NameA = getOptionName(Options[A]);
    StringRef NameB = getOptionName(Options[B]);
    return NameA != NameB ? NameA < NameB : A < B;
  });
  std::vector<std::string> Sorted;
  Sorted.reserve(Options.size());
  for (size_t I : Order)
    Sorted.push_back(Options[I]);
  return Sorted;
}

bool kiln::isOutputOption(StringRef Option) {
  return getOptionName(Option).ends_with("-out");
}

std::vector<std::string> kiln::getKilnOptionsFromEnvironment() {
  std::optional<std::string> Value = sys::Process::GetEnv(KilnOptionsEnvVar);
  if (!Value || StringRef(*Value).trim().empty())
    return {};
  BumpPtrAllocator Alloc;
  StringSaver Saver(Alloc);
  SmallVector<const char *, 8> Words;
  cl::TokenizeGNUCommandLine(*Value, Saver, Words);
  std::vector<std::string> Options;
  for (StringRef Word : Words) {
    // The plugin ignores the whole variable if one word is not Kiln's
    // (passes/lib/EnvironmentOptions.cpp): then it configures nothing.
    if (!getOptionName(Word).starts_with("kiln-"))
      return {};
    Options.push_back(Word.str());
  }
  return Options;
}

/// \returns whether \p Option names a file kiln-lld writes anew for each
/// link, at a new path every time: its content keys the configuration, its
/// path would only keep a cache from ever being reused.
static bool isKeyedByContentOnly(StringRef Option) {
  return kiln::getOptionName(Option) == "kiln-unique-local-names";
}

Error kiln::addKilnConfiguration(StableDigest &Digest, StringRef PluginPath,
                                 ArrayRef<std::string> Options) {
  // The module's bytes, not its version string: a rebuilt plugin of the
  // same version may place code differently, and hashing a few MB with xxh3
  // takes about a millisecond.
  if (Error E = Digest.addFile("plugin", PluginPath))
    return createStringError(inconvertibleErrorCode(),
                             "the Kiln plugin: " + toString(std::move(E)));
  for (const std::string &Option : canonicalizeOptions(Options)) {
    Digest.add("option", isKeyedByContentOnly(Option)
                             ? kiln::getOptionName(Option)
                             : StringRef(Option));
    StringRef Value = StringRef(Option).split('=').second;
    if (Value.empty() || isOutputOption(Option) ||
        !sys::fs::is_regular_file(Value))
      continue;
    // The same option text with another profile or function list must not
    // reuse the old objects.
    if (Error E = Digest.addFile("option-file", Value))
      return E;
  }
  return Error::success();
}

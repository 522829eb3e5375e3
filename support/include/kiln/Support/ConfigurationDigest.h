//===- kiln/Support/ConfigurationDigest.h - Kiln in cache keys --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a cache of ThinLTO backend outputs must know about Kiln. LLVM's
/// ThinLTO cache key (computeLTOCacheKey in llvm/lib/LTO/LTO.cpp) covers the
/// lto::Config fields that shape code generation and the text of the
/// `-mllvm` options, but not the pass plugins (`Config::PassPlugins`), not
/// the plugin's environment (KILN_OPTIONS), and not the contents of the
/// files options name (`-kiln-startup-functions=startup.txt` keeps its key
/// when the file changes). Reusing a cached object then gives a program Kiln
/// did not build. The digest here covers those: the plugin module's bytes,
/// the options in a canonical order, and the contents of the input files the
/// options name. `kiln-lld` salts the user's ThinLTO cache directory with it
/// and `kiln thin-backend --print-cache-key` builds its key on it.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SUPPORT_CONFIGURATIONDIGEST_H
#define KILN_SUPPORT_CONFIGURATIONDIGEST_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kiln {

/// Accumulates labelled fields into a 128-bit xxh3 digest. Every field is
/// length-prefixed, so no two different sequences of fields give the same
/// byte stream; file contents enter as their own 128-bit digest, so the
/// stream stays small whatever the files' sizes. Same fields in the same
/// order, same digest, on every host (xxh3 is defined on bytes).
class StableDigest {
public:
  /// Adds the field \p Label with the value \p Bytes.
  void add(llvm::StringRef Label, llvm::StringRef Bytes);
  /// Adds the field \p Label with the digest of the contents of \p Path.
  /// \returns an error naming \p Path if it cannot be read.
  llvm::Error addFile(llvm::StringRef Label, llvm::StringRef Path);
  /// \returns the digest of the fields added so far, as 32 lowercase hex
  /// digits.
  std::string hex() const;

private:
  std::string Stream;
};

/// \returns the 32-hex-digit xxh3-128 digest of \p Bytes.
std::string hashBytes(llvm::StringRef Bytes);

/// \returns the name of the LLVM option \p Arg: `-kiln-x=v` and `--kiln-x`
/// give `kiln-x`.
llvm::StringRef getOptionName(llvm::StringRef Arg);

/// \returns \p Options stable-sorted by option name. Options with different
/// names set independent cl::opts, so their order does not matter; the
/// occurrences of one option keep their order, since with cl::opt the last
/// one wins and a cl::list keeps them in order.
std::vector<std::string>
canonicalizeOptions(llvm::ArrayRef<std::string> Options);

/// \returns true if \p Option names a file the plugin writes rather than
/// reads: by Kiln's convention such options end in `-out`
/// (`-kiln-function-order-out=`). Their files are not part of a digest.
bool isOutputOption(llvm::StringRef Option);

/// The environment variable the plugin reads its options from.
inline constexpr const char *KilnOptionsEnvVar = "KILN_OPTIONS";

/// \returns the options in $KILN_OPTIONS as the plugin reads them (GNU
/// quoting), or none if it is unset, blank, or would be ignored by the
/// plugin because one of its words is not a `-kiln-` option.
std::vector<std::string> getKilnOptionsFromEnvironment();

/// Adds to \p Digest what Kiln contributes to the code a host produces with
/// Kiln's plugin loaded: the contents of the plugin module at \p PluginPath,
/// \p Options in canonical order, and the contents of every existing regular
/// file an option's value names (`-opt=path`), except for output options.
/// \returns an error naming the plugin if it cannot be read.
llvm::Error addKilnConfiguration(StableDigest &Digest,
                                 llvm::StringRef PluginPath,
                                 llvm::ArrayRef<std::string> Options);

} // namespace kiln

#endif // KILN_SUPPORT_CONFIGURATIONDIGEST_H

//===- kiln/Tools/ThinBackend.h - kiln thin-backend -------------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `kiln thin-backend`: one backend job of a distributed ThinLTO build, with
/// Kiln's plugin. The thin link (`ld.lld --thinlto-index-only`) writes an
/// individual index per module (`x.o.thinlto.bc`); each backend job turns
/// the module, its index and the modules the index imports from into a
/// native object; the final link takes those objects. clang can run the job
/// (`clang -c -x ir x.o -fthinlto-index=x.o.thinlto.bc`), but LLVM 22's clang
/// does not hand its `-fpass-plugin=` plugins to the ThinLTO backend, so
/// Kiln's passes do not run there (test/kiln/thin-backend-clang.test).
///
/// This job runs llvm::lto::thinBackend the way clang's runThinLTOBackend
/// (clang/lib/CodeGen/BackendUtil.cpp) does: imports loaded on demand from
/// the files the index names, with an lto::Config whose PassPlugins names
/// Kiln's plugin. The Config is the one ld.lld builds for its in-process
/// ThinLTO (lld/ELF/LTO.cpp createConfig: function and data sections,
/// address-significance tables, codegen level from -O, lld's `-mllvm`
/// codegen flags), so that a distributed build gives the objects, and the
/// program, of the in-process one.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_THINBACKEND_H
#define KILN_TOOLS_THINBACKEND_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>
#include <vector>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace kiln {

/// What `kiln thin-backend` is asked to do.
struct ThinBackendOptions {
  /// The module's bitcode, under the path the thin link was given: the
  /// index names the module by that path.
  std::string Input;
  /// The module's individual index from `ld.lld --thinlto-index-only`.
  std::string IndexFile;
  /// The native object to write.
  std::string Output;
  /// `-O`: the optimization pipeline's level, as ld.lld's `--lto-O`.
  unsigned OptLevel = 2;
  /// Unless `-mllvm -relocation-model=` says otherwise. ld.lld uses PIC for
  /// `-pie` and `-shared` links and static for other executables.
  llvm::Reloc::Model RelocModel = llvm::Reloc::PIC_;
  /// Kiln's pass-plugin module.
  std::string PluginPath;
  /// The `-mllvm` options, in order: Kiln's (`-kiln-*`) and LLVM's.
  std::vector<std::string> LLVMOptions;
  /// `--pass-remarks-output=`: optimization remarks as YAML.
  std::string RemarksFile;
  /// `--pass-remarks-filter=`: only the remarks of passes matching it.
  std::string RemarksFilter;
  /// `--lto-cs-profile-file=`: the profile the backend runs with, as ld.lld's
  /// backends run with the one clang passes a `-fprofile-use` link
  /// (`-plugin-opt=cs-profile-path=`). With it LLVM's profile-guided passes
  /// of the backends run (the second round of memory-intrinsic size
  /// specialization among them); a profile without context-sensitive
  /// records annotates nothing.
  std::string CSProfileFile;
  /// Print the job's cache key instead of running it.
  bool PrintCacheKey = false;
};

/// Runs the backend job \p Opts describes and writes its object, or with
/// PrintCacheKey prints its cache key on \p Out. Diagnostics of the backend
/// (warnings, remarks) go to \p Diag as `kiln thin-backend: <kind>: <input>:
/// ...`. \returns a ToolError naming the file for unusable input: a missing
/// file, a module without a ThinLTO summary, a file that is not an
/// individual index, an index of another module (or of an older build of
/// it), an imported module that cannot be read or changed since the thin
/// link, an unknown `-mllvm` option, a plugin that does not load, a
/// `--lto-cs-profile-file=` that is missing or not an indexed profile.
///
/// An index the thin link marked "skip" (ld.lld writes one for a lazy
/// `--start-lib` object the link did not use) gives an empty object, as
/// clang does. An index that imports nothing is an ordinary job: the module
/// is still optimized and internalized as the thin link decided.
llvm::Error runThinBackend(const ThinBackendOptions &Opts,
                           llvm::raw_ostream &Out, llvm::raw_ostream &Diag);

/// The files and settings a backend job's output depends on, for its cache
/// key.
struct ThinBackendKeyInputs {
  std::string PluginPath;
  /// All `-mllvm` options and KILN_OPTIONS' options (order does not matter
  /// between options of different names).
  std::vector<std::string> Options;
  unsigned OptLevel = 2;
  llvm::Reloc::Model RelocModel = llvm::Reloc::PIC_;
  /// The target CPU as the backend uses it (`-mllvm -mcpu=native` resolved
  /// to the host's CPU); empty for the module's own.
  std::string CPU;
  std::string Input;          ///< Path of the module (its identifier).
  llvm::StringRef InputBytes; ///< The module's bitcode.
  llvm::StringRef IndexBytes; ///< The individual index.
  /// The modules the index imports from: path and bitcode.
  std::vector<std::pair<std::string, llvm::StringRef>> Imports;
  /// The bytes of the `--lto-cs-profile-file=` profile, if one is given.
  std::optional<llvm::StringRef> CSProfileBytes;
};

/// \returns the cache key of a backend job: a 32-hex-digit digest of Kiln's
/// and LLVM's versions, the optimization level, relocation model and CPU,
/// Kiln's configuration (plugin bytes, options, contents of the files they
/// name; see ConfigurationDigest.h), the module's path and bytes, the
/// index's bytes, each imported module's path and bytes (in path order),
/// and the profile's bytes if there is one (not its name). The output
/// file's name is not part of it. \returns an error if the
/// plugin or a file an option names cannot be read.
llvm::Expected<std::string>
computeThinBackendCacheKey(const ThinBackendKeyInputs &Inputs);

} // namespace kiln

#endif // KILN_TOOLS_THINBACKEND_H

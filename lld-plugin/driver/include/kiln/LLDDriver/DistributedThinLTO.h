//===- kiln/LLDDriver/DistributedThinLTO.h - Kiln in DTLTO jobs -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With `--thinlto-distributor=`, lld 22 runs no ThinLTO backend itself: it
/// writes a JSON description of one job per module and hands it to the
/// distributor, whose jobs run the remote compiler in other processes (or on
/// other machines). Those processes do not have Kiln's plugin loaded, and
/// lld passes them none of its `-mllvm` options. `kiln-lld` therefore adds
/// the remote-compiler arguments that make Kiln travel with each job: the
/// plugin (`-fpass-plugin=<plugin>`) and every Kiln option of the link and of
/// KILN_OPTIONS (`-mllvm -kiln-...`), so they appear in the JSON's common
/// `args`. lld's JSON lists job inputs, but lld offers no option to add any:
/// a distributor finds the plugin and the files Kiln's options name in those
/// arguments (docs/CommandGuide/kiln-lld.rst, "Distributed ThinLTO").
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_DISTRIBUTEDTHINLTO_H
#define KILN_LLDDRIVER_DISTRIBUTEDTHINLTO_H

#include "kiln/LLDDriver/LinkerInvocation.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace kiln {

/// How a link distributes its ThinLTO backends, from its command line.
struct DistributedThinLTOSetup {
  std::string Distributor;    ///< `--thinlto-distributor=`; "" if none.
  std::string RemoteCompiler; ///< `--thinlto-remote-compiler=`.
  /// `--thinlto-remote-compiler-prepend-arg=` values, in order.
  std::vector<std::string> PrependArgs;
  /// `--lto-cs-profile-file=` (clang's `-plugin-opt=cs-profile-path=` for a
  /// link with `-fprofile-use`): the profile the backends run with; "" if
  /// none.
  std::string CSProfileFile;

  /// \returns true if the remote compiler is `kiln thin-backend`: the
  /// `kiln` executable with `thin-backend` as its first argument.
  bool remoteCompilerIsKilnThinBackend() const;
};

/// \returns the distributed-ThinLTO options of \p LinkerArgs (argv, program
/// name first) in ld.lld's spellings (`-` or `--`, `=` or a separate value).
DistributedThinLTOSetup
findDistributedThinLTOSetup(llvm::ArrayRef<std::string> LinkerArgs);

/// \returns the lld options that hand Kiln's plugin at \p PluginPath and
/// \p KilnOptions to every job of \p Setup's remote compiler. For `kiln
/// thin-backend` this includes `--relocation-model=static` first (lld adds
/// `-fpic` after it when the link is PIC, and that one wins), since clang's
/// spelling of a backend job leaves the model to the compiler's default.
std::vector<std::string>
remoteCompilerArgsForKiln(const DistributedThinLTOSetup &Setup,
                          llvm::StringRef PluginPath,
                          llvm::ArrayRef<std::string> KilnOptions);

/// Adds remoteCompilerArgsForKiln's options to an ELF link in \p LinkerArgs
/// that uses a distributor while Kiln is active (\p PluginPath non-empty and
/// a Kiln option on the command line or in KILN_OPTIONS); otherwise leaves
/// \p LinkerArgs alone. Warns on \p Diag when the remote compiler is not
/// `kiln thin-backend`: LLVM 22's clang loads the plugin in a ThinLTO
/// backend job but runs none of its passes there.
void carryKilnToDistributedThinLTO(LinkerFlavor Flavor,
                                   std::vector<std::string> &LinkerArgs,
                                   llvm::StringRef PluginPath, bool Verbose,
                                   llvm::raw_ostream &Diag);

} // namespace kiln

#endif // KILN_LLDDRIVER_DISTRIBUTEDTHINLTO_H

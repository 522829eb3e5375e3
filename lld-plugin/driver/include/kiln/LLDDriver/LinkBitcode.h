//===- kiln/LLDDriver/LinkBitcode.h - A link's functions --------*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Which functions an ELF link's LTO will compile, and under which names,
/// read before lld runs: a basic-block sections profile is checked against
/// them (BlockSections.h). The inputs come from the command line (response
/// files already expanded): every argument that names an existing file and
/// every `-l` library found as a static archive in a `-L` directory. That is
/// a superset of what lld loads (an archive member lld does not extract
/// still counts), which only lets a profile entry through that LTO then
/// ignores.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_LLDDRIVER_LINKBITCODE_H
#define KILN_LLDDRIVER_LINKBITCODE_H

#include "kiln/LLDDriver/BlockSections.h"
#include "kiln/Support/UniqueLocalNames.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace kiln {

/// \returns the files of the ELF link \p LinkerArgs (argv, program name
/// first) that may hold bitcode, in command-line order, each once.
std::vector<std::string>
findLinkInputFiles(llvm::ArrayRef<std::string> LinkerArgs);

/// The function names of the bitcode in some files.
struct LinkBitcode {
  LinkFunctionNames Names;
  unsigned NumModules = 0; ///< Bitcode modules read.
  /// The locals the ThinLTO backends should rename (LinkFunctionNames::
  /// UniqueNames), sorted: the list `-kiln-unique-local-names=` reads.
  std::vector<UniqueLocal> UniqueLocals;
};

/// Reads the function definitions of every bitcode module in \p Paths
/// (files and archive members; other files are skipped). A local defined by
/// one module only gets the name ThinLTO would promote it to, from that
/// module's hash; a local whose name other functions have gets each
/// module's promoted name and, in a ThinLTO module whose source file no
/// other module has, its unique name. \returns an error naming the file it
/// cannot read.
llvm::Expected<LinkBitcode> readLinkBitcode(llvm::ArrayRef<std::string> Paths);

} // namespace kiln

#endif // KILN_LLDDRIVER_LINKBITCODE_H

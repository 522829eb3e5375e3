//===- kiln/Sources/LinkerInputs.h - What a link's objects hold -*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads what a link will see from its native inputs (ELF, COFF and Mach-O
/// relocatable objects, and archives of them): every defined function symbol
/// with its object, section, size and binding, and the call-graph profile the
/// compiler recorded (LLVM's CGProfile pass: the `.llvm.call-graph-profile`
/// section of ELF and COFF, `__LLVM,__cg_profile` of Mach-O). The name mapper
/// binds profile names to these symbols, and the graph builder
/// (kiln/Sources/ProfiledGraph.h) turns them into the call graph; what the
/// linker may do with them is kiln/Order/LinkerPolicy.h's. Readers only.
///
//===----------------------------------------------------------------------===//

#ifndef KILN_SOURCES_LINKERINPUTS_H
#define KILN_SOURCES_LINKERINPUTS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kiln {

/// The object file formats Kiln orders for.
enum class ObjectFormat { Unknown, ELF, COFF, MachO };

/// \returns "ELF", "COFF", "Mach-O" or "unknown".
llvm::StringRef getObjectFormatName(ObjectFormat Format);

/// A function symbol defined in a linker input. Its strings are views: those
/// of LinkerInputs::Functions live in the inputs' storage (LinkerInputs::save),
/// so that a million functions are a million small records, not four
/// million strings.
struct InputFunction {
  llvm::StringRef Name;    ///< As in the symbol table (Mach-O '_', COFF
                           ///< decorated).
  llvm::StringRef Object;  ///< `path` or `archive(member)`.
  llvm::StringRef Section; ///< Name of the section that holds it.
  /// The source file it was compiled from, when the object says (an ELF
  /// STT_FILE symbol before it); "" otherwise.
  llvm::StringRef SourceFile;
  uint64_t Size = 0; ///< Bytes (ELF st_size; else up to the next symbol).
  /// The symbol's address: its virtual address in a linked binary, its
  /// offset in its section in a relocatable object.
  uint64_t Address = 0;
  bool IsLocal = false; ///< Not visible outside its object (a C `static`).
  /// The symbol can be ordered on its own: its section holds only it (ELF
  /// `-ffunction-sections`, a COFF COMDAT leader, any Mach-O function).
  bool HasOwnSection = false;
  /// The loader or the C runtime calls it before `main`: the link's entry
  /// point (markLoadEntry) or the target of an ELF `.init_array`,
  /// `.preinit_array` or `.ctors` entry (crtbegin's `frame_dummy`, the
  /// constructors of objects built without instrumentation). Every run
  /// executes it at startup, whatever a profile says.
  bool RunsAtLoad = false;
  /// Bytes of the section that holds it, in a relocatable ELF object (0
  /// otherwise): what lld moves when the order names it.
  uint64_t SectionSize = 0;
  /// For a part of a split function (ELF `fn.cold`, `fn.cold.<n>`: LLVM's
  /// machine function splitter, GCC, BOLT; `fn.__part.<n>`, `fn.eh` and
  /// `fn.cold`: LLVM's basic-block sections), the function it was split
  /// from; "" for a whole function. Such a part is code of its own: it has
  /// its own size and address, and no profile entry of its own.
  std::string SplitFrom;
};

/// \returns the function \p SymbolName is a split part of (`f` for `f.cold`,
/// `f.cold.2`, `f.__part.1` or `f.eh`), or "" if it does not name one.
llvm::StringRef getSplitParentName(llvm::StringRef SymbolName);

/// A call-graph-profile entry of an input, as indices into
/// LinkerInputs::Functions or, for callees defined elsewhere, by name.
struct InputCallEdge {
  /// Index into Functions, or -1 if the symbol is not defined here.
  int64_t Caller = -1;
  int64_t Callee = -1;
  std::string CallerName; ///< Always set.
  std::string CalleeName; ///< Always set.
  uint64_t Count = 0;
};

/// What a set of linker inputs defines and the call graph they record.
struct LinkerInputs {
  /// \returns a copy of \p S that lives as long as these inputs or any
  /// copy of them: where the strings of Functions are kept.
  llvm::StringRef save(llvm::StringRef S);

  ObjectFormat Format = ObjectFormat::Unknown;
  std::vector<InputFunction> Functions;
  std::vector<InputCallEdge> Edges;
  /// Inputs that carried a call-graph-profile section.
  unsigned NumInputsWithCallGraph = 0;
  /// Native objects read (archive members count one each).
  unsigned NumObjects = 0;
  /// ... of which relocatable objects (the rest are linked binaries).
  unsigned NumRelocatable = 0;

private:
  /// The bytes of the saved strings; shared by copies.
  std::shared_ptr<llvm::BumpPtrAllocator> Strings =
      std::make_shared<llvm::BumpPtrAllocator>();
};

/// Reads the object or archive at \p Path into \p Inputs. All inputs of one
/// LinkerInputs must share a format. \returns an error naming the file (and
/// archive member) for unreadable, corrupt or unsupported input, including
/// LLVM bitcode, which has no call-graph section before LTO. With
/// llvm::CrashRecoveryContext enabled, a fault or fatal error inside LLVM's
/// object reader becomes an error too.
llvm::Error readLinkerInput(llvm::StringRef Path, LinkerInputs &Inputs);

/// What a file (or archive member) given to a linker is.
enum class InputKind {
  Relocatable, ///< A native object: Kiln reads its functions.
  Bitcode,     ///< LLVM bitcode: becomes native only in LTO.
  Archive,     ///< An archive (its members are inputs of their own).
  Linked,      ///< A shared library, executable, stub or import library.
  Other,       ///< Anything else (linker scripts, ...).
};

/// \returns what \p Path (or its archive member \p Member) is, from its
/// magic bytes; an error naming the file if it cannot be read.
llvm::Expected<InputKind> classifyLinkerInput(llvm::StringRef Path,
                                              llvm::StringRef Member = "");

/// Reads only the member \p Member of the archive at \p Path (the first of
/// that name), or the whole file if \p Member is empty, as readLinkerInput.
llvm::Error readLinkerInputMember(llvm::StringRef Path, llvm::StringRef Member,
                                  LinkerInputs &Inputs);

} // namespace kiln

#endif // KILN_SOURCES_LINKERINPUTS_H

//===- PgoReplay.h - Block layout's replays of the training -----*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How block layout (PgoBlockLayout.cpp) replays a training run: which runs
/// ran a program (itself, or from its command with a stand-in in the
/// program's place), or a program that loads one of the build's shared
/// libraries, and with what environment; the replay under callgrind or
/// BOLT's instrumentation; the copies without debug information of the
/// libraries a replay loads, which valgrind cannot always read (LLVM 22's
/// DWARF 5).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_TOOLS_LIB_PGOREPLAY_H
#define KILN_TOOLS_LIB_PGOREPLAY_H

#include "PgoSteps.h"

#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"
#include "kiln/Tools/SharedLibraries.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::pgo {

/// The profiler the training runs are replayed under.
struct BlockProfiler {
  PgoBlockLayoutSource Source = PgoBlockLayoutSource::Off;
  std::string Tool; ///< llvm-bolt or valgrind.
};

/// The files of one program's block layout, in its workspace directory.
struct BlockLayoutFiles {
  std::string Dir;
  /// The address-mapped final link, by the program's name: callgrind's
  /// client sees it as argv[0], and a program may act on its name.
  std::string Mapped;
  std::string Instrumented; ///< BOLT's instrumentation of it.
  std::string FdataStem;    ///< Where the instrumented binary writes.
  std::string Profile;      ///< blocks.kbp.
  std::string Relinked;     ///< The relink, before it replaces the program.
  /// The build's shared libraries without debug information, for a
  /// program's replays (the other policy's replays share the default's).
  std::string BuildLibraries;

  BlockLayoutFiles(std::string Dir, llvm::StringRef Program)
      : Dir(Dir),
        Mapped(Dir + "/mapped/" + llvm::sys::path::filename(Program).str()),
        Instrumented(Dir + "/instrumented"), FdataStem(Dir + "/fdata/prof"),
        Profile(Dir + "/blocks.kbp"), Relinked(Dir + "/relinked"),
        BuildLibraries(Dir + "/build-libraries") {}
};

/// A path of the build's program that a replay of a command replaces by a
/// stand-in, which runs Executable under the profiler with the arguments
/// it was given.
struct StandIn {
  std::string Path;
  /// The profiled binary where empty; for a library's replay, a copy of
  /// the program without its debug information.
  std::string Executable;
};

/// How a training run ran the profiled program: by its path (or the path of
/// a copy the build made of it), or through a libtool wrapper script, whose
/// environment a replay needs. A replay runs the profiled binary in its
/// place.
struct ProgramLaunch {
  /// LD_LIBRARY_PATH's directories a libtool wrapper put in front of the
  /// run's own ("" when the run started the program itself).
  std::string LibraryPath;
  /// The program the run started (the wrapper's program for a wrapper);
  /// set where a library is profiled.
  std::string Program;
  /// What runs under the profiler: the profiled binary where empty, else a
  /// copy of Program without its debug information.
  std::string Executable;
  /// The file name the run started the program by (a copy's, a hard
  /// link's: `unpigz` for pigz): the replay runs it by that name, since a
  /// program may act on it. "" for the profiled binary's own name.
  std::string Name;
  /// A directory of the build's libraries, first on LD_LIBRARY_PATH.
  std::string LibraryDir;
  /// Where the run's own command (a script) may have started the program,
  /// or for a library the programs that load it: paths that hold a
  /// stand-in while that command is replayed. Empty where the run started
  /// the program itself.
  std::vector<StandIn> StandIns;
};

/// \returns how \p R ran \p L's program (or a copy of it the build made),
/// or std::nullopt if it did not.
std::optional<ProgramLaunch> runsProgram(const PgoRun &R, const RecordedLink &L,
                                         llvm::ArrayRef<ProgramCopy> Copies);

/// \returns how \p R may have started \p L's program where its command
/// started none of the build's programs \p Links itself (nor a copy
/// \p Copies has of one, nor a libtool wrapper of one): a script, a shell,
/// a test driver, which the replay runs with stand-ins at the program's
/// paths; std::nullopt where the run started a program of the build.
std::optional<ProgramLaunch>
commandMayStartProgram(const PgoRun &R, const RecordedLink &L,
                       llvm::ArrayRef<RecordedLink> Links,
                       llvm::ArrayRef<ProgramCopy> Copies);

/// \returns how \p R ran a program that loads \p Library, one of the
/// build's \p Libraries, or std::nullopt if it did not.
std::optional<ProgramLaunch>
runLoadsLibrary(const PgoRun &R, const BuildLibrary &Library,
                llvm::ArrayRef<BuildLibrary> Libraries);

/// \returns the programs of \p Links that load \p Library, one of the
/// build's \p Libraries (directly or through another of them).
std::vector<std::string> programsLoading(const BuildLibrary &Library,
                                         llvm::ArrayRef<BuildLibrary> Libraries,
                                         llvm::ArrayRef<RecordedLink> Links);

/// \returns how \p R may have started \p Loaders, the build's programs
/// that load a library (programsLoading), where its command started none
/// of the build's programs \p Links itself (as commandMayStartProgram);
/// std::nullopt where it did, or where there are no \p Loaders.
std::optional<ProgramLaunch>
commandMayLoadLibrary(const PgoRun &R, llvm::ArrayRef<std::string> Loaders,
                      llvm::ArrayRef<RecordedLink> Links,
                      llvm::ArrayRef<ProgramCopy> Copies);

/// Replays \p R, which ran the program as \p Launch says, under
/// \p Profiler; \returns the profiles it wrote into \p Files' directory
/// (none where a command with stand-ins did not start the program).
llvm::Expected<std::vector<std::string>>
replayRun(const PgoRun &R, const ProgramLaunch &Launch,
          const BlockProfiler &Profiler, const BlockLayoutFiles &Files,
          llvm::raw_ostream &Out);

/// The instructions (callgrind's Ir) of replays: in all, and in the code of
/// the binary they profile.
struct ReplayInstructions {
  uint64_t Total = 0;
  uint64_t Binary = 0;
};

/// Adds the instructions callgrind's trace \p Trace counted, in all and in
/// \p Binary's code, to \p Sum.
llvm::Error addCallgrindInstructions(llvm::StringRef Trace,
                                     llvm::StringRef Binary,
                                     ReplayInstructions &Sum);

/// Copies the shared libraries of \p LibraryPath's directories (a libtool
/// wrapper's, ':'-separated) into directories under \p Into without their
/// debug information; \returns the copies' directories, ':'-separated.
llvm::Expected<std::string>
librariesWithoutDebugInfo(llvm::StringRef LibraryPath, llvm::StringRef Into,
                          const PgoEnvironment &Env);

/// Copies the ELF file \p From to \p To without its debug information
/// (`llvm-objcopy --strip-debug`), which valgrind cannot always read; the
/// code is the same. \returns a skip reason on failure.
llvm::Error copyWithoutDebugInfo(llvm::StringRef From, llvm::StringRef To,
                                 const PgoEnvironment &Env);

/// Copies \p Libraries, the build's shared libraries as linked now, without
/// their debug information into \p Dir under the names programs load them
/// by; \p Except (a path) is left out.
llvm::Error copyBuildLibraries(llvm::ArrayRef<BuildLibrary> Libraries,
                               llvm::StringRef Dir, llvm::StringRef Except,
                               const PgoEnvironment &Env);

} // namespace kiln::pgo

#endif // KILN_TOOLS_LIB_PGOREPLAY_H

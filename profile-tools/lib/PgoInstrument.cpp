//===- PgoInstrument.cpp - kiln pgo instrument ----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PgoSteps.h"

#include "kiln/Support/ToolError.h"
#include "kiln/Tools/PgoFlags.h"
#include "kiln/Tools/PgoWorkspace.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace kiln;

namespace kiln::pgo {

//===----------------------------------------------------------------------===//
// kiln pgo instrument
//===----------------------------------------------------------------------===//

Error instrumentMain(const PgoOptions &Opts, const PgoEnvironment &Env,
                     raw_ostream &Out) {
  Workspace WS(Opts.Workspace);
  if (Error E = makeDirectory(WS.Root, "instrument"))
    return E;
  Expected<std::unique_ptr<WorkspaceLock>> Lock =
      WorkspaceLock::acquire(WS, std::chrono::milliseconds(0));
  if (!Lock)
    return Lock.takeError();
  Expected<PgoManifest> M = loadManifest(WS, /*MustExist=*/false, "instrument");
  if (!M)
    return M.takeError();
  M->KilnVersion = Env.KilnVersion;
  ++M->Generation;
  M->Phase = "instrument-failed";
  M->Optimize.reset();
  if (Error E = makeDirectory(WS.path("raw"), "instrument"))
    return E;
  if (Error E = saveManifest(WS, *M, "instrument"))
    return E;

  PgoToolPaths Tools{Env.LLVMBinDir, Env.KilnBinDir + "/kiln-lld", Env.Plugin};
  PgoPhaseFlags Flags = computeInstrumentFlags(Tools, WS.path("raw/untracked"));
  Expected<PgoBuild> B =
      runPhaseBuild(WS, Env, "instrument", Opts, Flags, {}, {}, "", "", Out);
  if (!B)
    return B.takeError();
  B->Generation = M->Generation;
  M->Instrument = *B;
  if (!B->Succeeded) {
    if (Error E = saveManifest(WS, *M, "instrument"))
      return E;
    return buildFailure("instrument", *B, *M, WS);
  }
  if (B->Compiles == 0) {
    B->Succeeded = M->Instrument->Succeeded = false;
    if (Error E = saveManifest(WS, *M, "instrument"))
      return E;
    return makeToolError(
        "instrument: the build compiled nothing through Kiln's wrappers",
        joinCommand(B->Command),
        "start from a clean tree (make clean, a new CMake build directory), "
        "and let the build use $CC/$CXX or cc, gcc, c++, g++, clang, clang++ "
        "from PATH");
  }
  M->Phase = "instrumented";
  if (Error E = saveManifest(WS, *M, "instrument"))
    return E;
  printBuildSummary("instrument", *B, WS, Out);
  Out << "kiln: instrument: next, train it: " << WS.command("run")
      << " --scenario=startup -- <command>, " << WS.command("run")
      << " --scenario=<name> -- <command>\n";
  return Error::success();
}

} // namespace kiln::pgo

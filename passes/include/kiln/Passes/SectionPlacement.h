//===- kiln/Passes/SectionPlacement.h - Profile section groups --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Puts each defined function into the section group its profile says, so
/// the linker keeps each group contiguous: functions run at startup, hot
/// functions, warm ones and cold ones. The startup group comes from a list
/// of function names (`-kiln-startup-functions=`) and/or the temporal traces
/// of an indexed profile of a startup run (`-kiln-startup-profile=`); the
/// others from the function's temperature in kiln::FunctionProfile. ELF gets
/// section prefixes (and, for startup, a `.text.startup.<name>` section) that
/// lld keeps apart with `-z keep-text-section-prefix`; COFF gets
/// `.text$k<N><group>` sections that lld-link sorts by suffix into `.text`;
/// Mach-O has no such mechanism (the order file carries the placement).
///
//===----------------------------------------------------------------------===//

#ifndef KILN_PASSES_SECTIONPLACEMENT_H
#define KILN_PASSES_SECTIONPLACEMENT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

#include <string>

namespace kiln {

/// The groups a function can be placed in, in the order the linker should
/// lay them out.
enum class SectionGroup {
  Startup, ///< Listed as run at startup: first, and together.
  Hot,     ///< Hot in the profile.
  Warm,    ///< Profiled, neither hot nor cold.
  Cold,    ///< Cold in the profile: last.
  Unknown, ///< No profile for the function: left where it is.
};

/// \returns the lowercase name used in remarks and docs.
llvm::StringRef getSectionGroupName(SectionGroup Group);

/// `kiln-section-placement`: assigns each defined function's section group.
/// Functions with an explicit section or a section prefix are never touched.
class SectionPlacementPass : public llvm::PassInfoMixin<SectionPlacementPass> {
public:
  /// \p StartupFunctionsFile names the startup list; when empty, the
  /// `-kiln-startup-functions=` option's value is used.
  explicit SectionPlacementPass(std::string StartupFunctionsFile = "")
      : StartupFunctionsFile(std::move(StartupFunctionsFile)) {}
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);

private:
  std::string StartupFunctionsFile;
};

} // namespace kiln

#endif // KILN_PASSES_SECTIONPLACEMENT_H

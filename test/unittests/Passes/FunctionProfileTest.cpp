//===- FunctionProfileTest.cpp - Tests of the per-function profile view ---===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Passes/FunctionProfile.h"
#include "kiln/Passes/PassRegistry.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using kiln::ProfileTemperature;

namespace {

// An instrumented-profile summary: counts >= 1000 are hot, <= 10 cold.
const char *const ProfiledModule = R"IR(
define void @hot() !prof !20 { ret void }
define void @warm() !prof !21 { ret void }
define void @cold() !prof !22 {
entry:
  br label %exit
exit:
  ret void
}
define void @unprofiled() { ret void }
declare void @external()

!llvm.module.flags = !{!1}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"InstrProf"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 5000}
!6 = !{!"MaxInternalCount", i64 5000}
!7 = !{!"MaxFunctionCount", i64 5000}
!8 = !{!"NumCounts", i64 4}
!9 = !{!"NumFunctions", i64 4}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !14}
!12 = !{i32 10000, i64 5000, i32 1}
!13 = !{i32 990000, i64 1000, i32 1}
!14 = !{i32 999999, i64 10, i32 3}
!20 = !{!"function_entry_count", i64 5000}
!21 = !{!"function_entry_count", i64 100}
!22 = !{!"function_entry_count", i64 1}
)IR";

struct Analyzed {
  LLVMContext Context;
  std::unique_ptr<Module> M;
  kiln::FunctionProfile Profile;
};

void analyze(const char *IR, Analyzed &Out) {
  SMDiagnostic Diag;
  Out.M = parseAssemblyString(IR, Diag, Out.Context);
  ASSERT_TRUE(Out.M) << Diag.getMessage().str();
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  kiln::registerKilnPassBuilderCallbacks(PB);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  Out.Profile = MAM.getResult<kiln::FunctionProfileAnalysis>(*Out.M);
}

TEST(FunctionProfile, ClassifiesByTheModuleSummary) {
  Analyzed A;
  ASSERT_NO_FATAL_FAILURE(analyze(ProfiledModule, A));
  EXPECT_EQ(A.Profile.SummaryKind, "instr");
  // Declarations are not part of the view; definitions keep module order.
  ASSERT_EQ(A.Profile.Functions.size(), 4u);
  const auto &F = A.Profile.Functions;
  EXPECT_EQ(F[0].Name, "hot");
  EXPECT_EQ(F[0].EntryCount, 5000u);
  EXPECT_EQ(F[0].Temperature, ProfileTemperature::Hot);
  EXPECT_EQ(F[1].Name, "warm");
  EXPECT_EQ(F[1].Temperature, ProfileTemperature::Warm);
  EXPECT_EQ(F[2].Name, "cold");
  EXPECT_EQ(F[2].Temperature, ProfileTemperature::Cold);
  EXPECT_EQ(F[2].NumBlocks, 2u);
  EXPECT_EQ(F[2].NumInstructions, 2u);
  // A summary without a count for this function says nothing about it.
  EXPECT_EQ(F[3].Name, "unprofiled");
  EXPECT_FALSE(F[3].EntryCount.has_value());
  EXPECT_EQ(F[3].Temperature, ProfileTemperature::Unknown);
}

TEST(FunctionProfile, NoSummaryMeansNoProfile) {
  Analyzed A;
  ASSERT_NO_FATAL_FAILURE(analyze("define void @f() !prof !0 { ret void }\n"
                                  "!0 = !{!\"function_entry_count\", i64 7}\n",
                                  A));
  EXPECT_EQ(A.Profile.SummaryKind, "none");
  ASSERT_EQ(A.Profile.Functions.size(), 1u);
  // The count is reported, but without a summary it cannot be classified.
  EXPECT_EQ(A.Profile.Functions[0].EntryCount, 7u);
  EXPECT_EQ(A.Profile.Functions[0].Temperature, ProfileTemperature::NoProfile);
}

TEST(FunctionProfile, RegistrationIsIdempotent) {
  // The plugin may be loaded twice into one host; the second registration
  // must not add a second copy of the extension-point callbacks.
  PassBuilder PB;
  kiln::registerKilnPassBuilderCallbacks(PB);
  kiln::registerKilnPassBuilderCallbacks(PB);
  ModulePassManager MPM;
  EXPECT_FALSE(errorToBool(PB.parsePassPipeline(MPM, "kiln-profile-remarks")));
  // The analysis registers once: a second registration would assert in
  // debug builds of LLVM, and registerPass returns false if already there.
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  EXPECT_FALSE(
      MAM.registerPass([] { return kiln::FunctionProfileAnalysis(); }));
}

TEST(FunctionProfile, TemperatureNames) {
  EXPECT_EQ(kiln::getTemperatureName(ProfileTemperature::Hot), "hot");
  EXPECT_EQ(kiln::getTemperatureName(ProfileTemperature::Cold), "cold");
  EXPECT_EQ(kiln::getTemperatureName(ProfileTemperature::NoProfile), "none");
}

} // namespace

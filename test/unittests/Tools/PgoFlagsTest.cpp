//===- PgoFlagsTest.cpp - Tests of the kiln pgo phases' flags -------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What the wrapper adds to each kind of compiler command in each phase,
/// and how it tells compiles, links and queries (configure checks) apart.
/// The flow itself is tested end to end in test/kiln/pgo-*.test.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoFlags.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <algorithm>

using namespace kiln;
using testing::Contains;
using testing::ElementsAre;
using testing::IsEmpty;
using testing::Not;

namespace {

PgoToolPaths tools() { return {"/llvm/bin", "/kiln/bin/kiln-lld", "/p.so"}; }

PgoProfiles profiles() {
  return {"/ws/profiles/compile-x64.profdata", "/ws/profiles/startup.profdata",
          "/ws/profiles/steady.profdata"};
}

TEST(PgoFlags, Instrument) {
  PgoPhaseFlags F = computeInstrumentFlags(tools(), "/ws/raw/untracked");
  EXPECT_THAT(F.Leading, ElementsAre("-O2"));
  EXPECT_THAT(F.Compile, ElementsAre("-fprofile-generate=/ws/raw/untracked",
                                     "-ftemporal-profile"));
  EXPECT_THAT(F.Link,
              ElementsAre("-fprofile-generate=/ws/raw/untracked",
                          "-ftemporal-profile", "-fuse-ld=/llvm/bin/ld.lld",
                          "-Wno-fuse-ld-path"));
  EXPECT_THAT(F.TargetLink, IsEmpty());
}

TEST(PgoFlags, OptimizeDefault) {
  // The benchmarks' best configuration without a CSPGO relink.
  PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), {});
  EXPECT_THAT(F.Compile,
              ElementsAre("-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin", "-mllvm",
                          "-icp-total-percent-threshold=90", "-flto=thin"));
  EXPECT_THAT(F.UnprofiledCompile, ElementsAre("-flto=thin"));
  EXPECT_THAT(F.Link, ElementsAre("-flto=thin", "-fuse-ld=/llvm/bin/ld.lld",
                                  "-Wno-fuse-ld-path"));
  // A profiled program's link runs its ThinLTO backends with the profile,
  // as a stock PGO link does.
  EXPECT_THAT(F.TargetLink,
              ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                          "-Wl,--kiln-startup-profile=/ws/profiles/"
                          "startup.profdata",
                          "-Wl,--kiln-profile=/ws/profiles/steady.profdata",
                          "-Wl,--kiln-profiles-of-build",
                          "-Wl,-mllvm,-kiln-split-functions",
                          "-Wl,-mllvm,-kiln-bind-hot-imports",
                          "-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin",
                          "-Wl,-mllvm,-icp-total-percent-threshold=90"));
}

TEST(PgoFlags, OptimizeSwitches) {
  {
    // --no-split: kiln-lld still orders, and nothing splits.
    PgoTransforms T;
    T.Split = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink,
                Not(Contains("-Wl,-mllvm,-kiln-split-functions")));
    EXPECT_THAT(F.TargetLink, Contains("-fuse-ld=/kiln/bin/kiln-lld"));
  }
  {
    // --no-bind-hot-imports: the imports are called through the PLT.
    PgoTransforms T;
    T.BindHotImports = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink,
                Not(Contains("-Wl,-mllvm,-kiln-bind-hot-imports")));
    EXPECT_THAT(F.TargetLink, Contains("-Wl,-mllvm,-kiln-split-functions"));
  }
  {
    // --no-order: kiln-lld only for the backends' options (the splitter's,
    // the hot imports').
    PgoTransforms T;
    T.Order = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink,
                ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                            "-Wl,-mllvm,-kiln-split-functions",
                            "-Wl,-mllvm,-kiln-bind-hot-imports",
                            "-fprofile-use=/ws/profiles/compile-x64.profdata",
                            "-Wno-error=backend-plugin",
                            "-Wl,-mllvm,-icp-total-percent-threshold=90"));
  }
  {
    // --no-order --no-split: plain ThinLTO PGO, no kiln-lld at all.
    PgoTransforms T;
    T.Order = T.Split = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink,
                ElementsAre("-fprofile-use=/ws/profiles/compile-x64.profdata",
                            "-Wno-error=backend-plugin",
                            "-Wl,-mllvm,-icp-total-percent-threshold=90"));
  }
  {
    // --no-strtab: the plugin's default string-table pass is turned off
    // where the plugin is loaded: in kiln-lld, and in the compiles that
    // load it (--no-lto with splitting).
    PgoTransforms T;
    T.StringTables = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink, Contains("-Wl,-mllvm,-kiln-strtab=false"));
    EXPECT_THAT(F.Compile, Not(Contains("-kiln-strtab=false")));
    T.ThinLTO = false;
    F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.Compile, Contains("-kiln-strtab=false"));
    // No plugin anywhere: nothing to turn off.
    T = PgoTransforms();
    T.StringTables = T.Order = T.Split = false;
    F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.TargetLink, Not(Contains("-Wl,-mllvm,-kiln-strtab=false")));
  }
  {
    // --no-lto: the plugin splits in each compile.
    PgoTransforms T;
    T.ThinLTO = false;
    PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
    EXPECT_THAT(F.Compile,
                ElementsAre("-fprofile-use=/ws/profiles/compile-x64.profdata",
                            "-Wno-error=backend-plugin", "-mllvm",
                            "-icp-total-percent-threshold=90",
                            "-fpass-plugin=/p.so", "-mllvm",
                            "-kiln-split-functions", "-ffunction-sections"));
    EXPECT_THAT(F.UnprofiledCompile, ElementsAre("-ffunction-sections"));
    EXPECT_THAT(F.Link,
                ElementsAre("-fuse-ld=/llvm/bin/ld.lld", "-Wno-fuse-ld-path"));
    EXPECT_THAT(F.TargetLink,
                ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                            "-Wl,--kiln-startup-profile=/ws/profiles/"
                            "startup.profdata",
                            "-Wl,--kiln-profile=/ws/profiles/steady.profdata",
                            "-Wl,--kiln-profiles-of-build"));
  }
  {
    // Only a startup scenario: no steady-state profile for the link.
    PgoProfiles P = profiles();
    P.Steady.clear();
    PgoPhaseFlags F = computeOptimizeFlags(tools(), P, {});
    EXPECT_THAT(
        F.TargetLink,
        Not(Contains("-Wl,--kiln-profile=/ws/profiles/steady.profdata")));
    // The profiles are the build's own: kiln-lld refuses none as another
    // program's.
    EXPECT_THAT(F.TargetLink, Contains("-Wl,--kiln-profiles-of-build"));
    // No profile to order by: nothing to say of one.
    P.Startup.clear();
    F = computeOptimizeFlags(tools(), P, {});
    EXPECT_THAT(F.TargetLink, Not(Contains("-Wl,--kiln-profiles-of-build")));
  }
}

TEST(PgoFlags, ContextSensitiveBuild) {
  // The build of the context-sensitive relink: the final compiles, the
  // profiled programs linked instrumented, by kiln-lld (so that the
  // project's own -Wl,-mllvm,-kiln-... flags are understood there too).
  PgoPhaseFlags Final = computeOptimizeFlags(tools(), profiles(), {});
  PgoPhaseFlags F =
      withContextSensitiveInstrumentation(tools(), Final, {}, "/ws/raw/cs");
  EXPECT_EQ(F.Compile, Final.Compile);
  EXPECT_EQ(F.Link, Final.Link);
  EXPECT_THAT(F.TargetLink, ElementsAre("-fuse-ld=" + tools().KilnLLD,
                                        "-fcs-profile-generate=/ws/raw/cs"));
  // --no-pgso: the instrumented link's backends compile as the final ones.
  PgoTransforms NoPGSO;
  NoPGSO.ColdCodeForSpeed = true;
  F = withContextSensitiveInstrumentation(
      tools(), computeOptimizeFlags(tools(), profiles(), NoPGSO), NoPGSO,
      "/ws/raw/cs");
  EXPECT_THAT(F.TargetLink, ElementsAre("-fuse-ld=" + tools().KilnLLD,
                                        "-fcs-profile-generate=/ws/raw/cs",
                                        "-Wl,-mllvm,-pgso=false"));
  // Only with ThinLTO and the order.
  PgoTransforms T;
  EXPECT_TRUE(T.usesContextSensitiveRelink());
  T.ThinLTO = false;
  EXPECT_FALSE(T.usesContextSensitiveRelink());
  T = PgoTransforms();
  T.Order = false;
  EXPECT_FALSE(T.usesContextSensitiveRelink());
  T = PgoTransforms();
  T.ContextSensitive = false;
  EXPECT_FALSE(T.usesContextSensitiveRelink());
}

TEST(PgoFlags, CompilePolicy) {
  // Guarded indirect-call promotion by default: in the compiles (where
  // --no-lto promotes) and in the profiled links' ThinLTO backends.
  PgoTransforms T;
  EXPECT_EQ(T.ICP, PgoIndirectCallPromotion::Guarded);
  EXPECT_THAT(compilePolicyOptions(T),
              ElementsAre("-icp-total-percent-threshold=90"));
  EXPECT_TRUE(T.PartialTraining);
  EXPECT_FALSE(T.usesContextSensitiveCompile());
  T.PolicyChosen = true;
  EXPECT_EQ(describeCompilePolicy(T),
            "IR PGO; the functions no training ran compiled as without a "
            "profile; indirect-call promotion guarded: a target only where "
            "it took 90% or more of its call site's training calls "
            "(--icp=guarded)");
  // Without ThinLTO the backends are the compiles: no link gets it.
  T.ThinLTO = false;
  PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Contains("-icp-total-percent-threshold=90"));
  EXPECT_THAT(F.TargetLink,
              Not(Contains("-Wl,-mllvm,-icp-total-percent-threshold=90")));
  // --icp=stock: LLVM's thresholds, no option anywhere.
  T = PgoTransforms();
  T.ICP = PgoIndirectCallPromotion::Stock;
  T.PolicyChosen = true;
  EXPECT_THAT(compilePolicyOptions(T), IsEmpty());
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Not(Contains("-mllvm")));
  T.PartialTraining = false;
  T.ContextSensitiveCompile = true;
  EXPECT_TRUE(T.usesContextSensitiveCompile());
  EXPECT_EQ(describeCompilePolicy(T),
            "IR PGO with the context-sensitive relink's profiles in the "
            "backends (--cs-compile); the functions no training ran compiled "
            "as never run (--no-partial-training); indirect-call promotion "
            "by LLVM's thresholds (--icp=stock)");
  // The context-sensitive profiles need the relink.
  T.ContextSensitive = false;
  EXPECT_FALSE(T.usesContextSensitiveCompile());
  // --icp=off.
  T.ICP = PgoIndirectCallPromotion::Off;
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Contains("-disable-icp"));
  EXPECT_THAT(F.TargetLink, Contains("-Wl,-mllvm,-disable-icp"));
  EXPECT_THAT(F.Compile, Not(Contains("-pgso=false")));
  // --no-pgso: LLVM's profile-guided size optimization off in the compiles
  // and the profiled links' backends.
  T = PgoTransforms();
  T.ColdCodeForSpeed = true;
  T.PolicyChosen = true;
  EXPECT_THAT(compilePolicyOptions(T),
              ElementsAre("-pgso=false", "-icp-total-percent-threshold=90"));
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Contains("-pgso=false"));
  EXPECT_THAT(F.TargetLink, Contains("-Wl,-mllvm,-pgso=false"));
  EXPECT_EQ(describeCompilePolicy(T),
            "IR PGO; the functions no training ran compiled as without a "
            "profile; the code the profile calls cold compiled for speed "
            "(--no-pgso); indirect-call promotion guarded: a target only "
            "where it took 90% or more of its call site's training calls "
            "(--icp=guarded)");
}

TEST(PgoFlags, UntrainedSize) {
  // Off by default: the plugin is not loaded in the ThinLTO compiles.
  PgoTransforms T;
  EXPECT_FALSE(T.usesUntrainedSize());
  PgoPhaseFlags F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Not(Contains("-fpass-plugin=/p.so")));
  // --untrained-size: the plugin in the compiles, its string-table pass off
  // there (the link's backends lower the tables), nothing in the links.
  T.UntrainedSize = true;
  T.PolicyChosen = true;
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile,
              ElementsAre("-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin", "-mllvm",
                          "-icp-total-percent-threshold=90",
                          "-fpass-plugin=/p.so", "-mllvm", "-kiln-strtab=false",
                          "-mllvm", "-kiln-untrained-size", "-flto=thin"));
  EXPECT_THAT(F.UnprofiledCompile, ElementsAre("-flto=thin"));
  EXPECT_THAT(F.TargetLink, Not(Contains("-Wl,-mllvm,-kiln-untrained-size")));
  EXPECT_EQ(describeCompilePolicy(T),
            "IR PGO; the functions no training ran compiled as without a "
            "profile, for size once inlined into (--untrained-size); "
            "indirect-call promotion guarded: a target only where it took "
            "90% or more of its call site's training calls (--icp=guarded)");
  // Without LTO the plugin is loaded once, its string tables on there.
  T.ThinLTO = false;
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_EQ(
      std::count(F.Compile.begin(), F.Compile.end(), "-fpass-plugin=/p.so"), 1);
  EXPECT_THAT(F.Compile, Contains("-kiln-untrained-size"));
  EXPECT_THAT(F.Compile, Not(Contains("-kiln-strtab=false")));
  // Nothing to do without partial training: every function has a count.
  T = PgoTransforms();
  T.UntrainedSize = true;
  T.PartialTraining = false;
  EXPECT_FALSE(T.usesUntrainedSize());
  F = computeOptimizeFlags(tools(), profiles(), T);
  EXPECT_THAT(F.Compile, Not(Contains("-kiln-untrained-size")));
  // Nor without the plugin.
  T.PartialTraining = true;
  PgoToolPaths NoPlugin = tools();
  NoPlugin.Plugin.clear();
  F = computeOptimizeFlags(NoPlugin, profiles(), T);
  EXPECT_THAT(F.Compile, Not(Contains("-kiln-untrained-size")));
}

TEST(PgoFlags, PolicyMeasuredByBlockLayout) {
  // By default block layout measures stock CSPGO's policy beside the
  // default, on callgrind's replays; a policy the user gave is not
  // measured, nor is one without the relink or callgrind.
  PgoTransforms T;
  EXPECT_TRUE(T.measuresPolicy());
  PgoTransforms Other = alternativePolicy(T);
  EXPECT_TRUE(Other.usesContextSensitiveCompile());
  EXPECT_EQ(Other.ICP, PgoIndirectCallPromotion::Stock);
  EXPECT_FALSE(Other.measuresPolicy());
  T.PolicyChosen = true;
  EXPECT_FALSE(T.measuresPolicy());
  T = PgoTransforms();
  T.BlockLayout = PgoBlockLayoutSource::Bolt;
  EXPECT_FALSE(T.measuresPolicy());
  T = PgoTransforms();
  T.ContextSensitive = false;
  EXPECT_FALSE(T.measuresPolicy());
  // The other policy must save 0.2% of the default's instructions.
  EXPECT_TRUE(prefersAlternativePolicy(1000000, 997999));
  EXPECT_FALSE(prefersAlternativePolicy(1000000, 998000));
  EXPECT_FALSE(prefersAlternativePolicy(1000000, 1200000));
  EXPECT_FALSE(prefersAlternativePolicy(0, 0));
  // It changes only the binary's code: one that ran less than 0.2% of the
  // replays' instructions cannot make it win.
  EXPECT_TRUE(alternativePolicyCannotPay(1000000, 2000));
  EXPECT_FALSE(alternativePolicyCannotPay(1000000, 2001));
  EXPECT_TRUE(alternativePolicyCannotPay(1000000, 0));
  EXPECT_FALSE(alternativePolicyCannotPay(1000000, 5000000));
  EXPECT_TRUE(alternativePolicyCannotPay(0, 0));
  // Its flags: the context-sensitive profile in the links, no promotion
  // threshold.
  PgoProfiles P = profiles();
  P.Compile = "/ws/profiles/compile-cs-x64.profdata";
  PgoPhaseFlags F = computeOptimizeFlags(tools(), P, Other);
  EXPECT_THAT(F.TargetLink,
              Contains("-fprofile-use=/ws/profiles/compile-cs-x64.profdata"));
  EXPECT_THAT(F.TargetLink,
              Not(Contains("-Wl,-mllvm,-icp-total-percent-threshold=90")));
}

TEST(PgoFlags, CompileProfileWeight) {
  // x64 where the splitter alone cuts the functions by their counts; 1
  // where block layout cuts the functions that ran by exact counts, if its
  // profiler is installed; 1 without splitting.
  PgoTransforms T;
  EXPECT_EQ(T.compileProfileWeight(/*HasBlockProfiler=*/true), 1u);
  EXPECT_EQ(T.compileProfileWeight(/*HasBlockProfiler=*/false),
            PgoSplitProfileWeight);
  T.BlockLayout = PgoBlockLayoutSource::Off;
  EXPECT_EQ(T.compileProfileWeight(true), PgoSplitProfileWeight);
  T = PgoTransforms();
  T.Order = false; // No block layout without the order.
  EXPECT_EQ(T.compileProfileWeight(true), PgoSplitProfileWeight);
  T = PgoTransforms();
  T.Split = false;
  EXPECT_EQ(T.compileProfileWeight(false), 1u);
  EXPECT_EQ(T.compileProfileWeight(true), 1u);
}

TEST(PgoFlags, BlockLayoutLinks) {
  PgoPhaseFlags Final = computeOptimizeFlags(tools(), profiles(), {});
  // The profiled binary: the final link with the address map, its function
  // order kept; for BOLT with the relocations and without the split parts
  // BOLT would not instrument.
  PgoPhaseFlags Mapped = withBlockAddressMap(Final, AddressMapUse::Bolt);
  EXPECT_EQ(Mapped.Compile, Final.Compile);
  EXPECT_EQ(Mapped.Link, Final.Link);
  EXPECT_THAT(Mapped.TargetLink,
              ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                          "-Wl,--kiln-startup-profile=/ws/profiles/"
                          "startup.profdata",
                          "-Wl,--kiln-profile=/ws/profiles/steady.profdata",
                          "-Wl,--kiln-profiles-of-build",
                          "-Wl,-mllvm,-kiln-bind-hot-imports",
                          "-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin",
                          "-Wl,-mllvm,-icp-total-percent-threshold=90",
                          "-Wl,--kiln-block-address-map", "-Wl,--emit-relocs"));
  EXPECT_THAT(withBlockAddressMap(Final, AddressMapUse::Callgrind).TargetLink,
              ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                          "-Wl,--kiln-startup-profile=/ws/profiles/"
                          "startup.profdata",
                          "-Wl,--kiln-profile=/ws/profiles/steady.profdata",
                          "-Wl,--kiln-profiles-of-build",
                          "-Wl,-mllvm,-kiln-split-functions",
                          "-Wl,-mllvm,-kiln-bind-hot-imports",
                          "-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin",
                          "-Wl,-mllvm,-icp-total-percent-threshold=90",
                          "-Wl,--kiln-block-address-map", "-Wl,--strip-debug"));
  // The program itself with the map (the context-sensitive relink when
  // callgrind profiles it): its debug info stays.
  std::vector<std::string> WithMap = Final.TargetLink;
  WithMap.push_back("-Wl,--kiln-block-address-map");
  EXPECT_EQ(withBlockAddressMap(Final, AddressMapUse::Program).TargetLink,
            WithMap);
  // The relink: the block profile instead of the function-level profiles,
  // which kiln-lld refuses beside it; strict, so that an unusable block
  // profile fails the link.
  PgoPhaseFlags Blocks = withBlockLayout(Final, "/ws/b.kbp");
  EXPECT_EQ(Blocks.Compile, Final.Compile);
  EXPECT_THAT(Blocks.TargetLink,
              ElementsAre("-fuse-ld=/kiln/bin/kiln-lld",
                          "-Wl,-mllvm,-kiln-split-functions",
                          "-Wl,-mllvm,-kiln-bind-hot-imports",
                          "-fprofile-use=/ws/profiles/compile-x64.profdata",
                          "-Wno-error=backend-plugin",
                          "-Wl,-mllvm,-icp-total-percent-threshold=90",
                          "-Wl,--kiln-block-profile=/ws/b.kbp",
                          "-Wl,--kiln-strict"));
  // Only with ThinLTO and the order; from callgrind's trace by default.
  PgoTransforms T;
  EXPECT_EQ(T.BlockLayout, PgoBlockLayoutSource::Callgrind);
  EXPECT_FALSE(T.BlockLayoutChosen);
  EXPECT_TRUE(T.usesBlockLayout());
  T.BlockLayout = PgoBlockLayoutSource::Off;
  EXPECT_FALSE(T.usesBlockLayout());
  T.BlockLayout = PgoBlockLayoutSource::Bolt;
  EXPECT_TRUE(T.usesBlockLayout());
  T.Order = false;
  EXPECT_FALSE(T.usesBlockLayout());
  T.Order = true;
  T.ThinLTO = false;
  EXPECT_FALSE(T.usesBlockLayout());
}

TEST(PgoFlags, ClassifiesCommands) {
  {
    CompilerInvocation I =
        classifyCompilerArgs({"-O2", "-c", "a.c", "-o", "a.o"});
    EXPECT_EQ(I.Mode, CompilerMode::Compile);
    EXPECT_TRUE(I.HasSources);
    EXPECT_EQ(I.Output, "a.o");
    EXPECT_THAT(I.Sources, ElementsAre("a.c"));
  }
  {
    // A link of objects: no source; -o joined.
    CompilerInvocation I =
        classifyCompilerArgs({"a.o", "libw.a", "-oapp", "-lm"});
    EXPECT_EQ(I.Mode, CompilerMode::Link);
    EXPECT_FALSE(I.HasSources);
    EXPECT_EQ(I.Output, "app");
  }
  {
    // Compile and link in one command (a configure link check).
    CompilerInvocation I =
        classifyCompilerArgs({"conftest.c", "-o", "conftest"});
    EXPECT_EQ(I.Mode, CompilerMode::Link);
    EXPECT_TRUE(I.HasSources);
  }
  // Queries get nothing added.
  EXPECT_EQ(classifyCompilerArgs({"--version"}).Mode, CompilerMode::Query);
  EXPECT_EQ(classifyCompilerArgs({"-E", "conftest.c"}).Mode,
            CompilerMode::Query);
  EXPECT_EQ(classifyCompilerArgs({"-print-prog-name=ld"}).Mode,
            CompilerMode::Query);
  EXPECT_EQ(classifyCompilerArgs({"-v"}).Mode, CompilerMode::Query);
  {
    // The value of -I, -D, -MF, -o is never an input.
    CompilerInvocation I = classifyCompilerArgs(
        {"-I", "inc.c", "-MF", "dep.c", "-MT", "x.o", "-c", "-x", "c", "-"});
    EXPECT_EQ(I.Mode, CompilerMode::Compile);
    EXPECT_TRUE(I.HasSources);
    EXPECT_THAT(I.Sources, IsEmpty());
  }
}

TEST(PgoFlags, ComposesCommands) {
  PgoPhaseFlags F;
  F.Leading = {"-O2"};
  F.Compile = {"-C1"};
  F.Link = {"-L1"};
  F.TargetLink = {"-T1"};
  EXPECT_THAT(composeCompilerCommand("cc", {"-c", "a.c"}, F, false),
              ElementsAre("cc", "-O2", "-c", "a.c", "-C1"));
  EXPECT_THAT(composeCompilerCommand("cc", {"a.o", "-o", "x"}, F, false),
              ElementsAre("cc", "-O2", "a.o", "-o", "x", "-L1"));
  EXPECT_THAT(composeCompilerCommand("cc", {"a.c", "-o", "x"}, F, true),
              ElementsAre("cc", "-O2", "a.c", "-o", "x", "-C1", "-L1", "-T1"));
  EXPECT_THAT(composeCompilerCommand("cc", {"--version"}, F, true),
              ElementsAre("cc", "--version"));
  // A source the profiles do not know (a configure check's).
  F.UnprofiledCompile = {"-U1"};
  EXPECT_THAT(composeCompilerCommand("cc", {"-c", "conftest.c"}, F, false,
                                     /*ProfiledSources=*/false),
              ElementsAre("cc", "-O2", "-c", "conftest.c", "-U1"));
  PgoWrapperConfig C;
  EXPECT_TRUE(C.areProfiled({"/src/conftest.c"}));
  C.ProfiledSources = {"/src/a.c", "/src/b.c"};
  EXPECT_TRUE(C.areProfiled({"/src/a.c", "/src/b.c"}));
  EXPECT_FALSE(C.areProfiled({"/src/a.c", "/src/conftest.c"}));
}

TEST(PgoFlags, WrapperConfigRoundTrips) {
  PgoWrapperConfig C;
  C.LLVMBinDir = "/llvm/bin";
  C.Flags = computeOptimizeFlags(tools(), profiles(), {});
  C.Targets = {"/src/app", "/src/with space/lib.so"};
  C.ProfiledSources = {"/src/a.c"};
  C.RelinkDir = "/ws/optimize/relink";
  PgoWrapperConfig D = parseWrapperConfig(serializeWrapperConfig(C));
  EXPECT_EQ(D.LLVMBinDir, C.LLVMBinDir);
  EXPECT_EQ(D.Flags.Leading, C.Flags.Leading);
  EXPECT_EQ(D.Flags.Compile, C.Flags.Compile);
  EXPECT_EQ(D.Flags.Link, C.Flags.Link);
  EXPECT_EQ(D.Flags.TargetLink, C.Flags.TargetLink);
  EXPECT_EQ(D.Flags.UnprofiledCompile, C.Flags.UnprofiledCompile);
  EXPECT_EQ(D.Targets, C.Targets);
  EXPECT_EQ(D.ProfiledSources, C.ProfiledSources);
  EXPECT_EQ(D.RelinkDir, C.RelinkDir);
}

TEST(PgoFlags, AbsolutePaths) {
  EXPECT_EQ(makeAbsoluteLexically("a.o", "/src/b"), "/src/b/a.o");
  EXPECT_EQ(makeAbsoluteLexically("./x/../app", "/src//b/"), "/src/b/app");
  EXPECT_EQ(makeAbsoluteLexically("/abs/./y", "/src"), "/abs/y");
  EXPECT_EQ(makeAbsoluteLexically("../../..", "/a"), "/");
}

TEST(PgoFlags, InstrumentationSymbolsInNmOutput) {
  // BSD, POSIX (-P) and file-prefixed (-A) lines of instrumentation's
  // symbols, defined and undefined.
  EXPECT_TRUE(namesInstrumentationSymbol(
      "0000000000000000 R __llvm_profile_raw_version"));
  EXPECT_TRUE(namesInstrumentationSymbol("                 U "
                                         "__llvm_profile_runtime"));
  EXPECT_TRUE(namesInstrumentationSymbol("__profc_main d 0 8"));
  EXPECT_TRUE(namesInstrumentationSymbol(
      "lib.a:a.o: 0000000000000010 V __profd__Z3foov"));
  EXPECT_TRUE(namesInstrumentationSymbol("\tw __llvm_prf_cnts_start"));
  // The build's own symbols, an archive member's header, blank lines.
  EXPECT_FALSE(namesInstrumentationSymbol("0000000000000000 T main"));
  EXPECT_FALSE(namesInstrumentationSymbol("0000000000000000 B nm_test_var"));
  EXPECT_FALSE(namesInstrumentationSymbol("a.o:"));
  EXPECT_FALSE(namesInstrumentationSymbol(""));
  // A name that only contains a prefix, or a shorter one.
  EXPECT_FALSE(namesInstrumentationSymbol("0000 T my__profc_counter"));
  EXPECT_FALSE(namesInstrumentationSymbol("0000 T __prof"));
  EXPECT_FALSE(namesInstrumentationSymbol("0000 T __llvm_profile"));
}

} // namespace

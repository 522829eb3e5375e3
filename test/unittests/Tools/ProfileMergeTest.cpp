//===- ProfileMergeTest.cpp - Tests of weighted profile merges ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Weights multiply counts and saturate instead of wrapping; temporal traces
/// keep their own weights; IR and front-end profiles do not mix; the
/// `--scenario=` spelling of kiln profile merge is parsed strictly.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProfileMerge.h"
#include "kiln/Tools/ProfileMergeCommand.h"

#include "llvm/ProfileData/InstrProf.h"
#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <map>

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

constexpr uint64_t Max = std::numeric_limits<uint64_t>::max();

/// An IR-level text profile of one function \p Name with \p Counts, and
/// optionally one temporal trace [\p Name].
std::unique_ptr<MemoryBuffer>
irProfile(StringRef Name, ArrayRef<uint64_t> Counts, bool WithTrace = false) {
  std::string Text = ":ir\n";
  if (WithTrace)
    Text += ":temporal_prof_traces\n1\n1\n1\n" + Name.str() + ",\n";
  Text += Name.str() + "\n1001\n" + std::to_string(Counts.size()) + "\n";
  for (uint64_t C : Counts)
    Text += std::to_string(C) + "\n";
  return MemoryBuffer::getMemBufferCopy(Text);
}

/// The counts of every function of an indexed profile, and its traces'
/// weights.
struct ReadBack {
  std::map<std::string, std::vector<uint64_t>> Counts;
  std::vector<uint64_t> TraceWeights;
};

ReadBack readBack(const MemoryBuffer &Indexed) {
  ReadBack R;
  Expected<std::unique_ptr<InstrProfReader>> Reader = InstrProfReader::create(
      MemoryBuffer::getMemBuffer(Indexed.getMemBufferRef(), false));
  EXPECT_THAT_EXPECTED(Reader, Succeeded());
  if (!Reader)
    return R;
  for (const NamedInstrProfRecord &Rec : **Reader)
    R.Counts[Rec.Name.str()] = Rec.Counts;
  for (const TemporalProfTraceTy &T : (*Reader)->getTemporalProfTraces())
    R.TraceWeights.push_back(T.Weight);
  return R;
}

TEST(ProfileMergeTest, MultiplySaturating) {
  EXPECT_EQ(multiplySaturating(3, 64), 192u);
  EXPECT_EQ(multiplySaturating(0, Max), 0u);
  // 2^32 x 2^32 does not fit: saturated, not 0.
  EXPECT_EQ(multiplySaturating(uint64_t(1) << 32, uint64_t(1) << 32), Max);
  EXPECT_EQ(multiplySaturating(Max, 2), Max);
}

TEST(ProfileMergeTest, WeightsMultiplyCountsAndAdd) {
  auto A = irProfile("f", {10, 1});
  auto B = irProfile("f", {5, 2});
  Expected<MergedProfile> M =
      mergeInstrProfiles({{"a", A.get(), 1}, {"b", B.get(), 3}});
  ASSERT_THAT_EXPECTED(M, Succeeded());
  EXPECT_EQ(M->Functions, 1u);
  EXPECT_TRUE(M->IsIRLevel);
  EXPECT_TRUE(M->Warnings.empty());
  // 10 + 3 x 5, 1 + 3 x 2.
  EXPECT_THAT(readBack(*M->Indexed).Counts["f"], ElementsAre(25u, 7u));
}

TEST(ProfileMergeTest, SparseLeavesOutTheFunctionsOfNoCount) {
  // `never` ran in no input, `once` in one: a sparse merge keeps `once`
  // only, so that the compiler knows nothing of `never`; the default keeps
  // both, `never` as code that never runs.
  auto A = irProfile("once", {0, 0});
  auto B = irProfile("once", {4, 1});
  auto C = irProfile("never", {0, 0, 0});
  Expected<MergedProfile> Sparse = mergeInstrProfiles(
      {{"a", A.get(), 1}, {"b", B.get(), 64}, {"c", C.get(), 64}},
      /*Sparse=*/true);
  ASSERT_THAT_EXPECTED(Sparse, Succeeded());
  EXPECT_EQ(Sparse->Functions, 1u);
  ReadBack R = readBack(*Sparse->Indexed);
  EXPECT_EQ(R.Counts.count("never"), 0u);
  EXPECT_THAT(R.Counts["once"], ElementsAre(256u, 64u));
  Expected<MergedProfile> Full =
      mergeInstrProfiles({{"a", A.get(), 1}, {"c", C.get(), 1}});
  ASSERT_THAT_EXPECTED(Full, Succeeded());
  EXPECT_EQ(Full->Functions, 2u);
  EXPECT_THAT(readBack(*Full->Indexed).Counts["never"],
              ElementsAre(0u, 0u, 0u));
}

/// An IR-level text profile of \p Caller, whose one indirect call site
/// called \p Target \p Calls times, and of \p Target.
std::unique_ptr<MemoryBuffer>
indirectCallProfile(StringRef Caller, StringRef Target, uint64_t Calls) {
  std::string Text = ":ir\n" + Caller.str() + "\n1\n1\n" +
                     std::to_string(Calls) + "\n1\n0\n1\n1\n" + Target.str() +
                     ":" + std::to_string(Calls) + "\n\n" + Target.str() +
                     "\n1\n1\n" + std::to_string(Calls) + "\n";
  return MemoryBuffer::getMemBufferCopy(Text);
}

/// The indirect call targets of \p Function's first site, with their counts.
std::map<std::string, uint64_t> callTargets(const MemoryBuffer &Indexed,
                                            StringRef Function) {
  std::map<std::string, uint64_t> Targets;
  Expected<std::unique_ptr<InstrProfReader>> Reader = InstrProfReader::create(
      MemoryBuffer::getMemBuffer(Indexed.getMemBufferRef(), false));
  EXPECT_THAT_EXPECTED(Reader, Succeeded());
  if (!Reader)
    return Targets;
  InstrProfSymtab &Symtab = (*Reader)->getSymtab();
  for (const NamedInstrProfRecord &Rec : **Reader) {
    if (Rec.Name != Function || !Rec.getNumValueSites(IPVK_IndirectCallTarget))
      continue;
    for (const InstrProfValueData &V :
         Rec.getValueArrayForSite(IPVK_IndirectCallTarget, 0))
      Targets[Symtab.getFuncOrVarName(V.Value).str()] = V.Count;
  }
  return Targets;
}

TEST(ProfileMergeTest, WeightsMultiplyEveryIndirectCallTarget) {
  // Each input saw another target at the same site. LLVM 22's weighted
  // merge adds a target the merged record does not have yet without its
  // weight (h would be 3, not 192); Kiln weights each record first.
  auto A = indirectCallProfile("f", "g", 3);
  auto B = indirectCallProfile("f", "h", 3);
  Expected<MergedProfile> M =
      mergeInstrProfiles({{"a", A.get(), 64}, {"b", B.get(), 64}});
  ASSERT_THAT_EXPECTED(M, Succeeded());
  EXPECT_TRUE(M->Warnings.empty());
  std::map<std::string, uint64_t> Targets = callTargets(*M->Indexed, "f");
  EXPECT_EQ(Targets["g"], 192u);
  EXPECT_EQ(Targets["h"], 192u);
  EXPECT_THAT(readBack(*M->Indexed).Counts["f"], ElementsAre(384u));
}

TEST(ProfileMergeTest, CountsSaturateAtLLVMsLargestCount) {
  auto A = irProfile("hot", {uint64_t(1) << 63, 4});
  Expected<MergedProfile> M = mergeInstrProfiles({{"a", A.get(), 2}});
  ASSERT_THAT_EXPECTED(M, Succeeded());
  // -1 and -2 mean pseudo counts to LLVM: the largest real count is 2^64-3.
  EXPECT_THAT(readBack(*M->Indexed).Counts["hot"],
              ElementsAre(getInstrMaxCountValue(), 8u));
  ASSERT_EQ(M->Warnings.size(), 1u);
  EXPECT_THAT(M->Warnings[0], HasSubstr("a: counts of 1 function(s) "
                                        "saturated"));
}

TEST(ProfileMergeTest, TracesKeepTheirWeights) {
  auto A = irProfile("main", {1}, /*WithTrace=*/true);
  Expected<MergedProfile> M = mergeInstrProfiles({{"a", A.get(), 64}});
  ASSERT_THAT_EXPECTED(M, Succeeded());
  EXPECT_EQ(M->TemporalTraces, 1u);
  ReadBack R = readBack(*M->Indexed);
  EXPECT_THAT(R.Counts["main"], ElementsAre(64u));
  EXPECT_THAT(R.TraceWeights, ElementsAre(1u));
}

TEST(ProfileMergeTest, FrontEndAndIRProfilesDoNotMix) {
  auto IR = irProfile("f", {1});
  auto FE = MemoryBuffer::getMemBufferCopy("f\n1001\n1\n1\n");
  Expected<MergedProfile> M =
      mergeInstrProfiles({{"ir", IR.get(), 1}, {"fe", FE.get(), 1}});
  EXPECT_THAT_EXPECTED(
      M, FailedWithMessage(HasSubstr("fe: cannot merge a front-end profile")));
}

TEST(ProfileMergeTest, ZeroWeightIsRefused) {
  auto A = irProfile("f", {1});
  EXPECT_THAT_EXPECTED(mergeInstrProfiles({{"a", A.get(), 0}}),
                       FailedWithMessage("a: the weight must be at least 1"));
}

TEST(ProfileMergeTest, ParseMergeScenario) {
  Expected<MergeScenario> S = parseMergeScenario("startup=a.profraw,b.raw");
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_EQ(S->Name, "startup");
  EXPECT_THAT(S->Profiles, ElementsAre("a.profraw", "b.raw"));
  EXPECT_EQ(S->Weight, 1u);

  // A trailing :<digits> is the weight; other colons are the path's.
  S = parseMergeScenario("search=c:/x.profdata:12");
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->Profiles, ElementsAre("c:/x.profdata"));
  EXPECT_EQ(S->Weight, 12u);
  S = parseMergeScenario("search=dir:v2/x.profdata");
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_THAT(S->Profiles, ElementsAre("dir:v2/x.profdata"));

  EXPECT_THAT_EXPECTED(parseMergeScenario("steady=a:0"),
                       FailedWithMessage(HasSubstr("the weight must be")));
  EXPECT_THAT_EXPECTED(parseMergeScenario("steady=a:1000001"),
                       FailedWithMessage(HasSubstr("the weight must be")));
  EXPECT_THAT_EXPECTED(parseMergeScenario("steady"),
                       FailedWithMessage(HasSubstr("no '='")));
  EXPECT_THAT_EXPECTED(parseMergeScenario("steady="),
                       FailedWithMessage(HasSubstr("no profile")));
  EXPECT_THAT_EXPECTED(parseMergeScenario(".hidden=a"),
                       FailedWithMessage(HasSubstr("not a scenario name")));
}

TEST(ProfileMergeTest, ParseCountOption) {
  EXPECT_THAT_EXPECTED(parseCountOption("--scale", "64"), HasValue(64u));
  for (StringRef Bad : {"", "0", "-1", "1.5", "x", "99999999999999999999"})
    EXPECT_THAT_EXPECTED(parseCountOption("--scale", Bad), Failed())
        << Bad.str();
}

} // namespace

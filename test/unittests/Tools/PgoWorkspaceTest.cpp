//===- PgoWorkspaceTest.cpp - Tests of the kiln pgo manifest --------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The manifest survives a write and a read unchanged, a bad one is refused
/// with its file named, and files are replaced atomically.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/PgoWorkspace.h"
#include "../Support/TempFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;
using testing::HasSubstr;

namespace {

PgoManifest sampleManifest() {
  PgoManifest M;
  M.KilnVersion = "0.1.0";
  M.Workspace = "/src/.kiln";
  M.Phase = "instrumented";
  M.Generation = 2;
  PgoBuild B;
  B.Command = {"make", "-j2"};
  B.Cwd = "/src";
  B.Time = "2026-01-01T00:00:00Z";
  B.Succeeded = true;
  B.Generation = 2;
  B.Compiles = 3;
  B.Links = 1;
  B.Programs = {{"/src/app", 1234, 5678, "00112233aabbccdd"}};
  B.Sources = {{"/src/a.c", 10, 20, ""}};
  B.Flags = {"compiles: -fprofile-generate=/ws"};
  B.ContextSensitive = "done";
  B.Replays = 2;
  M.Instrument = B;
  PgoRun R;
  R.Id = 1;
  R.Scenario = "startup";
  R.Command = {"./app", "--version"};
  R.Outcome = "ok";
  R.Used = true;
  R.Generation = 2;
  R.RawProfiles = {"raw/startup/run-1/1-x.profraw"};
  R.Program = PgoFileStamp{"/src/app", 1234, 5678, "00112233aabbccdd"};
  R.Stdin = "/src/workload";
  M.Runs.push_back(R);
  R.Id = 2;
  R.Scenario = "steady";
  R.Outcome = "failed";
  R.ExitStatus = 3;
  R.Used = false;
  R.Program.reset();
  M.Runs.push_back(R);
  R.Id = 3;
  R.Outcome = "ok";
  R.ExitStatus = 0;
  R.Used = true;
  R.Generation = 1; // Of an earlier instrumented build.
  M.Runs.push_back(R);
  return M;
}

TEST(PgoWorkspace, ManifestRoundTrips) {
  PgoManifest M = sampleManifest();
  std::string JSON = manifestToJSON(M);
  Expected<PgoManifest> N = manifestFromJSON(JSON, "m.json");
  ASSERT_THAT_EXPECTED(N, Succeeded());
  EXPECT_EQ(manifestToJSON(*N), JSON);
  EXPECT_EQ(N->Phase, "instrumented");
  EXPECT_EQ(N->Workspace, "/src/.kiln");
  ASSERT_TRUE(N->Instrument.has_value());
  EXPECT_THAT(N->Instrument->Command, ElementsAre("make", "-j2"));
  EXPECT_EQ(N->Instrument->ContextSensitive, "done");
  EXPECT_EQ(N->Instrument->Replays, 2u);
  ASSERT_EQ(N->Instrument->Programs.size(), 1u);
  EXPECT_EQ(N->Instrument->Programs[0].Hash, "00112233aabbccdd");
  ASSERT_EQ(N->Runs.size(), 3u);
  EXPECT_EQ(N->Runs[1].ExitStatus, 3);
  EXPECT_FALSE(N->Runs[1].Program.has_value());
  EXPECT_EQ(N->Runs[0].Stdin, "/src/workload");
  EXPECT_FALSE(N->Optimize.has_value());
}

TEST(PgoWorkspace, FinalLinksRoundTripAndReplaceEarlierLinks) {
  PgoManifest M = sampleManifest();
  PgoBuild B = *M.Instrument;
  recordFinalLink(B, {"/src/app", "context-sensitive relink", 1.5, 2.25, 4096});
  recordFinalLink(B, {"/src/tool", "context-sensitive relink", 0.5, 0.5, 2048});
  // Block layout links the program again: its link replaces the first.
  recordFinalLink(B, {"/src/app", "block layout relink", 1.75, 2.5, 8192});
  ASSERT_EQ(B.FinalLinks.size(), 2u);
  EXPECT_EQ(B.FinalLinks[0].Program, "/src/tool");
  EXPECT_EQ(B.FinalLinks[1].Link, "block layout relink");
  M.Optimize = B;
  std::string JSON = manifestToJSON(M);
  Expected<PgoManifest> N = manifestFromJSON(JSON, "m.json");
  ASSERT_THAT_EXPECTED(N, Succeeded());
  EXPECT_EQ(manifestToJSON(*N), JSON);
  ASSERT_EQ(N->Optimize->FinalLinks.size(), 2u);
  const PgoLinkCost &C = N->Optimize->FinalLinks[1];
  EXPECT_EQ(C.Program, "/src/app");
  EXPECT_EQ(C.WallSeconds, 1.75);
  EXPECT_EQ(C.CPUSeconds, 2.5);
  EXPECT_EQ(C.PeakRSSKiB, 8192u);
  EXPECT_THAT(JSON, HasSubstr("\"final_links\""));
  // A manifest written before the field existed reads as no final link.
  json::Value V = cantFail(json::parse(JSON));
  V.getAsObject()->getObject("optimize")->erase("final_links");
  std::string Old;
  raw_string_ostream(Old) << V;
  Expected<PgoManifest> O = manifestFromJSON(Old, "old.json");
  ASSERT_THAT_EXPECTED(O, Succeeded());
  EXPECT_TRUE(O->Optimize->FinalLinks.empty());
}

TEST(PgoWorkspace, UsableRuns) {
  PgoManifest M = sampleManifest();
  // steady's only used run is of an earlier instrumented build.
  EXPECT_THAT(M.usableScenarios(), ElementsAre("startup"));
  EXPECT_EQ(M.usedRuns("startup").size(), 1u);
  EXPECT_TRUE(M.usedRuns("steady").empty());
  EXPECT_TRUE(isStartupScenario("startup"));
  EXPECT_FALSE(isStartupScenario("steady"));
}

TEST(PgoWorkspace, RefusesBadManifests) {
  EXPECT_THAT_EXPECTED(manifestFromJSON("{", "ws/manifest.json"),
                       FailedWithMessage(HasSubstr(
                           "ws/manifest.json: not a kiln pgo manifest")));
  EXPECT_THAT_EXPECTED(manifestFromJSON(R"({"format": 1})", "ws/manifest.json"),
                       FailedWithMessage(HasSubstr(
                           "ws/manifest.json: not a kiln pgo manifest")));
  EXPECT_THAT_EXPECTED(
      manifestFromJSON(R"({"format": 99, "phase": "new"})", "m.json"),
      FailedWithMessage(HasSubstr("manifest format 99")));
  EXPECT_THAT_EXPECTED(
      readManifest("/nonexistent/kiln/manifest.json"),
      FailedWithMessage(HasSubstr("/nonexistent/kiln/manifest.json: cannot "
                                  "read")));
}

TEST(PgoWorkspace, WritesAtomically) {
  SmallString<128> Dir;
  ASSERT_FALSE(sys::fs::createUniqueDirectory("kiln-pgo-ws", Dir));
  std::string Path = (Dir + "/manifest.json").str();
  ASSERT_THAT_ERROR(writeManifest(Path, sampleManifest()), Succeeded());
  ASSERT_THAT_ERROR(writeFileAtomically(Path, "second"), Succeeded());
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  ASSERT_TRUE(static_cast<bool>(Buf));
  EXPECT_EQ((*Buf)->getBuffer(), "second");
  // No temporary file is left behind.
  unsigned Files = 0;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    ++Files;
  EXPECT_EQ(Files, 1u);
  // A directory that does not exist: the error names the file.
  EXPECT_THAT_ERROR(
      writeFileAtomically((Dir + "/no/such/file").str(), "x"),
      FailedWithMessage(HasSubstr("/no/such/file: cannot write")));
  sys::fs::remove_directories(Dir);
}

TEST(PgoWorkspace, StampsFiles) {
  test::TempFile F("kiln-pgo-stamp", "bin", "contents");
  Expected<PgoFileStamp> S = stampFile(F.path(), /*WithHash=*/true);
  ASSERT_THAT_EXPECTED(S, Succeeded());
  EXPECT_EQ(S->Size, 8u);
  EXPECT_EQ(S->Hash.size(), 16u);
  Expected<PgoFileStamp> T = stampFile(F.path(), /*WithHash=*/false);
  ASSERT_THAT_EXPECTED(T, Succeeded());
  EXPECT_TRUE(T->Hash.empty());
  EXPECT_THAT_EXPECTED(stampFile("/nonexistent/kiln", false), Failed());
}

TEST(PgoWorkspace, ScenarioNames) {
  EXPECT_THAT_ERROR(checkScenarioName("startup"), Succeeded());
  EXPECT_THAT_ERROR(checkScenarioName("steady-2.big_input"), Succeeded());
  EXPECT_THAT_ERROR(checkScenarioName(""), Failed());
  EXPECT_THAT_ERROR(checkScenarioName("../x"), Failed());
  EXPECT_THAT_ERROR(
      checkScenarioName("a/b"),
      FailedWithMessage(HasSubstr("'a/b' is not a scenario name")));
}

} // namespace

//===- ProgramStandInTest.cpp - A program replaced for a replay -----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// ProgramStandIns on files of a temporary directory: a stand-in takes the
/// program's place with its permissions and modification time, and the
/// program comes back by restore(), by the destructor, or (after an
/// interrupted optimize) by restoreLeftOriginals; a path that does not
/// exist is left alone. shellQuote on the characters a path may hold.
/// test/kiln/pgo-script-training.test runs real replays through stand-ins.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ProgramStandIn.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <fstream>

using namespace llvm;
using namespace kiln::pgo;

namespace {

class ProgramStandInTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("kiln-stand-in", Dir));
    Program = (Dir + "/app").str();
    StandIn = (Dir + "/stand-in").str();
    write(Program, "the program");
    write(StandIn, "#!/bin/sh\n");
    sys::fs::setPermissions(Program, sys::fs::perms(0750));
    int FD;
    ASSERT_FALSE(
        sys::fs::openFileForWrite(Program, FD, sys::fs::CD_OpenExisting));
    ProgramTime = sys::toTimePoint(1000000000);
    sys::fs::setLastAccessAndModificationTime(FD, ProgramTime);
    sys::fs::closeFile(FD);
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  static void write(StringRef Path, StringRef Text) {
    std::ofstream(Path.str()) << Text.str();
  }
  static std::string read(StringRef Path) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = MemoryBuffer::getFile(Path);
    return B ? (*B)->getBuffer().str() : "<missing>";
  }

  SmallString<128> Dir;
  std::string Program, StandIn;
  sys::TimePoint<> ProgramTime;
};

TEST_F(ProgramStandInTest, TakesThePlaceAndGivesItBack) {
  ProgramStandIns S;
  ASSERT_FALSE(errorToBool(S.install({Program}, StandIn)));
  EXPECT_EQ(read(Program), "#!/bin/sh\n");
  EXPECT_EQ(read(standInOriginal(Program)), "the program");
  sys::fs::file_status Status;
  ASSERT_FALSE(sys::fs::status(Program, Status));
  EXPECT_EQ(Status.permissions(), sys::fs::perms(0750));
  EXPECT_EQ(Status.getLastModificationTime(), ProgramTime);
  EXPECT_FALSE(errorToBool(S.restore()));
  EXPECT_EQ(read(Program), "the program");
  EXPECT_FALSE(sys::fs::exists(standInOriginal(Program)));
  // Restored once: a second restore has nothing to do.
  EXPECT_FALSE(errorToBool(S.restore()));
  EXPECT_EQ(read(Program), "the program");
}

TEST_F(ProgramStandInTest, TheDestructorGivesItBack) {
  {
    ProgramStandIns S;
    ASSERT_FALSE(errorToBool(S.install({Program}, StandIn)));
    EXPECT_EQ(read(Program), "#!/bin/sh\n");
  }
  EXPECT_EQ(read(Program), "the program");
}

TEST_F(ProgramStandInTest, MissingPathsAreLeftAlone) {
  std::string Gone = (Dir + "/gone").str();
  ProgramStandIns S;
  ASSERT_FALSE(errorToBool(S.install({Gone, Program}, StandIn)));
  EXPECT_FALSE(sys::fs::exists(Gone));
  EXPECT_EQ(read(Program), "#!/bin/sh\n");
}

TEST_F(ProgramStandInTest, AFailedInstallPutsEveryProgramBack) {
  ProgramStandIns S;
  // The stand-in cannot be copied: the program stays where it was.
  Error E = S.install({Program}, (Dir + "/no-such-stand-in").str());
  EXPECT_TRUE(errorToBool(std::move(E)));
  EXPECT_EQ(read(Program), "the program");
  EXPECT_FALSE(sys::fs::exists(standInOriginal(Program)));
}

TEST_F(ProgramStandInTest, AnInterruptedReplayIsUndoneLater) {
  // What a killed optimize leaves: the stand-in in place, the program
  // beside it.
  ASSERT_FALSE(sys::fs::rename(Program, standInOriginal(Program)));
  write(Program, "#!/bin/sh\n");
  std::string Notes;
  raw_string_ostream OS(Notes);
  std::string Other = (Dir + "/other").str();
  ASSERT_FALSE(errorToBool(restoreLeftOriginals({Program, Other}, OS)));
  EXPECT_EQ(read(Program), "the program");
  EXPECT_FALSE(sys::fs::exists(standInOriginal(Program)));
  EXPECT_EQ(Notes, "kiln: note: " + Program +
                       ": put back the program an interrupted block layout "
                       "replay had moved aside\n");
}

TEST(ShellQuote, QuotesForThePosixShell) {
  EXPECT_EQ(shellQuote("/w/a b/app"), "'/w/a b/app'");
  EXPECT_EQ(shellQuote("it's"), "'it'\\''s'");
  EXPECT_EQ(shellQuote("$HOME`x`\\"), "'$HOME`x`\\'");
  EXPECT_EQ(shellQuote(""), "''");
}

} // namespace

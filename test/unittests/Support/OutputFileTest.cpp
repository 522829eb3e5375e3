//===- OutputFileTest.cpp - Tests of kiln::OutputFile ---------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Testing/Support/Error.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using kiln::NamedFile;

namespace {

/// A fresh directory for one test, removed with everything in it.
class ScratchDir {
public:
  ScratchDir() {
    EXPECT_FALSE(sys::fs::createUniqueDirectory("kiln-outputfile", Dir));
  }
  ~ScratchDir() { sys::fs::remove_directories(Dir); }
  std::string file(StringRef Name) const {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    return P.str().str();
  }
  /// The names of the files in the directory, sorted.
  std::vector<std::string> list() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      Names.push_back(sys::path::filename(It->path()).str());
    llvm::sort(Names);
    return Names;
  }

private:
  SmallString<128> Dir;
};

static void writeFile(StringRef Path, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  ASSERT_FALSE(EC);
  OS << Contents;
}

static std::string readFile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "<unreadable>";
}

TEST(CheckOutputPaths, DistinctFilesPass) {
  ScratchDir D;
  writeFile(D.file("in.o"), "in");
  // A missing output is fine: it is created.
  EXPECT_THAT_ERROR(kiln::checkOutputPaths({{D.file("out.txt"), "-o"}},
                                           {{D.file("in.o"), "input"}}),
                    Succeeded());
  // stdout and unset outputs are never files of the command.
  EXPECT_THAT_ERROR(
      kiln::checkOutputPaths({{"-", "-o"}, {"", "--report"}, {"-", "--x"}},
                             {{D.file("in.o"), "input"}}),
      Succeeded());
}

TEST(CheckOutputPaths, OutputThatIsAnInput) {
  ScratchDir D;
  std::string In = D.file("x.o");
  writeFile(In, "in");
  EXPECT_THAT_ERROR(
      kiln::checkOutputPaths({{In, "-o"}}, {{In, "input"}}),
      FailedWithMessage(In + ": -o would overwrite an input of this command "
                             "(input)"));
  // Another spelling of the same path.
  std::string Dotted = D.file(".") + "/./x.o";
  EXPECT_THAT_ERROR(
      kiln::checkOutputPaths({{Dotted, "--report"}}, {{In, "--profile"}}),
      Failed());
  // A hard link is the same file under another name.
  std::string Hard = D.file("hard.o");
  ASSERT_FALSE(sys::fs::create_hard_link(In, Hard));
  EXPECT_THAT_ERROR(kiln::checkOutputPaths({{Hard, "-o"}}, {{In, "input"}}),
                    FailedWithMessage(Hard + ": -o would overwrite an input "
                                             "of this command (input)"));
  // And so is a symbolic link.
  std::string Soft = D.file("soft.o");
  ASSERT_FALSE(sys::fs::create_link(In, Soft));
  EXPECT_THAT_ERROR(kiln::checkOutputPaths({{In, "-o"}}, {{Soft, "input"}}),
                    Failed());
}

TEST(CheckOutputPaths, TwoOutputsOneFile) {
  ScratchDir D;
  // Neither exists: compared by resolved path.
  std::string Out = D.file("out.json");
  std::string Same = D.file(".") + "/../" +
                     sys::path::filename(sys::path::parent_path(Out)).str() +
                     "/out.json";
  EXPECT_THAT_ERROR(
      kiln::checkOutputPaths({{Out, "-o"}, {Same, "--report"}}, {}),
      FailedWithMessage(Same + ": -o and --report name the same file"));
}

TEST(CheckOutputPaths, DevicesAreNotReplaced) {
  // Writing /dev/null twice destroys nothing.
  EXPECT_THAT_ERROR(
      kiln::checkOutputPaths({{"/dev/null", "-o"}, {"/dev/null", "--report"}},
                             {{"/dev/null", "input"}}),
      Succeeded());
}

TEST(OutputFile, CommitReplacesTheFile) {
  ScratchDir D;
  std::string Out = D.file("out.txt");
  writeFile(Out, "old");
  Expected<std::unique_ptr<kiln::OutputFile>> File =
      kiln::OutputFile::create(Out);
  ASSERT_THAT_EXPECTED(File, Succeeded());
  (*File)->os() << "new";
  // Until the commit, the previous contents stay, and the new ones sit in
  // a temporary next to it.
  EXPECT_EQ(readFile(Out), "old");
  EXPECT_EQ(D.list().size(), 2u);
  EXPECT_THAT_ERROR((*File)->commit(), Succeeded());
  EXPECT_EQ(readFile(Out), "new");
  EXPECT_THAT(D.list(), testing::ElementsAre("out.txt"));
}

TEST(OutputFile, NoCommitLeavesThePreviousFile) {
  ScratchDir D;
  std::string Out = D.file("out.txt");
  writeFile(Out, "old");
  {
    Expected<std::unique_ptr<kiln::OutputFile>> File =
        kiln::OutputFile::create(Out);
    ASSERT_THAT_EXPECTED(File, Succeeded());
    (*File)->os() << "half of it";
  }
  EXPECT_EQ(readFile(Out), "old");
  EXPECT_THAT(D.list(), testing::ElementsAre("out.txt"));
}

TEST(OutputFile, AWriterByNameWritesTheTemporary) {
  ScratchDir D;
  std::string Out = D.file("remarks.yaml");
  writeFile(Out, "old");
  {
    // A writer that opens files by name (LLVM's remarks) and then fails:
    // the output keeps its previous contents.
    Expected<std::unique_ptr<kiln::OutputFile>> File =
        kiln::OutputFile::create(Out);
    ASSERT_THAT_EXPECTED(File, Succeeded());
    EXPECT_NE((*File)->pathToWrite(), Out);
    writeFile((*File)->pathToWrite(), "half of it");
  }
  EXPECT_EQ(readFile(Out), "old");
  EXPECT_THAT(D.list(), testing::ElementsAre("remarks.yaml"));
  Expected<std::unique_ptr<kiln::OutputFile>> File =
      kiln::OutputFile::create(Out);
  ASSERT_THAT_EXPECTED(File, Succeeded());
  writeFile((*File)->pathToWrite(), "new");
  EXPECT_EQ(readFile(Out), "old");
  EXPECT_THAT_ERROR((*File)->commit(), Succeeded());
  EXPECT_EQ(readFile(Out), "new");
  EXPECT_THAT(D.list(), testing::ElementsAre("remarks.yaml"));
  // Standard output is `-` to such a writer too.
  Expected<std::unique_ptr<kiln::OutputFile>> Stdout =
      kiln::OutputFile::create("-");
  ASSERT_THAT_EXPECTED(Stdout, Succeeded());
  EXPECT_EQ((*Stdout)->pathToWrite(), "-");
  EXPECT_THAT_ERROR((*Stdout)->commit(), Succeeded());
}

TEST(OutputFile, MissingDirectoryIsAnError) {
  ScratchDir D;
  std::string Out = D.file("no/such/dir/out.txt");
  EXPECT_THAT_EXPECTED(kiln::OutputFile::create(Out),
                       FailedWithMessage(Out + ": No such file or directory"));
}

TEST(OutputFile, ADirectoryIsNotReplaced) {
  ScratchDir D;
  std::string Out = D.file("sub");
  ASSERT_FALSE(sys::fs::create_directory(Out));
  EXPECT_THAT_ERROR(
      kiln::writeOutputFile(Out, [](raw_ostream &OS) { OS << "x"; }), Failed());
  EXPECT_TRUE(sys::fs::is_directory(Out));
  EXPECT_THAT(D.list(), testing::ElementsAre("sub"));
}

TEST(OutputFile, FullDeviceIsAnErrorNotAnAbort) {
  if (!sys::fs::exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full";
  // Far more than the stream's buffer, so that the write itself fails too.
  EXPECT_THAT_ERROR(kiln::writeOutputFile("/dev/full",
                                          [](raw_ostream &OS) {
                                            for (int I = 0; I < 100000; ++I)
                                              OS << "0123456789";
                                          }),
                    FailedWithMessage("/dev/full: No space left on device"));
  // A small write fails only when flushed, at the commit.
  EXPECT_THAT_ERROR(
      kiln::writeOutputFile("/dev/full", [](raw_ostream &OS) { OS << "x"; }),
      FailedWithMessage("/dev/full: No space left on device"));
  // And an uncommitted one is dropped silently when destroyed.
  {
    Expected<std::unique_ptr<kiln::OutputFile>> File =
        kiln::OutputFile::create("/dev/full");
    ASSERT_THAT_EXPECTED(File, Succeeded());
    (*File)->os() << "x";
  }
}

TEST(OutputFile, WritesThroughASymbolicLink) {
  ScratchDir D;
  std::string Target = D.file("target.txt");
  std::string Link = D.file("link.txt");
  writeFile(Target, "old");
  ASSERT_FALSE(sys::fs::create_link(Target, Link));
  EXPECT_THAT_ERROR(
      kiln::writeOutputFile(Link, [](raw_ostream &OS) { OS << "new"; }),
      Succeeded());
  EXPECT_TRUE(sys::fs::is_symlink_file(Link));
  EXPECT_EQ(readFile(Target), "new");
}

} // namespace

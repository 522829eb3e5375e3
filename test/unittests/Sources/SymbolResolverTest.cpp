//===- SymbolResolverTest.cpp - Tests of profile-name resolution ----------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/SymbolResolver.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using testing::ElementsAre;

namespace {

InputFunction fn(StringRef Name, StringRef Object, bool IsLocal,
                 StringRef SourceFile = "") {
  // The tests' names are literals: they outlive the functions.
  InputFunction F;
  F.Name = Name;
  F.Object = Object;
  F.IsLocal = IsLocal;
  F.SourceFile = SourceFile;
  return F;
}

TEST(PGOName, SplitsBothDialects) {
  PGOName IR = parsePGOName("dir/a.c;parse");
  EXPECT_EQ(IR.SourceFile, "dir/a.c");
  EXPECT_EQ(IR.Function, "parse");
  PGOName FE = parsePGOName("dir/a.c:parse");
  EXPECT_EQ(FE.SourceFile, "dir/a.c");
  EXPECT_EQ(FE.Function, "parse");
  // Globals, including C++ and Objective-C names, have no file.
  EXPECT_FALSE(parsePGOName("_ZN1a4workEv").isLocal());
  EXPECT_FALSE(parsePGOName("-[Foo bar:baz:]").isLocal());
  // A Windows path keeps its drive letter.
  EXPECT_EQ(parsePGOName("C:\\src\\a.c:fn").SourceFile, "C:\\src\\a.c");
}

TEST(BaseName, StripsSameFunctionSuffixesOnly) {
  EXPECT_EQ(getBaseName("fn.llvm.123", ObjectFormat::ELF), "fn");
  EXPECT_EQ(getBaseName("fn.__uniq.456", ObjectFormat::ELF), "fn");
  EXPECT_EQ(getBaseName("fn.__uniq.456.llvm.7", ObjectFormat::ELF), "fn");
  // Split parts are other code.
  EXPECT_EQ(getBaseName("fn.cold", ObjectFormat::ELF), "fn.cold");
  EXPECT_EQ(getBaseName("fn.part.0", ObjectFormat::ELF), "fn.part.0");
  // A suffix without its number is part of the name.
  EXPECT_EQ(getBaseName("fn.llvm.x", ObjectFormat::ELF), "fn.llvm.x");
  EXPECT_EQ(getBaseName("_fn", ObjectFormat::MachO), "fn");
  EXPECT_EQ(getBaseName("_fn", ObjectFormat::ELF), "_fn");
}

TEST(SymbolResolver, PicksTheStaticOfTheRightFile) {
  LinkerInputs In;
  In.Format = ObjectFormat::ELF;
  In.Functions = {fn("parse", "a.o", true, "src/a.c"),
                  fn("parse", "b.o", true, "src/b.c"),
                  fn("main", "a.o", false)};
  SymbolResolver R(In);
  Resolution A = R.resolve("src/a.c;parse");
  EXPECT_EQ(A.Status, Resolution::Bound);
  EXPECT_EQ(A.Function, 0u);
  Resolution B = R.resolve("src/b.c:parse");
  EXPECT_EQ(B.Status, Resolution::Bound);
  EXPECT_EQ(B.Function, 1u);
  // The object names only the file, not the directory.
  In.Functions[1].SourceFile = "b.c";
  EXPECT_EQ(SymbolResolver(In).resolve("/abs/src/b.c;parse").Function, 1u);
  // A file that defines none of them.
  Resolution C = R.resolve("src/c.c;parse");
  EXPECT_EQ(C.Status, Resolution::Ambiguous);
  EXPECT_THAT(C.Candidates, ElementsAre(0u, 1u));
}

TEST(SymbolResolver, FallsBackToObjectNames) {
  // Mach-O and COFF objects carry no source file name without debug info.
  LinkerInputs In;
  In.Format = ObjectFormat::MachO;
  In.Functions = {fn("_parse", "x/a.o", true),
                  fn("_parse", "lib.a(b.o)", true)};
  SymbolResolver R(In);
  EXPECT_EQ(R.resolve("a.c;parse").Function, 0u);
  EXPECT_EQ(R.resolve("b.c;parse").Function, 1u);
}

TEST(SymbolResolver, FollowsPromotionAndUniqueNames) {
  LinkerInputs In;
  In.Format = ObjectFormat::ELF;
  // ThinLTO promoted a.c's static; b.c's stayed local.
  In.Functions = {fn("parse.llvm.99", "app", false),
                  fn("parse", "app", true, "b.c"),
                  fn("scan.__uniq.12", "app", true, "")};
  SymbolResolver R(In);
  // The promoted symbol is global now but still a.c's static.
  Resolution A = R.resolve("a.c;parse");
  EXPECT_EQ(A.Status, Resolution::Ambiguous)
      << "a promoted symbol has no file; with two candidates it is unsafe";
  EXPECT_EQ(R.resolve("b.c;parse").Function, 1u);
  EXPECT_EQ(R.resolve("c.c;scan").Function, 2u);
}

TEST(SymbolResolver, GlobalsAndInternalizedGlobals) {
  LinkerInputs In;
  In.Format = ObjectFormat::ELF;
  In.Functions = {fn("inl", "a.o", false), fn("inl", "b.o", false),
                  fn("helper", "app", true, "h.c")};
  SymbolResolver R(In);
  // Same global in two objects (an inline function): the first is fine.
  EXPECT_EQ(R.resolve("inl").Status, Resolution::Bound);
  // LTO internalized helper: the only candidate.
  Resolution H = R.resolve("helper");
  EXPECT_EQ(H.Status, Resolution::Bound);
  EXPECT_EQ(H.Function, 2u);
  EXPECT_EQ(R.resolve("absent").Status, Resolution::NotFound);
}

} // namespace

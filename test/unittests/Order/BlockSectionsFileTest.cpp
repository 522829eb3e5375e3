//===- BlockSectionsFileTest.cpp - Tests of the block layout files --------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/BlockSectionsFile.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace kiln;
using namespace kiln::layout;

namespace {

/// `main` (blocks 0, 5, 2: 0 runs at startup and in the steady state, 2
/// only at startup, 5 only in the steady state) and `helper.llvm.7`,
/// a promoted static that ran in the steady state only (its entry block a
/// loop), with a block that never ran.
BlockProfile makeProfile() {
  BlockProfile P;
  P.Scenarios.push_back({"start", ScenarioKind::Startup, 1.0});
  P.Scenarios.push_back({"work", ScenarioKind::SteadyState, 1.0});
  BlockFunction Main;
  Main.Name = "main";
  Main.Address = 0x1000;
  Main.Blocks.push_back({0, 0x1000, 32, 0, false, {1, 1}});
  Main.Blocks.push_back({5, 0x1020, 32, 0, false, {0, 9}});
  Main.Blocks.push_back({2, 0x1040, 32, 0, false, {1, 0}});
  Main.Edges.push_back({0, 1, {0, 1}});
  Main.Edges.push_back({0, 2, {1, 0}});
  Main.Calls.push_back({1, 1, {0, 9}});
  P.Functions.push_back(std::move(Main));
  BlockFunction Helper;
  Helper.Name = "helper.llvm.7";
  Helper.Address = 0x2000;
  Helper.Blocks.push_back({0, 0x2000, 32, 0, false, {0, 9}});
  Helper.Blocks.push_back({1, 0x2020, 32, 0, false, {0, 0}});
  Helper.Edges.push_back({0, 0, {0, 8}});
  P.Functions.push_back(std::move(Helper));
  return P;
}

TEST(BlockSectionsFile, WritesTheV1Profile) {
  BlockProfile P = makeProfile();
  BlockLayout L = planBlockLayout(P);
  std::string Text;
  raw_string_ostream OS(Text);
  BlockSectionsReport R =
      writeBasicBlockSectionsProfile(P, L, {"made by a test"}, OS);
  EXPECT_EQ(Text, "# made by a test\n"
                  "v1\n"
                  "f main\n"
                  "c 0\n"
                  "c 2\n"
                  "c 5\n"
                  "f helper.llvm.7\n"
                  "c 0\n");
  EXPECT_EQ(R.Functions, 2u);
  EXPECT_EQ(R.Clusters, 4u);
}

TEST(BlockSectionsFile, WritesTheClustersInPlacedOrder) {
  BlockProfile P = makeProfile();
  BlockLayoutConfig Config;
  Config.Composite.PlaceColdNodes = true;
  BlockLayout L = planBlockLayout(P, Config);
  std::string Text;
  raw_string_ostream OS(Text);
  OrderFileOptions Opts;
  Opts.Header = {"made by a test"};
  OrderFileReport R = writeClusterOrderFile(P, L, Opts, OS);
  // Startup first: main's startup-only part, then its shared entry, which
  // the steady state runs too and so closes the startup group; main's
  // steady part and what it calls are hot (their relative order is
  // cdsort's); the never-run part of the helper last.
  // The C runtime's startup code comes first.
  EXPECT_TRUE(Text == "# made by a test\n_start\nframe_dummy\n"
                      "main.__part.1\nmain\nmain.__part.2\nhelper.llvm.7\n"
                      "helper.llvm.7.cold\n" ||
              Text == "# made by a test\n_start\nframe_dummy\n"
                      "main.__part.1\nmain\nhelper.llvm.7\nmain.__part.2\n"
                      "helper.llvm.7.cold\n")
      << Text;
  EXPECT_EQ(R.Written, 5u);
  EXPECT_EQ(R.BytesWritten, 160u); // Every byte of both functions.
  EXPECT_TRUE(R.Skipped.empty());
  EXPECT_TRUE(R.Shared.empty());
}

TEST(BlockSectionsFile, TheRuntimesStartupCodeIsNotListedTwice) {
  // A profile that names `_start` itself (a program that defines it in its
  // own, address-mapped code) gets it once, first.
  BlockProfile P = makeProfile();
  P.Functions[1].Name = "_start";
  BlockLayout L = planBlockLayout(P);
  std::string Text;
  raw_string_ostream OS(Text);
  OrderFileReport R = writeClusterOrderFile(P, L, {}, OS);
  EXPECT_EQ(StringRef(Text).count("_start\n"), 1u) << Text;
  EXPECT_TRUE(StringRef(Text).starts_with("_start\nframe_dummy\n")) << Text;
  EXPECT_EQ(R.Written, 3u); // main's three clusters; _start's own is first.
}

} // namespace

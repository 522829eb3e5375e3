//===- BlockSectionsFile.cpp - Block layout files -------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Order/BlockSectionsFile.h"

#include "kiln/Order/OrderFileText.h"

#include "llvm/Support/raw_ostream.h"

#include <cassert>
#include <numeric>

using namespace llvm;
using namespace kiln;

BlockSectionsReport kiln::writeBasicBlockSectionsProfile(
    const layout::BlockProfile &Profile, const layout::BlockLayout &Layout,
    ArrayRef<std::string> Header, raw_ostream &OS) {
  BlockSectionsReport Report;
  writeOrderFileHeader(Header, OS);
  OS << "v1\n";
  for (const layout::ClusteredFunction &CF : Layout.Functions) {
    const layout::BlockFunction &F = Profile.Functions[CF.Function];
    // Placed whole, by its name (BlockFunction::SharedName): an entry would
    // lay out every function of the name by this one's block IDs.
    if (CF.Whole)
      continue;
    OS << "f " << F.Name << '\n';
    ++Report.Functions;
    // ClusteredFunction::Clusters lists them by `c` line (LLVM numbers the
    // `fn.__part.N` sections by it), the unlisted (cold) one last.
    [[maybe_unused]] uint32_t Line = 0;
    for (uint32_t Index : CF.Clusters) {
      const layout::BlockCluster &C = Layout.Clusters[Index];
      if (C.Number == layout::UnlistedCluster)
        continue;
      assert(C.Number == Line++ && "clusters are listed by their number");
      OS << 'c';
      for (uint32_t B : C.Blocks)
        OS << ' ' << F.Blocks[B].ID;
      OS << '\n';
      ++Report.Clusters;
    }
  }
  return Report;
}

OrderFileReport kiln::writeClusterOrderFile(const layout::BlockProfile &Profile,
                                            const layout::BlockLayout &Layout,
                                            const OrderFileOptions &Opts,
                                            raw_ostream &OS) {
  // The clusters as the sections of a link: each is a section of its own,
  // and a part names the function it was split from.
  LinkerInputs Clusters;
  Clusters.Format = ObjectFormat::ELF;
  for (uint32_t Index : Layout.Order) {
    const layout::BlockCluster &C = Layout.Clusters[Index];
    StringRef FunctionName = Profile.Functions[C.Function].Name;
    InputFunction F;
    F.Name = Clusters.save(layout::getClusterSymbolName(FunctionName, C));
    if (C.Number != 0)
      F.SplitFrom = FunctionName.str();
    F.Size = C.Bytes;
    F.HasOwnSection = true;
    Clusters.Functions.push_back(std::move(F));
  }
  std::vector<size_t> Order(Clusters.Functions.size());
  std::iota(Order.begin(), Order.end(), size_t(0));
  // The C runtime's code that every start of an executable runs before
  // main: crt1.o's `_start` (the ELF entry point) and crtbegin.o's section
  // of `frame_dummy` (which the loader runs from .init_array; the same
  // section holds register_tm_clones and __do_global_dtors_aux). It is not
  // compiled with the profile, so no block profile names it, and lld would
  // leave its two small sections after the ordered ones: one more page for
  // startup (zstd 11 -> 10 pages, the sample 68 -> 67). Listed first, they
  // sit in front of the startup clusters.
  OrderFileOptions WithRuntime = Opts;
  WithRuntime.LeadingSymbols = {"_start", "frame_dummy"};
  return writeOrderFile(Clusters, Order, WithRuntime, OS);
}

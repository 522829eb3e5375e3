//===- Profile.cpp - Read profiles for layout -----------------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "kiln/Sources/Profile.h"

#include "llvm/ProfileData/InstrProfReader.h"
#include "llvm/ProfileData/SampleProfReader.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace kiln;

Expected<LayoutProfile> kiln::readProfile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(Path, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return createStringError(Buffer.getError(), "%s: %s", Path.str().c_str(),
                             Buffer.getError().message().c_str());
  const MemoryBuffer &B = **Buffer;
  using namespace llvm::sampleprof;
  if (SampleProfileReaderRawBinary::hasFormat(B) ||
      SampleProfileReaderExtBinary::hasFormat(B) ||
      SampleProfileReaderText::hasFormat(B))
    return readSampleProfile(Path);
  // Everything else goes to the instrumented reader, whose errors say
  // what is wrong with a file that is neither kind.
  return readInstrProfile(Path);
}

//===- TakeError.cpp - Support for LLVM's gtest Error matchers ------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// EXPECT_THAT_ERROR / EXPECT_THAT_EXPECTED (llvm/Testing/Support/Error.h)
/// call llvm::detail::TakeError, which lives in libLLVMTestingSupport, a
/// library Debian's llvm-22-dev does not ship. This is its definition.
///
//===----------------------------------------------------------------------===//

#include "llvm/Testing/Support/Error.h"

llvm::detail::ErrorHolder llvm::detail::TakeError(llvm::Error Err) {
  std::vector<std::shared_ptr<ErrorInfoBase>> Infos;
  handleAllErrors(std::move(Err),
                  [&Infos](std::unique_ptr<ErrorInfoBase> Info) {
                    Infos.emplace_back(std::move(Info));
                  });
  return {std::move(Infos)};
}

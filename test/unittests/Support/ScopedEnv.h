//===- ScopedEnv.h - An environment variable set for one test --*- C++ -*-===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TEST_UNITTESTS_SUPPORT_SCOPEDENV_H
#define KILN_TEST_UNITTESTS_SUPPORT_SCOPEDENV_H

#include <cstdlib>
#include <optional>
#include <string>

namespace kiln::test {

/// Sets an environment variable for the scope of a test, then restores it.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const char *Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      OldValue = Old;
    ::setenv(Name, Value, /*overwrite=*/1);
  }
  ~ScopedEnv() {
    if (OldValue)
      ::setenv(Name, OldValue->c_str(), /*overwrite=*/1);
    else
      ::unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> OldValue;
};

} // namespace kiln::test

#endif // KILN_TEST_UNITTESTS_SUPPORT_SCOPEDENV_H

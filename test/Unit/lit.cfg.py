# -*- Python -*-
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""lit configuration that runs Kiln's GoogleTest binaries (<Area>Tests)."""

import lit.formats

config.name = "Kiln-Unit"
config.suffixes = []
config.test_exec_root = config.unittest_dir
config.test_source_root = config.unittest_dir
config.test_format = lit.formats.GoogleTest(".", "Tests")

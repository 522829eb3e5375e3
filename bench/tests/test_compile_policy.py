# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests of bench/compile_policy.py's helpers."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import compile_policy  # noqa: E402


class CompilePolicyTest(unittest.TestCase):
    def test_options_reach_the_compiles_and_the_backends(self):
        compile_flags, link_flags = compile_policy.config_flags(
            ["-disable-icp", "-icp-total-percent-threshold=90"])
        self.assertEqual(compile_flags,
                         "-mllvm -disable-icp -mllvm -icp-total-percent-threshold=90")
        self.assertEqual(link_flags,
                         "-Wl,-mllvm,-disable-icp -Wl,-mllvm,-icp-total-percent-threshold=90")
        self.assertEqual(compile_policy.config_flags([]), ("", ""))

    def test_every_configuration_has_a_known_flavour(self):
        for name, (flavour, options, sparse, weight) in compile_policy.CONFIGS.items():
            self.assertIn(flavour, (None, "fe", "ir"), name)
            self.assertFalse(flavour is None and (options or sparse or weight != 1), name)
            self.assertEqual(name.endswith("-x64"), weight == 64, name)

    def test_table_is_ratios_to_the_first_configuration(self):
        text = compile_policy.table({"fe": {"steady": 200, "heldout": 100},
                                     "ir": {"steady": 210, "heldout": 90}})
        lines = text.splitlines()
        self.assertEqual(lines[0], "| configuration | steady | heldout | sum |")
        self.assertEqual(lines[2], "| fe | 200 | 100 | 300 |")
        self.assertEqual(lines[3], "| ir | 1.0500 | 0.9000 | 1.0000 |")


if __name__ == "__main__":
    unittest.main()

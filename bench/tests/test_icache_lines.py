# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/icache_lines.py's footprint."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import icache_lines  # noqa: E402


class FootprintTest(unittest.TestCase):
    def test_counts_lines_after_the_bias(self):
        # 0x1000 and 0x103f share a line; 0x1040 starts the next one.
        f = icache_lines.footprint({0x11000: 5, 0x1103f: 5, 0x11040: 1}, bias=0x10000)
        self.assertEqual((f.lines, f.span_bytes), (2, 128))

    def test_hot_lines_hold_the_share(self):
        f = icache_lines.footprint({0: 990, 64: 9, 128: 1}, share=0.99)
        self.assertEqual(f.hot_lines, 1)
        f = icache_lines.footprint({0: 990, 64: 9, 128: 1}, share=0.999)
        self.assertEqual(f.hot_lines, 2)

    def test_contiguous_code_has_no_excess(self):
        # 512 contiguous lines fill every set to its 8 ways and no further.
        f = icache_lines.footprint({i * 64: 1 for i in range(512)}, share=1.0)
        self.assertEqual((f.lines, f.excess, f.hot_excess), (512, 0, 0))

    def test_lines_4_kib_apart_compete_for_one_set(self):
        f = icache_lines.footprint({i * 4096: 1 for i in range(10)}, share=1.0)
        self.assertEqual((f.excess, f.hot_excess), (2, 2))

    def test_no_cost_no_lines(self):
        self.assertEqual(icache_lines.footprint({}).lines, 0)


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the pure helpers of bench/compile_overhead.py."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import compile_overhead as co  # noqa: E402


class RotationTest(unittest.TestCase):
    def test_rotates_left_by_round(self):
        self.assertEqual(co.rotated(["A", "B", "C"], 0), ["A", "B", "C"])
        self.assertEqual(co.rotated(["A", "B", "C"], 1), ["B", "C", "A"])
        self.assertEqual(co.rotated(["A", "B", "C"], 2), ["C", "A", "B"])
        self.assertEqual(co.rotated(["A", "B", "C"], 3), ["A", "B", "C"])

    def test_every_position_equally_often(self):
        names = ["A", "B", "C", "D"]
        for pos in range(len(names)):
            seen = sorted(co.rotated(names, r)[pos] for r in range(len(names)))
            self.assertEqual(seen, names)

    def test_degenerate(self):
        self.assertEqual(co.rotated([], 5), [])
        self.assertEqual(co.rotated(["A"], 7), ["A"])


class RatioTest(unittest.TestCase):
    ROUNDS = [{"A": 10.0, "B": 10.5}, {"A": 20.0, "B": 20.0}, {"A": 8.0, "B": 9.0},
              {"A": 10.0}]   # a round without B is skipped

    def test_per_round_ratios(self):
        self.assertEqual(co.per_round_ratios(self.ROUNDS, "B", "A"), [1.05, 1.0, 1.125])

    def test_median_of_ratios_not_ratio_of_medians(self):
        s = co.ratio_summary(co.per_round_ratios(self.ROUNDS, "B", "A"))
        self.assertAlmostEqual(s["median"], 1.05)
        self.assertEqual((s["min"], s["max"], s["n"]), (1.0, 1.125, 3))

    def test_even_count_median(self):
        self.assertAlmostEqual(co.ratio_summary([1.0, 1.02, 1.04, 1.5])["median"], 1.03)

    def test_empty(self):
        self.assertIsNone(co.ratio_summary([])["median"])
        self.assertEqual(co.verdict(co.ratio_summary([]), 3.0), "n/a")

    def test_verdict(self):
        self.assertEqual(co.verdict(co.ratio_summary([1.01, 1.02, 1.029]), 3.0), "met")
        self.assertEqual(co.verdict(co.ratio_summary([1.01, 1.02, 1.05]), 3.0),
                         "met (median; some rounds above)")
        self.assertEqual(co.verdict(co.ratio_summary([1.01, 1.04, 1.05]), 3.0), "not met")

    def test_overhead_pct(self):
        self.assertAlmostEqual(co.overhead_pct(1.023), 2.3)
        self.assertIsNone(co.overhead_pct(None))


class SelectTest(unittest.TestCase):
    def test_baselines_added_in_order(self):
        cfgs = co.compile_configs("/p.so", "/s.profdata", thinlto=True)
        self.assertEqual(list(co.select_configs(cfgs, ["D-thin", "C"])), ["A", "C", "A-thin",
                                                                            "D-thin"])
        self.assertEqual(list(co.select_configs(cfgs, None)), list(cfgs))


if __name__ == "__main__":
    unittest.main()

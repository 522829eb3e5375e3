# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/heldout_check.py's judgement and pgo_flow.py's
held-out workloads; the benchmarks themselves are not part of the test
suite."""

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import heldout_check  # noqa: E402
import pgo_flow  # noqa: E402
from lib import programs  # noqa: E402


def results(stock: dict, flow: dict) -> dict:
    return {heldout_check.STOCK_ROW: {"ir_heldout_each": stock},
            heldout_check.FLOW_ROW: {"ir_heldout_each": flow}}


class JudgeTest(unittest.TestCase):
    def test_ratios_are_flow_over_stock_per_workload(self):
        r = heldout_check.ratios(results({"heldout-a": 1000, "heldout-b": 2000},
                                         {"heldout-a": 999, "heldout-b": 2010}))
        self.assertEqual(r, {"heldout-a": 0.999, "heldout-b": 1.005})

    def test_a_workload_fails_when_both_ratios_are_above_the_bound(self):
        own = {"lua": {"heldout-a": 1.0005, "heldout-b": 1.0020, "heldout-c": 1.0015}}
        whole = {"lua": {"heldout-a": 1.0020, "heldout-b": 1.0020, "heldout-c": 0.9998}}
        failures = heldout_check.judge(own, None, 1.001, 0.001, whole, 1.003)
        self.assertEqual(len(failures), 1)
        self.assertIn("lua heldout-b: Ir 1.0020x stock PGO + ThinLTO in the program's own "
                      "code, 1.0020x in all, both above 1.0010", failures[0])

    def test_either_ratio_above_the_total_bound_fails(self):
        failures = heldout_check.judge({"lua": {"heldout-a": 1.0}}, None, 1.001, 0.001,
                                       {"lua": {"heldout-a": 1.004}}, 1.003)
        self.assertEqual(len(failures), 1)
        self.assertIn("1.0040x in all, above 1.0030", failures[0])
        failures = heldout_check.judge({"lua": {"heldout-a": 1.004}}, None, 1.001, 0.001,
                                       {"lua": {"heldout-a": 1.0}}, 1.003)
        self.assertEqual(len(failures), 1)

    def test_a_rise_over_the_baseline_fails_below_the_bound(self):
        baseline = {"zstd": {"heldout": {"own": 0.990, "all": 0.991}}}
        self.assertEqual(heldout_check.judge({"zstd": {"heldout": 0.9905}}, baseline,
                                             1.001, 0.001, {"zstd": {"heldout": 0.9915}}), [])
        # One ratio up, the other not: layout luck, not a cost.
        self.assertEqual(heldout_check.judge({"zstd": {"heldout": 0.9925}}, baseline,
                                             1.001, 0.001, {"zstd": {"heldout": 0.991}}), [])
        failures = heldout_check.judge({"zstd": {"heldout": 0.9925}}, baseline, 1.001, 0.001,
                                       {"zstd": {"heldout": 0.9935}})
        self.assertEqual(len(failures), 1)
        self.assertIn("above the baseline's 0.9900x and 0.9910x", failures[0])

    def test_a_workload_the_baseline_has_must_be_measured(self):
        failures = heldout_check.judge({"zstd": {}},
                                       {"zstd": {"heldout-fast": {"own": 1.0, "all": 1.0}}},
                                       1.001, 0.001)
        self.assertEqual(failures, ["zstd heldout-fast: in the baseline, not measured"])

    def test_own_ratios_read_the_own_figures(self):
        r = results({"heldout": 1000}, {"heldout": 1000})
        r[heldout_check.STOCK_ROW]["ir_heldout_own_each"] = {"heldout": 800}
        r[heldout_check.FLOW_ROW]["ir_heldout_own_each"] = {"heldout": 792}
        self.assertEqual(heldout_check.ratios(r, "ir_heldout_own_each"), {"heldout": 0.99})

    def test_the_baseline_is_written_through_a_temporary(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "baseline.json"
            heldout_check.write_json(path, {"lua": {"heldout-a": 1.0}})
            self.assertEqual(json.loads(path.read_text()), {"lua": {"heldout-a": 1.0}})
            self.assertEqual(os.listdir(d), ["baseline.json"])


class HeldOutWorkloadsTest(unittest.TestCase):
    def test_every_heldout_workload_is_measured_in_order(self):
        scenarios, _, training = programs.lua_scenarios()
        prog = pgo_flow.Program(Path("/x"), "lua", {}, scenarios, {}, training=training)
        modes = pgo_flow.heldout_modes(prog)
        self.assertEqual(len(modes), 6)
        self.assertEqual(modes, sorted(modes))
        # No held-out script is a training script.
        trained = {args[0] for _, args in training}
        self.assertFalse(trained & {scenarios[m][0] for m in modes})

    def test_sqlite_training_and_heldout_scripts_differ(self):
        scenarios, inputs, training = programs.sqlite_scenarios()
        trained = {args[1] for _, args in training}
        held = {scenarios[m][1] for m in scenarios if m.startswith("heldout-")}
        self.assertEqual(len(held), 6)
        self.assertFalse(trained & held)
        for args in [a for _, a in training] + [scenarios[m] for m in scenarios]:
            self.assertIn(args[1][len(".read "):], inputs)

    def test_worst_heldout_is_the_highest_ratio(self):
        ref = {"ir_heldout_each": {"heldout": 100, "heldout-x": 200}}
        row = {"ir_heldout_each": {"heldout": 99, "heldout-x": 202}}
        self.assertAlmostEqual(pgo_flow.worst_heldout(row, ref), 1.01)


if __name__ == "__main__":
    unittest.main()

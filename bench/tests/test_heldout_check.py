# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/heldout_check.py's judgement and pgo_flow.py's
held-out workloads; the benchmarks themselves are not part of the test
suite."""

import contextlib
import io
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
        self.assertIn("lua heldout-b: Ir 1.0020x stock PGO+ThinLTO (the best stock row) in "
                      "the program's own code, 1.0020x in all, both above 1.0010", failures[0])

    def test_the_ratio_in_all_above_the_total_bound_fails(self):
        failures = heldout_check.judge({"lua": {"heldout-a": 1.0}}, None, 1.001, 0.001,
                                       {"lua": {"heldout-a": 1.004}}, 1.003)
        self.assertEqual(len(failures), 1)
        self.assertIn("1.0040x in all, above 1.0030", failures[0])
        # Work that moved into the program's own code (inlined templates)
        # while all its instructions went down is no failure...
        self.assertEqual(heldout_check.judge({"jsoncpp": {"heldout-a": 1.085}}, None, 1.001,
                                             0.001, {"jsoncpp": {"heldout-a": 0.956}}, 1.003),
                         [])
        # ...but with the instructions in all above the noise bound, it is.
        failures = heldout_check.judge({"lua": {"heldout-a": 1.004}}, None, 1.001, 0.001,
                                       {"lua": {"heldout-a": 1.0015}}, 1.003)
        self.assertEqual(len(failures), 1)
        self.assertIn("both above 1.0010", failures[0])

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


def row(ir: dict, own: dict | None = None, i1: int = 0) -> dict:
    """A pgo_flow.py results row: Ir in all and of the program's own code
    per held-out workload, summed held-out I1 misses."""
    return {"ir_heldout_each": ir, "ir_heldout_own_each": own or {m: v // 2 for m, v in ir.items()},
            "i1_heldout": i1}


FE_ROW = pgo_flow.REFERENCE_ROWS["fe"]
CS_ROW = pgo_flow.REFERENCE_ROWS["cs"]
BP_ROW = pgo_flow.REFERENCE_ROWS["bp"]
BOLT_ROW = pgo_flow.REFERENCE_ROWS["bolt"]
FE_BOLT_ROW = pgo_flow.REFERENCE_ROWS["fe-bolt"]


class BestStockTest(unittest.TestCase):
    """The flow against the best stock row of each held-out workload."""

    def corpus(self) -> dict:
        # heldout-a: front-end PGO is best; heldout-b: IR PGO is. The
        # flow's other variant is lower everywhere but is not a stock row.
        return {heldout_check.STOCK_ROW: row({"heldout-a": 1000, "heldout-b": 2000}, i1=500),
                FE_ROW: row({"heldout-a": 990, "heldout-b": 2100}, i1=520),
                CS_ROW: row({"heldout-a": 995, "heldout-b": 2050}, i1=510),
                BOLT_ROW: row({"heldout-a": 1010, "heldout-b": 2010}, i1=300),
                heldout_check.FLOW_ROW: row({"heldout-a": 995, "heldout-b": 1990}, i1=310),
                "kiln pgo no-split": row({"heldout-a": 900, "heldout-b": 1900}, i1=100)}

    def test_each_workload_has_its_own_best_stock_row(self):
        r = self.corpus()
        self.assertEqual(heldout_check.best_rows(r), {"heldout-a": FE_ROW,
                                                      "heldout-b": heldout_check.STOCK_ROW})
        ratios = heldout_check.ratios(r)
        self.assertAlmostEqual(ratios["heldout-a"], 995 / 990)
        self.assertAlmostEqual(ratios["heldout-b"], 1990 / 2000)
        # The IR stock row's own ratio stays beside it.
        self.assertAlmostEqual(heldout_check.ir_ratios(r)["heldout-a"], 0.995)

    def test_own_ratio_is_against_the_row_best_in_all(self):
        r = self.corpus()
        r[FE_ROW]["ir_heldout_own_each"]["heldout-a"] = 400
        r[CS_ROW]["ir_heldout_own_each"]["heldout-a"] = 300
        r[heldout_check.FLOW_ROW]["ir_heldout_own_each"]["heldout-a"] = 402
        self.assertAlmostEqual(heldout_check.ratios(r, "ir_heldout_own_each")["heldout-a"],
                               1.005)

    def test_above_the_best_fails_even_below_ir_stock(self):
        r = self.corpus()
        own = {"lua": heldout_check.ratios(r, "ir_heldout_own_each")}
        whole = {"lua": heldout_check.ratios(r)}
        best = {"lua": heldout_check.best_rows(r)}
        # Against IR stock alone the flow passes both workloads.
        ir_only = {k: v for k, v in r.items() if k != FE_ROW and k != CS_ROW}
        self.assertEqual(heldout_check.judge(
            {"lua": heldout_check.ratios(ir_only, "ir_heldout_own_each")}, None, 1.001, 0.001,
            {"lua": heldout_check.ratios(ir_only)}, 1.003,
            {"lua": heldout_check.best_rows(ir_only)}), [])
        failures = heldout_check.judge(own, None, 1.001, 0.001, whole, 1.003, best)
        self.assertEqual(len(failures), 1)
        self.assertEqual(failures[0], "lua heldout-a: Ir 1.0040x stock FE PGO+ThinLTO (the "
                         "best stock row) in the program's own code, 1.0051x in all, both "
                         "above 1.0010")

    def test_the_sum_rule(self):
        r = {heldout_check.STOCK_ROW: row({"heldout-a": 10000, "heldout-b": 100}),
             FE_ROW: row({"heldout-a": 10100, "heldout-b": 90}),
             heldout_check.FLOW_ROW: row({"heldout-a": 10015, "heldout-b": 90},
                                         {"heldout-a": 4990, "heldout-b": 45})}
        # heldout-a is 1.0015x in all but not in its own code: the per-
        # workload rule lets it pass, the sum does not.
        self.assertEqual(heldout_check.judge(
            {"lua": heldout_check.ratios(r, "ir_heldout_own_each")}, None, 1.001, 0.001,
            {"lua": heldout_check.ratios(r)}, 1.003), [])
        summary = pgo_flow.best_stock(r, heldout_check.FLOW_ROW)
        self.assertEqual(summary["sum"]["ir"], 10090)
        self.assertEqual(summary["sum"]["flow_ir"], 10105)
        failures = heldout_check.judge_sums({"lua": summary["sum"]["ratio"]}, 1.001)
        self.assertEqual(failures, ["lua: held-out Ir summed over the workloads 1.0015x the "
                                    "best stock row's of each, above 1.0010"])
        self.assertEqual(heldout_check.judge_sums({"lua": summary["sum"]["ratio"]}, 1.002), [])
        self.assertEqual(heldout_check.judge_sums({"lua": 1.001}, 1.001), [])

    def test_the_i1_rule(self):
        r = self.corpus()
        r[BP_ROW] = row({"heldout-a": 1000, "heldout-b": 2000}, i1=305)
        entry = pgo_flow.best_stock(r, heldout_check.FLOW_ROW)["i1"]
        # The lowest of the layout rows present, never a PGO row's or the
        # flow's other variant's.
        self.assertEqual(entry["rows"], [BOLT_ROW, BP_ROW])
        self.assertEqual((entry["row"], entry["misses"], entry["flow_misses"]),
                         (BOLT_ROW, 300, 310))
        failures = heldout_check.judge_i1({"lua": entry}, 0.0)
        self.assertEqual(len(failures), 1)
        self.assertIn("lua: held-out I1 misses 310, 1.0333x BOLT's 300", failures[0])
        self.assertEqual(heldout_check.judge_i1({"lua": entry}, 0.04), [])
        r[heldout_check.FLOW_ROW]["i1_heldout"] = 300
        self.assertEqual(heldout_check.judge_i1(
            {"lua": pgo_flow.best_stock(r, heldout_check.FLOW_ROW)["i1"]}, 0.0), [])
        r[FE_BOLT_ROW] = row({"heldout-a": 1000, "heldout-b": 2000}, i1=250)
        entry = pgo_flow.best_stock(r, heldout_check.FLOW_ROW)["i1"]
        self.assertEqual(entry["row"], FE_BOLT_ROW)
        self.assertEqual(len(heldout_check.judge_i1({"lua": entry}, 0.0)), 1)

    def test_the_i1_rule_is_on_when_a_layout_row_exists(self):
        r = self.corpus()
        self.assertTrue(heldout_check.i1_wanted(None, r))
        self.assertFalse(heldout_check.i1_wanted(False, r))
        del r[BOLT_ROW]
        self.assertFalse(heldout_check.i1_wanted(None, r))
        self.assertTrue(heldout_check.i1_wanted(True, r))
        # Asked for without a row to judge against: a failure.
        self.assertIsNone(pgo_flow.best_stock(r, heldout_check.FLOW_ROW)["i1"])
        self.assertEqual(heldout_check.judge_i1({"lua": None}, 0.0),
                         ["lua: no BOLT or balanced partitioning row to judge the held-out "
                          "I1 misses against"])

    def test_results_with_only_the_ir_stock_row(self):
        r = {heldout_check.STOCK_ROW: row({"heldout-a": 1000, "heldout-b": 2000},
                                          {"heldout-a": 800, "heldout-b": 1000}),
             heldout_check.FLOW_ROW: row({"heldout-a": 999, "heldout-b": 2010},
                                         {"heldout-a": 792, "heldout-b": 1001})}
        del r[heldout_check.STOCK_ROW]["i1_heldout"]
        self.assertEqual(heldout_check.best_rows(r), {"heldout-a": heldout_check.STOCK_ROW,
                                                      "heldout-b": heldout_check.STOCK_ROW})
        self.assertEqual(heldout_check.ratios(r), heldout_check.ir_ratios(r))
        self.assertEqual(heldout_check.ratios(r, "ir_heldout_own_each"),
                         {"heldout-a": 0.99, "heldout-b": 1.001})
        summary = pgo_flow.best_stock(r, heldout_check.FLOW_ROW)
        self.assertAlmostEqual(summary["sum"]["ratio"], 3009 / 3000)
        self.assertIsNone(summary["i1"])
        self.assertFalse(heldout_check.i1_wanted(None, r))

    def test_results_files_are_judged_by_main(self):
        with tempfile.TemporaryDirectory() as d:
            path = Path(d) / "results.json"
            path.write_text(json.dumps(self.corpus()))
            with contextlib.redirect_stdout(io.StringIO()) as out:
                status = heldout_check.main(["--results", "lua=%s" % path])
            text = out.getvalue()
            self.assertEqual(status, 1)
            self.assertIn("| lua | heldout-a | stock FE PGO+ThinLTO | ", text)
            # heldout-a fails both ratios, the sum passes, I1 fails.
            self.assertIn("heldout_check: 2 failure(s)", text)
            self.assertIn("FAIL lua: held-out I1 misses 310", text)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                status = heldout_check.main(["--results", "lua=%s" % path, "--no-i1"])
            self.assertIn("heldout_check: 1 failure(s)", out.getvalue())
            self.assertIn("not judged (--no-i1)", out.getvalue())


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

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the parsers, timing order and figures of
bench/import_stats.py."""

import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import import_stats  # noqa: E402

LINK_LOG = """$ /usr/lib/llvm-22/bin/clang++ -fuse-ld=lld -O2 -flto=thin '-Wl,-mllvm,-import-instr-limit=5' a.o b.o -o /w/configs/x/kiln-sample
# exit status: 0
--- stdout ---
"""

PRINT_IMPORTS = """a.c: Import work from b.c
a.c: Import Sink from b.c
ld.lld: warning: something else
b.c: Import helper.llvm.42 from a.c
"""

NM = """0000000000001130 T work
0000000000004010 B Sink
0000000000001200 t helper.llvm.42
                 U printf
"""


class ImportStatsTest(unittest.TestCase):
    def test_read_link_command(self):
        cmd = import_stats.read_link_command(LINK_LOG)
        self.assertEqual(cmd[0], "/usr/lib/llvm-22/bin/clang++")
        self.assertIn("-Wl,-mllvm,-import-instr-limit=5", cmd)
        self.assertEqual(cmd[-2:], ["-o", "/w/configs/x/kiln-sample"])
        with self.assertRaises(import_stats.StatsError):
            import_stats.read_link_command("no command here\n")

    def test_redirect_output(self):
        cmd = ["clang++", "a.o", "-o", "old", "-Wl,-z,now"]
        self.assertEqual(
            import_stats.redirect_output(cmd, Path("new"), ["-Wl,-x"]),
            ["clang++", "a.o", "-Wl,-x", "-o", "new", "-Wl,-z,now"])
        with self.assertRaises(import_stats.StatsError):
            import_stats.redirect_output(["clang++", "a.o"], Path("new"), [])

    def test_with_one_backend_thread(self):
        self.assertEqual(
            import_stats.with_one_backend_thread(
                ["clang++", "-Wl,--thinlto-jobs=2", "a.o", "-o", "x"]),
            ["clang++", "a.o", "-Wl,--thinlto-jobs=1", "-o", "x"])

    def test_parse_imports_and_kinds(self):
        imports = import_stats.parse_imports(PRINT_IMPORTS)
        self.assertEqual(imports, [("a.c", "work", "b.c"), ("a.c", "Sink", "b.c"),
                                   ("b.c", "helper.llvm.42", "a.c")])
        kinds = import_stats.count_kinds(imports, import_stats.symbol_types(NM))
        self.assertEqual(kinds, {"functions": 2, "variables": 1, "other": 0})
        # A name the program does not define (dropped after inlining).
        kinds = import_stats.count_kinds([("a.c", "gone", "b.c")], {})
        self.assertEqual(kinds, {"functions": 0, "variables": 0, "other": 1})

    def test_parse_time_trace(self):
        trace = {"traceEvents": [
            {"name": "ThinLink", "ph": "X", "dur": 100},
            {"name": "Total ThinLink", "ph": "X", "dur": 250000},
            {"name": "Total Thin backend", "ph": "X", "dur": 4000000},
        ]}
        self.assertEqual(import_stats.parse_time_trace(trace),
                         {"thin_link_s": 0.25, "backends_s": 4.0})
        self.assertEqual(import_stats.parse_time_trace({"traceEvents": []}),
                         {"thin_link_s": None, "backends_s": None})

    def test_index_only(self):
        # The index-only link keeps the command, writes under the stats
        # directory and never where the configuration's program goes.
        cmd = ["clang++", "a.o", "-o", "/w/configs/x/kiln-sample"]
        self.assertEqual(
            import_stats.index_only(cmd, Path("/s")),
            ["clang++", "a.o", "-Wl,--thinlto-index-only=/s/index-only.modules",
             "-Wl,--thinlto-prefix-replace=;/s/index-only/", "-o", "/s/index-only.out"])

    def test_backend_cpu(self):
        self.assertEqual(import_stats.backend_cpu(12.5, 2.0), 10.5)
        # Minima of noisy rounds may cross: never a negative time.
        self.assertEqual(import_stats.backend_cpu(1.0, 1.2), 0.0)
        self.assertIsNone(import_stats.backend_cpu(None, 1.0))
        self.assertIsNone(import_stats.backend_cpu(3.0, None))

    def test_spread(self):
        self.assertEqual(import_stats.spread([3.0, 1.0, 2.5]),
                         {"median": 2.5, "min": 1.0, "max": 3.0})
        self.assertEqual(import_stats.spread([4.0, 2.0]),
                         {"median": 3.0, "min": 2.0, "max": 4.0})
        self.assertIsNone(import_stats.spread([]))

    def test_timing_order_is_round_robin(self):
        a, b, c = object(), object(), object()
        order = import_stats.timing_order([a, b, c], 2)
        self.assertEqual(order, [(0, a), (0, b), (0, c), (1, a), (1, b), (1, c)])
        self.assertEqual(import_stats.timing_order([a], 0), [])

    def test_run_figures(self):
        results = {"configs": [
            {"name": "A", "status": "ok", "metrics": {
                "ir_heldout": 100, "text_bytes": 50,
                "heldout_workloads": {"heldout": {"ir": 100, "i1_misses": 3},
                                      "heldout-x": {"ir": 40, "i1_misses": 1}}}},
            {"name": "B", "status": "error", "metrics": None}]}
        self.assertEqual(import_stats.run_figures(results), {"A": {
            "ir_heldout": 100, "text_bytes": 50,
            "heldout_ir": {"heldout": 100, "heldout-x": 40}}})
        self.assertEqual(import_stats.run_figures({}), {})

    def _row(self, config, ir, text, workloads, backend, thin):
        return {"config": config, "imports": 10, "functions": 4, "ir_heldout": ir,
                "text_bytes": text, "heldout_ir": workloads,
                "backend_cpu_s": import_stats.spread(backend),
                "thin_link_s": import_stats.spread(thin), "plan_cpu_s": None}

    def test_ratios_are_to_the_reference_and_of_medians(self):
        rows = [self._row("stock", 1000, 200, {"heldout": 1000, "heldout-x": 500},
                          [10.0, 40.0, 12.0], [0.02, 0.03, 0.04]),
                self._row("plan", 990, 210, {"heldout": 990, "heldout-x": 510},
                          [6.0, 5.0, 30.0], [0.01, 0.01, 0.09])]
        import_stats.add_ratios(rows, "stock")
        plan = rows[1]
        self.assertAlmostEqual(plan["ir_heldout_vs_ref"], 0.99)
        self.assertAlmostEqual(plan["text_vs_ref"], 1.05)
        # The worst workload, not the main one.
        self.assertAlmostEqual(plan["worst_heldout_vs_ref"], 1.02)
        # Medians 6 and 12: one disturbed round on either side is ignored.
        self.assertAlmostEqual(plan["backend_cpu_s_vs_ref"], 0.5)
        self.assertAlmostEqual(plan["thin_link_s_vs_ref"], 1 / 3)
        self.assertEqual(rows[0]["backend_cpu_s_vs_ref"], 1.0)

    def test_ratios_without_run_figures(self):
        rows = [self._row("stock", None, None, {}, [2.0], []),
                self._row("other", None, None, {}, [1.0], [])]
        import_stats.add_ratios(rows, "stock")
        self.assertIsNone(rows[1]["ir_heldout_vs_ref"])
        self.assertIsNone(rows[1]["worst_heldout_vs_ref"])
        self.assertIsNone(rows[1]["thin_link_s_vs_ref"])
        self.assertEqual(rows[1]["backend_cpu_s_vs_ref"], 0.5)

    def test_markdown_row(self):
        rows = [self._row("stock", 1000, 200, {"heldout": 1000}, [10.0, 12.0, 11.0],
                          [0.020, 0.030, 0.025])]
        import_stats.add_ratios(rows, "stock")
        line = import_stats.markdown(rows).splitlines()[2]
        self.assertEqual(line, "| stock | 1,000 | 1.0000 | 1.0000 | 200 | 1.000 | 10 (4) | "
                               "25.0 (20.0-30.0) | 1.00 | 11.00 (10.00-12.00) | 1.00 | - |")
        # Without run.py's figures: dashes, not made-up numbers.
        rows = [self._row("stock", None, None, {}, [1.0], [])]
        import_stats.add_ratios(rows, "stock")
        self.assertEqual(import_stats.markdown(rows).splitlines()[2],
                         "| stock | - | - | - | - | - | 10 (4) | - | - | 1.00 (1.00-1.00) | "
                         "1.00 | - |")

    def test_bad_arguments_and_missing_runs_are_refused(self):
        for argv in (["--configs", "A", "--rounds", "0"], ["--configs", ","],
                     ["--configs", "A,B", "--reference", "C"]):
            with self.assertRaises(SystemExit) as cm, \
                    contextlib.redirect_stderr(io.StringIO()):
                import_stats.main(argv)
            self.assertEqual(cm.exception.code, 2, argv)
        with tempfile.TemporaryDirectory() as d:
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                self.assertEqual(import_stats.main(["--work-dir", d, "--configs", "A"]), 1)
            self.assertIn("import_stats: error: [A] no link log", err.getvalue())

    def test_slug_matches_run(self):
        # The directory names bench/run.py's harness uses (lib/measure.py).
        from lib import measure
        for name in ("PGO+ThinLTO", "PGO+ThinLTO+kiln-import-shaping+limit=5"):
            self.assertEqual(import_stats.slug(name), measure.slug(name))
        self.assertEqual(import_stats.slug("PGO+ThinLTO+kiln-import-shaping+limit=5"),
                         "PGO_ThinLTO_kiln-import-shaping_limit_5")


if __name__ == "__main__":
    unittest.main()

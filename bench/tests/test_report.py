# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/lib/report.py, the table code of every harness:
tables rendered from literal rows, compared with the exact text."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lib import report  # noqa: E402

HEADS = ["config", "Ir", "vs", "note"]
ROWS = [
    ["O2", "1,000", "1.000", "ok"],
    ["PGO+ThinLTO", "950", "0.950", "fine"],
    ["a-very-long-config-name", "ERROR (see below)"],
]


class TextTableTest(unittest.TestCase):
    def test_default_alignment_and_span_row(self):
        # First column left, the others right; the span row's message sets
        # no width (it is longer than the "Ir" column) and is not cut.
        self.assertEqual(report.text_table(HEADS, ROWS), "\n".join([
            "config                      Ir     vs  note",
            "-----------------------  -----  -----  ----",
            "O2                       1,000  1.000    ok",
            "PGO+ThinLTO                950  0.950  fine",
            "a-very-long-config-name  ERROR (see below)",
        ]))

    def test_explicit_alignment_cuts_trailing_blanks(self):
        text = report.text_table(HEADS, ROWS[:2], "lrrl")
        self.assertEqual(text, "\n".join([
            "config          Ir     vs  note",
            "-----------  -----  -----  ----",
            "O2           1,000  1.000  ok",
            "PGO+ThinLTO    950  0.950  fine",
        ]))

    def test_headings_only(self):
        self.assertEqual(report.text_table(["config", "value"], []),
                         "config  value\n------  -----")

    def test_bad_alignment(self):
        with self.assertRaises(ValueError):
            report.text_table(HEADS, ROWS, "lr")
        with self.assertRaises(ValueError):
            report.text_table(HEADS, ROWS, "lrcx")


class MarkdownTableTest(unittest.TestCase):
    def test_markdown(self):
        self.assertEqual(report.markdown_table(HEADS, ROWS, "lrrl"), "\n".join([
            "| config | Ir | vs | note |",
            "|:---|---:|---:|:---|",
            "| O2 | 1,000 | 1.000 | ok |",
            "| PGO+ThinLTO | 950 | 0.950 | fine |",
            "| a-very-long-config-name | ERROR (see below) |  |  |",
        ]))

    def test_default_alignment(self):
        self.assertEqual(report.markdown_table(["a", "b", "c"], [["x", "1", "2"]]),
                         "| a | b | c |\n|:---|---:|---:|\n| x | 1 | 2 |")


class FormatTest(unittest.TestCase):
    def test_formats(self):
        self.assertEqual(report.fmt_int(1234567), "1,234,567")
        self.assertEqual(report.fmt_int(None), "n/a")
        self.assertEqual(report.fmt_ratio(0.98765), "0.988")
        self.assertEqual(report.fmt_ratio(None), "n/a")


class ResultsTableTest(unittest.TestCase):
    """bench/run.py's table from literal results."""

    METRICS = {"ir_steady": 2000, "ir_heldout": 5000, "i1_misses_steady": 300,
               "i1_misses_heldout": 400,
               "text_bytes": 1000, "dyn_relocs": 10, "dyn_relocs_relative": 8,
               "startup_pages": 6, "startup_lower_bound": 4, "pages_per_bound": 1.5,
               "startup_block_bound": 2, "steady_pages": 9, "steady_lower_bound": 7,
               "startup_minor_faults": 55, "startup_major_faults_evicted": 1}

    def test_results_text_table(self):
        results = [{"name": "O2", "stock": True, "status": "ok", "metrics": dict(self.METRICS)},
                   {"name": "Kiln-lld", "stock": False, "status": "skipped", "metrics": None}]
        report.add_ratios(results, reference="O2")
        self.assertEqual(report.results_text_table(results), "\n".join([
            "config    Ir steady  vs O2  Ir held-out  vs ref  I1 misses  vs best  I1 held-out"
            "  vs best  .text bytes  dyn relocs (RELATIVE)  startup pages  lower bound"
            "  pages/bound  block bound  steady pages  bound  startup faults  evicted: major",
            "--------  ---------  -----  -----------  ------  ---------  -------  -----------"
            "  -------  -----------  ---------------------  -------------  -----------"
            "  -----------  -----------  ------------  -----  --------------  --------------",
            "O2            2,000  1.000        5,000   1.000        300    1.000          400"
            "    1.000        1,000                 10 (8)              6            4"
            "        1.500            2             9      7              55               1",
            "Kiln-lld  not run (see below)",
        ]))
        md = report.results_markdown_table(results).splitlines()
        self.assertEqual(md[1], "|:---|" + "---:|" * 18)
        self.assertEqual(md[3], "| Kiln-lld | not run (see below) |" + "  |" * 17)

    def test_heldout_workloads_table(self):
        def result(name, stock, fast_i1):
            m = dict(self.METRICS)
            m["heldout_workloads"] = {"heldout": {"ir": 5000, "i1_misses": 400},
                                      "heldout-fast": {"ir": 700, "i1_misses": fast_i1}}
            return {"name": name, "stock": stock, "status": "ok", "metrics": m}
        results = [result("PGO", True, 50), result("PGO+bp", True, 40),
                   result("Kiln", False, 60)]
        heads, rows = report.heldout_table_rows(results)
        self.assertEqual(heads, ["config", "heldout Ir", "heldout I1", "vs best",
                                 "heldout-fast Ir", "heldout-fast I1", "vs best"])
        self.assertEqual(rows[2], ["Kiln", "5,000", "400", "1.000", "700", "60", "1.500"])
        # One workload: the main table has it, no second table.
        for r in results:
            del r["metrics"]["heldout_workloads"]["heldout-fast"]
        self.assertEqual(report.heldout_table_rows(results), ([], []))


if __name__ == "__main__":
    unittest.main()

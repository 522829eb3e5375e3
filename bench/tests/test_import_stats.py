# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the parsers of bench/import_stats.py."""

import os
import sys
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

    def test_slug_matches_run(self):
        # The directory names bench/run.py's harness uses (lib/measure.py).
        from lib import measure
        for name in ("PGO+ThinLTO", "PGO+ThinLTO+kiln-import-shaping+limit=5"):
            self.assertEqual(import_stats.slug(name), measure.slug(name))
        self.assertEqual(import_stats.slug("PGO+ThinLTO+kiln-import-shaping+limit=5"),
                         "PGO_ThinLTO_kiln-import-shaping_limit_5")


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/run.py's output parsers (lib/measure.py), rows
(lib/configs.py) and table (lib/report.py)."""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lib import common, configs, measure, programs, report  # noqa: E402

READELF_R = """
Relocation section '.rela.dyn' at offset 0x4a0 contains 3 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
00000000000027f0  0000000000000008 R_X86_64_RELATIVE                 1700
00000000000027f8  0000000000000008 R_X86_64_RELATIVE                 1740
00000000000029a0  0000000100000006 R_X86_64_GLOB_DAT      0000000000000000 __libc_start_main@GLIBC_2.34 + 0

Relocation section '.relr.dyn' at offset 0x538 contains 3 entries:
Index: Entry            Address           Symbolic Address
0000:  00000000000027d0 00000000000027d0  __do_global_dtors_aux_fini_array_entry
0001:  0000000000000007 00000000000027d8  tab
                        00000000000027e0  tab + 0x8

Relocation section '.rela.plt' at offset 0x578 contains 1 entries:
    Offset             Info             Type               Symbol's Value  Symbol's Name + Addend
0000000000003a00  0000000600000007 R_X86_64_JUMP_SLOT     0000000000000000 printf@GLIBC_2.2.5 + 0
"""

SIZE_A = """kiln-sample  :
section                size    addr
.rodata                   8    1448
.text                   314    5728
.text.hot                20    6100
.init                    23    6044
Total                   365
"""


class ParserTest(unittest.TestCase):
    def test_count_relocs(self):
        r = measure.count_relocs(READELF_R)
        self.assertEqual(r[".rela.dyn"], 3)
        self.assertEqual(r["R_X86_64_RELATIVE@.rela.dyn"], 2)
        self.assertEqual(r[".relr.dyn"], 3)
        self.assertEqual(r["R_X86_64_RELATIVE@.relr.dyn"], 3)
        self.assertEqual(r[".rela.plt"], 1)

    def test_section_sizes(self):
        self.assertEqual(measure.section_sizes(SIZE_A),
                         {".rodata": 8, ".text": 314, ".text.hot": 20, ".init": 23})

    def test_expand(self):
        self.assertEqual(common.expand(["-fprofile-use={profile}", "-j{jobs}", "-O2"],
                                    profile="/p", jobs=2),
                         ["-fprofile-use=/p", "-j2", "-O2"])
        with self.assertRaises(common.StepError):
            common.expand(["{profile}"], jobs=2)

    def test_configs_are_well_formed(self):
        names = [c.name for c in configs.CONFIGS]
        self.assertEqual(len(names), len(set(names)))
        self.assertIn(configs.REFERENCE_CONFIG, names)
        for c in configs.CONFIGS:
            self.assertTrue(c.training is None or c.training in configs.TRAININGS, c.name)
        self.assertTrue(set(configs.DEMO_CONFIGS) <= set(names))
        self.assertIn(configs.REFERENCE_CONFIG, configs.DEMO_CONFIGS)

    def test_issue6_rows(self):
        names = [c.name for c in configs.CONFIGS]
        budgets = (configs.KILN_IMPORTS_BUDGET,) + configs.KILN_IMPORTS_SWEEP
        self.assertEqual([configs.budget_suffix(b) for b in ("3%", "1%", "10%")],
                         ["", "-1pct", "-10pct"])
        planned = ["PGO+ThinLTO+kiln-imports" + configs.budget_suffix(b) for b in budgets]
        combined = ["PGO+ThinLTO+kiln-import-shaping+kiln-imports+kiln-inline" +
                    configs.budget_suffix(b) for b in budgets]
        rows = ["PGO+ThinLTO+import-limit-5", "PGO+ThinLTO+import-limit-30", *planned,
                "PGO+ThinLTO+kiln-inline", "PGO+ThinLTO+kiln-import-shaping+import-limit-5",
                *combined]
        # Held-out Ir is relative to the first row of a run, so the stock
        # row must come before every other row of the family.
        stock = names.index("PGO+ThinLTO+stock-imports")
        for name in rows:
            self.assertLess(stock, names.index(name), name)
        by_name = {c.name: c for c in configs.CONFIGS}
        for name in planned + combined:
            self.assertIsNotNone(by_name[name].prepare, name)
            self.assertFalse(by_name[name].stock, name)
            self.assertIn("-Wl,-mllvm,-print-imports", by_name[name].ldflags, name)
        for name in combined:
            c = by_name[name]
            self.assertIn("-kiln-import-shaping", c.cflags)
            self.assertIn("-kiln-inline", c.cflags)
            self.assertIn("-Wl,-mllvm,-kiln-inline", c.ldflags)


class HeldOutTest(unittest.TestCase):
    """The held-out scenarios are never training runs."""

    def test_no_training_runs_heldout(self):
        for tr in configs.TRAININGS.values():
            for scenario in tr.scenarios:
                self.assertIn(scenario, (("steady",), ("startup",)), tr.name)
        self.assertNotIn(configs.SAMPLE_HELDOUT_ARGS[0], ("steady", "startup"))

    def test_zstd_heldout_differs_from_training(self):
        scenarios, inputs = programs.zstd_scenarios()
        held = scenarios["heldout"]
        for mode in ("startup", "steady"):
            self.assertNotEqual(scenarios[mode], held)
            self.assertNotIn(held[-1], scenarios[mode])
        self.assertIn(held[-1], inputs)
        # Deterministic input: the outputs are compared across builds.
        self.assertEqual(programs._log(4096, 3), inputs[held[-1]][:4096])

    def test_expat_heldout_workloads_differ_from_training(self):
        scenarios, inputs = programs.expat_scenarios()
        held = sorted(n for n in scenarios if n.startswith("heldout"))
        self.assertEqual(held, ["heldout", "heldout-meta", "heldout-utf16"])
        self.assertEqual(sorted(set(scenarios) - set(held)), ["startup", "steady"])
        training = {scenarios[m][-1] for m in ("startup", "steady")}
        training_args = [scenarios[m] for m in ("startup", "steady")]
        for name in held:
            document = scenarios[name][-1]
            self.assertIn(document, inputs)
            self.assertNotIn(document, training, name)
            self.assertNotIn(scenarios[name], training_args, name)
            # Other data than any training document, not a cut of one.
            for t in training:
                self.assertNotEqual(inputs[document][-4096:], inputs[t][-4096:])

    def test_expat_program_compiles_its_own_sources(self):
        # Everything run.py compiles is in the fetched tree: expat's sources
        # as CMake lists them, and the harness's fixed hash salt.
        self.assertEqual(len(programs.EXPAT_SOURCES), len(set(programs.EXPAT_SOURCES)))
        self.assertIn("xmlwf/xmlwf.c", programs.EXPAT_SOURCES)
        self.assertIn("expat", programs.PROGRAMS)
        self.assertIn("#define arc4random_buf kiln_bench_fixed_entropy",
                      programs.EXPAT_CONFIG_H)
        self.assertIn("void kiln_bench_fixed_entropy(void *buf, size_t size) {",
                      programs.FIXED_ENTROPY_C)

    def test_expat_own_builds_get_the_fixed_hash_salt(self):
        # The templates of expat's configuration header get the renaming of
        # arc4random_buf before their last line, and lib/xmlparse.c the
        # function, once however often the fix runs.
        end = "#endif // ndef EXPAT_CONFIG_H\n"
        with tempfile.TemporaryDirectory() as tmp:
            tree = Path(tmp)
            (tree / "lib").mkdir()
            begin = "#ifndef EXPAT_CONFIG_H\n#define EXPAT_CONFIG_H 1\n"
            (tree / "expat_config.h.in").write_text(
                begin + "#undef HAVE_ARC4RANDOM_BUF\n" + end)
            (tree / "expat_config.h.cmake").write_text(
                begin + "#cmakedefine HAVE_ARC4RANDOM_BUF\n" + end)
            (tree / "lib" / "xmlparse.c").write_text("#include <string.h>\n")
            programs.fix_expat_hash_salt(tree)
            programs.fix_expat_hash_salt(tree)
            for name in ("expat_config.h.in", "expat_config.h.cmake"):
                text = (tree / name).read_text()
                self.assertEqual(text.count("#define arc4random_buf kiln_bench_fixed_entropy"), 1)
                self.assertTrue(text.endswith(end), name)
            source = (tree / "lib" / "xmlparse.c").read_text()
            self.assertEqual(source.count("kiln_bench_fixed_entropy(void *buf, size_t size) {"), 1)
            # As glibc 2.36 declares arc4random_buf itself, the renamed
            # declaration and the definition compile together, and the salt
            # is the fixed bytes.
            clang = Path("/usr/lib/llvm-22/bin/clang")
            if clang.exists():
                config = (tree / "expat_config.h.in").read_text().replace(
                    "#undef HAVE_ARC4RANDOM_BUF\n", "")
                (tree / "expat_config.h").write_text(config)
                main = tree / "main.c"
                main.write_text('#include "expat_config.h"\n#include <stdlib.h>\n'
                                '#include <stdio.h>\n' + source
                                + "int main(void) { unsigned long e = 0;\n"
                                  "  arc4random_buf(&e, sizeof(e));\n"
                                  "  printf(\"%lx\\n\", e); return 0; }\n")
                exe = tree / "main"
                subprocess.run([str(clang), "-Werror", "-o", str(exe), str(main)], check=True)
                out = subprocess.run([str(exe)], capture_output=True, text=True, check=True)
                self.assertEqual(out.stdout.strip(), "5a" * 8)
            # A template without the line is refused, not patched blindly,
            # and so is a tree without a template.
            (tree / "expat_config.h.cmake").write_text("#define X 1\n")
            with self.assertRaises(programs.FetchError):
                programs.fix_expat_hash_salt(tree)
            (tree / "expat_config.h.cmake").unlink()
            (tree / "expat_config.h.in").unlink()
            with self.assertRaises(programs.FetchError):
                programs.fix_expat_hash_salt(tree)

    def test_heldout_args(self):
        args = argparse.Namespace(work_dir="/nonexistent", jobs=1, iterations=None)
        h = measure.Harness(args, tools=None)
        self.assertIsNone(h.heldout_args())
        h.app = measure.App(Path("/x"), [], {}, scenarios={"startup": ["a"], "steady": ["b"]})
        self.assertIsNone(h.heldout_args())
        h.app.scenarios["heldout"] = ["c", "d"]
        self.assertEqual(h.heldout_args(), ["c", "d"])
        h.heldout_args().append("e")   # a copy: the scenario stays as it was
        self.assertEqual(h.heldout_args(), ["c", "d"])


class RunOutputTest(unittest.TestCase):
    """What run.py compares across configurations (lib/measure.py)."""

    def test_output_files_follow_stdout_and_are_cleared(self):
        app = measure.App(Path("."), [], {}, inputs={"in.xml": b"<a/>"}, output_dir="out")
        with tempfile.TemporaryDirectory() as d:
            run_dir = Path(d)
            (run_dir / "out").mkdir()
            (run_dir / "out" / "stale").write_bytes(b"old run")
            app.write_inputs(run_dir)
            self.assertEqual((run_dir / "in.xml").read_bytes(), b"<a/>")
            self.assertEqual(list((run_dir / "out").iterdir()), [])
            (run_dir / "out" / "b.xml").write_bytes(b"B")
            (run_dir / "out" / "a.xml").write_bytes(b"A")
            self.assertEqual(app.output(b"so", run_dir), b"so\n== a.xml ==\nA\n== b.xml ==\nB")
            # Emptied: the next run's output is its own.
            self.assertEqual(app.output(b"so", run_dir), b"so")
            self.assertTrue((run_dir / "out").is_dir())

    def test_without_output_dir_the_output_is_stdout(self):
        app = measure.App(Path("."), [], {})
        self.assertEqual(app.output(b"so", Path("/nonexistent")), b"so")
        with tempfile.TemporaryDirectory() as d:
            app.write_inputs(Path(d))
            self.assertEqual(list(Path(d).iterdir()), [])


class TableTest(unittest.TestCase):
    def _result(self, name, ir, i1, status="ok", heldout=None):
        metrics = {"ir_steady": ir, "ir_heldout": heldout, "i1_misses_steady": i1,
                   "text_bytes": 1000,
                   "dyn_relocs": 10, "dyn_relocs_relative": 8, "startup_pages": 6,
                   "startup_lower_bound": 4, "pages_per_bound": 1.5,
                   "steady_pages": 9, "steady_lower_bound": 7,
                   "startup_minor_faults": 55, "startup_major_faults_evicted": 3}
        return {"name": name, "stock": True, "status": status, "error": "boom",
                "metrics": metrics if status == "ok" else None}

    def test_ratios_and_error_row(self):
        results = [self._result("O2", 2000, 300), self._result("PGO", 1000, 200),
                   self._result("X", 0, 0, status="error")]
        report.add_ratios(results)
        self.assertEqual(results[1]["metrics"]["ir_steady_vs_o2"], 0.5)
        self.assertEqual(results[0]["metrics"]["i1_vs_best_stock"], 1.5)
        text = report.results_text_table(results).splitlines()
        self.assertEqual(len(text), 5)
        self.assertIn("0.500", text[3])
        self.assertIn("10 (8)", text[2])
        # The steady-state working set, then the fault counts close each row.
        self.assertRegex(text[2], r" 9 +7 +55 +3$")
        self.assertTrue(text[4].startswith("X") and "ERROR" in text[4])
        # No held-out scenario: the column says so instead of a figure.
        self.assertRegex(text[3], r"^PGO +1,000 +0\.500 +n/a +n/a ")

    def test_heldout_column(self):
        results = [self._result("O2", 2000, 300, heldout=5000),
                   self._result("PGO", 1000, 200, heldout=4000),
                   self._result("Y", 900, 100, heldout=None)]
        # Relative to the run's reference, here not O2.
        report.add_ratios(results, reference="PGO")
        self.assertEqual(results[0]["metrics"]["ir_heldout_vs_ref"], 1.25)
        self.assertEqual(results[1]["metrics"]["ir_heldout_vs_ref"], 1.0)
        self.assertIsNone(results[2]["metrics"]["ir_heldout_vs_ref"])
        self.assertEqual(results[0]["metrics"]["ir_steady_vs_o2"], 1.0)
        text = report.results_text_table(results).splitlines()
        self.assertRegex(text[0], r"^config +Ir steady +vs O2 +Ir held-out +vs ref +I1 misses")
        self.assertRegex(text[2], r"^O2 +2,000 +1\.000 +5,000 +1\.250 +300 ")
        self.assertRegex(text[4], r"^Y +900 +0\.450 +n/a +n/a +100 ")
        md = report.results_markdown_table(results).splitlines()
        self.assertTrue(md[0].startswith("| config | Ir steady | vs O2 | Ir held-out | vs ref |"))
        self.assertTrue(md[3].startswith("| PGO | 1,000 | 0.500 | 4,000 | 1.000 |"))
        # Without a reference row, no ratio (rather than one to an arbitrary row).
        report.add_ratios(results, reference=None)
        self.assertIsNone(results[0]["metrics"]["ir_heldout_vs_ref"])


if __name__ == "__main__":
    unittest.main()

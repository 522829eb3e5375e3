# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for gawk's program in the benchmark: the scripts and data of
lib/programs.py (gawk_scenarios) and the build bench/pgo_flow.py runs; the
benchmark itself is not part of the test suite. Where the machine has a
gawk 5, every scenario is also run with it."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import programs  # noqa: E402


def system_gawk() -> str | None:
    gawk = shutil.which("gawk")
    if gawk is None:
        return None
    proc = subprocess.run([gawk, "--version"], capture_output=True, text=True)
    return gawk if proc.stdout.startswith("GNU Awk 5.") else None


class GawkScenariosTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scenarios, cls.inputs, cls.training = programs.gawk_scenarios()

    def test_inputs_are_deterministic(self):
        scenarios, inputs, training = programs.gawk_scenarios()
        self.assertEqual(scenarios, self.scenarios)
        self.assertEqual(training, self.training)
        self.assertEqual(inputs, self.inputs)
        self.assertNotEqual(programs._words_csv(50, 1), programs._words_csv(50, 2))

    def test_training_and_heldout_read_other_scripts_and_data(self):
        held = [n for n in self.scenarios if n not in ("startup", "steady")]
        self.assertIn("heldout", held)
        for name in held:
            self.assertTrue(name == "heldout" or name.startswith("heldout-"), name)
        self.assertEqual(self.training[0], ("startup", self.scenarios["startup"]))
        self.assertEqual({name for name, _ in self.training}, {"startup", "steady"})
        self.assertIn(self.scenarios["steady"], [args for _, args in self.training])
        trained = {f for _, args in self.training for f in args}
        for name in held:
            args = self.scenarios[name]
            self.assertEqual(args[0], "-f", name)
            self.assertTrue(args[1].startswith("heldout-"), name)
            self.assertFalse(set(args[1:]) & trained, name)
            for f in args[1:]:
                self.assertIn(f, self.inputs, name)

    def test_prose_is_lines_of_words(self):
        lines = self.inputs["prose.txt"].splitlines()
        self.assertGreater(len(lines), 1000)
        self.assertTrue(all(0 < len(line) <= 90 for line in lines[:-1]))
        self.assertEqual(b"".join(self.inputs["prose.txt"].split()),
                         b"".join(programs._text(300_000, 41).split()))

    def test_build_makes_the_library_then_gawk(self):
        cmd = pgo_flow.GAWK_BUILD.command(3, extra="-O1", ldextra="-fuse-ld=lld")
        self.assertEqual(cmd[:2], ["sh", "-c"])
        self.assertTrue(cmd[2].endswith(" && make -j3 -C support && make -j3 gawk"), cmd)
        self.assertIn("'CFLAGS=-g -O2 -O1'", cmd[2])
        # The other autotools builds keep their one `make -jN`.
        expat = pgo_flow.EXPAT_BUILDS["expat-autotools"][0].command(2)
        self.assertTrue(expat[2].endswith("--without-tests && make -j2"), expat)

    @unittest.skipIf(system_gawk() is None, "no gawk 5 on this machine")
    def test_every_scenario_runs(self):
        gawk = system_gawk()
        env = dict(os.environ, **pgo_flow.GAWK_ENV)
        with tempfile.TemporaryDirectory() as tmp:
            for name, data in self.inputs.items():
                (Path(tmp) / name).write_bytes(data)
            outputs = {}
            for name, args in self.scenarios.items():
                proc = subprocess.run([gawk] + args, cwd=tmp, env=env,
                                      capture_output=True)
                self.assertEqual(proc.returncode, 0, (name, proc.stderr))
                self.assertEqual(proc.stderr, b"", name)
                self.assertTrue(proc.stdout, name)
                outputs[name] = proc.stdout
            # The float script's three sums are numbers, the regex script
            # found vowels and words ending in -ing or -ed.
            self.assertEqual(len(outputs["heldout"].split()), 3)
            n, hits, keys = map(int, outputs["heldout-regex"].split())
            self.assertGreater(n, 0)
            self.assertGreater(hits, 0)
            self.assertGreater(keys, 0)


if __name__ == "__main__":
    unittest.main()

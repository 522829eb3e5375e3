# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for ninja's program in the benchmark: the manifests and
scenarios of lib/programs.py (ninja_scenarios) and what bench/pgo_flow.py
builds and stages of it; the benchmark itself is not part of the test
suite. Where the machine has ninja 1.11 (the benchmark's version), the
scenarios are also run with it."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import programs  # noqa: E402


def system_ninja_1_11() -> str | None:
    ninja = shutil.which("ninja")
    if ninja is None:
        return None
    proc = subprocess.run([ninja, "--version"], capture_output=True, text=True)
    return ninja if proc.stdout.startswith("1.11.") else None


class NinjaScenariosTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scenarios, cls.inputs, cls.training = programs.ninja_scenarios()

    def test_inputs_are_deterministic(self):
        scenarios, inputs, training = programs.ninja_scenarios()
        self.assertEqual(scenarios, self.scenarios)
        self.assertEqual(training, self.training)
        self.assertEqual(list(inputs), list(self.inputs))
        for name, data in inputs.items():
            self.assertEqual(data, self.inputs[name], name)
        # Another seed, another project.
        tree = programs._ninja_tree(11)
        self.assertNotEqual(programs._ninja_c_project(tree, 2, 50)[0],
                            programs._ninja_c_project(tree, 3, 50)[0])

    def test_murmur_hash_is_ninjas(self):
        # Values of ninja 1.11's MurmurHash64A (src/build_log.cc, compiled
        # as is), which decide whether the up-to-date project's commands
        # match its log: empty, a tail only, one whole word, words and a tail.
        for data, value in ((b"", 0x87c2bc0beaf1d91d), (b"a", 0x90fcb1aca689663e),
                            (b"abcdefgh", 0xb06e38308dda3e98),
                            (b"cc -O2 -c proj/src/io/kalo.c -o obj/6/io/kalo.o",
                             0x2242dab583892e18)):
            self.assertEqual(programs._murmur64a(data), value, data)

    def test_scenario_names_and_training(self):
        held = [n for n in self.scenarios if n not in ("startup", "steady")]
        self.assertEqual(list(self.scenarios)[:2], ["startup", "steady"])
        for name in held:
            self.assertTrue(name == "heldout" or name.startswith("heldout-"), name)
        self.assertIn("heldout", held)
        self.assertEqual(self.training[0], ("startup", self.scenarios["startup"]))
        self.assertEqual({name for name, _ in self.training}, {"startup", "steady"})
        self.assertIn(self.scenarios["steady"], [args for _, args in self.training])
        # Every training run is a dry run of a manifest no held-out run reads.
        trained = {args[args.index("-f") + 1] for _, args in self.training}
        for _, args in self.training:
            self.assertEqual(args[0], "-n")
        for name in held:
            args = self.scenarios[name]
            self.assertNotIn(args[args.index("-f") + 1], trained, name)

    def test_every_manifest_and_file_it_names_is_staged(self):
        def manifests(name):
            yield name
            for included in re.findall(rb"^(?:subninja|include) (\S+)$",
                                       self.inputs[name], flags=re.M):
                yield from manifests(included.decode())

        for name, args in list(self.scenarios.items()) + self.training:
            top = args[args.index("-f") + 1]
            for manifest in manifests(top):
                self.assertIn(manifest, self.inputs, name)
                text = self.inputs[manifest].decode()
                for src in re.findall(r"\bproj/\S+\.[ch]\b", text):
                    self.assertIn(src, self.inputs, (name, manifest))

    def test_up_to_date_project_has_every_output_and_its_log(self):
        text = self.inputs["heldout-noop.ninja"].decode()
        self.assertTrue(text.startswith("builddir = noop\n"))
        self.assertNotIn("depfile", text)
        outputs = re.findall(r"^build ([^:|\s]+)", text, flags=re.M)
        log = self.inputs["noop/.ninja_log"].decode().splitlines()
        self.assertEqual(log[0], "# ninja log v5")
        logged = [line.split("\t")[3] for line in log[1:]]
        self.assertEqual(sorted(logged), sorted(o for o in outputs if o != "all"))
        names = list(self.inputs)
        for out in logged:
            # Staged after every source, so that none is older.
            self.assertGreater(names.index(out), names.index("proj/configure.sh"), out)

    def test_stage_inputs_creates_directories_in_order(self):
        prog = pgo_flow.Program(Path("."), "x", {}, {}, {"a/b/c.txt": b"1", "d": b"2"})
        with tempfile.TemporaryDirectory() as d:
            prog.stage_inputs(Path(d))
            self.assertEqual((Path(d) / "a" / "b" / "c.txt").read_bytes(), b"1")
            self.assertEqual((Path(d) / "d").read_bytes(), b"2")

    @unittest.skipUnless(system_ninja_1_11(), "needs ninja 1.11")
    def test_scenarios_run_with_ninja_1_11(self):
        ninja = system_ninja_1_11()
        prog = pgo_flow.Program(Path("."), "ninja", {}, {}, self.inputs)
        with tempfile.TemporaryDirectory() as d:
            prog.stage_inputs(Path(d))
            outputs = {}
            for name, args in self.training + list(self.scenarios.items()):
                proc = subprocess.run([ninja] + args, cwd=d, capture_output=True, text=True)
                self.assertEqual(proc.returncode, 0, (name, proc.stderr))
                outputs[name] = proc.stdout
            self.assertEqual(outputs["heldout"], "ninja: no work to do.\n")
            explain = subprocess.run([ninja, "-d", "explain"] + self.scenarios["heldout"],
                                     cwd=d, capture_output=True, text=True)
            self.assertEqual(explain.stderr, "")
            self.assertTrue(re.match(r"\[1/\d+\] CC obj/2/", outputs["steady"]))
            self.assertIn("GEN gen/config.h", outputs["heldout-scoped"])
            self.assertIn('"command": "cc -MMD', outputs["heldout-compdb"])
            # A dry run writes nothing: no build log beside the manifests.
            self.assertFalse((Path(d) / ".ninja_log").exists())


class NinjaBuildTest(unittest.TestCase):
    def test_builds_the_executable_only_without_a_build_type(self):
        cmd = pgo_flow.NINJA_BUILD.command(2, {"clang": "/l/clang", "clangxx": "/l/clang++",
                                               "ar": "/l/llvm-ar", "ranlib": "/l/llvm-ranlib"},
                                           "-flto=thin", "-fuse-ld=/l/ld.lld")
        configure, build = cmd[2].split(" && ")
        self.assertIn("-DBUILD_TESTING=OFF", configure)
        self.assertNotIn("CMAKE_BUILD_TYPE", configure)
        self.assertIn("'-DCMAKE_CXX_FLAGS=-O2 -flto=thin'", configure)
        self.assertEqual(build, "cmake --build b -j2 --target ninja")


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for jsoncpp's program in the benchmark: the documents and
scenarios of lib/programs.py (jsoncpp_scenarios) and what bench/pgo_flow.py
builds and compares of it; the benchmark itself is not part of the test
suite."""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import programs  # noqa: E402


class JsoncppScenariosTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scenarios, cls.inputs, cls.training = programs.jsoncpp_scenarios()

    def test_documents_are_deterministic(self):
        scenarios, inputs, training = programs.jsoncpp_scenarios()
        self.assertEqual(scenarios, self.scenarios)
        self.assertEqual(training, self.training)
        self.assertEqual(list(inputs), list(self.inputs))
        for name, data in inputs.items():
            self.assertEqual(data, self.inputs[name], name)
        # Another seed, another document.
        self.assertNotEqual(programs._json_records(4096, 2), programs._json_records(4096, 3))

    def test_scenario_names(self):
        held = [n for n in self.scenarios if n not in ("startup", "steady")]
        self.assertEqual(list(self.scenarios)[:2], ["startup", "steady"])
        self.assertTrue(held)
        for name in held:
            self.assertTrue(name == "heldout" or name.startswith("heldout-"), name)
        self.assertIn("heldout", held)
        self.assertEqual(pgo_flow.heldout_names(self.scenarios), ["heldout"] + sorted(
            n for n in held if n != "heldout"))

    def test_training_is_startup_and_steady_on_documents_no_held_out_run_reads(self):
        self.assertEqual(self.training[0], ("startup", self.scenarios["startup"]))
        steady = [args for name, args in self.training if name == "steady"]
        self.assertTrue(2 <= len(steady) <= 3)
        self.assertEqual({name for name, _ in self.training}, {"startup", "steady"})
        self.assertIn(self.scenarios["steady"], steady)
        trained = {a for _, args in self.training for a in args}
        for name, args in self.scenarios.items():
            if name.startswith("heldout"):
                self.assertFalse(trained & set(args), name)
        # The startup run parses the smallest document.
        startup = self.inputs[self.scenarios["startup"][-1]]
        self.assertEqual(len(startup), min(map(len, self.inputs.values())))

    def test_every_run_reads_a_json_file_it_is_given(self):
        for name, args in list(self.scenarios.items()) + self.training:
            document = args[-1]
            # The runner derives its output files from a name ending in .json.
            self.assertTrue(document.endswith(".json"), name)
            self.assertIn(document, self.inputs, name)
        # Only the legacy run's document is named for the legacy reader too.
        legacy = [n for n, args in self.scenarios.items() if args[-1].startswith("legacy_")]
        self.assertEqual(legacy, ["heldout-legacy"])

    def test_documents_are_json(self):
        for name, data in self.inputs.items():
            text = data.decode("utf-8")
            if name == "held-out-comments.json":
                self.assertIn("//", text)
                self.assertIn("/*", text)
                text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
                text = re.sub(r",(\s*[}\]])", r"\1", text)
            json.loads(text)

    def test_kinds_of_document(self):
        def values(doc):
            if isinstance(doc, dict):
                for v in doc.values():
                    yield from values(v)
            elif isinstance(doc, list):
                for v in doc:
                    yield from values(v)
            else:
                yield doc

        def depth(doc):
            if isinstance(doc, (dict, list)):
                inner = doc.values() if isinstance(doc, dict) else doc
                return 1 + max(map(depth, inner), default=0)
            return 0

        for name, args in self.training:
            doc = json.loads(self.inputs[args[-1]])
            for v in values(doc):
                # Short strings and small integers only.
                self.assertTrue(isinstance(v, str) and len(v) < 40
                                or type(v) is int and -1000 < v < 10 ** 6, (name, v))
        floats = json.loads(self.inputs["held-out-floats.json"])
        self.assertTrue(all(isinstance(v, (float, int)) for v in values(floats)))
        self.assertGreater(sum(isinstance(v, float) for v in values(floats)), 1000)
        self.assertGreaterEqual(depth(json.loads(self.inputs["held-out-nested.json"])), 100)
        strings = self.inputs["held-out-strings.json"]
        for escape in (b"\\n", b"\\t", b'\\"', b"\\u263a", b"\\ud83d\\ude00"):
            self.assertIn(escape, strings)


class JsoncppBuildTest(unittest.TestCase):
    def test_builds_the_test_runner_only(self):
        cmd = pgo_flow.JSONCPP_BUILD.command(2, {"clang": "/l/clang", "clangxx": "/l/clang++",
                                                 "ar": "/l/llvm-ar",
                                                 "ranlib": "/l/llvm-ranlib"},
                                             "-flto=thin", "-fuse-ld=/l/ld.lld")
        self.assertEqual(cmd[:2], ["sh", "-c"])
        configure, build = cmd[2].split(" && ")
        for option in ("-DBUILD_SHARED_LIBS=OFF", "-DBUILD_OBJECT_LIBS=OFF",
                       "-DJSONCPP_WITH_TESTS=ON", "-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF",
                       "-DJSONCPP_WITH_PKGCONFIG_SUPPORT=OFF",
                       "-DJSONCPP_WITH_CMAKE_PACKAGE=OFF",
                       "-DCMAKE_CXX_COMPILER=/l/clang++", "'-DCMAKE_CXX_FLAGS=-O2 -flto=thin'",
                       "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=/l/ld.lld"):
            self.assertIn(option, configure)
        self.assertEqual(build, "cmake --build b -j2 --target jsontestrunner_exe")
        self.assertEqual(pgo_flow.JSONCPP_BUILD.command(1)[2].split(" && ")[1],
                         "cmake --build b -j1 --target jsontestrunner_exe")

    def test_output_files_beside_the_input_are_the_output(self):
        prog = pgo_flow.FileOutputProgram(Path("."), "x", {}, {}, {"d.json": b"[]"},
                                          patterns=programs.JSONCPP_OUTPUTS)
        with tempfile.TemporaryDirectory() as d:
            cwd = Path(d)
            (cwd / "old.actual").write_bytes(b"stale")
            prog.stage_inputs(cwd)
            self.assertEqual(sorted(p.name for p in cwd.iterdir()), ["d.json"])
            for name, data in (("d.rewrite", b"R"), ("d.actual", b"A"),
                               ("d.actual-rewrite", b"AR")):
                (cwd / name).write_bytes(data)
            proc = subprocess.CompletedProcess([], 0, stdout=b"", stderr=b"")
            self.assertEqual(prog.output(proc, cwd),
                             b"\n== d.actual ==\nA\n== d.actual-rewrite ==\nAR"
                             b"\n== d.rewrite ==\nR")
            prog.clear_output(cwd)
            self.assertEqual(prog.output(proc, cwd), b"")
            self.assertEqual(sorted(p.name for p in cwd.iterdir()), ["d.json"])


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the build commands and run outputs of bench/pgo_flow.py
and the XML documents of lib/programs.py; the benchmark itself is not part
of the test suite."""

import os
import subprocess
import sys
import tempfile
import unittest
import xml.parsers.expat
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import programs  # noqa: E402

TOOLS = {"clang": "/l/clang", "clangxx": "/l/clang++", "ar": "/l/llvm-ar",
         "ranlib": "/l/llvm-ranlib"}


class BuildCommandTest(unittest.TestCase):
    def test_make_keeps_the_generated_makefiles_commands(self):
        # The sample's and zstd's figures depend on these exact commands.
        make = pgo_flow.MakeBuild()
        self.assertEqual(make.command(2), ["make", "-j2"])
        self.assertEqual(make.command(2, extra="-X", ldextra="-Wl,-Y"),
                         ["make", "-j2", "EXTRA=-X", "LDEXTRA=-Wl,-Y"])
        self.assertEqual(make.command(1, TOOLS, "-a b", "-fuse-ld=/l/ld.lld"),
                         ["make", "-j1", "CC=/l/clang", "CXX=/l/clang++", "EXTRA=-a b",
                          "LDEXTRA=-fuse-ld=/l/ld.lld"])

    def test_autotools_plain_build_has_no_variable(self):
        cmd = pgo_flow.AutotoolsBuild(["--disable-shared"]).command(2)
        self.assertEqual(cmd, ["sh", "-c", "./configure --disable-shared && make -j2"])

    def test_autotools_stock_build_passes_configure_variables(self):
        cmd = pgo_flow.AutotoolsBuild(["--disable-shared"]).command(
            2, TOOLS, "-fprofile-use=/p q/m.profdata", "-fuse-ld=/l/ld.lld")
        self.assertEqual(cmd[:2], ["sh", "-c"])
        self.assertEqual(cmd[2], "./configure --disable-shared CC=/l/clang CXX=/l/clang++ "
                         "AR=/l/llvm-ar RANLIB=/l/llvm-ranlib "
                         "'CFLAGS=-g -O2 -fprofile-use=/p q/m.profdata' "
                         "'CXXFLAGS=-g -O2 -fprofile-use=/p q/m.profdata' "
                         "LDFLAGS=-fuse-ld=/l/ld.lld && make -j2")

    def test_cmake_stock_build_passes_cache_variables(self):
        cmd = pgo_flow.CMakeBuild(["-DX=OFF"]).command(1, TOOLS, "-flto=thin", "-fuse-ld=lld")
        self.assertEqual(cmd[2], "cmake -S . -B b -DX=OFF -DCMAKE_C_COMPILER=/l/clang "
                         "-DCMAKE_CXX_COMPILER=/l/clang++ -DCMAKE_AR=/l/llvm-ar "
                         "-DCMAKE_RANLIB=/l/llvm-ranlib '-DCMAKE_C_FLAGS=-O2 -flto=thin' "
                         "'-DCMAKE_CXX_FLAGS=-O2 -flto=thin' "
                         "-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld && cmake --build b -j1")
        self.assertEqual(pgo_flow.CMakeBuild([]).command(2)[2],
                         "cmake -S . -B b && cmake --build b -j2")


class RunOutputTest(unittest.TestCase):
    def test_output_files_follow_stdout_and_are_cleared(self):
        prog = pgo_flow.Program(Path("."), "x", {}, {}, {"in.txt": b"data"},
                                output_dir="out")
        with tempfile.TemporaryDirectory() as d:
            cwd = Path(d)
            prog.stage_inputs(cwd)
            self.assertEqual((cwd / "in.txt").read_bytes(), b"data")
            (cwd / "out" / "b").write_bytes(b"B")
            (cwd / "out" / "a").write_bytes(b"A")
            proc = subprocess.CompletedProcess([], 0, stdout=b"so", stderr=b"")
            self.assertEqual(prog.output(proc, cwd), b"so\n== a ==\nA\n== b ==\nB")
            prog.clear_output(cwd)
            self.assertEqual(prog.output(proc, cwd), b"so")

    def test_without_output_dir_the_output_is_stdout(self):
        prog = pgo_flow.Program(Path("."), "x", {}, {}, {})
        proc = subprocess.CompletedProcess([], 0, stdout=b"so", stderr=b"")
        self.assertEqual(prog.output(proc, Path("/nonexistent")), b"so")
        self.assertEqual(prog.built, "x")


class XmlDocumentTest(unittest.TestCase):
    def parse(self, data: bytes, namespaces: bool) -> dict:
        parser = xml.parsers.expat.ParserCreate(namespace_separator="|" if namespaces
                                                else None)
        seen = {"elements": 0, "cdata": 0, "comments": 0, "pis": 0, "names": set()}

        def start(name, attrs):
            seen["elements"] += 1
            seen["names"].add(name)
        parser.StartElementHandler = start
        parser.StartCdataSectionHandler = lambda: seen.__setitem__("cdata",
                                                                   seen["cdata"] + 1)
        parser.CommentHandler = lambda _: seen.__setitem__("comments", seen["comments"] + 1)
        parser.ProcessingInstructionHandler = lambda *_: seen.__setitem__(
            "pis", seen["pis"] + 1)
        parser.Parse(data, True)
        return seen

    def test_documents_are_deterministic_well_formed_and_varied(self):
        doc = programs._xml(64 << 10, 5)
        self.assertEqual(doc, programs._xml(64 << 10, 5))
        self.assertNotEqual(doc, programs._xml(64 << 10, 6))
        self.assertGreaterEqual(len(doc), 64 << 10)
        seen = self.parse(doc, namespaces=True)
        self.assertGreater(seen["elements"], 100)
        for kind in ("cdata", "comments", "pis"):
            self.assertGreater(seen[kind], 0, kind)
        self.assertIn("urn:kiln:meta|name", seen["names"])

    def test_latin1_document_declares_and_uses_its_encoding(self):
        doc = programs._xml(16 << 10, 3, "ISO-8859-1", 8)
        self.assertTrue(doc.startswith(b'<?xml version="1.0" encoding="ISO-8859-1"?>'))
        self.assertIn("caf\u00e9".encode("latin-1"), doc)
        self.parse(doc, namespaces=False)

    def test_utf16_document_has_a_byte_order_mark_and_parses(self):
        doc = programs._xml(8 << 10, 4, "UTF-16", 5)
        self.assertTrue(doc.startswith(b"\xff\xfe<\x00?\x00x\x00m\x00l\x00"))
        self.assertIn('encoding="UTF-16"'.encode("utf-16-le"), doc)
        self.assertIn("caf\u00e9".encode("utf-16-le"), doc)
        seen = self.parse(doc, namespaces=True)
        self.assertGreater(seen["elements"], 10)

    def test_scenarios_read_the_inputs_they_name(self):
        scenarios, inputs = programs.expat_scenarios()
        self.assertEqual(sorted(scenarios), ["heldout", "heldout-meta", "heldout-utf16",
                                             "startup", "steady"])
        for args in scenarios.values():
            self.assertIn(args[-1], inputs)
            self.assertEqual(args[-3:-1], ["-d", "out"])


class BlockLayoutFallbackTest(unittest.TestCase):
    def test_only_a_block_layout_that_was_not_used_is_a_fallback(self):
        status = "\n".join([
            "optimized build: make, 2026-12-03T15:55:20Z, exit status 0, --block-layout=callgrind",
            "  context-sensitive relink: 2 training run(s) replayed, the order is from their profiles",
            "  block layout (callgrind): xmlwf/xmlwf: not used (replaying run 1 of scenario "
            "'startup' (./xmlwf/xmlwf -d out small.xml) exited with status 1, the training "
            "run with 0 (see /w/stderr.txt))",
            "  block layout (bolt): app: 2 training run(s) replayed, relinked from "
            ".kiln/optimize/block-layout/0/blocks.kbp",
            "  program /w/app: unchanged (not used (here) is not a status line)"])
        fallbacks = pgo_flow.block_layout_fallbacks(status)
        self.assertEqual(len(fallbacks), 1)
        self.assertTrue(fallbacks[0].startswith("block layout (callgrind): xmlwf/xmlwf: not used ("))
        self.assertEqual(pgo_flow.block_layout_fallbacks(""), [])


class TableTest(unittest.TestCase):
    @staticmethod
    def result(ir, i1, wall):
        return {"ir_steady": ir, "ir_heldout": 2 * ir, "i1_steady": i1,
                "i1_heldout": 2 * i1, "ir_heldout_each": {"heldout": 2 * ir},
                "i1_heldout_each": {"heldout": 2 * i1}, "ir_heldout_own_each": {"heldout": ir},
                "i1_one_set_heldout": i1, "i1_one_set_heldout_each": {"heldout": i1},
                "text_bytes": 4096, "startup_pages": 3,
                "startup_lower_bound": 2, "steady_pages": 5, "steady_lower_bound": 4,
                "times": {"optimize_wall_s": wall, "optimize_cpu_s": wall / 2}}

    def test_rows_have_the_i1_misses_and_the_optimize_wall_time(self):
        rows = pgo_flow.table({"stock": self.result(1000, 50, 1.0),
                               "kiln pgo +block-bolt": self.result(990, 40, 3.0)},
                              "stock").splitlines()
        header = [c.strip() for c in rows[0].strip("|").split("|")]
        bolt = [c.strip() for c in rows[3].strip("|").split("|")]
        self.assertEqual(len(header), len(bolt))
        row = dict(zip(header, bolt))
        self.assertEqual(row["Ir steady"], "990")
        self.assertEqual(row["vs stock"], "0.9900")
        self.assertEqual(row["I1 steady"], "40")
        self.assertEqual(row["I1 held-out"], "80")
        self.assertEqual(row["I1 held-out, one set"], "40")
        self.assertEqual(row["worst held-out"], "0.9900")
        self.assertEqual(row["optimize wall s"], "3.0")
        self.assertEqual(row["optimize build CPU s"], "1.5")

    def test_block_layout_variants_add_only_the_switch(self):
        self.assertEqual(pgo_flow.VARIANTS["+block-bolt"], (["--block-layout=bolt"], "", ""))
        self.assertEqual(pgo_flow.VARIANTS["+block-callgrind"],
                         (["--block-layout=callgrind"], "", ""))


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the build commands and run outputs of bench/pgo_flow.py
and the XML documents of lib/programs.py; the benchmark itself is not part
of the test suite."""

import argparse
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock
import xml.parsers.expat
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import pages, programs  # noqa: E402

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


class FinalLinksTest(unittest.TestCase):
    def test_final_links_from_the_manifest(self):
        manifest = {"optimize": {"final_links": [
            {"program": "/w/b/bin/app", "link": "block layout relink", "wall_seconds": 3.5,
             "cpu_seconds": 6.25, "peak_rss_kib": 614400}]}}
        self.assertEqual(pgo_flow.final_links(manifest), [
            {"program": "app", "link": "block layout relink", "wall_s": 3.5, "cpu_s": 6.25,
             "peak_mib": 600}])
        # A manifest of an older Kiln, or of a build without an optimize phase.
        self.assertEqual(pgo_flow.final_links({"optimize": {}}), [])
        self.assertEqual(pgo_flow.final_links({}), [])


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


class FakeRuns:
    """pgo_flow.run's stand-in: records (command, directory, LLVM_PROFILE_FILE);
    a training run writes the raw profile LLVM_PROFILE_FILE names (BOLT's
    instrumented run, without it, an .fdata file), make writes the program,
    `llvm-profdata show` prints \\p show."""

    def __init__(self, show: str = "Total functions: 3\n"):
        self.calls, self.show, self.pid = [], show, 100

    def __call__(self, cmd, cwd, log_file, env=None, stdin=None):
        cwd = Path(cwd)
        profile_file = (env or {}).get("LLVM_PROFILE_FILE")
        self.calls.append((list(cmd), cwd, profile_file))
        if cmd[0].startswith("./"):
            self.pid += 1
            if profile_file:
                raw = Path(profile_file.replace("%p", str(self.pid)).replace("%m", "7"))
                raw.parent.mkdir(parents=True, exist_ok=True)
                raw.write_bytes(b"")
            else:
                (cwd / ("prof.%d.fdata" % self.pid)).write_bytes(b"")
        if cmd[0] == "make":
            (cwd / "x").write_bytes(b"program")
        out = self.show.encode() if "show" in cmd else b""
        return subprocess.CompletedProcess(cmd, 0, stdout=out, stderr=b""), 1.0, 2.0

    def commands(self, first: str) -> list[list[str]]:
        return [c for c, _, _ in self.calls if c[0] == first]


class StockPipelinesTest(unittest.TestCase):
    """The stock pipelines' commands (stock(), cs_stock(), relink_stock(),
    bolt_row()), with the commands recorded instead of run."""

    TOOLS = dict(TOOLS, ldlld="/l/ld.lld", profdata="/l/llvm-profdata", bolt="/l/llvm-bolt",
                 merge_fdata="/l/merge-fdata")

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.work = Path(self.tmp.name)
        (self.work / "src").mkdir()
        (self.work / "src" / "x.c").write_text("int main(void) { return 0; }\n")
        self.prog = pgo_flow.Program(self.work / "src", "x",
                                     {"startup": ["s"], "steady": ["t"]}, {}, {},
                                     training=[("startup", ["s"]), ("steady", ["t"]),
                                               ("steady", ["u"])])
        self.args = argparse.Namespace(jobs=2)
        patcher = mock.patch.object(pgo_flow, "log")
        patcher.start()
        self.addCleanup(patcher.stop)
        self.addCleanup(self.tmp.cleanup)

    def build(self, fake: FakeRuns, fn, *args, **kwargs):
        with mock.patch.object(pgo_flow, "run", fake):
            return fn(*args, **kwargs)

    def test_references(self):
        self.assertEqual(pgo_flow.parse_references(""), [])
        self.assertEqual(pgo_flow.parse_references("all"),
                         ["fe", "cs", "bp", "bolt", "fe-bolt"])
        self.assertEqual(pgo_flow.parse_references("fe-bolt,bp,fe"), ["fe", "bp", "fe-bolt"])
        with self.assertRaises(ValueError):
            pgo_flow.parse_references("bp,ir")
        self.assertEqual(pgo_flow.LAYOUT_ROWS,
                         ("stock PGO+ThinLTO+bp", "BOLT", "BOLT on FE PGO"))

    def test_ir_pgo_is_instrumented_in_ir_with_a_temporal_profile(self):
        fake = FakeRuns()
        built = self.build(fake, pgo_flow.stock, self.prog, self.prog, self.work, self.args,
                           self.TOOLS)
        raw = self.work / "stock" / "raw"
        make = fake.commands("make")
        self.assertEqual(make[0], ["make", "-j2", "CC=/l/clang", "CXX=/l/clang++",
                                   "EXTRA=-fprofile-generate=%s -ftemporal-profile" % raw,
                                   "LDEXTRA=-fuse-ld=/l/ld.lld"])
        self.assertEqual(make[1][4], "EXTRA=-flto=thin -fprofile-use=%s -Wno-backend-plugin"
                         % (self.work / "stock.profdata"))
        self.assertEqual(built["startup_profile"], self.work / "stock-startup.profdata")

    def test_fe_pgo_is_instrumented_by_the_front_end(self):
        fake = FakeRuns()
        built = self.build(fake, pgo_flow.stock, self.prog, self.prog, self.work, self.args,
                           self.TOOLS, "stock-fe", "fe")
        make = fake.commands("make")
        self.assertEqual(len(make), 2)
        # Compile and link (EXTRA reaches both), no IR-only option.
        self.assertEqual(make[0][4:], ["EXTRA=-fprofile-instr-generate",
                                       "LDEXTRA=-fuse-ld=/l/ld.lld"])
        merged = self.work / "stock-fe.profdata"
        self.assertEqual(make[1][4:], ["EXTRA=-flto=thin -fprofile-use=%s -Wno-backend-plugin"
                                       % merged, "LDEXTRA=-fuse-ld=/l/ld.lld"])
        # One raw profile per training run, all merged, no startup profile.
        runs = [(c, f) for c, _, f in fake.calls if c[0] == "./x"]
        self.assertEqual([c for c, _ in runs], [["./x", "s"], ["./x", "t"], ["./x", "u"]])
        raw = self.work / "stock-fe" / "raw"
        self.assertEqual([f for _, f in runs], [str(raw / "startup-%p-%m.profraw"),
                                                 str(raw / "steady-%p-%m.profraw"),
                                                 str(raw / "steady-%p-%m.profraw")])
        merges = fake.commands("/l/llvm-profdata")
        self.assertEqual(len(merges), 1)
        self.assertEqual(merges[0][:4], ["/l/llvm-profdata", "merge", "-o", str(merged)])
        self.assertEqual(len(merges[0]), 7)
        self.assertEqual((built["profile"], built["startup_profile"]), (merged, None))
        self.assertEqual(built["exe"], self.work / "stock-fe" / "x")

    def ir_tree(self) -> dict:
        """stock()'s result: its tree, with the IR PGO program."""
        tree = self.work / "stock"
        tree.mkdir()
        (tree / "x").write_bytes(b"IR PGO program")
        return {"profile": self.work / "stock.profdata", "tree": tree}

    def test_cspgo_adds_context_sensitive_profiles_to_the_ir_profile(self):
        ir = self.ir_tree()
        fake = FakeRuns()
        built = self.build(fake, pgo_flow.cs_stock, self.prog, ir, self.work, self.args,
                           self.TOOLS)
        # Both builds ran in the IR training's tree, where the profile's
        # file-local names point; the IR tree is back, the CSPGO tree moved.
        raw = self.work / "stock" / "raw"
        self.assertEqual({cwd for c, cwd, _ in fake.calls if c[0] == "make"},
                         {self.work / "stock"})
        self.assertEqual((self.work / "stock" / "x").read_bytes(), b"IR PGO program")
        self.assertEqual(built["tree"], self.work / "stock-cs")
        self.assertEqual(built["exe"], self.work / "stock-cs" / "x")
        self.assertFalse((self.work / "stock-parked").exists())
        make = fake.commands("make")
        self.assertEqual(make[0][4:], [
            "EXTRA=-flto=thin -fprofile-use=%s -Wno-backend-plugin -fcs-profile-generate=%s"
            % (ir["profile"], raw), "LDEXTRA=-fuse-ld=/l/ld.lld"])
        p2 = self.work / "stock-cs.profdata"
        self.assertEqual(make[1][4:], ["EXTRA=-flto=thin -fprofile-use=%s -Wno-backend-plugin"
                                       % p2, "LDEXTRA=-fuse-ld=/l/ld.lld"])
        profdata = fake.commands("/l/llvm-profdata")
        self.assertEqual(profdata[0][:5], ["/l/llvm-profdata", "merge", "-o", str(p2),
                                           str(ir["profile"])])
        self.assertEqual(len(profdata[0]), 8)
        self.assertEqual(profdata[1], ["/l/llvm-profdata", "show", "--showcs", str(p2)])
        self.assertEqual(built["profile"], p2)

    def test_cspgo_without_context_sensitive_records_fails(self):
        fake = FakeRuns(show="Instrumentation level: IR\nTotal functions: 0\n")
        with self.assertRaisesRegex(pgo_flow.Step, "no context-sensitive record"):
            self.build(fake, pgo_flow.cs_stock, self.prog, self.ir_tree(), self.work,
                       self.args, self.TOOLS)
        # The IR tree is back where it was.
        self.assertEqual((self.work / "stock" / "x").read_bytes(), b"IR PGO program")
        self.assertEqual(pgo_flow.cs_profile_functions("Functions shown: 2\nTotal functions: 5\n"), 5)

    def test_bolt_on_fe_pgo_relinks_with_the_fe_profile(self):
        tree = self.work / "stock-fe"
        tree.mkdir()
        (tree / "x").write_bytes(b"program")
        fe = {"tree": tree, "profile": self.work / "stock-fe.profdata"}
        fake = FakeRuns()
        out = self.build(fake, pgo_flow.bolt_row, self.prog, fe, self.work, self.args,
                         self.TOOLS, "fe-bolt")
        make = fake.commands("make")
        self.assertEqual(make, [["make", "-j2", "CC=/l/clang", "CXX=/l/clang++",
                                 "EXTRA=-flto=thin -fprofile-use=%s -Wno-backend-plugin"
                                 % fe["profile"],
                                 "LDEXTRA=-fuse-ld=/l/ld.lld -Wl,--emit-relocs"]])
        bolt = fake.commands("/l/llvm-bolt")
        linked = str(self.work / "programs" / "fe-bolt" / "x")
        self.assertEqual(bolt[0][:2], ["/l/llvm-bolt", linked])
        self.assertIn("-instrument", bolt[0])
        self.assertEqual(bolt[1][:4], ["/l/llvm-bolt", linked, "-o", str(
            self.work / "programs" / "fe-bolt-optimized" / "x")])
        self.assertEqual([cwd for c, cwd, _ in fake.calls if c[0] == "./x"],
                         [self.work / "fe-bolt"] * 3)
        self.assertEqual(out["exe"], self.work / "programs" / "fe-bolt-optimized" / "x")


class OwnIrTest(unittest.TestCase):
    def test_code_in_no_object_counts_when_it_is_the_programs(self):
        # A BOLT-rewritten program: valgrind puts one executable segment in
        # no object (`???`) but names its functions; its own few
        # instructions there have no symbol of the program.
        cg = pages.CallgrindData(
            self_cost={"/w/run/lua": {0x1000: 10}, "???": {0x141000: 5, 0x4838000: 7},
                       "/lib/libc.so.6": {0x2000: 100}},
            fn_at={"???": {0x141000: "luaK_jump", 0x4838000: "0x0000000004838000"}})
        self.assertEqual(pgo_flow.own_ir(cg, Path("/w/run/lua"), {"luaK_jump", "main"}), 15)
        self.assertEqual(pgo_flow.own_ir(cg, Path("/w/run/lua")), 10)

    def test_recursive_calls_count_as_their_function(self):
        # Callgrind names the inner calls of a recursive function `fn'2`.
        cg = pages.CallgrindData(
            self_cost={"/w/run/ninja": {0x1000: 10}, "???": {0x400000: 5, 0x400010: 3}},
            fn_at={"???": {0x400000: "parse.cold.0", 0x400010: "parse.cold.0'2"}})
        self.assertEqual(pgo_flow.own_ir(cg, Path("/w/run/ninja"), {"parse.cold.0"}), 18)


class BestStockTableTest(unittest.TestCase):
    def test_table_names_the_best_row_of_each_workload(self):
        results = {pgo_flow.STOCK_ROW: {"ir_heldout_each": {"heldout-a": 1000, "heldout-b": 500},
                                        "i1_heldout": 90},
                   pgo_flow.REFERENCE_ROWS["fe"]: {"ir_heldout_each": {"heldout-a": 990,
                                                                       "heldout-b": 510},
                                                   "i1_heldout": 80},
                   "BOLT": {"ir_heldout_each": {"heldout-a": 995, "heldout-b": 505},
                            "i1_heldout": 40},
                   "kiln pgo +inline": {"ir_heldout_each": {"heldout-a": 1, "heldout-b": 1},
                                        "i1_heldout": 1},
                   "kiln pgo": {"ir_heldout_each": {"heldout-a": 1000, "heldout-b": 500},
                                "i1_heldout": 50}}
        self.assertEqual(pgo_flow.stock_rows(results),
                         [pgo_flow.STOCK_ROW, pgo_flow.REFERENCE_ROWS["fe"], "BOLT"])
        self.assertEqual(pgo_flow.flow_row(results), "kiln pgo")
        self.assertEqual(pgo_flow.flow_row({"kiln pgo +inline": {}}), "kiln pgo +inline")
        summary = pgo_flow.best_stock(results, "kiln pgo")
        lines = pgo_flow.best_stock_table(summary).splitlines()
        self.assertEqual(lines[2], "| heldout-a | stock FE PGO+ThinLTO | 990 | 1,000 | 1.0101 |")
        self.assertEqual(lines[3], "| heldout-b | stock PGO+ThinLTO | 500 | 500 | 1.0000 |")
        self.assertEqual(lines[4], "| sum | (best of each workload) | 1,490 | 1,500 | 1.0067 |")
        self.assertEqual(lines[6], "I1 held-out misses, summed over the held-out workloads: "
                         "lowest of BOLT: BOLT, 40; kiln pgo 50, 1.2500x")


if __name__ == "__main__":
    unittest.main()

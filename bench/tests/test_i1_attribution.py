# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/i1_attribution.py, on small hand-written callgrind
and cachegrind files."""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import i1_attribution as attr  # noqa: E402
from lib import pages  # noqa: E402

EXE = "/tmp/app/prog"

# A run of EXE (no load bias: main's entry is its symbol's address) that
# executes main, a template instance, a function's cold part, a promoted
# local (`.llvm.N`), code valgrind puts in no object but names after one of
# the program's symbols (BOLT's moved code), and libstdc++ and libc code.
CALLGRIND = """\
version: 1
creator: callgrind-3.19.0
positions: instr
events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
summary: 144 0 0 16 0 0 0 0 0
ob=(1) /lib/ld-linux-x86-64.so.2
fn=(1) _start
0x100 3 0 0 1
cob=(2) /tmp/app/prog
cfn=(2) main
calls=1 0x1000
0x103 100
ob=(2)
fn=(2)
0x1000 10 0 0 2
+4 10 0 0 0
+60 5 0 0 1
cfn=(3) _Z3maxIiET_S0_S0_
calls=1 0x1100
* 20
fn=(3)
0x1100 20 0 0 3
fn=(4) _Z4workv.cold
0x1200 2 0 0 1
fn=(5) _Z6helperv.llvm.42
0x1300 4 0 0 1
ob=(3) ???
fn=(6) _Z5movedv
0x5000 30 0 0 2
fn=(7) vgPlain_stub
0x9000 1 0 0 1
ob=(4) /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30
fn=(8) _ZNSo3putEc
0x7000 40 0 0 3
ob=(5) /usr/lib/x86_64-linux-gnu/libc.so.6
fn=(9) memcpy
0x8000 19 0 0 1
"""

# The same run in a one-set I1: fewer misses in main.
CALLGRIND_ONE_SET = CALLGRIND.replace("0x1000 10 0 0 2", "0x1000 10 0 0 1")

SYMBOLS = [attr.Symbol(0x1000, 0x100, "main", section=".text"),
           attr.Symbol(0x1100, 0x40, "_Z3maxIiET_S0_S0_", section=".text"),
           attr.Symbol(0x1200, 0x10, "_Z4workv.cold", section=".text.split"),
           attr.Symbol(0x1300, 0x10, "_Z6helperv.llvm.42", section=".text"),
           attr.Symbol(0x1400, 0x10, "_Z6inlinedv", weak=True, section=".text"),
           attr.Symbol(0x5000, 0x40, "_Z5movedv", section=".text.bolt")]


def _binary():
    b = attr.Binary(EXE, SYMBOLS, [])
    b.by_demangled = {attr._squash(n): n for n in ("main",)}
    return b


def _read_text(text, reader, suffix=".out"):
    """\\p reader's result on a temporary file holding \\p text."""
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(text)
    try:
        return reader(f.name)
    finally:
        os.unlink(f.name)


def _profile(text):
    return _read_text(text, attr.read_profile)


DEMANGLED = {"_Z3maxIiET_S0_S0_": "int max<int>(int, int)", "_Z4workv": "work()",
             "_Z6helperv": "helper()", "_Z5movedv": "moved()"}


class NamesTest(unittest.TestCase):
    def test_split_name_drops_build_suffixes_and_parts(self):
        self.assertEqual(attr.split_name("_Z1fv.llvm.123"), ("_Z1fv", ""))
        self.assertEqual(attr.split_name("_Z1fv.cold"), ("_Z1fv", ".cold"))
        self.assertEqual(attr.split_name("_Z1fv.cold.2"), ("_Z1fv", ".cold"))
        self.assertEqual(attr.split_name("f.llvm.9.__part.3"), ("f", ".__part"))

    def test_templates_are_told_by_their_arguments(self):
        self.assertTrue(attr.is_template("int max<int>(int, int)"))
        self.assertTrue(attr.is_template("std::vector<int>::push_back(int const&)"))
        self.assertTrue(attr.is_template("f()::{lambda(int)#1}::operator()(int) const"))
        self.assertFalse(attr.is_template("Json::Value::operator<(Json::Value const&) const"))
        self.assertFalse(attr.is_template("std::ostream::operator<<(int)"))
        self.assertFalse(attr.is_template("f(std::vector<int>&)"))

    def test_object_classes(self):
        self.assertEqual(attr.object_class("/usr/lib/x86_64-linux-gnu/libc.so.6"), "libc")
        self.assertEqual(attr.object_class("/lib/ld-linux-x86-64.so.2"), "ld.so")
        self.assertEqual(attr.object_class("/x/libstdc++.so.6.0.30"), "libstdc++")
        self.assertEqual(attr.object_class("???"), "unknown")


class SymbolsTest(unittest.TestCase):
    READELF = """\
Symbol table '.symtab' contains 5 entries:
   Num:    Value          Size Type    Bind   Vis       Ndx Name
     1: 0000000000001000   256 FUNC    GLOBAL DEFAULT    14 main
     2: 0000000000001100    64 FUNC    WEAK   DEFAULT    14 _Z3maxIiET_S0_S0_
     3: 0000000000001100    64 FUNC    LOCAL  DEFAULT    14 alias
     4: 0000000000001200    16 NOTYPE  LOCAL  DEFAULT    15 _Z4workv.cold
     5: 0000000000003000     8 NOTYPE  LOCAL  DEFAULT    20 data_label
"""

    def test_weak_aliases_and_parts(self):
        secs = [pages.Section(".text", 0x1000, 0x200, "AX"),
                pages.Section(".text.split", 0x1200, 0x100, "AX"),
                pages.Section(".data", 0x3000, 0x100, "WA")]
        syms = attr.parse_symbols(self.READELF, secs)
        self.assertEqual([(s.name, s.weak, s.section) for s in syms],
                         [("main", False, ".text"), ("_Z3maxIiET_S0_S0_", True, ".text"),
                          ("_Z4workv.cold", False, ".text.split")])


class AttributeTest(unittest.TestCase):
    def setUp(self):
        self.st = attr.attribute(_profile(CALLGRIND), _binary(), {"_Z6inlinedv"}, DEMANGLED)

    def test_misses_by_object(self):
        self.assertEqual(self.st.miss, 16)
        self.assertEqual(dict(self.st.by_object),
                         {attr.OWN: 10, "ld.so": 1, "unknown": 1, "libstdc++": 3, "libc": 1})
        self.assertEqual((self.st.own_miss, self.st.own_ir), (10, 81))

    def test_functions_and_kinds(self):
        m = self.st.funcs.miss
        self.assertEqual(m[(attr.OWN, "main")], 3)
        self.assertEqual(m[(attr.OWN, "_Z4workv")], 1)          # the cold part
        self.assertEqual(m[(attr.OWN, "_Z6helperv")], 1)        # without .llvm.42
        self.assertEqual(m[(attr.OWN, "_Z5movedv")], 2)         # from ???
        self.assertEqual(m[("unknown", "vgPlain_stub")], 1)
        self.assertEqual(self.st.kinds.miss["template/lambda"], 3)
        self.assertEqual(self.st.kinds.miss["cold part (.cold)"], 1)
        self.assertEqual(self.st.kinds.miss["plain"], 6)
        self.assertEqual(self.st.sections.miss[".text.bolt"], 2)

    def test_lines(self):
        # main executes 0x1000, 0x1004 and 0x1040: two lines.
        self.assertEqual(self.st.func_lines["main"], 2)
        self.assertEqual(self.st.own_lines, 6)

    def test_code_in_no_object_has_its_own_bias(self):
        # A PIE rewritten by BOLT: valgrind gives the original `.text`'s
        # segment no object and writes its run-time addresses (load base
        # 0x108000); callgrind marks a recursion level with `'2`.
        text = CALLGRIND.replace("0x5000 30 0 0 2",
                                 "0x10d000 30 0 0 2\nfn=(10) _Z5movedv'2\n0x10d010 5 0 0 4")
        st = attr.attribute(_profile(text), _binary(), set(), DEMANGLED)
        self.assertEqual(st.funcs.miss[(attr.OWN, "_Z5movedv")], 6)
        self.assertEqual(st.sections.miss[".text.bolt"], 6)

    def test_a_copied_binary_is_the_object_no_library_is(self):
        b = attr.Binary("/elsewhere/prog-copy", SYMBOLS, [])
        st = attr.attribute(_profile(CALLGRIND), b, set(), DEMANGLED)
        self.assertEqual(st.own_miss, 10)

    def test_cachegrind_files_are_attributed_by_name(self):
        cg = ("events: Ir I1mr\nfl=a.c\nfn=main\n3 10 2\n4 5 1\nfn=memcpy\n9 7 3\n"
              "summary: 22 6\n")
        st = attr.attribute(_profile(cg), _binary(), set(), {})
        self.assertFalse(st.per_line)
        self.assertEqual(dict(st.by_object), {attr.OWN: 3, "library": 3})


class LayoutReportTest(unittest.TestCase):
    """--layout-report: own code by its place in the block layout."""

    REPORT = ('{"layout": [{"function": "main", "clusters": ['
              '{"symbol": "main", "kind": "shared", "group": "startup"}]},'
              '{"function": "_Z4workv", "clusters": ['
              '{"symbol": "_Z4workv.cold", "kind": "cold", "group": "cold"}]}]}')

    def read(self, text):
        return _read_text(text, attr.read_layout_report, ".json")

    def test_clusters_and_the_code_no_cluster_holds(self):
        places = self.read(self.REPORT)
        self.assertEqual(places, {"main": "startup group, shared cluster",
                                  "_Z4workv.cold": "cold group, cold cluster"})
        st = attr.attribute(_profile(CALLGRIND), _binary(), set(), DEMANGLED, places)
        self.assertEqual(dict(st.layout.miss), {"startup group, shared cluster": 3,
                                                "cold group, cold cluster": 1,
                                                attr.NOT_IN_LAYOUT: 6})
        self.assertEqual(sum(st.layout.miss.values()), st.own_miss)
        self.assertEqual(st.layout.ir["startup group, shared cluster"], 25)
        self.assertEqual(st.layout_lines["startup group, shared cluster"], 2)
        # Without a report nothing is tallied, and the report has no table.
        self.assertFalse(attr.attribute(_profile(CALLGRIND), _binary(), set(),
                                        DEMANGLED).layout.miss)

    def test_the_table_is_the_subjects(self):
        places = self.read(self.REPORT)
        b = _binary()
        a = attr.attribute(_profile(CALLGRIND), b, set(), DEMANGLED, places)
        one = attr.attribute(_profile(CALLGRIND_ONE_SET), b, set(), DEMANGLED, places)
        ref = attr.attribute(_profile(CALLGRIND), b, set(), DEMANGLED)
        text = "\n".join(attr.report({"kiln": [a], "bolt": [ref]}, {"kiln": [one]}, "kiln",
                                     "bolt", ["heldout"], DEMANGLED, set(), 3, 40))
        self.assertIn("kiln's own code by its place in the block layout", text)
        self.assertIn("| startup group, shared cluster | 3 | 2 | 25 | 2 |", text)
        self.assertIn("| not in the layout | 6 | 6 |", text)

    def test_bad_reports(self):
        with self.assertRaisesRegex(attr.InputError, "not JSON"):
            self.read("{")
        with self.assertRaisesRegex(attr.InputError, "no \"layout\" list"):
            self.read('{"functions": 3}')
        with self.assertRaisesRegex(attr.InputError, "a cluster of main without symbol"):
            self.read('{"layout": [{"function": "main", "clusters": [{"kind": "shared"}]}]}')
        with self.assertRaisesRegex(attr.InputError, "/nonexistent.json: No such file"):
            attr.read_layout_report("/nonexistent.json")


class ReportTest(unittest.TestCase):
    def test_report_is_deterministic_and_compares_with_the_reference(self):
        b = _binary()
        a = attr.attribute(_profile(CALLGRIND), b, set(), DEMANGLED)
        one = attr.attribute(_profile(CALLGRIND_ONE_SET), b, set(), DEMANGLED)
        ref = attr.attribute(_profile(CALLGRIND.replace("0x7000 40 0 0 3", "0x7000 40 0 0 0")),
                             b, set(), DEMANGLED)
        args = ({"kiln": [a], "bolt": [ref]}, {"kiln": [one], "bolt": [ref]}, "kiln", "bolt",
                ["heldout"], DEMANGLED, set(), 3, 40)
        text = attr.report(*args)
        self.assertEqual(text, attr.report(*args))
        joined = "\n".join(text)
        self.assertIn("| I1 misses | 16 | 13 |", joined)
        self.assertIn("| set conflicts (8 ways - one set) | 1 | 0 |", joined)
        self.assertIn("| libstdc++ | library | _ZNSo3putEc | 3 | 0 | +3 |", joined)


class MainTest(unittest.TestCase):
    def run_main(self, argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = attr.main(argv)
        return rc, err.getvalue()

    def test_one_row_is_not_enough(self):
        rc, err = self.run_main(["--row", "a", "bin", "p.out"])
        self.assertEqual(rc, 1)
        self.assertIn("two or more --row", err)

    def test_rows_need_as_many_profiles(self):
        rc, err = self.run_main(["--row", "a", "bin", "p.out", "--row", "b", "bin", "p.out",
                                 "q.out"])
        self.assertEqual(rc, 1)
        self.assertIn("same number of profiles", err)

    def test_missing_binary(self):
        rc, err = self.run_main(["--row", "a", "/nonexistent/bin", "p.out",
                                 "--row", "b", "/nonexistent/bin", "p.out"])
        self.assertEqual(rc, 1)
        self.assertIn("/nonexistent/bin: no such file", err)

    def test_profile_without_cache_events(self):
        with self.assertRaisesRegex(attr.InputError, "no I1mr events"):
            _profile("version: 1\ncreator: callgrind-3.19.0\npositions: instr\n"
                     "events: Ir\nob=a\nfn=f\n0x10 3\n")

    def test_profile_without_instructions(self):
        with self.assertRaisesRegex(attr.InputError, "--dump-instr=yes"):
            _profile("version: 1\ncreator: callgrind-3.19.0\npositions: line\n"
                     "events: Ir I1mr\nob=a\nfn=f\n10 3 1\n")

    def test_help(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), self.assertRaises(SystemExit) as e:
            attr.main(["--help"])
        self.assertEqual(e.exception.code, 0)
        self.assertIn("--one-set", out.getvalue())


if __name__ == "__main__":
    unittest.main()

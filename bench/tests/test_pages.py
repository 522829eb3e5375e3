# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for bench/lib/pages.py (startup page metric).

Run from the repository root with
    python3 -m unittest discover -s bench
or from bench/ with
    python3 -m unittest
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from lib import pages  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
EXE = "/tmp/app/kiln-sample"   # the ob= name used in tiny.callgrind
BIAS = 0x108000                # load bias used in tiny.callgrind


def _read(name):
    with open(os.path.join(DATA, name)) as f:
        return f.read()


def _binary():
    syms = _read("tiny.symbols")
    return pages.BinaryInfo(
        funcs=pages.parse_readelf_symbols(syms),
        labels=pages.parse_readelf_symbols(syms, zero_size=True),
        sections=pages.parse_readelf_sections(_read("tiny.sections")))


class ParseCallgrindTest(unittest.TestCase):
    def setUp(self):
        self.data = pages.read_callgrind(os.path.join(DATA, "tiny.callgrind"))

    def test_header(self):
        self.assertEqual(self.data.events, ["Ir"])
        self.assertEqual(self.data.positions, ["instr", "line"])
        self.assertEqual(self.data.total("Ir"), 151)
        self.assertIsNone(self.data.total("I1mr"))

    def test_self_cost_matches_totals(self):
        # Inclusive costs after calls= and cost-less lines after jump=/jcnd=
        # must not be counted as self cost.
        total = sum(sum(c.values()) for c in self.data.self_cost.values())
        self.assertEqual(total, 151)

    def test_exe_addresses(self):
        exe = self.data.self_cost[EXE]
        expected = {
            0x108f00: 1, 0x108f04: 1,                           # _start
            0x108f80: 1, 0x108f81: 1,                           # frame_dummy (no size)
            0x109000: 4, 0x109003: 2, 0x109009: 1, 0x109012: 1,  # main
            0x109040: 7, 0x109041: 7, 0x109051: 3,              # helper (a.c)
            0x10aff0: 30, 0x10b010: 30, 0x10b012: 30,           # helper (b.c)
            0x10d000: 10, 0x10d004: 5, 0x10d006: 5,             # hot
            0x10e000: 2,                                        # .plt
        }
        self.assertEqual(exe, expected)

    def test_libc_addresses(self):
        libc = self.data.self_cost["/lib/x86_64-linux-gnu/libc.so.6"]
        self.assertEqual(libc, {0x27200: 3, 0x27209: 2, 0x10c000: 5})

    def test_call_targets(self):
        self.assertEqual(self.data.call_targets[(EXE, "main")], {0x109000})
        self.assertEqual(self.data.call_targets[(EXE, "helper")], {0x109040, 0x10aff0})

    def test_undefined_id_is_an_error(self):
        with self.assertRaises(pages.CallgrindFormatError):
            pages.parse_callgrind(["events: Ir", "positions: instr", "fn=(9)", "0x10 1"])


class SymbolsTest(unittest.TestCase):
    def test_symtab_funcs(self):
        funcs = pages.parse_readelf_symbols(_read("tiny.symbols"))
        # Sized FUNC symbols of .symtab only; alias hot_alias merged into hot.
        self.assertEqual([(f.start, f.size, f.name) for f in funcs], [
            (0xf00, 32, "_start"), (0x1000, 64, "main"), (0x1040, 32, "helper"),
            (0x2ff0, 48, "helper"), (0x4000, 256, "cold"), (0x5000, 16, "hot")])

    def test_zero_size_labels(self):
        labels = pages.parse_readelf_symbols(_read("tiny.symbols"), zero_size=True)
        self.assertEqual([l.name for l in labels], ["frame_dummy"])

    def test_hex_size(self):
        text = ("Symbol table '.symtab' contains 1 entries:\n"
                "     1: 0000000000010000 0x186a0 FUNC    GLOBAL DEFAULT    14 big\n")
        self.assertEqual(pages.parse_readelf_symbols(text),
                         [pages.Function(0x10000, 100000, "big")])

    def test_split_parts_are_functions(self):
        text = ("Symbol table '.symtab' contains 5 entries:\n"
                "     1: 0000000000001000    40 FUNC    GLOBAL DEFAULT    14 work\n"
                "     2: 0000000000009000    24 NOTYPE  LOCAL  DEFAULT    14 work.cold\n"
                "     3: 0000000000009100     8 NOTYPE  LOCAL  DEFAULT    14 f.cold.1\n"
                "     4: 0000000000009200    16 NOTYPE  LOCAL  DEFAULT    14 data_label\n"
                "     5: 0000000000002000    12 NOTYPE  LOCAL  DEFAULT    14 work.__part.1\n")
        self.assertEqual([f.name for f in pages.parse_readelf_symbols(text)],
                         ["work", "work.__part.1", "work.cold", "f.cold.1"])

    def test_lookup(self):
        index = pages.FunctionIndex(pages.parse_readelf_symbols(_read("tiny.symbols")))
        self.assertEqual(index.lookup(0x1000).name, "main")
        self.assertEqual(index.lookup(0x103f).name, "main")
        self.assertEqual(index.lookup(0x1040).start, 0x1040)
        self.assertIsNone(index.lookup(0x1060))
        self.assertIsNone(index.lookup(0xeff))

    def test_pages_of(self):
        f = pages.Function
        self.assertEqual(pages.pages_of([f(0x1000, 0x1000)]), {1})
        self.assertEqual(pages.pages_of([f(0x1fff, 2)]), {1, 2})
        self.assertEqual(pages.pages_of([f(0x10, 1), f(0x20, 1)]), {0})


class InstructionPagesTest(unittest.TestCase):
    def test_objdump_addresses(self):
        dis = ("\n0000000000001000 <main>:\n"
               "    1000:      \tpushq\t%rbp\n"
               "    1001:      \tmovq\t%rsp, %rbp\n"
               "    1004:      \tretq\n")
        self.assertEqual(pages.parse_objdump_instructions(dis), [0x1000, 0x1001, 0x1004])

    def test_instruction_pages_and_bytes(self):
        starts = [0x1000, 0x1001, 0x1004, 0x1ffe, 0x2003, 0x5000]
        # 0x1000 (1 byte), 0x1004 (up to the next start, capped at 15), and
        # 0x1ffe (5 bytes, across the page boundary).
        n, size = pages._instruction_pages([0x1000, 0x1004, 0x1ffe], starts, 4096)
        self.assertEqual((n, size), (2, 1 + 15 + 5))
        # An address past the last instruction counts one byte.
        self.assertEqual(pages._instruction_pages([0x6000], starts, 4096), (1, 1))


class StartupPagesTest(unittest.TestCase):
    def test_report(self):
        data = pages.read_callgrind(os.path.join(DATA, "tiny.callgrind"))
        r = pages.startup_pages(data, EXE, _binary())
        self.assertEqual(r.bias, BIAS)
        self.assertIn("call target", r.bias_method)
        # _start, main, helper (a.c), helper (b.c), hot: identified by address.
        self.assertEqual(r.executed_functions, 5)
        self.assertEqual(r.executed_bytes, 32 + 64 + 32 + 48 + 16)
        # pages: 0 (_start), 1 (main, helper a), 2 and 3 (helper b), 5 (hot)
        self.assertEqual(r.pages, 5)
        self.assertEqual(r.lower_bound, 1)
        self.assertEqual(r.ratio, 5.0)
        self.assertEqual(r.executed_addresses, 18)
        self.assertEqual(r.unmapped_addresses, 3)
        self.assertEqual(r.executed_cost, 141)
        self.assertEqual(r.unmapped_cost, 4)
        self.assertEqual(r.unmapped_by_section, {".plt": 1, ".text": 2})
        self.assertEqual(r.unmapped_examples, [".plt", ".text:frame_dummy"])

    def test_bias_fallback_without_call(self):
        # Without a call to main, main's lowest executed address is used.
        data = pages.read_callgrind(os.path.join(DATA, "tiny.callgrind"))
        del data.call_targets[(EXE, "main")]
        bias, method = pages.determine_bias(data, EXE, _binary().funcs)
        self.assertEqual(bias, BIAS)
        self.assertIn("lowest", method)

    def test_select_object_by_basename(self):
        data = pages.read_callgrind(os.path.join(DATA, "tiny.callgrind"))
        self.assertEqual(pages.select_object(data, "/elsewhere/kiln-sample"), EXE)
        with self.assertRaises(pages.CallgrindFormatError):
            pages.select_object(data, "/elsewhere/other")


if __name__ == "__main__":
    unittest.main()

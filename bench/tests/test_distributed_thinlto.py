# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the pure helpers of bench/distributed_thinlto.py."""

import os
import struct
import sys
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import distributed_thinlto as dt  # noqa: E402


def make_elf(sections: list[tuple[str, int, bytes]]) -> bytes:
    """A minimal ELF64 little-endian file: a header, the sections' bytes
    (name, sh_type, contents; SHT_NOBITS contents take no file bytes), a
    .shstrtab and the section header table."""
    names = b"\0"
    name_offsets = []
    for name, _, _ in sections + [(".shstrtab", 3, b"")]:
        name_offsets.append(len(names))
        names += name.encode() + b"\0"
    body = b""
    placed = []
    offset = 64
    for (name, type_, data), name_off in zip(sections, name_offsets):
        placed.append((name_off, type_, offset, len(data)))
        if type_ != 8:
            body += data
            offset += len(data)
    placed.append((name_offsets[-1], 3, offset, len(names)))
    body += names
    shoff = 64 + len(body)
    header = bytearray(64)
    header[0:4] = b"\x7fELF"
    header[4] = 2   # ELFCLASS64
    header[5] = 1   # little endian
    struct.pack_into("<Q", header, 0x28, shoff)
    struct.pack_into("<HHH", header, 0x3A, 64, len(placed) + 1, len(placed))
    table = bytes(64)   # the null section
    for name_off, type_, off, size in placed:
        table += struct.pack("<IIQQQQIIQQ", name_off, type_, 0, 0, off, size, 0, 0, 1, 0)
    return bytes(header) + body + table


class ElfTest(unittest.TestCase):
    A = make_elf([(".text", 1, b"\x90" * 8), (".bss", 8, b"\0" * 32),
                  (".data", 1, b"abcd")])

    def test_sections(self):
        sections = dt.elf_sections(self.A)
        self.assertEqual(sorted(sections), [".data", ".shstrtab", ".text"])
        offset, size = sections[".data"]
        self.assertEqual(self.A[offset:offset + size], b"abcd")

    def test_diff(self):
        same = make_elf([(".text", 1, b"\x90" * 8), (".bss", 8, b"\0" * 32),
                         (".data", 1, b"abcd")])
        self.assertEqual(dt.diff_sections(self.A, same), {})
        changed = make_elf([(".text", 1, b"\x90" * 6 + b"\xcc\xcc"),
                            (".bss", 8, b"\0" * 64), (".data", 1, b"abcde")])
        # .bss occupies no file bytes; .shstrtab is the same.
        self.assertEqual(dt.diff_sections(self.A, changed),
                         {".text": "2 of 8 bytes", ".data": "size 4 vs 5"})
        fewer = make_elf([(".text", 1, b"\x90" * 8)])
        self.assertEqual(dt.diff_sections(self.A, fewer)[".data"], "only in one")

    def test_not_elf(self):
        with self.assertRaises(ValueError):
            dt.elf_sections(b"!<arch>\n")


class CommandTest(unittest.TestCase):
    TOOLS = {"kiln": "/k/bin/kiln", "clang": "/l/bin/clang",
             "plugin": "/k/lib/KilnPlugin-22.so"}

    def test_index_next_to_object(self):
        self.assertEqual(dt.index_file(Path("/o/src/a.c.o")), Path("/o/src/a.c.o.thinlto.bc"))

    def test_variants(self):
        opts = dt.kiln_llvm_options(Path("/p/start.profdata"))
        self.assertEqual(opts, ["-kiln-section-placement",
                                "-kiln-startup-profile=/p/start.profdata", "-kiln-strtab"])
        obj, out = Path("/o/a.o"), Path("/d/a.native.o")
        kiln = dt.backend_command("kiln", self.TOOLS, obj, out, opts)
        self.assertEqual(kiln[:6], ["/k/bin/kiln", "thin-backend", "/o/a.o",
                                    "--thinlto-index=/o/a.o.thinlto.bc", "-o", "/d/a.native.o"])
        self.assertEqual(kiln.count("-mllvm"), 3)
        plain = dt.backend_command("kiln-plain", self.TOOLS, obj, out, opts)
        self.assertNotIn("-mllvm", plain)
        self.assertIn("--plugin=/k/lib/KilnPlugin-22.so", plain)
        clang = dt.backend_command("clang", self.TOOLS, obj, out, opts)
        self.assertEqual(clang[:6], ["/l/bin/clang", "-O2", "-c", "-x", "ir", "/o/a.o"])
        self.assertIn("-fthinlto-index=/o/a.o.thinlto.bc", clang)
        self.assertIn("-fpass-plugin=/k/lib/KilnPlugin-22.so", clang)
        self.assertEqual(clang.count("-mllvm"), 3)
        with self.assertRaises(ValueError):
            dt.backend_command("gcc", self.TOOLS, obj, out, opts)


class MatchTest(unittest.TestCase):
    def test_by_content_not_position(self):
        got = dt.match_objects({"a.o": b"A", "b.o": b"B", "c.o": b"C!"},
                               [b"", b"C", b"B", b"A"])
        self.assertEqual(got, {"a.o": True, "b.o": True, "c.o": False})


class RoundsTest(unittest.TestCase):
    @staticmethod
    def times(kiln, plain, clang):
        return {"kiln": {"cpu": kiln, "wall": 2 * kiln},
                "kiln-plain": {"cpu": plain, "wall": 2 * plain},
                "clang": {"cpu": clang, "wall": 2 * clang}}

    def test_summary(self):
        rounds = [self.times(9.0, 8.0, 10.0), self.times(11.0, 10.0, 10.0),
                  self.times(10.0, 9.0, 10.0)]
        s = dt.summarize_rounds(rounds)
        self.assertEqual(s["kiln"]["cpu"]["median_s"], 10.0)
        self.assertEqual(s["kiln"]["wall"]["median_s"], 20.0)
        self.assertEqual(s["kiln"]["cpu"]["ratio"]["median"], 1.0)
        self.assertEqual(s["kiln"]["cpu"]["ratio"]["min"], 0.9)
        self.assertAlmostEqual(s["kiln"]["cpu"]["ratio"]["max"], 1.1)
        self.assertEqual(s["clang"]["cpu"]["ratio"]["median"], 1.0)
        self.assertEqual(dt.fmt_ratio(s["kiln-plain"]["cpu"]["ratio"]), "0.900 (0.800-1.000)")
        self.assertEqual(dt.fmt_ratio({"median": None}), "n/a")


if __name__ == "__main__":
    unittest.main()

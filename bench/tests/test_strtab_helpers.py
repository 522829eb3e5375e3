# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for the pure helpers of bench/strtab.py (remark parsing and
figure extraction); the benchmark itself is not part of the test suite."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import strtab  # noqa: E402

REMARKS = """--- !Missed
Pass:            kiln-strtab
Name:            NotLocal
DebugLoc:        { File: t1.c, Line: 7, Column: 41 }
Function:        g
Args:
  - String:          'string table '
  - Table:           ext_names
  - String:          ' not lowered: '
  - Reason:          'it is not local to the module (external linkage)'
...
--- !Passed
Pass:            kiln-strtab
Name:            Lowered
DebugLoc:        { File: 'dir/it''s.c',
                   Line: 2495, Column: 3 }
Function:        f
Args:
  - String:          'string table '
  - Table:           errors
  - String:          ' lowered: '
  - Entries:         '4'
  - Strings:         '3'
  - OldBytes:        '54'
  - NewBytes:        '21'
  - OffsetBits:      '8'
...
--- !Passed
Pass:            inline
Name:            Inlined
Function:        h
Args:
  - Callee:          k
...
--- !Missed
Pass:            kiln-strtab
Name:            Escape
Function:        g
Args:
  - String:          'string table '
  - Table:           esc
  - Reason:          'its address escapes (call, return, ptrtoint, stored or in an initializer)'
...
"""


class ParseRemarksTest(unittest.TestCase):
    def test_parse(self):
        rs = strtab.parse_remarks(REMARKS)
        self.assertEqual([r["name"] for r in rs], ["NotLocal", "Lowered", "Inlined", "Escape"])
        self.assertEqual(rs[0]["kind"], "Missed")
        self.assertEqual((rs[0]["file"], rs[0]["line"]), ("t1.c", 7))
        # A wrapped DebugLoc, a quoted file name with an escaped quote.
        self.assertEqual((rs[1]["file"], rs[1]["line"]), ("dir/it's.c", 2495))
        self.assertEqual(rs[1]["args"]["Strings"], "3")
        self.assertEqual(rs[1]["args"]["String"], "string table ")   # first piece kept
        self.assertEqual(rs[1]["function"], "f")
        self.assertIsNone(rs[3]["file"])

    def test_summarize(self):
        s = strtab.summarize_remarks(strtab.parse_remarks(REMARKS))
        self.assertEqual((s["lowered"], s["strings"], s["old_bytes"], s["new_bytes"]),
                         (1, 3, 54, 21))
        self.assertEqual(s["missed"], 2)                 # the inline remark is ignored
        self.assertEqual(s["missed_by_reason"], {"Escape": 1, "NotLocal": 1})
        self.assertEqual(s["missed_tables"]["NotLocal"], ["ext_names (t1.c:7)"])
        self.assertEqual(s["missed_tables"]["Escape"], ["esc"])
        self.assertEqual(s["lowered_tables"], ["errors"])

    def test_empty(self):
        self.assertEqual(strtab.parse_remarks(""), [])
        s = strtab.summarize_remarks([])
        self.assertEqual((s["lowered"], s["missed"]), (0, 0))


class FiguresTest(unittest.TestCase):
    def test_relocs(self):
        counts = {".rela.dyn": 10, "R_X86_64_RELATIVE@.rela.dyn": 6,
                  "R_X86_64_GLOB_DAT@.rela.dyn": 4, ".relr.dyn": 20,
                  "R_X86_64_RELATIVE@.relr.dyn": 20, ".rela.plt": 3,
                  "R_X86_64_JUMP_SLOT@.rela.plt": 3}
        self.assertEqual(strtab.reloc_figures(counts), {"relative": 26, "total": 33})

    def test_sections(self):
        sizes = {".text": 100, ".text.hot": 20, ".texture": 5, ".rodata": 40,
                 ".rodata.cst16": 16, ".data.rel.ro": 8, ".data": 4}
        self.assertEqual(strtab.section_figures(sizes),
                         {"text": 120, "rodata": 56, "data_rel_ro": 8})
        self.assertEqual(strtab.section_figures({})["data_rel_ro"], 0)

    def test_ratio(self):
        self.assertEqual(strtab.ratio(50, 100), 0.5)
        self.assertEqual(strtab.ratio(0, 0), 1.0)
        self.assertIsNone(strtab.ratio(3, 0))
        self.assertIsNone(strtab.ratio(None, 3))


if __name__ == "__main__":
    unittest.main()

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Unit tests for git's program in the benchmark: the repository writer of
lib/gitrepo.py, the repository and scenarios of lib/programs.py
(git_scenarios) and the build bench/pgo_flow.py runs; the benchmark itself
is not part of the test suite. Where the machine has git, the repository is
verified and every scenario run with it."""

import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import unittest.mock
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pgo_flow  # noqa: E402
from lib import gitrepo, programs  # noqa: E402


def apply_delta(base: bytes, delta: bytes) -> bytes:
    """git's patch_delta, written from the format's description."""
    pos = 0

    def varint() -> int:
        nonlocal pos
        value, shift = 0, 0
        while True:
            byte = delta[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                return value

    assert varint() == len(base)
    size = varint()
    out = bytearray()
    while pos < len(delta):
        op = delta[pos]
        pos += 1
        if op & 0x80:
            offset = length = 0
            for i in range(4):
                if op & (1 << i):
                    offset |= delta[pos] << (8 * i)
                    pos += 1
            for i in range(3):
                if op & (0x10 << i):
                    length |= delta[pos] << (8 * i)
                    pos += 1
            out += base[offset:offset + (length or 0x10000)]
        else:
            assert op, "opcode 0 is reserved"
            out += delta[pos:pos + op]
            pos += op
    assert len(out) == size
    return bytes(out)


class GitRepoWriterTest(unittest.TestCase):
    def test_object_ids_are_gits(self):
        # `git hash-object` of the empty file and of "hello\n".
        self.assertEqual(gitrepo.object_id(gitrepo.OBJ_BLOB, b"").hex(),
                         "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391")
        self.assertEqual(gitrepo.object_id(gitrepo.OBJ_BLOB, b"hello\n").hex(),
                         "ce013625030ba8dba906f756967f9e9ca394464a")

    def test_tree_entries_in_gits_order(self):
        oid = bytes(20)
        data = gitrepo.tree_data({"a": (True, oid), "a.c": (False, oid), "a-b": (False, oid),
                                  "B": (False, oid)})
        names = re.findall(rb"\d+ ([^\0]+)\0", data)
        # A subtree sorts as "a/": after "a-b" and "a.c" ('-' < '.' < '/').
        self.assertEqual(names, [b"B", b"a-b", b"a.c", b"a"])
        self.assertIn(b"40000 a\0", data)
        self.assertIn(b"100644 a.c\0", data)

    def test_delta_rebuilds_the_target(self):
        base = b"".join(b"line %d\n" % i for i in range(300))
        cases = [base, b"", b"new\n" + base, base.replace(b"line 7\n", b"x" * 400 + b"\n"),
                 base[:1000] + base[2000:], b"no newline at the end"]
        for target in cases:
            delta = gitrepo.make_delta(base, target)
            self.assertEqual(apply_delta(base, delta), target)
        # Copies, not literals, for what the two share.
        self.assertLess(len(gitrepo.make_delta(base, b"new\n" + base)), 40)

    def test_delta_chains_are_bounded(self):
        pack = gitrepo.PackWriter()
        oid = None
        for i in range(3 * gitrepo.MAX_DELTA_DEPTH):
            oid = pack.add(gitrepo.OBJ_BLOB, b"version %d\n" % i + b"same\n" * 50, oid)
        self.assertEqual(max(pack.depth), gitrepo.MAX_DELTA_DEPTH)
        # The same object twice is stored once.
        self.assertEqual(pack.add(gitrepo.OBJ_BLOB, b"version 0\n" + b"same\n" * 50),
                         pack.objects[0][0])
        self.assertEqual(len(pack.objects), 3 * gitrepo.MAX_DELTA_DEPTH)


def system_git() -> str | None:
    return shutil.which("git")


class GitScenariosTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scenarios, cls.inputs, cls.training = programs.git_scenarios()

    def test_inputs_are_deterministic(self):
        scenarios, inputs, training = programs.git_scenarios()
        self.assertEqual((scenarios, training), (self.scenarios, self.training))
        self.assertEqual(inputs, self.inputs)
        # Another seed, another history.
        self.assertNotEqual(programs.git_repository(6, 50)[0], programs.git_repository(7, 50)[0])

    def test_scenario_names_and_training(self):
        held = [n for n in self.scenarios if n not in ("startup", "steady")]
        self.assertEqual(list(self.scenarios)[:2], ["startup", "steady"])
        for name in held:
            self.assertTrue(name == "heldout" or name.startswith("heldout-"), name)
        self.assertEqual(self.training[0], ("startup", self.scenarios["startup"]))
        self.assertIn(self.scenarios["steady"], [args for _, args in self.training])
        # The training reads history (log and diff); no held-out run does.
        trained = {args[2] for _, args in self.training}
        self.assertEqual(trained, {"log", "diff"})
        for name in held:
            args = self.scenarios[name]
            self.assertEqual(args[:2], ["--no-pager", "--git-dir=repo.git"])
            if args[2] in trained:
                self.assertTrue({"-S", "-M"} & set(args), name)

    def test_refs_name_the_tags_the_scenarios_use(self):
        refs = self.inputs["repo.git/packed-refs"].decode()
        names = set(re.findall(r"^[0-9a-f]{40} (\S+)$", refs, flags=re.M))
        self.assertIn("refs/heads/main", names)
        for _, args in self.training + list(self.scenarios.items()):
            for arg in args:
                for tag in re.findall(r"v1\.\d+", arg):
                    self.assertIn("refs/tags/" + tag, names, arg)
        self.assertEqual(self.inputs["repo.git/HEAD"], b"ref: refs/heads/main\n")

    @unittest.skipUnless(system_git(), "needs git")
    def test_repository_verifies_and_scenarios_run_with_git(self):
        git = system_git()
        env = dict(os.environ, **pgo_flow.GIT_ENV)
        prog = pgo_flow.Program(Path("."), "git", {}, {}, self.inputs)
        with tempfile.TemporaryDirectory() as d:
            prog.stage_inputs(Path(d))
            fsck = subprocess.run([git, "--git-dir=repo.git", "fsck", "--full", "--strict"],
                                  cwd=d, capture_output=True, text=True, env=env)
            self.assertEqual((fsck.returncode, fsck.stdout), (0, ""), fsck.stderr)
            counts = subprocess.run([git, "--git-dir=repo.git", "count-objects", "-v"],
                                    cwd=d, capture_output=True, text=True, env=env).stdout
            self.assertIn("in-pack: ", counts)
            self.assertIn("count: 0\n", counts)
            outputs = {}
            for name, args in self.training + list(self.scenarios.items()):
                proc = subprocess.run([git] + args, cwd=d, capture_output=True, env=env)
                self.assertEqual(proc.returncode, 0, (name, proc.stderr))
                outputs[name] = proc.stdout
            self.assertEqual(len(outputs["startup"].splitlines()), 20)
            self.assertIn(b"Merge branch 'topic", outputs["steady"])
            self.assertGreater(outputs["heldout"].count(b"\n"), 100)
            self.assertRegex(outputs["heldout-grep"], rb"v1\.8:\S+:\d+:")
            self.assertIn(b"rename ", outputs["heldout-renames"])
            self.assertTrue(outputs["heldout-pickaxe"])
            self.assertGreater(len(outputs["heldout-archive"]), 100000)
            # Every object is reachable: rev-list lists as many as the pack has.
            in_pack = int(re.search(r"in-pack: (\d+)", counts).group(1))
            self.assertEqual(outputs["heldout-objects"].count(b"\n"), in_pack)


class AddressRandomizationTest(unittest.TestCase):
    def test_children_run_without_address_randomization(self):
        # In a process of its own: the setting is inherited by every child.
        script = ("import subprocess, sys; sys.path.insert(0, %r); import pgo_flow; "
                  "done = pgo_flow.disable_address_randomization(); "
                  "print(done, subprocess.run(['cat', '/proc/self/personality'], "
                  "capture_output=True, text=True).stdout.strip())"
                  % os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             check=True).stdout.split()
        if out[0] == "False":
            self.skipTest("the system refuses personality(ADDR_NO_RANDOMIZE)")
        self.assertTrue(int(out[1], 16) & pgo_flow.ADDR_NO_RANDOMIZE, out)


    def test_a_refusal_is_a_note_not_a_failure(self):
        class Refusing:
            def personality(self, persona):
                return -1

        real = pgo_flow.ctypes.CDLL
        pgo_flow.ctypes.CDLL = lambda *args, **kwargs: Refusing()
        try:
            with unittest.mock.patch("sys.stderr", new_callable=io.StringIO) as err:
                self.assertFalse(pgo_flow.disable_address_randomization())
        finally:
            pgo_flow.ctypes.CDLL = real
        self.assertIn("address space layout randomization stays on", err.getvalue())


class GitBuildTest(unittest.TestCase):
    def test_builds_git_only_without_optional_libraries(self):
        cmd = pgo_flow.GitBuild().command(2, {"clang": "/l/clang", "ar": "/l/llvm-ar"},
                                          "-flto=thin", "-fuse-ld=/l/ld.lld")
        self.assertEqual(cmd[:3], ["make", "-j2", "git"])
        for option in ("NO_CURL=1", "NO_OPENSSL=1", "NO_GETTEXT=1", "NO_PERL=1"):
            self.assertIn(option, cmd)
        self.assertIn("CFLAGS=-g -O2 -Wall -flto=thin", cmd)
        self.assertIn("LDFLAGS=-fuse-ld=/l/ld.lld", cmd)
        self.assertEqual(pgo_flow.GitBuild().command(2)[3:], pgo_flow.GitBuild.OPTIONS)


if __name__ == "__main__":
    unittest.main()

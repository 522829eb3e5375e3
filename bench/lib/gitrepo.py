# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""A git repository written from Python, byte for byte the same every time:
the input of the benchmark's git program (lib/programs.py, git_scenarios).

It is written without git, so that staging it needs no git on the machine
and cannot depend on the machine's git version or configuration: a bare
repository (`HEAD`, `config`, `packed-refs`) whose objects are in one pack
(`objects/pack/*.pack` and its version-2 `.idx`), as `git gc` leaves a
real repository. A blob that is a later version of a file is stored as a
delta against the previous version (OFS_DELTA, chains of at most
MAX_DELTA_DEPTH), so that reading history runs git's delta code as it does
on real repositories, not only zlib's inflate.

The formats are git's (Documentation/gitformat-pack.txt,
Documentation/gitformat-index.txt is not used: a bare repository has no
index).
"""

from __future__ import annotations

import difflib
import hashlib
import struct
import zlib

# Pack object types.
OBJ_COMMIT, OBJ_TREE, OBJ_BLOB, OBJ_OFS_DELTA = 1, 2, 3, 6
_TYPE_NAMES = {OBJ_COMMIT: b"commit", OBJ_TREE: b"tree", OBJ_BLOB: b"blob"}
# git's own default (pack.depth) is 50; shorter chains keep reads cheap
# enough that history, not delta resolution, is the work.
MAX_DELTA_DEPTH = 10


def object_id(kind: int, data: bytes) -> bytes:
    """The SHA-1 object name of \\p data of pack type \\p kind."""
    return hashlib.sha1(_TYPE_NAMES[kind] + b" %d\0" % len(data) + data).digest()


def _varint_le(n: int) -> bytes:
    """The size encoding of delta headers: 7 bits at a time, low first."""
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def make_delta(base: bytes, target: bytes) -> bytes:
    """A git delta that turns \\p base into \\p target: the lines they share
    (difflib's matching blocks) are copied from the base, the rest is
    inserted."""
    out = bytearray(_varint_le(len(base)) + _varint_le(len(target)))
    base_lines = base.splitlines(keepends=True)
    target_lines = target.splitlines(keepends=True)
    base_at = [0]
    for line in base_lines:
        base_at.append(base_at[-1] + len(line))
    target_at = [0]
    for line in target_lines:
        target_at.append(target_at[-1] + len(line))

    def insert(data: bytes) -> None:
        for i in range(0, len(data), 127):
            chunk = data[i:i + 127]
            out.append(len(chunk))
            out.extend(chunk)

    def copy(offset: int, size: int) -> None:
        while size:
            n = min(size, 0xFFFFFF)
            op, args = 0x80, bytearray()
            for i in range(4):
                byte = (offset >> (8 * i)) & 0xFF
                if byte:
                    op |= 1 << i
                    args.append(byte)
            for i in range(3):
                byte = (n >> (8 * i)) & 0xFF
                if byte:
                    op |= 0x10 << i
                    args.append(byte)
            out.append(op)
            out.extend(args)
            offset += n
            size -= n

    done = 0  # target bytes written
    matcher = difflib.SequenceMatcher(None, base_lines, target_lines, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        start = target_at[b]
        if start > done:
            insert(target[done:start])
        if size:
            copy(base_at[a], base_at[a + size] - base_at[a])
        done = target_at[b + size]
    if done < len(target):
        insert(target[done:])
    return bytes(out)


def tree_data(entries: dict[str, tuple[bool, bytes]]) -> bytes:
    """A tree object of \\p entries: name -> (is a tree, object id), in git's
    order (a subtree sorts as its name followed by '/')."""
    def key(name: str) -> bytes:
        return name.encode() + (b"/" if entries[name][0] else b"")
    out = bytearray()
    for name in sorted(entries, key=key):
        is_tree, oid = entries[name]
        out += (b"40000 " if is_tree else b"100644 ") + name.encode() + b"\0" + oid
    return bytes(out)


class PackWriter:
    """Collects objects, then writes them as one pack and its index."""

    def __init__(self):
        self.objects = []  # (oid, pack type, data, delta base index or None)
        self.index = {}  # oid -> position in self.objects
        self.depth = []

    def add(self, kind: int, data: bytes, base: bytes | None = None) -> bytes:
        """Adds an object (once); a blob with \\p base (the id of an earlier
        blob) is stored as a delta against it while the chain is short and
        the delta smaller. \\returns its id."""
        oid = object_id(kind, data)
        if oid in self.index:
            return oid
        base_pos = self.index.get(base) if base is not None else None
        if base_pos is not None and self.depth[base_pos] >= MAX_DELTA_DEPTH:
            base_pos = None
        self.index[oid] = len(self.objects)
        self.objects.append((oid, kind, data, base_pos))
        self.depth.append(0 if base_pos is None else self.depth[base_pos] + 1)
        return oid

    @staticmethod
    def _header(kind: int, size: int) -> bytes:
        out = bytearray()
        byte = (kind << 4) | (size & 0x0F)
        size >>= 4
        while size:
            out.append(byte | 0x80)
            byte = size & 0x7F
            size >>= 7
        out.append(byte)
        return bytes(out)

    @staticmethod
    def _ofs(distance: int) -> bytes:
        out = bytearray([distance & 0x7F])
        distance >>= 7
        while distance:
            distance -= 1
            out.insert(0, 0x80 | (distance & 0x7F))
            distance >>= 7
        return bytes(out)

    def write(self) -> tuple[str, bytes, bytes]:
        """\\returns (the pack's name, its bytes, its index's bytes)."""
        pack = bytearray(b"PACK" + struct.pack(">II", 2, len(self.objects)))
        offsets, crcs = [], []
        for oid, kind, data, base_pos in self.objects:
            start = len(pack)
            if base_pos is not None:
                delta = make_delta(self.objects[base_pos][2], data)
                if len(delta) < len(data):
                    entry = (self._header(OBJ_OFS_DELTA, len(delta))
                             + self._ofs(start - offsets[base_pos])
                             + zlib.compress(delta, 6))
                else:
                    base_pos = None
            if base_pos is None:
                entry = self._header(kind, len(data)) + zlib.compress(data, 6)
            offsets.append(start)
            crcs.append(zlib.crc32(entry))
            pack += entry
        pack_sum = hashlib.sha1(pack).digest()
        pack += pack_sum

        order = sorted(range(len(self.objects)), key=lambda i: self.objects[i][0])
        idx = bytearray(b"\377tOc" + struct.pack(">I", 2))
        fanout = [0] * 256
        for i in order:
            fanout[self.objects[i][0][0]] += 1
        running = 0
        for n in fanout:
            running += n
            idx += struct.pack(">I", running)
        for i in order:
            idx += self.objects[i][0]
        for i in order:
            idx += struct.pack(">I", crcs[i])
        for i in order:
            idx += struct.pack(">I", offsets[i])  # packs here stay under 2 GiB
        idx += pack_sum
        idx += hashlib.sha1(idx).digest()
        return "pack-" + pack_sum.hex(), bytes(pack), bytes(idx)


def bare_repository(pack: PackWriter, refs: dict[str, bytes], head: str,
                    prefix: str) -> dict[str, bytes]:
    """The files of a bare repository under \\p prefix (a directory name
    ending in '/'): \\p pack's objects, \\p refs (full ref name -> commit
    id) in `packed-refs`, HEAD pointing at the branch \\p head."""
    name, pack_bytes, idx_bytes = pack.write()
    packed = "# pack-refs with: peeled fully-peeled sorted \n" + "".join(
        "%s %s\n" % (refs[r].hex(), r) for r in sorted(refs))
    return {
        prefix + "HEAD": b"ref: %s\n" % head.encode(),
        prefix + "config": b"[core]\n\trepositoryformatversion = 0\n\tbare = true\n",
        prefix + "packed-refs": packed.encode(),
        # git takes a directory for a repository only if it has refs/.
        prefix + "refs/heads/.keep": b"",
        prefix + "objects/pack/%s.pack" % name: pack_bytes,
        prefix + "objects/pack/%s.idx" % name: idx_bytes,
    }

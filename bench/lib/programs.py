# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Real open-source programs for the benchmark, fetched at benchmark time.

The sources come from Debian's source packages (`apt-get source NAME`), never
from the repository. Each program is described by what the harness needs:
its translation units, compile flags, executable name, the arguments of its
startup and steady-state scenarios, and the input files those read.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from typing import Callable

DEBSRC_FILE = Path("/etc/apt/sources.list.d/kiln-debsrc.sources")
SYSTEM_SOURCES = Path("/etc/apt/sources.list.d/debian.sources")


class FetchError(Exception):
    """A program's sources could not be had."""


def _run(cmd: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)


def _enable_deb_src(log: Callable[[str], None]) -> None:
    """Adds `deb-src` entries mirroring the system's own Debian sources."""
    if not SYSTEM_SOURCES.is_file():
        raise FetchError("no %s to mirror as deb-src" % SYSTEM_SOURCES)
    stanza = SYSTEM_SOURCES.read_text().split("\n\n")[0]
    if "Types: deb" not in stanza:
        raise FetchError("unexpected format of %s" % SYSTEM_SOURCES)
    log("adding deb-src entries: %s" % DEBSRC_FILE)
    DEBSRC_FILE.write_text(stanza.replace("Types: deb", "Types: deb-src", 1) + "\n")
    proc = _run(["apt-get", "update", "-qq"])
    if proc.returncode:
        raise FetchError("apt-get update failed: %s" % proc.stderr[-500:])


def fetch_source(package: str, into: Path, log: Callable[[str], None]) -> Path:
    """`apt-get source PACKAGE` into INTO (once); returns the source tree."""
    into.mkdir(parents=True, exist_ok=True)
    trees = [p for p in into.iterdir() if p.is_dir()]
    if trees:
        return trees[0]
    if shutil.which("dpkg-source") is None:
        log("installing dpkg-dev (for apt-get source)")
        if _run(["apt-get", "install", "-y", "-qq", "dpkg-dev"]).returncode:
            raise FetchError("cannot install dpkg-dev")
    log("apt-get source %s" % package)
    proc = _run(["apt-get", "source", "-qq", package], cwd=into)
    if proc.returncode and "deb-src" in proc.stderr:
        _enable_deb_src(log)
        proc = _run(["apt-get", "source", "-qq", package], cwd=into)
    if proc.returncode:
        raise FetchError("apt-get source %s failed: %s" % (package, proc.stderr[-800:]))
    trees = [p for p in into.iterdir() if p.is_dir()]
    if not trees:
        raise FetchError("apt-get source %s unpacked nothing" % package)
    return trees[0]


def _text(size: int, seed: int) -> bytes:
    """Deterministic text that compresses like prose."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("etaoinshrdlucmfwypvbgkqjxz")
                     for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    out, n = [], 0
    while n < size:
        w = words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)]
        out.append(w)
        n += len(w) + 1
    return (" ".join(out)[:size]).encode()


def zstd(work: Path, log: Callable[[str], None]) -> dict:
    """zstd 1.5 (Debian package `zstd`): the library and its CLI, statically,
    single-threaded, without assembly or legacy formats. Startup: compress a
    4 KiB file; steady state: compress 4 MiB at level 3."""
    tree = fetch_source("zstd", work / "src-zstd", log)
    sources = sorted(str(p.relative_to(tree)) for sub in
                     ("lib/common", "lib/compress", "lib/decompress",
                      "lib/dictBuilder", "programs")
                     for p in (tree / sub).glob("*.c"))
    if not sources:
        raise FetchError("no sources found in %s" % tree)
    common = ["-q", "-c", "-3", "--no-progress", "-T1"]
    return {
        "name": "zstd",
        "dir": tree,
        "sources": sources,
        "cflags": ["-DZSTD_DISABLE_ASM", "-DZSTD_LEGACY_SUPPORT=0",
                   "-I", str(tree / "lib"), "-I", str(tree / "lib" / "common")],
        "exe_name": "zstd",
        "scenarios": {"startup": common + ["small.txt"],
                      "steady": common + ["big.txt"]},
        "inputs": {"small.txt": _text(4096, 1), "big.txt": _text(4 << 20, 2)},
    }


PROGRAMS = {"zstd": zstd}

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Real open-source programs for the benchmark, fetched at benchmark time.

The sources come from Debian's source packages (`apt-get source NAME`), never
from the repository. Each program is described by what the harness needs:
its translation units, compile flags, executable name, the arguments of its
startup and steady-state scenarios (the training runs), of a held-out
scenario that no training run executes, and the input files those read.
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


def _log(size: int, seed: int) -> bytes:
    """Deterministic server-log lines: timestamps, addresses, paths, status
    codes and latencies. Digits and a fixed line structure give zstd other
    match lengths and literal statistics than _text's prose."""
    rng = random.Random(seed)
    paths = ["/" + "/".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz")
                                    for _ in range(rng.randint(3, 8)))
                            for _ in range(rng.randint(1, 4))) for _ in range(200)]
    levels = ["INFO"] * 12 + ["DEBUG"] * 6 + ["WARN"] * 2 + ["ERROR"]
    statuses = [200] * 20 + [304] * 4 + [404] * 2 + [500]
    out, n, clock = [], 0, 1_700_000_000_000
    while n < size:
        clock += rng.randint(0, 2500)
        line = "%d.%03d %-5s 10.%d.%d.%d GET %s?id=%d %d %dus\n" % (
            clock // 1000, clock % 1000, rng.choice(levels), rng.randint(0, 3),
            rng.randint(0, 255), rng.randint(1, 254),
            paths[min(int(rng.paretovariate(1.2)) - 1, len(paths) - 1)],
            rng.randint(1, 99999), rng.choice(statuses), int(rng.lognormvariate(6, 1.2)))
        out.append(line)
        n += len(line)
    return "".join(out)[:size].encode()


def zstd_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes]]:
    """zstd's scenarios (program arguments) and the input files they read.

    The training runs (run.py's `startup` and `steady`) compress prose at
    level 3, zstd's default. The held-out run compresses a server log (other
    data, generated with another seed) at level 4, which uses the same
    double-fast match finder as level 3 with larger tables: the code a
    default-level user runs, on inputs and parameters the profile never saw.
    Two more held-out workloads use code the training never runs at all:
    level 19 (the optimal parser, btultra2) and --fast=4 (the fast
    strategy), on a quarter of that log.
    """
    def compress(level: int, name: str) -> list[str]:
        return ["-q", "-c", "-%d" % level, "--no-progress", "-T1", name]
    scenarios = {"startup": compress(3, "small.txt"),
                 "steady": compress(3, "big.txt"),
                 "heldout": compress(4, "held-out.log"),
                 "heldout-ultra": compress(19, "held-out-small.log"),
                 "heldout-fast": ["-q", "-c", "--fast=4", "--no-progress", "-T1",
                                  "held-out-small.log"]}
    held_log = _log(2 << 20, 3)
    inputs = {"small.txt": _text(4096, 1), "big.txt": _text(4 << 20, 2),
              "held-out.log": held_log, "held-out-small.log": held_log[:512 << 10]}
    return scenarios, inputs


def zstd(work: Path, log: Callable[[str], None]) -> dict:
    """zstd 1.5 (Debian package `zstd`): the library and its CLI, statically,
    single-threaded, without assembly or legacy formats. Startup: compress a
    4 KiB file; steady state: compress 4 MiB at level 3; held-out: compress
    a 2 MiB log at level 4 (see zstd_scenarios)."""
    tree = fetch_source("zstd", work / "src-zstd", log)
    sources = sorted(str(p.relative_to(tree)) for sub in
                     ("lib/common", "lib/compress", "lib/decompress",
                      "lib/dictBuilder", "programs")
                     for p in (tree / sub).glob("*.c"))
    if not sources:
        raise FetchError("no sources found in %s" % tree)
    scenarios, inputs = zstd_scenarios()
    return {
        "name": "zstd",
        "dir": tree,
        "sources": sources,
        "cflags": ["-DZSTD_DISABLE_ASM", "-DZSTD_LEGACY_SUPPORT=0",
                   "-I", str(tree / "lib"), "-I", str(tree / "lib" / "common")],
        "exe_name": "zstd",
        "scenarios": scenarios,
        "inputs": inputs,
    }


# A few words with Latin-1 letters, so that every document (UTF-8 or
# ISO-8859-1) carries multi-byte or high-byte characters.
_XML_WORDS = ["kiln", "glaze", "clay", "caf\u00e9", "na\u00efve", "\u00fcber",
              "se\u00f1or", "fa\u00e7ade", "r\u00f4le", "kiln-fired", "ware"]


def _xml(size: int, seed: int, encoding: str = "UTF-8", max_depth: int = 3) -> bytes:
    """A deterministic, well-formed XML document of at least SIZE characters
    in ENCODING (UTF-8, ISO-8859-1 or UTF-16): an
    internal DTD subset with general entities and an attribute default, a
    default and a prefixed namespace, and records whose elements carry
    attributes, character and entity references, CDATA sections, comments
    and processing instructions, nested up to MAX_DEPTH levels."""
    rng = random.Random(seed)
    words = _XML_WORDS + ["".join(rng.choice("etaoinshrdlucmfwypvbgkqjxz")
                                  for _ in range(rng.randint(2, 9))) for _ in range(400)]

    def phrase(n: int) -> str:
        return " ".join(words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)]
                        for _ in range(n))

    def element(depth: int, out: list[str]) -> None:
        ident = rng.randint(1, 10 ** 6)
        out.append('<item id="i%d" m:rank="%d" label="%s &amp; %s">' % (
            ident, rng.randint(0, 99), phrase(1), phrase(1)))
        out.append("<m:name xml:lang=\"en\">%s &vendor; &#233;&#x263A;</m:name>" % phrase(3))
        choice = rng.random()
        if choice < 0.3:
            out.append("<note><![CDATA[%s <raw> & %s]]></note>" % (phrase(4), phrase(2)))
        elif choice < 0.5:
            out.append("<!-- %s -->" % phrase(5))
        elif choice < 0.6:
            out.append("<?render %s?>" % phrase(2))
        else:
            out.append("<desc>%s &lt;%s&gt; &motto;</desc>" % (phrase(8), phrase(1)))
        out.append('<price currency="EUR">%d.%02d</price>' % (rng.randint(1, 999),
                                                              rng.randint(0, 99)))
        if depth < max_depth and rng.random() < 0.7:
            for _ in range(rng.randint(1, 2)):
                element(depth + 1, out)
        out.append("<empty m:flag=\"%d\"/></item>\n" % rng.randint(0, 1))

    out = ['<?xml version="1.0" encoding="%s"?>\n' % encoding,
           "<!DOCTYPE catalog [\n"
           '  <!ENTITY vendor "Kiln &#38;#38; Sons">\n'
           '  <!ENTITY motto "<em>fired</em> clay">\n'
           '  <!ATTLIST item status CDATA "active">\n'
           "]>\n",
           '<catalog xmlns="urn:kiln:catalog" xmlns:m="urn:kiln:meta">\n']
    n = sum(map(len, out))
    while n < size:
        record: list[str] = []
        element(1, record)
        out.extend(record)
        n += sum(map(len, record))
    out.append("</catalog>\n")
    text = "".join(out)
    if encoding == "UTF-16":
        # Little-endian, after the byte order mark the XML specification
        # asks of UTF-16 documents.
        return b"\xff\xfe" + text.encode("utf-16-le")
    return text.encode({"UTF-8": "utf-8", "ISO-8859-1": "latin-1"}[encoding])


def expat_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes]]:
    """xmlwf's scenarios (program arguments) and the input files they read.

    Every run writes the canonical copy of its document into `out/` (xmlwf
    -d), the output compared across builds. Startup parses a 2 KiB
    document; the steady state a 4 MiB one (UTF-8, nesting up to 3 levels).
    The held-out runs parse documents generated with other seeds, on code
    paths no training run takes: `heldout` a 2 MiB ISO-8859-1 document
    nested up to 8 levels, with namespace processing on (-n);
    `heldout-utf16` a UTF-16 one of 512 Ki characters (expat's two-byte
    tokenizer); `heldout-meta` a 512 KiB UTF-8 one written as xmlwf's
    meta-data (-m: one line per parse event, with byte offsets) instead of
    the canonical copy.
    """
    scenarios = {"startup": ["-d", "out", "small.xml"],
                 "steady": ["-d", "out", "big.xml"],
                 "heldout": ["-n", "-d", "out", "held-out.xml"],
                 "heldout-utf16": ["-d", "out", "held-out-utf16.xml"],
                 "heldout-meta": ["-m", "-d", "out", "held-out-meta.xml"]}
    inputs = {"small.xml": _xml(2048, 1), "big.xml": _xml(4 << 20, 2),
              "held-out.xml": _xml(2 << 20, 3, "ISO-8859-1", 8),
              "held-out-utf16.xml": _xml(512 << 10, 4, "UTF-16", 5),
              "held-out-meta.xml": _xml(512 << 10, 5, "UTF-8", 6)}
    return scenarios, inputs


# expat's configuration for Linux with glibc, as its configure script writes
# it there (HAVE_* of the functions and headers glibc 2.36 has), for the
# harness's plain compile of the sources. One change: the hash salt. expat
# draws it from the system's entropy on every parse, so the number of hash
# table probes, and the instruction count, differs between two runs of the
# same program; here arc4random_buf, its first choice, is a function in
# kiln-bench/fixed_entropy.c that returns fixed bytes, so that every
# configuration's runs count the same instructions every time.
EXPAT_CONFIG_H = """\
/* Written by Kiln's bench/lib/programs.py: expat's configuration for
   Linux/glibc, with a fixed hash salt (see there). */
#ifndef EXPAT_CONFIG_H
#define EXPAT_CONFIG_H 1
#include <stddef.h>
#define BYTEORDER 1234
#define HAVE_ARC4RANDOM_BUF 1
#define arc4random_buf kiln_bench_fixed_entropy
void kiln_bench_fixed_entropy(void *buf, size_t size);
#define HAVE_DLFCN_H 1
#define HAVE_FCNTL_H 1
#define HAVE_GETPAGESIZE 1
#define HAVE_INTTYPES_H 1
#define HAVE_MMAP 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define PACKAGE "expat"
#define PACKAGE_BUGREPORT "expat-bugs@libexpat.org"
#define PACKAGE_NAME "expat"
#define PACKAGE_STRING "expat 2.5.0"
#define PACKAGE_TARNAME "expat"
#define PACKAGE_URL ""
#define PACKAGE_VERSION "2.5.0"
#define STDC_HEADERS 1
#define VERSION "2.5.0"
#define XML_CONTEXT_BYTES 1024
#define XML_DEV_URANDOM 1
#define XML_DTD 1
#define XML_NS 1
#endif
"""

FIXED_ENTROPY_C = """\
/* Written by Kiln's bench/lib/programs.py: expat's hash salt, fixed, so that
   the benchmark's runs are deterministic (see expat_config.h). */
#include <string.h>
#include "expat_config.h"

void kiln_bench_fixed_entropy(void *buf, size_t size) {
  memset(buf, 0x5a, size);
}
"""

# xmlwf's translation units, as expat's CMakeLists.txt builds them (the
# static library's three and the tool's four, reading files with read()).
EXPAT_SOURCES = ["lib/xmlparse.c", "lib/xmlrole.c", "lib/xmltok.c",
                 "xmlwf/xmlwf.c", "xmlwf/xmlfile.c", "xmlwf/codepage.c",
                 "xmlwf/readfilemap.c"]


def expat(work: Path, log: Callable[[str], None]) -> dict:
    """expat 2.5 (Debian package `expat`): the source tree of the library and
    its xmlwf tool (the `expat/` directory, with its own configure.ac and
    CMakeLists.txt), and xmlwf's scenarios (see expat_scenarios).
    bench/pgo_flow.py builds the tree with the project's own build systems;
    bench/run.py compiles EXPAT_SOURCES, as zstd's, with the configuration
    header and the fixed hash salt written into the tree's kiln-bench/."""
    tree = fetch_source("expat", work / "src-expat", log) / "expat"
    for name in ["configure.ac", "CMakeLists.txt"] + EXPAT_SOURCES:
        if not (tree / name).is_file():
            raise FetchError("missing %s in %s" % (name, tree))
    bench_dir = tree / "kiln-bench"
    bench_dir.mkdir(exist_ok=True)
    (bench_dir / "expat_config.h").write_text(EXPAT_CONFIG_H)
    (bench_dir / "fixed_entropy.c").write_text(FIXED_ENTROPY_C)
    scenarios, inputs = expat_scenarios()
    return {"name": "expat", "dir": tree, "exe_name": "xmlwf",
            "sources": EXPAT_SOURCES + ["kiln-bench/fixed_entropy.c"],
            "cflags": ["-I", str(bench_dir), "-I", str(tree / "lib")],
            "scenarios": scenarios, "inputs": inputs, "output_dir": "out"}


PROGRAMS = {"zstd": zstd, "expat": expat}

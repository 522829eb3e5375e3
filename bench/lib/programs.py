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

from . import gitrepo

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


def require_files(tree: Path, names) -> None:
    """FetchError naming the first of \\p names (paths relative to \\p tree)
    that is not a file of the fetched tree."""
    for name in names:
        if not (tree / name).is_file():
            raise FetchError("missing %s in %s" % (name, tree))


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


# The fixed hash salt, in every build of expat: arc4random_buf, expat's
# first choice of entropy, renamed to a function that returns fixed bytes.
_FIXED_SALT_RENAME = """\
#define arc4random_buf kiln_bench_fixed_entropy
void kiln_bench_fixed_entropy(void *buf, size_t size);
"""
_FIXED_SALT_FUNCTION = """\
void kiln_bench_fixed_entropy(void *buf, size_t size) {
  memset(buf, 0x5a, size);
}
"""

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
""" + _FIXED_SALT_RENAME + """\
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

""" + _FIXED_SALT_FUNCTION

# xmlwf's translation units, as expat's CMakeLists.txt builds them (the
# static library's three and the tool's four, reading files with read()).
EXPAT_SOURCES = ["lib/xmlparse.c", "lib/xmlrole.c", "lib/xmltok.c",
                 "xmlwf/xmlwf.c", "xmlwf/xmlfile.c", "xmlwf/codepage.c",
                 "xmlwf/readfilemap.c"]


# The same fixed salt for expat's own builds (bench/pgo_flow.py builds the
# tree with its autotools or its CMake): their configuration header is made
# from a template, so the renaming goes at the end of both templates and the
# function at the end of lib/xmlparse.c, the one file that draws the salt.
EXPAT_FIXED_SALT_CONFIG = """
/* Added by Kiln's bench/lib/programs.py: a fixed hash salt, so that the
   benchmark's runs are deterministic (fix_expat_hash_salt). */
#ifndef HAVE_ARC4RANDOM_BUF
#  define HAVE_ARC4RANDOM_BUF 1
#endif
#include <stddef.h>
""" + _FIXED_SALT_RENAME
EXPAT_FIXED_SALT_DEFINITION = """
/* Added by Kiln's bench/lib/programs.py: the fixed hash salt of
   expat_config.h (fix_expat_hash_salt). */
""" + _FIXED_SALT_FUNCTION
_CONFIG_END = "#endif // ndef EXPAT_CONFIG_H"


def fix_expat_hash_salt(tree: Path) -> None:
    """Gives the expat source tree `tree` the fixed hash salt of its own
    builds (EXPAT_FIXED_SALT_CONFIG): without it, each run of xmlwf probes
    its hash tables another number of times, and two trainings of the same
    build give different profiles. It patches the templates the tree has
    (expat_config.h.in exists once autoheader has run, buildconf.sh);
    idempotent."""
    templates = [tree / name for name in ("expat_config.h.in", "expat_config.h.cmake")
                 if (tree / name).is_file()]
    if not templates:
        raise FetchError("%s: no expat_config.h.in or expat_config.h.cmake to add the "
                         "fixed hash salt to" % tree)
    for template in templates:
        text = template.read_text()
        if EXPAT_FIXED_SALT_CONFIG in text:
            continue
        if text.count(_CONFIG_END) != 1:
            raise FetchError("%s: no single '%s' line to add the fixed hash salt "
                             "before" % (template, _CONFIG_END))
        template.write_text(text.replace(_CONFIG_END,
                                         EXPAT_FIXED_SALT_CONFIG.lstrip("\n") + "\n"
                                         + _CONFIG_END))
    source = tree / "lib" / "xmlparse.c"
    text = source.read_text()
    if EXPAT_FIXED_SALT_DEFINITION not in text:
        source.write_text(text + EXPAT_FIXED_SALT_DEFINITION)


def expat(work: Path, log: Callable[[str], None]) -> dict:
    """expat 2.5 (Debian package `expat`): the source tree of the library and
    its xmlwf tool (the `expat/` directory, with its own configure.ac and
    CMakeLists.txt), and xmlwf's scenarios (see expat_scenarios).
    bench/pgo_flow.py builds the tree with the project's own build systems;
    bench/run.py compiles EXPAT_SOURCES, as zstd's, with the configuration
    header and the fixed hash salt written into the tree's kiln-bench/."""
    tree = fetch_source("expat", work / "src-expat", log) / "expat"
    require_files(tree, ["configure.ac", "CMakeLists.txt"] + EXPAT_SOURCES)
    bench_dir = tree / "kiln-bench"
    bench_dir.mkdir(exist_ok=True)
    (bench_dir / "expat_config.h").write_text(EXPAT_CONFIG_H)
    (bench_dir / "fixed_entropy.c").write_text(FIXED_ENTROPY_C)
    scenarios, inputs = expat_scenarios()
    return {"name": "expat", "dir": tree, "exe_name": "xmlwf",
            "sources": EXPAT_SOURCES + ["kiln-bench/fixed_entropy.c"],
            "cflags": ["-I", str(bench_dir), "-I", str(tree / "lib")],
            "scenarios": scenarios, "inputs": inputs, "output_dir": "out"}


# Lua's scripts. The training runs three scripts of one kind of work each
# (recursion and integer arithmetic, building and sorting a table, string
# building); the held-out runs six scripts that do other kinds of work, so
# that the interpreter's dispatch loop runs opcodes, and the libraries run
# functions, that no training run executed.
LUA_SCRIPTS = {
    "startup.lua": """print(_VERSION, math.maxinteger)
""",
    "train-calls.lua": """local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local s = 0
for i = 1, 300000 do s = (s + i * 7) % 1000003 end
print(fib(25), s)
""",
    "train-sort.lua": """local t, x = {}, 42
for i = 1, 40000 do x = (x * 1103515245 + 12345) % 2147483648; t[i] = x end
table.sort(t)
local sum = 0
for i, v in ipairs(t) do sum = (sum + v * i) % 1000000007 end
print(#t, t[1], t[#t], sum)
""",
    "train-concat.lua": """local parts = {}
for i = 1, 40000 do parts[#parts + 1] = tostring(i) .. ":" .. (i % 7) end
local s = table.concat(parts, ",")
print(#s, s:sub(1, 40), s:sub(-20))
""",
    # Floating-point loops (the interpreter's float arithmetic opcodes).
    "heldout-float.lua": """local function mandel(w)
  local count = 0
  for y = 0, w - 1 do
    local ci = 2.0 * y / w - 1.0
    for x = 0, w - 1 do
      local cr, zr, zi, i = 2.5 * x / w - 2.0, 0.0, 0.0, 0
      while i < 50 and zr * zr + zi * zi < 4.0 do
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
        i = i + 1
      end
      if i == 50 then count = count + 1 end
    end
  end
  return count
end
local acc = 0.0
for k = 1, 20000 do acc = acc + math.sin(k) * math.sqrt(k) / (1.0 + math.abs(math.cos(k))) end
print(mandel(110), string.format("%.6f", acc))
""",
    # Pattern matching, captures, gsub with functions and format.
    "heldout-patterns.lua": """local words = {}
for i = 1, 3000 do words[i] = string.format("w%04d-%s", i, string.rep(string.char(97 + i % 26), 1 + i % 5)) end
local text = table.concat(words, " ")
local n, total = 0, 0
for num, letters in text:gmatch("w(%d+)-(%a+)") do n = n + 1; total = total + tonumber(num) + #letters end
local up = text:gsub("(%a)(%a*)", function(a, b) return a:upper() .. b end)
local replaced, count = text:gsub("%d%d", "<%0>")
print(n, total, #up, count, up:find("W0042", 1, true), replaced:match("<(%d+)>"))
""",
    # Coroutines: generators and a producer/consumer pipeline.
    "heldout-coroutines.lua": """local function gen(n)
  return coroutine.wrap(function() for i = 1, n do coroutine.yield(i) end end)
end
local function filter(src, p)
  return coroutine.wrap(function() for v in src do if p(v) then coroutine.yield(v) end end end)
end
local sum = 0
for v in filter(gen(60000), function(v) return v % 3 == 0 end) do sum = sum + v end
local co = coroutine.create(function(a) local s = a while true do s = s + coroutine.yield(s) end end)
local last
for i = 1, 20000 do local ok, v = coroutine.resume(co, i); last = v end
print(sum, last, coroutine.status(co))
""",
    # Objects: metatables, metamethods, closures and varargs.
    "heldout-objects.lua": """local V = {}
V.__index = V
function V.new(x, y) return setmetatable({x = x, y = y}, V) end
V.__add = function(a, b) return V.new(a.x + b.x, a.y + b.y) end
V.__mul = function(a, k) return V.new(a.x * k, a.y * k) end
V.__eq = function(a, b) return a.x == b.x and a.y == b.y end
V.__lt = function(a, b) return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y end
V.__tostring = function(a) return "(" .. a.x .. "," .. a.y .. ")" end
function V:len2() return self.x * self.x + self.y * self.y end
local function counter() local c = 0 return function(...) c = c + select("#", ...) return c end end
local tick, acc, best = counter(), V.new(0, 0), V.new(0, 0)
for i = 1, 30000 do
  local v = V.new(i % 17, i % 13) * 2
  acc = acc + v
  if best < v then best = v end
  tick(i, v, acc)
end
local proxy = setmetatable({}, {__index = function(t, k) return k * 2 end, __len = function() return 7 end})
print(tostring(acc), tostring(best), acc == V.new(acc.x, acc.y), tick(), proxy[21], #proxy, best:len2())
""",
    # The compiler: load() of generated source, many times.
    "heldout-compile.lua": """local chunks = {}
for i = 1, 300 do
  chunks[#chunks + 1] = string.format([[
    local a, b = %d, {}
    for j = 1, 10 do b[j] = (a * j) %% 97 end
    local function f(x) if x > 50 then return x - 1 elseif x > 20 then return x + 1 else return x * 2 end end
    local s = 0
    for _, v in ipairs(b) do s = s + f(v) end
    return s
  ]], i)
end
local total = 0
for round = 1, 4 do
  for i, src in ipairs(chunks) do total = total + assert(load(src, "chunk" .. i))() end
end
print(total)
""",
    # utf8, string.pack, bitwise integer operations, goto and errors.
    "heldout-bits.lua": """local parts = {}
for cp = 0x41, 0x41 + 3000 do parts[#parts + 1] = utf8.char(cp) end
local s = table.concat(parts)
local cps, h = 0, 0
for _, c in utf8.codes(s) do cps = cps + 1; h = ((h << 5) ~ (h >> 3) ~ c) & 0xffffffff end
local packed = {}
for i = 1, 4000 do packed[#packed + 1] = string.pack("<i4d", i, i / 8) end
local blob, sum = table.concat(packed), 0
for pos = 1, #blob, 12 do local a, b = string.unpack("<i4d", blob, pos); sum = sum + a + b end
local errors = 0
for i = 1, 5000 do
  local ok = pcall(function() if i % 3 == 0 then error({code = i}) end return i end)
  if not ok then errors = errors + 1 end
end
local i, odd = 0, 0
::top::
i = i + 1
if i % 2 == 1 then odd = odd + 1 end
if i < 10000 then goto top end
print(utf8.len(s), cps, h, sum, errors, odd, 7 // 2, -7 // 2, 1 << 62)
""",
}


def lua_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """Lua's scenarios (interpreter arguments), the scripts they run, and the
    training runs (scenario, arguments): the startup prints the version;
    the steady state is three scripts, each of one kind; the six held-out
    scripts do other kinds of work (see LUA_SCRIPTS)."""
    training = [("startup", ["startup.lua"])] + [
        ("steady", [name]) for name in ("train-calls.lua", "train-sort.lua",
                                         "train-concat.lua")]
    scenarios = {"startup": ["startup.lua"], "steady": ["train-calls.lua"]}
    for name in sorted(LUA_SCRIPTS):
        if name.startswith("heldout-"):
            scenarios[name[:-len(".lua")]] = [name]
    inputs = {name: text.encode() for name, text in LUA_SCRIPTS.items()}
    return scenarios, inputs, training


# Lua's translation units: the core and the standard libraries (src/Makefile's
# CORE_O and LIB_O) and the stand-alone interpreter.
LUA_SOURCES = ["lapi.c", "lcode.c", "lctype.c", "ldebug.c", "ldo.c", "ldump.c",
               "lfunc.c", "lgc.c", "llex.c", "lmem.c", "lobject.c", "lopcodes.c",
               "lparser.c", "lstate.c", "lstring.c", "ltable.c", "ltm.c",
               "lundump.c", "lvm.c", "lzio.c", "lauxlib.c", "lbaselib.c",
               "lcorolib.c", "ldblib.c", "liolib.c", "lmathlib.c", "loadlib.c",
               "loslib.c", "lstrlib.c", "ltablib.c", "lutf8lib.c", "linit.c", "lua.c"]


def lua(work: Path, log: Callable[[str], None]) -> dict:
    """Lua 5.4 (Debian package `lua5.4`): the stand-alone interpreter, with
    the core and libraries linked in. One change to its configuration: a
    fixed string-hash seed (luai_makeseed, which Lua otherwise draws from
    the time and the addresses of a heap block, a local and a function):
    with it, two runs, and two builds, hash and iterate tables the same way
    and count the same instructions."""
    tree = fetch_source("lua5.4", work / "src-lua", log)
    require_files(tree, ["src/" + name for name in LUA_SOURCES])
    bench_dir = tree / "kiln-bench"
    bench_dir.mkdir(exist_ok=True)
    (bench_dir / "fixed_seed.h").write_text(
        "/* Written by Kiln's bench/lib/programs.py: Lua's string-hash seed, fixed,\n"
        "   so that the benchmark's runs are deterministic (lstate.c). */\n"
        "#define luai_makeseed(L) 0x5a5a5a5au\n")
    # Debian's luaconf.h includes the header its packaging writes (the
    # multiarch triplet of the C module path); the tree does not have it.
    (bench_dir / "lua5.4-deb-multiarch.h").write_text(
        "/* Written by Kiln's bench/lib/programs.py, as Debian's packaging does. */\n"
        "#define DEB_HOST_MULTIARCH \"x86_64-linux-gnu\"\n")
    scenarios, inputs, training = lua_scenarios()
    return {"name": "lua", "dir": tree, "exe_name": "lua",
            "sources": ["src/" + s for s in LUA_SOURCES],
            "cflags": ["-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX", "-I", str(bench_dir),
                       "-include", str(bench_dir / "fixed_seed.h")],
            "libs": ["-lm", "-ldl"],
            "scenarios": scenarios, "inputs": inputs, "training": training}


# SQLite's scripts, run by its shell on an in-memory database. The training
# runs three scripts of one kind each (inserts and scans, index lookups,
# grouping); the held-out runs six that use other parts of the engine (string
# and JSON functions, window functions, joins and compound selects, updates
# with triggers, dates and math).
_SQL_TABLE = """CREATE TABLE t(a INTEGER PRIMARY KEY, b INTEGER, c TEXT);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < %d)
INSERT INTO t SELECT x, (x * 7919) %% 10007, 'row-' || x FROM s;
"""
SQLITE_SCRIPTS = {
    "startup.sql": "SELECT 1 + 1;\n",
    "train-scan.sql": _SQL_TABLE % 60000 + """SELECT count(*), sum(b), max(c) FROM t WHERE b % 7 = 3;
SELECT count(*) FROM t WHERE c > 'row-5';
""",
    "train-index.sql": _SQL_TABLE % 40000 + """CREATE INDEX tb ON t(b);
WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 20000)
SELECT sum(t.a) FROM s JOIN t ON t.b = (s.x * 31) % 10007;
SELECT count(*) FROM t WHERE a BETWEEN 1000 AND 30000 AND b < 5000;
""",
    "train-group.sql": _SQL_TABLE % 40000 + """SELECT b % 50, count(*), sum(a), min(c) FROM t GROUP BY 1 ORDER BY 1 LIMIT 5;
SELECT count(DISTINCT b % 1000) FROM t;
""",
    "heldout-strings.sql": _SQL_TABLE % 20000 + """SELECT count(*) FROM t WHERE c LIKE '%7_3%';
SELECT count(*) FROM t WHERE c GLOB 'row-1*9';
SELECT sum(length(replace(upper(c), 'ROW', 'line'))), sum(instr(c, '42')) FROM t;
SELECT printf('%08.3f|%-6s|%x', b / 7.0, substr(c, 5, 3), a) FROM t WHERE a % 4000 = 0;
SELECT group_concat(trim(substr(c, 5), '0123'), ';') FROM t WHERE a < 40;
""",
    "heldout-json.sql": _SQL_TABLE % 8000 + """CREATE TABLE j AS SELECT a, json_object('id', a, 'tags', json_array(b % 3, b % 5, c), 'nested', json_object('v', b)) AS doc FROM t;
SELECT sum(json_extract(doc, '$.nested.v')), count(*) FROM j WHERE json_extract(doc, '$.tags[0]') = 1;
SELECT count(*), sum(value = 2) FROM j, json_each(j.doc, '$.tags');
SELECT length(json_group_array(json_extract(doc, '$.id'))) FROM j WHERE a % 10 = 0;
""",
    "heldout-windows.sql": _SQL_TABLE % 20000 + """SELECT sum(r), sum(running) FROM (SELECT row_number() OVER (PARTITION BY b % 10 ORDER BY a) AS r, sum(b) OVER (ORDER BY a ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) AS running FROM t);
SELECT a, lag(b) OVER w, lead(b, 2) OVER w, rank() OVER (ORDER BY b % 100) FROM t WINDOW w AS (ORDER BY a) LIMIT 3 OFFSET 5000;
""",
    "heldout-joins.sql": _SQL_TABLE % 12000 + """CREATE TABLE u(k TEXT COLLATE NOCASE, v INTEGER);
INSERT INTO u SELECT upper(c), b FROM t WHERE a % 3 = 0;
SELECT count(*) FROM t JOIN u ON u.k = t.c WHERE u.v > 100;
SELECT count(*) FROM (SELECT b FROM t WHERE a % 2 = 0 UNION SELECT v FROM u EXCEPT SELECT b FROM t WHERE a % 5 = 0);
SELECT k FROM u WHERE v IN (SELECT b FROM t WHERE a % 97 = 0) ORDER BY k DESC LIMIT 3;
CREATE INDEX uv ON u(v);
SELECT count(*) FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.v = t.b + 1);
""",
    "heldout-writes.sql": _SQL_TABLE % 10000 + """CREATE TABLE log(n INTEGER, what TEXT);
CREATE TRIGGER tu AFTER UPDATE ON t BEGIN INSERT INTO log VALUES (new.a, 'u'); END;
CREATE UNIQUE INDEX tc ON t(c);
BEGIN;
UPDATE t SET b = b + 1 WHERE a % 3 = 0;
SAVEPOINT sp; DELETE FROM t WHERE a % 5 = 0; ROLLBACK TO sp; RELEASE sp;
DELETE FROM t WHERE a % 7 = 0;
INSERT INTO t(a, b, c) VALUES (5, 0, 'dup') ON CONFLICT(a) DO UPDATE SET b = excluded.b + 1000;
COMMIT;
SELECT count(*), sum(b) FROM t; SELECT count(*) FROM log;
""",
    "heldout-dates.sql": _SQL_TABLE % 15000 + """SELECT count(DISTINCT strftime('%Y-%m', '2000-01-01', '+' || a || ' days')) FROM t;
SELECT sum(julianday(date('2020-02-28', '+' || (b % 400) || ' days')) - 2458907) FROM t;
SELECT printf('%.6f', sum(sqrt(a) + ln(b + 1) + pow(b % 10, 1.5) + sin(a))) FROM t;
SELECT CAST(avg(CAST(c AS BLOB) > x'726f772d35') * 1000 AS INTEGER), total(round(b / 3.0, 2)) FROM t;
""",
}


def sqlite_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """SQLite's scenarios (shell arguments), the scripts they read and the
    training runs (see SQLITE_SCRIPTS); every run is `sqlite3 :memory:
    .read SCRIPT`."""
    def read(name: str) -> list[str]:
        return [":memory:", ".read " + name]
    training = [("startup", read("startup.sql"))] + [
        ("steady", read(name)) for name in ("train-scan.sql", "train-index.sql",
                                             "train-group.sql")]
    scenarios = {"startup": read("startup.sql"), "steady": read("train-scan.sql")}
    for name in sorted(SQLITE_SCRIPTS):
        if name.startswith("heldout-"):
            scenarios[name[:-len(".sql")]] = read(name)
    inputs = {name: text.encode() for name, text in SQLITE_SCRIPTS.items()}
    return scenarios, inputs, training


def sqlite(work: Path, log: Callable[[str], None]) -> dict:
    """SQLite 3.40 (Debian package `sqlite3`): its shell and the engine, from
    the amalgamation (`sqlite3.c`, `shell.c`), the two files SQLite's own
    distribution builds its shell from. The Debian source is SQLite's tree,
    so the amalgamation is generated from it once (its configure and `make
    sqlite3.c shell.c`, which need a C compiler and tclsh). Single-threaded,
    without loadable extensions, with the math functions."""
    tree = fetch_source("sqlite3", work / "src-sqlite", log)
    amalgamation = work / "src-sqlite-amalgamation"
    if not (amalgamation / "sqlite3.c").is_file() or not (amalgamation / "shell.c").is_file():
        if shutil.which("tclsh") is None:
            log("installing tcl (SQLite's amalgamation is generated by Tcl scripts)")
            if _run(["apt-get", "install", "-y", "-qq", "tcl"]).returncode:
                raise FetchError("cannot install tcl")
        cc = shutil.which("cc") or shutil.which("gcc")
        if cc is None:
            raise FetchError("generating SQLite's amalgamation needs a C compiler (cc)")
        scratch = work / "src-sqlite-build"
        shutil.rmtree(scratch, ignore_errors=True)
        scratch.mkdir(parents=True)
        log("generating SQLite's amalgamation in %s" % scratch)
        for cmd in ([str(tree / "configure"), "CC=" + cc, "--disable-tcl"],
                    ["make", "sqlite3.c", "shell.c"]):
            proc = _run(cmd, cwd=scratch)
            if proc.returncode:
                raise FetchError("%s failed: %s" % (" ".join(cmd[:2]), proc.stderr[-800:]))
        amalgamation.mkdir(exist_ok=True)
        for name in ("sqlite3.c", "sqlite3.h", "sqlite3ext.h", "shell.c"):
            shutil.copy2(scratch / name, amalgamation / name)
        shutil.rmtree(scratch)
    scenarios, inputs, training = sqlite_scenarios()
    return {"name": "sqlite", "dir": amalgamation, "exe_name": "sqlite3",
            "sources": ["shell.c", "sqlite3.c"],
            "cflags": ["-D_GNU_SOURCE", "-DSQLITE_THREADSAFE=0", "-DSQLITE_OMIT_LOAD_EXTENSION",
                       "-DSQLITE_ENABLE_MATH_FUNCTIONS", "-I", str(amalgamation)],
            "libs": ["-lm"],
            "scenarios": scenarios, "inputs": inputs, "training": training}


# jsoncpp's documents, generated with fixed seeds. The training parses
# objects of short strings and small integers; each held-out document is of
# a kind no training document has (floating-point numbers, deep nesting,
# long strings with escapes, comments, the legacy reader's input).
_JSON_KEYS = ["id", "name", "kind", "size", "owner", "color", "count", "state",
              "city", "code", "rank", "shelf", "batch", "glaze", "cone", "clay"]


def _json_words(rng: random.Random, n: int) -> list[str]:
    return ["kiln", "glaze", "clay", "ware", "slip", "cone", "bisque", "raku"] + [
        "".join(rng.choice("etaoinshrdlucmfwypvbgkqjxz") for _ in range(rng.randint(2, 8)))
        for _ in range(n)]


def _json_records(size: int, seed: int, shape: str = "array") -> bytes:
    """Objects of short ASCII strings and small integers, at least SIZE
    bytes: a top-level array of them (`array`), an object keyed by record
    name (`keyed`), or an object of batches, arrays of records (`batches`)."""
    rng = random.Random(seed)
    words = _json_words(rng, 300)

    def word() -> str:
        return words[min(int(rng.paretovariate(1.1)) - 1, len(words) - 1)]

    def record(i: int) -> str:
        fields = ['"id": %d' % i]
        for key in rng.sample(_JSON_KEYS[1:], rng.randint(2, 7)):
            if rng.random() < 0.5:
                fields.append('"%s": %d' % (key, rng.randint(-999, 9999)))
            else:
                fields.append('"%s": "%s %s"' % (key, word(), word()))
        return "{" + ", ".join(fields) + "}"

    items: list[str] = []
    n, i = 2, 0
    while n < size:
        i += 1
        if shape == "keyed":
            item = '"r%05d": %s' % (i, record(i))
        elif shape == "batches":
            item = '"batch-%04d": [\n  %s\n]' % (i, ",\n  ".join(
                record(i * 100 + k) for k in range(rng.randint(2, 12))))
        else:
            item = record(i)
        items.append(item)
        n += len(item) + 2
    brackets = "[]" if shape == "array" else "{}"
    return ("%s\n%s\n%s\n" % (brackets[0], ",\n".join(items), brackets[1])).encode()


def _json_floats(size: int, seed: int) -> bytes:
    """Arrays of floating-point numbers in every JSON notation (fixed,
    exponents of both signs, negative, integers too large for 64 bits)."""
    rng = random.Random(seed)

    def number() -> str:
        x = rng.lognormvariate(0, 6) * rng.choice((1, -1))
        form = rng.random()
        if form < 0.4:
            return repr(x)
        if form < 0.7:
            return "%.*f" % (rng.randint(1, 9), x)
        if form < 0.95:
            return "%.*e" % (rng.randint(2, 16), x)
        return "%d%018d" % (rng.randint(1, 999), rng.randint(0, 10 ** 18 - 1))

    rows: list[str] = []
    n = 0
    while n < size:
        row = "[" + ", ".join(number() for _ in range(rng.randint(4, 16))) + "]"
        rows.append(row)
        n += len(row) + 2
    return ('{"series": [\n%s\n]}\n' % ",\n".join(rows)).encode()


def _json_nested(size: int, seed: int, max_depth: int) -> bytes:
    """A top-level array of arrays nested 8 to MAX_DEPTH levels deep, each
    level with a few leaves (small integers, true, false, null) and now and
    then a short sibling array."""
    rng = random.Random(seed)

    def leaves() -> list[str]:
        return [rng.choice(("%d" % rng.randint(0, 99), "true", "false", "null"))
                for _ in range(rng.randint(0, 2))]

    items: list[str] = []
    n = 0
    while n < size:
        item = "[%s]" % ",".join(leaves())
        for _ in range(rng.randint(8, max_depth)):
            before, after = leaves(), leaves()
            if rng.random() < 0.1:
                after.append("[%s]" % ",".join(leaves()))
            item = "[%s]" % ",".join(before + [item] + after)
        items.append(item)
        n += len(item) + 2
    return ("[\n%s\n]\n" % ",\n".join(items)).encode()


def _json_strings(size: int, seed: int) -> bytes:
    """An array of long strings (200-3000 characters) with every JSON escape,
    \\u escapes of Latin-1, CJK and astral characters (surrogate pairs) and
    raw UTF-8."""
    rng = random.Random(seed)
    words = _json_words(rng, 200)
    pieces = ['\\"', "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9",
              "\\u00fc", "\\u263a", "\\u4e2d\\u6587", "\\ud83d\\ude00", "\\u0001",
              "\u00e7a", "\u00fcber", "\u6f22\u5b57", "\U0001f525"]
    items: list[str] = []
    n = 0
    while n < size:
        length, parts = rng.randint(200, 3000), []
        m = 0
        while m < length:
            part = rng.choice(pieces) if rng.random() < 0.3 else rng.choice(words)
            parts.append(part)
            m += len(part) + 1
        item = '"%s"' % " ".join(parts)
        items.append(item)
        n += len(item) + 2
    return ("[\n%s\n]\n" % ",\n".join(items)).encode()


def _json_commented(size: int, seed: int) -> bytes:
    """Configuration-like objects with `//` and `/* */` comments before and
    after their values, booleans, null and trailing commas."""
    rng = random.Random(seed)
    words = _json_words(rng, 200)
    sections: list[str] = []
    n, i = 0, 0
    while n < size:
        i += 1
        lines = ["  // section %d: %s" % (i, " ".join(rng.sample(words, 5))),
                 '  "section-%04d": {' % i]
        for key in rng.sample(_JSON_KEYS, rng.randint(3, 8)):
            value = rng.choice(("true", "false", "null", "%d" % rng.randint(0, 500),
                                '"%s"' % rng.choice(words)))
            if rng.random() < 0.5:
                lines.append("    /* %s */" % " ".join(rng.sample(words, 3)))
            lines.append('    "%s": %s,%s' % (key, value, " // " + rng.choice(words)
                                              if rng.random() < 0.4 else ""))
        lines.append("  },")
        section = "\n".join(lines)
        sections.append(section)
        n += len(section) + 1
    return ("/* generated by Kiln's bench/lib/programs.py */\n{\n%s\n}\n"
            % "\n".join(sections)).encode()


def _json_mixed(size: int, seed: int) -> bytes:
    """Records with values of every type: negative and floating-point
    numbers, booleans, null, short arrays and escaped strings."""
    rng = random.Random(seed)
    words = _json_words(rng, 200)
    items: list[str] = []
    n, i = 2, 0
    while n < size:
        i += 1
        item = ('{"n": %d, "ratio": %.4f, "ok": %s, "note": %s, "tags": [%s], '
                '"label": "%s\\t%s\\u00e9"}' % (
                    -i, rng.uniform(-100, 100), rng.choice(("true", "false")),
                    rng.choice(("null", '"%s"' % rng.choice(words))),
                    ", ".join('"%s"' % rng.choice(words) for _ in range(rng.randint(0, 4))),
                    rng.choice(words), rng.choice(words)))
        items.append(item)
        n += len(item) + 2
    return ("[\n%s\n]\n" % ",\n".join(items)).encode()


def jsoncpp_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """jsontestrunner's scenarios (its arguments), the documents they parse
    and the training runs (scenario, arguments). Each run parses its
    document, writes its value tree (`X.actual`), rewrites the document with
    a styled writer (`X.rewrite`), parses that and writes its tree again
    (`X.actual-rewrite`): the three files beside `X.json` are the run's
    output (JSONCPP_OUTPUTS). Startup parses a one-record document; the
    steady state three documents of objects of short strings and small
    integers (an array, an object keyed by name, arrays in an object). The
    held-out runs parse kinds of document the training never has:
    `heldout` floating-point arrays, `heldout-nested` arrays nested up to
    120 levels, `heldout-strings` long strings with escapes and \\u
    escapes, `heldout-comments` objects with comments (written back by the
    StreamWriterBuilder's writer, --json-writer BuiltStyledStreamWriter),
    `heldout-legacy` records of every value type, parsed by the legacy
    Json::Reader too (the runner does for a file named `legacy_*`). A
    document with a syntax error is not among them: the runner exits with
    status 1 on it, which the benchmark takes for a failed run."""
    training = [("startup", ["small.json"])] + [
        ("steady", [name]) for name in ("train-records.json", "train-table.json",
                                         "train-batches.json")]
    scenarios = {"startup": ["small.json"], "steady": ["train-records.json"],
                 "heldout": ["held-out-floats.json"],
                 "heldout-nested": ["held-out-nested.json"],
                 "heldout-strings": ["held-out-strings.json"],
                 "heldout-comments": ["--json-writer", "BuiltStyledStreamWriter",
                                      "held-out-comments.json"],
                 "heldout-legacy": ["legacy_held-out.json"]}
    inputs = {"small.json": _json_records(40, 1),
              "train-records.json": _json_records(200 << 10, 2),
              "train-table.json": _json_records(200 << 10, 3, "keyed"),
              "train-batches.json": _json_records(200 << 10, 4, "batches"),
              "held-out-floats.json": _json_floats(80 << 10, 5),
              "held-out-nested.json": _json_nested(64 << 10, 6, 120),
              "held-out-strings.json": _json_strings(600 << 10, 7),
              "held-out-comments.json": _json_commented(200 << 10, 8),
              "legacy_held-out.json": _json_mixed(80 << 10, 9)}
    return scenarios, inputs, training


# The files jsontestrunner writes beside the document X.json it parses.
JSONCPP_OUTPUTS = ("*.actual", "*.rewrite", "*.actual-rewrite")


def jsoncpp(work: Path, log: Callable[[str], None]) -> dict:
    """jsoncpp 1.9 (Debian package `libjsoncpp`): the C++ library and its
    test runner, `jsontestrunner_exe` (src/jsontestrunner/main.cpp), which
    bench/pgo_flow.py builds by the project's own CMake build; the
    scenarios are jsoncpp_scenarios(). The runner prints nothing: its
    output is the files it writes beside its input (`output_files`, globs
    in the run's directory). Not in PROGRAMS: bench/run.py compares a run's
    standard output and output directory only."""
    tree = fetch_source("libjsoncpp", work / "src-jsoncpp", log)
    require_files(tree, ("CMakeLists.txt", "src/jsontestrunner/main.cpp",
                         "src/lib_json/json_reader.cpp"))
    scenarios, inputs, training = jsoncpp_scenarios()
    return {"name": "jsoncpp", "dir": tree, "exe_name": "jsontestrunner_exe",
            "scenarios": scenarios, "inputs": inputs, "training": training,
            "output_files": JSONCPP_OUTPUTS}


# ninja's manifests, generated with fixed seeds over one tree of empty
# sources and headers (their directories: _NINJA_DIRS).
_NINJA_DIRS = ["base", "core", "net", "ui", "io", "db", "util", "render", "audio", "text",
               "http", "json", "crypto", "sched", "fs", "log"]
_MASK = (1 << 64) - 1


def _murmur64a(data: bytes) -> int:
    """ninja's MurmurHash64A (src/build_log.cc): the build log's command hash."""
    m, r = 0xc6a4a7935bd1e995, 47
    h = (0xDECAFBADDECAFBAD ^ (len(data) * m)) & _MASK
    whole = len(data) - len(data) % 8
    for i in range(0, whole, 8):
        k = (int.from_bytes(data[i:i + 8], "little") * m) & _MASK
        k ^= k >> r
        k = (k * m) & _MASK
        h = ((h ^ k) * m) & _MASK
    tail = data[whole:]
    if tail:
        h ^= int.from_bytes(tail, "little")
        h = (h * m) & _MASK
    h ^= h >> r
    h = (h * m) & _MASK
    return h ^ (h >> r)


def _ninja_tree(seed: int):
    """The source tree every generated manifest builds from: sources
    (`proj/src/DIR/NAME.c`) and headers (`proj/include/DIR/NAME.h`), each
    directory's, and the files to stage (empty)."""
    rng = random.Random(seed)
    syll = ["ka", "lo", "mi", "nu", "re", "sa", "to", "vi", "ze", "qu", "ph", "st", "ar", "en"]
    tree = {}
    for d in _NINJA_DIRS:
        names = sorted({"".join(rng.choice(syll) for _ in range(rng.randint(2, 5)))
                        for _ in range(170)})
        headers = sorted({"".join(rng.choice(syll) for _ in range(rng.randint(2, 4)))
                          for _ in range(14)})
        tree[d] = (["proj/src/%s/%s.c" % (d, n) for n in names],
                   ["proj/include/%s/%s.h" % (d, n) for n in headers])
    return tree


def _ninja_c_project(tree: dict, seed: int, objects: int, depfiles: bool = True):
    """A C project's manifest over TREE: compiles (with gcc-style depfiles
    unless DEPFILES is false), one static library per directory, programs
    linking some of them, an `all` alias. Returns the manifest and its
    edges as (outputs, command) in order, for a build log."""
    rng = random.Random(seed)
    cflags = "-O2 -g -Wall -Iproj/include -DNDEBUG -DKILN_SEED=%d" % seed
    head = ["# generated: a C project of %d objects\n" % objects,
            "ninja_required_version = 1.5\n",
            "cc = cc\ncflags = %s\nldflags = -Wl,--as-needed\n\n" % cflags]
    if depfiles:
        head.append("rule cc\n  command = $cc -MMD -MF $out.d $cflags -c $in -o $out\n"
                    "  depfile = $out.d\n  deps = gcc\n  description = CC $out\n\n")
    else:
        head.append("rule cc\n  command = $cc $cflags -c $in -o $out\n"
                    "  description = CC $out\n\n")
    head += ["rule ar\n  command = rm -f $out && ar crs $out $in\n  description = AR $out\n\n",
             "rule link\n  command = $cc $ldflags -o $out $in $libs\n"
             "  description = LINK $out\n\n"]
    body, edges = [], []
    dirs = sorted(tree)
    by_dir = {}
    for _ in range(objects):
        d = rng.choice(dirs)
        src = rng.choice(tree[d][0])
        obj = "obj/%d/%s.o" % (seed, src[len("proj/src/"):-2])
        if obj in by_dir.setdefault(d, []):
            continue
        by_dir[d].append(obj)
        line = "build %s: cc %s" % (obj, src)
        if rng.random() < 0.3:
            line += " | " + " ".join(rng.sample(tree[d][1], rng.randint(1, 3)))
        body.append(line + "\n")
        edges.append(([obj], "cc %s -c %s -o %s" % (cflags, src, obj)))
    libs = []
    for d in sorted(by_dir):
        lib = "lib/%d/lib%s.a" % (seed, d)
        libs.append(lib)
        body.append("build %s: ar %s\n" % (lib, " ".join(by_dir[d])))
        edges.append(([lib], "rm -f %s && ar crs %s %s" % (lib, lib, " ".join(by_dir[d]))))
    programs = []
    for p in range(max(2, objects // 300)):
        main_dir = rng.choice(dirs)
        src = rng.choice(tree[main_dir][0])
        obj = "obj/%d/main%d.o" % (seed, p)
        body.append("build %s: cc %s\n" % (obj, src))
        edges.append(([obj], "cc %s -c %s -o %s" % (cflags, src, obj)))
        exe = "bin/%d/prog%d" % (seed, p)
        programs.append(exe)
        used = sorted(rng.sample(libs, min(len(libs), rng.randint(3, 8))))
        body.append("build %s: link %s %s\n  libs = -lm -lpthread\n" % (exe, obj, " ".join(used)))
        edges.append(([exe], "cc -Wl,--as-needed -o %s %s -lm -lpthread"
                      % (exe, " ".join([obj] + used))))
    body.append("build all: phony %s\n" % " ".join(programs + libs))
    body.append("default all\n")
    return "".join(head + body).encode(), edges


def _ninja_scoped_project(tree: dict, seed: int, objects: int) -> dict:
    """A project of one manifest per directory (`subninja`, each with its own
    flags in its own scope) and a rules file (`include`), a generated
    configuration header every compile waits for (order-only), compiles
    that also write a listing (implicit outputs) and links in a pool of
    depth 1. Returns its files, the top-level one first."""
    rng = random.Random(seed)
    top = "heldout-scoped.ninja"
    files = {}
    rules = ("rule cc\n  command = $cc $cflags $dirflags -Wa,-adhln=$lst -c $in -o $out\n"
             "  description = CC [$dir] $out\n\n"
             "rule gen\n  command = sh proj/configure.sh > $out\n  description = GEN $out\n"
             "  generator = 1\n\n"
             "rule ar\n  command = ar crs $out $in\n  description = AR $out\n\n"
             "pool link_pool\n  depth = 1\n\n"
             "rule link\n  command = $cc -o $out $in $libs\n  pool = link_pool\n"
             "  description = LINK $out\n\n")
    files["heldout-scoped-rules.ninja"] = rules.encode()
    main = ["cc = clang\ncflags = -O2 -Iproj/include -Igen\n",
            "include heldout-scoped-rules.ninja\n",
            "build gen/config.h: gen proj/configure.sh\n"]
    libs = []
    per_dir = max(1, objects // len(tree))
    for d in sorted(tree):
        sub = ["dir = %s\n" % d,
               "dirflags = -DDIR_%s=1 -fvisibility=hidden\n" % d.upper()]
        objs = []
        for src in sorted(rng.sample(tree[d][0], min(per_dir, len(tree[d][0])))):
            obj = "out/%s/%s.o" % (d, src.rsplit("/", 1)[1][:-2])
            objs.append(obj)
            sub.append("build %s | %s.lst: cc %s || gen/config.h\n  lst = %s.lst\n"
                       % (obj, obj, src, obj))
        lib = "out/%s/lib%s.a" % (d, d)
        libs.append(lib)
        sub.append("build %s: ar %s\n" % (lib, " ".join(objs)))
        name = "heldout-scoped-%s.ninja" % d
        files[name] = "".join(sub).encode()
        main.append("subninja %s\n" % name)
    exes = []
    for p in range(6):
        exe = "out/bin/tool%d" % p
        exes.append(exe)
        main.append("build %s: link %s\n  libs = -lm\n" % (
            exe, " ".join(sorted(rng.sample(libs, 5)))))
    main.append("build all: phony %s\ndefault all\n" % " ".join(exes))
    return {top: "".join(main).encode(), **files}


def ninja_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """ninja's scenarios (its arguments), the files they read and the
    training runs. Every manifest builds from one generated tree of
    sources and headers (`proj/`, empty files). The training is dry runs
    (`-n`) of C projects built from nothing: startup a project of 14
    compiles, the steady state three of 1,400-1,800 compiles (with
    depfiles), one library per directory and some programs. The held-out
    runs do other kinds of work: `heldout` a dry run of an up-to-date
    project of 1,600 compiles (every output present, none older than its
    inputs, the build log in `noop/`: statting, log loading and command
    hashes, "no work to do"), `heldout-scoped` a dry run of a project of
    one subninja per directory with scoped variables, an included rules
    file, order-only dependencies, implicit outputs and a pool,
    `heldout-compdb` the JSON compilation database of a fourth C project,
    `heldout-commands` its commands in build order, `heldout-targets`
    every target with its rule."""
    tree = _ninja_tree(11)
    inputs = {}
    for d in sorted(tree):
        for path in tree[d][0] + tree[d][1]:
            inputs[path] = b""
    inputs["proj/configure.sh"] = b"echo '#define KILN 1'\n"
    inputs["small.ninja"], _ = _ninja_c_project(tree, 1, 12)
    for seed, objects in ((2, 3000), (3, 2000), (4, 2500)):
        inputs["train-%d.ninja" % seed], _ = _ninja_c_project(tree, seed, objects)
    inputs["heldout-tools.ninja"], _ = _ninja_c_project(tree, 5, 2500)
    noop, edges = _ninja_c_project(tree, 6, 2400, depfiles=False)
    inputs["heldout-noop.ninja"] = b"builddir = noop\n" + noop
    # The no-op project's outputs, staged after its sources (so no older
    # than them), then its build log: every command's hash, a recorded
    # mtime later than any file's.
    log = ["# ninja log v5\n"]
    for outputs, command in edges:
        for out in outputs:
            inputs[out] = b"built\n"
            log.append("%d\t%d\t%d\t%s\t%x\n" % (0, 1, 1 << 62, out,
                                                  _murmur64a(command.encode())))
    inputs["noop/.ninja_log"] = "".join(log).encode()
    inputs.update(_ninja_scoped_project(tree, 7, 1600))
    training = [("startup", ["-n", "-f", "small.ninja"])] + [
        ("steady", ["-n", "-f", "train-%d.ninja" % seed]) for seed in (2, 3, 4)]
    scenarios = {"startup": ["-n", "-f", "small.ninja"],
                 "steady": ["-n", "-f", "train-2.ninja"],
                 "heldout": ["-n", "-f", "heldout-noop.ninja"],
                 "heldout-scoped": ["-n", "-f", "heldout-scoped.ninja"],
                 "heldout-compdb": ["-f", "heldout-tools.ninja", "-t", "compdb"],
                 "heldout-commands": ["-f", "heldout-tools.ninja", "-t", "commands", "all"],
                 "heldout-targets": ["-f", "heldout-tools.ninja", "-t", "targets", "all"]}
    return scenarios, inputs, training


def ninja(work: Path, log: Callable[[str], None]) -> dict:
    """ninja 1.11 (Debian package `ninja-build`), the C++ build tool, which
    bench/pgo_flow.py builds by the project's own CMake build; the scenarios
    are ninja_scenarios(). Its output is what it prints. Not in PROGRAMS:
    bench/run.py stages no input in subdirectories."""
    tree = fetch_source("ninja-build", work / "src-ninja", log)
    require_files(tree, ("CMakeLists.txt", "src/ninja.cc", "src/manifest_parser.cc"))
    scenarios, inputs, training = ninja_scenarios()
    return {"name": "ninja", "dir": tree, "exe_name": "ninja",
            "scenarios": scenarios, "inputs": inputs, "training": training}


# The generated repository of the git program: its directories, the words
# of its files' lines and its authors.
_GIT_DIRS = ["src", "src/core", "src/net", "lib", "lib/util", "include", "doc", "tests"]
_GIT_WORDS = ["buffer", "count", "index", "node", "entry", "table", "state", "value",
              "result", "offset", "length", "error", "flags", "cache", "list", "item",
              "parent", "child", "hash", "name", "path", "size", "next", "prev", "data"]
_GIT_AUTHORS = [("Ada Kiln", "ada@kiln.example"), ("Bo Glaze", "bo@kiln.example"),
                ("Cy Clay", "cy@kiln.example"), ("Di Fire", "di@kiln.example"),
                ("Ed Ember", "ed@kiln.example"), ("Flo Slip", "flo@kiln.example")]


def _git_line(rng: random.Random) -> str:
    w = lambda: rng.choice(_GIT_WORDS)
    kind = rng.randrange(6)
    if kind == 0:
        return "\tif (%s->%s > %s_%s)\n" % (w(), w(), w(), w())
    if kind == 1:
        return "\t\t%s = %s(%s, %d);\n" % (w(), w() + "_" + w(), w(), rng.randrange(1000))
    if kind == 2:
        return "\t/* %s %s %s the %s */\n" % (w(), w(), w(), w())
    if kind == 3:
        return "\treturn %s_%s(%s);\n" % (w(), w(), w())
    if kind == 4:
        return "static int %s_%s(struct %s *%s)\n" % (w(), w(), w(), w())
    return "\t%s += %s[%d];\n" % (w(), w(), rng.randrange(64))


def _git_file(rng: random.Random, lines: int) -> bytes:
    return "".join(_git_line(rng) for _ in range(lines)).encode()


def _git_edit(rng: random.Random, text: bytes) -> bytes:
    """One commit's change to a file: some lines replaced, a block inserted
    or one deleted."""
    lines = text.decode().splitlines(keepends=True)
    for _ in range(rng.randint(1, 4)):
        at = rng.randrange(len(lines) + 1)
        op = rng.randrange(3)
        if op == 0 and lines:
            for i in range(at, min(at + rng.randint(1, 3), len(lines))):
                lines[i] = _git_line(rng)
        elif op == 1 or len(lines) < 20:
            lines[at:at] = [_git_line(rng) for _ in range(rng.randint(1, 8))]
        else:
            del lines[at:at + rng.randint(1, 6)]
    return "".join(lines).encode()


def _git_name(rng: random.Random, taken: set) -> str:
    while True:
        path = "%s/%s_%s.%s" % (rng.choice(_GIT_DIRS), rng.choice(_GIT_WORDS),
                                rng.choice(_GIT_WORDS), rng.choice("cch"))
        if path not in taken:
            return path


def git_repository(seed: int, commits: int) -> tuple[dict[str, bytes], str]:
    """The files of a bare repository (`repo.git/`) with a generated history
    of \\p commits commits on `main` (lib/gitrepo.py writes it): C-like
    sources in nested directories, each commit editing one to four files,
    some adding a file or renaming one (with a small edit), every 40th
    commit merging a topic branch of three commits that adds and edits
    files of its own directory; six authors, a tag `v1.N` every 100
    commits. \\returns the files and the path of the last tree that the
    most commits changed."""
    rng = random.Random(seed)
    pack = gitrepo.PackWriter()
    files: dict[str, bytes] = {}
    blobs: dict[str, bytes] = {}
    for _ in range(140):
        path = _git_name(rng, set(files))
        files[path] = _git_file(rng, rng.randint(30, 220))
    clock = [1_600_000_000]  # the last commit's time, seconds since 1970
    edits: dict[str, int] = {}  # path -> versions written

    def write(path: str, data: bytes, base: bytes | None) -> None:
        edits[path] = edits.get(path, 0) + 1
        files[path] = data
        blobs[path] = pack.add(gitrepo.OBJ_BLOB, data, base)

    def tree(state: dict[str, bytes]) -> bytes:
        def build(prefix: str) -> bytes:
            entries, subdirs = {}, set()
            for path in state:
                if path.startswith(prefix):
                    rest = path[len(prefix):]
                    if "/" in rest:
                        subdirs.add(rest.split("/", 1)[0])
                    else:
                        entries[rest] = (False, state[path])
            for d in subdirs:
                entries[d] = (True, build(prefix + d + "/"))
            return pack.add(gitrepo.OBJ_TREE, gitrepo.tree_data(entries))
        return build("")

    def commit(state: dict[str, bytes], parents: list, message: str) -> bytes:
        clock[0] += rng.randint(600, 20000)
        name, email = rng.choice(_GIT_AUTHORS)
        who = "%s <%s> %d +0000" % (name, email, clock[0])
        text = "tree %s\n" % tree(state).hex()
        text += "".join("parent %s\n" % p.hex() for p in parents)
        text += "author %s\ncommitter %s\n\n%s\n" % (who, who, message)
        return pack.add(gitrepo.OBJ_COMMIT, text.encode())

    for path in sorted(files):
        write(path, files[path], None)
    head = commit(blobs, [], "Initial import")
    refs = {}

    def change() -> str:
        """One commit's change on main: adds a file, moves one (with a small
        edit) or edits one to four; \\returns the commit message."""
        roll = rng.random()
        if roll < 0.05:
            path = _git_name(rng, set(files))
            write(path, _git_file(rng, rng.randint(20, 120)), None)
            return "Add " + path
        mainline = sorted(p for p in files if not p.startswith("contrib/"))
        if roll < 0.08:
            old = rng.choice(mainline)
            new = _git_name(rng, set(files))
            data, base = files.pop(old), blobs.pop(old)
            edits[new] = edits.pop(old, 0)
            write(new, _git_edit(rng, data), base)
            return "Move %s to %s" % (old, new)
        for path in rng.sample(mainline, rng.randint(1, 4)):
            write(path, _git_edit(rng, files[path]), blobs[path])
        words = rng.randint(3, 8)
        return " ".join(rng.choice(_GIT_WORDS) for _ in range(words)).capitalize()

    for n in range(1, commits):
        if n % 40 == 0:
            # A topic branch of three commits forked from here, merged back.
            topic = "contrib/topic%d/" % (n // 40)
            side_files = dict(blobs)
            side = head
            for k in range(3):
                path = topic + "%s.c" % rng.choice(_GIT_WORDS)
                if path in files:
                    files[path] = _git_edit(rng, files[path])
                    side_files[path] = pack.add(gitrepo.OBJ_BLOB, files[path], blobs.get(path))
                else:
                    files[path] = _git_file(rng, rng.randint(20, 80))
                    side_files[path] = pack.add(gitrepo.OBJ_BLOB, files[path])
                blobs[path] = side_files[path]
                side = commit(side_files, [side], "Topic %d: step %d" % (n // 40, k + 1))
            head = commit(blobs, [head, side], "Merge branch 'topic%d'" % (n // 40))
        else:
            head = commit(blobs, [head], change())
        if n % 100 == 0:
            refs["refs/tags/v1.%d" % (n // 100)] = head
    refs["refs/heads/main"] = head
    most_edited = max(sorted(p for p in files if not p.startswith("contrib/")),
                      key=lambda p: edits.get(p, 0))
    return gitrepo.bare_repository(pack, refs, "refs/heads/main", "repo.git/"), most_edited


def git_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """git's scenarios (its arguments), the files they read and the training
    runs, on one generated bare repository (git_repository: 1,200 commits,
    8,900 objects in one pack). The training reads history: startup the
    last commits' one-line log, the steady state the log with patches
    (rename detection off), the log with each commit's changed files, and a
    diff between two tags. The held-out runs do other kinds of work:
    `heldout` blames the file most commits changed, `heldout-grep` searches
    the tree of a tag with a regular expression, `heldout-objects` lists
    every object reachable from any ref, `heldout-pickaxe` finds the
    commits of a range that add or remove a string (`log -S`),
    `heldout-renames` summarises the changes between two tags with rename
    detection, `heldout-archive` writes a tag's tree as a tar archive."""
    inputs, blamed = git_repository(5, 1200)
    gd = ["--no-pager", "--git-dir=repo.git"]
    training = [("startup", gd + ["log", "--oneline", "-20"]),
                ("steady", gd + ["log", "-p", "--no-renames", "-400"]),
                ("steady", gd + ["log", "--name-status", "--no-renames", "--format=%h %an %s"]),
                ("steady", gd + ["diff", "--no-renames", "v1.3", "v1.6"])]
    scenarios = {"startup": training[0][1], "steady": training[1][1],
                 "heldout": gd + ["blame", "-w", "HEAD", "--", blamed],
                 "heldout-grep": gd + ["grep", "-n", "-E", "-e",
                                       "(offset|length)_[a-z]+\\(", "v1.8"],
                 "heldout-objects": gd + ["rev-list", "--objects", "--all"],
                 "heldout-pickaxe": gd + ["log", "-S", "hash_index", "--oneline",
                                          "v1.6..v1.9"],
                 "heldout-renames": gd + ["diff", "-M", "--stat=200", "--summary",
                                          "v1.2", "v1.9"],
                 "heldout-archive": gd + ["archive", "--format=tar", "v1.10"]}
    return scenarios, inputs, training


def git(work: Path, log: Callable[[str], None]) -> dict:
    """git 2.39 (Debian package `git`), the version control system, which
    bench/pgo_flow.py builds by the project's own Makefile (its `git`
    executable only); the scenarios are git_scenarios(). Its output is what
    it prints. Not in PROGRAMS: bench/run.py stages no input in
    subdirectories."""
    tree = fetch_source("git", work / "src-git", log)
    require_files(tree, ("Makefile", "git.c", "builtin/blame.c"))
    scenarios, inputs, training = git_scenarios()
    return {"name": "git", "dir": tree, "exe_name": "git",
            "scenarios": scenarios, "inputs": inputs, "training": training}


# gawk's scripts. The training counts words in prose and sums the columns of
# a CSV table; the held-out scripts do other kinds of text processing:
# floating-point arithmetic and math functions, regular-expression
# substitution and matching, sorting an array by its indices, fields of a
# server log with a regular-expression match, and formatted output.
GAWK_SCRIPTS = {
    "train-words.awk": "{ for (i = 1; i <= NF; i++) count[$i]++ }\n"
                       "END { n = 0; for (w in count) if (count[w] > 60) n++;"
                       " print n, length(count) }\n",
    "train-sums.awk": "BEGIN { FS = \",\" } { total[$3] += $4 * $5; rows[$3]++ }\n"
                      "END { for (k in total) printf \"%s %d %d\\n\", k, total[k], rows[k] }\n",
    "heldout-float.awk": "{ s += $1 * $2; m = ($3 > m) ? $3 : m;"
                         " q += sqrt($2) + sin($1) + log($2 + 1) }\n"
                         "END { printf \"%.6g %d %.6g\\n\", s, m, q }\n",
    "heldout-regex.awk": "{ line = $0; n += gsub(/[aeiou]+/, \"<&>\", line);"
                         " if (match($0, /[a-z]+ing|[a-z]+ed/)) hit++;"
                         " u[toupper(substr($0, 1, 10))]++ }\n"
                         "END { print n, hit, length(u) }\n",
    "heldout-sort.awk": "{ split($0, a, \" \"); for (i in a) w[a[i]] += length(a[i]) }\n"
                        "END { n = asorti(w, k);"
                        " for (i = 1; i <= n; i += 97) printf \"%s:%d\\n\", k[i], w[k[i]] }\n",
    "heldout-log.awk": "{ split($1, t, \".\"); s[t[2] % 7]++; lat[$3] += $NF + 0;"
                       " st[$(NF - 1)]++; if ($5 ~ /\\/[a-e][a-z]*\\//) p++ }\n"
                       "END { for (k in st) print k, st[k];"
                       " for (k in lat) printf \"%s %d\\n\", k, lat[k]; print p, length(s) }\n",
    "heldout-printf.awk": "BEGIN { FS = \",\" } { line = sprintf(\"%-10s|%8.2f|%05d|%x|%c\","
                          " $2, $4 / ($5 + 0.5), $1 % 99999, $4, 65 + $5 % 26);"
                          " if (NR % 250 == 0) print line; n += length(line) }\n"
                          "END { print NR, n }\n",
}


def _words_csv(rows: int, seed: int) -> bytes:
    """Deterministic CSV rows: id, a word, a region, a quantity and a price."""
    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz")
                     for _ in range(rng.randint(2, 9))) for _ in range(3000)]
    regions = ["north", "south", "east", "west"]
    return "".join("%d,%s,%s,%d,%d\n" % (i, rng.choice(words), rng.choice(regions),
                                         rng.randint(1, 500), rng.randint(1, 100))
                   for i in range(rows)).encode()


def _float_columns(rows: int, seed: int) -> bytes:
    """Deterministic rows of a fixed-point number, one in exponent notation
    and an integer."""
    rng = random.Random(seed)
    return "".join("%.6f %.3e %d\n" % (rng.uniform(-1000, 1000), rng.uniform(0, 1e6),
                                       rng.randint(0, 10 ** 6))
                   for _ in range(rows)).encode()


def _text_lines(data: bytes, width: int) -> bytes:
    """\\p data (words separated by spaces) cut into lines of about \\p width
    characters, at spaces."""
    out, line = [], []
    n = 0
    for word in data.split(b" "):
        if n + len(word) > width and line:
            out.append(b" ".join(line))
            line, n = [], 0
        line.append(word)
        n += len(word) + 1
    out.append(b" ".join(line))
    return b"\n".join(out) + b"\n"


def gawk_scenarios() -> tuple[dict[str, list[str]], dict[str, bytes], list]:
    """gawk's scenarios (its arguments), the scripts and data they read, and
    the training runs: the startup prints the version, the steady state
    counts words (startup's and steady's first run) and sums a CSV table;
    the held-out scripts (GAWK_SCRIPTS) read a table of numbers, prose, a
    server log and another CSV table."""
    inputs = {name: text.encode() for name, text in GAWK_SCRIPTS.items()}
    inputs["prose.txt"] = _text_lines(_text(300_000, 41), 72)
    inputs["sales.csv"] = _words_csv(15_000, 42)
    inputs["numbers.txt"] = _float_columns(12_000, 43)
    inputs["other-prose.txt"] = _text_lines(_text(400_000, 44), 60)
    inputs["server.log"] = _log(700_000, 45)
    inputs["orders.csv"] = _words_csv(12_000, 46)
    training = [("startup", ["--version"]),
                ("steady", ["-f", "train-words.awk", "prose.txt"]),
                ("steady", ["-f", "train-sums.awk", "sales.csv"])]
    scenarios = {"startup": ["--version"], "steady": training[1][1],
                 "heldout": ["-f", "heldout-float.awk", "numbers.txt"],
                 "heldout-regex": ["-f", "heldout-regex.awk", "other-prose.txt"],
                 "heldout-sort": ["-f", "heldout-sort.awk", "other-prose.txt"],
                 "heldout-log": ["-f", "heldout-log.awk", "server.log"],
                 "heldout-printf": ["-f", "heldout-printf.awk", "orders.csv"]}
    return scenarios, inputs, training


def gawk(work: Path, log: Callable[[str], None]) -> dict:
    """GNU awk 5.2 (Debian package `gawk`), the text-processing language's
    interpreter, which bench/pgo_flow.py builds by its autotools build (its
    `gawk` executable and the library it links); the scenarios are
    gawk_scenarios(). Its output is what it prints."""
    tree = fetch_source("gawk", work / "src-gawk", log)
    require_files(tree, ("configure", "interpret.h", "support/Makefile.in"))
    scenarios, inputs, training = gawk_scenarios()
    return {"name": "gawk", "dir": tree, "exe_name": "gawk",
            "scenarios": scenarios, "inputs": inputs, "training": training}


PROGRAMS = {"zstd": zstd, "expat": expat, "lua": lua, "sqlite": sqlite}

#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The guided flow (`kiln pgo`) on the sample application, against stock PGO.

Generates the sample application (bench/sample-app/generate.py) with a plain
Makefile of its own (C with -std=c11, C++ with -std=c++17, linked by $(CXX)),
then builds it twice from clean copies:

  flow   kiln pgo instrument -- make -jN
         kiln pgo run --scenario=startup -- ./kiln-sample startup
         kiln pgo run --scenario=steady  -- ./kiln-sample steady
         kiln pgo optimize -- make -jN
  stock  the same Makefile with CC=clang CXX=clang++: -O2 -fprofile-generate
         -ftemporal-profile, the same two runs, llvm-profdata merge, then
         -O2 -flto=thin -fprofile-use linked by ld.lld (its default
         call-graph sort, cdsort): stock LLVM 22 PGO + ThinLTO

and measures each optimized program as bench/run.py does (lib/pages.py):
startup pages (distinct 4 KiB pages of functions the startup run executed)
and their lower bound, steady-state pages, Ir of the steady run and of a
held-out run no training executes (`mixed --input-seed 2`; callgrind),
cachegrind's simulated I1 misses of those two runs (and of the held-out
runs in a fully associative I1 of the same size, "one set": the footprint
without the set conflicts), .text bytes; the
programs' outputs must be identical. It also reports each build's CPU time
(user + sys of every process the build waited for), so that the flow's own
cost (the wrapper, the profile handling) shows against the same build
without it: the instrument phases compile with the same flags; and the
optimize phase's wall time.

  python3 bench/pgo_flow.py [--work-dir DIR] [--jobs N] [--sample-size tiny]
                            [--program sample|zstd|lua|sqlite|expat-autotools|expat-cmake|jsoncpp|ninja|git|gawk]
                            [--variants LIST] [--references all|fe,cs,bp,bolt,fe-bolt]
                            [--stale-revision N] [--overhead-rounds N]

--references adds the other stock pipelines a user would pick, each a row
after the first (stock IR PGO + ThinLTO, the reference of every ratio):
`fe` (stock FE PGO+ThinLTO: the same build and training runs with
front-end instrumentation, -fprofile-instr-generate, then -flto=thin
-fprofile-use as above), `cs` (stock IR PGO+CSPGO+ThinLTO: a build with the
IR profile P and -fcs-profile-generate, the same training runs, P and their
context-sensitive profiles merged, the program built with that profile),
`bp` (stock PGO+ThinLTO+bp: the IR program relinked with lld's
--bp-startup-sort=function and the startup run's temporal profile), `bolt`
(BOLT: BOLT on the IR program, instrumented and trained on the same runs)
and `fe-bolt` (BOLT on FE PGO: the same on the front-end PGO program);
`all` is every one. After the tables, a table names the best stock row of
each held-out workload (the lowest Ir in all among every row but kiln
pgo's), kiln pgo's ratio to it and to their sum, and kiln pgo's held-out I1
misses against the lowest of the bp and BOLT rows present; the same in
best-stock.json in the work directory.

--program zstd runs the same comparison on zstd (Debian's source package,
fetched with `apt-get source`, lib/programs.py), with a plain Makefile of the
same shape; its held-out run compresses other data at another level.

--program expat-autotools and --program expat-cmake build expat 2.5's xmlwf
(Debian's source package) by the project's own build instead of a generated
Makefile, for the flow and for stock alike: `./configure --disable-shared
... && make -jN` (configure generated first by its buildconf.sh, as a
release tarball ships it), or `cmake -S . -B b -DEXPAT_SHARED_LIBS=OFF ...
&& cmake --build b -jN`. The stock builds pass their compilers and flags as
configure variables (CC, CFLAGS, LDFLAGS) or CMake cache variables
(CMAKE_C_COMPILER, CMAKE_C_FLAGS, CMAKE_EXE_LINKER_FLAGS). Each run writes
xmlwf's canonical copy of its document (-d out), which is part of the
output compared; the held-out run parses an ISO-8859-1 document with
namespace processing (lib/programs.py, expat_scenarios).

--program jsoncpp and --program ninja build a C++ program by the project's
own CMake build: jsoncpp's test runner, and ninja, the build tool, whose
runs read manifests generated over a staged tree of empty sources
(lib/programs.py, ninja_scenarios).

--program git builds git 2.39 (2.4 to 3.7 MB of code) by its own Makefile
(`make -jN git`, without the optional libraries); its runs read a generated
bare repository of 1,200 commits (lib/programs.py, git_scenarios), with no
system or user git configuration.

--program gawk builds GNU awk 5.2 by its autotools build (`./configure &&
make -jN -C support && make -jN gawk`); its runs are awk scripts on
generated prose, tables and a server log (lib/programs.py, gawk_scenarios),
in the C.UTF-8 locale.

--variants runs `kiln pgo optimize` once per named variant on the same
training (the workspace is reused; optimize removes the previous build's
outputs), so each transform can be judged alone and together on the held-out
run: `default` (what optimize does), `no-split`, `no-cs`, `order-only`
(neither), `no-order`, `no-block` (`--block-layout=off`: function-level
layout only), `no-partial-training` (the compile profile keeps the
functions no training ran, as code that never runs), `+untrained-size`
(the code no training ran optimized for size once inlined into),
`no-bind-hot-imports` (every import called through the PLT), `icp-stock` (LLVM's
indirect-call promotion thresholds), `+cs-compile` and
`icp-stock+cs-compile` (the context-sensitive profiles in the final links'
backends too, as stock CSPGO's), and `+inline`, `+section-placement`, `+strtab` (the default
plus a transform optimize leaves off, added to the link as a user would:
-Wl,-mllvm,-kiln-...), and `+block-bolt`, `+block-callgrind` (the default
with `--block-layout=bolt` / `=callgrind`, which is the default's own).

--stale-revision N (sample only) measures a stale profile: the flow trains on
revision 0 of the sample (generate.py --revision; with --stale-diverges, a
revision whose edits change what the program computes, so it runs other
paths) and optimizes revision N with that workspace; the same revision N is also built with a fresh training
and with stock PGO from each profile, and the table says which share of the
fresh profile's startup-page saving the stale one keeps.

Every process the benchmark starts runs without address space layout
randomization where the system allows it, so that training runs count the
same every time (git's hash tables hash pointers).

Prints markdown tables; results.json (one top-level key per row) in the
work directory.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import pages, programs  # noqa: E402
from lib.hooks import BOLT_OPTIONS  # noqa: E402
from lib.measure import (CACHEGRIND_CACHE, CACHEGRIND_CACHE_ONE_SET,  # noqa: E402
                          heldout_names, read_cachegrind)

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
SAMPLE_SIZES = {"tiny": ["--functions", "300", "--tus", "8"], "default": []}

# name -> (kiln pgo optimize options, extra flags for every compile and
# link (the Makefile's EXTRA; {plugin} is Kiln's plugin), extra flags for
# the link (LDEXTRA)). A transform the flow leaves off is added as the docs
# tell a user to: in the ThinLTO pre-link compiles where it acts there, and
# in the link's backends.
VARIANTS = {
    "default": ([], "", ""),
    "no-split": (["--no-split"], "", ""),
    "no-cs": (["--no-cs"], "", ""),
    "order-only": (["--no-split", "--no-cs"], "", ""),
    "no-order": (["--no-order"], "", ""),
    "no-block": (["--block-layout=off"], "", ""),
    "+inline": ([], "-fpass-plugin={plugin} -mllvm -kiln-inline", "-Wl,-mllvm,-kiln-inline"),
    "+section-placement": ([], "", "-Wl,-mllvm,-kiln-section-placement"),
    "no-strtab": (["--no-strtab"], "", ""),
    "function-only": (["--no-split", "--block-layout=off"], "", ""),
    "plain": (["--no-split", "--no-cs", "--block-layout=off", "--no-strtab"], "", ""),
    "+block-bolt": (["--block-layout=bolt"], "", ""),
    "+block-callgrind": (["--block-layout=callgrind"], "", ""),
    "+cs-compile": (["--cs-compile"], "", ""),
    "no-partial-training": (["--no-partial-training"], "", ""),
    "+untrained-size": (["--untrained-size"], "", ""),
    "+no-pgso": (["--no-pgso"], "", ""),
    "no-bind-hot-imports": (["--no-bind-hot-imports"], "", ""),
    "icp-stock": (["--icp=stock"], "", ""),
    "icp-stock+cs-compile": (["--icp=stock", "--cs-compile"], "", ""),
}


# The stock PGO flavours stock() builds: the training build's instrumentation
# (compile and link). IR PGO carries the temporal profile (an IR-only
# option) for lld's balanced partitioning; front-end PGO has none. clang's
# -fprofile-use reads either flavour's profile.
PROFILE_GENERATE = {
    "ir": "-fprofile-generate={raw} -ftemporal-profile",
    "fe": "-fprofile-instr-generate",
}

# The rows of the stock pipelines (`--references`); the first row, stock IR
# PGO + ThinLTO, is always built and is the reference of every ratio.
STOCK_ROW = "stock PGO+ThinLTO"
REFERENCE_ROWS = {
    "fe": "stock FE PGO+ThinLTO",
    "cs": "stock IR PGO+CSPGO+ThinLTO",
    "bp": "stock PGO+ThinLTO+bp",
    "bolt": "BOLT",
    "fe-bolt": "BOLT on FE PGO",
}
# The stock code layouts after PGO, whose held-out I1 misses Kiln's are
# compared with.
LAYOUT_ROWS = (REFERENCE_ROWS["bp"], REFERENCE_ROWS["bolt"], REFERENCE_ROWS["fe-bolt"])
FLOW_PREFIX = "kiln pgo"


class MakeBuild:
    """The build of a tree with the plain Makefile write_makefile writes:
    `make -jN`, the compilers and the extra flags as make variables."""

    def command(self, jobs: int, tools: dict | None = None, extra: str = "",
                ldextra: str = "") -> list[str]:
        cmd = ["make", "-j%d" % jobs]
        if tools:
            cmd += ["CC=" + tools["clang"], "CXX=" + tools["clangxx"]]
        if extra:
            cmd.append("EXTRA=" + extra)
        if ldextra:
            cmd.append("LDEXTRA=" + ldextra)
        return cmd


class AutotoolsBuild:
    """A project's own autotools build in its tree: `./configure OPTIONS &&
    make -jN`, or one `make -jN ARGS` per entry of \\p makes in turn. The
    compilers, archiver and flags of the stock build are configure's
    variables; CFLAGS keeps autoconf's default `-g -O2` in front of the
    extra flags, and libtool links with CFLAGS and LDFLAGS."""

    def __init__(self, options: list[str], makes: list[list[str]] | None = None):
        self.options = options
        self.makes = makes or [[]]

    def command(self, jobs: int, tools: dict | None = None, extra: str = "",
                ldextra: str = "") -> list[str]:
        configure = ["./configure"] + self.options
        if tools:
            configure += ["CC=" + tools["clang"], "CXX=" + tools["clangxx"],
                          "AR=" + tools["ar"], "RANLIB=" + tools["ranlib"]]
        if extra:
            configure += ["CFLAGS=-g -O2 " + extra, "CXXFLAGS=-g -O2 " + extra]
        if ldextra:
            configure.append("LDFLAGS=" + ldextra)
        return ["sh", "-c", " && ".join(
            [shlex.join(configure)]
            + [shlex.join(["make", "-j%d" % jobs] + args) for args in self.makes])]


class CMakeBuild:
    """A project's own CMake build: `cmake -S . -B b OPTIONS && cmake --build
    b -jN`. The stock build's compilers, archiver and flags are cache
    variables (CMake links executables with CMAKE_C_FLAGS too); without a
    build type the project's flags carry no -O, so the stock flags start
    with the -O2 that `kiln pgo` puts in front of every compile."""

    def __init__(self, options: list[str]):
        self.options = options

    def command(self, jobs: int, tools: dict | None = None, extra: str = "",
                ldextra: str = "") -> list[str]:
        configure = ["cmake", "-S", ".", "-B", "b"] + self.options
        if tools:
            configure += ["-DCMAKE_C_COMPILER=" + tools["clang"],
                          "-DCMAKE_CXX_COMPILER=" + tools["clangxx"],
                          "-DCMAKE_AR=" + tools["ar"], "-DCMAKE_RANLIB=" + tools["ranlib"]]
        if extra:
            configure += ["-DCMAKE_C_FLAGS=-O2 " + extra, "-DCMAKE_CXX_FLAGS=-O2 " + extra]
        if ldextra:
            configure.append("-DCMAKE_EXE_LINKER_FLAGS=" + ldextra)
        return ["sh", "-c", "%s && %s" % (shlex.join(configure), shlex.join(
            ["cmake", "--build", "b", "-j%d" % jobs]))]


class Program:
    """What the flow builds: a source tree and its build (a plain Makefile by
    default), the executable's name and its path in the built tree, the
    training scenarios, the measured ones (the training's plus `heldout`,
    which no training runs), the input files they read (written next to the
    executable) and the directory, if any, into which the runs write the
    files that are part of their output."""

    def __init__(self, src: Path, exe: str, scenarios: dict, measured: dict,
                 inputs: dict, build=None, built: str | None = None,
                 output_dir: str | None = None, training: list | None = None,
                 env: dict | None = None):
        self.src, self.exe, self.scenarios = src, exe, scenarios
        # Environment variables every run of the program needs (main() sets
        # them for the whole benchmark, so that the flow's replays of the
        # training under callgrind get them too).
        self.env = env or {}
        # The training runs, (scenario, arguments) in order: one per
        # scenario unless the program trains a scenario on several runs.
        self.training = training or list(scenarios.items())
        self.measured, self.inputs = measured, inputs
        self.build = build or MakeBuild()
        self.built = built or exe
        self.output_dir = output_dir

    def stage_inputs(self, into: Path) -> None:
        # In the order given (ninja's up-to-date outputs are written after
        # their sources, so that none is older); a name may have directories.
        for name, data in self.inputs.items():
            path = into / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        self.clear_output(into)

    def clear_output(self, cwd: Path) -> None:
        """Empties the output directory (creates it), so that what a run
        wrote is all it holds afterwards."""
        if self.output_dir:
            shutil.rmtree(cwd / self.output_dir, ignore_errors=True)
            (cwd / self.output_dir).mkdir()

    def output(self, proc: subprocess.CompletedProcess, cwd: Path) -> bytes:
        """A run's output: its standard output, then each file it wrote into
        the output directory (name and contents, sorted by name)."""
        out = proc.stdout
        if self.output_dir:
            for path in sorted((cwd / self.output_dir).iterdir()):
                out += b"\n== %s ==\n" % path.name.encode() + path.read_bytes()
        return out


def log(msg: str) -> None:
    print("pgo_flow: " + msg, file=sys.stderr, flush=True)


# personality(2)'s ADDR_NO_RANDOMIZE.
ADDR_NO_RANDOMIZE = 0x0040000


def disable_address_randomization() -> bool:
    """Runs every process this one starts without address space layout
    randomization (personality(2), which exec keeps): a program whose hash
    tables hash pointers counts its training runs differently every time
    otherwise (git's hashmap_get and hashmap_remove), so that two runs of
    the benchmark would build different programs from the same training.
    The measured runs are valgrind's, whose addresses are fixed anyway.
    \\returns false, with a note, where the system refuses (a container's
    seccomp filter may): the benchmark runs all the same."""
    libc = ctypes.CDLL(None, use_errno=True)
    current = libc.personality(0xFFFFFFFF)
    if current != -1 and libc.personality(current | ADDR_NO_RANDOMIZE) != -1:
        return True
    log("note: address space layout randomization stays on (personality: %s): "
        "training runs of a program that hashes pointers may count differently "
        "from one benchmark run to the next" % os.strerror(ctypes.get_errno()))
    return False


class Step(Exception):
    pass


def run(cmd, cwd: Path, log_file: Path, env=None, stdin=None) -> tuple[subprocess.CompletedProcess, float, float]:
    """Runs cmd; returns (result, wall s, CPU s of it and its children)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, capture_output=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    log_file.write_bytes(b"$ " + " ".join(map(str, cmd)).encode() + b"\n" + proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise Step("%s failed (exit status %d); see %s" % (cmd[0], proc.returncode, log_file))
    return proc, wall, cpu


def write_makefile(app: Path, exe: str, sources: list[str], cflags: list[str],
                   linker: str, libs: list[str] = ()) -> None:
    objs = ["obj/%s.o" % s for s in sources]
    flags = " ".join(cflags)
    lines = [
        "# Written by bench/pgo_flow.py: a plain Makefile, as a project has one.",
        "EXTRA =",
        "LDEXTRA =",
        "OBJS = " + " ".join(objs),
        "%s: $(OBJS)" % exe,
        "\t%s -O2 $(EXTRA) $(LDEXTRA) $(OBJS) -o $@%s" % (
            linker, "".join(" " + l for l in libs)),
        "obj/%.c.o: %.c",
        "\t@mkdir -p $(dir $@)",
        "\t$(CC) -std=c11 -O2 %s $(EXTRA) -c $< -o $@" % flags,
        "obj/%.cpp.o: %.cpp",
        "\t@mkdir -p $(dir $@)",
        "\t$(CXX) -std=c++17 -O2 %s $(EXTRA) -c $< -o $@" % flags,
        "",
    ]
    (app / "Makefile").write_text("\n".join(lines))


def sample_program(work: Path, args, revision: int = 0) -> Program:
    src = work / ("app" if revision == 0 else "app-r%d" % revision)
    diverges = ["--revision-diverges"] if revision and args.stale_diverges else []
    run([sys.executable, str(BENCH_DIR / "sample-app" / "generate.py"), "--out", str(src),
         "--revision", str(revision)] + diverges + SAMPLE_SIZES[args.sample_size], work,
        work / "logs" / ("generate-r%d.log" % revision))
    sources = [l.strip() for l in (src / "sources.txt").read_text().splitlines()
               if l.strip() and not l.startswith("#")]
    write_makefile(src, "kiln-sample", sources, ["-Isrc"], "$(CXX)")
    scenarios = {"startup": ["startup"], "steady": ["steady"]}
    # The held-out workload: other root functions and other input data than
    # the training's (bench/lib/configs.py).
    return Program(src, "kiln-sample", scenarios,
                   dict(scenarios, heldout=["mixed", "--input-seed", "2"]), {})


def fetch_into_app(work: Path, name: str, fetch) -> tuple[dict, Path]:
    """Fetches a real program of lib/programs.py (\\p fetch, the program's
    function there) and copies its tree to WORK/app; returns its
    description and the copy. A failed fetch is a Step named \\p name."""
    try:
        desc = fetch(work, log)
    except programs.FetchError as e:
        raise Step("%s: %s" % (name, e))
    src = work / "app"
    shutil.copytree(desc["dir"], src, symlinks=True)
    return desc, src


def fetched_program(work: Path, name: str, fetch, build, built_dir: str = "",
                    env: dict | None = None) -> Program:
    """A real program of lib/programs.py (\\p fetch) built by the project's
    own \\p build (its executable in \\p built_dir of the tree), trained on
    its description's training runs and measured on all its scenarios."""
    desc, src = fetch_into_app(work, name, fetch)
    sc = desc["scenarios"]
    return Program(src, desc["exe_name"], {k: sc[k] for k in ("startup", "steady")}, sc,
                   desc["inputs"], build=build, built=built_dir + desc["exe_name"],
                   training=desc["training"], env=env)


def makefile_program(work: Path, name: str) -> Program:
    """A real program of lib/programs.py (zstd, lua, sqlite) with a plain
    Makefile of its translation units, linked by $(CC)."""
    desc, src = fetch_into_app(work, name, programs.PROGRAMS[name])
    cflags = [f if not f.startswith(str(desc["dir"])) else
              str(src / Path(f).relative_to(desc["dir"])) for f in desc["cflags"]]
    write_makefile(src, desc["exe_name"], desc["sources"], cflags, "$(CC)",
                   desc.get("libs", []))
    sc = desc["scenarios"]
    return Program(src, desc["exe_name"], {k: sc[k] for k in ("startup", "steady")}, sc,
                   desc["inputs"], training=desc.get("training"))


# The project's own builds of expat 2.5: its shared library, manual page
# (docbook2man), examples and tests off; the static library and xmlwf on.
EXPAT_BUILDS = {
    "expat-autotools": (AutotoolsBuild(["--disable-shared", "--without-docbook",
                                        "--without-examples", "--without-tests"]),
                        "xmlwf/xmlwf"),
    "expat-cmake": (CMakeBuild(["-DEXPAT_SHARED_LIBS=OFF", "-DEXPAT_BUILD_DOCS=OFF",
                                "-DEXPAT_BUILD_EXAMPLES=OFF", "-DEXPAT_BUILD_TESTS=OFF"]),
                    "b/xmlwf/xmlwf"),
}


def expat_program(work: Path, kind: str) -> Program:
    """expat's tree, built by its autotools or its CMake build, with one
    change: a fixed hash salt (lib/programs.py, fix_expat_hash_salt), so that
    its training and held-out runs count the same every time. The Debian
    source has no configure script: it is generated once here (buildconf.sh,
    autoreconf), as a release tarball ships it, so that both builds of the
    comparison start from the same configured-nowhere tree."""
    desc, src = fetch_into_app(work, "expat", programs.expat)
    build, built = EXPAT_BUILDS[kind]
    if isinstance(build, AutotoolsBuild) and not (src / "configure").exists():
        if shutil.which("autoreconf") is None or shutil.which("libtoolize") is None:
            raise Step("expat: generating configure needs autoconf, automake and libtool "
                       "(apt-get install autoconf automake libtool)")
        run(["bash", "./buildconf.sh"], src, work / "logs" / "buildconf.log")
    try:
        programs.fix_expat_hash_salt(src)
    except programs.FetchError as e:
        raise Step("expat: %s" % e)
    if isinstance(build, CMakeBuild):
        # Debian's security patches test `#if XML_DTD == 1`, which the
        # autotools header satisfies (`#define XML_DTD 1`) but CMake's
        # template does not (`#cmakedefine XML_DTD` defines it empty): as
        # fetched, the CMake build fails for any compiler. Give the template
        # the autotools value.
        header = src / "expat_config.h.cmake"
        text = header.read_text()
        if "#cmakedefine XML_DTD\n" in text:
            header.write_text(text.replace("#cmakedefine XML_DTD\n",
                                           "#cmakedefine XML_DTD 1\n"))
    sc = desc["scenarios"]
    return Program(src, desc["exe_name"], {k: sc[k] for k in ("startup", "steady")}, sc,
                   desc["inputs"], build=build, built=built, output_dir=desc["output_dir"])


class CMakeTargetBuild(CMakeBuild):
    """A project's own CMake build of some of its targets only: `cmake
    --build b -jN --target T...` (their dependencies are built, the rest of
    the project is not)."""

    def __init__(self, options: list[str], targets: list[str]):
        super().__init__(options)
        self.targets = targets

    def command(self, jobs: int, tools: dict | None = None, extra: str = "",
                ldextra: str = "") -> list[str]:
        cmd = super().command(jobs, tools, extra, ldextra)
        return cmd[:2] + [cmd[2] + " " + shlex.join(["--target"] + self.targets)]


class FileOutputProgram(Program):
    """A program whose runs write their output into files beside their input
    rather than into a directory of their own (jsoncpp's test runner: `X.json`
    -> `X.actual`, `X.rewrite`, `X.actual-rewrite`): the files of the run's
    directory that match \\p patterns (globs) are part of its output, after
    its standard output (name and contents, sorted by name), and are removed
    before each run."""

    def __init__(self, *args, patterns: tuple = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.patterns = tuple(patterns)

    def output_files(self, cwd: Path) -> list[Path]:
        return sorted({p for pattern in self.patterns for p in cwd.glob(pattern)
                       if p.is_file()})

    def clear_output(self, cwd: Path) -> None:
        super().clear_output(cwd)
        for path in self.output_files(cwd):
            path.unlink()

    def output(self, proc: subprocess.CompletedProcess, cwd: Path) -> bytes:
        out = super().output(proc, cwd)
        for path in self.output_files(cwd):
            out += b"\n== %s ==\n" % path.name.encode() + path.read_bytes()
        return out


# jsoncpp's own CMake build (Release, its default build type: -O3 -DNDEBUG
# after the compile flags, for the flow and for stock alike) of its static
# library and its test runner only: no shared or object library, no unit
# test program (nor its run after the build), no pkg-config or CMake package
# files, no examples.
JSONCPP_BUILD = CMakeTargetBuild(
    ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF", "-DBUILD_STATIC_LIBS=ON",
     "-DBUILD_OBJECT_LIBS=OFF", "-DJSONCPP_WITH_TESTS=ON",
     "-DJSONCPP_WITH_POST_BUILD_UNITTEST=OFF", "-DJSONCPP_WITH_PKGCONFIG_SUPPORT=OFF",
     "-DJSONCPP_WITH_CMAKE_PACKAGE=OFF", "-DJSONCPP_WITH_EXAMPLE=OFF"],
    ["jsontestrunner_exe"])


def jsoncpp_program(work: Path) -> Program:
    """jsoncpp's tree (lib/programs.py, jsoncpp) built by its own CMake build
    (JSONCPP_BUILD), for the flow and for stock alike; the program is its
    test runner, whose runs write their output beside the document they
    parse (FileOutputProgram)."""
    desc, src = fetch_into_app(work, "jsoncpp", programs.jsoncpp)
    sc = desc["scenarios"]
    return FileOutputProgram(src, desc["exe_name"], {k: sc[k] for k in ("startup", "steady")},
                             sc, desc["inputs"], build=JSONCPP_BUILD,
                             built="b/bin/" + desc["exe_name"], training=desc["training"],
                             patterns=desc["output_files"])


# ninja's own CMake build of its executable only (no test program), without
# a build type: the project's Release type turns on its own LTO (CMake's
# IPO), which would give the stock builds and the flow's other links than
# the ones the benchmark asks for.
NINJA_BUILD = CMakeTargetBuild(["-DBUILD_TESTING=OFF"], ["ninja"])


def ninja_program(work: Path) -> Program:
    """ninja's tree (lib/programs.py, ninja) built by its own CMake build
    (NINJA_BUILD), for the flow and for stock alike; its runs read the
    generated manifests and tree staged beside it (lib/programs.py,
    ninja_scenarios) and print their output."""
    return fetched_program(work, "ninja", programs.ninja, NINJA_BUILD, built_dir="b/")

class GitBuild:
    """git's own Makefile, its `git` executable only: `make -jN git` without
    the optional libraries (curl, OpenSSL, expat, gettext, Perl, Python,
    Tcl/Tk: the SHA-1 and SHA-256 code is git's own). The stock builds pass
    the compilers, archiver and flags as make variables, CFLAGS with the
    Makefile's own default (`-g -O2 -Wall`) in front of the extra flags;
    git links with CFLAGS and LDFLAGS."""

    OPTIONS = ["NO_CURL=1", "NO_OPENSSL=1", "NO_EXPAT=1", "NO_GETTEXT=1", "NO_TCLTK=1",
               "NO_PERL=1", "NO_PYTHON=1"]

    def command(self, jobs: int, tools: dict | None = None, extra: str = "",
                ldextra: str = "") -> list[str]:
        cmd = ["make", "-j%d" % jobs, "git"] + self.OPTIONS
        if tools:
            cmd += ["CC=" + tools["clang"], "AR=" + tools["ar"]]
        if extra:
            cmd.append("CFLAGS=-g -O2 -Wall " + extra)
        if ldextra:
            cmd.append("LDFLAGS=" + ldextra)
        return cmd


# What every run of git gets: no system or user configuration (the machine's
# would change what git prints and does).
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}


def git_program(work: Path) -> Program:
    """git's tree (lib/programs.py, git) built by its own Makefile
    (GitBuild), for the flow and for stock alike; its runs read the
    generated bare repository staged beside it (lib/programs.py,
    git_scenarios) and print their output."""
    return fetched_program(work, "git", programs.git, GitBuild(), env=GIT_ENV)


# gawk's autotools build of its executable: the library in support/ first,
# then the `gawk` target (`make` alone would also build the manual, whose
# Texinfo source Debian's source package does not ship, the extensions and
# the translations).
GAWK_BUILD = AutotoolsBuild([], [["-C", "support"], ["gawk"]])
# Every run of gawk reads its input as UTF-8 text.
GAWK_ENV = {"LC_ALL": "C.UTF-8"}


def gawk_program(work: Path) -> Program:
    """gawk's tree (lib/programs.py, gawk) built by its autotools build
    (GAWK_BUILD), for the flow and for stock alike; its runs read the
    scripts and data staged beside it (lib/programs.py, gawk_scenarios) and
    print their output."""
    return fetched_program(work, "gawk", programs.gawk, GAWK_BUILD, env=GAWK_ENV)


def strip_debug_info(exe: Path, tools: dict) -> None:
    """Removes the DWARF of a program built with -g (autoconf's default
    CFLAGS), which this valgrind cannot read; the symbol table and every
    allocated section, .text included, stay as they are. A program without
    debug sections is left untouched."""
    sections = subprocess.run([tools["readelf"], "-S", "-W", str(exe)], capture_output=True,
                              text=True, check=True).stdout
    if " .debug_" in sections:
        subprocess.run([tools["objcopy"], "--strip-debug", str(exe)], check=True)


def measure(prog: Program, exe: Path, work: Path, tools: dict, name: str) -> dict:
    """Runs every measured scenario natively and under callgrind from one
    directory (the same path length for every program) and counts pages."""
    stage = work / "run"
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir()
    prog.stage_inputs(stage)
    staged = stage / prog.exe
    shutil.copy2(exe, staged)
    strip_debug_info(staged, tools)
    logs = work / "logs" / name
    outputs = {}
    for mode, args in prog.measured.items():
        prog.clear_output(stage)
        proc, _, _ = run(["./" + prog.exe] + args, stage, logs / ("run-%s.log" % mode))
        outputs[mode] = prog.output(proc, stage)
    for mode, args in prog.measured.items():
        prog.clear_output(stage)
        out = logs / ("callgrind.%s.out" % mode)
        # Mangled names: own_ir() finds the program's functions among those
        # callgrind puts in no object (BOLT's moved code) by its symbols.
        proc, _, _ = run([tools["valgrind"], "--tool=callgrind", "--dump-instr=yes",
                          "--demangle=no", "--callgrind-out-file=%s" % out,
                          "./" + prog.exe] + args,
                         stage, logs / ("callgrind-%s.log" % mode))
        if prog.output(proc, stage) != outputs[mode]:
            raise Step("[%s] output under valgrind differs from the native run" % name)

    def i1_misses(mode: str, cache: list[str], tag: str) -> int:
        prog.clear_output(stage)
        out = logs / ("%s.%s.out" % (tag, mode))
        proc, _, _ = run([tools["valgrind"], "--tool=cachegrind", "--cache-sim=yes"] + cache
                         + ["--cachegrind-out-file=%s" % out, "./" + prog.exe]
                         + prog.measured[mode], stage, logs / ("%s-%s.log" % (tag, mode)))
        if prog.output(proc, stage) != outputs[mode]:
            raise Step("[%s] output under cachegrind differs from the native run" % name)
        misses = read_cachegrind(out).get("I1mr")
        if misses is None:
            raise Step("[%s] no I1mr total in %s" % (name, out))
        return misses

    # Simulated I1 misses (the caches of bench/run.py) of the steady and
    # held-out runs, and of the held-out runs in a fully associative I1 of
    # the same size: the footprint without the set conflicts
    # (lib/measure.py).
    held = heldout_modes(prog)
    i1 = {m: i1_misses(m, CACHEGRIND_CACHE, "cachegrind") for m in ["steady"] + held}
    i1_one_set = {m: i1_misses(m, CACHEGRIND_CACHE_ONE_SET, "cachegrind-one-set") for m in held}
    info = pages.read_binary(str(staged), tools["readelf"], tools["objdump"])
    startup = pages.startup_pages(pages.read_callgrind(str(logs / "callgrind.startup.out")),
                                  str(staged), info)
    steady_cg = pages.read_callgrind(str(logs / "callgrind.steady.out"))
    steady = pages.startup_pages(steady_cg, str(staged), info)
    text = text_bytes(tools["size"], staged)
    held_cg = {m: pages.read_callgrind(str(logs / ("callgrind.%s.out" % m))) for m in held}
    ir_each = {m: cg.total("Ir") for m, cg in held_cg.items()}
    # The program's own instructions, without the C library's and the
    # loader's: the string functions' counts depend on the alignment of the
    # strings they read, which moves with any layout (layout luck, not a
    # transform's cost).
    names = {f.name for f in info.funcs + info.labels}
    own_each = {m: own_ir(cg, staged, names) for m, cg in held_cg.items()}
    return {"outputs": {m: hashlib.sha256(o).hexdigest() for m, o in outputs.items()},
            "ir_steady": steady_cg.total("Ir"),
            "ir_heldout": sum(ir_each.values()), "ir_heldout_each": ir_each,
            "ir_steady_own": own_ir(steady_cg, staged, names),
            "ir_heldout_own": sum(own_each.values()), "ir_heldout_own_each": own_each,
            "i1_heldout_each": {m: i1[m] for m in held},
            "i1_one_set_heldout_each": i1_one_set,
            "i1_one_set_heldout": sum(i1_one_set.values()),
            "startup_pages": startup.pages,
            "startup_lower_bound": startup.lower_bound, "steady_pages": steady.pages,
            "steady_lower_bound": steady.lower_bound, "text_bytes": text,
            "i1_steady": i1["steady"], "i1_heldout": sum(i1[m] for m in held)}


def own_ir(cg, exe: Path, names: set[str] = frozenset()) -> int:
    """Ir of the program's own code in the callgrind profile \\p cg: of its
    object, and of the code valgrind attributes to no object (`???`) in
    functions named \\p names (the program's function symbols). A program
    BOLT rewrote has some of its code there: valgrind places one of its
    executable segments in no object but still names its functions; in
    other programs `???` holds only valgrind's own few instructions."""
    own = sum(cg.self_cost[pages.select_object(cg, str(exe))].values())
    unknown = cg.fn_at.get("???", {})
    return own + sum(cost for addr, cost in cg.self_cost.get("???", {}).items()
                     if pages.strip_recursion(unknown.get(addr, "")) in names)


def heldout_modes(prog: Program) -> list[str]:
    """The held-out workloads of a program, `heldout` first, then the
    `heldout-<name>` ones in name order: runs no training executes."""
    return heldout_names(prog.measured)


def flow_train(prog: Program, work: Path, args, name: str) -> tuple[Path, dict]:
    """`kiln pgo instrument` and one `kiln pgo run` per training scenario, in
    a copy of the program's tree; returns the tree and the phases' times."""
    app = work / name
    shutil.copytree(prog.src, app, symlinks=True)
    prog.stage_inputs(app)
    kiln = str(Path(args.kiln_bin) / "kiln")
    logs = work / "logs" / name
    times = {}
    log("%s: kiln pgo instrument -- %s" % (name, prog.build.command(args.jobs)[0]))
    _, times["instrument_wall_s"], times["instrument_cpu_s"] = run(
        [kiln, "pgo", "instrument", "--"] + prog.build.command(args.jobs), app,
        logs / "instrument.log")
    commands = [(mode, ["./" + prog.built] + margs) for mode, margs in prog.training]
    if args.train_through_script:
        # One command per scenario, as a user who trains with a shell loop
        # writes it: the program's runs in the training's order.
        scripts: dict[str, list[str]] = {}
        for mode, cmd in commands:
            scripts.setdefault(mode, []).append(" ".join(shlex.quote(a) for a in cmd))
        commands = [(mode, ["sh", "-c", " && ".join(lines)])
                    for mode, lines in scripts.items()]
    for i, (mode, cmd) in enumerate(commands):
        log("%s: kiln pgo run --scenario=%s -- %s" % (name, mode, " ".join(cmd)))
        _, wall, cpu = run(
            [kiln, "pgo", "run", "--scenario=" + mode, "--"] + cmd, app,
            logs / ("run-%d-%s.log" % (i, mode)))
        times["run_%s_wall_s" % mode] = times.get("run_%s_wall_s" % mode, 0.0) + wall
        times["run_%s_cpu_s" % mode] = times.get("run_%s_cpu_s" % mode, 0.0) + cpu
    return app, times


def replace_sources(app: Path, prog: Program) -> None:
    """Puts the sources of `prog` (another revision) into the trained tree
    `app`, keeping its workspace: the next release, built with the profile of
    the previous one."""
    for entry in prog.src.iterdir():
        dest = app / entry.name
        if dest.is_dir():
            shutil.rmtree(dest)
        elif dest.exists():
            dest.unlink()
        if entry.is_dir():
            shutil.copytree(entry, dest, symlinks=True)
        else:
            shutil.copy2(entry, dest)


def block_layout_fallbacks(status: str) -> list[str]:
    """The lines of `kiln pgo status` saying that a program kept its
    function-level layout because its block layout failed (the flow's one
    warning): a variant's figures would then be another variant's."""
    return [line.strip() for line in status.splitlines()
            if line.lstrip().startswith("block layout (") and ": not used (" in line]


def final_links(manifest: dict) -> list[dict]:
    """What the optimize phase's own last link of each program cost, from a
    workspace manifest (`optimize.final_links`; none in a manifest of a
    Kiln that did not record them)."""
    return [{"program": Path(c["program"]).name, "link": c.get("link", ""),
             "wall_s": c.get("wall_seconds", 0.0), "cpu_s": c.get("cpu_seconds", 0.0),
             "peak_mib": round(c.get("peak_rss_kib", 0) / 1024)}
            for c in (manifest.get("optimize") or {}).get("final_links", [])]


def flow_optimize(prog: Program, app: Path, work: Path, args, variant: str,
                  times: dict) -> dict:
    """`kiln pgo optimize` of one variant in the trained tree; the program is
    copied out (the next variant's optimize replaces it)."""
    options, extra, ldextra = VARIANTS[variant]
    kiln = str(Path(args.kiln_bin) / "kiln")
    logs = work / "logs" / app.name
    plugin = subprocess.run([kiln, "print-plugin-path"], capture_output=True, text=True,
                            check=True).stdout.strip()
    make = prog.build.command(args.jobs, extra=extra.format(plugin=plugin),
                              ldextra=ldextra)
    log("%s: kiln pgo optimize %s-- %s (%s)" % (app.name, "".join(o + " " for o in options),
                                                make[0], variant))
    times = dict(times)
    _, times["optimize_wall_s"], times["optimize_cpu_s"] = run(
        [kiln, "pgo", "optimize"] + options + ["--"] + make, app,
        logs / ("optimize-%s.log" % variant))
    status, _, _ = run([kiln, "pgo", "status"], app, logs / ("status-%s.log" % variant))
    (work / ("%s-status-%s.txt" % (app.name, variant))).write_bytes(status.stdout)
    fallbacks = block_layout_fallbacks(status.stdout.decode(errors="replace"))
    if fallbacks:
        raise Step("[%s] the block layout fell back to the function-level program, "
                   "so these would not be the variant's figures: %s"
                   % (variant, "; ".join(fallbacks)))
    times["final_links"] = final_links(
        json.loads((app / ".kiln" / "manifest.json").read_text()))
    exe = work / "programs" / ("%s-%s" % (app.name, variant)) / prog.exe
    exe.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(app / prog.built, exe)
    # kiln pgo optimize writes kiln report's page at its end; the next
    # variant's optimize replaces it, so each variant keeps a copy.
    report = app / ".kiln" / "report"
    if (report / "report.html").exists():
        shutil.copytree(report, exe.parent / "report")
        log("%s: kiln report (%s): %s" % (app.name, variant,
                                          exe.parent / "report" / "report.html"))
    return {"exe": exe, "times": times}


def text_bytes(size_tool: str, binary) -> int:
    """The bytes of \\p binary's .text sections (llvm-size -A)."""
    size = subprocess.run([size_tool, "-A", str(binary)], capture_output=True,
                          text=True, check=True).stdout
    return sum(int(line.split()[1]) for line in size.splitlines()
               if line.startswith(".text"))


def parse_references(text: str) -> list[str]:
    """The reference names of a `--references` value (`all`: every one, in
    REFERENCE_ROWS' order); ValueError names an unknown one."""
    names = [r for r in text.split(",") if r]
    unknown = [r for r in names if r not in REFERENCE_ROWS and r != "all"]
    if unknown:
        raise ValueError("unknown %s (valid: %s, or all)" % (", ".join(unknown),
                                                             ", ".join(REFERENCE_ROWS)))
    return [r for r in REFERENCE_ROWS if r in names or "all" in names]


def training_runs(prog: Program, app: Path, raw: Path, logs: Path) -> list[str]:
    """Every training run of \\p prog's instrumented program in \\p app, each
    writing its own raw profile into \\p raw; returns the raw profiles."""
    for i, (mode, margs) in enumerate(prog.training):
        env = dict(os.environ, LLVM_PROFILE_FILE=str(raw / ("%s-%%p-%%m.profraw" % mode)))
        run(["./" + prog.built] + margs, app, logs / ("run-%d-%s.log" % (i, mode)), env=env)
    return sorted(str(p) for p in raw.glob("*.profraw"))


def profile_use(profile: Path) -> str:
    """The compile and link flags of a stock PGO + ThinLTO build with
    \\p profile (the link passes it to the backends, which read its
    context-sensitive records if it has any)."""
    return "-flto=thin -fprofile-use=%s -Wno-backend-plugin" % profile


def instrumented_training(prog: Program, work: Path, args, tools: dict, name: str,
                          generate: str, what: str,
                          tree: Optional[Path] = None) -> tuple[Path, Path, list[str], dict]:
    """In a copy of \\p prog's tree (\\p tree, or work/name): the build with
    the instrumentation flags \\p generate ({raw}: the raw profiles'
    directory) at compile and link, then every training run. \\returns the
    tree, its logs (work/logs/name), the raw profiles and the build's
    times."""
    app = tree or work / name
    shutil.copytree(prog.src, app, symlinks=True)
    prog.stage_inputs(app)
    logs = work / "logs" / name
    raw = app / "raw"
    times = {}
    gen = generate.format(raw=raw)
    log("%s: %s (%s)" % (name, what, gen))
    _, times["instrument_wall_s"], times["instrument_cpu_s"] = run(
        prog.build.command(args.jobs, tools, gen, "-fuse-ld=%s" % tools["ldlld"]), app,
        logs / "instrument.log")
    return app, logs, training_runs(prog, app, raw, logs), times


def build_with_profile(build: Program, app: Path, profile: Path, args, tools: dict,
                       logs: Path, times: dict, what: str) -> Path:
    """\\p build's tree, fresh in \\p app, built with \\p profile (profile_use)
    and ld.lld; its times go into \\p times. \\returns the program."""
    shutil.rmtree(app)
    shutil.copytree(build.src, app, symlinks=True)
    log("%s: %s build" % (app.name, what))
    _, times["optimize_wall_s"], times["optimize_cpu_s"] = run(
        build.build.command(args.jobs, tools, profile_use(profile),
                            "-fuse-ld=%s" % tools["ldlld"]), app, logs / "optimize.log")
    return app / build.built


def stock(train: Program, build: Program, work: Path, args, tools: dict,
          name: str = "stock", flavour: str = "ir") -> dict:
    """Stock PGO + ThinLTO: the instrumented build (\\p flavour: IR or
    front-end instrumentation, PROFILE_GENERATE) and training of `train`,
    then `build` (the same program, or its next revision) with that
    profile."""
    app, logs, raws, times = instrumented_training(
        train, work, args, tools, name, PROFILE_GENERATE[flavour], "instrumented build")
    merged = work / (name + ".profdata")
    run([tools["profdata"], "merge", "-o", str(merged)] + raws, app, logs / "merge.log")
    startup = None
    if flavour == "ir":
        # The startup run's own profile, with its temporal trace, for lld's
        # balanced partitioning.
        startup = work / (name + "-startup.profdata")
        run([tools["profdata"], "merge", "-o", str(startup)]
            + [r for r in raws if Path(r).name.startswith("startup-")], app,
            logs / "merge-startup.log")
    exe = build_with_profile(build, app, merged, args, tools, logs, times, "PGO + ThinLTO")
    return {"exe": exe, "times": times, "profile": merged,
            "startup_profile": startup, "tree": app}


def cs_profile_functions(show: str) -> int:
    """The functions of `llvm-profdata show --showcs` output (the profile's
    context-sensitive records)."""
    for line in show.splitlines():
        if line.startswith("Total functions:"):
            return int(line.split(":")[1])
    return 0


def cs_stock(prog: Program, ir: dict, work: Path, args, tools: dict,
             name: str = "stock-cs") -> dict:
    """Stock IR PGO + CSPGO + ThinLTO on the IR profile P of \\p ir (stock()'s
    result): a build with P and -fcs-profile-generate (the pre-link compiles
    mark the program's profile as context-sensitive, the link's ThinLTO
    backends instrument each function as it is after inlining), the same
    training runs, P and their profiles merged into P2, then the program
    built with P2.

    Both builds run where \\p ir's tree was built and trained, as a user's
    CSPGO builds run in the tree of the IR training: P names a file-local
    function by its source's path as the compile was given it (absolute in
    a CMake build), and in another tree every such function would be
    compiled without its counts. \\p ir's tree is parked meanwhile; this
    row's tree ends in work/name."""
    ir_tree = Path(ir["tree"])
    parked = ir_tree.with_name(ir_tree.name + "-parked")
    ir_tree.rename(parked)
    try:
        generate = "%s -fcs-profile-generate={raw}" % profile_use(ir["profile"])
        app, logs, raws, times = instrumented_training(
            prog, work, args, tools, name, generate, "context-sensitive instrumented build",
            tree=ir_tree)
        if not raws:
            raise Step("%s: the context-sensitive training runs wrote no profile" % name)
        merged = work / (name + ".profdata")
        run([tools["profdata"], "merge", "-o", str(merged), str(ir["profile"])] + raws, app,
            logs / "merge.log")
        show, _, _ = run([tools["profdata"], "show", "--showcs", str(merged)], app,
                         logs / "show-cs.log")
        if cs_profile_functions(show.stdout.decode(errors="replace")) == 0:
            raise Step("%s: %s has no context-sensitive record (see %s)"
                       % (name, merged, logs / "show-cs.log"))
        build_with_profile(prog, app, merged, args, tools, logs, times,
                           "PGO + CSPGO + ThinLTO")
    finally:
        # This row's tree, built or failed (kept for its logs), moves aside.
        final = work / name
        shutil.rmtree(final, ignore_errors=True)
        if ir_tree.exists():
            ir_tree.rename(final)
        parked.rename(ir_tree)
    return {"exe": final / prog.built, "times": times, "profile": merged,
            "startup_profile": None, "tree": final}


def relink_stock(prog: Program, built: dict, work: Path, args, tools: dict, name: str,
                 ldextra: str) -> dict:
    """The objects of a stock PGO + ThinLTO build (\\p built, stock()'s
    result) linked again with \\p ldextra and the build's own profile (make
    relinks only the program)."""
    app = built["tree"]
    exe = app / prog.built
    exe.unlink()
    log("%s: link with %s" % (name, ldextra))
    _, wall, cpu = run(prog.build.command(
        args.jobs, tools, profile_use(built["profile"]),
        "-fuse-ld=%s %s" % (tools["ldlld"], ldextra)), app, work / "logs" / name / "link.log")
    out = work / "programs" / name / prog.exe
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(exe, out)
    return {"exe": out, "times": {"optimize_wall_s": wall, "optimize_cpu_s": cpu}}


def bolt_row(prog: Program, built: dict, work: Path, args, tools: dict,
             name: str = "bolt") -> dict:
    """BOLT on a stock PGO + ThinLTO program (\\p built), as bench/run.py's
    BOLT row: linked with --emit-relocs, instrumented, every training run
    replayed on it, optimized with lib/hooks.py's BOLT_OPTIONS. \\p name
    names its directories."""
    linked = relink_stock(prog, built, work, args, tools, name, "-Wl,--emit-relocs")
    bdir = work / name
    logs = work / "logs" / name
    shutil.rmtree(bdir, ignore_errors=True)
    bdir.mkdir()
    prog.stage_inputs(bdir)
    instrumented = bdir / prog.exe
    run([tools["bolt"], str(linked["exe"]), "-instrument", "-o", str(instrumented),
         "--instrumentation-file=%s" % (bdir / "prof"), "--instrumentation-file-append-pid"],
        bdir, logs / "instrument.log")
    for i, (mode, margs) in enumerate(prog.training):
        run(["./" + prog.exe] + margs, bdir, logs / ("run-%d-%s.log" % (i, mode)))
    fdata = sorted(str(f) for f in bdir.glob("prof.*.fdata"))
    if not fdata:
        raise Step("%s: the instrumented runs wrote no profile" % name)
    merged, _, _ = run([tools["merge_fdata"]] + fdata, bdir, logs / "merge.log")
    (bdir / "merged.fdata").write_bytes(merged.stdout)
    out = work / "programs" / ("%s-optimized" % name) / prog.exe
    out.parent.mkdir(parents=True, exist_ok=True)
    run([tools["bolt"], str(linked["exe"]), "-o", str(out), "-data=%s" % (bdir / "merged.fdata")]
        + list(BOLT_OPTIONS), bdir, logs / "optimize.log")
    return {"exe": out, "times": linked["times"]}


def overhead(prog: Program, work: Path, args, tools: dict) -> list[float]:
    """The flow's own cost: the instrumented build through `kiln pgo
    instrument` (wrapper, logging, manifest) against the same build with the
    same flags by plain make, interleaved (the order alternates per round).
    Returns the per-round CPU ratios."""
    kiln = str(Path(args.kiln_bin) / "kiln")
    ratios = []
    for r in range(args.overhead_rounds):
        cpu = {}
        order = ("stock", "flow") if r % 2 == 0 else ("flow", "stock")
        for kind in order:
            app = work / ("overhead-%s" % kind)
            if app.exists():
                shutil.rmtree(app)
            shutil.copytree(prog.src, app, symlinks=True)
            logs = work / "logs" / ("overhead-%d-%s" % (r, kind))
            if kind == "flow":
                cmd = [kiln, "pgo", "instrument", "--"] + prog.build.command(args.jobs)
            else:
                gen = "-fprofile-generate=%s -ftemporal-profile" % (app / "raw")
                cmd = prog.build.command(args.jobs, tools, "-O2 " + gen,
                                         "-fuse-ld=%s" % tools["ldlld"])
            _, _, cpu[kind] = run(cmd, app, logs / "build.log")
        ratios.append(cpu["flow"] / cpu["stock"])
        log("overhead round %d: flow %.2f s, plain %.2f s CPU (%.4f)" % (
            r, cpu["flow"], cpu["stock"], ratios[-1]))
    return ratios


def worst_heldout(r: dict, ref: dict) -> float:
    """The highest Ir ratio of one held-out workload against the reference."""
    return max(r["ir_heldout_each"][m] / ref["ir_heldout_each"][m]
               for m in ref["ir_heldout_each"])


def table(results: dict, ref_name: str) -> str:
    ref = results[ref_name]
    rows = ["| build | Ir steady | vs stock | Ir held-out | vs stock | worst held-out "
            "| I1 steady | I1 held-out | I1 held-out, one set | .text bytes | startup pages "
            "| lower bound | steady pages | bound | instrument build CPU s | optimize wall s "
            "| optimize build CPU s |",
            "|:---|" + "---:|" * 16]
    for name, r in results.items():
        rows.append("| %s | {:,} | %.4f | {:,} | %.4f | %.4f | {:,} | {:,} | {:,} | {:,} | %d "
                    "| %d | %d | %d | %.1f | %.1f | %.1f |".format(
                        r["ir_steady"], r["ir_heldout"], r["i1_steady"], r["i1_heldout"],
                        r["i1_one_set_heldout"], r["text_bytes"]) % (
            name, r["ir_steady"] / ref["ir_steady"],
            r["ir_heldout"] / ref["ir_heldout"], worst_heldout(r, ref), r["startup_pages"],
            r["startup_lower_bound"], r["steady_pages"], r["steady_lower_bound"],
            r["times"].get("instrument_cpu_s", 0.0), r["times"]["optimize_wall_s"],
            r["times"]["optimize_cpu_s"]))
    return "\n".join(rows)


def heldout_table(results: dict, ref_name: str) -> str:
    """Ir of each held-out workload, as a ratio to the reference row (its
    own Ir in the reference row), the program's own Ir (without the shared
    libraries') and I1 misses likewise, in the 8-way I1 and in the fully
    associative one."""
    ref = results[ref_name]
    modes = list(ref["ir_heldout_each"])
    rows = ["| build | " + " | ".join("Ir %s" % m for m in modes) + " | "
            + " | ".join("own Ir %s" % m for m in modes) + " | "
            + " | ".join("I1 %s" % m for m in modes) + " | "
            + " | ".join("I1 one set %s" % m for m in modes) + " |",
            "|:---|" + "---:|" * (4 * len(modes))]
    for name, r in results.items():
        cells = []
        for key in ("ir_heldout_each", "ir_heldout_own_each", "i1_heldout_each",
                    "i1_one_set_heldout_each"):
            for m in modes:
                cells.append("{:,}".format(r[key][m]) if name == ref_name else
                             "%.4f" % (r[key][m] / ref[key][m]))
        rows.append("| %s | %s |" % (name, " | ".join(cells)))
    return "\n".join(rows)


def kept_share(results: dict, fresh_stock: str, stale_stock: str, fresh: str,
               stale: str) -> str:
    """The share of the fresh profile's startup-page saving that the stale
    profile keeps, against stock PGO from the same profile and from the fresh
    one."""
    saving = results[fresh_stock]["startup_pages"] - results[fresh]["startup_pages"]
    if saving <= 0:
        return "the fresh profile saves no startup page: no share to report"
    same = results[stale_stock]["startup_pages"] - results[stale]["startup_pages"]
    vs_fresh = results[fresh_stock]["startup_pages"] - results[stale]["startup_pages"]
    return ("startup-page saving: fresh profile %d pages; stale profile %d against stock "
            "PGO from the same stale profile (%.0f%% kept), %d against stock PGO from a "
            "fresh profile (%.0f%% kept)" % (saving, same, 100.0 * same / saving, vs_fresh,
                                             100.0 * vs_fresh / saving))


def stock_rows(results: dict) -> list[str]:
    """The rows of stock pipelines, in table order: every row but the
    flow's (`kiln pgo ...`)."""
    return [name for name in results if not name.startswith(FLOW_PREFIX)]


def best_stock_rows(results: dict) -> dict[str, str]:
    """For each held-out workload (those of the first stock row), the stock
    row with the lowest Ir in all, the first in table order on a tie."""
    rows = stock_rows(results)
    best = {}
    for mode in results[rows[0]]["ir_heldout_each"]:
        having = [n for n in rows if mode in results[n].get("ir_heldout_each", {})]
        best[mode] = min(having, key=lambda n: results[n]["ir_heldout_each"][mode])
    return best


def flow_row(results: dict) -> str | None:
    """The flow's row judged against the stock rows: `kiln pgo` (the
    default variant), else the first variant measured."""
    if FLOW_PREFIX in results:
        return FLOW_PREFIX
    return next((n for n in results if n.startswith(FLOW_PREFIX)), None)


def best_stock(results: dict, flow: str) -> dict:
    """The flow's row \\p flow against the best stock row of each held-out
    workload (best_stock_rows: Ir in all), their sums over the workloads, and
    its summed held-out I1 misses against the lowest of the stock layout rows
    present (LAYOUT_ROWS: lld's balanced partitioning, BOLT; None without
    one)."""
    f = results[flow]
    workloads = {}
    for mode, row in best_stock_rows(results).items():
        ir = results[row]["ir_heldout_each"][mode]
        workloads[mode] = {"row": row, "ir": ir, "flow_ir": f["ir_heldout_each"][mode],
                           "ratio": f["ir_heldout_each"][mode] / ir}
    best_sum = sum(w["ir"] for w in workloads.values())
    flow_sum = sum(w["flow_ir"] for w in workloads.values())
    layout = [n for n in results if n in LAYOUT_ROWS and "i1_heldout" in results[n]]
    i1 = None
    if layout and "i1_heldout" in f:
        row = min(layout, key=lambda n: results[n]["i1_heldout"])
        i1 = {"rows": layout, "row": row, "misses": results[row]["i1_heldout"],
              "flow_misses": f["i1_heldout"],
              "ratio": f["i1_heldout"] / results[row]["i1_heldout"]}
    return {"flow_row": flow, "workloads": workloads,
            "sum": {"ir": best_sum, "flow_ir": flow_sum, "ratio": flow_sum / best_sum},
            "i1": i1}


def best_stock_table(summary: dict) -> str:
    """The table of best_stock(): one line per held-out workload, the sum,
    and the I1 line."""
    flow = summary["flow_row"]
    rows = ["| held-out workload | best stock row (lowest Ir in all) | its Ir | %s Ir "
            "| %s / best |" % (flow, flow), "|:---|:---|---:|---:|---:|"]
    for mode, w in summary["workloads"].items():
        rows.append("| %s | %s | {:,} | {:,} | %.4f |".format(w["ir"], w["flow_ir"])
                    % (mode, w["row"], w["ratio"]))
    total = summary["sum"]
    rows.append("| sum | (best of each workload) | {:,} | {:,} | %.4f |".format(
        total["ir"], total["flow_ir"]) % total["ratio"])
    i1 = summary["i1"]
    if i1:
        rows.append("\nI1 held-out misses, summed over the held-out workloads: lowest of "
                    "%s: %s, {:,}; %s {:,}, %.4fx".format(i1["misses"], i1["flow_misses"])
                    % (", ".join(i1["rows"]), i1["row"], flow, i1["ratio"]))
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "pgo-flow"))
    ap.add_argument("--kiln-bin", default=str(REPO_DIR / "build" / "bin"))
    ap.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--program", choices=("sample", "zstd", "lua", "sqlite")
                    + tuple(EXPAT_BUILDS) + ("jsoncpp", "ninja", "git", "gawk"),
                    default="sample")
    ap.add_argument("--sample-size", choices=sorted(SAMPLE_SIZES), default="default")
    ap.add_argument("--variants", default="default",
                    help="comma-separated optimize variants: %s" % ", ".join(VARIANTS))
    ap.add_argument("--stale-revision", type=int, default=0, metavar="N",
                    help="sample only: also optimize revision N of the sample with the "
                         "training of revision 0, against a fresh training")
    ap.add_argument("--stale-diverges", action="store_true",
                    help="with --stale-revision: the revision's edits change computed "
                         "values, so it runs other paths than the training saw")
    ap.add_argument("--references", default="",
                    help="comma-separated reference rows besides stock IR PGO + ThinLTO, "
                         "or all: fe (front-end PGO + ThinLTO), cs (IR PGO + CSPGO + "
                         "ThinLTO), bp (lld's --bp-startup-sort=function with the startup "
                         "run's temporal profile, on the IR PGO program), bolt (BOLT on the "
                         "IR PGO program, trained on the same runs), fe-bolt (BOLT on the "
                         "front-end PGO program)")
    ap.add_argument("--train-through-script", action="store_true",
                    help="Kiln's rows: each scenario's training runs as one `kiln pgo run "
                         "-- sh -c '<run> && <run> ...'` instead of one run per program "
                         "start (the stock rows train as before)")
    ap.add_argument("--overhead-rounds", type=int, default=0,
                    help="also measure the flow's own cost: N interleaved pairs of "
                         "instrumented builds with and without kiln pgo")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    try:
        references = parse_references(args.references)
    except ValueError as e:
        ap.error("--references: %s" % e)
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown or not variants:
        ap.error("--variants: unknown %s (valid: %s)" % (", ".join(unknown) or "(none)",
                                                        ", ".join(VARIANTS)))
    if args.stale_revision and args.program != "sample":
        ap.error("--stale-revision needs --program sample (it edits the generator's model)")
    llvm = Path(args.llvm_bin)
    tools = {"clang": str(llvm / "clang"), "clangxx": str(llvm / "clang++"),
             "ldlld": str(llvm / "ld.lld"), "ar": str(llvm / "llvm-ar"),
             "ranlib": str(llvm / "llvm-ranlib"), "profdata": str(llvm / "llvm-profdata"),
             "readelf": str(llvm / "llvm-readelf"), "objdump": str(llvm / "llvm-objdump"),
             "objcopy": str(llvm / "llvm-objcopy"),
             "size": str(llvm / "llvm-size"), "bolt": str(llvm / "llvm-bolt"),
             "merge_fdata": str(llvm / "merge-fdata"),
             "valgrind": shutil.which("valgrind") or "valgrind"}
    work = Path(args.work_dir).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    t0 = time.monotonic()
    results = {}
    stale_rows = None
    try:
        if args.program == "sample":
            prog = sample_program(work, args)
        elif args.program in ("zstd", "lua", "sqlite"):
            prog = makefile_program(work, args.program)
        elif args.program == "jsoncpp":
            prog = jsoncpp_program(work)
        elif args.program == "ninja":
            prog = ninja_program(work)
        elif args.program == "git":
            prog = git_program(work)
        elif args.program == "gawk":
            prog = gawk_program(work)
        else:
            prog = expat_program(work, args.program)
        os.environ.update(prog.env)
        disable_address_randomization()
        ratios = overhead(prog, work, args, tools) if args.overhead_rounds else []

        def add(name: str, measured_prog: Program, build: dict) -> None:
            log("measuring %s" % name)
            results[name] = dict(measure(measured_prog, build["exe"], work, tools,
                                         name.replace(" ", "_").replace("+", "plus")),
                                 times=build["times"])

        if args.stale_revision:
            later = sample_program(work, args, args.stale_revision)
            r = args.stale_revision
            add("stock PGO+ThinLTO r%d, fresh profile" % r,
                later, stock(later, later, work, args, tools, "stock-fresh"))
            add("stock PGO+ThinLTO r%d, r0 profile" % r,
                later, stock(prog, later, work, args, tools, "stock-stale"))
            app, times = flow_train(later, work, args, "flow-fresh")
            add("kiln pgo r%d, fresh profile" % r,
                later, flow_optimize(later, app, work, args, "default", times))
            app, times = flow_train(prog, work, args, "flow-stale")
            replace_sources(app, later)
            add("kiln pgo r%d, r0 profile" % r,
                later, flow_optimize(later, app, work, args, "default", times))
            names = list(results)
            stale_rows = kept_share(results, names[0], names[1], names[2], names[3])
        else:
            stock_build = stock(prog, prog, work, args, tools)
            add(STOCK_ROW, prog, stock_build)
            # Each row is measured before a later one relinks its tree.
            if "fe" in references or "fe-bolt" in references:
                fe_build = stock(prog, prog, work, args, tools, "stock-fe", "fe")
                if "fe" in references:
                    add(REFERENCE_ROWS["fe"], prog, fe_build)
            if "cs" in references:
                add(REFERENCE_ROWS["cs"], prog, cs_stock(prog, stock_build, work, args, tools))
            if "bp" in references:
                add(REFERENCE_ROWS["bp"], prog, relink_stock(
                    prog, stock_build, work, args, tools, "bp",
                    "-Wl,--irpgo-profile=%s -Wl,--bp-startup-sort=function"
                    % stock_build["startup_profile"]))
            if "bolt" in references:
                add(REFERENCE_ROWS["bolt"], prog, bolt_row(prog, stock_build, work, args, tools))
            if "fe-bolt" in references:
                add(REFERENCE_ROWS["fe-bolt"], prog,
                    bolt_row(prog, fe_build, work, args, tools, "fe-bolt"))
            app, times = flow_train(prog, work, args, "flow")
            for v in variants:
                add("kiln pgo" if v == "default" else "kiln pgo %s" % v, prog,
                    flow_optimize(prog, app, work, args, v, times))
    except Step as e:
        log("error: %s" % e)
        return 1
    ref_name = next(iter(results))
    same = all(r["outputs"] == results[ref_name]["outputs"] for r in results.values())
    print("%s (%s)\n" % (args.program, "revision %d" % args.stale_revision
                           if args.stale_revision else "held-out runs: " + "; ".join(
                               " ".join(prog.measured[m]) for m in heldout_modes(prog))))
    print(table(results, ref_name))
    print("\nEach held-out workload (Ir; Ir of the program's own code, without the C "
          "library's; I1 misses; ratios to the first row):\n")
    print(heldout_table(results, ref_name))
    flow = flow_row(results) if not args.stale_revision else None
    summary = best_stock(results, flow) if flow else None
    if summary:
        print("\nThe best stock row of each held-out workload (every row but kiln pgo's):\n")
        print(best_stock_table(summary))
    if stale_rows:
        print("\n" + stale_rows)
    if ratios:
        print("\nflow's own cost (instrumented build CPU, kiln pgo / plain make), "
              "per round: %s; median %.4f" % (
                  ", ".join("%.4f" % x for x in ratios), sorted(ratios)[len(ratios) // 2]))
    for name, r in results.items():
        for c in r["times"].get("final_links", []):
            print("\n%s: final link of %s (%s): %.2f s, CPU %.2f s, peak memory %d MiB"
                  % (name, c["program"], c["link"], c["wall_s"], c["cpu_s"], c["peak_mib"]))
    print("\noutputs identical: %s; %.0f s in all" % ("yes" if same else "NO",
                                                      time.monotonic() - t0))
    (work / "results.json").write_text(json.dumps(
        {k: {kk: (vv if kk != "exe" else str(vv)) for kk, vv in v.items()}
         for k, v in results.items()}, indent=2, sort_keys=True))
    # Beside results.json, whose top-level keys are all rows.
    if summary:
        (work / "best-stock.json").write_text(json.dumps(summary, indent=2, sort_keys=True))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

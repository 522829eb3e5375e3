#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""String-table benchmark (issue 5): what `kiln-strtab` removes.

Builds each program in six configurations (CONFIGS below): -O2, full LTO and
ThinLTO, each stock (LLVM's RelLookupTableConverter alone) and with
`kiln-strtab`, and prints, per program and configuration:

  RELATIVE       R_X86_64_RELATIVE dynamic relocations (llvm-readelf -r;
                 .rela.dyn plus decoded .relr.dyn)
  dyn relocs     all dynamic relocations (.rela.dyn + .relr.dyn + .rela.plt)
  string relocs  relocations whose target is a C string (`kiln relocs --json`,
                 class "string")
  .data.rel.ro, .rodata, .text   output section sizes (llvm-size -A)
  lowered        `Lowered` remarks of kiln-strtab (tables rewritten), and in
                 parentheses the string entries they held (= relocations removed)
  missed         missed remarks of kiln-strtab (tables refused), by reason in
                 the notes
  output         the program's output (stdout, stderr, exit status of every
                 run) compared with the stock -O2 build's: "same" or DIFFERS

Programs: the generated sample application (`sample`, a PIE, as
bench/run.py builds it) and real C libraries from Debian source packages built
as shared libraries (bench/lib/libraries.py: `lua` = liblua 5.4, `expat` =
libexpat 2.5), each run through a driver program linked against the -O2
library and pointed at each configuration's library with LD_LIBRARY_PATH.

Ratios ("vs") are against the stock configuration of the same build mode,
measured in the same run: O2+strtab vs O2, LTO+strtab vs LTO,
ThinLTO+strtab vs ThinLTO; the stock rows' ratios are against O2.

Single entry point, standard library only, deterministic (counts and sizes;
no time is a figure). Not part of the test suite. See bench/README.md.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import libraries, programs, report  # noqa: E402
from lib.common import (DEFAULT_LLVM_BIN, StepError, check_work_dir, run_cmd,  # noqa: E402
                        run_env, slug)
from lib.configs import SAMPLE_SIZES  # noqa: E402
from lib.measure import EXE_NAME, LANGUAGES, count_relocs, section_sizes  # noqa: E402
from lib.report import fmt_int, fmt_ratio  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_WORK_DIR = REPO_DIR / "build" / "bench-strtab"
DEFAULT_BUILD_DIR = REPO_DIR / "build"
PLUGIN_NAME = "KilnPlugin-22.so"
PROGRAM_NAMES = ["sample"] + sorted(libraries.LIBRARIES)



def log(msg: str) -> None:
    print("strtab: " + msg, file=sys.stderr, flush=True)


# ==========================================================================
# Configurations
# ==========================================================================

@dataclass(frozen=True)
class Config:
    name: str
    description: str
    lto: str          # "" (none), "full" or "thin"
    strtab: bool      # kiln-strtab enabled
    stock: str        # the stock configuration the ratios are against


CONFIGS = [
    Config("O2", "-O2, stock (RelLookupTableConverter alone)", "", False, "O2"),
    Config("O2+strtab", "-O2 with -fpass-plugin=KilnPlugin -mllvm -kiln-strtab",
           "", True, "O2"),
    Config("LTO", "-O2 -flto (full LTO), stock", "full", False, "O2"),
    Config("LTO+strtab", "-O2 -flto, linked by kiln-lld -mllvm -kiln-strtab "
           "(the pass runs in the merged module; same bitcode as LTO)", "full", True, "LTO"),
    Config("ThinLTO", "-O2 -flto=thin, stock", "thin", False, "O2"),
    Config("ThinLTO+strtab", "-O2 -flto=thin with the plugin and -kiln-strtab at compile "
           "time (pre-link) and kiln-lld -mllvm -kiln-strtab (backends)", "thin", True,
           "ThinLTO"),
]
CONFIG_NAMES = [c.name for c in CONFIGS]
REFERENCE = "O2"

# Remark-record flags (no effect on code generation).
REMARK_CFLAGS = ["-fsave-optimization-record=yaml", "-foptimization-record-passes=kiln-strtab"]


# ==========================================================================
# Pure helpers (unit-tested in tests/test_strtab_helpers.py)
# ==========================================================================

def _unquote(v: str) -> str:
    v = v.strip()
    if len(v) >= 2 and v[0] == v[-1] == "'":
        return v[1:-1].replace("''", "'")
    if len(v) >= 2 and v[0] == v[-1] == '"':
        return v[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return v


def parse_remarks(text: str) -> list[dict]:
    """LLVM's YAML optimization remarks -> [{kind, pass, name, function, file,
    line, args: {key: value}}]. Only the subset LLVM writes is understood:
    one document per remark (`--- !Kind`), top-level `Pass:`, `Name:`,
    `Function:`, `DebugLoc: { File: ..., Line: ... }` and `Args:` as a list of
    `- Key: value` items (an item's own DebugLoc line is skipped). Repeated
    argument keys (several `String` pieces) keep the first value."""
    out: list[dict] = []
    cur: Optional[dict] = None
    in_args = False
    lines = iter(text.splitlines())
    for line in lines:
        m = re.match(r"^--- !(\w+)", line)
        if m:
            cur = {"kind": m.group(1), "pass": None, "name": None, "function": None,
                   "file": None, "line": None, "args": {}}
            out.append(cur)
            in_args = False
            continue
        if cur is None or line.startswith("..."):
            continue
        m = re.match(r"^(\w+):\s*(.*)$", line)
        if m:
            key, val = m.group(1), m.group(2)
            in_args = key == "Args"
            if key == "Pass":
                cur["pass"] = _unquote(val)
            elif key == "Name":
                cur["name"] = _unquote(val)
            elif key == "Function":
                cur["function"] = _unquote(val)
            elif key == "DebugLoc":
                while "}" not in val:       # a long location is wrapped
                    val += " " + next(lines, "}").strip()
                f = re.search(r"File:\s*('(?:[^']|'')*'|\"[^\"]*\"|[^,}]+)", val)
                ln = re.search(r"Line:\s*(\d+)", val)
                cur["file"] = _unquote(f.group(1)) if f else None
                cur["line"] = int(ln.group(1)) if ln else None
            continue
        m = re.match(r"^\s+- (\w+):\s*(.*)$", line)
        if m and in_args:
            cur["args"].setdefault(m.group(1), _unquote(m.group(2)))
    return out


def summarize_remarks(remarks: Sequence[dict], pass_name: str = "kiln-strtab") -> dict:
    """Counts of one pass's remarks: tables lowered and the figures of their
    `Lowered` remarks (Strings = relocations removed, OldBytes, NewBytes),
    and the missed remarks by name (the refusal reason), with their tables."""
    lowered = strings = old_bytes = new_bytes = 0
    missed: dict[str, int] = {}
    missed_tables: dict[str, list[str]] = {}
    lowered_tables: list[str] = []
    for r in remarks:
        if r["pass"] != pass_name:
            continue
        if r["kind"] == "Passed" and r["name"] == "Lowered":
            lowered += 1
            a = r["args"]
            strings += int(a.get("Strings", 0) or 0)
            old_bytes += int(a.get("OldBytes", 0) or 0)
            new_bytes += int(a.get("NewBytes", 0) or 0)
            lowered_tables.append(a.get("Table", "?"))
        elif r["kind"] == "Missed":
            missed[r["name"]] = missed.get(r["name"], 0) + 1
            where = r["args"].get("Table", "?")
            if r.get("file"):
                where += " (%s:%s)" % (os.path.basename(r["file"]), r.get("line"))
            missed_tables.setdefault(r["name"], []).append(where)
    return {"lowered": lowered, "strings": strings, "old_bytes": old_bytes,
            "new_bytes": new_bytes, "missed": sum(missed.values()),
            "missed_by_reason": dict(sorted(missed.items(), key=lambda kv: (-kv[1], kv[0]))),
            "missed_tables": {k: sorted(v) for k, v in sorted(missed_tables.items())},
            "lowered_tables": sorted(lowered_tables)}


def reloc_figures(readelf_counts: dict[str, int]) -> dict[str, int]:
    """measure.count_relocs output -> RELATIVE and total dynamic relocations
    (.rela.dyn + .relr.dyn + .rela.plt; RELR counted decoded)."""
    dyn = (".rela.dyn", ".relr.dyn", ".rela.plt")
    return {
        "relative": sum(readelf_counts.get("R_X86_64_RELATIVE@" + s, 0) for s in dyn),
        "total": sum(readelf_counts.get(s, 0) for s in dyn),
    }


def section_figures(sizes: dict[str, int]) -> dict[str, int]:
    """measure.section_sizes output -> .text (with .text.*), .rodata (with
    .rodata.*) and .data.rel.ro bytes."""
    def total(prefix):
        return sum(v for k, v in sizes.items() if k == prefix or k.startswith(prefix + "."))
    return {"text": total(".text"), "rodata": total(".rodata"),
            "data_rel_ro": sizes.get(".data.rel.ro", 0)}


def ratio(value: Optional[float], base: Optional[float]) -> Optional[float]:
    if value is None or base is None:
        return None
    if base == 0:
        return 1.0 if value == 0 else None
    return value / base


# ==========================================================================
# Building
# ==========================================================================

@dataclass
class Program:
    """What strtab.py builds: an executable (the sample app) or a shared
    library plus a driver."""

    name: str
    dir: Path
    sources: list[str]
    cflags: list[str]
    kind: str                     # "exe" or "shared"
    artifact: str                 # output file name
    libs: list[str]
    runs: dict[str, list[str]]    # run name -> arguments
    files: dict[str, bytes]
    driver: Optional[dict] = None
    version: str = ""


class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.work = Path(args.work_dir).resolve()
        self.llvm = Path(args.llvm_bin)
        self.clang = str(self.llvm / "clang")
        self.clangxx = str(self.llvm / "clang++")
        self.readelf = str(self.llvm / "llvm-readelf")
        self.size = str(self.llvm / "llvm-size")
        bdir = Path(args.kiln_build_dir)
        self.plugin = bdir / "lib" / PLUGIN_NAME
        self.kiln = bdir / "bin" / "kiln"
        self.kiln_lld = bdir / "bin" / "kiln-lld"
        self.jobs = max(1, args.jobs)
        self.compiled: dict[tuple, list[Path]] = {}

    def check_tools(self) -> None:
        for t in (self.clang, self.clangxx, self.readelf, self.size):
            if shutil.which(t) is None:
                raise StepError("tool not found: %s" % t)
        for t in (self.plugin, self.kiln, self.kiln_lld):
            if not Path(t).is_file():
                raise StepError("%s not found; build Kiln first (utils/kiln-dev.sh build)" % t)

    def versions(self) -> dict:
        def first(cmd):
            try:
                out = subprocess.run(cmd, capture_output=True, text=True).stdout
            except OSError:
                return "unknown"
            return (out.splitlines() or ["unknown"])[0].strip()
        rev = subprocess.run(["git", "-C", str(REPO_DIR), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        return {"clang": first([self.clang, "--version"]),
                "lld": first([str(self.llvm / "ld.lld"), "--version"]),
                "kiln_commit": rev or "unknown"}

    # ---------------------------------------------------------------- programs

    def sample_program(self) -> Program:
        out = self.work / "sample" / "app"
        if out.exists():
            shutil.rmtree(out)
        cmd = [sys.executable, str(BENCH_DIR / "sample-app" / "generate.py"), "--out", str(out)]
        cmd += SAMPLE_SIZES[self.args.sample_size]
        log("generating the sample app: " + shlex.join(cmd))
        run_cmd(cmd, self.work / "sample" / "logs" / "generate.log", "sample-app generation")
        sources = [l.strip() for l in (out / "sources.txt").read_text().splitlines()
                   if l.strip() and not l.lstrip().startswith("#")]
        it = ["--iterations", str(self.args.iterations)]
        return Program("sample", out, sources, ["-I", str(out / "src")], "exe",
                       EXE_NAME, [], {"startup": ["startup"], "steady": ["steady"] + it},
                       {}, version="generate.py %s" % (
                           " ".join(SAMPLE_SIZES[self.args.sample_size]) or "defaults"))

    def library_program(self, name: str) -> Program:
        pdir = self.work / name
        try:
            spec = libraries.LIBRARIES[name](self.work / "sources", log)
        except programs.FetchError as e:
            raise StepError("cannot fetch %s: %s" % (name, e)) from None
        gen = pdir / "gen"
        gen.mkdir(parents=True, exist_ok=True)
        for fname, data in spec.get("generated", {}).items():
            (gen / fname).write_bytes(data)
        # __FILE__ (assert messages) must not depend on --work-dir.
        cflags = ["-ffile-prefix-map=%s=%s" % (spec["dir"], spec["dir"].name)]
        cflags += [f.replace("{gen}", str(gen)) for f in spec["cflags"]]
        log("%s: %d translation units from %s" % (name, len(spec["sources"]), spec["dir"]))
        return Program(name, spec["dir"], spec["sources"], cflags, "shared", spec["soname"],
                       spec["libs"], spec["runs"], spec["files"], spec["driver"],
                       version="Debian source %s (%s)" % (spec["version_package"],
                                                          spec["dir"].name))

    # ------------------------------------------------------------------ flags

    def cflags(self, cfg: Config) -> list[str]:
        flags = ["-O2"] + {"": [], "full": ["-flto"], "thin": ["-flto=thin"]}[cfg.lto]
        # In full LTO the pass is not in the pre-link pipeline: the bitcode
        # is the stock one, and the pass runs at link time only.
        if cfg.strtab and cfg.lto != "full":
            flags += ["-fpass-plugin=%s" % self.plugin, "-mllvm", "-kiln-strtab"]
        return flags

    def ldflags(self, cfg: Config, out_dir: Path) -> list[str]:
        flags = ["-O2"]
        if cfg.lto == "full":
            flags += ["-flto"]
        elif cfg.lto == "thin":
            flags += ["-flto=thin", "-Wl,--thinlto-jobs=%d" % self.jobs]
        if cfg.strtab and cfg.lto:
            flags += ["-fuse-ld=%s" % self.kiln_lld, "-Wl,-mllvm,-kiln-strtab",
                      # (lld takes these options only in the separate form)
                      "-Wl,--opt-remarks-filename,%s" % (out_dir / "link-remarks.yaml"),
                      "-Wl,--opt-remarks-passes,kiln-strtab",
                      "-Wl,--opt-remarks-format,yaml"]
        else:
            flags += ["-fuse-ld=lld"]
        return flags

    # ---------------------------------------------------------------- compile

    def compile(self, prog: Program, cfg: Config, cdir: Path) -> list[Path]:
        flags = self.cflags(cfg)
        remarks = cfg.strtab and cfg.lto != "full"
        key = (prog.name, tuple(flags))
        if key in self.compiled:
            log("[%s/%s] reusing objects compiled with the same flags" % (prog.name, cfg.name))
            return self.compiled[key]
        pic = ["-fPIC"] if prog.kind == "shared" else []
        jobs = []
        for src in prog.sources:
            suffix = Path(src).suffix
            driver = self.clangxx if suffix == ".cpp" else self.clang
            lang = LANGUAGES[suffix][1] if prog.name == "sample" else []
            obj = cdir / "obj" / (src.replace("/", "_") + ".o")
            obj.parent.mkdir(parents=True, exist_ok=True)
            extra = (REMARK_CFLAGS + ["-foptimization-record-file=%s.opt.yaml" % obj]
                     if remarks else [])
            cmd = ([driver] + lang + prog.cflags + pic + flags + extra +
                   ["-c", str(prog.dir / src), "-o", str(obj)])
            jobs.append((src, obj, cmd))
        log("[%s/%s] compiling %d TUs (-j%d): %s" % (prog.name, cfg.name, len(jobs), self.jobs,
                                                   shlex.join(flags)))
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futs = [pool.submit(run_cmd, cmd,
                                cdir / "logs" / "compile" / (Path(src).name + ".log"),
                                "[%s/%s] compiling %s" % (prog.name, cfg.name, src))
                    for src, obj, cmd in jobs]
            try:
                for f in futs:
                    f.result()
            except StepError:
                for f in futs:
                    f.cancel()
                raise
        objs = [obj for _, obj, _ in jobs]
        self.compiled[key] = objs
        return objs

    def link(self, prog: Program, cfg: Config, objs: list[Path], cdir: Path) -> Path:
        out = cdir / prog.artifact
        flags = self.ldflags(cfg, cdir)
        if prog.kind == "shared":
            flags += ["-shared", "-fPIC", "-Wl,-soname,%s" % prog.artifact]
        driver = self.clangxx if prog.name == "sample" else self.clang
        cmd = [driver] + flags + [str(o) for o in objs] + prog.libs + ["-o", str(out)]
        for old in cdir.glob("link-remarks.yaml*"):
            old.unlink()
        run_cmd(cmd, cdir / "logs" / "link.log", "[%s/%s] link" % (prog.name, cfg.name))
        return out

    def build_driver(self, prog: Program, lib_dir: Path) -> Path:
        """The library's driver, compiled with stock -O2 and linked against
        the reference (O2) library; every configuration runs this binary."""
        ddir = self.work / prog.name / "driver"
        ddir.mkdir(parents=True, exist_ok=True)
        d = prog.driver
        srcs = list(d.get("sources", []))
        if "source_text" in d:
            p = ddir / "driver.c"
            p.write_text(d["source_text"])
            srcs.append(str(p))
        objs = []
        for s in srcs:
            o = ddir / (Path(s).stem + ".o")
            cflags = [f.replace("{gen}", str(self.work / prog.name / "gen")) for f in d["cflags"]]
            run_cmd([self.clang, "-O2"] + cflags + ["-c", s, "-o", str(o)],
                           ddir / "logs" / ("compile-%s.log" % Path(s).stem),
                           "[%s] compiling the driver %s" % (prog.name, Path(s).name))
            objs.append(str(o))
        exe = ddir / ("%s-driver" % prog.name)
        run_cmd([self.clang, "-O2", "-fuse-ld=lld"] + objs +
                       [str(lib_dir / prog.artifact)] + d["libs"] + ["-o", str(exe)],
                       ddir / "logs" / "link.log", "[%s] linking the driver" % prog.name)
        return exe

    # ---------------------------------------------------------------- measure

    def run_outputs(self, prog: Program, cfg: Config, artifact: Path,
                    driver: Optional[Path]) -> dict[str, bytes]:
        rdir = self.work / prog.name / "run"
        if rdir.exists():
            shutil.rmtree(rdir)
        rdir.mkdir(parents=True)
        for fname, data in prog.files.items():
            (rdir / fname).write_bytes(data)
        if prog.kind == "exe":
            exe = rdir / artifact.name
            shutil.copy2(artifact, exe)
            env = run_env()
        else:
            exe = rdir / driver.name
            shutil.copy2(driver, exe)
            env = run_env({"LD_LIBRARY_PATH": str(artifact.parent)})
        outs = {}
        cdir = artifact.parent
        for name, argv in prog.runs.items():
            cmd = ["./" + exe.name] + argv
            try:
                proc = subprocess.run(cmd, cwd=rdir, env=env, capture_output=True, timeout=600)
            except (OSError, subprocess.TimeoutExpired) as e:
                raise StepError("[%s/%s] run %s: %s" % (prog.name, cfg.name, name, e)) from None
            record = (b"exit %d\n--- stdout ---\n" % proc.returncode + proc.stdout +
                      b"\n--- stderr ---\n" + proc.stderr)
            (cdir / "logs").mkdir(parents=True, exist_ok=True)
            (cdir / "logs" / ("run-%s.out" % name)).write_bytes(record)
            if prog.kind == "exe" and proc.returncode != 0:
                raise StepError("[%s/%s] run %s exited with %d; log: %s" % (
                    prog.name, cfg.name, name, proc.returncode,
                    cdir / "logs" / ("run-%s.out" % name)))
            outs[name] = record
        if prog.kind == "shared":
            # The driver must really have loaded this configuration's library.
            proc = subprocess.run(["ldd", str(exe)], env=env, capture_output=True, text=True)
            if str(artifact) not in proc.stdout:
                raise StepError("[%s/%s] the driver does not load %s (ldd: %s)" % (
                    prog.name, cfg.name, artifact, proc.stdout.strip()))
        return outs

    def remark_files(self, cfg: Config, cdir: Path, objs: list[Path]) -> list[Path]:
        """The YAML remark files of one build: the compiles' (not for full
        LTO, whose compile-time pipeline does not run the pass) and the
        link's."""
        files = []
        if cfg.lto != "full":
            files += [p for p in (Path(str(o) + ".opt.yaml") for o in objs) if p.is_file()]
        files += sorted(cdir.glob("link-remarks.yaml*"))
        return files

    def remarks(self, cfg: Config, cdir: Path, objs: list[Path]) -> dict:
        """kiln-strtab remarks of the last pipeline that ran the pass: the
        link (full LTO, ThinLTO backends) or the compile (-O2). For ThinLTO
        the pre-link compile's Lowered remarks are added to the backends'."""
        if not cfg.strtab:
            return summarize_remarks([])
        compile_r: list[dict] = []
        link_r: list[dict] = []
        for p in self.remark_files(cfg, cdir, objs):
            target = link_r if p.name.startswith("link-remarks.yaml") else compile_r
            target += parse_remarks(p.read_text(errors="replace"))
        if cfg.lto == "":
            return summarize_remarks(compile_r)
        s = summarize_remarks(link_r)
        if cfg.lto == "thin":
            pre = summarize_remarks(compile_r)
            s["prelink"] = {k: pre[k] for k in ("lowered", "strings", "missed",
                                                 "missed_by_reason")}
            for k in ("lowered", "strings", "old_bytes", "new_bytes"):
                s[k] += pre[k]
            s["lowered_tables"] = sorted(s["lowered_tables"] + pre["lowered_tables"])
        return s

    def measure(self, prog: Program, cfg: Config, artifact: Path, objs: list[Path]) -> dict:
        cdir = artifact.parent
        sizes = section_sizes(run_cmd(
            [self.size, "-A", str(artifact)], cdir / "logs" / "size.log", "llvm-size")
            .stdout.decode())
        relocs = count_relocs(run_cmd(
            [self.readelf, "-rW", str(artifact)], cdir / "logs" / "relocs.log",
            "llvm-readelf -r").stdout.decode())
        # The pass's own record, so that the audit names the tables it
        # refused instead of calling them candidates.
        remark_files = [str(p) for p in self.remark_files(cfg, cdir, objs)]
        audit = json.loads(run_cmd(
            [str(self.kiln), "relocs", "--json", "--top=0"]
            + ["--remarks=%s" % p for p in remark_files] + [str(artifact)],
            cdir / "logs" / "kiln-relocs.log", "kiln relocs").stdout.decode())
        (cdir / "kiln-relocs.json").write_text(json.dumps(audit, indent=1) + "\n")
        objects = audit.get("largest_objects") or []
        removable = [o for o in objects if (o.get("verdict") or "").startswith("candidate:")]
        refused = [o for o in objects
                   if (o.get("verdict") or "").startswith("refused by kiln-strtab")]
        m = {}
        m.update(reloc_figures(relocs))
        m.update(section_figures(sizes))
        m["ro_total"] = m["rodata"] + m["data_rel_ro"]
        m["kiln_relocs_total"] = audit.get("relocations")
        m["by_class"] = audit.get("by_class")
        m["string_relocs"] = (audit.get("by_class") or {}).get("string")
        m["removable_objects"] = len(removable)
        m["removable_relocs"] = sum(o.get("string", 0) for o in removable)
        m["removable_names"] = sorted(o["name"] for o in removable)
        m["refused_objects"] = len(refused)
        m["refused_relocs"] = sum(o.get("string", 0) for o in refused)
        m["remarks"] = self.remarks(cfg, cdir, objs)
        m["sections"] = sizes
        m["relocations"] = relocs
        return m


# ==========================================================================
# Reporting
# ==========================================================================

COLUMNS = ["config", "RELATIVE", "vs", "dyn relocs", "string relocs", ".data.rel.ro", "vs",
           ".rodata", "vs", "ro+relro", "vs", ".text", "vs", "lowered (strings)", "missed",
           "output"]


def add_ratios(rows: list[dict]) -> None:
    by_name = {r["config"]: r for r in rows if r["status"] == "ok"}
    for r in rows:
        if r["status"] != "ok":
            continue
        base = by_name.get(r["stock"])
        m = r["metrics"]
        bm = base["metrics"] if base else {}
        r["ratios_against"] = r["stock"] if base else None
        m["ratios"] = {k: ratio(m[k], bm.get(k)) for k in
                       ("relative", "total", "string_relocs", "data_rel_ro", "rodata",
                        "ro_total", "text")}


def table_cells(rows: list[dict]) -> list[list[str]]:
    cells = []
    for r in rows:
        if r["status"] != "ok":
            cells.append([r["config"], "ERROR (see below)" if r["status"] == "error"
                          else "not run (see below)"])
            continue
        m, q, rem = r["metrics"], r["metrics"]["ratios"], r["metrics"]["remarks"]
        strtab = r["strtab"]
        cells.append([
            r["config"], fmt_int(m["relative"]), fmt_ratio(q["relative"]), fmt_int(m["total"]),
            fmt_int(m["string_relocs"]), fmt_int(m["data_rel_ro"]), fmt_ratio(q["data_rel_ro"]),
            fmt_int(m["rodata"]), fmt_ratio(q["rodata"]), fmt_int(m["ro_total"]),
            fmt_ratio(q["ro_total"]), fmt_int(m["text"]),
            fmt_ratio(q["text"]),
            "%d (%s)" % (rem["lowered"], fmt_int(rem["strings"])) if strtab else "-",
            str(rem["missed"]) if strtab else "-",
            r["output"]])
    return cells


def text_table(rows: list[dict]) -> str:
    return report.text_table(COLUMNS, table_cells(rows))


def markdown_table(rows: list[dict]) -> str:
    # The output column is left-aligned in markdown.
    return report.markdown_table(COLUMNS, table_cells(rows),
                                 "l" + "r" * (len(COLUMNS) - 2) + "l")


def program_notes(rows: list[dict]) -> list[str]:
    notes = []
    for r in rows:
        if r["status"] == "error":
            notes.append("ERROR %s: %s" % (r["config"], r["error"]))
        elif r["status"] == "skipped":
            notes.append("not run %s: %s" % (r["config"], r["error"]))
    for r in rows:
        if r["status"] != "ok":
            continue
        m = r["metrics"]
        line = "%s: string relocs by kiln relocs %s; candidates for kiln-strtab: " \
               "%d (%d relocs); refused by kiln-strtab (its remarks): %d (%d relocs)" % (
                   r["config"], json.dumps(m["by_class"], sort_keys=False),
                   m["removable_objects"], m["removable_relocs"],
                   m.get("refused_objects", 0), m.get("refused_relocs", 0))
        if m["removable_names"]:
            line += " [%s]" % ", ".join(m["removable_names"][:12])
        notes.append(line)
        if not r["strtab"]:
            continue
        rem = m["remarks"]
        notes.append("  %s: %d tables lowered (%d string entries, %d -> %d bytes); missed %s" % (
            r["config"], rem["lowered"], rem["strings"], rem["old_bytes"], rem["new_bytes"],
            ", ".join("%s %d" % kv for kv in rem["missed_by_reason"].items()) or "none"))
        if "prelink" in rem:
            p = rem["prelink"]
            notes.append("    of which ThinLTO pre-link: %d lowered (%d strings); pre-link "
                         "missed %s" % (p["lowered"], p["strings"], ", ".join(
                             "%s %d" % kv for kv in p["missed_by_reason"].items()) or "none"))
        for reason, tables in rem["missed_tables"].items():
            shown = tables[:8]
            notes.append("    missed %s: %s%s" % (reason, ", ".join(shown),
                                                  " (+%d more)" % (len(tables) - len(shown))
                                                  if len(tables) > len(shown) else ""))
    return notes


# ==========================================================================
# Main
# ==========================================================================

def run_program(bench: Bench, name: str, selected: list[Config]) -> dict:
    pdir = bench.work / name
    for sub in ("configs", "run", "driver"):
        if (pdir / sub).exists():
            shutil.rmtree(pdir / sub)
    res = {"program": name, "version": None, "rows": [], "runs": None, "error": None}
    try:
        prog = bench.sample_program() if name == "sample" else bench.library_program(name)
    except StepError as e:
        res["error"] = str(e)
        log("ERROR: %s" % e)
        res["rows"] = [{"config": c.name, "status": "skipped", "error": str(e),
                        "strtab": c.strtab, "stock": c.stock} for c in selected]
        return res
    res["version"] = prog.version
    res["runs"] = {k: v for k, v in prog.runs.items()}
    res["kind"] = prog.kind
    reference: Optional[dict[str, bytes]] = None
    driver: Optional[Path] = None
    fatal = None
    for cfg in selected:
        row = {"config": cfg.name, "description": cfg.description, "strtab": cfg.strtab,
               "stock": cfg.stock, "status": "error", "error": None, "output": None}
        res["rows"].append(row)
        if fatal:
            row["status"], row["error"] = "skipped", fatal
            continue
        cdir = pdir / "configs" / slug(cfg.name)
        cdir.mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        try:
            objs = bench.compile(prog, cfg, cdir)
            row["cflags"] = bench.cflags(cfg)
            row["ldflags"] = bench.ldflags(cfg, cdir)
            art = bench.link(prog, cfg, objs, cdir)
            if prog.kind == "shared" and driver is None:
                driver = bench.build_driver(prog, cdir)
            outs = bench.run_outputs(prog, cfg, art, driver)
            if reference is None:
                reference = outs
                res["reference"] = cfg.name
                row["output"] = "reference"
            else:
                diff = [k for k in outs if outs[k] != reference.get(k)]
                row["output"] = "same" if not diff else "DIFFERS: " + ",".join(diff)
                if diff:
                    row["output_diff_logs"] = [str(cdir / "logs" / ("run-%s.out" % k))
                                               for k in diff]
            row["metrics"] = bench.measure(prog, cfg, art, objs)
            row["status"] = "ok"
        except StepError as e:
            row["error"] = str(e)
            log("ERROR: %s" % e)
            if not bench.args.keep_going:
                fatal = "an earlier configuration failed (use --keep-going)"
        row["wall_s"] = round(time.monotonic() - t0, 1)
        log("[%s/%s] done in %.0fs%s" % (name, cfg.name, row["wall_s"],
                                         "" if row["status"] == "ok" else " (ERROR)"))
    add_ratios(res["rows"])
    return res


def parse_args(argv):
    ap = argparse.ArgumentParser(
        description="Measure kiln-strtab (issue 5): relocations, section sizes, tables "
                    "lowered and output identity on the sample app and real C libraries.",
        epilog="Configurations: %s. Programs: %s." % (", ".join(CONFIG_NAMES),
                                                      ", ".join(PROGRAM_NAMES)))
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK_DIR),
                    help="builds, logs and results (default: %(default)s); each program's "
                         "configs/, run/ and driver/ are rebuilt on every run")
    ap.add_argument("--programs", default=",".join(PROGRAM_NAMES),
                    help="comma-separated programs (default: %(default)s)")
    ap.add_argument("--configs", default=",".join(CONFIG_NAMES),
                    help="comma-separated configurations (default: all); O2 is always "
                         "built first as the output reference")
    ap.add_argument("--sample-size", choices=sorted(SAMPLE_SIZES), default="default")
    ap.add_argument("--iterations", type=int, default=1000,
                    help="`kiln-sample steady --iterations N` (default: %(default)s)")
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--keep-going", action="store_true",
                    help="after a failing configuration, still run the others")
    ap.add_argument("--llvm-bin", default=DEFAULT_LLVM_BIN)
    ap.add_argument("--kiln-build-dir", default=str(DEFAULT_BUILD_DIR),
                    help="Kiln's build directory (lib/%s, bin/kiln, bin/kiln-lld; "
                         "default: %%(default)s)" % PLUGIN_NAME)
    ap.add_argument("--json", default=None, help="results file (default: WORK_DIR/results.json)")
    args = ap.parse_args(argv)
    progs = [p.strip() for p in args.programs.split(",") if p.strip()]
    cfgs = [c.strip() for c in args.configs.split(",") if c.strip()]
    bad = [p for p in progs if p not in PROGRAM_NAMES] + [c for c in cfgs if c not in CONFIG_NAMES]
    if bad or not progs or not cfgs:
        ap.error("unknown program(s)/configuration(s): %s" % ", ".join(bad))
    if REFERENCE not in cfgs:
        cfgs.insert(0, REFERENCE)
    args.program_list = [p for p in PROGRAM_NAMES if p in progs]
    args.selected = [c for c in CONFIGS if c.name in cfgs]
    check_work_dir(ap, args.work_dir)
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    bench = Bench(args)
    start = time.monotonic()
    try:
        bench.check_tools()
    except StepError as e:
        log("error: %s" % e)
        return 1
    bench.work.mkdir(parents=True, exist_ok=True)
    versions = bench.versions()
    results = []
    for name in args.program_list:
        log("=== %s" % name)
        results.append(run_program(bench, name, args.selected))

    header = "Kiln string-table benchmark (issue 5); %s; %s; Kiln %s" % (
        versions["clang"], versions["lld"], versions["kiln_commit"])
    general = [
        "vs: ratio to the stock row of the same build mode (O2+strtab/O2, LTO+strtab/LTO, "
        "ThinLTO+strtab/ThinLTO); stock rows: ratio to O2",
        "ro+relro = .rodata + .data.rel.ro bytes; dyn relocs = .rela.dyn + .relr.dyn + "
        ".rela.plt entries; string relocs = `kiln relocs` class string",
        "output: every run's stdout, stderr and exit status, compared with O2's",
        "remarks are recorded with -fsave-optimization-record (which adds line tables, "
        "non-allocated: code and allocated sections are unaffected) and lld "
        "--opt-remarks-filename",
    ]
    print(header)
    for g in general:
        print(g)
    md = ["# kiln-strtab benchmark results", "", header, ""] + ["- " + g for g in general] + [""]
    for res in results:
        what = "%s (%s)" % (res["program"], res.get("version") or "not built")
        if res.get("kind") == "shared":
            what += ", shared library; driver runs: " + "; ".join(
                "%s=`%s`" % (k, shlex.join(v)) for k, v in res["runs"].items())
        elif res.get("runs"):
            what += ", PIE; runs: " + "; ".join(
                "`kiln-sample %s`" % shlex.join(v) for v in res["runs"].values())
        notes = program_notes(res["rows"])
        print()
        print("== " + what)
        print(text_table(res["rows"]))
        for n in notes:
            print(n)
        md += ["## " + what, "", markdown_table(res["rows"]), ""] + ["- " + n.strip()
                                                                   for n in notes] + [""]
    sys.stdout.flush()

    failed = [(res["program"], r["config"]) for res in results for r in res["rows"]
              if r["status"] != "ok"]
    differs = [(res["program"], r["config"]) for res in results for r in res["rows"]
               if r["status"] == "ok" and (r["output"] or "").startswith("DIFFERS")]
    doc = {"schema": 1,
           "command": [os.path.basename(sys.argv[0])] + list(sys.argv[1:] if argv is None
                                                             else argv),
           "versions": versions, "columns": COLUMNS,
           "configs": {c.name: {"description": c.description, "cflags": bench.cflags(c),
                                "ldflags": bench.ldflags(c, Path("<dir>"))}
                       for c in args.selected},
           "programs": results, "wall_time_s": round(time.monotonic() - start, 1)}
    json_path = Path(args.json) if args.json else bench.work / "results.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(doc, indent=1) + "\n")
    (bench.work / "results.md").write_text("\n".join(md) + "\n")
    if differs:
        log("OUTPUT DIFFERS in: %s" % ", ".join("%s/%s" % d for d in differs))
    log("results: %s, %s (%.0fs)" % (json_path, bench.work / "results.md",
                                     time.monotonic() - start))
    return 0 if not failed and not differs else 1


if __name__ == "__main__":
    sys.exit(main())

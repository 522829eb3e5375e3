# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Building and measuring for bench/run.py: the tools, the program under
benchmark, the Harness (generate or fetch the program, compile, train, link,
run the scenarios natively and under valgrind) and the parsers of what the
tools print (callgrind through lib/pages.py, cachegrind, llvm-readelf -r,
llvm-size -A), plus the startup page-fault counts. Every figure of a row
comes from Harness.measure."""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

from . import pages, programs
from .common import StepError, expand, run_cmd, run_env, slug
from .configs import (SAMPLE_HELDOUT_ARGS, SAMPLE_SIZES, SPLIT_PROFILE_WEIGHT, TRAININGS, Config,
                      Training)

EXE_NAME = "kiln-sample"

# Cache model for the I1 miss figure (fixed so that results do not depend on
# the host CPU that valgrind would otherwise auto-detect).
CACHEGRIND_CACHE = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=1048576,16,64"]

# The same I1 with one set of 512 ways (fully associative, LRU): its misses
# depend on how many lines a run keeps busy and in what order, not on which
# set each line falls into. The 8-way I1 indexes its 64 sets by address
# modulo 4 KiB, so a program's hot lines compete with the C library's by
# where `.text` starts against a page (lld puts it at the read-only
# segment's size modulo 4 KiB); the two figures side by side tell a layout's
# footprint from its alignment luck.
CACHEGRIND_CACHE_ONE_SET = ["--I1=32768,512,64"] + [
    o for o in CACHEGRIND_CACHE if not o.startswith("--I1=")]

# Language flags per source suffix: (driver attribute of Tools, flags).
LANGUAGES = {
    ".c": ("clang", ["-std=c11"]),
    ".cpp": ("clangxx", ["-std=c++17"]),
}


def log(msg: str) -> None:
    print("bench: " + msg, file=sys.stderr, flush=True)


def heldout_names(scenarios) -> list[str]:
    """The held-out workloads among the names in `scenarios`: "heldout" first,
    then "heldout-<name>" in name order."""
    return sorted((n for n in scenarios if n == "heldout" or n.startswith("heldout-")),
                  key=lambda n: (n != "heldout", n))


@dataclass
class Tools:
    clang: str
    clangxx: str
    profdata: str
    readelf: str
    objdump: str
    size: str
    valgrind: str
    kiln: Optional[str] = None   # Kiln's `kiln` tool, for Kiln configurations
    bolt: Optional[str] = None   # llvm-bolt (Debian's bolt-22), for the BOLT row
    merge_fdata: Optional[str] = None

    @classmethod
    def find(cls, args: argparse.Namespace) -> "Tools":
        bin_dir = Path(args.llvm_bin)
        clang = args.clang or str(bin_dir / "clang")
        if args.clangxx:
            clangxx = args.clangxx
        else:
            d, b = os.path.split(clang)
            clangxx = os.path.join(d, b.replace("clang", "clang++", 1))
        tools = cls(clang=clang, clangxx=clangxx,
                    profdata=str(bin_dir / "llvm-profdata"),
                    readelf=str(bin_dir / "llvm-readelf"),
                    objdump=str(bin_dir / "llvm-objdump"),
                    size=str(bin_dir / "llvm-size"),
                    valgrind=args.valgrind)
        for name, path in tools.__dict__.items():
            if path is not None and shutil.which(path) is None:
                raise StepError("tool not found: %s (%s)" % (path, name))
        # BOLT is only needed by its row, which fails (never silently
        # vanishes) without it.
        for name, exe in (("bolt", "llvm-bolt"), ("merge_fdata", "merge-fdata")):
            if (bin_dir / exe).is_file():
                setattr(tools, name, str(bin_dir / exe))
        # Kiln's own tool is only needed by Kiln configurations; they fail
        # (never silently vanish) when it is missing.
        kiln = Path(args.kiln_bin) / "kiln"
        tools.kiln = str(kiln) if kiln.is_file() else None
        return tools

    def version(self) -> str:
        """First line of `clang --version`."""
        out = subprocess.run([self.clang, "--version"], capture_output=True, text=True).stdout
        return (out.splitlines() or ["unknown clang"])[0].strip()


@dataclass
class App:
    """The program under benchmark: the generated sample application, or a
    real program from bench/lib/programs.py."""

    dir: Path
    sources: list[str]       # relative to dir
    manifest: dict
    name: str = "kiln-sample"
    exe_name: str = EXE_NAME
    cflags: list[str] = field(default_factory=list)   # -I/-D for every TU
    # Program arguments of the "startup" and "steady" scenarios (the
    # training runs) and, optionally, of held-out workloads (measured only):
    # "heldout", the main one, and "heldout-<name>" ones unlike the training.
    scenarios: dict[str, list[str]] = field(default_factory=dict)
    # Files the scenarios read, written into every run directory.
    inputs: dict[str, bytes] = field(default_factory=dict)
    # A directory (relative to the run directory) into which the scenarios
    # write files that are part of their output (xmlwf -d), or None.
    output_dir: Optional[str] = None

    def write_inputs(self, run_dir: Path) -> None:
        """Writes the input files and an empty output directory."""
        for name, data in self.inputs.items():
            (run_dir / name).write_bytes(data)
        self.clear_output(run_dir)

    def clear_output(self, run_dir: Path) -> None:
        """Empties the output directory of what earlier runs wrote."""
        if self.output_dir:
            clear_dir(run_dir / self.output_dir)

    def output(self, stdout: bytes, run_dir: Path) -> bytes:
        """A run's output, as compared across configurations: its standard
        output, then each file it wrote into the output directory (name and
        contents, by name), which is emptied for the next run."""
        return collect_output(stdout, run_dir / self.output_dir if self.output_dir else None)


@dataclass
class Build:
    """A compiled and linked program (a configuration or a training)."""

    dir: Path
    exe: Path
    objects: list[Path] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)   # -Wflag -> count


@dataclass
class PrepareContext:
    """What a Config.prepare hook gets (see Config)."""

    harness: "Harness"
    config: Config
    dir: Path                  # the configuration's build directory
    objects: list[Path]        # compiled objects (in link order)
    profile: Optional[Path]    # merged profile of config.training, if any
    app: App

    @property
    def scenario_profiles(self) -> dict[str, Path]:
        """Each training scenario's own profile ({"steady": ..., "startup": ...})."""
        return self.harness.scenario_profiles.get(self.config.training or "", {})

    def run(self, cmd: Sequence[str], name: str) -> subprocess.CompletedProcess:
        """Run a tool, logged to <dir>/logs/<name>.log; raises on failure."""
        return run_cmd(cmd, self.dir / "logs" / (name + ".log"),
                       "[%s] %s" % (self.config.name, name))

    def link(self, output: Path, extra_ldflags: Sequence[str] = ()) -> Path:
        """Link the objects with the configuration's flags (e.g. a
        preliminary binary to analyse); returns the output path."""
        return self.harness.link(self.config.name, self.objects, self.ldflags + list(extra_ldflags),
                                 output, self.dir / "logs" / ("link-" + output.name + ".log"))

    @property
    def ldflags(self) -> list[str]:
        return self.harness.config_flags(self.config, self.config.ldflags, self.dir)


# ==========================================================================
# The harness
# ==========================================================================

class Harness:
    def __init__(self, args: argparse.Namespace, tools: Tools):
        self.args = args
        self.tools = tools
        self.work = Path(args.work_dir).resolve()
        self.jobs = max(1, args.jobs)
        self.app: Optional[App] = None
        self.profiles: dict[str, Path] = {}           # training name -> .profdata
        # compile flags -> the build that compiled the app with them
        self.compiled: dict[tuple[str, ...], Build] = {}
        # training name -> scenario tag ("steady", "startup") -> .profdata
        self.scenario_profiles: dict[str, dict[str, Path]] = {}
        self.training_info: dict[str, dict] = {}
        self.training_errors: dict[str, str] = {}
        self.reference_output: Optional[dict[str, bytes]] = None
        self.reference_name: Optional[str] = None

    # ---------------------------------------------------------------- setup

    def clean(self) -> None:
        """Delete what a previous run left (only our own subdirectories)."""
        self.work.mkdir(parents=True, exist_ok=True)
        for child in sorted(self.work.iterdir()):
            if child.is_dir() and (child.name in ("app", "configs", "run") or
                                   child.name.startswith("train-")):
                shutil.rmtree(child)

    def steady_args(self) -> list[str]:
        if self.app is not None and self.app.scenarios:
            return list(self.app.scenarios["steady"])
        extra = ["--iterations", str(self.args.iterations)] if self.args.iterations else []
        return ["steady"] + extra

    def startup_args(self) -> list[str]:
        if self.app is not None and self.app.scenarios:
            return list(self.app.scenarios["startup"])
        return ["startup"]

    def heldout_args(self) -> Optional[list[str]]:
        """Arguments of the held-out scenario, which no training runs (None
        if the program has none)."""
        if self.app is not None and "heldout" in self.app.scenarios:
            return list(self.app.scenarios["heldout"])
        return None

    def heldout_workloads(self) -> dict[str, list[str]]:
        """Every held-out workload ("heldout" first, then "heldout-<name>"
        in name order): program arguments no training run uses."""
        if self.app is None:
            return {}
        return {n: list(self.app.scenarios[n]) for n in heldout_names(self.app.scenarios)}

    def fetch_program(self, name: str) -> App:
        """A real program's sources, fetched from Debian (bench/lib/programs.py)."""
        try:
            spec = programs.PROGRAMS[name](self.work, log)
        except programs.FetchError as e:
            raise StepError("cannot fetch %s: %s" % (name, e))
        log("%s: %d translation units from %s" % (name, len(spec["sources"]), spec["dir"]))
        return App(spec["dir"], spec["sources"], {}, name=spec["name"],
                   exe_name=spec["exe_name"], cflags=spec["cflags"],
                   scenarios=spec["scenarios"], inputs=spec["inputs"],
                   output_dir=spec.get("output_dir"))

    def generate(self) -> App:
        out = self.work / "app"
        cmd = [sys.executable, str(self.args.generator), "--out", str(out)]
        if self.args.seed is not None:
            cmd += ["--seed", str(self.args.seed)]
        cmd += SAMPLE_SIZES[self.args.sample_size]
        log("generating sample app: " + shlex.join(cmd))
        t0 = time.monotonic()
        run_cmd(cmd, self.work / "logs" / "generate.log", "sample-app generation")
        sources_txt = out / "sources.txt"
        if not sources_txt.is_file():
            raise StepError("generator wrote no %s" % sources_txt)
        sources = [l.strip() for l in sources_txt.read_text().splitlines()
                   if l.strip() and not l.lstrip().startswith("#")]
        for s in sources:
            if Path(s).suffix not in LANGUAGES:
                raise StepError("%s: unsupported source suffix: %s" % (sources_txt, s))
            if not (out / s).is_file():
                raise StepError("%s lists a missing file: %s" % (sources_txt, s))
        manifest_path = out / "manifest.json"
        manifest = json.loads(manifest_path.read_text()) if manifest_path.is_file() else {}
        log("sample app: %d translation units (%.1fs)" % (len(sources), time.monotonic() - t0))
        app = App(out, sources, manifest, cflags=["-I", str(out / "src")])
        app.scenarios = {"startup": ["startup"], "steady": self.steady_args(),
                         "heldout": list(SAMPLE_HELDOUT_ARGS)}
        return app

    # ---------------------------------------------------------------- build

    def config_flags(self, config: Config, flags: Sequence[str], build_dir: Path) -> list[str]:
        kiln_bin = Path(self.args.kiln_bin)
        values = {"jobs": self.jobs, "dir": build_dir,
                  "plugin": kiln_bin.parent / "lib" / "KilnPlugin-22.so",
                  "kiln_lld": kiln_bin / "kiln-lld"}
        if config.training:
            values["profile"] = self.profiles[config.training]
            if any("{split_profile}" in f for f in flags):
                values["split_profile"] = self.split_profile(config.training)
        return expand(flags, **values)

    def split_profile(self, training: str) -> Path:
        """The training's merged profile with its counts multiplied by
        SPLIT_PROFILE_WEIGHT (once per run)."""
        merged = self.profiles[training]
        out = merged.with_name("%s-x%d.profdata" % (training, SPLIT_PROFILE_WEIGHT))
        if not out.is_file():
            run_cmd([self.tools.profdata, "merge", "-o", str(out),
                     "--weighted-input=%d,%s" % (SPLIT_PROFILE_WEIGHT, merged)],
                    merged.parent / "logs" / "merge-split.log",
                    "[train-%s] llvm-profdata merge (x%d)" % (training, SPLIT_PROFILE_WEIGHT))
        return out

    def compile(self, label: str, build_dir: Path, cflags: list[str]) -> Build:
        """Compile all translation units of the app in parallel (-j jobs).

        Configurations that differ only in how they link (the ordering
        configurations) compile with the same flags: their objects are
        compiled once per run and shared (compilation is deterministic).
        """
        app = self.app
        assert app is not None
        build = Build(build_dir, build_dir / app.exe_name)
        key = tuple(cflags)
        if key in self.compiled:
            shared = self.compiled[key]
            build.objects = list(shared.objects)
            build.warnings = dict(shared.warnings)
            build.times["compile_s"] = 0.0
            log("[%s] reusing the objects of %s (same compile flags)" % (label, shared.dir))
            return build
        obj_dir = build_dir / "obj"
        jobs = []
        for src in app.sources:
            driver_attr, lang_flags = LANGUAGES[Path(src).suffix]
            obj = obj_dir / (src + ".o")
            obj.parent.mkdir(parents=True, exist_ok=True)
            cmd = ([getattr(self.tools, driver_attr)] + lang_flags +
                   app.cflags + cflags +
                   ["-c", str(app.dir / src), "-o", str(obj)])
            jobs.append((src, obj, cmd))
        log("[%s] compiling %d TUs (-j%d): %s" % (label, len(jobs), self.jobs, shlex.join(cflags)))
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
            futures = [pool.submit(run_cmd, cmd, build_dir / "logs" / "compile" / (src + ".log"),
                                   "[%s] compiling %s" % (label, src))
                       for src, obj, cmd in jobs]
            # Report the first failure in source order (deterministic) and
            # do not start the compiles still queued.
            try:
                results = [fut.result() for fut in futures]
            except StepError:
                for fut in futures:
                    fut.cancel()
                raise
        for proc in results:
            for m in re.finditer(rb"warning: .*\[(-W[^\]]+)\]", proc.stderr):
                flag = m.group(1).decode()
                build.warnings[flag] = build.warnings.get(flag, 0) + 1
        build.objects = [obj for _, obj, _ in jobs]
        build.times["compile_s"] = time.monotonic() - t0
        self.compiled[key] = build
        log("[%s] compiled in %.1fs%s" % (label, build.times["compile_s"],
            "; warnings: " + ", ".join("%s x%d" % kv for kv in sorted(build.warnings.items()))
            if build.warnings else ""))
        return build

    def link(self, label: str, objects: Sequence[Path], ldflags: Sequence[str], output: Path,
             log_file: Path) -> Path:
        cmd = ([self.tools.clangxx, "-fuse-ld=lld"] + list(ldflags) +
               [str(o) for o in objects] + ["-o", str(output)])
        run_cmd(cmd, log_file, "[%s] link" % label)
        return output

    # ------------------------------------------------------------- training

    def profile_for(self, name: str) -> Path:
        """Build the training `name` (once) and return its merged profile."""
        if name in self.profiles:
            return self.profiles[name]
        if name in self.training_errors:
            raise StepError("training %s failed earlier: %s" % (name, self.training_errors[name]))
        try:
            self.profiles[name] = self._train(TRAININGS[name])
        except StepError as e:
            self.training_errors[name] = str(e)
            raise
        return self.profiles[name]

    def _train(self, tr: Training) -> Path:
        label = "train-" + tr.name
        tdir = self.work / label
        profdir = tdir / "profiles"
        profdir.mkdir(parents=True, exist_ok=True)
        values = {"profdir": profdir, "jobs": self.jobs}
        build = self.compile(label, tdir, expand(tr.cflags, **values))
        t0 = time.monotonic()
        self.link(label, build.objects, expand(tr.ldflags, **values), build.exe,
                  tdir / "logs" / "link.log")
        build.times["link_s"] = time.monotonic() - t0
        t0 = time.monotonic()
        raws = []
        for scenario in tr.scenarios:
            args = (self.steady_args() if scenario == ("steady",) else
                    self.startup_args() if scenario == ("startup",) else list(scenario))
            self.app.write_inputs(tdir)
            tag = "-".join(scenario)
            # One raw profile per run: LLVM_PROFILE_FILE overrides the
            # -fprofile-generate directory; %m keeps modules apart.
            env = run_env({"LLVM_PROFILE_FILE": str(profdir / (tag + "-%m.profraw"))})
            log("[%s] training run: %s %s" % (label, self.app.exe_name, shlex.join(args)))
            proc = run_cmd(["./" + self.app.exe_name] + args, tdir / "logs" / ("run-%s.log" % tag),
                           "[%s] training run %s" % (label, tag), cwd=tdir, env=env)
            self.check_output(label, scenario[0], self.app.output(proc.stdout, tdir), tdir)
            new = sorted(profdir.glob(tag + "-*.profraw"))
            if not new:
                raise StepError("[%s] training run %s wrote no raw profile" % (label, tag))
            raws += new
        build.times["training_runs_s"] = time.monotonic() - t0
        merged = tdir / (tr.name + ".profdata")
        t0 = time.monotonic()
        run_cmd([self.tools.profdata, "merge", "-o", str(merged)] + [str(r) for r in raws],
                tdir / "logs" / "merge.log", "[%s] llvm-profdata merge" % label)
        # Each scenario's own profile too, for tools that weigh scenarios
        # separately (kiln order --scenario=startup=... --scenario=steady=...).
        per_scenario = {}
        for scenario in tr.scenarios:
            tag = "-".join(scenario)
            out = tdir / ("%s-%s.profdata" % (tr.name, tag))
            run_cmd([self.tools.profdata, "merge", "-o", str(out)] +
                    [str(r) for r in raws if r.name.startswith(tag + "-")],
                    tdir / "logs" / ("merge-%s.log" % tag),
                    "[%s] llvm-profdata merge %s" % (label, tag))
            per_scenario[tag] = out
        self.scenario_profiles[tr.name] = per_scenario
        build.times["merge_s"] = time.monotonic() - t0
        log("[%s] profile %s (link %.1fs, runs %.1fs, merge %.1fs)" % (
            label, merged, build.times["link_s"], build.times["training_runs_s"],
            build.times["merge_s"]))
        self.training_info[tr.name] = {
            "description": tr.description,
            "cflags": expand(tr.cflags, **values),
            "ldflags": expand(tr.ldflags, **values),
            "scenarios": [list(s) for s in tr.scenarios],
            "profile": str(merged),
            "raw_profiles": [r.name for r in raws],
            "warnings": build.warnings,
            "times": {k: round(v, 2) for k, v in build.times.items()},
        }
        return merged

    # ------------------------------------------------------------ measuring

    def check_output(self, label: str, mode: str, stdout: bytes, where: Path) -> None:
        """Compare program output with the reference configuration's."""
        if self.reference_output is None or mode not in self.reference_output:
            return
        if stdout != self.reference_output[mode]:
            bad = where / ("mismatch-%s.stdout" % mode)
            bad.write_bytes(stdout)
            raise StepError("[%s] output of `%s` differs from %s's (saved to %s)" % (
                label, mode, self.reference_name, bad))

    def build_config(self, cfg: Config) -> Build:
        cdir = self.work / "configs" / slug(cfg.name)
        cdir.mkdir(parents=True, exist_ok=True)
        profile = self.profile_for(cfg.training) if cfg.training else None
        build = self.compile(cfg.name, cdir, self.config_flags(cfg, cfg.cflags, cdir))
        ldflags = self.config_flags(cfg, cfg.ldflags, cdir)
        if cfg.prepare is not None:
            t0 = time.monotonic()
            ctx = PrepareContext(self, cfg, cdir, build.objects, profile, self.app)
            ldflags += list(cfg.prepare(ctx))
            build.times["prepare_s"] = time.monotonic() - t0
        t0 = time.monotonic()
        self.link(cfg.name, build.objects, ldflags, build.exe, cdir / "logs" / "link.log")
        build.times["link_s"] = time.monotonic() - t0
        log("[%s] linked %s (%.1fs)" % (cfg.name, build.exe, build.times["link_s"]))
        if cfg.postlink is not None:
            t0 = time.monotonic()
            ctx = PrepareContext(self, cfg, cdir, build.objects, profile, self.app)
            cfg.postlink(ctx, build.exe)
            build.times["postlink_s"] = time.monotonic() - t0
            log("[%s] post-link step done (%.1fs)" % (cfg.name, build.times["postlink_s"]))
        return build

    def measure(self, cfg: Config, build: Build) -> dict:
        """Run the scenarios and collect all figures of one configuration.

        Every configuration's binary is run as ./kiln-sample from the same
        staging directory <work>/run: the executable's path ends up on the
        process's initial stack, and its length changes the instruction
        count of the dynamic loader by a few instructions.
        """
        d, exe = build.dir, "./" + self.app.exe_name
        stage = self.work / "run"
        if stage.exists():
            shutil.rmtree(stage)
        stage.mkdir(parents=True)
        staged = stage / self.app.exe_name
        self.app.write_inputs(stage)
        shutil.copy2(build.exe, staged)
        env = run_env()
        scenarios = {"startup": self.startup_args(), "steady": self.steady_args()}
        workloads = self.heldout_workloads()
        scenarios.update(workloads)
        outputs = {}
        t0 = time.monotonic()
        for mode, args in scenarios.items():
            proc = run_cmd([exe] + args, d / "logs" / ("run-%s.log" % mode),
                           "[%s] run %s" % (cfg.name, mode), cwd=stage, env=env)
            outputs[mode] = self.app.output(proc.stdout, stage)
        build.times["native_runs_s"] = time.monotonic() - t0
        if self.reference_output is None:
            self.reference_output, self.reference_name = outputs, cfg.name
        for mode, out in outputs.items():
            self.check_output(cfg.name, mode, out, d)

        faults = startup_faults([exe] + scenarios["startup"], stage, staged, env)

        # Static figures.
        sizes = section_sizes(run_cmd([self.tools.size, "-A", str(build.exe)],
                                      d / "logs" / "size.log", "llvm-size").stdout.decode())
        # BOLT keeps the original code, unused, as .bolt.org.text: it is
        # still in the file, so it counts.
        text = {k: v for k, v in sizes.items()
                if k in (".text", ".bolt.org.text") or k.startswith(".text.")}
        relocs = count_relocs(run_cmd([self.tools.readelf, "-rW", str(build.exe)],
                                      d / "logs" / "relocs.log", "llvm-readelf -r").stdout.decode())
        dyn = {k: v for k, v in relocs.items() if k in (".rela.dyn", ".relr.dyn")}

        # Valgrind runs (independent, so up to --jobs of them at once).
        vg = self.tools.valgrind
        runs = {
            "callgrind-steady": [vg, "--tool=callgrind", "--dump-instr=yes",
                                 "--callgrind-out-file=" + str(d / "callgrind.steady.out"),
                                 exe] + scenarios["steady"],
            "cachegrind-steady": [vg, "--tool=cachegrind", "--cache-sim=yes"] + CACHEGRIND_CACHE +
                                 ["--cachegrind-out-file=" + str(d / "cachegrind.steady.out"),
                                  exe] + scenarios["steady"],
            "callgrind-startup": [vg, "--tool=callgrind", "--dump-instr=yes",
                                  "--callgrind-out-file=" + str(d / "callgrind.startup.out"),
                                  exe] + scenarios["startup"],
        }
        for name, args in workloads.items():
            # Only the totals are read: no per-instruction dump.
            runs["callgrind-" + name] = [
                vg, "--tool=callgrind",
                "--callgrind-out-file=" + str(d / ("callgrind.%s.out" % name)), exe] + args
            runs["cachegrind-" + name] = [
                vg, "--tool=cachegrind", "--cache-sim=yes"] + CACHEGRIND_CACHE + [
                "--cachegrind-out-file=" + str(d / ("cachegrind.%s.out" % name)), exe] + args
        log("[%s] valgrind: %s" % (cfg.name, ", ".join(runs)))
        t0 = time.monotonic()
        # A program that writes its output into files (xmlwf) runs one at a
        # time: runs of the same scenario write the same file, and each
        # run's files must be collected before the next.
        self.app.clear_output(stage)
        run_outputs = {}
        if self.app.output_dir:
            for name, cmd in runs.items():
                proc = run_cmd(cmd, d / "logs" / (name + ".log"), "[%s] %s" % (cfg.name, name),
                               stage, env)
                run_outputs[name] = self.app.output(proc.stdout, stage)
        else:
            with concurrent.futures.ThreadPoolExecutor(max_workers=self.jobs) as pool:
                futs = {name: pool.submit(run_cmd, cmd, d / "logs" / (name + ".log"),
                                          "[%s] %s" % (cfg.name, name), stage, env)
                        for name, cmd in runs.items()}
                run_outputs = {name: fut.result().stdout for name, fut in futs.items()}
        build.times["valgrind_s"] = time.monotonic() - t0
        for name, out in run_outputs.items():
            mode = name.split("-", 1)[1]
            if out != outputs[mode]:
                raise StepError("[%s] output of `%s` under valgrind (%s) differs from the "
                                "native run" % (cfg.name, mode, name))

        cg = pages.read_callgrind(str(d / "callgrind.steady.out"))
        ir = cg.total("Ir")
        cache = read_cachegrind(d / "cachegrind.steady.out")
        if ir is None or "I1mr" not in cache:
            raise StepError("[%s] no Ir / I1mr totals in the valgrind output" % cfg.name)
        heldout_figures = {}
        for name in workloads:
            held_ir = pages.read_callgrind(str(d / ("callgrind.%s.out" % name))).total("Ir")
            held_cache = read_cachegrind(d / ("cachegrind.%s.out" % name))
            if held_ir is None or "I1mr" not in held_cache:
                raise StepError("[%s] no Ir / I1mr totals in the %s valgrind output"
                                % (cfg.name, name))
            heldout_figures[name] = {"ir": held_ir, "i1_misses": held_cache["I1mr"]}
        main_heldout = heldout_figures.get("heldout", {})
        ir_heldout = main_heldout.get("ir")

        startup = pages.read_callgrind(str(d / "callgrind.startup.out"))
        info = pages.read_binary(str(staged), self.tools.readelf, self.tools.objdump)
        report = pages.startup_pages(startup, str(staged), info)
        if report.bias % report.page_size:
            raise StepError("[%s] implausible load bias %#x (%s)" % (cfg.name, report.bias,
                                                                      report.bias_method))
        # The steady state's code working set (its iTLB footprint): the
        # same page count over the functions the steady run executed.
        steady = pages.startup_pages(cg, str(staged), info)
        return {
            "ir_steady": ir,
            "ir_heldout": ir_heldout,
            "i1_misses_heldout": main_heldout.get("i1_misses"),
            "heldout_workloads": heldout_figures,
            "i1_misses_steady": cache["I1mr"],
            "text_bytes": sum(text.values()),
            "dyn_relocs": sum(dyn.values()),
            "dyn_relocs_relative": sum(relocs.get("R_X86_64_RELATIVE@" + k, 0) for k in dyn),
            "startup_pages": report.pages,
            "startup_lower_bound": report.lower_bound,
            "pages_per_bound": report.ratio,
            "startup_block_bound": report.block_lower_bound,
            "steady_pages": steady.pages,
            "steady_lower_bound": steady.lower_bound,
            "startup_minor_faults": faults["minor"],
            "startup_major_faults_evicted": faults["major_evicted"],
            "_details": {
                "startup_faults": faults,
                "steady_pages": steady.to_dict(),
                "cachegrind_steady": cache,
                "text_sections": text,
                "relocations": relocs,
                "startup": report.to_dict(),
                "startup_ir": startup.total("Ir"),
                "output_bytes": {m: len(o) for m, o in outputs.items()},
            },
        }


FAULT_RUNS = 7  # native startup runs per configuration for the fault counts


def clear_dir(path: Path) -> None:
    """Makes path an empty directory."""
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)


def collect_output(stdout: bytes, output_dir: Optional[Path]) -> bytes:
    """stdout, then each file in output_dir as `== name ==` and its bytes
    (sorted by name, so the result does not depend on directory order);
    output_dir is left empty. A missing directory is output too (nothing
    written): the run deleted it."""
    if output_dir is None:
        return stdout
    out = stdout
    if output_dir.is_dir():
        for path in sorted(output_dir.iterdir()):
            out += b"\n== %s ==\n" % path.name.encode() + path.read_bytes()
    clear_dir(output_dir)
    return out


def run_and_count_faults(cmd: Sequence[str], cwd: Path, env: dict) -> tuple[int, int]:
    """Run `cmd` to completion; return its (minor, major) page faults."""
    proc = subprocess.Popen(list(cmd), cwd=str(cwd), env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise StepError("`%s` exited with %d while counting faults" % (" ".join(cmd),
                                                                         proc.returncode))
    return usage.ru_minflt, usage.ru_majflt


def evict_from_page_cache(path: Path) -> None:
    """Drop the file's pages from the page cache (clean pages only)."""
    fd = os.open(str(path), os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def startup_faults(cmd: Sequence[str], cwd: Path, exe: Path, env: dict) -> dict:
    """Page faults of the startup scenario, native, as medians of FAULT_RUNS:
    minor faults with the binary in the page cache (each first touch of a
    mapped page that fault-around has not mapped yet), and major faults after
    evicting the binary with POSIX_FADV_DONTNEED.  The second figure depends
    on the disk's read-ahead (see read_ahead_kb), which the notes print."""
    minor, major = [], []
    for _ in range(FAULT_RUNS):
        minor.append(run_and_count_faults(cmd, cwd, env)[0])
        evict_from_page_cache(exe)
        major.append(run_and_count_faults(cmd, cwd, env)[1])
    return {"minor": int(statistics.median(minor)),
            "major_evicted": int(statistics.median(major)),
            "minor_runs": minor, "major_evicted_runs": major}


def read_ahead_kb() -> dict:
    """Read-ahead of each block device, for the notes on major faults."""
    out = {}
    for dev in sorted(Path("/sys/block").glob("*")):
        try:
            out[dev.name] = int((dev / "queue" / "read_ahead_kb").read_text())
        except (OSError, ValueError):
            pass
    return out


def section_sizes(text: str) -> dict[str, int]:
    """`llvm-size -A` output -> {section: size}."""
    out = {}
    for line in text.splitlines():
        toks = line.split()
        if len(toks) == 3 and toks[0].startswith(".") and toks[1].isdigit():
            out[toks[0]] = out.get(toks[0], 0) + int(toks[1])
    return out


def count_relocs(text: str) -> dict[str, int]:
    """`llvm-readelf -rW` output -> {section: relocations} plus
    {"TYPE@section": relocations of that type}.

    The per-section count is readelf's "contains N entries", which for a
    packed .relr.dyn is the number of decoded (R_X86_64_RELATIVE)
    relocations, not the number of RELR words.
    """
    out: dict[str, int] = {}
    section = None
    for line in text.splitlines():
        m = re.match(r"^Relocation section '([^']+)' .* contains (\d+) entr", line)
        if m:
            section = m.group(1)
            out[section] = int(m.group(2))
            if section.startswith(".relr"):
                out["R_X86_64_RELATIVE@" + section] = int(m.group(2))
            continue
        m = re.match(r"^\s*[0-9a-fA-F]{8,}\s+[0-9a-fA-F]{8,}\s+(R_\w+)", line)
        if section and not section.startswith(".relr") and m:
            key = m.group(1) + "@" + section
            out[key] = out.get(key, 0) + 1
    return out


def read_cachegrind(path: Path) -> dict[str, int]:
    """Totals of a cachegrind.out file ({event: count})."""
    events: list[str] = []
    summary: list[int] = []
    for line in path.read_text(errors="replace").splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(t) for t in line.split()[1:]]
    return dict(zip(events, summary))

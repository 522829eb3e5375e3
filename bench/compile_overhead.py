#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Compile-time (and link-time) overhead of Kiln on a whole build (issue 4).

Builds every translation unit of the generated sample application
(bench/sample-app/generate.py) with -O2 and an IR PGO profile, in these
configurations:

  A          stock clang: -O2 -fprofile-use=P
  B          A + -fpass-plugin=KilnPlugin-22.so (plugin loaded, no Kiln option)
  C          B + -mllvm -kiln-section-placement
               -mllvm -kiln-startup-profile=<startup profile> -mllvm -kiln-strtab
  A-thin     (--thinlto) A + -flto=thin   (ThinLTO pre-link compile)
  D-thin     (--thinlto) C + -flto=thin

and optionally two ThinLTO links of the same (stock, PGO) bitcode objects:

  L-lld      clang++ -fuse-ld=lld -flto=thin  (stock lld; its default cdsort
             call-graph sort from the profile's CG edges)
  L-kiln     clang++ -fuse-ld=kiln-lld -flto=thin -Wl,--kiln-profile=<steady>
             -Wl,--kiln-startup-profile=<startup>  (the one-command link: a
             preliminary link, Kiln's order, the real link)

Method (docs/benchmarks.md, "Compile and link overhead"): the profile is trained
once, as bench/run.py does (instrumented build, `steady` and `startup` runs,
merged).  Then N rounds; in each round every configuration compiles every TU
of the app, serially (one clang process at a time), interleaved TU by TU: TU
t of round r is compiled in the configurations in the order
rotated(configs, r + t) (A B C, then B C A, ...), so that the
configurations' builds share the same minutes of a machine whose load drifts
(--interleave=build: whole builds in turn, rotated per round).  The links
are interleaved per round, rotated likewise.  Each clang (or link driver) process is waited for with
os.wait4, whose rusage gives its user+sys CPU time (including the children it
waited for: ld.lld under the link driver); a build's CPU total is the sum over
its processes.  Wall time of each process is measured too.  Per round, the
ratio of every configuration to its baseline (A for B and C, A-thin for
D-thin, L-lld for L-kiln) is computed from that round's totals; the table
gives the median total over rounds and the median, min and max of the
per-round ratios.  No absolute time is a figure of merit.

The plugin without options must not change the objects: B's objects are
compared byte for byte with A's (reported).  The links' programs are run
(`startup`) and their outputs compared.

Python 3.11, standard library only.  Reuses bench/run.py for generating the
app and for the PGO training.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (its argument parser, for the harness)
from lib import common, configs, measure, report  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_WORK_DIR = REPO_DIR / "build" / "compile-overhead"
DEFAULT_KILN_BUILD = REPO_DIR / "build"


# ==========================================================================
# Pure helpers (unit-tested in bench/tests/test_compile_overhead.py)
# ==========================================================================

def rotated(items: Sequence[str], round_index: int) -> list[str]:
    """The order of `items` in round `round_index`: rotated left by the
    round index, so every item takes every position equally often over
    len(items) rounds (round 0: A B C, round 1: B C A, round 2: C A B)."""
    items = list(items)
    if not items:
        return []
    k = round_index % len(items)
    return items[k:] + items[:k]


def per_round_ratios(rounds: Sequence[dict], name: str, base: str) -> list[float]:
    """Ratio value[name] / value[base] of every round that has both (each
    round is a {config: value} dict)."""
    out = []
    for r in rounds:
        if name in r and base in r and r[base] > 0:
            out.append(r[name] / r[base])
    return out


def ratio_summary(ratios: Sequence[float]) -> dict:
    """Median, min and max of per-round ratios (None when empty)."""
    if not ratios:
        return {"median": None, "min": None, "max": None, "n": 0}
    return {"median": statistics.median(ratios), "min": min(ratios),
            "max": max(ratios), "n": len(ratios)}


def overhead_pct(ratio: Optional[float]) -> Optional[float]:
    """Ratio 1.023 -> +2.3 (%)."""
    return None if ratio is None else (ratio - 1.0) * 100.0


def verdict(summary: dict, target_pct: float) -> str:
    """'met' if the median ratio is within 1 + target_pct/100 and so are
    all rounds; 'met (median; some rounds above)' if only the median is;
    'not met' if the median is above."""
    med = summary["median"]
    if med is None:
        return "n/a"
    limit = 1.0 + target_pct / 100.0
    if med > limit:
        return "not met"
    if summary["max"] is not None and summary["max"] > limit:
        return "met (median; some rounds above)"
    return "met"


# ==========================================================================
# Running and timing processes
# ==========================================================================

def timed_run(cmd: Sequence[str], log_file: Path, env: dict, cwd: Optional[Path] = None
              ) -> dict:
    """Run cmd, wait for it with os.wait4 and return its times:
    {"user", "sys", "cpu" (user+sys), "wall", "maxrss_kb"}.  The rusage of a
    waited-for child includes the children it waited for itself (ld.lld
    under a clang link driver).  Raises common.StepError on failure."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with open(log_file, "wb") as f:
        f.write(b"$ " + shlex.join(cmd).encode() + b"\n")
        f.flush()
        t0 = time.perf_counter()
        try:
            proc = subprocess.Popen(list(cmd), stdout=f, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        except OSError as e:
            raise common.StepError("cannot run %s: %s" % (cmd[0], e)) from None
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        f.write(b"\n# exit status: %d\n" % proc.returncode)
    if proc.returncode != 0:
        tail = log_file.read_text(errors="replace").strip().splitlines()[-6:]
        raise common.StepError("%s failed (exit status %d); log: %s%s" % (
            os.path.basename(cmd[0]), proc.returncode, log_file,
            "".join("\n    " + l for l in tail)))
    return {"user": ru.ru_utime, "sys": ru.ru_stime, "cpu": ru.ru_utime + ru.ru_stime,
            "wall": wall, "maxrss_kb": ru.ru_maxrss}


def clean_env() -> dict:
    """The environment of every measured process: the caller's, without
    anything that would change what the plugin or clang does (KILN_OPTIONS,
    CCC_OVERRIDE_OPTIONS, ...)."""
    env = dict(os.environ)
    for k in ("KILN_OPTIONS", "KILN_PLUGIN", "CCC_OVERRIDE_OPTIONS", "LLVM_PROFILE_FILE",
              "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "LC_ALL"):
        env.pop(k, None)
    env["LC_ALL"] = "C"
    return env


def loadavg() -> Optional[list[float]]:
    try:
        return [float(x) for x in Path("/proc/loadavg").read_text().split()[:3]]
    except OSError:
        return None


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def log(msg: str) -> None:
    print("compile-overhead: " + msg, file=sys.stderr, flush=True)


# ==========================================================================
# Configurations
# ==========================================================================

BASE_CFLAGS = ["-O2", "-fprofile-use={profile}"]


def compile_configs(plugin: str, startup_profile: Path, thinlto: bool) -> dict:
    """name -> {"flags": [...], "base": baseline name or None, "desc": ...}."""
    plug = ["-fpass-plugin=" + plugin]
    kiln_opts = ["-mllvm", "-kiln-section-placement",
                 "-mllvm", "-kiln-startup-profile=%s" % startup_profile,
                 "-mllvm", "-kiln-strtab"]
    cfgs = {
        "A": {"flags": BASE_CFLAGS, "base": None, "desc": "stock clang, -O2 -fprofile-use"},
        "B": {"flags": BASE_CFLAGS + plug, "base": "A",
              "desc": "A + -fpass-plugin=KilnPlugin-22.so, no Kiln option"},
        "C": {"flags": BASE_CFLAGS + plug + kiln_opts, "base": "A",
              "desc": "B + -kiln-section-placement -kiln-startup-profile= -kiln-strtab"},
    }
    if thinlto:
        cfgs["A-thin"] = {"flags": BASE_CFLAGS + ["-flto=thin"], "base": None,
                          "desc": "A + -flto=thin (ThinLTO pre-link compile)"}
        cfgs["D-thin"] = {"flags": BASE_CFLAGS + ["-flto=thin"] + plug + kiln_opts,
                          "base": "A-thin", "desc": "C + -flto=thin (ThinLTO pre-link compile)"}
    return cfgs


def select_configs(cfgs: dict, wanted: Optional[Sequence[str]]) -> dict:
    """The configurations named in `wanted` (all if None) plus their
    baselines, in the order of `cfgs`."""
    if wanted is None:
        return dict(cfgs)
    keep = set()
    for name in wanted:
        if name not in cfgs:
            raise common.StepError("unknown configuration %r; known: %s" % (name, ", ".join(cfgs)))
        keep.add(name)
        if cfgs[name]["base"]:
            keep.add(cfgs[name]["base"])
    return {n: c for n, c in cfgs.items() if n in keep}


def link_configs(kiln_lld: str, steady: Path, startup: Path) -> dict:
    common = ["-O2", "-flto=thin", "-Wl,--thinlto-jobs=1"]
    return {
        "L-lld": {"flags": ["-fuse-ld=lld"] + common, "base": None,
                  "desc": "ThinLTO link, stock ld.lld (default cdsort from the CG profile)"},
        "L-kiln": {"flags": ["-fuse-ld=%s" % kiln_lld] + common +
                   ["-Wl,--kiln-profile=%s" % steady,
                    "-Wl,--kiln-startup-profile=%s" % startup],
                   "base": "L-lld",
                   "desc": "ThinLTO link, kiln-lld --kiln-profile= --kiln-startup-profile= "
                           "(preliminary link + order + final link)"},
    }


# ==========================================================================
# The benchmark
# ==========================================================================

class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.work = Path(args.work_dir).resolve()
        self.env = clean_env()
        # bench/run.py's harness, for the app and the training only.
        run_argv = ["--work-dir", str(self.work), "--sample-size", args.sample_size,
                    "--jobs", str(args.jobs), "--llvm-bin", args.llvm_bin,
                    "--configs", "PGO"]
        if args.seed is not None:
            run_argv += ["--seed", str(args.seed)]
        self.run_args = run.parse_args(run_argv)
        self.tools = measure.Tools.find(self.run_args)
        self.harness = measure.Harness(self.run_args, self.tools)

    def prepare(self) -> None:
        h = self.harness
        h.clean()
        for sub in ("ct",):
            if (self.work / sub).exists():
                shutil.rmtree(self.work / sub)
        h.app = h.generate()
        self.profile = h.profile_for("irpgo")
        self.scenario_profiles = h.scenario_profiles["irpgo"]
        self.app = h.app

    def compile_cmds(self, name: str, flags: list[str]) -> list[tuple[str, list[str], Path]]:
        app = self.app
        out_dir = self.work / "ct" / name / "obj"
        cmds = []
        for src in app.sources:
            driver_attr, lang_flags = measure.LANGUAGES[Path(src).suffix]
            obj = out_dir / (src + ".o")
            obj.parent.mkdir(parents=True, exist_ok=True)
            cmd = ([getattr(self.tools, driver_attr)] + lang_flags + app.cflags +
                   common.expand(flags, profile=self.profile) +
                   ["-c", str(app.dir / src), "-o", str(obj)])
            cmds.append((src, cmd, obj))
        return cmds

    def build_round(self, cfgs: dict, round_index: int, interleave: str) -> dict:
        """Compile every TU once per configuration, serially.

        interleave="tu": for each TU in turn, compile it in every
        configuration, in the order rotated(configs, round + TU index); the
        configurations' builds thus share the same minutes of machine time.
        interleave="build": whole builds, in the order rotated(configs, round).
        Returns {config: {"total": {...}, "per_tu": {src: times}}, "order": ...}.
        """
        names = list(cfgs)
        cmds = {n: self.compile_cmds(n, cfgs[n]["flags"]) for n in names}
        ntu = len(self.app.sources)
        steps = []   # (config, TU index)
        if interleave == "tu":
            for t in range(ntu):
                steps += [(n, t) for n in rotated(names, round_index + t)]
        else:
            for n in rotated(names, round_index):
                steps += [(n, t) for t in range(ntu)]
        out = {n: {"total": {"cpu": 0.0, "user": 0.0, "sys": 0.0, "wall": 0.0,
                             "maxrss_kb": 0}, "per_tu": {}} for n in names}
        for n, t in steps:
            src, cmd, _obj = cmds[n][t]
            tm = timed_run(cmd, self.work / "ct" / n / "logs" / (src + ".log"), self.env,
                           cwd=self.app.dir)
            out[n]["per_tu"][src] = {k: round(v, 4) if isinstance(v, float) else v
                                     for k, v in tm.items()}
            tot = out[n]["total"]
            for k in ("cpu", "user", "sys", "wall"):
                tot[k] += tm[k]
            tot["maxrss_kb"] = max(tot["maxrss_kb"], tm["maxrss_kb"])
        return out

    def objects(self, name: str) -> list[Path]:
        return [obj for _, _, obj in self.compile_cmds(name, [])]

    def warm_up(self, cfgs: dict) -> None:
        """Load clang, the plugin, the headers and the profile into the page
        cache: compile the first two TUs once per configuration (not
        measured)."""
        for name, c in cfgs.items():
            for src, cmd, _ in self.compile_cmds(name, c["flags"])[:2]:
                timed_run(cmd, self.work / "ct" / "warmup" / name / (src + ".log"), self.env,
                          cwd=self.app.dir)

    def link(self, name: str, flags: list[str], objects: list[Path]) -> dict:
        d = self.work / "ct" / "links" / name
        d.mkdir(parents=True, exist_ok=True)
        exe = d / self.app.exe_name
        if exe.exists():
            exe.unlink()
        cmd = [self.tools.clangxx] + flags + [str(o) for o in objects] + ["-o", str(exe)]
        t = timed_run(cmd, d / "link.log", self.env, cwd=d)
        return t

    def run_rounds(self) -> dict:
        args = self.args
        plugin = args.plugin
        steady = self.scenario_profiles["steady"]
        startup = self.scenario_profiles["startup"]
        cfgs = select_configs(compile_configs(plugin, startup, args.thinlto), args.configs)
        lcfgs = link_configs(args.kiln_lld, steady, startup) if args.link_rounds else {}
        names = list(cfgs)
        log("warm-up (first 2 TUs per configuration, not measured)")
        self.warm_up(cfgs)
        rounds = []
        t_start = time.monotonic()
        for i in range(args.rounds):
            r = {"round": i, "interleave": args.interleave,
                 "order": rotated(names, i), "loadavg_before": loadavg()}
            r["builds"] = self.build_round(cfgs, i, args.interleave)
            log("round %d/%d: %s  (%.0fs elapsed)" % (
                i + 1, args.rounds, "  ".join(
                    "%s cpu %.2fs wall %.2fs" % (n, b["total"]["cpu"], b["total"]["wall"])
                    for n, b in r["builds"].items()), time.monotonic() - t_start))
            r["loadavg_after"] = loadavg()
            if i == 0:
                r["identical_objects"] = self.compare_objects(list(cfgs))
            rounds.append(r)

        link_rounds = []
        if lcfgs:
            # Link the stock ThinLTO objects (A-thin's if measured, else a
            # one-off parallel compile, not measured).
            if "A-thin" in cfgs:
                objs = self.objects("A-thin")
            else:
                log("compiling ThinLTO bitcode for the links (-j%d, not measured)" % args.jobs)
                flags = BASE_CFLAGS + ["-flto=thin"]
                build = self.harness.compile(
                    "link-objects", self.work / "ct" / "link-objects",
                    common.expand(flags, profile=self.profile))
                objs = build.objects
            lnames = list(lcfgs)
            log("warm-up link (L-lld, not measured)")
            self.link("L-lld", lcfgs["L-lld"]["flags"], objs)
            for i in range(args.link_rounds):
                order = rotated(lnames, i)
                r = {"round": i, "order": order, "loadavg_before": loadavg(), "links": {}}
                for name in order:
                    t = self.link(name, lcfgs[name]["flags"], objs)
                    r["links"][name] = t
                    log("link round %d/%d %-7s cpu %7.2fs  wall %7.2fs" % (
                        i + 1, args.link_rounds, name, t["cpu"], t["wall"]))
                r["loadavg_after"] = loadavg()
                link_rounds.append(r)
            self.check_links(lnames)
        return {"configs": cfgs, "link_configs": lcfgs, "rounds": rounds,
                "link_rounds": link_rounds}

    def compare_objects(self, names: list[str]) -> dict:
        """For each configuration with a baseline: how many of its objects
        are byte-identical to the baseline's (after round 0)."""
        out = {}
        base_of = {"B": "A", "C": "A", "D-thin": "A-thin"}
        for name in names:
            base = base_of.get(name)
            if base not in names:
                continue
            a = [sha256(o) for o in self.objects(base)]
            b = [sha256(o) for o in self.objects(name)]
            out[name] = {"vs": base, "identical": sum(x == y for x, y in zip(a, b)),
                         "of": len(a)}
        return out

    def check_links(self, names: list[str]) -> None:
        """Both linked programs must run and print the same startup output."""
        outs = {}
        for name in names:
            d = self.work / "ct" / "links" / name
            proc = subprocess.run(["./" + self.app.exe_name, "startup"], cwd=d,
                                  env=common.run_env(), capture_output=True)
            if proc.returncode != 0:
                raise common.StepError("link %s: program failed (exit %d)" % (name, proc.returncode))
            outs[name] = proc.stdout
        if len(set(outs.values())) != 1:
            raise common.StepError("linked programs print different startup output: %s" %
                                ", ".join(outs))


# ==========================================================================
# Report
# ==========================================================================

def summarize(data: dict, target_pct: float) -> list[dict]:
    rows = []
    for kind, cfgs, rounds, key in (("compile", data["configs"], data["rounds"], "builds"),
                                    ("link", data["link_configs"], data["link_rounds"], "links")):
        if not rounds:
            continue
        for name, c in cfgs.items():
            def total(r, metric, cfg=name):
                v = r[key][cfg]
                return (v["total"] if kind == "compile" else v)[metric]
            cpu = [total(r, "cpu") for r in rounds]
            wall = [total(r, "wall") for r in rounds]
            row = {"kind": kind, "name": name, "desc": c["desc"], "base": c["base"],
                   "flags": c["flags"], "cpu_median_s": statistics.median(cpu),
                   "wall_median_s": statistics.median(wall), "cpu_s": cpu, "wall_s": wall}
            if c["base"]:
                cpu_rounds = [{n: total(r, "cpu", n) for n in (name, c["base"])} for r in rounds]
                wall_rounds = [{n: total(r, "wall", n) for n in (name, c["base"])} for r in rounds]
                row["cpu_ratio"] = ratio_summary(per_round_ratios(cpu_rounds, name, c["base"]))
                row["wall_ratio"] = ratio_summary(per_round_ratios(wall_rounds, name, c["base"]))
                row["cpu_ratios"] = per_round_ratios(cpu_rounds, name, c["base"])
                row["wall_ratios"] = per_round_ratios(wall_rounds, name, c["base"])
                if kind == "compile":
                    row["verdict"] = verdict(row["cpu_ratio"], target_pct)
            rows.append(row)
    return rows


def fmt_ratio(s: Optional[dict]) -> str:
    if not s or s["median"] is None:
        return "-"
    return "%.3f [%.3f-%.3f]" % (s["median"], s["min"], s["max"])


def text_table(rows: list[dict], markdown: bool = False) -> str:
    heads = ["kind", "config", "vs", "CPU s (median)", "CPU ratio median [min-max]",
             "wall s (median)", "wall ratio median [min-max]", "target <=3%"]
    body = []
    for r in rows:
        body.append([r["kind"], r["name"], r["base"] or "-", "%.2f" % r["cpu_median_s"],
                     fmt_ratio(r.get("cpu_ratio")), "%.2f" % r["wall_median_s"],
                     fmt_ratio(r.get("wall_ratio")), r.get("verdict", "-")])
    align = "lllrrrrl"
    if markdown:
        return report.markdown_table(heads, body, align)
    return report.text_table(heads, body, align)


def git_describe() -> str:
    try:
        return subprocess.run(["git", "-C", str(REPO_DIR), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# ==========================================================================
# Main
# ==========================================================================

def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        description="Compile-time overhead of Kiln's pass plugin (and of kiln-lld's "
                    "one-command link) on a whole build of the sample application: "
                    "interleaved rounds, per-process CPU time, median per-round ratios.")
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK_DIR),
                    help="build directory (default: %(default)s); rebuilt on every run")
    ap.add_argument("--rounds", type=int, default=5,
                    help="rounds of whole-app builds per configuration (default: 5)")
    ap.add_argument("--interleave", choices=["tu", "build"], default="tu",
                    help="tu (default): each TU is compiled in every configuration in "
                         "turn (order rotated per TU and round); build: whole builds "
                         "in turn (order rotated per round)")
    ap.add_argument("--link-rounds", type=int, default=None,
                    help="rounds of the two ThinLTO links (default: --rounds; 0 = no links)")
    ap.add_argument("--thinlto", action="store_true",
                    help="also measure the ThinLTO pre-link compile (A-thin, D-thin)")
    ap.add_argument("--configs", default=None,
                    help="comma-separated compile configurations (A, B, C; with --thinlto "
                         "also A-thin, D-thin); baselines are added (default: all)")
    ap.add_argument("--sample-size", choices=sorted(configs.SAMPLE_SIZES), default="default")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", "-j", type=int, default=2,
                    help="parallel jobs of the (unmeasured) training build (default: 2); "
                         "measured compiles and links are always serial")
    ap.add_argument("--llvm-bin", default=common.DEFAULT_LLVM_BIN)
    ap.add_argument("--kiln-build", default=str(DEFAULT_KILN_BUILD),
                    help="Kiln build directory with lib/KilnPlugin-22.so and bin/kiln-lld "
                         "(default: %(default)s)")
    ap.add_argument("--plugin", default=None, help="the pass plugin (default: KILN_BUILD/lib/"
                                                   "KilnPlugin-22.so)")
    ap.add_argument("--kiln-lld", default=None, help="default: KILN_BUILD/bin/kiln-lld")
    ap.add_argument("--target-pct", type=float, default=3.0,
                    help="compile-time overhead target in percent (default: 3)")
    ap.add_argument("--json", default=None, help="default: WORK_DIR/compile-overhead.json")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    if args.configs is not None:
        args.configs = [c.strip() for c in args.configs.split(",") if c.strip()]
        if any(c.endswith("-thin") for c in args.configs):
            args.thinlto = True
    if args.link_rounds is None:
        args.link_rounds = args.rounds
    kb = Path(args.kiln_build)
    args.plugin = str(Path(args.plugin or kb / "lib" / "KilnPlugin-22.so").resolve())
    args.kiln_lld = str(Path(args.kiln_lld or kb / "bin" / "kiln-lld").resolve())
    common.check_work_dir(ap, args.work_dir)
    for what, p in (("plugin", args.plugin),) + ((("kiln-lld", args.kiln_lld),)
                                                  if args.link_rounds else ()):
        if not Path(p).is_file():
            ap.error("%s not found: %s (build Kiln first)" % (what, p))
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    start = time.monotonic()
    try:
        bench = Bench(args)
        log("generating and training (bench/run.py's irpgo training, -j%d)" % args.jobs)
        bench.prepare()
        data = bench.run_rounds()
    except common.StepError as e:
        log("error: %s" % e)
        return 1
    rows = summarize(data, args.target_pct)
    elapsed = time.monotonic() - start
    version = bench.tools.version()
    ntu = len(bench.app.sources)
    header = ("Kiln compile-time overhead: sample app (%s, seed %s, %d TUs), %d rounds "
              "(%d link rounds), serial; %s; Kiln %s" % (
                  args.sample_size, "default" if args.seed is None else args.seed, ntu,
                  args.rounds, args.link_rounds, version, git_describe()))
    print(header)
    print()
    print(text_table(rows))
    print()
    notes = [
        "CPU = user+sys of every clang/link-driver process (os.wait4 rusage, children "
        "included), summed over the build; ratios are per round against the baseline "
        "built in the same round, then median [min-max] over rounds",
    ]
    if data["rounds"] and "identical_objects" in data["rounds"][0]:
        for name, v in data["rounds"][0]["identical_objects"].items():
            notes.append("objects of %s byte-identical to %s's: %d of %d" % (
                name, v["vs"], v["identical"], v["of"]))
    la = [r["loadavg_before"][0] for r in data["rounds"] + data["link_rounds"]
          if r.get("loadavg_before")]
    if la:
        notes.append("1-min load average at round starts: %.2f-%.2f (machine has %d CPUs)" % (
            min(la), max(la), os.cpu_count() or 0))
    notes.append("total run time %.0fs" % elapsed)
    for n in notes:
        print(n)
    doc = {
        "schema": 1,
        "command": ["bench/compile_overhead.py"] + list(sys.argv[1:] if argv is None else argv),
        "toolchain": {"version": version, "clang": bench.tools.clang,
                      "clangxx": bench.tools.clangxx},
        "kiln": {"commit": git_describe(), "plugin": args.plugin,
                 "plugin_sha256": sha256(Path(args.plugin)), "kiln_lld": args.kiln_lld},
        "host": {"kernel": platform.release(), "cpus": os.cpu_count(),
                 "python": platform.python_version()},
        "sample": {"size": args.sample_size, "seed": args.seed, "tus": ntu,
                   "sources": bench.app.sources},
        "profiles": {"merged": str(bench.profile),
                     **{k: str(v) for k, v in bench.scenario_profiles.items()}},
        "rounds_requested": args.rounds, "link_rounds_requested": args.link_rounds,
        "target_pct": args.target_pct,
        "summary": rows,
        "rounds": data["rounds"], "link_rounds": data["link_rounds"],
        "notes": notes, "wall_time_s": round(elapsed, 1),
    }
    json_path = Path(args.json) if args.json else bench.work / "compile-overhead.json"
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(doc, indent=1) + "\n")
    (bench.work / "compile-overhead.md").write_text(
        header + "\n\n" + text_table(rows, markdown=True) + "\n\n" +
        "\n".join("- " + n for n in notes) + "\n")
    log("results: %s (total %.0fs)" % (json_path, elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

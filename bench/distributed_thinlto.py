#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Distributed ThinLTO with Kiln (issue 6): same program, and backend times.

Builds the generated sample application (bench/sample-app/generate.py) with
-O2 -flto=thin and an IR PGO profile (trained as bench/run.py does), then
links it with Kiln's options

    -mllvm -kiln-section-placement -mllvm -kiln-startup-profile=<startup>
    -mllvm -kiln-strtab

in two ways:

  in-process   clang++ -fuse-ld=kiln-lld -flto=thin ... -Wl,-mllvm,<option>
               (one link; lld runs the ThinLTO backends in its process;
               --lto-obj-path keeps the backends' objects)
  distributed  clang++ -fuse-ld=lld -flto=thin -Wl,--thinlto-index-only
               (the thin link: one <object>.thinlto.bc per module), then
               `kiln thin-backend <object> --thinlto-index=... -mllvm ...`
               per module, then clang++ -fuse-ld=lld <native objects>

and reports whether the two programs are byte-identical, whether each
backend object is byte-identical to the in-process backend's object of the
same module, and whether both programs print the same for `startup` and
`steady`.

Backend times (the rounds): every module's backend job is run, serially,
in three variants, in an order rotated per module and round (as
bench/compile_overhead.py does, so that the variants share the minutes of a
machine whose load drifts):

  kiln          kiln thin-backend with Kiln's options
  kiln-plain    kiln thin-backend without Kiln options (the plugin loaded,
                nothing enabled)
  clang         clang -O2 -c -x ir <object> -fthinlto-index=<index>
                -ffunction-sections -fdata-sections -fpass-plugin=<plugin>
                -mllvm <Kiln's options>: the stock way to run a job; LLVM
                22's clang drops the plugin there, so no Kiln pass runs

Each process's user+sys CPU time comes from os.wait4; a variant's round
total is the sum over modules. The table gives the median total over rounds
and the median (min, max) of the per-round ratios to `clang`. No absolute
time is a figure of merit.

Python 3.11, standard library only. Reuses bench/run.py (generation,
training, compilation) and bench/compile_overhead.py (timed runs, ratios).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import struct
import sys
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
import compile_overhead as co  # noqa: E402  (timed runs, ratios)
import run  # noqa: E402  (its argument parser, for the harness)
from lib import common, configs, measure, report  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_WORK_DIR = REPO_DIR / "build" / "distributed-thinlto"
DEFAULT_KILN_BUILD = REPO_DIR / "build"

VARIANTS = ("kiln", "kiln-plain", "clang")
BASELINE = "clang"


def log(msg: str) -> None:
    print("distributed-thinlto: " + msg, file=sys.stderr, flush=True)


# ==========================================================================
# Pure helpers (unit-tested in bench/tests/test_distributed_thinlto.py)
# ==========================================================================

def kiln_llvm_options(startup_profile: Path) -> list[str]:
    """The Kiln options of both builds, as -mllvm values."""
    return ["-kiln-section-placement",
            "-kiln-startup-profile=%s" % startup_profile,
            "-kiln-strtab"]


def index_file(obj: Path) -> Path:
    """Where ld.lld --thinlto-index-only writes an object's index."""
    return obj.with_name(obj.name + ".thinlto.bc")


def backend_command(variant: str, tools: dict, obj: Path, out: Path,
                    options: Sequence[str]) -> list[str]:
    """The backend job of `obj` in `variant` (see the module docstring)."""
    index = index_file(obj)
    if variant in ("kiln", "kiln-plain"):
        cmd = [tools["kiln"], "thin-backend", str(obj),
               "--thinlto-index=%s" % index, "-o", str(out),
               "--plugin=%s" % tools["plugin"]]
        if variant == "kiln":
            for option in options:
                cmd += ["-mllvm", option]
        return cmd
    if variant == "clang":
        cmd = [tools["clang"], "-O2", "-c", "-x", "ir", str(obj),
               "-fthinlto-index=%s" % index, "-ffunction-sections",
               "-fdata-sections", "-fpass-plugin=%s" % tools["plugin"],
               "-o", str(out)]
        for option in options:
            cmd += ["-mllvm", option]
        return cmd
    raise ValueError("unknown variant %r" % variant)


def match_objects(distributed: dict[str, bytes], inprocess: Sequence[bytes]
                  ) -> dict[str, bool]:
    """For each distributed backend object (module -> bytes), whether an
    in-process backend object has exactly its bytes. lld numbers its
    backend objects by task, not by module, so they are matched by content."""
    digests = {hashlib.sha256(b).hexdigest() for b in inprocess}
    return {module: hashlib.sha256(data).hexdigest() in digests
            for module, data in distributed.items()}


def elf_sections(data: bytes) -> dict[str, tuple[int, int]]:
    """{section name: (file offset, size)} of an ELF64 little-endian file's
    sections that occupy file bytes (not SHT_NOBITS, not the null section)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not an ELF64 little-endian file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = []
    for i in range(shnum):
        name, type_, _, _, offset, size = struct.unpack_from(
            "<IIQQQQ", data, shoff + i * shentsize)
        headers.append((name, type_, offset, size))
    strtab_offset = headers[shstrndx][2]
    out = {}
    for name, type_, offset, size in headers[1:]:
        if type_ == 8:   # SHT_NOBITS
            continue
        end = data.index(b"\0", strtab_offset + name)
        out[data[strtab_offset + name:end].decode()] = (offset, size)
    return out


def diff_sections(a: bytes, b: bytes) -> dict[str, str]:
    """The sections of ELF files `a` and `b` whose bytes differ: name ->
    "N of M bytes", "size A vs B", or "only in one"."""
    sa, sb = elf_sections(a), elf_sections(b)
    out = {}
    for name in sorted(set(sa) | set(sb)):
        if name not in sa or name not in sb:
            out[name] = "only in one"
            continue
        (oa, za), (ob, zb) = sa[name], sb[name]
        if za != zb:
            out[name] = "size %d vs %d" % (za, zb)
            continue
        differing = sum(1 for x, y in zip(a[oa:oa + za], b[ob:ob + zb]) if x != y)
        if differing:
            out[name] = "%d of %d bytes" % (differing, za)
    return out


def summarize_rounds(rounds: Sequence[dict]) -> dict:
    """rounds: [{variant: {"cpu": s, "wall": s}}] -> per variant and metric
    the median total over rounds and the per-round ratio to BASELINE
    (median, min, max)."""
    out = {}
    for variant in VARIANTS:
        out[variant] = {}
        for metric in ("cpu", "wall"):
            per_round = [{v: t[metric] for v, t in r.items()} for r in rounds]
            totals = [r[variant] for r in per_round if variant in r]
            out[variant][metric] = {
                "median_s": statistics.median(totals) if totals else None,
                "ratio": co.ratio_summary(co.per_round_ratios(per_round, variant, BASELINE)),
            }
    return out


def fmt_ratio(summary: dict) -> str:
    if summary["median"] is None:
        return "n/a"
    return "%.3f (%.3f-%.3f)" % (summary["median"], summary["min"], summary["max"])


# ==========================================================================
# The benchmark
# ==========================================================================

class Bench:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.work = Path(args.work_dir).resolve()
        self.env = co.clean_env()
        kiln_build = Path(args.kiln_build).resolve()
        run_argv = ["--work-dir", str(self.work), "--sample-size", args.sample_size,
                    "--jobs", str(args.jobs), "--llvm-bin", args.llvm_bin,
                    "--kiln-bin", str(kiln_build / "bin"), "--configs", "PGO"]
        if args.seed is not None:
            run_argv += ["--seed", str(args.seed)]
        self.run_args = run.parse_args(run_argv)
        self.run_tools = measure.Tools.find(self.run_args)
        self.harness = measure.Harness(self.run_args, self.run_tools)
        self.tools = {
            "clang": self.run_tools.clang,
            "clangxx": self.run_tools.clangxx,
            "kiln": str(kiln_build / "bin" / "kiln"),
            "kiln_lld": str(kiln_build / "bin" / "kiln-lld"),
            "plugin": str(kiln_build / "lib" / "KilnPlugin-22.so"),
        }
        for name in ("kiln", "kiln_lld", "plugin"):
            if not Path(self.tools[name]).is_file():
                raise common.StepError("%s not found: %s (build Kiln first)" % (name, self.tools[name]))
        self.results: dict = {"rounds": []}

    def prepare(self) -> None:
        h = self.harness
        h.clean()
        for sub in ("thin", "inprocess", "distributed", "rounds"):
            if (self.work / sub).exists():
                shutil.rmtree(self.work / sub)
        h.app = h.generate()
        profile = h.profile_for("irpgo")
        self.startup_profile = h.scenario_profiles["irpgo"]["startup"]
        self.options = kiln_llvm_options(self.startup_profile)
        build = h.compile("thin", self.work / "thin",
                          ["-O2", "-flto=thin", "-fprofile-use=%s" % profile])
        self.objects = build.objects
        self.app = h.app

    def timed(self, cmd: list[str], name: str) -> dict:
        return co.timed_run(cmd, self.work / "logs" / (name + ".log"), self.env)

    def inprocess_link(self, exe: Path, extra: Sequence[str]) -> list[str]:
        return ([self.tools["clangxx"], "-fuse-ld=%s" % self.tools["kiln_lld"], "-O2",
                 "-flto=thin", "-Wl,--thinlto-jobs=1"] + list(extra) +
                ["-Wl,-mllvm,%s" % o for o in self.options] +
                [str(o) for o in self.objects] + ["-o", str(exe)])

    def build_inprocess(self) -> Path:
        out = self.work / "inprocess"
        (out / "objects").mkdir(parents=True, exist_ok=True)
        exe = out / self.app.exe_name
        log("in-process ThinLTO link (kiln-lld, %d modules)" % len(self.objects))
        self.results["inprocess_link"] = self.timed(self.inprocess_link(exe, []),
                                                    "inprocess-link")
        # Once more to keep the backends' objects: --lto-obj-path also makes
        # lld emit an (empty) regular-LTO object, which changes the program,
        # so it is not the program compared.
        self.timed(self.inprocess_link(out / "objects" / "program",
                                       ["-Wl,--lto-obj-path=%s" % (out / "objects" / "lto.o")]),
                   "inprocess-link-objects")
        return exe

    def native_path(self, obj: Path, variant: str) -> Path:
        rel = obj.relative_to(self.work / "thin" / "obj")
        return self.work / "distributed" / variant / (str(rel) + ".native.o")

    def run_backends(self, variant: str, name: str) -> dict[Path, dict]:
        times = {}
        for obj in self.objects:
            out = self.native_path(obj, variant)
            out.parent.mkdir(parents=True, exist_ok=True)
            times[obj] = self.timed(
                backend_command(variant, self.tools, obj, out, self.options),
                "%s/%s" % (name, out.name))
        return times

    def build_distributed(self) -> Path:
        out = self.work / "distributed"
        out.mkdir(parents=True, exist_ok=True)
        exe = out / self.app.exe_name
        thin = ([self.tools["clangxx"], "-fuse-ld=lld", "-O2", "-flto=thin",
                 "-Wl,--thinlto-index-only"] +
                [str(o) for o in self.objects] + ["-o", str(exe)])
        log("thin link (ld.lld --thinlto-index-only)")
        self.results["thin_link"] = self.timed(thin, "thin-link")
        missing = [str(o) for o in self.objects if not index_file(o).is_file()]
        if missing:
            raise common.StepError("the thin link wrote no index for %s" % ", ".join(missing))
        log("backend jobs: kiln thin-backend, %d modules" % len(self.objects))
        backends = self.run_backends("kiln", "backends")
        self.results["distributed_backends_cpu_s"] = sum(t["cpu"] for t in backends.values())
        natives = [self.native_path(o, "kiln") for o in self.objects]
        final = ([self.tools["clangxx"], "-fuse-ld=lld", "-O2"] +
                 [str(n) for n in natives] + ["-o", str(exe)])
        log("final link")
        self.results["final_link"] = self.timed(final, "final-link")
        return exe

    def compare(self, inprocess: Path, distributed: Path) -> None:
        same_program = inprocess.read_bytes() == distributed.read_bytes()
        saved = sorted(p for p in (self.work / "inprocess" / "objects").glob("lto.o*")
                       if p.stat().st_size > 0)
        objects = match_objects(
            {str(o): self.native_path(o, "kiln").read_bytes() for o in self.objects},
            [p.read_bytes() for p in saved])
        outputs = {}
        for mode in ("startup", "steady"):
            args = self.harness.startup_args() if mode == "startup" else \
                self.harness.steady_args()
            got = []
            for exe in (inprocess, distributed):
                self.app.write_inputs(exe.parent)
                proc = common.run_cmd(["./" + exe.name] + args,
                                   self.work / "logs" / ("run-%s-%s.log" % (exe.parent.name, mode)),
                                   "%s %s" % (exe, mode), cwd=exe.parent, env=common.run_env())
                got.append(proc.stdout)
            outputs[mode] = got[0] == got[1]
        self.results["identity"] = {
            "program_byte_identical": same_program,
            "differing_sections": ({} if same_program else
                                   diff_sections(inprocess.read_bytes(),
                                                 distributed.read_bytes())),
            "backend_objects": len(objects),
            "backend_objects_identical": sum(objects.values()),
            "objects_not_identical": sorted(m for m, ok in objects.items() if not ok),
            "same_output": outputs,
        }

    def time_rounds(self) -> None:
        rounds = []
        for r in range(self.args.rounds):
            totals = {v: {"cpu": 0.0, "wall": 0.0} for v in VARIANTS}
            log("round %d/%d: %d modules x %d variants" % (
                r + 1, self.args.rounds, len(self.objects), len(VARIANTS)))
            for i, obj in enumerate(self.objects):
                for variant in co.rotated(VARIANTS, r + i):
                    out = self.native_path(obj, "round-" + variant)
                    out.parent.mkdir(parents=True, exist_ok=True)
                    t = self.timed(backend_command(variant, self.tools, obj, out, self.options),
                                   "rounds/%d/%s/%s" % (r, variant, out.name))
                    totals[variant]["cpu"] += t["cpu"]
                    totals[variant]["wall"] += t["wall"]
            rounds.append(totals)
            self.results["rounds"].append({"totals_s": totals, "loadavg": co.loadavg()})
        self.results["summary"] = summarize_rounds(rounds)

    def report(self) -> str:
        res = self.results
        ident = res["identity"]
        lines = []
        lines.append("Distributed ThinLTO with Kiln: %s (%d modules), Kiln options: %s" % (
            self.app.name, len(self.objects), " ".join(self.options)))
        lines.append("  programs byte-identical (distributed vs in-process): %s" %
                     ("yes" if ident["program_byte_identical"] else "NO"))
        for name, what in ident["differing_sections"].items():
            lines.append("    %-16s differs: %s" % (name, what))
        lines.append("  backend objects byte-identical to lld's in-process ones: %d of %d" % (
            ident["backend_objects_identical"], ident["backend_objects"]))
        for module in ident["objects_not_identical"]:
            lines.append("    differs: %s" % module)
        lines.append("  same output (startup, steady): %s, %s" % tuple(
            "yes" if ident["same_output"][m] else "NO" for m in ("startup", "steady")))
        lines.append("  in-process link: %.2f s CPU; distributed: thin link %.2f s + "
                     "backends %.2f s + final link %.2f s CPU" % (
                         res["inprocess_link"]["cpu"], res["thin_link"]["cpu"],
                         res["distributed_backends_cpu_s"], res["final_link"]["cpu"]))
        lines.append("")
        lines.append("Backend jobs of all modules, seconds (median of %d rounds); ratio to "
                     "clang per round: median (min-max)" % len(res["rounds"]))
        rows = []
        for variant in VARIANTS:
            cpu, wall = res["summary"][variant]["cpu"], res["summary"][variant]["wall"]
            rows.append([variant, "%.2f" % cpu["median_s"], fmt_ratio(cpu["ratio"]),
                         "%.2f" % wall["median_s"], fmt_ratio(wall["ratio"])])
        table = report.text_table(["variant", "CPU s", "CPU ratio", "wall s", "wall ratio"],
                                  rows, "lrlrl")
        lines += ["  " + line for line in table.splitlines()]
        return "\n".join(lines)


def parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK_DIR),
                    help="build products, logs, results (default: %(default)s)")
    ap.add_argument("--sample-size", choices=sorted(configs.SAMPLE_SIZES), default="default")
    ap.add_argument("--seed", type=int, default=None, help="generator seed")
    ap.add_argument("--rounds", type=int, default=3, help="timing rounds (default 3; 0: none)")
    ap.add_argument("--jobs", "-j", type=int, default=2,
                    help="parallel compiles for the app and the training (default 2)")
    ap.add_argument("--llvm-bin", default=common.DEFAULT_LLVM_BIN)
    ap.add_argument("--kiln-build", default=str(DEFAULT_KILN_BUILD),
                    help="Kiln's build (or install) tree: bin/kiln, bin/kiln-lld, "
                         "lib/KilnPlugin-22.so (default: %(default)s)")
    ap.add_argument("--json", help="write the results as JSON here "
                                   "(default: <work-dir>/results.json)")
    args = ap.parse_args(argv)
    args.work_dir = str(common.check_work_dir(ap, args.work_dir))
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    try:
        bench = Bench(args)
        bench.prepare()
        inprocess = bench.build_inprocess()
        distributed = bench.build_distributed()
        bench.compare(inprocess, distributed)
        if args.rounds > 0:
            bench.time_rounds()
    except common.StepError as e:
        print("distributed-thinlto: error: %s" % e, file=sys.stderr)
        return 1
    if args.rounds > 0:
        print(bench.report())
    else:
        print(json.dumps(bench.results["identity"], indent=2))
    out = Path(args.json) if args.json else Path(args.work_dir) / "results.json"
    out.write_text(json.dumps(bench.results, indent=2, default=str) + "\n")
    log("results: %s" % out)
    ok = (bench.results["identity"]["backend_objects_identical"] ==
          bench.results["identity"]["backend_objects"] and
          all(bench.results["identity"]["same_output"].values()))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

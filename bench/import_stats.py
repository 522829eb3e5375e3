#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Thin-link time, backend CPU and import counts of ThinLTO configurations.

Reads the final link of each named configuration from a finished
`bench/run.py` work directory (the command line at the top of
configs/<config>/logs/link.log), and runs it again --rounds times, each time
with two additions that do not change the program:

  -Wl,--time-trace=<file>       lld's time trace; its "Total ThinLink" event is
                                the thin link (summary analysis, import and
                                export decisions), "Total Thin backend" the
                                ThinLTO backends summed over their threads
  -Wl,-mllvm,-print-imports     one "<module>: Import <name> from <module>"
                                line per definition a backend imported

and the output redirected to <work-dir>/import-stats/<config>/.  Each round
also runs the same link index-only (-Wl,--thinlto-index-only, the index
files under the output directory): lld reads the inputs and runs the thin
link but no backend, so the backends' CPU time is the full link's user+sys
less the index-only link's of the same round (the full link's own native
link of the backends' objects stays in it: small beside the backends).  A
row whose configuration ran `kiln imports` (logs/kiln-imports.log) reruns
it too: its user+sys CPU is the plan's cost, part of the build.

The timed links run round-robin (A B C, A B C, ...): each round times every
configuration once, so a shared machine's load drift reaches every row
alike.  Each timed figure is reported as the median of the rounds with its
spread (min-max), and the ratios are of medians, to the reference row
(--reference, default the first configuration).  The link's user+sys CPU
time (os.wait4 of the compiler driver, which waits for ld.lld) is the
figure a loaded machine disturbs least; the time-trace durations are wall
time.  The 1-minute load average before each round is printed under the
table.

The deterministic columns: the imports, counted in one more link with
--thinlto-jobs=1 (parallel backends interleave their -print-imports lines;
the thin link is deterministic, so they are the same in every link) and
split into functions and variables by their symbol type in the linked
program (llvm-nm); held-out Ir and `.text` from run.py's results.json in
the same work directory, with the worst ratio over all held-out workloads.

    python3 bench/import_stats.py --configs PGO+ThinLTO+stock-imports,PGO+ThinLTO+kiln-plan-5pct

Python 3.11, standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lib import report  # noqa: E402
from lib.common import DEFAULT_LLVM_BIN, REPO_DIR, slug  # noqa: E402

DEFAULT_WORK_DIR = REPO_DIR / "build" / "bench"

IMPORT_LINE = re.compile(r"^(?P<into>.+): Import (?P<name>\S+) from (?P<src>.+)$")


class StatsError(Exception):
    """A configuration's link cannot be found or rerun."""


def read_link_command(log_text: str) -> list[str]:
    """The command line run.py wrote as the first line of a link log."""
    first = log_text.split("\n", 1)[0]
    if not first.startswith("$ "):
        raise StatsError("no command line at the top of the link log")
    return shlex.split(first[2:])


def redirect_output(cmd: Sequence[str], output: Path, extra: Sequence[str]) -> list[str]:
    """cmd with its `-o FILE` replaced by `-o output` and extra flags added
    before it."""
    out = list(cmd)
    try:
        i = len(out) - 1 - out[::-1].index("-o")
    except ValueError:
        raise StatsError("no -o in the link command") from None
    if i + 1 >= len(out):
        raise StatsError("-o without a file in the link command")
    return out[:i] + list(extra) + ["-o", str(output)] + out[i + 2:]


def with_one_backend_thread(cmd: Sequence[str]) -> list[str]:
    """cmd with its ThinLTO backend parallelism set to 1."""
    out = [a for a in cmd if not a.startswith("-Wl,--thinlto-jobs=")]
    i = out.index("-o") if "-o" in out else len(out)
    return out[:i] + ["-Wl,--thinlto-jobs=1"] + out[i:]


def parse_imports(stderr: str) -> list[tuple[str, str, str]]:
    """(importing module, imported name, source module) per -print-imports
    line, in output order."""
    found = []
    for line in stderr.splitlines():
        m = IMPORT_LINE.match(line.strip())
        if m:
            found.append((m["into"], m["name"], m["src"]))
    return found


def parse_time_trace(trace: dict) -> dict[str, float]:
    """Seconds of the thin link and of all ThinLTO backends from lld's
    --time-trace output ("Total ..." summary events, durations in µs)."""
    totals = {}
    for event in trace.get("traceEvents", []):
        name = event.get("name", "")
        if name in ("Total ThinLink", "Total Thin backend"):
            totals[name] = event.get("dur", 0) / 1e6
    return {"thin_link_s": totals.get("Total ThinLink"),
            "backends_s": totals.get("Total Thin backend")}


def symbol_types(nm_output: str) -> dict[str, str]:
    """Symbol name -> nm type letter (last definition wins)."""
    types = {}
    for line in nm_output.splitlines():
        parts = line.split()
        if len(parts) == 3:
            types[parts[2]] = parts[1]
    return types


def count_kinds(imports: Sequence[tuple[str, str, str]], types: dict[str, str]) -> dict[str, int]:
    """Imported functions and variables (by the linked program's symbol
    types; a name the program does not define counts as `other`)."""
    kinds = {"functions": 0, "variables": 0, "other": 0}
    for _, name, _ in imports:
        letter = types.get(name, "")
        if letter in ("T", "t", "W", "w"):
            kinds["functions"] += 1
        elif letter and letter.upper() in ("D", "B", "R", "V", "G", "S"):
            kinds["variables"] += 1
        else:
            kinds["other"] += 1
    return kinds


def index_only(cmd: Sequence[str], out_dir: Path) -> list[str]:
    """cmd as an index-only thin link: no backend runs; the module list and
    the index files go under out_dir, not beside the objects."""
    return redirect_output(cmd, out_dir / "index-only.out", [
        "-Wl,--thinlto-index-only=%s" % (out_dir / "index-only.modules"),
        "-Wl,--thinlto-prefix-replace=;%s/" % (out_dir / "index-only")])


def backend_cpu(link_cpu_s: Optional[float], index_only_cpu_s: Optional[float]) -> Optional[float]:
    """The backends' user+sys seconds in one round: the full link's less the
    index-only link's (never below 0: both are noisy)."""
    if link_cpu_s is None or index_only_cpu_s is None:
        return None
    return round(max(link_cpu_s - index_only_cpu_s, 0.0), 4)


def spread(values: Sequence[float]) -> Optional[dict[str, float]]:
    """Median, min and max of one row's samples over the rounds (None
    without samples)."""
    if not values:
        return None
    return {"median": round(statistics.median(values), 4),
            "min": round(min(values), 4), "max": round(max(values), 4)}


def ratio(value: Optional[float], reference: Optional[float]) -> Optional[float]:
    """value / reference, or None when either is missing or the reference
    is 0."""
    if value is None or not reference:
        return None
    return value / reference


def run_figures(results: dict) -> dict[str, dict]:
    """Config name -> the deterministic figures of its run.py row
    (results.json): held-out Ir, .text bytes and each held-out workload's
    Ir. Rows that failed are left out."""
    figures = {}
    for r in results.get("configs", []):
        m = r.get("metrics")
        if r.get("status") != "ok" or not m:
            continue
        figures[r["name"]] = {
            "ir_heldout": m.get("ir_heldout"), "text_bytes": m.get("text_bytes"),
            "heldout_ir": {n: f.get("ir") for n, f in m.get("heldout_workloads", {}).items()}}
    return figures


def add_ratios(rows: list[dict], reference: str) -> None:
    """Adds to every row its ratios to the reference row: of held-out Ir,
    .text, the worst over the held-out workloads both rows ran, and of the
    medians of backend CPU and thin-link time."""
    ref = next(r for r in rows if r["config"] == reference)
    for r in rows:
        r["ir_heldout_vs_ref"] = ratio(r.get("ir_heldout"), ref.get("ir_heldout"))
        r["text_vs_ref"] = ratio(r.get("text_bytes"), ref.get("text_bytes"))
        workloads = [ratio(ir, ref.get("heldout_ir", {}).get(n))
                     for n, ir in r.get("heldout_ir", {}).items()]
        workloads = [w for w in workloads if w is not None]
        r["worst_heldout_vs_ref"] = max(workloads) if workloads else None
        for key in ("backend_cpu_s", "thin_link_s"):
            mine, theirs = r.get(key), ref.get(key)
            r[key + "_vs_ref"] = ratio(mine and mine["median"], theirs and theirs["median"])


def run_link(config: str, cmd: Sequence[str], log: Path) -> tuple[str, float]:
    """Runs a link, writes its command and stderr to log; returns stderr and
    the user+sys CPU seconds of the driver and the children it waited for
    (ld.lld and its backend threads), which a loaded machine disturbs less
    than wall time."""
    with open(log, "wb") as f:
        f.write(b"$ " + shlex.join(cmd).encode() + b"\n")
        f.flush()
        proc = subprocess.Popen(list(cmd), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        stderr = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        f.write(stderr)
    if proc.returncode:
        raise StatsError("[%s] link failed (exit %d); log: %s" % (
            config, proc.returncode, log))
    return stderr.decode(errors="replace"), usage.ru_utime + usage.ru_stime


class ConfigLinks:
    """One configuration's link, prepared: its import count is taken at once
    (one link), its timing rounds are run by the caller, interleaved with
    the other configurations' so that all share the machine's load drift."""

    def __init__(self, config: str, work: Path, nm: str):
        self.config = config
        log = work / "configs" / slug(config) / "logs" / "link.log"
        if not log.is_file():
            raise StatsError("[%s] no link log %s: run bench/run.py with this "
                             "configuration first" % (config, log))
        cmd = read_link_command(log.read_text(errors="replace"))
        self.out_dir = work / "import-stats" / slug(config)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.trace_file = self.out_dir / "link.time-trace.json"
        exe = self.out_dir / "program"
        count_cmd = with_one_backend_thread(
            redirect_output(cmd, exe, ["-Wl,-mllvm,-print-imports"]))
        imports = parse_imports(
            run_link(config, count_cmd, self.out_dir / "count-link.log")[0])
        nm_out = subprocess.run([nm, str(exe)], capture_output=True, text=True).stdout
        self.row: dict = {"config": config, "imports": len(imports),
                          **count_kinds(imports, symbol_types(nm_out))}
        self.time_cmd = redirect_output(cmd, exe, ["-Wl,--time-trace=%s" % self.trace_file])
        self.index_cmd = index_only(cmd, self.out_dir)
        plan_log = work / "configs" / slug(config) / "logs" / "kiln-imports.log"
        self.plan_cmd = (read_link_command(plan_log.read_text(errors="replace"))
                         if plan_log.is_file() else None)
        # One entry per round in each list; a round whose trace lacks an
        # event leaves that list shorter.
        self.samples: dict[str, list[float]] = {
            "thin_link_s": [], "backends_s": [], "link_cpu_s": [], "link_wall_s": [],
            "index_only_cpu_s": [], "backend_cpu_s": [], "plan_cpu_s": []}

    def time_once(self) -> None:
        t0 = time.monotonic()
        _, cpu = run_link(self.config, self.time_cmd, self.out_dir / "link.log")
        wall = time.monotonic() - t0
        times = parse_time_trace(json.loads(self.trace_file.read_text()))
        times["link_cpu_s"] = cpu
        times["link_wall_s"] = wall
        _, times["index_only_cpu_s"] = run_link(self.config, self.index_cmd,
                                                self.out_dir / "index-only.log")
        times["backend_cpu_s"] = backend_cpu(cpu, times["index_only_cpu_s"])
        if self.plan_cmd:
            _, times["plan_cpu_s"] = run_link(self.config, self.plan_cmd,
                                              self.out_dir / "kiln-imports.log")
        for key, value in times.items():
            if value is not None:
                self.samples[key].append(value)

    def result(self) -> dict:
        return {**self.row, **{k: spread(v) for k, v in self.samples.items()},
                "samples": {k: [round(x, 4) for x in v] for k, v in self.samples.items()}}


def timing_order(links: Sequence[ConfigLinks], rounds: int) -> list[tuple[int, ConfigLinks]]:
    """(round, configuration) in the order the timed links run: round-robin,
    every configuration once per round, in the order given."""
    return [(r, link) for r in range(rounds) for link in links]


def fmt_spread(value: Optional[dict], scale: float = 1.0, digits: int = 2) -> str:
    """`median (min-max)` of a spread, times scale."""
    if value is None:
        return "-"
    f = "%%.%df" % digits
    return (f + " (" + f + "-" + f + ")") % (value["median"] * scale, value["min"] * scale,
                                            value["max"] * scale)


def markdown(rows: Sequence[dict]) -> str:
    """The table: deterministic figures and their ratios first, then the
    timed ones as median (min-max) over the rounds with ratios of medians."""
    head = ["config", "Ir held-out", "vs ref", "worst held-out vs ref", ".text bytes", "vs ref",
            "imports (functions)", "thin link ms", "vs ref", "backend CPU s", "vs ref",
            "plan CPU s"]
    def fmt_ratio(key: str, digits: int) -> str:
        return "-" if r.get(key) is None else "%.*f" % (digits, r[key])

    def fmt_count(key: str) -> str:
        return "-" if r.get(key) is None else format(r[key], ",")
    body = []
    for r in rows:
        body.append([
            r["config"], fmt_count("ir_heldout"), fmt_ratio("ir_heldout_vs_ref", 4),
            fmt_ratio("worst_heldout_vs_ref", 4), fmt_count("text_bytes"),
            fmt_ratio("text_vs_ref", 3), "%d (%d)" % (r["imports"], r["functions"]),
            fmt_spread(r["thin_link_s"], 1000, 1), fmt_ratio("thin_link_s_vs_ref", 2),
            fmt_spread(r["backend_cpu_s"]), fmt_ratio("backend_cpu_s_vs_ref", 2),
            fmt_spread(r["plan_cpu_s"])])
    return report.markdown_table(head, body)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--work-dir", default=str(DEFAULT_WORK_DIR),
                    help="bench/run.py's work directory (default: %(default)s)")
    ap.add_argument("--configs", required=True,
                    help="comma-separated configurations (bench/run.py names)")
    ap.add_argument("--reference", default=None,
                    help="the row the ratios are to (default: the first of --configs)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="timed links per configuration, round-robin across the "
                         "configurations; medians and min-max reported (default 3)")
    ap.add_argument("--llvm-bin", default=DEFAULT_LLVM_BIN,
                    help="directory of llvm-nm (default: %(default)s)")
    ap.add_argument("--json", help="also write the rows to this JSON file")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    configs = [c for c in args.configs.split(",") if c]
    if not configs:
        ap.error("no configuration in --configs")
    reference = args.reference or configs[0]
    if reference not in configs:
        ap.error("--reference %s is not one of --configs" % reference)
    work = Path(args.work_dir)
    loads = []
    try:
        links = []
        for config in configs:
            print("import_stats: %s: counting imports" % config, file=sys.stderr, flush=True)
            links.append(ConfigLinks(config, work, str(Path(args.llvm_bin) / "llvm-nm")))
        for r, link in timing_order(links, args.rounds):
            if link is links[0]:
                loads.append(os.getloadavg()[0])
            print("import_stats: round %d: %s" % (r + 1, link.config),
                  file=sys.stderr, flush=True)
            link.time_once()
    except StatsError as e:
        print("import_stats: error: %s" % e, file=sys.stderr)
        return 1
    # Read after the timing, which needs only the link logs: a run.py still
    # measuring its last rows has written its results by then.
    results_file = work / "results.json"
    try:
        figures = (run_figures(json.loads(results_file.read_text()))
                   if results_file.is_file() else {})
    except (OSError, ValueError, KeyError, AttributeError) as e:
        print("import_stats: error: %s: unreadable run.py results: %s" % (results_file, e),
              file=sys.stderr)
        return 1
    rows = [{**link.result(), **figures.get(link.config, {})} for link in links]
    add_ratios(rows, reference)
    print(markdown(rows))
    print()
    print("%d round(s), round-robin; ratios to %s (timed: ratios of medians); "
          "1-minute load average before each round: %s" % (
              args.rounds, reference, ", ".join("%.1f" % x for x in loads)))
    if args.json:
        Path(args.json).write_text(json.dumps({"reference": reference, "rounds": args.rounds,
                                               "load_averages": loads, "rows": rows},
                                              indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

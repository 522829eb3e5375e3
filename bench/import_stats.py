#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Import counts and thin-link/backend times of bench/run.py's import-planning
configurations (those linked with -Wl,-mllvm,-print-imports -Wl,--time-trace).

  python3 bench/import_stats.py [--work-dir DIR] [CONFIG ...]

For each configuration directory under <work-dir>/configs that has a link log:
  imports        lines `<module>: Import <function> from <module>` that
                 -print-imports wrote during the final link
  thin link ms   from the start of lld's "Run ThinLTO" to the start of the
                 first ThinLTO backend (the thin link: index, dead-symbol
                 analysis, import and export lists), from the time trace
  backends ms    sum of the "Thin backend" durations (all threads)
  link s         the harness's wall-clock link time (results.json)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parent.parent
IMPORT_LINE = re.compile(rb"^\S.*: Import \S+ from ", re.M)


def slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name)


def trace_times(path: Path) -> tuple[float, float]:
    events = [e for e in json.loads(path.read_text())["traceEvents"] if e.get("ph") == "X"]
    run = [e for e in events if e["name"] == "Run ThinLTO"]
    backends = [e for e in events if e["name"] == "Thin backend"]
    if not run or not backends:
        raise ValueError("%s: no ThinLTO events" % path)
    thin_link = min(e["ts"] for e in backends) - run[0]["ts"]
    return thin_link / 1000.0, sum(e["dur"] for e in backends) / 1000.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work-dir", default=str(REPO_DIR / "build" / "bench"))
    ap.add_argument("configs", nargs="*")
    args = ap.parse_args(argv)
    work = Path(args.work_dir)
    results = {}
    rj = work / "results.json"
    if rj.is_file():
        for r in json.loads(rj.read_text()).get("configs", []):
            results[r["name"]] = r
    # Rows in the run's order; by default every configuration with a trace.
    names = args.configs or list(results)
    print("| config | imports | thin link ms | backends ms | link s |")
    print("|:---|---:|---:|---:|---:|")
    for name in names:
        d = work / "configs" / slug(name)
        log = d / "logs" / "link.log"
        trace = next(iter(sorted(d.glob("*.time-trace"))), None)
        if not log.is_file() or trace is None:
            continue
        imports = len(IMPORT_LINE.findall(log.read_bytes()))
        thin, back = trace_times(trace)
        link = results.get(name, {}).get("times", {}).get("link_s")
        print("| %s | %d | %.0f | %.0f | %s |" % (name, imports, thin, back,
                                                  "%.1f" % link if link else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""What every benchmark harness shares: the repository's paths, the error a
failed step raises, logged command runs in a fixed environment, flag
placeholders, and the --work-dir guard."""

from __future__ import annotations

import argparse
import re
import shlex
import subprocess
from pathlib import Path
from typing import Optional, Sequence

BENCH_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = BENCH_DIR.parent
DEFAULT_LLVM_BIN = "/usr/lib/llvm-22/bin"


class StepError(Exception):
    """A build or measurement step failed; the message says which and why."""


def expand(flags: Sequence[str], **values: object) -> list[str]:
    """Replace {name} placeholders in flags (unknown braces are left alone)."""
    out = []
    for flag in flags:
        for key, value in values.items():
            flag = flag.replace("{%s}" % key, str(value))
        if re.search(r"\{[a-z]+\}", flag):
            raise StepError("unresolved placeholder in flag %r" % flag)
        out.append(flag)
    return out


def run_env(extra: Optional[dict] = None) -> dict:
    """Fixed, minimal environment for running the sample program: the
    environment strings sit on the initial stack and are scanned by ld.so
    and libc, so anything inherited would change the instruction counts."""
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
    env.update(extra or {})
    return env


def run_cmd(cmd: Sequence[str], log_file: Path, what: str, cwd: Optional[Path] = None,
            env: Optional[dict] = None) -> subprocess.CompletedProcess:
    """Run a command; write command line, stdout and stderr to log_file;
    raise StepError (with the tail of stderr) if it fails."""
    log_file.parent.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, env=env, capture_output=True)
    except OSError as e:
        raise StepError("%s: cannot run %s: %s" % (what, cmd[0], e)) from None
    with open(log_file, "wb") as f:
        f.write(b"$ " + shlex.join(cmd).encode() + b"\n")
        if cwd:
            f.write(b"# cwd: " + str(cwd).encode() + b"\n")
        f.write(b"# exit status: %d\n--- stdout ---\n" % proc.returncode)
        f.write(proc.stdout)
        f.write(b"\n--- stderr ---\n")
        f.write(proc.stderr)
    if proc.returncode != 0:
        tail = proc.stderr.decode(errors="replace").strip().splitlines()[-5:]
        raise StepError("%s failed (exit status %d); log: %s%s" % (
            what, proc.returncode, log_file, "".join("\n    " + l for l in tail)))
    return proc


def slug(name: str) -> str:
    """A configuration's directory name (<work-dir>/configs/<slug>)."""
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def check_work_dir(ap: argparse.ArgumentParser, work_dir: str) -> Path:
    """The resolved --work-dir, which every benchmark wipes parts of: refuse
    the source tree and its parents (an argparse error)."""
    work = Path(work_dir).resolve()
    if work == REPO_DIR or work in REPO_DIR.parents or BENCH_DIR in (work, *work.parents):
        ap.error("--work-dir must not be the source tree: %s" % work)
    return work

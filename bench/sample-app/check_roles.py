#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Check the roles in a kiln-sample manifest against a real run.

Build the generated program with clang's frontend instrumentation
(``build.sh DIR OUT -fprofile-instr-generate``), run one mode with
``LLVM_PROFILE_FILE=mode.profraw``, convert the profile to text with
``llvm-profdata-22 merge --text -o mode.proftext mode.profraw``, then::

    check_roles.py DIR/manifest.json MODE mode.proftext

Frontend counters are per source function (before inlining), so every
generated function is visible.  The check fails (exit 1) if a function of a
role that MODE must run did not run, or a 'never' function ran; it prints the
number of distinct generated functions executed, by role.
"""

import argparse
import json
import os
import sys

EXPECTED = {
    # mode: (roles that must all run, roles that must not run)
    "startup": (("startup", "shared"), ("never", "steady", "mixed")),
    "steady": (("startup", "shared", "steady"), ("never", "mixed")),
    "mixed": (("startup", "shared", "mixed"), ("never",)),
}


def read_proftext(path):
    """Map profile function name -> entry count (first counter)."""
    counts = {}
    with open(path, encoding="utf-8") as fh:
        lines = [ln.rstrip("\n") for ln in fh]
    i = 0
    while i < len(lines):
        name = lines[i]
        if not name or name.startswith("#") or name.startswith(":"):
            i += 1
            continue
        # name, hash, ncounters, counters (comment lines in between)
        body = []
        j = i + 1
        while j < len(lines) and lines[j] != "":
            if not lines[j].startswith("#"):
                body.append(lines[j])
            j += 1
        if len(body) >= 3:
            counts[name] = counts.get(name, 0) + int(body[2])
        i = j + 1
    return counts


def local_key(fn, symbol):
    """Profile name of a function with internal linkage."""
    return "%s:%s" % (os.path.basename(fn["tu"]), symbol)


def entry_count(fn, counts, by_prefix):
    """Entry count of a manifest function (summed over instantiations)."""
    style = fn["style"]
    if fn["symbol"] is not None:
        if style in ("c_static", "static", "anon", "virtual"):
            return counts.get(local_key(fn, fn["symbol"]), 0)
        return counts.get(fn["symbol"], 0)
    # Templates: one profile entry per instantiation.
    mod = fn["name"].split("::")[1]
    base = fn["name"].split("::")[-1].replace("<T>", "")
    if style == "ftemplate":
        prefix = "_ZN2ks%d%s%d%sI" % (len(mod), mod, len(base), base)
        return sum(by_prefix.get(prefix, []))
    prefix = "_ZN2ks%d%s9SlotCacheI" % (len(mod), mod)
    tail = "E%d%sE" % (len(base), base)
    return sum(c for n, c in by_prefix.get(prefix + "*", []) if tail in n)


def main():
    """Entry point."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("manifest")
    p.add_argument("mode", choices=sorted(EXPECTED))
    p.add_argument("proftext")
    args = p.parse_args()
    with open(args.manifest, encoding="utf-8") as fh:
        manifest = json.load(fh)
    counts = read_proftext(args.proftext)
    by_prefix = {}
    for name, c in counts.items():
        if name.startswith("_ZN2ks") and "I" in name:
            # index template instantiations by '_ZN2ks<mod><name>I'
            k = name.find("I", 6)
            while k != -1:
                by_prefix.setdefault(name[:k + 1], []).append(c)
                k = name.find("I", k + 1)
        if "9SlotCacheI" in name:
            k = name.find("9SlotCacheI")
            by_prefix.setdefault(name[:k + 11] + "*", []).append((name, c))
    must, must_not = EXPECTED[args.mode]
    ran = {}
    total = {}
    bad = []
    for fn in manifest["function_list"]:
        role = fn["role"]
        n = entry_count(fn, counts, by_prefix)
        total[role] = total.get(role, 0) + 1
        if n > 0:
            ran[role] = ran.get(role, 0) + 1
        if role in must and n == 0:
            bad.append("did not run: %s (%s, %s)" % (fn["name"], role, fn["tu"]))
        if role in must_not and n > 0:
            bad.append("ran %d times: %s (%s, %s)" % (n, fn["name"], role, fn["tu"]))
    executed = sum(ran.values())
    print("%s: %d distinct generated functions executed (%s)" % (
        args.mode, executed,
        ", ".join("%s %d/%d" % (r, ran.get(r, 0), total[r]) for r in sorted(total))))
    for line in bad[:40]:
        print("  " + line)
    if len(bad) > 40:
        print("  ... %d more" % (len(bad) - 40))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

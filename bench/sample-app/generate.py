#!/usr/bin/env python3
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Generator for "kiln-sample", the synthetic C/C++ program Kiln benchmarks on.

Every Kiln benchmark (function ordering, startup page counts, I-cache
behaviour, ThinLTO import, string-table relocation lowering) needs an input
program whose *layout* matters: thousands of functions spread over dozens of
translation units, a startup path that is scattered over the default layout,
a hot steady state with skewed call frequencies, cold and never-executed
code, colliding static names, mangled C++ (namespaces, classes, virtual
functions, templates, anonymous namespaces), indirect calls through
function-pointer tables and plenty of string tables.  This script writes such
a program, deterministically, from a seed.

Usage::

    generate.py --out DIR [--seed N] [--functions N] [--tus N] [--revision N]

It writes DIR/src/... (sources and headers), DIR/sources.txt (translation
units to compile, relative to DIR) and DIR/manifest.json (seed, sizes, the
translation units and, for every generated function, its role and symbol).
DIR must be empty, absent, or a directory this script generated earlier (it
then has a manifest.json naming this generator): in the last case DIR/src,
DIR/sources.txt and DIR/manifest.json are deleted and written anew, anything
else in DIR (build outputs, say) is left alone.  Any other non-empty DIR is
refused.

Model, in short (see README.md for the why):

* Every generated function has a *role*: ``startup`` (run once when the
  program starts), ``steady`` (run by the steady-state loop), ``shared``
  (run by both), ``mixed`` (run only by the held-out ``mixed`` workload),
  ``cold`` (error paths behind rare data conditions) or ``never`` (behind
  feature gates that the bundled workloads never open).
* Within a role, the call graph is a DAG whose edges are unconditional calls
  (sometimes in small loops, sometimes through function-pointer tables), so
  every function of an executed role really runs; calls into ``cold`` and
  ``never`` functions are guarded.  Roles only call "down"
  (mixed -> steady -> shared, startup -> shared, anything -> cold -> never),
  so the whole program is recursion free.
* ``--revision N`` (N > 0) writes a later release of the same program, for
  measuring stale profiles: the model is built exactly as for revision 0,
  then, chosen by a random stream of its own (seeded by the seed and N), a
  share of the functions get a new branch in their body (a new control-flow
  shape, so a profile of revision 0 no longer matches them) and a smaller
  share are renamed (the profile's name for them is gone; the new name is
  unknown to it).  Each revision includes the edits of the ones before it.
  The new branches write a volatile sink and change no result, so the
  program runs the paths revision 0 runs and prints what it prints; with
  ``--revision-diverges`` they change the value being computed instead, so
  later data-dependent branches (the rare conditions guarding cold code)
  go other ways than in revision 0.
* Bodies compute over runtime data (an argv-derived seed, a context buffer,
  string tables) with unsigned arithmetic only, so -O2 keeps them and the
  output is the same, byte for byte, under every build configuration.
"""

import argparse
import json
import os
import random
import shutil
import sys
import time

GENERATOR_ID = "kiln-sample-generator"
FORMAT_VERSION = 1

# --------------------------------------------------------------------------
# Vocabulary (module names, identifiers, strings).
# --------------------------------------------------------------------------

MODULE_NAMES = [
    "alloc", "anim", "asset", "audio", "auth", "cache", "codec", "config",
    "crypto", "csv", "db", "diff", "dns", "event", "font", "fs", "glyph",
    "http", "image", "input", "journal", "jpeg", "layout", "locale", "mail",
    "mesh", "metrics", "mime", "net", "physics", "plugin", "png", "policy",
    "pool", "proto", "queue", "raster", "render", "report", "rpc", "sched",
    "script", "search", "session", "shader", "sql", "stats", "sync", "tar",
    "theme", "timer", "tls", "token", "trace", "unicode", "url", "vfs",
    "video", "widget", "xml", "yaml", "zip",
]

VERBS = [
    "align", "apply", "build", "check", "commit", "compress", "compute",
    "decode", "emit", "encode", "expand", "filter", "finalize", "find",
    "flush", "fold", "hash", "insert", "load", "lookup", "map", "match",
    "measure", "merge", "normalize", "pack", "parse", "prepare", "probe",
    "rank", "rebuild", "reduce", "refresh", "render", "reset", "resolve",
    "scan", "sign", "sort", "split", "store", "translate", "unpack",
    "update", "validate", "verify", "walk",
]

NOUNS = [
    "attr", "batch", "block", "bucket", "buffer", "cell", "chunk", "column",
    "config", "cursor", "edge", "entry", "field", "frame", "glyph", "graph",
    "header", "index", "key", "layer", "list", "message", "node", "packet",
    "page", "path", "queue", "range", "record", "reply", "request", "row",
    "rule", "sample", "scope", "segment", "slot", "span", "state", "stream",
    "symbol", "table", "tile", "token", "value", "vertex", "window",
]

ADJECTIVES = [
    "corrupt", "default", "duplicate", "empty", "invalid", "legacy",
    "missing", "partial", "pending", "primary", "reserved", "secondary",
    "stale", "truncated", "unexpected", "unknown",
]

PAST = [
    "accepted", "closed", "dropped", "expired", "flushed", "merged",
    "opened", "queued", "rejected", "skipped",
]

STATES = [
    "limit exceeded", "mismatch", "not found", "out of range", "too large",
    "overflow", "checksum error", "version error",
]

# Static function names defined in several translation units (name, number
# of TUs).  They are reserved: no other function gets these names.
COLLIDING_STATICS = [
    ("parse_header", 6), ("init_tables", 5), ("check_bounds", 5),
    ("validate_entry", 4), ("hash_key", 4), ("reset_state", 4),
    ("lookup_slot", 3), ("emit_record", 3), ("compare_keys", 3),
    ("decode_block", 3),
]

TEMPLATE_TYPES = ["uint8_t", "uint16_t", "uint32_t", "uint64_t"]

# --------------------------------------------------------------------------
# Model parameters.
# --------------------------------------------------------------------------

ROLES = ("startup", "steady", "shared", "mixed", "cold", "never")
EXECUTED_ROLES = ("startup", "steady", "shared", "mixed")
# Callees are costed before callers: a role only calls roles listed before it.
COST_ORDER = ("never", "cold", "shared", "steady", "mixed", "startup")

BASE_ROLE_WEIGHTS = {
    "startup": 0.14, "steady": 0.16, "shared": 0.015, "mixed": 0.035,
    "cold": 0.12, "never": 0.53,
}
MIN_ROLE_COUNTS = {
    "startup": 6, "steady": 10, "shared": 3, "mixed": 3, "cold": 4,
    "never": 6,
}

# Signature kinds: A (ctx, x), B (x, k), C (buffer), D (tiny value), E (tiny
# context accessor).  D and E are always leaves.
KIND_WEIGHTS = (("A", 46), ("B", 14), ("C", 16), ("D", 12), ("E", 12))
SIGNATURES = {
    "A": ("uint64_t", "ks_ctx *c, uint64_t x"),
    "B": ("uint64_t", "uint64_t x, uint32_t k"),
    "C": ("uint64_t", "const uint32_t *p, size_t n, uint64_t x"),
    "D": ("uint32_t", "uint32_t v"),
    "E": ("uint64_t", "const ks_ctx *c"),
}
# Itanium mangling of the parameter lists above (x86-64 Linux: uint64_t and
# size_t are unsigned long, uint32_t is unsigned int).
MANGLED_PARAMS = {
    "A": "P6ks_ctxm", "B": "mj", "C": "PKjmm", "D": "j", "E": "PK6ks_ctx",
}

# Inclusive cost cap (abstract units, roughly nanoseconds) of one call of a
# function of each role; extra edges and call loops are added only below it.
COST_CAPS = {
    "shared": 600, "steady": 2500, "mixed": 2500, "startup": 40000,
    "cold": 40000, "never": 40000,
}
ROOT_COST_CAP = 7000
CALL_COST = 3
# Cost units one default steady (or mixed) run should take; calibrated so
# that the default run takes roughly 0.1 s at -O2 on a current x86-64 core.
TARGET_RUN_UNITS = 1.0e8
CDF_BITS = 20
# Every function of a workload's role must run in a default run: indexed
# dispatch is kept only where each entry expects at least this many calls.
MIN_EXPECTED_CALLS = 50
# No function's own body may take more than this share of a workload's
# per-iteration cost (hot functions are cheap, and hot because called often).
MAX_SELF_SHARE = 0.025
CHEAP_BLOCKS = ("mix", "rot", "cond", "switch", "ctx", "fail")

FEATURE_GATE_BITS = (8, 30)   # never set by the bundled workloads
SAME_TU_PREFERENCE = 0.7


def c_string(s):
    """Return `s` as a C string literal (the vocabulary needs no escapes)."""
    assert '"' not in s and "\\" not in s
    return '"' + s + '"'


def hex64(v):
    """Format a 64-bit constant as a C literal."""
    return "0x%016xULL" % (v & 0xFFFFFFFFFFFFFFFF)


def hex32(v):
    """Format a 32-bit constant as a C literal."""
    return "0x%08xu" % (v & 0xFFFFFFFF)


def banner(seed, comment_style):
    """The do-not-edit header of every generated source file."""
    text = [
        "Generated by bench/sample-app/generate.py (kiln-sample, seed %d)."
        % seed,
        "Do not edit: rerun the generator instead.",
    ]
    if comment_style == "c":
        return ["/* " + text[0], " * " + text[1] + " */"]
    return ["// " + t for t in text]


# --------------------------------------------------------------------------
# Program model.
# --------------------------------------------------------------------------

class StrTable:
    """A string table of one module.

    kind is 'names' (array of strings), 'options' (array of structs with two
    string pointers and a code), 'keywords' (NULL-terminated array);
    exported tables ('levels', 'xoptions') are non-static and declared in
    the module header.
    """

    def __init__(self, module, kind, ident, exported, entries):
        self.module = module
        self.kind = kind
        self.ident = ident
        self.exported = exported
        self.entries = entries   # strings, or (name, code, help) tuples
        self.uses = 0

    @property
    def count_macro(self):
        """Name of the element-count macro of an exported table."""
        return self.ident.upper() + "_COUNT"


class Module:
    """One generated translation unit (plus its header)."""

    def __init__(self, index, name, lang):
        self.index = index
        self.name = name
        self.lang = lang                      # "c" or "c++"
        ext = "c" if lang == "c" else "cpp"
        self.path = "src/mod/%s.%s" % (name, ext)
        self.header = "src/mod/%s.h" % name
        self.funcs = []
        self.tables = []
        self.handlers = []                    # handler-root functions
        self.used_names = set()
        self.init = None                      # module init function

    @property
    def is_cpp(self):
        """True for a C++ module."""
        return self.lang == "c++"

    def static_tables(self):
        """Tables with internal linkage (must all be used)."""
        return [t for t in self.tables if not t.exported]

    def exported_tables(self):
        """Non-static tables, declared in the module header."""
        return [t for t in self.tables if t.exported]


class Func:
    """One generated function (a template counts once)."""

    def __init__(self, fid, module, role, kind):
        self.fid = fid
        self.module = module
        self.role = role
        self.kind = kind
        self.root = None        # 'init' | 'handler' | 'steady' | 'mixed'
        self.group_root = False  # root of its role's call tree
        self.pos = 0            # position in its role group (DAG order)
        self.edges = []         # outgoing Edge objects
        self.callers = []       # (caller Func, via) with via 'call'|'table'|..
        self.style = None
        self.name = None
        self.blocks = []        # planned body blocks (tuples)
        self.self_cost = 0
        self.cost = 0
        self.handler_class = None
        self.handler_label = None
        self.colliding = False
        self.template_types = []

    def can_call(self, callee):
        """Can this function call `callee` (arguments it can supply)?"""
        if self.kind not in "ABC":
            return False
        return self.kind == "A" or callee.kind in "BCD"

    @property
    def has_ctx(self):
        """Does the function have a `ks_ctx *c` parameter?"""
        return self.kind == "A"


class Edge:
    """A call site: 'call' (unconditional, `trips` times), 'rare' (behind a
    rare data condition), 'gate' (behind a feature gate) or 'table'
    (indirect calls through a function-pointer table)."""

    def __init__(self, kind, callee=None, trips=1, table=None):
        self.kind = kind
        self.callee = callee
        self.trips = trips
        self.table = table


class FnTable:
    """A function-pointer table owned by one caller.

    `live` entries are called ('walk': all in turn, 'index': one chosen by
    data); `gated` entries only behind a feature gate."""

    def __init__(self, caller, kind, live, mode):
        self.caller = caller
        self.kind = kind
        self.live = live
        self.gated = []
        self.mode = mode


# --------------------------------------------------------------------------
# The generator.
# --------------------------------------------------------------------------

class Generator:
    """Builds the program model from the arguments, then renders it."""

    def __init__(self, seed, nfuncs, ntus, revision=0, revision_diverges=False):
        self.seed = seed
        self.nfuncs = nfuncs
        self.ntus = ntus
        self.revision = revision
        self.revision_diverges = revision_diverges
        self.edited = set()   # fids whose body gains a revision branch
        self.rng = random.Random(seed)
        self.modules = []
        self.funcs = []
        self.groups = {role: [] for role in ROLES}
        self.collisions = []
        self.steady_roots = []
        self.mixed_roots = []
        self.default_iterations = {}
        self.files = {}       # relative path -> text

    # ---------------------------------------------------------- building

    def build(self):
        """Build the whole model (graph, bodies, styles, names)."""
        self._make_modules()
        self._make_functions()
        self._make_string_tables()
        self._pick_roots()
        for role in ROLES:
            self._build_tree(role)
        self._add_cross_role_edges()
        self._plan_and_cost()
        self._make_fn_tables()
        self._assign_styles()
        self._assign_collisions()
        self._assign_names()
        self._ensure_table_uses()
        self._recompute_costs()
        self._compute_schedules()
        self._flatten_hot_spots()
        self._compute_iterations()
        self._ensure_coverage()
        self._recompute_costs()
        self._compute_iterations()
        self._apply_revisions()

    # Per revision step: the share of functions whose body gains a branch,
    # and the share renamed.
    REVISION_EDIT_SHARE = 0.08
    REVISION_RENAME_SHARE = 0.02

    def _apply_revisions(self):
        """Turn the model into revision `self.revision` of the program (see
        the module docstring). Uses its own random streams, one per step, so
        revision 0 is byte-identical to a build without revisions and each
        revision keeps the edits of the earlier ones."""
        for step in range(1, self.revision + 1):
            rr = random.Random("%d/revision/%d" % (self.seed, step))
            for f in sorted(self.funcs, key=lambda g: g.fid):
                x = rr.random()
                if f.kind in "ABC" and x < self.REVISION_EDIT_SHARE:
                    self.edited.add(f.fid)
                elif (x > 1.0 - self.REVISION_RENAME_SHARE and not f.colliding
                      and f.root is None and f.style != "virtual"):
                    f.name = "%s_r%d" % (f.name, step)

    def _revision_lines(self, f):
        """The branch a revision adds to `f`'s body (none if not edited):
        data-dependent, so -O2 keeps it."""
        if f.fid not in self.edited:
            return []
        k = (f.fid * 0x9E3779B97F4A7C15 + self.revision) & 0xFFFFFFFFFFFFFFFF
        if not self.revision_diverges:
            # A new control-flow shape, the same results: the program runs
            # the paths revision 0 runs.
            return ["if ((h & 0xffu) == %du) {" % (k & 0xff),
                    "  ks_revision_sink += h ^ %s;" % hex64(k | 1),
                    "}"]
        return ["if ((h & 0xffu) == %du) {" % (k & 0xff),
                "  h = ks_mix(h, %s);" % hex64(k | 1),
                "  h ^= h >> %d;" % (13 + k % 17),
                "}"]

    def _make_modules(self):
        """Create the module TUs: names, languages and relative sizes."""
        r = self.rng
        nmod = self.ntus - 2           # main.cpp and ks_runtime.c
        names = list(MODULE_NAMES)
        r.shuffle(names)
        extra = 2
        while len(names) < nmod:
            names += ["%s%d" % (n, extra) for n in MODULE_NAMES]
            extra += 1
        names = sorted(names[:nmod])
        n_c = max(1, int(round(nmod * 0.4)))
        c_set = set(r.sample(range(nmod), n_c))
        if len(c_set) == nmod:
            c_set.discard(nmod - 1)
        for i, name in enumerate(names):
            self.modules.append(Module(i, name, "c" if i in c_set else "c++"))

    def _make_functions(self):
        """Distribute the functions over modules; draw roles and kinds."""
        r = self.rng
        nmod = len(self.modules)
        minimum = 5
        weights = [r.lognormvariate(0.0, 0.55) for _ in range(nmod)]
        spare = self.nfuncs - minimum * nmod
        total_w = sum(weights)
        shares = [spare * w / total_w for w in weights]
        counts = [minimum + int(s) for s in shares]
        order = sorted(range(nmod), key=lambda i: (-(shares[i] - int(shares[i])), i))
        for i in order[: self.nfuncs - sum(counts)]:
            counts[i] += 1
        fid = 0
        for m, count in zip(self.modules, counts):
            factors = {}
            for role in ROLES:
                f = r.uniform(0.4, 1.6)
                if role == "startup" and r.random() < 0.12:
                    f = 0.0
                if role in ("steady", "mixed") and r.random() < 0.15:
                    f = 0.0
                factors[role] = BASE_ROLE_WEIGHTS[role] * f
            roles = list(ROLES)
            wts = [factors[x] for x in roles]
            for j in range(count):
                role = r.choices(roles, wts)[0]
                kind = "A" if j == 0 else r.choices(
                    [k for k, _ in KIND_WEIGHTS], [w for _, w in KIND_WEIGHTS])[0]
                fn = Func(fid, m, role, kind)
                fid += 1
                m.funcs.append(fn)
                self.funcs.append(fn)
        # Enforce minimum role sizes by converting 'never' functions (or,
        # for 'never' itself, 'cold' ones).
        for role in ROLES:
            have = [f for f in self.funcs if f.role == role]
            need = MIN_ROLE_COUNTS[role] - len(have)
            if need > 0:
                donor_role = "cold" if role == "never" else "never"
                donors = [f for f in self.funcs if f.role == donor_role]
                for f in r.sample(donors, min(need, len(donors))):
                    f.role = role
        for f in self.funcs:
            self.groups[f.role].append(f)

    # --- strings ------------------------------------------------------

    def _phrase(self):
        """A short English-like phrase for string tables and messages."""
        r = self.rng
        n1, n2 = r.choice(NOUNS), r.choice(NOUNS)
        pat = r.randrange(6)
        if pat == 0:
            return "%s %s" % (r.choice(ADJECTIVES), n1)
        if pat == 1:
            return "%s %s %s" % (r.choice(ADJECTIVES), n1, n2)
        if pat == 2:
            return "%s %s" % (n1, r.choice(PAST))
        if pat == 3:
            return "unexpected end of %s" % n1
        if pat == 4:
            return "%s %s %s" % (n1, n2, r.choice(STATES))
        return "%s %s %s" % (r.choice(ADJECTIVES), n1, r.choice(STATES))

    def _strings(self, pool, count):
        """`count` strings; some duplicate `pool` entries, some are suffixes
        of pool entries (what tail merging of string tables exploits)."""
        r = self.rng
        out = []
        for _ in range(count):
            x = r.random()
            spaced = [s for s in pool if " " in s]
            if x < 0.12 and pool:
                s = r.choice(pool)
            elif x < 0.35 and spaced:
                base = r.choice(spaced)
                cut = [i for i, ch in enumerate(base) if ch == " "]
                s = base[r.choice(cut) + 1:]
            else:
                s = self._phrase()
            out.append(s)
            pool.append(s)
        return out

    def _options(self, pool, count):
        """Entries (name, code, help) of an option table."""
        r = self.rng
        out = []
        for _ in range(count):
            n1, n2 = r.choice(NOUNS), r.choice(NOUNS)
            name = r.choice(["%s-%s" % (n1, n2), "max-%s-size" % n1,
                             "no-%s" % n1, "%s-limit" % n1])
            helptext = self._strings(pool, 1)[0]
            if r.random() < 0.3:
                helptext = "set the %s %s" % (n1, n2)
                pool.append(helptext)
            out.append((name, r.randint(-40, 900), helptext))
        return out

    def _make_string_tables(self):
        """Create the string tables of every module."""
        r = self.rng
        for m in self.modules:
            pool = []
            cpp = m.is_cpp
            m.strpool = pool
            m.tables.append(StrTable(m, "names", "kNames" if cpp else "names",
                                     False, self._strings(pool, r.randint(6, 20))))
            m.tables.append(StrTable(m, "options",
                                     "kOptions" if cpp else "options", False,
                                     self._options(pool, r.randint(4, 12))))
            kw = [r.choice(NOUNS) for _ in range(r.randint(5, 14))]
            m.tables.append(StrTable(m, "keywords",
                                     "kKeywords" if cpp else "keywords", False, kw))
            if m.index == 0 or r.random() < 0.5:
                m.tables.append(StrTable(m, "levels", "%s_levels" % m.name,
                                         True, self._strings(pool, r.randint(4, 10))))
            if m.index == 0 or r.random() < 0.25:
                m.tables.append(StrTable(m, "xoptions", "%s_options" % m.name,
                                         True, self._options(pool, r.randint(3, 8))))

    # --- call graph ---------------------------------------------------

    def _pick_roots(self):
        """Choose the roots: module inits, handlers, workload roots and the
        tree roots of the shared/cold/never roles."""
        r = self.rng

        def take(cands, n):
            """Up to n random functions of cands that are not roots yet."""
            cands = [f for f in cands if f.root is None and not f.group_root]
            return r.sample(cands, min(n, len(cands)))

        for m in self.modules:
            startup = [f for f in m.funcs if f.role == "startup"]
            if startup:
                f = r.choice(startup)
                f.root, f.kind = "init", "A"
                m.init = f
        handler_roles = ["steady"] * 9 + ["startup"] * 5 + ["never"] * 4 + ["mixed"] * 2
        for m in self.modules:
            if not m.is_cpp:
                continue
            for _ in range(r.choice([0, 1, 1, 2, 2, 3])):
                role = r.choice(handler_roles)
                got = take([f for f in m.funcs if f.role == role], 1)
                if got:
                    f = got[0]
                    f.root, f.kind = "handler", "A"
                    m.handlers.append(f)
        steady = self.groups["steady"]
        for f in take(steady, max(4, int(round(len(steady) * 0.1)))):
            f.root, f.kind = "steady", "A"
        mixed = self.groups["mixed"]
        for f in take(mixed, max(2, int(round(len(mixed) * 0.3)))):
            f.root, f.kind = "mixed", "A"
        fractions = {"shared": 0.4, "cold": 0.35, "never": 0.3}
        for role, frac in fractions.items():
            grp = self.groups[role]
            for f in take(grp, max(1, int(round(len(grp) * frac)))):
                f.group_root, f.kind = True, "A"
        # Workload roots in a stable order (by function id).
        self.steady_roots = sorted((f for f in steady if f.root == "steady"),
                                   key=lambda f: f.fid)
        self.mixed_roots = sorted((f for f in mixed if f.root == "mixed"),
                                  key=lambda f: f.fid)

    @staticmethod
    def _is_root(f):
        """Called from outside its role's tree (framework or guarded call)."""
        return f.root is not None or f.group_root

    def _link(self, caller, callee, kind="call", trips=1):
        """Add a call edge."""
        caller.edges.append(Edge(kind, callee, trips))
        callee.callers.append((caller, kind))

    def _build_tree(self, role):
        """Give every non-root function of `role` a caller of the same role
        that precedes it in the group order (so the role graph is a DAG and
        every function is reachable from a root)."""
        r = self.rng
        group = self.groups[role]
        roots = [f for f in group if self._is_root(f)]
        rest = [f for f in group if not self._is_root(f)]
        r.shuffle(roots)
        r.shuffle(rest)
        if not roots and rest:
            rest[0].group_root, rest[0].kind = True, "A"
            roots, rest = rest[:1], rest[1:]
        order = roots + rest
        self.groups[role] = order
        for i, f in enumerate(order):
            f.pos = i
        cap_a, cap_any = [], []
        cap_a_mod, cap_any_mod = {}, {}

        def add_capable(f):
            """Record f as a possible caller of later functions."""
            if f.kind in "ABC":
                cap_any.append(f)
                cap_any_mod.setdefault(f.module.index, []).append(f)
            if f.kind == "A":
                cap_a.append(f)
                cap_a_mod.setdefault(f.module.index, []).append(f)

        for f in roots:
            add_capable(f)
        for f in rest:
            need_a = f.kind in "AE"
            pool = cap_a if need_a else cap_any
            local = (cap_a_mod if need_a else cap_any_mod).get(f.module.index)
            if local and r.random() < SAME_TU_PREFERENCE:
                parent = r.choice(local)
            else:
                parent = r.choice(pool)
            self._link(parent, f)
            add_capable(f)

    def _random_caller(self, roles, callee):
        """A random function of one of `roles` able to call `callee`."""
        cands = [f for role in roles for f in self.groups[role]
                 if f.can_call(callee)]
        return self.rng.choice(cands) if cands else None

    def _add_cross_role_edges(self):
        """Edges between roles: shared roots get a startup and a steady
        caller, mixed code calls steady code, rare conditions lead to cold
        roots and feature gates to never roots."""
        r = self.rng
        for f in self.groups["shared"]:
            if f.group_root:
                for role in ("startup", "steady"):
                    caller = self._random_caller([role], f)
                    self._link(caller, f)
            if r.random() < 0.7:
                caller = self._random_caller(["steady", "steady", "mixed", "startup"], f)
                if caller is not None:
                    self._link(caller, f)
        steady = self.groups["steady"]
        for f in self.groups["mixed"]:
            if f.kind in "ABC" and r.random() < 0.4:
                cands = [g for g in steady if f.can_call(g) and g.root is None]
                if cands:
                    self._link(f, r.choice(cands))
        executed = [f for role in EXECUTED_ROLES for f in self.groups[role]]
        cold_callers = [f for f in executed if f.kind == "A"]
        for f in self.groups["cold"]:
            if f.group_root:
                for _ in range(r.choice([1, 1, 2])):
                    self._link(r.choice(cold_callers), f, "rare")
            elif f.kind in "ABC" and r.random() < 0.1:
                self._link(r.choice([g for g in executed if g.can_call(f)]), f, "rare")
        never_callers = [f for f in executed + self.groups["cold"] if f.kind == "A"]
        self.reserved_never = []
        for f in self.groups["never"]:
            if f.group_root:
                if r.random() < 0.35:
                    self.reserved_never.append(f)   # for gated table slots
                else:
                    self._link(r.choice(never_callers), f, "gate")

    # --- bodies and costs -----------------------------------------------

    def _plan_blocks(self, f):
        """Choose the body blocks of `f` (types and cost-relevant sizes)."""
        r = self.rng
        if f.kind in "DE":
            f.blocks = []
            f.self_cost = 2
            return
        if f.role == "shared":
            nblocks = r.choice([0, 1, 1, 2])
        else:
            size = r.random()
            if size < 0.18:
                nblocks = r.choice([0, 1])
            elif size < 0.65:
                nblocks = r.randint(1, 2)
            elif size < 0.89:
                nblocks = r.randint(3, 4)
            else:
                nblocks = r.randint(5, 8)
        if f.root:
            nblocks = max(nblocks, 2)
        choices = [("mix", 18), ("rot", 8), ("switch", 14), ("loop", 12),
                   ("sort", 4), ("bytes", 8), ("cond", 10), ("bits", 4),
                   ("str", 14)]
        if f.kind == "A":
            choices.append(("ctx", 6))
        if f.module.is_cpp:
            choices.append(("lib", 4))
        names = [c for c, _ in choices]
        wts = [w for _, w in choices]
        blocks = []
        for _ in range(nblocks):
            blocks.append(self._plan_block(f, r.choices(names, wts)[0]))
        if f.kind == "C" and not any(b[0] == "loop" for b in blocks):
            blocks.insert(0, self._plan_block(f, "loop"))
        if f.role == "cold" or (f.role == "never" and r.random() < 0.3):
            blocks.append(("fail", f.module.name + ": " + self._phrase()))
        f.blocks = blocks
        f.self_cost = 6 + sum(self._block_cost(f, b) for b in blocks)

    def _plan_block(self, f, btype):
        """Plan one block of type `btype` (parameters that affect cost)."""
        r = self.rng
        if btype == "switch":
            return ("switch", r.choice([4, 4, 8, 8, 8, 16, 16, 32]))
        if btype == "loop":
            return ("loop", r.choice([4, 8, 8, 16, 32]))
        if btype == "str":
            m = f.module
            tables = list(m.tables)
            if r.random() < 0.2:
                others = [t for o in self.modules if o is not m
                          for t in o.exported_tables()]
                if others:
                    tables = others
            t = r.choice(tables)
            t.uses += 1
            variant = r.choice(["var", "var", "const", "char"])
            if t.kind == "keywords":
                hot = f.role in ("steady", "mixed", "shared")
                variant = r.choice(["walk", "find", "find", "find"] if hot else ["walk", "find"])
            return ("str", t, variant)
        return (btype,)

    @staticmethod
    def _block_cost(f, b):
        """Estimated cost of one block."""
        t = b[0]
        if t == "switch":
            return 6
        if t == "loop":
            return 4 * (12 if f.kind == "C" else b[1])
        if t == "str":
            tab, variant = b[1], b[2]
            if variant == "walk":
                return 25 * len(tab.entries)
            if variant == "find":
                return 12 * len(tab.entries)
            return 30
        return {"mix": 3, "rot": 2, "sort": 60, "bytes": 25, "cond": 4,
                "bits": 12, "ctx": 4, "lib": 25, "fail": 40}.get(t, 5)

    def _edge_cost(self, e):
        """Estimated cost of one call site."""
        if e.kind == "call":
            extra = 1
            if e.callee.style in ("ftemplate", "ctemplate"):
                extra = 2
            return e.trips * extra * (e.callee.cost + CALL_COST)
        if e.kind == "table":
            t = e.table
            costs = [g.cost + CALL_COST for g in t.live]
            if t.mode == "walk":
                return sum(costs) + 2
            return sum(costs) / len(costs) + 4
        return 2

    def _inclusive_cost(self, f):
        """Self cost plus the cost of all calls made by one call of `f`."""
        return f.self_cost + sum(self._edge_cost(e) for e in f.edges)

    def _plan_and_cost(self):
        """Plan bodies and compute inclusive costs callee-first; on the way
        add extra intra-role edges (shared callees, so fewer functions are
        inlined away) and call loops (skewed call frequencies) as long as
        the per-call cost stays under the role's cap."""
        r = self.rng
        for role in COST_ORDER:
            group = self.groups[role]
            by_mod = {}
            for g in group:
                by_mod.setdefault(g.module.index, []).append(g)
            for f in reversed(group):
                self._plan_blocks(f)
                f.cost = self._inclusive_cost(f)
                if f.kind not in "ABC":
                    continue
                cap = COST_CAPS[role]
                if f.root in ("steady", "mixed"):
                    cap = ROOT_COST_CAP
                for _ in range(r.choice([0, 0, 1, 1, 1, 2, 3])):
                    local = by_mod.get(f.module.index, [])
                    src = local if (local and r.random() < 0.6) else group
                    later = [g for g in src[-8:] + r.sample(src, min(8, len(src)))
                             if g.pos > f.pos and f.can_call(g)
                             and g.root not in ("init", "handler")]
                    if not later:
                        continue
                    g = r.choice(later)
                    if any(e.callee is g for e in f.edges):
                        continue
                    if f.cost + g.cost + CALL_COST <= cap:
                        self._link(f, g)
                        f.cost = self._inclusive_cost(f)
                if role in ("steady", "mixed"):
                    for e in f.edges:
                        if e.kind == "call" and r.random() < 0.3:
                            trips = r.choice([2, 2, 3, 4])
                            add = (trips - 1) * (e.callee.cost + CALL_COST)
                            if f.cost + add <= cap:
                                e.trips = trips
                                f.cost = self._inclusive_cost(f)

    def _make_fn_tables(self):
        """Turn some groups of sibling calls into function-pointer tables
        (indexed by data in the steady state, walked in startup code), and
        add feature-gated slots that point at never-executed functions."""
        r = self.rng
        reserved = list(self.reserved_never)
        for f in self.funcs:
            if f.kind not in "ABC" or r.random() > 0.35:
                continue
            for kind in ("A", "B"):
                sib = [e for e in f.edges if e.kind == "call" and e.trips == 1
                       and e.callee.role == f.role and e.callee.kind == kind
                       and e.callee.root not in ("init", "handler")]
                if len(sib) < 2:
                    continue
                sib = sib[: r.randint(2, 5)]
                mode = "index" if f.role in ("steady", "mixed", "cold", "never") else "walk"
                t = FnTable(f, kind, [e.callee for e in sib], mode)
                if f.role != "never" and r.random() < 0.5:
                    ok = [g for g in reserved if g.kind == kind]
                    others = [g for g in self.groups["never"]
                              if g.kind == kind and g.root is None]
                    for _ in range(r.choice([1, 1, 2])):
                        if ok:
                            g = ok.pop(0)
                            reserved.remove(g)
                        elif others:
                            g = r.choice(others)
                        else:
                            break
                        if g not in t.gated:
                            t.gated.append(g)
                for e in sib:
                    f.edges.remove(e)
                    e.callee.callers.remove((f, "call"))
                for g in t.live + t.gated:
                    g.callers.append((f, "table"))
                f.edges.append(Edge("table", table=t))
                break
        # Reserved never roots that no table took get a gated direct call.
        executed = [g for role in EXECUTED_ROLES for g in self.groups[role]
                    if g.kind == "A"]
        for g in reserved:
            self._link(r.choice(executed), g, "gate")

    # --- linkage, names ---------------------------------------------------

    def _assign_styles(self):
        """Decide how each function is declared (static, extern, namespace,
        member, template, virtual, ...) from who calls it."""
        r = self.rng
        for f in self.funcs:
            m = f.module
            callers = [c for c, _ in f.callers]
            in_table = any(v == "table" for _, v in f.callers)
            same_tu = all(c.module is m for c in callers)
            c_callers = any(not c.module.is_cpp for c in callers)
            if f.root == "handler":
                f.style = "virtual"
            elif f.root == "init":
                f.style = "anon" if m.is_cpp else "c_extern"
            elif f.root in ("steady", "mixed"):
                if not m.is_cpp:
                    f.style = "c_extern"
                elif c_callers:
                    f.style = "externc"
                else:
                    f.style = r.choice(["ns", "ns", "externc"])
            elif not m.is_cpp:
                f.style = "c_static" if (same_tu and r.random() < 0.55) else "c_extern"
            elif c_callers:
                f.style = "externc"
            else:
                opts = []
                if same_tu:
                    opts += [("anon", 25), ("static", 15), ("ns", 10), ("externc", 5)]
                    if not in_table and f.kind == "A":
                        opts += [("member", 20), ("ctemplate", 10)]
                    if not in_table and f.kind == "C":
                        opts += [("ftemplate", 40)]
                else:
                    opts += [("ns", 55), ("externc", 20)]
                    if not in_table and f.kind == "A":
                        opts += [("member", 25)]
                f.style = r.choices([o for o, _ in opts], [w for _, w in opts])[0]

    def _assign_collisions(self):
        """Rename static functions of several modules to the same names
        (parse_header in 6 TUs, ...), mixing startup and other roles."""
        r = self.rng
        mods = list(self.modules)
        for name, want in COLLIDING_STATICS:
            want = min(want, len(mods))
            order = list(mods)
            r.shuffle(order)
            defs = []
            for m in order:
                if len(defs) == want:
                    break
                cands = [f for f in m.funcs if not f.colliding and not self._is_root(f)
                         and f.callers and all(c.module is m for c, _ in f.callers)
                         and f.style not in ("member", "ctemplate", "ftemplate")]
                if not cands:
                    continue
                want_startup = len(defs) % 2 == 0
                pref = [f for f in cands if (f.role == "startup") == want_startup]
                pool = pref or cands
                multi = [f for f in pool if len(f.callers) >= 2 and f.kind in "ABC"]
                f = r.choice(multi or pool)
                f.colliding = True
                f.name = name
                if m.is_cpp:
                    f.style = r.choice(["static", "anon"])
                else:
                    f.style = "c_static"
                if f.kind in "ABC" and len(f.blocks) < 4:
                    f.blocks += [self._plan_block(f, "switch"), ("mix",)]
                    f.self_cost = 6 + sum(self._block_cost(f, b) for b in f.blocks)
                m.used_names.add(name)
                defs.append(f)
            self.collisions.append((name, defs))

    def _assign_names(self):
        """Give every function a name unique in its module (C-linkage ones
        prefixed by the module name); handler classes get class names."""
        r = self.rng
        reserved = {n for n, _ in COLLIDING_STATICS} | {"init_module", "init"}
        for m in self.modules:
            m.used_names |= reserved
            classes = set()
            for f in m.funcs:
                if f.name is not None:
                    continue
                if f.root == "init":
                    f.name = "init_module" if m.is_cpp else "%s_init" % m.name
                    continue
                for attempt in range(100):
                    base = "%s_%s" % (r.choice(VERBS), r.choice(NOUNS))
                    if attempt > 20:
                        base += "_%d" % attempt
                    if base not in m.used_names:
                        break
                m.used_names.add(base)
                if f.style in ("c_extern", "externc"):
                    f.name = "%s_%s" % (m.name, base)
                else:
                    f.name = base
                if f.root == "handler":
                    for attempt in range(100):
                        noun = r.choice(NOUNS)
                        cls = noun.capitalize() + "Handler"
                        if attempt > 20:
                            cls = "%s%dHandler" % (noun.capitalize(), attempt)
                        if cls not in classes:
                            break
                    classes.add(cls)
                    f.handler_class = cls
                    f.handler_label = "%s.%s" % (m.name, cls[:-7].lower())

    def _ensure_table_uses(self):
        """Every static string table must be used by some function of its
        module (an executed one when possible)."""
        r = self.rng
        for m in self.modules:
            for t in m.static_tables():
                if t.uses:
                    continue
                cands = [f for f in m.funcs if f.kind in "ABC" and f.role in EXECUTED_ROLES]
                cands = cands or [f for f in m.funcs if f.kind in "ABC"]
                f = r.choice(cands)
                variant = r.choice(["walk", "find"]) if t.kind == "keywords" else "var"
                f.blocks.append(("str", t, variant))
                f.self_cost += self._block_cost(f, f.blocks[-1])
                t.uses += 1

    def _recompute_costs(self):
        """Final inclusive costs (tables and collisions changed some)."""
        for role in COST_ORDER:
            for f in reversed(self.groups[role]):
                f.cost = self._inclusive_cost(f)

    def _handler_cost(self, role):
        """Average cost of one handler dispatch of `role`."""
        hs = [f for m in self.modules for f in m.handlers if f.role == role]
        if not hs:
            return None
        return sum(f.cost for f in hs) / len(hs) + 10

    def _compute_schedules(self):
        """Root weights of the steady and mixed workloads (Zipf-like, so a
        few chains are very hot and there is a long warm tail).  The
        virtual-dispatch root is one of the hottest (request handling)."""
        r = self.rng
        steady = [("fn", f) for f in self.steady_roots]
        r.shuffle(steady)
        if self._handler_cost("steady") is not None:
            steady.insert(r.randint(0, 2), ("dispatch", "steady"))
        self.steady_schedule = self._zipf(steady, 1.0)
        mixed = [("fn", f) for f in self.mixed_roots]
        keep = [x for x in steady if r.random() < 0.8] or steady[:1]
        mixed += keep
        r.shuffle(mixed)
        if self._handler_cost("mixed") is not None:
            mixed.insert(r.randint(0, 2), ("dispatch", "mixed"))
        self.mixed_schedule = self._zipf(mixed, 0.9)

    def _expected_calls(self, schedule, iterations):
        """Expected number of calls of each function (by id) in one run of
        a workload with `schedule` and `iterations`."""
        calls = [0.0] * len(self.funcs)
        total = float(1 << CDF_BITS)
        for (what, obj), w in schedule:
            n = iterations * w / total
            if what == "fn":
                calls[obj.fid] += n
            else:
                hs = [f for m in self.modules for f in m.handlers if f.role == obj]
                for f in hs:
                    calls[f.fid] += n / len(hs)
        # Callers before callees: roles in call order, then DAG position.
        for role in ("startup", "mixed", "steady", "shared", "cold", "never"):
            for f in self.groups[role]:
                n = calls[f.fid]
                if n == 0.0:
                    continue
                for e in f.edges:
                    if e.kind == "call":
                        calls[e.callee.fid] += n * e.trips
                    elif e.kind == "table":
                        t = e.table
                        share = n if t.mode == "walk" else n / len(t.live)
                        for g in t.live:
                            calls[g.fid] += share
        return calls

    def _flatten_hot_spots(self):
        """Trim the bodies of functions whose own cost would dominate a
        workload: expensive blocks become cheap ones, string-table uses
        become single lookups.  Keeps the steady-state profile flat enough
        that its hot code spans many functions."""
        r = self.rng
        for sched in (self.steady_schedule, self.mixed_schedule):
            for _ in range(4):
                calls = self._expected_calls(sched, 1.0)
                total = sum(calls[f.fid] * f.self_cost for f in self.funcs)
                limit = MAX_SELF_SHARE * total
                changed = False
                for f in self.funcs:
                    if calls[f.fid] * f.self_cost <= limit:
                        continue
                    blocks = []
                    for b in f.blocks:
                        if b[0] == "str":
                            b = ("str", b[1], "var")
                        elif b[0] not in CHEAP_BLOCKS:
                            b = (r.choice(["mix", "rot", "cond"]),)
                        blocks.append(b)
                    cost = 6 + sum(self._block_cost(f, b) for b in blocks)
                    if cost < f.self_cost:
                        f.blocks = blocks
                        f.self_cost = cost
                        changed = True
                if not changed:
                    break
                self._recompute_costs()

    def _ensure_coverage(self):
        """Make data-indexed tables walk their entries where the owner runs
        too rarely for every entry to be picked in a default run."""
        for mode, sched in (("steady", self.steady_schedule),
                            ("mixed", self.mixed_schedule)):
            calls = self._expected_calls(sched, self.default_iterations[mode])
            for f in self.groups[mode]:
                for e in f.edges:
                    t = e.table
                    if (e.kind == "table" and t.mode == "index"
                            and calls[f.fid] < MIN_EXPECTED_CALLS * len(t.live)):
                        t.mode = "walk"

    def _compute_iterations(self):
        """Default iteration counts of the workloads, sized by the cost
        model to take about TARGET_RUN_UNITS."""
        for mode, sched in (("steady", self.steady_schedule),
                            ("mixed", self.mixed_schedule)):
            per_iter = 0.0
            total = float(1 << CDF_BITS)
            for (what, obj), w in sched:
                if what == "fn":
                    c = obj.cost
                else:
                    c = self._handler_cost(obj)
                per_iter += (w / total) * (c + 20)
            n = TARGET_RUN_UNITS / max(per_iter, 1.0)
            digits = 10 ** max(0, len(str(int(n))) - 2)
            self.default_iterations[mode] = max(1000, int(round(n / digits)) * digits)

    def _zipf(self, items, exponent):
        """Integer weights summing to 2**CDF_BITS, rank k ~ 1/(k+1)**exp,
        every item at least 1/1024 of the total."""
        total = 1 << CDF_BITS
        raw = [1.0 / (k + 1) ** exponent for k in range(len(items))]
        s = sum(raw)
        floor = total // 1024
        w = [max(floor, int(x / s * total)) for x in raw]
        w[0] += total - sum(w)
        return list(zip(items, w))

    # ---------------------------------------------------------- rendering

    def _qualified(self, f):
        """How code outside the function's own scope names it."""
        st = f.style
        m = f.module
        if st in ("ns", "ftemplate"):
            return "ks::%s::%s" % (m.name, f.name)
        return f.name

    def _op_stmt(self, expr):
        """Fold the value of a call into the accumulator h."""
        op = self.rng.choice(["^=", "+=", "mix"])
        if op == "mix":
            return "h = ks_mix(h, %s);" % expr
        return "h %s %s;" % (op, expr)

    def _local_array(self, ctype, name, arg):
        """Lines declaring and filling an 8-element local array from arg."""
        k = self.rng.getrandbits(32)
        if ctype == "uint32_t":
            fill = "(uint32_t)(%s >> (i * 5u)) ^ %s" % (arg, hex32(k))
        else:
            fill = "static_cast<%s>(%s >> (i * 5u))" % (ctype, arg)
        return ["%s %s[8];" % (ctype, name),
                "for (unsigned i = 0; i < 8u; i++) %s[i] = %s;" % (name, fill)]

    def _call_lines(self, caller, callee, arg):
        """Statements calling `callee` from `caller` with value argument
        `arg` (an identifier or parenthesised expression)."""
        r = self.rng
        st = callee.style
        m = callee.module
        kind = callee.kind
        if st == "ftemplate":
            lines = []
            for t in sorted(r.sample(TEMPLATE_TYPES, 2)):
                if t not in callee.template_types:
                    callee.template_types.append(t)
                lines += ["{"] + ["  " + x for x in self._local_array(t, "tmp", arg)]
                lines.append("  " + self._op_stmt(
                    "ks::%s::%s<%s>(tmp, 8u, %s)" % (m.name, callee.name, t, arg)))
                lines.append("}")
            return lines
        if st == "ctemplate":
            if caller.style == "ctemplate" and caller.module is m:
                return [self._op_stmt("this->%s(c, %s)" % (callee.name, arg))]
            lines = []
            for t in sorted(r.sample(TEMPLATE_TYPES, 2)):
                if t not in callee.template_types:
                    callee.template_types.append(t)
                lines += ["{",
                          "  ks::%s::SlotCache<%s> cache(%s);" % (m.name, t, arg),
                          "  " + self._op_stmt("cache.%s(c, %s)" % (callee.name, arg)),
                          "}"]
            return lines
        if st == "member":
            if caller.style == "member" and caller.module is m:
                return [self._op_stmt("%s(c, %s)" % (callee.name, arg))]
            return ["{",
                    "  ks::%s::Engine engine(%s);" % (m.name, arg),
                    "  " + self._op_stmt("engine.%s(c, %s)" % (callee.name, arg)),
                    "}"]
        name = self._qualified(callee)
        if kind == "A":
            return [self._op_stmt("%s(c, %s)" % (name, arg))]
        if kind == "B":
            return [self._op_stmt("%s(%s, %s)" % (name, arg, hex32(r.getrandbits(32))))]
        if kind == "D":
            return [self._op_stmt("%s((uint32_t)(%s >> %d))" % (name, arg, r.randint(0, 32)))]
        if kind == "E":
            return [self._op_stmt("%s(c)" % name)]
        # kind C: a buffer argument.
        if caller.has_ctx:
            return [self._op_stmt("%s(c->buf + ((%s >> %d) & 127u), 16u, %s)"
                                  % (name, arg, r.randint(0, 50), arg))]
        if caller.kind == "C" and caller.style != "ftemplate":
            return [self._op_stmt("%s(p, n, %s)" % (name, arg))]
        return (["{"] + ["  " + x for x in self._local_array("uint32_t", "tmp", arg)]
                + ["  " + self._op_stmt("%s(tmp, 8u, %s)" % (name, arg)), "}"])

    def _gate_cond(self, f, bit):
        """Condition of a feature gate (never true in bundled workloads)."""
        if f.has_ctx:
            return "KS_GATE(c, %du)" % bit
        return "KS_GGATE(%du)" % bit

    def _edge_lines(self, f, e):
        """Statements of one call site of `f`."""
        r = self.rng
        if e.kind == "call":
            if e.trips == 1:
                return self._call_lines(f, e.callee, "h")
            body = self._call_lines(f, e.callee, "(h + li)")
            return (["for (unsigned li = 0; li < %du; li++) {" % e.trips]
                    + ["  " + x for x in body] + ["}"])
        if e.kind == "rare":
            # Hot callers get somewhat less rare conditions, so a steady run
            # takes a handful of error paths; startup ones practically never.
            hot = f.role in ("steady", "mixed", "shared")
            bits = r.randint(13, 20) if hot else r.randint(16, 24)
            shift = r.randint(0, 63 - bits)
            mask = (1 << bits) - 1
            val = r.getrandbits(bits)
            body = self._call_lines(f, e.callee, "h")
            return (["if (KS_UNLIKELY(((h >> %d) & 0x%xu) == 0x%xu)) {"
                     % (shift, mask, val),
                     "  /* validation failed: error path */"]
                    + ["  " + x for x in body] + ["}"])
        if e.kind == "gate":
            bit = r.randint(*FEATURE_GATE_BITS)
            body = self._call_lines(f, e.callee, "h")
            return (["if (%s) {" % self._gate_cond(f, bit)]
                    + ["  " + x for x in body] + ["}"])
        return self._table_call_lines(f, e.table)

    def _table_name(self, t):
        """Identifier of a function-pointer table."""
        return "%s_ops" % t.caller.name

    def _table_args(self, t, arg):
        """Arguments of a call through table `t`."""
        if t.kind == "A":
            return "c, %s" % arg
        return "%s, %s" % (arg, hex32(self.rng.getrandbits(32)))

    def _table_call_lines(self, f, t):
        """Statements calling through the function-pointer table `t`."""
        r = self.rng
        name = self._table_name(t)
        nlive = len(t.live)
        ngated = len(t.gated)
        bit = r.randint(*FEATURE_GATE_BITS)
        if t.mode == "walk":
            lines = ["for (size_t ti = 0; ti < %du; ti++) {" % nlive,
                     "  h ^= %s[ti](%s);" % (name, self._table_args(t, "(h + ti)")),
                     "}"]
            if ngated:
                lines += ["if (%s) {" % self._gate_cond(f, bit),
                          "  for (size_t ti = %du; ti < %du; ti++) {" % (nlive, nlive + ngated),
                          "    h += %s[ti](%s);" % (name, self._table_args(t, "h")),
                          "  }", "}"]
            return lines
        lines = ["{", "  size_t slot = (size_t)((h >> %d) %% %du);" % (r.randint(0, 40), nlive)]
        if ngated:
            lines.append("  if (%s) slot = %du + (size_t)(h %% %du);"
                         % (self._gate_cond(f, bit), nlive, ngated))
        lines += ["  " + self._op_stmt("%s[slot](%s)" % (name, self._table_args(t, "h"))), "}"]
        return lines

    def _table_decl(self, t):
        """Definition of the function-pointer table `t`."""
        entries = [self._qualified(g) for g in t.live + t.gated]
        ftype = "ks_op_fn" if t.kind == "A" else "ks_val_fn"
        n = len(entries)
        if t.caller.module.is_cpp:
            head = "const %s %s[%d] = {" % (ftype, self._table_name(t), n)
        elif self.rng.random() < 0.3:
            params = "ks_ctx *, uint64_t" if t.kind == "A" else "uint64_t, uint32_t"
            head = "static uint64_t (*const %s[%d])(%s) = {" % (self._table_name(t), n, params)
        else:
            head = "static const %s %s[%d] = {" % (ftype, self._table_name(t), n)
        return [head] + ["  %s," % e for e in entries] + ["};"]

    def _rand_op(self):
        """One random arithmetic statement on h."""
        r = self.rng
        k = r.randrange(7)
        if k == 0:
            return "h += %s;" % hex64(r.getrandbits(64))
        if k == 1:
            return "h ^= h >> %d;" % r.randint(1, 63)
        if k == 2:
            return "h ^= h << %d;" % r.randint(1, 63)
        if k == 3:
            return "h *= %s;" % hex64(r.getrandbits(64) | 1)
        if k == 4:
            return "h = ks_rotl64(h, %du);" % r.randint(1, 63)
        if k == 5:
            return "h -= h >> %d;" % r.randint(1, 63)
        return "h ^= (h & 0x%04xu) * %s;" % (r.getrandbits(16), hex64(r.getrandbits(32) | 1))

    def _str_block(self, f, t, variant):
        """Lines using string table `t` (hashing strings into h)."""
        r = self.rng
        cpp = f.module.is_cpp
        null = "nullptr" if cpp else "NULL"
        n = len(t.entries)
        count = t.count_macro if t.exported else "%du" % n
        s = r.randint(0, 40)
        if t.kind in ("names", "levels") or (t.kind == "keywords"
                                             and variant in ("var", "const", "char")):
            # (a NULL-terminated keyword table can be indexed too)
            if variant == "const":
                return ["h += ks_hash_str(%s[%d]) ^ %s;" % (t.ident, r.randrange(n),
                                                             hex64(r.getrandbits(64)))]
            if variant == "char":
                return ["h ^= (uint64_t)(unsigned char)%s[(h >> %d) %% %s][0] << %d;"
                        % (t.ident, s, count, r.randint(0, 56))]
            return ["h = ks_mix(h, ks_hash_str(%s[(h >> %d) %% %s]));" % (t.ident, s, count)]
        if t.kind in ("options", "xoptions"):
            if t.kind == "xoptions":
                stype = "struct ks_opt"
            else:
                stype = "OptionEntry" if cpp else "struct option_entry"
            if variant == "const":
                i = r.randrange(n)
                return ["h += (uint64_t)(uint32_t)%s[%d].code + ks_hash_str(%s[%d].help);"
                        % (t.ident, i, t.ident, i)]
            return ["{",
                    "  const %s *opt = &%s[(h >> %d) %% %s];" % (stype, t.ident, s, count),
                    "  h ^= ks_hash_str(opt->name) + (uint64_t)(uint32_t)opt->code;",
                    "  if ((h & 7u) == 0u) h = ks_mix(h, ks_hash_str(opt->help));",
                    "}"]
        # NULL-terminated keyword table, walked by pointer.
        if variant == "find":
            return ["{",
                    "  unsigned idx = 0;",
                    "  for (const char *const *kw = %s; *kw != %s; ++kw, ++idx) {" % (t.ident, null),
                    "    if ((ks_hash_str(*kw) & 0xfu) == (h & 0xfu)) {",
                    "      h += idx;",
                    "      break;",
                    "    }",
                    "  }",
                    "  h ^= (uint64_t)idx << %d;" % r.randint(0, 50),
                    "}"]
        return ["for (const char *const *kw = %s; *kw != %s; ++kw) {" % (t.ident, null),
                "  h = ks_mix(h, ks_hash_str(*kw));",
                "}"]

    def _block_lines(self, f, b):
        """Render one planned block of `f`."""
        r = self.rng
        t = b[0]
        if t == "mix":
            return ["h ^= h >> %d;" % r.randint(17, 33),
                    "h *= %s;" % hex64(r.getrandbits(64) | 1),
                    "h ^= h >> %d;" % r.randint(11, 31)]
        if t == "rot":
            return ["h = ks_rotl64(h + %s, %du) ^ (h >> %d);"
                    % (hex64(r.getrandbits(64)), r.randint(5, 59), r.randint(3, 40))]
        if t == "cond":
            bits = r.randint(4, 12)
            return ["if ((h & 0x%xu) < 0x%xu) {" % ((1 << bits) - 1, r.randint(1, (1 << bits) - 1)),
                    "  " + self._rand_op(),
                    "} else if (((h >> %d) & 0xffu) == 0x%02xu) {" % (r.randint(8, 50), r.getrandbits(8)),
                    "  " + self._rand_op(),
                    "  " + self._rand_op(),
                    "} else {",
                    "  " + self._rand_op(),
                    "}"]
        if t == "switch":
            ncases = b[1]
            lines = ["switch ((unsigned)((h >> %d) & %du)) {" % (r.randint(0, 58), ncases - 1)]
            for i in range(ncases):
                lines.append("case %du:" % i)
                for _ in range(r.choice([1, 1, 2, 2, 3])):
                    lines.append("  " + self._rand_op())
                lines.append("  break;")
            lines += ["default:", "  h = ~h;", "  break;", "}"]
            return lines
        if t == "loop":
            k1, k2 = hex64(r.getrandbits(64) | 1), r.randint(1, (1 << 8) - 1)
            if f.has_ctx:
                return ["for (unsigned i = 0; i < %du; i++) {" % b[1],
                        "  uint64_t w = c->buf[(i * %du + (unsigned)(h >> %d)) & (KS_BUF_WORDS - 1u)];"
                        % (r.choice([1, 3, 5, 7, 9, 11]), r.randint(0, 40)),
                        "  h = (h ^ w) * %s;" % k1,
                        "  if ((w & 0xffu) < %du) h ^= h >> %d;" % (k2, r.randint(7, 31)),
                        "}"]
            if f.kind == "C":
                return ["for (size_t i = 0; i < n; i++) {",
                        "  uint64_t w = (uint64_t)p[i];",
                        "  h = (h + w) * %s;" % k1,
                        "  if ((w & 3u) == 0u) h ^= h >> %d;" % r.randint(7, 31),
                        "}"]
            return ["{",
                    "  uint64_t arr[8];",
                    "  for (unsigned i = 0; i < 8u; i++) arr[i] = ks_rotl64(h, i * 9u) ^ %s;"
                    % hex64(r.getrandbits(64)),
                    "  for (unsigned i = 0; i < %du; i++) h = (h ^ arr[(i * 5u) & 7u]) * %s;"
                    % (b[1], k1),
                    "}"]
        if t == "sort":
            return ["{",
                    "  uint32_t arr[8];",
                    "  for (unsigned i = 0; i < 8u; i++) arr[i] = (uint32_t)(h >> (i * 4u)) ^ (%s * i);"
                    % hex32(r.getrandbits(32)),
                    "  for (unsigned i = 1; i < 8u; i++) {",
                    "    uint32_t t = arr[i];",
                    "    unsigned j = i;",
                    "    while (j > 0u && arr[j - 1u] > t) {",
                    "      arr[j] = arr[j - 1u];",
                    "      j--;",
                    "    }",
                    "    arr[j] = t;",
                    "  }",
                    "  h ^= ((uint64_t)arr[0] << 32) | arr[7];",
                    "  h += arr[%d];" % r.randint(1, 6),
                    "}"]
        if t == "bytes":
            a = r.randint(0x20, 0x60)
            bb = r.randint(0x61, 0xd0)
            return ["{",
                    "  unsigned st = %du;" % r.randint(0, 9),
                    "  for (unsigned i = 0; i < 8u; i++) {",
                    "    unsigned ch = (unsigned)(h >> (i * 8u)) & 0xffu;",
                    "    if (ch < 0x%02xu) {" % a,
                    "      st = st * 3u + 1u;",
                    "    } else if (ch < 0x%02xu) {" % bb,
                    "      st ^= ch;",
                    "    } else {",
                    "      st += ch >> 2;",
                    "    }",
                    "  }",
                    "  h += (uint64_t)st * %s;" % hex64(r.getrandbits(64) | 1),
                    "}"]
        if t == "bits":
            return ["{",
                    "  uint64_t t = (h ^ %s) & 0xffffu;" % hex64(r.getrandbits(64)),
                    "  unsigned cnt = 0;",
                    "  while (t != 0u) {",
                    "    t &= t - 1u;",
                    "    cnt++;",
                    "  }",
                    "  h = ks_rotl64(h, cnt) + cnt;",
                    "}"]
        if t == "ctx":
            return ["c->counters[%d] += h & 0xffffu;" % r.randrange(16),
                    "h ^= c->counters[(h >> %d) & 15u];" % r.randint(0, 60)]
        if t == "lib":
            ty = r.choice(TEMPLATE_TYPES)
            return ["{",
                    "  ks::SmallRing<%s, %du> ring;" % (ty, r.choice([4, 8, 16])),
                    "  ring.push(static_cast<%s>(h));" % ty,
                    "  ring.push(static_cast<%s>(h >> %d));" % (ty, r.randint(8, 40)),
                    "  h ^= ring.fold(h);",
                    "}"]
        if t == "fail":
            return ["h ^= ks_fail(%s, h);" % c_string(b[1])]
        if t == "str":
            return self._str_block(f, b[1], b[2])
        raise AssertionError(t)

    def _prologue(self, f):
        """First statements of a body: the accumulator from the arguments."""
        r = self.rng
        st = f.style
        if f.kind == "A":
            lines = ["uint64_t h = x ^ %s;" % hex64(r.getrandbits(64)),
                     "h += c->counters[%d];" % r.randrange(16)]
        elif f.kind == "B":
            lines = ["uint64_t h = (x ^ %s) + (uint64_t)k * %s;"
                     % (hex64(r.getrandbits(64)), hex64(r.getrandbits(64) | 1))]
        else:
            lines = ["uint64_t h = x ^ ((uint64_t)n << %d) ^ %s;" % (r.randint(8, 40), hex64(r.getrandbits(64))),
                     "if (n > 0u) h += (uint64_t)p[(size_t)(x % n)];"]
        if st == "member":
            lines.append("h ^= state_;")
        elif st == "ctemplate":
            lines.append("h ^= (uint64_t)slots_[h & 7u] + seed_;")
        return lines

    def _epilogue(self, f):
        """Last statements of a body."""
        st = f.style
        lines = []
        if st == "member":
            lines.append("state_ = ks_mix(state_, h);")
        elif st == "ctemplate":
            lines += ["slots_[(h >> 3) & 7u] = static_cast<T>(h ^ seed_);",
                      "seed_ ^= h;"]
        if self.rng.random() < 0.3:
            lines.append("return h ^ (h >> %d);" % self.rng.randint(13, 41))
        else:
            lines.append("return h;")
        return lines

    def _tiny_body(self, f):
        """Body of a D (value) or E (context accessor) function."""
        r = self.rng
        if f.kind == "D":
            if r.random() < 0.6:
                return ["return (v ^ %s) * %s + (v >> %d);"
                        % (hex32(r.getrandbits(32)), hex32(r.getrandbits(32) | 1), r.randint(1, 31))]
            return ["switch (v & 3u) {",
                    "case 0u:",
                    "  return v * %s;" % hex32(r.getrandbits(32) | 1),
                    "case 1u:",
                    "  return v ^ %s;" % hex32(r.getrandbits(32)),
                    "case 2u:",
                    "  return (v >> %d) | (v << %d);" % (r.randint(1, 15), r.randint(16, 31)),
                    "default:",
                    "  return v + %s;" % hex32(r.getrandbits(32)),
                    "}"]
        return ["return c->counters[%d] ^ ((uint64_t)c->buf[%d] << %d);"
                % (r.randrange(16), r.randrange(256), r.randint(0, 31))]

    def _signature(self, f):
        """(return type, parameter list) of `f`."""
        ret, params = SIGNATURES[f.kind]
        if f.style == "ftemplate":
            params = "const T *p, size_t n, uint64_t x"
        return ret, params

    def _definition(self, f):
        """Full definition of `f` (with its function-pointer table, if
        any, just before it)."""
        r = self.rng
        m = f.module
        ret, params = self._signature(f)
        st = f.style
        out = []
        for e in f.edges:
            if e.kind == "table":
                out += self._table_decl(e.table) + [""]
        if m.is_cpp and out:
            out = ["namespace {", ""] + out + ["}  // namespace", ""]
        open_ns = st in ("anon", "virtual")
        if open_ns:
            out += ["namespace {", ""]
        comment = "/* %s; %s */" % (f.role, self._describe_role(f))
        out.append(comment if not m.is_cpp else "// %s; %s" % (f.role, self._describe_role(f)))
        if st in ("c_extern",):
            out.append("%s %s(%s) {" % (ret, f.name, params))
        elif st in ("c_static", "static"):
            out.append("static %s %s(%s) {" % (ret, f.name, params))
        elif st == "externc":
            out.append('extern "C" %s %s(%s) {' % (ret, f.name, params))
        elif st == "anon":
            out.append("%s %s(%s) {" % (ret, f.name, params))
        elif st == "ns":
            out.append("%s ks::%s::%s(%s) {" % (ret, m.name, f.name, params))
        elif st == "member":
            out.append("%s ks::%s::Engine::%s(%s) {" % (ret, m.name, f.name, params))
        elif st == "ctemplate":
            out += ["template <typename T>",
                    "%s ks::%s::SlotCache<T>::%s(%s) {" % (ret, m.name, f.name, params)]
        elif st == "ftemplate":
            out += ["template <typename T>",
                    "%s ks::%s::%s(%s) {" % (ret, m.name, f.name, params)]
        elif st == "virtual":
            out.append("%s %s::handle(%s) {" % (ret, f.handler_class, params))
        else:
            raise AssertionError(st)
        if f.kind in "DE":
            body = self._tiny_body(f)
        else:
            segments = [self._block_lines(f, b) for b in f.blocks]
            segments += [self._edge_lines(f, e) for e in f.edges]
            r.shuffle(segments)
            body = self._prologue(f)
            for seg in segments:
                body += seg
            body += self._revision_lines(f)
            body += self._epilogue(f)
        out += ["  " + x for x in body]
        out.append("}")
        if open_ns:
            out += ["", "}  // namespace"]
        out.append("")
        return out

    @staticmethod
    def _describe_role(f):
        """Short comment text saying why the function runs (or not)."""
        return {
            "startup": "runs once at startup",
            "steady": "steady-state loop",
            "shared": "startup and steady state",
            "mixed": "held-out mixed workload only",
            "cold": "error path, rare condition",
            "never": "behind a feature gate, never run",
        }[f.role]

    def _prototype(self, f, with_static=True):
        """Forward declaration of `f` (file-local styles)."""
        ret, params = self._signature(f)
        prefix = "static " if (f.style in ("c_static", "static") and with_static) else ""
        return "%s%s %s(%s);" % (prefix, ret, f.name, params)

    def _table_defs(self, m):
        """Definitions of the string tables of module `m`."""
        cpp = m.is_cpp
        out = []
        statics = m.static_tables()
        exported = m.exported_tables()
        if cpp:
            out += ["namespace {", "",
                    "struct OptionEntry {",
                    "  const char *name;",
                    "  int code;",
                    "  const char *help;",
                    "};", ""]
        else:
            out += ["struct option_entry {",
                    "  const char *name;",
                    "  int code;",
                    "  const char *help;",
                    "};", ""]
        for t in statics:
            out += self._table_lines(t, cpp, False) + [""]
        if cpp:
            out += ["}  // namespace", ""]
        for t in exported:
            out += self._table_lines(t, cpp, True) + [""]
        return out

    def _table_lines(self, t, cpp, exported):
        """Definition lines of string table `t`."""
        storage = "" if exported else ("" if cpp else "static ")
        if t.kind in ("names", "levels"):
            size = t.count_macro if exported else str(len(t.entries))
            head = "%sconst char *const %s[%s] = {" % (storage, t.ident, size)
            return [head] + ["  %s," % c_string(s) for s in t.entries] + ["};"]
        if t.kind in ("options", "xoptions"):
            if exported:
                head = "const struct ks_opt %s[%s] = {" % (t.ident, t.count_macro)
            elif cpp:
                head = "constexpr OptionEntry %s[%d] = {" % (t.ident, len(t.entries))
            else:
                head = "static const struct option_entry %s[%d] = {" % (t.ident, len(t.entries))
            return [head] + ["  {%s, %d, %s}," % (c_string(a), b, c_string(c))
                             for a, b, c in t.entries] + ["};"]
        null = "nullptr" if cpp else "NULL"
        return (["%sconst char *const %s[] = {" % (storage, t.ident)]
                + ["  %s," % c_string(s) for s in t.entries] + ["  %s," % null, "};"])

    def _module_deps(self, m):
        """Other modules whose headers `m` must include."""
        deps = set()
        for f in m.funcs:
            for e in f.edges:
                callees = [e.callee] if e.callee is not None else e.table.live + e.table.gated
                for g in callees:
                    if g.module is not m:
                        deps.add(g.module.index)
            for b in f.blocks:
                if b[0] == "str" and b[1].module is not m:
                    deps.add(b[1].module.index)
        return [self.modules[i] for i in sorted(deps)]

    def _render_header(self, m):
        """The header of module `m`: C-linkage declarations, exported
        tables, and (for C++) namespace declarations and classes."""
        guard = "KS_MOD_%s_H" % m.name.upper()
        out = banner(self.seed, "c") + ["", "#ifndef " + guard, "#define " + guard, "",
                                        '#include "ks_runtime.h"', ""]
        clink = [f for f in m.funcs if f.style in ("c_extern", "externc")]
        out += ["#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
        for t in m.exported_tables():
            out.append("#define %s %du" % (t.count_macro, len(t.entries)))
            if t.kind == "levels":
                out.append("extern const char *const %s[%s];" % (t.ident, t.count_macro))
            else:
                out.append("extern const struct ks_opt %s[%s];" % (t.ident, t.count_macro))
        out.append("")
        for f in sorted(clink, key=lambda g: g.name):
            out.append(self._prototype(f))
        out += ["", "#ifdef __cplusplus", '}  /* extern "C" */', "#endif", ""]
        if m.is_cpp:
            ns = sorted((f for f in m.funcs if f.style == "ns"), key=lambda g: g.name)
            members = [f for f in m.funcs if f.style == "member"]
            if ns or members:
                out += ["#ifdef __cplusplus", "namespace ks {", "namespace %s {" % m.name, ""]
                for f in ns:
                    out.append(self._prototype(f))
                if members:
                    out += ["",
                            "/* Stateful engine of the %s module. */" % m.name,
                            "class Engine {",
                            " public:",
                            "  explicit Engine(uint64_t seed) : state_(seed ^ %s) {}"
                            % hex64(self.rng.getrandbits(64))]
                    for f in members:
                        out.append("  " + self._prototype(f))
                    out += ["", " private:", "  uint64_t state_;", "};"]
                out += ["", "}  // namespace %s" % m.name, "}  // namespace ks",
                        "#endif", ""]
        out += ["#endif /* %s */" % guard, ""]
        return out

    def _render_c_module(self, m):
        """Source of a C module."""
        r = self.rng
        out = banner(self.seed, "c") + [
            "/* Module '%s' of kiln-sample (C). */" % m.name, "",
            "#include <stddef.h>", "#include <stdint.h>", "",
            '#include "ks_runtime.h"', '#include "mod/%s.h"' % m.name]
        out += ['#include "mod/%s.h"' % d.name for d in self._module_deps(m)]
        out.append("")
        out += self._table_defs(m)
        statics = [f for f in m.funcs if f.style == "c_static"]
        if statics:
            for f in statics:
                out.append(self._prototype(f))
            out.append("")
        funcs = list(m.funcs)
        r.shuffle(funcs)
        for f in funcs:
            out += self._definition(f)
        return out

    def _render_cpp_module(self, m):
        """Source of a C++ module."""
        r = self.rng
        out = banner(self.seed, "cpp") + [
            "// Module '%s' of kiln-sample (C++)." % m.name, "",
            "#include <cstddef>", "#include <cstdint>", "",
            '#include "ks_cxx.hpp"', '#include "ks_runtime.h"',
            '#include "mod/%s.h"' % m.name]
        out += ['#include "mod/%s.h"' % d.name for d in self._module_deps(m)]
        out.append("")
        out += self._table_defs(m)
        anon = [f for f in m.funcs if f.style == "anon"]
        statics = [f for f in m.funcs if f.style == "static"]
        ftempl = [f for f in m.funcs if f.style == "ftemplate"]
        ctempl = [f for f in m.funcs if f.style == "ctemplate"]
        handlers = [f for f in m.funcs if f.style == "virtual"]
        if anon or handlers:
            out += ["namespace {", ""]
            for f in anon:
                out.append(self._prototype(f))
            for f in handlers:
                role = {"startup": "kRoleStartup", "steady": "kRoleSteady",
                        "mixed": "kRoleMixed", "never": "kRoleNever"}[f.role]
                out += ["",
                        "class %s final : public ks::Handler {" % f.handler_class,
                        " public:",
                        "  constexpr %s() : ks::Handler(ks::%s) {}" % (f.handler_class, role),
                        "  const char *name() const override { return %s; }"
                        % c_string(f.handler_label),
                        "  uint64_t handle(ks_ctx *c, uint64_t x) override;",
                        "};"]
            out += ["", "}  // namespace", ""]
        if statics:
            for f in statics:
                out.append(self._prototype(f))
            out.append("")
        if ftempl or ctempl:
            out += ["namespace ks {", "namespace %s {" % m.name, ""]
            for f in ftempl:
                out += ["template <typename T>",
                        "uint64_t %s(const T *p, size_t n, uint64_t x);" % f.name]
            if ctempl:
                out += ["",
                        "// Small cache, instantiated with several element types.",
                        "template <typename T>",
                        "class SlotCache {",
                        " public:",
                        "  explicit SlotCache(uint64_t seed) : slots_(), seed_(seed) {",
                        "    for (unsigned i = 0; i < 8u; i++) slots_[i] = static_cast<T>(seed >> (i * 7u));",
                        "  }"]
                for f in ctempl:
                    out.append("  " + self._prototype(f))
                out += ["", " private:", "  T slots_[8];", "  uint64_t seed_;", "};"]
            out += ["", "}  // namespace %s" % m.name, "}  // namespace ks", ""]
        funcs = list(m.funcs)
        r.shuffle(funcs)
        for f in funcs:
            out += self._definition(f)
        if handlers or m.init is not None:
            out += ["namespace {", ""]
            for f in handlers:
                var = "g_%s" % f.handler_class[0].lower() + f.handler_class[1:]
                out += ["%s %s;" % (f.handler_class, var),
                        "const ks::HandlerRegistrar %s_registrar(&%s);" % (var, var)]
            if m.init is not None:
                out.append("const ks::ModuleRegistrar g_module_registrar(%s, &init_module);"
                           % c_string(m.name))
            out += ["", "}  // namespace", ""]
        return out

    # --- framework files ----------------------------------------------

    def _render_runtime_h(self):
        """ks_runtime.h: context, helpers, runtime declarations."""
        lines = self._runtime_h_text()
        if self.revision and not self.revision_diverges:
            at = lines.index("#define KS_BUF_WORDS 256u") + 1
            lines[at:at] = ["", "/* Written by the revision edits' branches, never read. */",
                            "extern volatile uint64_t ks_revision_sink;"]
        return lines

    def _runtime_h_text(self):
        return banner(self.seed, "c") + r"""
/* Runtime support shared by every kiln-sample translation unit. */

#ifndef KS_RUNTIME_H
#define KS_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KS_BUF_WORDS 256u

/* Execution context threaded through most functions. */
typedef struct ks_ctx {
  uint64_t seed;          /* derived from the command line */
  uint64_t rng;           /* workload random state */
  uint32_t features;      /* mode bits; bits 8..31 are feature gates */
  uint32_t mode;
  uint64_t counters[16];
  uint32_t buf[KS_BUF_WORDS];
} ks_ctx;

typedef uint64_t (*ks_op_fn)(ks_ctx *c, uint64_t x);
typedef uint64_t (*ks_val_fn)(uint64_t x, uint32_t k);

/* Element of the exported option tables. */
struct ks_opt {
  const char *name;
  int code;
  const char *help;
};

#define KS_MODE_COUNT 3u
extern const char *const ks_mode_names[KS_MODE_COUNT];

/* Copy of the context's features, for code without a context. */
extern uint32_t ks_features;

#if defined(__GNUC__) || defined(__clang__)
#define KS_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define KS_UNLIKELY(x) (x)
#endif

/* Feature gates: never open in the bundled workloads. */
#define KS_GATE(c, bit) KS_UNLIKELY((((c)->features >> (bit)) & 1u) != 0u)
#define KS_GGATE(bit) KS_UNLIKELY(((ks_features >> (bit)) & 1u) != 0u)

static inline uint64_t ks_rotl64(uint64_t v, unsigned r) {
  r &= 63u;
  return r == 0u ? v : ((v << r) | (v >> (64u - r)));
}

static inline uint64_t ks_mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 31);
}

uint64_t ks_hash_str(const char *s);
void ks_ctx_init(ks_ctx *c, uint64_t seed, uint32_t mode, uint32_t features);
uint64_t ks_rng_next(ks_ctx *c);
uint64_t ks_fail(const char *what, uint64_t v);
uint64_t ks_error_count(void);
const char *ks_last_error(void);
int ks_parse_u64(const char *s, uint64_t *out);
void ks_print_usage(int to_stderr);

#ifdef __cplusplus
}  /* extern "C" */
#endif

#endif /* KS_RUNTIME_H */
""".split("\n")

    def _render_runtime_c(self):
        """ks_runtime.c: hashing, context, errors, usage."""
        lines = self._runtime_c_text()
        if self.revision and not self.revision_diverges:
            at = lines.index("uint32_t ks_features;") + 1
            lines[at:at] = ["", "volatile uint64_t ks_revision_sink;"]
        return lines

    def _runtime_c_text(self):
        return banner(self.seed, "c") + r"""
/* Runtime support of kiln-sample (C). */

#include <stdio.h>

#include "ks_runtime.h"

uint32_t ks_features;

const char *const ks_mode_names[KS_MODE_COUNT] = {"startup", "steady", "mixed"};

/* Usage text, walked by pointer. */
static const char *const usage_lines[] = {
    "usage: kiln-sample startup",
    "       kiln-sample steady [--iterations N]",
    "       kiln-sample mixed [--iterations N] [--input-seed S]",
    "",
    "startup  run the startup path only and print its checksum",
    "steady   startup, then the steady-state loop (the training workload)",
    "mixed    startup, then a different workload mix (held-out data)",
    NULL,
};

/* Error classes reported by the cold paths. */
static const struct ks_opt error_classes[] = {
    {"validation", 1, "input failed validation"},
    {"checksum", 2, "checksum mismatch"},
    {"limit", 3, "limit exceeded"},
    {"internal", 4, "internal error"},
};

static uint64_t g_error_count;
static uint64_t g_error_hash;
static const char *g_last_error;

uint64_t ks_hash_str(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s != '\0'; ++s) {
    h ^= (unsigned char)*s;
    h *= 0x100000001b3ULL;
  }
  return h;
}

void ks_ctx_init(ks_ctx *c, uint64_t seed, uint32_t mode, uint32_t features) {
  uint64_t s = seed;
  unsigned i;
  c->seed = seed;
  c->rng = seed ^ 0x6a09e667f3bcc908ULL;
  c->features = features;
  c->mode = mode;
  for (i = 0; i < 16u; i++) c->counters[i] = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
  for (i = 0; i < KS_BUF_WORDS; i++) {
    s += 0x9e3779b97f4a7c15ULL;
    c->buf[i] = (uint32_t)(ks_mix(s, i) >> 16);
  }
  ks_features = features;
}

uint64_t ks_rng_next(ks_ctx *c) {
  uint64_t z = (c->rng += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t ks_fail(const char *what, uint64_t v) {
  const struct ks_opt *cls = &error_classes[v % (sizeof error_classes / sizeof error_classes[0])];
  g_error_count++;
  g_error_hash = ks_mix(g_error_hash, ks_hash_str(what) ^ ks_hash_str(cls->name));
  g_last_error = what;
  return g_error_hash & 0xffffu;
}

uint64_t ks_error_count(void) { return g_error_count; }

const char *ks_last_error(void) { return g_last_error != NULL ? g_last_error : "none"; }

int ks_parse_u64(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (*s == '\0') return 0;
  for (; *s != '\0'; ++s) {
    if (*s < '0' || *s > '9') return 0;
    if (v > (UINT64_MAX - 9u) / 10u) return 0;
    v = v * 10u + (uint64_t)(*s - '0');
  }
  *out = v;
  return 1;
}

void ks_print_usage(int to_stderr) {
  FILE *f = to_stderr ? stderr : stdout;
  const char *const *line;
  for (line = usage_lines; *line != NULL; ++line) fprintf(f, "%s\n", *line);
}
""".split("\n")

    def _render_cxx_hpp(self):
        """ks_cxx.hpp: C++ framework (handlers, registrars, templates)."""
        return banner(self.seed, "cpp") + r"""
// C++ framework of kiln-sample: polymorphic handlers, static registrars
// and small templates instantiated in many translation units.

#ifndef KS_CXX_HPP
#define KS_CXX_HPP

#include <cstddef>
#include <cstdint>

#include "ks_runtime.h"

namespace ks {

enum : unsigned { kRoleStartup = 1, kRoleSteady = 2, kRoleMixed = 3, kRoleNever = 4 };

// A request handler; instances register themselves before main().
class Handler {
 public:
  explicit constexpr Handler(unsigned role) : role_(role) {}
  virtual const char *name() const = 0;
  virtual uint64_t handle(ks_ctx *c, uint64_t x) = 0;
  unsigned role() const { return role_; }

 protected:
  ~Handler() = default;

 private:
  unsigned role_;
};

void register_handler(Handler *h);
void register_module(const char *name, ks_op_fn init);

struct HandlerRegistrar {
  explicit HandlerRegistrar(Handler *h) { register_handler(h); }
};

struct ModuleRegistrar {
  ModuleRegistrar(const char *name, ks_op_fn init) { register_module(name, init); }
};

// Fixed-size ring, instantiated with several element types.
template <typename T, unsigned N>
class SmallRing {
 public:
  SmallRing() : items_(), head_(0) {}
  void push(T v) {
    items_[head_ % N] = v;
    head_++;
  }
  uint64_t fold(uint64_t seed) const {
    uint64_t h = seed;
    for (unsigned i = 0; i < N; i++) h = (h ^ static_cast<uint64_t>(items_[i])) * 0x100000001b3ULL;
    return h ^ head_;
  }

 private:
  T items_[N];
  unsigned head_;
};

}  // namespace ks

#endif  // KS_CXX_HPP
""".split("\n")

    def _render_main(self):
        """main.cpp: registries, startup, workloads, command line."""
        mods = self.modules
        c_inits = [m for m in mods if not m.is_cpp and m.init is not None]
        n_inits = sum(1 for m in mods if m.init is not None)
        n_handlers = sum(len(m.handlers) for m in mods)
        out = banner(self.seed, "cpp") + [
            "// Driver of kiln-sample: module registry, startup path, workloads.", "",
            "#include <cstdint>", "#include <cstdio>", "#include <cstring>", "",
            '#include "ks_cxx.hpp"', '#include "ks_runtime.h"']
        out += ['#include "mod/%s.h"' % m.name for m in mods]
        out += ["", "namespace {", "",
                "constexpr unsigned kMaxModules = %du;" % max(1, n_inits),
                "constexpr unsigned kMaxHandlers = %du;" % max(1, n_handlers),
                "constexpr uint64_t kDefaultSteadyIterations = %du;" % self.default_iterations["steady"],
                "constexpr uint64_t kDefaultMixedIterations = %du;" % self.default_iterations["mixed"],
                "",
                "struct ModuleEntry {",
                "  const char *name;",
                "  ks_op_fn init;",
                "};",
                "",
                "// Filled by the C++ modules' static registrars (before main) and",
                "// by the C module table below; sorted by name at startup.",
                "ModuleEntry g_modules[kMaxModules];",
                "unsigned g_module_count;",
                "ks::Handler *g_handlers[kMaxHandlers];",
                "unsigned g_handler_count;",
                "ks::Handler *g_by_role[5][kMaxHandlers];",
                "unsigned g_role_count[5];",
                "",
                "// Init functions of the C modules (NULL-terminated).",
                "const ModuleEntry kCModuleInits[] = {"]
        out += ["    {%s, %s}," % (c_string(m.name), m.init.name) for m in c_inits]
        out += ["    {nullptr, nullptr},", "};", ""]
        # exported tables
        out += ["struct TableRef {", "  const char *module;", "  const char *const *strings;",
                "  unsigned count;", "};", "",
                "// Exported string tables of the modules (NULL-terminated).",
                "const TableRef kExportedTables[] = {"]
        for m in mods:
            for t in m.exported_tables():
                if t.kind == "levels":
                    out.append("    {%s, %s, %s}," % (c_string(m.name), t.ident, t.count_macro))
        out += ["    {nullptr, nullptr, 0},", "};", "",
                "struct OptionRef {", "  const char *module;", "  const ks_opt *options;",
                "  unsigned count;", "};", "",
                "const OptionRef kExportedOptions[] = {"]
        for m in mods:
            for t in m.exported_tables():
                if t.kind == "xoptions":
                    out.append("    {%s, %s, %s}," % (c_string(m.name), t.ident, t.count_macro))
        out += ["};", "",
                "constexpr unsigned kExportedOptionCount = sizeof kExportedOptions / sizeof kExportedOptions[0];",
                ""]
        out += r"""// Runs every handler of a role (startup, or never-opened gates).
uint64_t run_role(ks_ctx *c, uint64_t h, unsigned role) {
  for (unsigned i = 0; i < g_role_count[role]; i++) h = ks_mix(h, g_by_role[role][i]->handle(c, h ^ i));
  return h;
}

// Virtual dispatch to one handler of a role, chosen by data.
uint64_t dispatch_role(ks_ctx *c, uint64_t x, unsigned role) {
  unsigned n = g_role_count[role];
  if (n == 0u) return x;
  uint64_t h = g_by_role[role][(x >> 7) % n]->handle(c, x);
  if (KS_GATE(c, 12u)) h = run_role(c, h, ks::kRoleNever);
  return h;
}

uint64_t dispatch_steady_handlers(ks_ctx *c, uint64_t x) { return dispatch_role(c, x, ks::kRoleSteady); }

uint64_t dispatch_mixed_handlers(ks_ctx *c, uint64_t x) { return dispatch_role(c, x, ks::kRoleMixed); }
""".split("\n")
        for mode, sched in (("Steady", self.steady_schedule), ("Mixed", self.mixed_schedule)):
            out += ["", "// Roots of the %s workload, hottest first; cumulative weights out of 2^%d."
                    % (mode.lower(), CDF_BITS),
                    "const ks_op_fn k%sRoots[] = {" % mode]
            for (what, obj), _ in sched:
                if what == "fn":
                    out.append("    %s," % self._qualified(obj))
                else:
                    out.append("    dispatch_%s_handlers," % obj)
            out += ["};", "const uint32_t k%sCdf[] = {" % mode]
            acc = 0
            row = []
            for _, w in sched:
                acc += w
                row.append("%du" % acc)
            for i in range(0, len(row), 8):
                out.append("    " + ", ".join(row[i:i + 8]) + ",")
            out += ["};", "constexpr unsigned k%sRootCount = sizeof k%sRoots / sizeof k%sRoots[0];"
                    % (mode, mode, mode)]
        out += (r"""
// Insertion sorts (deterministic whatever the static-initialisation order).
void sort_modules() {
  for (unsigned i = 1; i < g_module_count; i++) {
    ModuleEntry e = g_modules[i];
    unsigned j = i;
    while (j > 0u && std::strcmp(g_modules[j - 1u].name, e.name) > 0) {
      g_modules[j] = g_modules[j - 1u];
      j--;
    }
    g_modules[j] = e;
  }
}

void sort_handlers() {
  for (unsigned i = 1; i < g_handler_count; i++) {
    ks::Handler *e = g_handlers[i];
    unsigned j = i;
    while (j > 0u && std::strcmp(g_handlers[j - 1u]->name(), e->name()) > 0) {
      g_handlers[j] = g_handlers[j - 1u];
      j--;
    }
    g_handlers[j] = e;
  }
  for (unsigned i = 0; i < g_handler_count; i++) {
    unsigned role = g_handlers[i]->role();
    g_by_role[role][g_role_count[role]++] = g_handlers[i];
  }
}

// The startup path: every module's init, startup handlers, table digest.
uint64_t run_startup(ks_ctx *c) {
  for (const ModuleEntry *e = kCModuleInits; e->name != nullptr; ++e) ks::register_module(e->name, e->init);
  sort_modules();
  sort_handlers();
  uint64_t h = c->seed;
  for (unsigned i = 0; i < g_module_count; i++) h = ks_mix(h, g_modules[i].init(c, h ^ i));
  h = run_role(c, h, ks::kRoleStartup);
  if (KS_GATE(c, 11u)) h = run_role(c, h, ks::kRoleNever);
  for (const TableRef *t = kExportedTables; t->module != nullptr; ++t) {
    for (unsigned i = 0; i < t->count; i++) h = ks_mix(h, ks_hash_str(t->strings[i]));
  }
  return h;
}

unsigned count_tables() {
  unsigned n = 0;
  for (const TableRef *t = kExportedTables; t->module != nullptr; ++t) n++;
  return n;
}

// Steady-state driver: picks roots by weight, with a random stream.
uint64_t run_workload(ks_ctx *c, const ks_op_fn *roots, const uint32_t *cdf, unsigned nroots,
                      uint64_t iterations, uint64_t *hits) {
  uint64_t h = c->seed;
  for (uint64_t i = 0; i < iterations; i++) {
    uint64_t r = ks_rng_next(c);
    uint32_t u = (uint32_t)(r >> (64 - %(bits)d));
    unsigned lo = 0, hi = nroots - 1u;
    while (lo < hi) {
      unsigned mid = (lo + hi) / 2u;
      if (u < cdf[mid]) {
        hi = mid;
      } else {
        lo = mid + 1u;
      }
    }
    hits[lo]++;
    h = ks_mix(h, roots[lo](c, r ^ h));
  }
  return h;
}

void report_workload(const char *mode, uint64_t iterations, uint64_t h, const uint64_t *hits,
                     unsigned nroots) {
  unsigned used = 0, top = 0;
  for (unsigned i = 0; i < nroots; i++) {
    if (hits[i] != 0u) used++;
    if (hits[i] > hits[top]) top = i;
  }
  std::printf("%%s iterations=%%llu checksum=%%016llx\n", mode, (unsigned long long)iterations,
              (unsigned long long)h);
  std::printf("%%s roots-hit=%%u/%%u hottest=%%u calls=%%llu\n", mode, used, nroots, top,
              (unsigned long long)hits[top]);
  const OptionRef *o = &kExportedOptions[h %% kExportedOptionCount];
  const ks_opt *opt = &o->options[(h >> 20) %% o->count];
  std::printf("%%s label %%s.%%s code=%%d: %%s\n", mode, o->module, opt->name, opt->code, opt->help);
  std::printf("%%s errors=%%llu last-error=\"%%s\"\n", mode, (unsigned long long)ks_error_count(),
              ks_last_error());
}

int usage_error(const char *arg) {
  if (arg != nullptr) std::fprintf(stderr, "kiln-sample: unknown or invalid argument '%%s'\n", arg);
  ks_print_usage(1);
  return 2;
}

}  // namespace

void ks::register_module(const char *name, ks_op_fn init) {
  if (g_module_count < kMaxModules) {
    g_modules[g_module_count].name = name;
    g_modules[g_module_count].init = init;
    g_module_count++;
  }
}

void ks::register_handler(ks::Handler *h) {
  if (g_handler_count < kMaxHandlers) g_handlers[g_handler_count++] = h;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage_error(nullptr);
  if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
    ks_print_usage(0);
    return 0;
  }
  unsigned mode = KS_MODE_COUNT;
  for (unsigned i = 0; i < KS_MODE_COUNT; i++) {
    if (std::strcmp(argv[1], ks_mode_names[i]) == 0) mode = i;
  }
  if (mode == KS_MODE_COUNT) return usage_error(argv[1]);
  uint64_t iterations = mode == 2u ? kDefaultMixedIterations : kDefaultSteadyIterations;
  uint64_t input_seed = 1;
  for (int i = 2; i < argc; i++) {
    if (mode != 0u && std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc &&
        ks_parse_u64(argv[i + 1], &iterations)) {
      i++;
      continue;
    }
    if (mode == 2u && std::strcmp(argv[i], "--input-seed") == 0 && i + 1 < argc &&
        ks_parse_u64(argv[i + 1], &input_seed)) {
      i++;
      continue;
    }
    return usage_error(argv[i]);
  }
  // The seed comes from the command line, so nothing folds to a constant.
  uint64_t seed = ks_hash_str(argv[1]);
  if (mode == 2u) seed = ks_mix(seed, input_seed);
  uint32_t features = 1u << mode;
  // Legacy feature gates, opened only by absurdly long command lines.
  if (argc > 4096) features |= 0xffffff00u;
  ks_ctx ctx;
  ks_ctx_init(&ctx, seed, mode, features);

  std::printf("kiln-sample mode=%%s seed=%%016llx\n", ks_mode_names[mode], (unsigned long long)seed);
  uint64_t h = run_startup(&ctx);
  std::printf("startup modules=%%u handlers=%%u tables=%%u checksum=%%016llx\n", g_module_count,
              g_handler_count, count_tables(), (unsigned long long)h);
  if (g_module_count > 0u) {
    std::printf("startup first-module=%%s last-module=%%s\n", g_modules[0].name,
                g_modules[g_module_count - 1u].name);
  }
  for (unsigned k = 0; k < 4u; k++) {
    const TableRef *t = &kExportedTables[(h >> (k * 8u)) %% count_tables()];
    std::printf("startup note %%s: %%s\n", t->module, t->strings[(h >> (k * 5u + 3u)) %% t->count]);
  }
  std::printf("startup errors=%%llu\n", (unsigned long long)ks_error_count());
  if (mode == 1u) {
    uint64_t hits[kSteadyRootCount] = {};
    uint64_t w = run_workload(&ctx, kSteadyRoots, kSteadyCdf, kSteadyRootCount, iterations, hits);
    report_workload("steady", iterations, w, hits, kSteadyRootCount);
  } else if (mode == 2u) {
    uint64_t hits[kMixedRootCount] = {};
    uint64_t w = run_workload(&ctx, kMixedRoots, kMixedCdf, kMixedRootCount, iterations, hits);
    report_workload("mixed", iterations, w, hits, kMixedRootCount);
  }
  return 0;
}
""" % {"bits": CDF_BITS}).split("\n")
        return out

    # ---------------------------------------------------------- outputs

    def render(self):
        """Render every file into self.files (path -> text)."""
        files = {}
        files["src/ks_runtime.h"] = self._render_runtime_h()
        files["src/ks_runtime.c"] = self._render_runtime_c()
        files["src/ks_cxx.hpp"] = self._render_cxx_hpp()
        for m in self.modules:
            files[m.header] = self._render_header(m)
            if m.is_cpp:
                files[m.path] = self._render_cpp_module(m)
            else:
                files[m.path] = self._render_c_module(m)
        # main.cpp last: it reads what module rendering decided.
        files["src/main.cpp"] = self._render_main()
        self.files = {p: "\n".join(lines).rstrip("\n") + "\n" for p, lines in files.items()}

    def sources(self):
        """Translation units to compile, relative to the output directory."""
        return sorted(["src/main.cpp", "src/ks_runtime.c"] + [m.path for m in self.modules])

    def _symbol(self, f):
        """Symbol of `f` in an object file (None for templates, which have
        one symbol per instantiation)."""
        st = f.style
        p = MANGLED_PARAMS[f.kind]
        n = "%d%s" % (len(f.name), f.name)
        mod = "%d%s" % (len(f.module.name), f.module.name)
        if st in ("c_extern", "externc", "c_static"):
            return f.name
        if st == "static":
            return "_ZL%s%s" % (n, p)
        if st == "anon":
            return "_ZN12_GLOBAL__N_1%sE%s" % (n, p)
        if st == "ns":
            return "_ZN2ks%s%sE%s" % (mod, n, p)
        if st == "member":
            return "_ZN2ks%s6Engine%sE%s" % (mod, n, p)
        if st == "virtual":
            cls = "%d%s" % (len(f.handler_class), f.handler_class)
            return "_ZN12_GLOBAL__N_1%s6handleE%s" % (cls, p)
        return None

    def _display(self, f):
        """Human-readable (demangled-style) name of `f`."""
        st = f.style
        m = f.module.name
        return {
            "c_extern": f.name,
            "c_static": f.name,
            "externc": f.name,
            "static": f.name,
            "anon": "(anonymous namespace)::" + f.name,
            "ns": "ks::%s::%s" % (m, f.name),
            "member": "ks::%s::Engine::%s" % (m, f.name),
            "ctemplate": "ks::%s::SlotCache<T>::%s" % (m, f.name),
            "ftemplate": "ks::%s::%s<T>" % (m, f.name),
            "virtual": "(anonymous namespace)::%s::handle" % f.handler_class,
        }[st]

    def manifest(self):
        """The manifest.json object."""
        def role_counts(funcs):
            """Number of functions of each role."""
            counts = {role: 0 for role in ROLES}
            for f in funcs:
                counts[f.role] += 1
            return counts

        tus = []
        for m in self.modules:
            tus.append({
                "path": m.path,
                "header": m.header,
                "language": m.lang,
                "module": m.name,
                "functions": len(m.funcs),
                "roles": role_counts(m.funcs),
                "handlers": len(m.handlers),
                "string_tables": [{"name": t.ident, "kind": t.kind, "exported": t.exported,
                                   "entries": len(t.entries)} for t in m.tables],
            })
        for path, lang in (("src/ks_runtime.c", "c"), ("src/main.cpp", "c++")):
            tus.append({"path": path, "language": lang, "module": None, "functions": 0,
                        "roles": role_counts([]), "framework": True})
        tus.sort(key=lambda t: t["path"])
        funcs = []
        for f in self.funcs:
            funcs.append({
                "id": f.fid,
                "name": self._display(f),
                "symbol": self._symbol(f),
                "tu": f.module.path,
                "role": f.role,
                "style": f.style,
                "kind": f.kind,
                "root": f.root,
                "template_types": list(f.template_types),
            })
        styles = {}
        for f in self.funcs:
            styles[f.style] = styles.get(f.style, 0) + 1
        n_tables = sum(1 for f in self.funcs for e in f.edges if e.kind == "table")
        return {
            "generator": GENERATOR_ID,
            "format_version": FORMAT_VERSION,
            "seed": self.seed,
            **({"revision": self.revision, "revision_edited": len(self.edited),
                "revision_renamed": sum(1 for f in self.funcs if "_r" in (f.name or "")
                                        and f.name.rsplit("_r", 1)[1].isdigit())}
               if self.revision else {}),
            "functions_requested": self.nfuncs,
            "tus_requested": self.ntus,
            "functions": len(self.funcs),
            "modules": len(self.modules),
            "languages": {"c": sum(1 for m in self.modules if not m.is_cpp),
                          "c++": sum(1 for m in self.modules if m.is_cpp)},
            "roles": role_counts(self.funcs),
            "role_notes": {
                "startup": "run once by the startup path (all modes)",
                "steady": "run by the steady-state loop only",
                "shared": "run by both the startup path and the steady state",
                "mixed": "run only by the held-out mixed workload",
                "cold": "error paths behind rare data conditions (may run a few times)",
                "never": "behind feature gates the bundled workloads never open",
            },
            # Roles every function of which runs in a mode (plus, in mixed,
            # most but not all steady functions, and in steady/mixed a few
            # cold ones).
            "executed_by_mode": {
                "startup": ["startup", "shared"],
                "steady": ["startup", "shared", "steady"],
                "mixed": ["startup", "shared", "mixed"],
            },
            "styles": dict(sorted(styles.items())),
            "function_pointer_tables": n_tables,
            "handlers": sum(len(m.handlers) for m in self.modules),
            "default_iterations": dict(self.default_iterations),
            "steady_roots": len(self.steady_schedule),
            "mixed_roots": len(self.mixed_schedule),
            "colliding_statics": [
                {"name": name,
                 "definitions": [{"tu": f.module.path, "role": f.role, "style": f.style,
                                  "symbol": self._symbol(f)} for f in
                                 sorted(defs, key=lambda g: g.module.path)]}
                for name, defs in self.collisions],
            "translation_units": tus,
            "function_list": funcs,
        }


# --------------------------------------------------------------------------
# Output directory handling and command line.
# --------------------------------------------------------------------------

def prepare_outdir(out):
    """Make `out` ready: create it, or clear what an earlier run of this
    generator wrote there; refuse a non-empty directory we did not create."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise SystemExit("generate.py: %s exists and is not a directory" % out)
    if os.path.isdir(out) and os.listdir(out):
        manifest = os.path.join(out, "manifest.json")
        ours = False
        try:
            with open(manifest, encoding="utf-8") as fh:
                ours = json.load(fh).get("generator") == GENERATOR_ID
        except (OSError, ValueError, AttributeError):
            ours = False
        if not ours:
            raise SystemExit("generate.py: refusing to write into non-empty directory %s "
                             "(no manifest.json from this generator)" % out)
        shutil.rmtree(os.path.join(out, "src"), ignore_errors=True)
        for name in ("sources.txt", "manifest.json"):
            try:
                os.remove(os.path.join(out, name))
            except FileNotFoundError:
                pass
    os.makedirs(out, exist_ok=True)


def write_tree(gen, out):
    """Write sources, sources.txt and manifest.json under `out`."""
    for path in sorted(gen.files):
        full = os.path.join(out, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(gen.files[path])
    with open(os.path.join(out, "sources.txt"), "w", encoding="utf-8", newline="\n") as fh:
        fh.write("".join(s + "\n" for s in gen.sources()))
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8", newline="\n") as fh:
        json.dump(gen.manifest(), fh, indent=1, sort_keys=True)
        fh.write("\n")


def parse_args(argv):
    """Command-line interface."""
    p = argparse.ArgumentParser(
        description="Write the kiln-sample benchmark program (C and C++ sources, "
                    "sources.txt, manifest.json) into DIR.",
        epilog="Build: compile each .c with clang-22 -std=c11 and each .cpp with "
               "clang++-22 -std=c++17, all with -I DIR/src, then link with "
               "clang++-22 -fuse-ld=lld. See README.md.")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="output directory (absent, empty, or written by this script before)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument("--functions", type=int, default=4000, metavar="N",
                   help="number of generated functions (default 4000)")
    p.add_argument("--tus", type=int, default=48, metavar="N",
                   help="number of translation units, including main.cpp and "
                        "ks_runtime.c (default 48)")
    p.add_argument("--revision-diverges", action="store_true",
                   help="with --revision: the edits change computed values, so the "
                        "program runs other paths than revision 0")
    p.add_argument("--revision", type=int, default=0, metavar="N",
                   help="write release N of the program: revision 0 plus N rounds "
                        "of edits (new branches, renamed functions), for stale-"
                        "profile measurements (default 0)")
    args = p.parse_args(argv)
    if args.tus < 4:
        p.error("--tus must be at least 4")
    if args.functions < 60 or args.functions < 8 * (args.tus - 2):
        p.error("--functions must be at least 60 and at least 8 per module TU")
    if args.seed < 0:
        p.error("--seed must be non-negative")
    if args.revision < 0:
        p.error("--revision must be non-negative")
    return args


def main(argv=None):
    """Entry point."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    start = time.monotonic()
    gen = Generator(args.seed, args.functions, args.tus, args.revision,
                    args.revision_diverges)
    gen.build()
    gen.render()
    prepare_outdir(args.out)
    write_tree(gen, args.out)
    elapsed = time.monotonic() - start
    roles = ", ".join("%s %d" % (r, n) for r, n in gen.manifest()["roles"].items())
    print("kiln-sample: %d functions (%s) in %d TUs written to %s in %.2f s"
          % (len(gen.funcs), roles, len(gen.sources()), args.out, elapsed))
    return 0


if __name__ == "__main__":
    sys.exit(main())

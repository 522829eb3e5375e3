# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Real C libraries for bench/strtab.py, built as shared libraries.

Sources come from Debian's source packages at benchmark time
(`apt-get source NAME`, through programs.fetch_source), never from the
repository. A recipe says which .c files make the library, with which flags,
which extra files (a config header) to write first, and a driver program:
its source, and the runs whose output (stdout, stderr, exit status) must be
identical in every configuration. The driver is compiled once with stock
`-O2`, linked against the baseline library, and run against each
configuration's library through LD_LIBRARY_PATH.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from . import programs

FetchError = programs.FetchError


# --------------------------------------------------------------------- Lua

LUA_SCRIPT = r"""
-- Deterministic workload for liblua (bench/strtab.py): exercises the string
-- tables of the library (token names, type names, metamethod event names,
-- option lists of collectgarbage / setvbuf / seek / setlocale / sethook,
-- coroutine status names) through their error messages and results.
local out = {}
local function say(...) local t = table.pack(...)
  for i = 1, t.n do t[i] = tostring(t[i]) end
  io.write(table.concat(t, "\t"), "\n") end

-- type names (luaT_typenames_)
for _, v in ipairs({1, 1.5, "s", true, {}, print, coroutine.create(print)}) do
  say("type", type(v), math.type(v)) end
say("type", type(nil))

-- lexer token names in syntax errors (luaX_tokens)
local bad = {"x = = 1", "local function end", "for i = 1 do end", "if x then",
             "return return", "a.b:c = 1", "x = 1 .. ", "goto 1", "local x <foo> = 1",
             "while true do until", "x = {1,2,,3}", "f(", "x = 'abc", "x = [[abc",
             "::l:: ::l::", "break", "x = 0x", "local t = {} t..x = 1",
             "repeat local x = 1", "x = 1 // // 2", "return ...", "function f(a,) end",
             "x = not", "x = ~", "x = #", "x = 1 >> ", "local <const> y",
             "for k, v in pairs(t) do", "elseif", "x = nil and", "x = 3 ~= ",
             "x = a <= ", "x = a >= ", "x = a == ", "local x = 1 :: y"}
for _, s in ipairs(bad) do
  local f, err = load(s, "=src")
  say("syntax", s, f and "ok" or err) end

-- runtime errors naming types and metamethod events (luaT_eventname)
local cases = {
  function() return nil + 1 end, function() return {} .. "x" end,
  function() return #nil end, function() return -{} end,
  function() return nil < 1 end, function() return {} <= {} end,
  function() local t = nil; return t.x end, function() local t = nil; t.x = 1 end,
  function() return ("x")() end, function() return 1 & 1.5 end,
  function() return "a" | 1 end, function() return 1 // 0 end,
  function() return 1 % 0 end, function() return math.tointeger("x") end,
  function() error("plain") end,
  function() error(setmetatable({}, {__tostring = function() return "errobj" end})) end,
  function() return setmetatable({}, {__index = function(t, k) return k .. "!" end}).key end,
  function() return tostring(setmetatable({}, {__tostring = function() return "TS" end})) end,
  function() return tostring(setmetatable({}, {__name = "MyType"})):match("^MyType") end,
  function() local a <close> = 42 end,
  function() return string.rep("x", -1) end, function() return ("x"):bad() end,
}
for i, f in ipairs(cases) do say("case", i, pcall(f)) end

-- option lists (luaL_checkoption tables)
for _, o in ipairs({"count", "step", "isrunning", "incremental", "generational",
                    "bogus"}) do
  local ok, r = pcall(collectgarbage, o)
  say("gc", o, ok, ok and math.type(r) or r) end
collectgarbage("incremental")
for _, m in ipairs({"no", "full", "line", "bogus"}) do
  say("setvbuf", m, pcall(io.stdout.setvbuf, io.stdout, m)) end
io.stdout:setvbuf("no")
for _, m in ipairs({"set", "cur", "end", "nope"}) do
  local ok, r = pcall(io.stdout.seek, io.stdout, m, 0)
  say("seek", m, ok, ok and "" or r) end
for _, c in ipairs({"all", "collate", "ctype", "monetary", "numeric", "time", "nope"}) do
  say("setlocale", c, pcall(os.setlocale, "C", c)) end
for _, h in ipairs({"c", "r", "l", "crl", ""}) do
  debug.sethook(function() end, h, 0)
  say("hook", h, (select(2, debug.gethook()))) end
debug.sethook()

-- coroutine status names (statname)
local co
co = coroutine.create(function() say("co", coroutine.status(co)); coroutine.yield() end)
say("co", coroutine.status(co)); coroutine.resume(co); say("co", coroutine.status(co))
coroutine.resume(co); say("co", coroutine.status(co))
say("co", coroutine.isyieldable(), coroutine.running() ~= nil)

-- debug.getinfo what / namewhat strings
local function g() return debug.getinfo(1, "nSl") end
local info = g()
say("info", info.what, info.namewhat, info.name, info.short_src, info.currentline)
say("info", debug.getinfo(print).what, debug.getinfo(1, "S").what)

-- string library
say(string.format("%5.2f|%-5d|%q|%x|%g|%s", 3.14159, 42, "a\nb\0c", 255, 1e20, nil))
say(("hello world from lua"):gsub("(%w+)", "<%1>"))
say(string.pack(">i4s1", 7, "xyz"):byte(1, -1))
say(utf8.char(72, 228, 8364, 128512), utf8.len("h\u{e4}\u{20ac}"))
say(os.date("!%Y-%m-%d %H:%M:%S %A %B", 86400 * 365))
say(os.time({year = 2000, month = 1, day = 1, hour = 12}) ~= nil)

-- a steady part: a little interpreter work
local t = {}
for i = 1, 20000 do t[i] = (i * 7919) % 10007 end
table.sort(t)
local acc = 0
for i = 1, #t, 97 do acc = (acc * 31 + t[i]) % 1000000007 end
local words = {}
for w in (("lorem ipsum dolor sit amet "):rep(200)):gmatch("%a+") do
  words[#words + 1] = w:upper() end
say("steady", acc, #words, table.concat(words, ",", 1, 5))
"""


def lua(work: Path, log: Callable[[str], None]) -> dict:
    """Lua 5.4 (Debian `lua5.4`): liblua.so from src/*.c without lua.c and
    luac.c, -DLUA_USE_LINUX (as Debian's build). Driver: the stand-alone
    interpreter src/lua.c, linked against liblua.so, running a script that
    prints the library's string tables through error messages and option
    checks (deterministic: no addresses, no clock, no hash-order output)."""
    tree = programs.fetch_source("lua5.4", work / "src-lua5.4", log)
    src = tree / "src"
    sources = sorted(str(p.relative_to(tree)) for p in src.glob("*.c")
                     if p.name not in ("lua.c", "luac.c"))
    if not sources:
        raise FetchError("no sources found in %s" % src)
    return {
        "name": "lua5.4",
        "version_package": "lua5.4",
        "dir": tree,
        "sources": sources,
        # Debian's luaconf.h includes a header its debian/rules writes.
        "generated": {"lua5.4-deb-multiarch.h":
                      b'#define DEB_HOST_MULTIARCH "x86_64-linux-gnu"\n'},
        "cflags": ["-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX", "-I", "{gen}",
                   "-I", str(src)],
        "libs": ["-lm", "-ldl"],
        "soname": "liblua5.4-kiln.so",
        "driver": {"sources": [str(src / "lua.c")],
                   "cflags": ["-std=gnu99", "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX",
                              "-I", "{gen}", "-I", str(src)],
                   "libs": ["-lm", "-ldl"]},
        "files": {"script.lua": LUA_SCRIPT.encode()},
        "runs": {"script": ["script.lua"],
                 "version": ["-v"],
                 "inline": ["-e", "print(select('#', 1, 2, 3), pcall(error))"]},
    }


# ------------------------------------------------------------------- expat

EXPAT_CONFIG_H = b"""/* written by bench/lib/libraries.py for bench/strtab.py */
#ifndef EXPAT_CONFIG_H
#define EXPAT_CONFIG_H 1
#define BYTEORDER 1234
#define HAVE_DLFCN_H 1
#define HAVE_FCNTL_H 1
#define HAVE_GETPAGESIZE 1
#define HAVE_GETRANDOM 1
#define HAVE_INTTYPES_H 1
#define HAVE_MMAP 1
#define HAVE_STDINT_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYSCALL_GETRANDOM 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define PACKAGE "expat"
#define PACKAGE_NAME "expat"
#define STDC_HEADERS 1
#define XML_CONTEXT_BYTES 1024
#define XML_DEV_URANDOM 1
#define XML_DTD 1
#define XML_NS 1
#endif
"""

EXPAT_DRIVER = r"""
/* Driver for libexpat (bench/strtab.py): prints the library's string tables
   (error strings, feature names, encodings) and parses a few documents,
   good and bad, printing every event. Deterministic. */
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int depth;

static void XMLCALL start(void *ud, const XML_Char *name, const XML_Char **atts) {
  (void)ud;
  printf("%*sstart %s", depth * 2, "", name);
  for (int i = 0; atts[i]; i += 2) printf(" [%s=%s]", atts[i], atts[i + 1]);
  printf("\n");
  ++depth;
}
static void XMLCALL end(void *ud, const XML_Char *name) {
  (void)ud;
  --depth;
  printf("%*send %s\n", depth * 2, "", name);
}
static void XMLCALL text(void *ud, const XML_Char *s, int len) {
  (void)ud;
  printf("%*stext %d '", depth * 2, "", len);
  fwrite(s, 1, (size_t)len, stdout);
  printf("'\n");
}
static void XMLCALL pi(void *ud, const XML_Char *target, const XML_Char *data) {
  (void)ud;
  printf("pi %s %s\n", target, data);
}
static void XMLCALL comment(void *ud, const XML_Char *data) {
  (void)ud;
  printf("comment %s\n", data);
}
static void XMLCALL decl(void *ud, const XML_Char *version, const XML_Char *encoding,
                         int standalone) {
  (void)ud;
  printf("xmldecl %s %s %d\n", version ? version : "-", encoding ? encoding : "-", standalone);
}
static void XMLCALL nsstart(void *ud, const XML_Char *prefix, const XML_Char *uri) {
  (void)ud;
  printf("ns %s=%s\n", prefix ? prefix : "-", uri ? uri : "-");
}

static void parse(const char *doc, size_t len, const char *encoding, int ns) {
  XML_Parser p = ns ? XML_ParserCreateNS(encoding, '|') : XML_ParserCreate(encoding);
  XML_SetElementHandler(p, start, end);
  XML_SetCharacterDataHandler(p, text);
  XML_SetProcessingInstructionHandler(p, pi);
  XML_SetCommentHandler(p, comment);
  XML_SetXmlDeclHandler(p, decl);
  XML_SetNamespaceDeclHandler(p, nsstart, NULL);
  XML_SetParamEntityParsing(p, XML_PARAM_ENTITY_PARSING_NEVER);
  depth = 0;
  /* Feed in small pieces to exercise the incremental tokenizer. */
  enum XML_Status st = XML_STATUS_OK;
  for (size_t i = 0; i < len && st == XML_STATUS_OK; i += 7) {
    size_t n = len - i < 7 ? len - i : 7;
    st = XML_Parse(p, doc + i, (int)n, 0);
  }
  if (st == XML_STATUS_OK) st = XML_Parse(p, "", 0, 1);
  if (st != XML_STATUS_OK)
    printf("error %d '%s' at line %lu column %lu\n", (int)XML_GetErrorCode(p),
           XML_ErrorString(XML_GetErrorCode(p)),
           (unsigned long)XML_GetCurrentLineNumber(p),
           (unsigned long)XML_GetCurrentColumnNumber(p));
  else
    printf("ok\n");
  XML_ParserFree(p);
}

int main(int argc, char **argv) {
  int rounds = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 1;
  printf("%s\n", XML_ExpatVersion());
  for (int i = 0; i <= 60; ++i) {
    const XML_LChar *s = XML_ErrorString((enum XML_Error)i);
    printf("error-string %d %s\n", i, s ? s : "(null)");
  }
  for (const XML_Feature *f = XML_GetFeatureList(); f->feature != XML_FEATURE_END; ++f)
    printf("feature %d %s %ld\n", (int)f->feature, f->name, f->feature == XML_FEATURE_CONTEXT_BYTES ? f->value : 0L);
  static const char *const docs[] = {
    "<?xml version='1.0' encoding='UTF-8'?>\n<a x='1' y=\"2\"><b>hi &amp; bye</b><!-- c --><?p d?><c/></a>",
    "<?xml version='1.0' encoding='ISO-8859-1'?><r>caf\xe9</r>",
    "<?xml version='1.0' encoding='US-ASCII'?><r>ascii</r>",
    "<?xml version='1.0' encoding='UTF-16'?><r/>",
    "<?xml version='1.0' encoding='EBCDIC'?><r/>",
    "<r xmlns='urn:a' xmlns:p='urn:p'><p:x p:y='1'/></r>",
    "<a><b></a>",
    "<a>&undefined;</a>",
    "<a x='1' x='2'/>",
    "<a><![CDATA[ <raw> ]]></a>",
    "<!DOCTYPE a [<!ENTITY e 'entity text'>]><a>&e;</a>",
    "<a>\x01</a>",
    "<?xml version='1.0' standalone='yes'?><a/>junk",
    "",
    "<a",
    "<1a/>",
    "<a b=c/>",
    "<a>text</a><b/>",
    "<?xml version='2.0'?><a/>",
    "<p:a xmlns:p=''/>",
    "<a xml:lang='en'>&#65;&#x42;&#99999999;</a>",
  };
  for (int r = 0; r < rounds; ++r)
    for (unsigned i = 0; i < sizeof docs / sizeof docs[0]; ++i) {
      if (r == 0 || i == 0) printf("doc %u\n", i);
      parse(docs[i], strlen(docs[i]), NULL, i == 5 || i == 19);
    }
  parse("<r>\xe9</r>", 8, "ISO-8859-1", 0);
  parse("<r>x</r>", 8, "US-ASCII", 0);
  parse("<r>x</r>", 8, "bogus", 0);
  return 0;
}
"""


def expat(work: Path, log: Callable[[str], None]) -> dict:
    """expat 2.5 (Debian `expat`): libexpat.so from lib/xmlparse.c, xmlrole.c,
    xmltok.c with a hand-written expat_config.h, -fvisibility=hidden
    -DXML_ENABLE_VISIBILITY=1 (as upstream's build). Driver: a small program
    printing XML_ErrorString for every code, the feature list, and the events
    and errors of 21 documents in several encodings."""
    tree = programs.fetch_source("expat", work / "src-expat", log)
    lib = tree / "expat" / "lib"
    sources = ["expat/lib/xmlparse.c", "expat/lib/xmlrole.c", "expat/lib/xmltok.c"]
    programs.require_files(tree, sources)
    return {
        "name": "expat",
        "version_package": "expat",
        "dir": tree,
        "sources": sources,
        "cflags": ["-std=gnu99", "-DHAVE_EXPAT_CONFIG_H", "-DXML_ENABLE_VISIBILITY=1",
                   "-fvisibility=hidden", "-I", "{gen}", "-I", str(lib)],
        "libs": ["-lm"],
        "soname": "libexpat-kiln.so",
        "generated": {"expat_config.h": EXPAT_CONFIG_H},
        "driver": {"source_text": EXPAT_DRIVER,
                   "cflags": ["-std=gnu99", "-I", str(lib)], "libs": []},
        "files": {},
        "runs": {"driver": [], "rounds": ["200"]},
    }


LIBRARIES = {"lua": lua, "expat": expat}

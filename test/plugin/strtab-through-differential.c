// Keyword and option tables searched by static functions that return the
// element found (binary search by name, a pointer-walking search, a
// recursive one), with callers testing for null and reading the other
// fields through the pointer, or passing it to another static function:
// built with and without kiln-strtab, at -O2 and with full LTO, the
// programs print the same, and the remarks prove the tables were lowered.
// REQUIRES: x86_64-linux, kiln-lld
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -fPIE -pie %s -o %t/plain
// RUN: %clang -O2 -fPIE -pie -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab -Rpass-missed=kiln-strtab %s -o %t/lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARKS --implicit-check-not='not lowered'
// RUN: %t/plain if while nope return do -x -v --zz > %t/plain.out
// RUN: %t/lowered if while nope return do -x -v --zz > %t/lowered.out
// RUN: diff %t/plain.out %t/lowered.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/lowered.out
// The tables' 29 string pointers (16 + 8 + 5) need no relocation any more.
// RUN: llvm-readelf -r %t/plain | grep -c R_X86_64_RELATIVE > %t/plain.relocs
// RUN: llvm-readelf -r %t/lowered | grep -c R_X86_64_RELATIVE > %t/lowered.relocs
// RUN: %python -c "import sys; a, b = (int(open(f).read()) for f in sys.argv[1:]); sys.exit(a - b != 29)" %t/plain.relocs %t/lowered.relocs
//
// RUN: %clang -O2 -fPIE -flto -c %s -o %t/lto.o
// RUN: %clang -pie -fuse-ld=kiln-lld %t/lto.o -o %t/lto.plain
// RUN: %clang -pie -fuse-ld=kiln-lld -Wl,-mllvm,-kiln-strtab \
// RUN:   -Wl,-mllvm,-pass-remarks=kiln-strtab %t/lto.o -o %t/lto.lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARKS
// RUN: %t/lto.plain if while nope return do -x -v --zz > %t/lto.plain.out
// RUN: %t/lto.lowered if while nope return do -x -v --zz > %t/lto.lowered.out
// RUN: diff %t/plain.out %t/lto.plain.out
// RUN: diff %t/lto.plain.out %t/lto.lowered.out

// REMARKS-DAG: string table keywords lowered
// REMARKS-DAG: string table options lowered
// REMARKS-DAG: string table units lowered
// OUT:      if: token 6 (a branch)
// OUT-NEXT: while: token 8 (a loop)
// OUT-NEXT: nope: not a keyword
// OUT:      -x: option 'x' takes an argument (extract)
// OUT-NEXT: -v: option 'v' (verbose)
// OUT-NEXT: --zz: not an option
// OUT:      ms is 1000 us

#include <stdio.h>
#include <string.h>

struct keyword {
  const char *name;
  int token;
  const char *help;
};

static const struct keyword keywords[] = {
    {"break", 1, "leave a loop"},   {"case", 2, "a switch arm"},
    {"do", 3, "a loop body"},       {"else", 4, "the other branch"},
    {"for", 5, "a counted loop"},   {"if", 6, "a branch"},
    {"return", 7, "leave"},         {"while", 8, "a loop"},
};
#define NUM_KEYWORDS (sizeof(keywords) / sizeof(keywords[0]))

__attribute__((noinline)) static const struct keyword *
find_keyword(const char *name) {
  size_t lo = 0, hi = NUM_KEYWORDS;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(name, keywords[mid].name);
    if (c == 0)
      return &keywords[mid];
    if (c < 0)
      hi = mid;
    else
      lo = mid + 1;
  }
  return NULL;
}

__attribute__((noinline)) static void describe(const char *word,
                                               const struct keyword *k) {
  printf("%s: token %d (%s)%s\n", word, k->token, k->help,
         k == &keywords[0] ? " first" : "");
}

struct option {
  char letter;
  const char *name;
  const char *help;
  int takes_argument;
};

static const struct option options[] = {
    {'c', "count", "count lines", 0}, {'v', "verbose", "verbose", 0},
    {'x', "extract", "extract", 1},   {'o', "output", "output file", 1},
};

// A pointer walk that returns the element or NULL.
__attribute__((noinline)) static const struct option *find_option(char c) {
  for (const struct option *o = options;
       o != options + sizeof(options) / sizeof(options[0]); ++o)
    if (o->letter == c)
      return o;
  return NULL;
}

struct unit {
  const char *name;
  long scale;
};

static const struct unit units[] = {
    {"h", 3600000000}, {"min", 60000000}, {"ms", 1000}, {"s", 1000000},
    {"us", 1},
};

// A recursive search over [base, base + n) by name.
__attribute__((noinline)) static const struct unit *
find_unit(const struct unit *base, size_t n, const char *name) {
  if (n == 0)
    return NULL;
  const struct unit *mid = base + n / 2;
  int c = strcmp(name, mid->name);
  if (c == 0)
    return mid;
  if (c < 0)
    return find_unit(base, n / 2, name);
  return find_unit(mid + 1, n - n / 2 - 1, name);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (arg[0] == '-') {
      const struct option *o = arg[2] == '\0' ? find_option(arg[1]) : NULL;
      if (!o)
        printf("%s: not an option\n", arg);
      else if (o->takes_argument)
        printf("%s: option '%c' takes an argument (%s)\n", arg, o->letter,
               o->name);
      else
        printf("%s: option '%c' (%s)\n", arg, o->letter, o->help);
      continue;
    }
    const struct keyword *k = find_keyword(arg);
    if (k)
      describe(arg, k);
    else
      printf("%s: not a keyword\n", arg);
  }
  const struct unit *ms = find_unit(units, sizeof(units) / sizeof(units[0]),
                                    "ms");
  const struct unit *us = find_unit(units, sizeof(units) / sizeof(units[0]),
                                    argc > 100 ? "h" : "us");
  if (ms && us)
    printf("%s is %ld %s\n", ms->name, ms->scale / us->scale, us->name);
  return 0;
}

// Programs built at -O2 -fPIE with and without kiln-strtab print the same
// output; the remarks prove the pass did lower their tables.
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O2 -fPIE -pie %t/errors.c -o %t/errors.plain
// RUN: %clang -O2 -fPIE -pie -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab %t/errors.c -o %t/errors.lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERRORS
// RUN: %t/errors.plain 7 > %t/errors.plain.out
// RUN: %t/errors.lowered 7 > %t/errors.lowered.out
// RUN: diff %t/errors.plain.out %t/errors.lowered.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/errors.lowered.out
//
// RUN: %clang -O2 -fPIE -pie %t/commands.c -o %t/commands.plain
// RUN: %clang -O2 -fPIE -pie -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab %t/commands.c -o %t/commands.lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COMMANDS
// RUN: %t/commands.plain a b c > %t/commands.plain.out
// RUN: %t/commands.lowered a b c > %t/commands.lowered.out
// RUN: diff %t/commands.plain.out %t/commands.lowered.out
//
// RUN: %clang -O2 -fPIC %t/walks.c -o %t/walks.plain
// RUN: %clang -O2 -fPIC -fpass-plugin=%kiln_plugin -mllvm -kiln-strtab \
// RUN:   -Rpass=kiln-strtab %t/walks.c -o %t/walks.lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=WALKS
// RUN: %t/walks.plain 5 > %t/walks.plain.out
// RUN: %t/walks.lowered 5 > %t/walks.lowered.out
// RUN: diff %t/walks.plain.out %t/walks.lowered.out

// ERRORS-DAG: string table errors lowered
// ERRORS-DAG: string table switch.table.{{.*}} lowered
// COMMANDS: string table commands lowered
// WALKS-DAG: string table days lowered
// WALKS-DAG: string table months lowered
// WALKS-DAG: string table grid lowered
// WALKS-DAG: string table opts lowered
// OUT: 0: no error
// OUT: 3: (null)
// OUT: 4: fire

//--- errors.c
#include <stdio.h>
#include <stdlib.h>

static const char *errors[] = {"no error", "on fire", "out of memory", NULL,
                               "fire",     "no error", "memory"};
#define NUM_ERRORS (sizeof(errors) / sizeof(errors[0]))

__attribute__((noinline)) static const char *message(unsigned code) {
  return code < NUM_ERRORS ? errors[code] : "unknown";
}

__attribute__((noinline)) static const char *color(int c) {
  switch (c) {
  case 0: return "red";
  case 1: return "green";
  case 2: return "blue";
  case 3: return "cyan";
  case 4: return "magenta";
  default: return "none";
  }
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 7;
  for (unsigned i = 0; i <= n; ++i) {
    const char *m = message(i);
    printf("%u: %s\n", i, m ? m : "(null)");
  }
  for (int c = 0; c < 6 + argc; ++c)
    printf("color %d: %s\n", c, color(c));
  return 0;
}

//--- commands.c
#include <stdio.h>
#include <string.h>

struct command {
  const char *name;
  int id;
  const char *help;
};

static const struct command commands[] = {
    {"a", 1, "first letter"}, {"b", 2, NULL}, {"c", 3, "letter"}, {"", 4, "none"}};

// Walks the table by pointer; returns an index, since a pointer into the
// table would escape (and the pass would leave the table alone).
__attribute__((noinline)) static int find(const char *name) {
  int index = 0;
  for (const struct command *c = commands;
       c != commands + sizeof(commands) / sizeof(commands[0]); ++c, ++index)
    if (strcmp(c->name, name) == 0)
      return index;
  return -1;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    volatile int index = i - 1;
    int found = find(argv[i]);
    const char *help = found >= 0 ? commands[found].help : NULL;
    printf("%s -> %d (%s) | %s\n", argv[i], found >= 0 ? commands[found].id : -1,
           help ? help : "-", commands[index].name);
  }
  return 0;
}

//--- walks.c
// Forward and backward walks by pointer and by index, a struct table with
// two string fields, a two-dimensional table.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *days[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
static const char *months[] = {"jan", "feb", NULL, "apr", "may", "jun"};
struct opt {
  const char *name;
  char letter;
  const char *help;
  int flags;
};
static const struct opt opts[] = {{"verbose", 'v', "be loud", 1},
                                  {"quiet", 'q', NULL, 2},
                                  {"output", 'o', "write here", 4},
                                  {"loud", 'l', "be loud", 8}};
static const char *grid[3][2] = {{"a", "b"}, {"c", "d"}, {"e", "f"}};

__attribute__((noinline)) static int day_index(const char *s) {
  for (int i = 6; i >= 0; --i)
    if (!strcmp(days[i], s))
      return i;
  return -1;
}

__attribute__((noinline)) static int month_letters(void) {
  int n = 0;
  for (const char **p = months; p < months + 6; ++p)
    if (*p)
      n += strlen(*p);
  return n;
}

__attribute__((noinline)) static const char *back_from_sunday(int k) {
  const char **p = days + 6;
  while (k-- > 0 && p > days)
    --p;
  return *p;
}

__attribute__((noinline)) static const char *help_for(char c) {
  for (unsigned i = 0; i < sizeof(opts) / sizeof(opts[0]); ++i)
    if (opts[i].letter == c)
      return opts[i].help ? opts[i].help : "(none)";
  return "?";
}

__attribute__((noinline)) static int flags_for(const char *name) {
  int i = 0;
  for (const struct opt *o = opts; o != opts + 4; ++o, ++i)
    if (!strcmp(o->name, name))
      return opts[i].flags;
  return -1;
}

__attribute__((noinline)) static const char *cell(int r, int c) {
  return grid[r][c];
}

int main(int argc, char **argv) {
  int s = atoi(argc > 1 ? argv[1] : "3");
  printf("%d %d %d\n", day_index("wed"), day_index("sun"), day_index("x"));
  printf("%d\n", month_letters());
  for (int k = 0; k < 9; ++k)
    printf("%s ", back_from_sunday(k));
  printf("\n%s %s %s %s\n", help_for('v'), help_for('q'), help_for('z'),
         help_for('l'));
  printf("%d %d %d\n", flags_for("output"), flags_for("loud"),
         flags_for("none"));
  printf("%s %s %s\n", cell(0, 1), cell(2, 0), cell(s % 3, s % 2));
  printf("%s %s\n", days[s % 7], months[s % 6] ? months[s % 6] : "null");
  return 0;
}

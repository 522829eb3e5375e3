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

// ERRORS-DAG: string table errors lowered
// ERRORS-DAG: string table switch.table.{{.*}} lowered
// COMMANDS: string table commands lowered
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

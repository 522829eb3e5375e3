// The same program linked with LTO by kiln-lld with and without
// -kiln-strtab prints the same. In full LTO the pass runs after
// internalization, so the non-static table of tables.c is lowered too; in
// ThinLTO it runs in each backend.
// REQUIRES: x86_64-linux, kiln-lld
// RUN: rm -rf %t && split-file %s %t
//
// RUN: %clang -O2 -fPIE -flto -c %t/main.c -o %t/main.full.o
// RUN: %clang -O2 -fPIE -flto -c %t/tables.c -o %t/tables.full.o
// RUN: %clang -pie -fuse-ld=kiln-lld %t/main.full.o %t/tables.full.o \
// RUN:   -o %t/full.plain
// RUN: %clang -pie -fuse-ld=kiln-lld -Wl,-mllvm,-kiln-strtab \
// RUN:   -Wl,-mllvm,-pass-remarks=kiln-strtab %t/main.full.o %t/tables.full.o \
// RUN:   -o %t/full.lowered 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: %t/full.plain 4 > %t/full.plain.out
// RUN: %t/full.lowered 4 > %t/full.lowered.out
// RUN: diff %t/full.plain.out %t/full.lowered.out
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t/full.lowered.out
//
// RUN: %clang -O2 -fPIE -flto=thin -c %t/main.c -o %t/main.thin.o
// RUN: %clang -O2 -fPIE -flto=thin -c %t/tables.c -o %t/tables.thin.o
// RUN: %clang -pie -fuse-ld=kiln-lld -Wl,--thinlto-jobs=1 \
// RUN:   %t/main.thin.o %t/tables.thin.o -o %t/thin.plain
// RUN: %clang -pie -fuse-ld=kiln-lld -Wl,--thinlto-jobs=1 \
// RUN:   -Wl,-mllvm,-kiln-strtab -Wl,-mllvm,-pass-remarks=kiln-strtab \
// RUN:   %t/main.thin.o %t/tables.thin.o -o %t/thin.lowered 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THIN
// RUN: %t/thin.plain 4 > %t/thin.plain.out
// RUN: %t/thin.lowered 4 > %t/thin.lowered.out
// RUN: diff %t/thin.plain.out %t/thin.lowered.out

// FULL-DAG: string table level_names lowered
// FULL-DAG: string table units lowered
// THIN-DAG: string table level_names lowered
// THIN-DAG: string table units lowered
// OUT: debug info warn error fatal
// OUT: 4 -> fatal, 1 MB

//--- tables.c
#include <stddef.h>

// Not static: external in its module, internal after LTO's internalization.
const char *const level_names[] = {"debug", "info", "warn", "error", "fatal"};

static const char *units[] = {"B", "kB", "MB", "GB", NULL};

__attribute__((noinline)) const char *level_name(unsigned level) {
  return level < 5 ? level_names[level] : "?";
}

__attribute__((noinline)) const char *unit_for(unsigned long *size) {
  const char **unit = units;
  while (*size >= 1024 && unit[1]) {
    *size /= 1024;
    ++unit;
  }
  return *unit;
}

//--- main.c
#include <stdio.h>
#include <stdlib.h>

const char *level_name(unsigned level);
const char *unit_for(unsigned long *size);

int main(int argc, char **argv) {
  unsigned level = argc > 1 ? (unsigned)atoi(argv[1]) : 2;
  for (unsigned i = 0; i < 5; ++i)
    printf("%s%s", level_name(i), i == 4 ? "\n" : " ");
  unsigned long size = 1024ul * 1024ul;
  const char *unit = unit_for(&size);
  printf("%u -> %s, %lu %s\n", level, level_name(level), size, unit);
  printf("%s\n", level_name(level + 10));
  return 0;
}

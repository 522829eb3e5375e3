// clang loads the plugin with -fpass-plugin=, Kiln's -mllvm options parse,
// and Kiln's passes run at the end of the per-TU pipeline and of the ThinLTO
// pre-link pipeline. A real IR-instrumented profile gives the functions
// entry counts, so the test runs the instrumented program. (Temperature is
// read after vectorization rescaled busy's loop, so hot or warm both fit.)
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O2 -fprofile-generate=%t/raw %t/main.c -o %t/instrumented
// RUN: %t/instrumented
// RUN: llvm-profdata merge -o %t/main.profdata %t/raw
// RUN: %clang -O2 -fprofile-use=%t/main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-print-function-profile \
// RUN:   -c %t/main.c -o %t/main.o 2>&1 | FileCheck %s --check-prefix=COMPILE
// RUN: %clang -O2 -flto=thin -fpass-plugin=%kiln_plugin \
// RUN:   -mllvm -kiln-print-function-profile -c %t/main.c -o %t/main.bc 2>&1 \
// RUN:   | FileCheck %s --check-prefix=THIN
//
// Loading the plugin twice registers its passes once: the printer runs once.
// RUN: %clang -O2 -fpass-plugin=%kiln_plugin -fpass-plugin=%kiln_plugin \
// RUN:   -mllvm -kiln-print-function-profile -c %t/main.c -o %t/twice.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TWICE
//
// Without Kiln's options the plugin changes nothing.
// RUN: %clang -O2 -c %t/main.c -o %t/plain.o
// RUN: %clang -O2 -fpass-plugin=%kiln_plugin -c %t/main.c -o %t/loaded.o
// RUN: cmp %t/plain.o %t/loaded.o

// COMPILE:      kiln-function-profile: module '{{.*}}main.c' summary=instr at=compile
// COMPILE-NEXT:   busy: entry=1000 temperature={{hot|warm}}
// COMPILE-NEXT:   main: entry=1 temperature=cold

// THIN:      kiln-function-profile: module '{{.*}}main.c' summary=none at=thinlto-prelink
// THIN-NEXT:   busy: entry=- temperature=none

// TWICE:     kiln-function-profile: module '{{.*}}main.c' summary=none at=compile
// TWICE-NOT: kiln-function-profile:

//--- main.c
__attribute__((noinline)) int busy(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i)
    s += i ^ x;
  return s;
}
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 1000; ++i)
    s += busy(argc * i) & 1;
  return s == 12345;
}

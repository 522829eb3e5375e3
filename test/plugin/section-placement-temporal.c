// -kiln-startup-profile: the startup group from the temporal traces of an
// indexed profile. The program is profiled twice: an ordinary run gives the
// counts (-fprofile-use), a -ftemporal-profile run of the startup scenario
// (any argument: the program stops after setup) gives the trace. Every
// function the trace names is a startup function, the file-local read_env
// too (its profile name is "main.c;read_env").
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -O2 -fprofile-generate=%t/raw main.c -o instrumented
// RUN: ./instrumented
// RUN: llvm-profdata merge -o main.profdata %t/raw
// RUN: %clang -O2 -fprofile-generate=%t/traw -ftemporal-profile main.c \
// RUN:   -o temporal
// RUN: ./temporal startup-only
// RUN: llvm-profdata merge -o startup.profdata %t/traw
//
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-section-placement \
// RUN:   -mllvm -kiln-startup-profile=startup.profdata \
// RUN:   -Rpass=kiln-section-placement -Rpass-analysis=kiln-section-placement \
// RUN:   -c main.c -o main.o 2>&1 | FileCheck %s
// RUN: ld.lld -e main -z keep-text-section-prefix main.o -o main.elf
// RUN: llvm-objdump -t main.elf | FileCheck %s --check-prefix=SYMBOLS
//
// A profile without traces, or none at all: a warning, and nothing placed.
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-section-placement \
// RUN:   -mllvm -kiln-startup-profile=main.profdata -c main.c -o notrace.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTRACE
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-section-placement \
// RUN:   -mllvm -kiln-startup-profile=%t/missing.profdata -c main.c \
// RUN:   -o missing.o 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -c main.c -o plain.o
// RUN: cmp plain.o notrace.o
// RUN: cmp plain.o missing.o

// CHECK-DAG: remark: startup profile 'startup.profdata': 3 functions in 1 traces, 3 defined in this module
// CHECK-DAG: remark: placed in startup (.text.startup.read_env): in a temporal trace of 'startup.profdata'
// CHECK-DAG: remark: placed in startup (.text.startup.setup): in a temporal trace of 'startup.profdata'
// CHECK-DAG: remark: placed in startup (.text.startup.main): in a temporal trace of 'startup.profdata'
// CHECK-DAG: remark: placed in hot (.text.hot.): temperature hot, entry count 100000
// CHECK-DAG: remark: placed in warm (.text): temperature warm, entry count 50

// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} read_env
// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} setup
// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} main
// SYMBOLS-DAG: F .text.hot{{[[:space:]]+}}{{[0-9a-f]+}} kernel
// SYMBOLS-DAG: F .text{{[[:space:]]+}}{{[0-9a-f]+}} tidy

// NOTRACE: warning: kiln-section-placement: cannot use the startup profile 'main.profdata': it has no temporal profile traces (profile a build made with -ftemporal-profile); no function is placed
// MISSING: warning: kiln-section-placement: cannot use the startup profile '{{.*}}missing.profdata': {{.*}}; no function is placed

//--- main.c
__attribute__((noinline)) static int read_env(int x) { return x * 7 + 3; }
__attribute__((noinline)) int setup(int x) { return read_env(x) ^ 5; }
// Entered 100000 times: hot.
__attribute__((noinline)) int kernel(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i)
    s += i ^ x;
  return s;
}
// Entered 50 times: warm.
__attribute__((noinline)) int tidy(int x) { return x + 1; }
int main(int argc, char **argv) {
  int s = setup(argc);
  if (argc > 1)
    return s == 12345; // The startup scenario ends here.
  for (int i = 0; i < 100000; ++i)
    s += kernel(argc + (i & 7));
  for (int i = 0; i < 50; ++i)
    s += tidy(i);
  return s == 12345;
}

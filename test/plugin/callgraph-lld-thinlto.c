// A real profile (an instrumented run, merged by llvm-profdata) reaches the
// ThinLTO bitcode through -fprofile-use; in the ThinLTO backend that ld.lld
// runs, kiln-record-callgraph writes the call graph into the backend's
// object, indirect calls (through `handlers`) included.
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -O2 -fprofile-generate=%t/raw main.c -o instrumented
// RUN: ./instrumented
// RUN: llvm-profdata merge -o main.profdata %t/raw
// RUN: %clang -O2 -flto=thin -fprofile-use=main.profdata -c main.c -o main.o
//
// A pipeline of Kiln's pass alone: every entry is Kiln's.
// RUN: ld.lld -e main --thinlto-jobs=1 --save-temps \
// RUN:   --load-pass-plugin=%kiln_plugin --lto-newpm-passes=kiln-record-callgraph \
// RUN:   main.o -o recorded.out
// RUN: llvm-readobj --cg-profile recorded.out.lto.main.o \
// RUN:   | FileCheck %s --check-prefix=KILN
//
// The same pipeline without it has no call-graph section...
// RUN: ld.lld -e main --thinlto-jobs=1 --save-temps \
// RUN:   --load-pass-plugin=%kiln_plugin --lto-newpm-passes=verify \
// RUN:   main.o -o bare.out
// RUN: llvm-readobj --cg-profile bare.out.lto.main.o \
// RUN:   | FileCheck %s --check-prefix=NONE --implicit-check-not=CGProfile
//
// ...while the default ThinLTO backend pipeline has one: LLVM's CGProfilePass
// runs in every ThinLTO backend (and at the end of full LTO), which is why
// -kiln-callgraph-profile does not add Kiln's pass in ThinLTO backends
// (docs/Passes/CallGraph.rst).
// RUN: ld.lld -e main --thinlto-jobs=1 --save-temps main.o -o default.out
// RUN: llvm-readobj --cg-profile default.out.lto.main.o \
// RUN:   | FileCheck %s --check-prefix=LLVM

// Kiln's entries are sorted by caller, then callee.
// KILN:      CGProfile [
// KILN:        From: busy
// KILN-NEXT:   To: on_even
// KILN-NEXT:   Weight: 2000
// KILN:        From: busy
// KILN-NEXT:   To: on_odd
// KILN-NEXT:   Weight: 2000
// KILN:        From: main
// KILN-NEXT:   To: busy
// KILN-NEXT:   Weight: 1000
// KILN:        From: on_even
// KILN-NEXT:   To: leaf
// KILN-NEXT:   Weight: 2000
// KILN-NEXT: }
// KILN-NEXT: ]

// NONE: Format: elf64-x86-64

// LLVM:      CGProfile [
// LLVM:        From: on_even
// LLVM-NEXT:   To: leaf
// LLVM-NEXT:   Weight: 2000

//--- main.c
typedef int (*handler_fn)(int);
__attribute__((noinline)) int leaf(int x) { return x * 3 + 1; }
__attribute__((noinline)) int on_even(int x) { return leaf(x) + 2; }
__attribute__((noinline)) int on_odd(int x) { return x - 1; }
handler_fn handlers[2] = {on_even, on_odd};
// Called 1000 times; makes 4 indirect calls each, half to each handler.
__attribute__((noinline)) int busy(int x) {
  int s = 0;
  for (int i = 0; i < 4; ++i)
    s += handlers[(x + i) & 1](i);
  return s;
}
int main(int argc, char **argv) {
  int s = 0;
  for (int i = 0; i < 1000; ++i)
    s += busy(argc * i);
  return s == 12345;
}

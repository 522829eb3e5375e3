// -kiln-callgraph-profile, through kiln-lld (which loads the plugin before
// lld parses -mllvm): at the end of full LTO Kiln replaces the call graph
// LLVM's CGProfilePass wrote moments earlier with its own (sorted by caller,
// then callee) with the same counts, never doubled. In ThinLTO backends Kiln
// adds nothing, so the link still succeeds with one flag and CGProfilePass's
// counts.
// REQUIRES: x86_64-linux, kiln-lld
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -O2 -fprofile-generate=%t/raw main.c -o instrumented
// RUN: ./instrumented
// RUN: llvm-profdata merge -o main.profdata %t/raw
// RUN: %clang -O2 -flto -fprofile-use=main.profdata -c main.c -o full.o
// RUN: %clang -O2 -flto=thin -fprofile-use=main.profdata -c main.c -o main.o
//
// RUN: kiln-lld -e main --save-temps -mllvm -kiln-callgraph-profile full.o \
// RUN:   -o full.out
// RUN: llvm-readobj --cg-profile full.out.lto.o | FileCheck %s --check-prefix=KILN
// RUN: ld.lld -e main --save-temps full.o -o llvm.out
// RUN: llvm-readobj --cg-profile llvm.out.lto.o | FileCheck %s --check-prefix=LLVM
//
// RUN: kiln-lld -e main --thinlto-jobs=1 --save-temps \
// RUN:   -mllvm -kiln-callgraph-profile main.o -o thin.out
// RUN: llvm-readobj --cg-profile thin.out.lto.main.o \
// RUN:   | FileCheck %s --check-prefix=LLVM

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

// CGProfilePass lists pairs in the order it meets the calls.
// LLVM:      CGProfile [
// LLVM:        From: on_even
// LLVM-NEXT:   To: leaf
// LLVM-NEXT:   Weight: 2000
// LLVM:        From: busy
// LLVM-NEXT:   To: on_even
// LLVM-NEXT:   Weight: 2000
// LLVM:        From: busy
// LLVM-NEXT:   To: on_odd
// LLVM-NEXT:   Weight: 2000
// LLVM:        From: main
// LLVM-NEXT:   To: busy
// LLVM-NEXT:   Weight: 1000
// LLVM-NEXT: }
// LLVM-NEXT: ]

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

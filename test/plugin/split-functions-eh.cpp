// Split code stays correct: exceptions thrown from a function's cold part
// (and caught in the caller) unwind through it, debug info maps cold-part
// addresses back to the function and its source line, and the machine
// verifier and the DWARF verifier are clean. Training never takes the throw;
// the checked run does. (Linked with lld: GNU ld 2.40 writes a
// .debug_str_offsets that llvm-dwarfdump --verify rejects, split or not.)
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && mkdir %t
// RUN: %clangxx -O2 -fprofile-generate=%t/raw %s -o %t/instrumented
// RUN: env LLVM_PROFILE_FILE=%t/train.profraw %t/instrumented > %t/train.out
// RUN: llvm-profdata merge -o %t/train.profdata %t/train.profraw
// RUN: %clangxx -O2 -g -fprofile-use=%t/train.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
// RUN:   -mllvm -verify-machineinstrs -fuse-ld=lld %s -o %t/split
// The throwing block went to work's cold part; the hot loop did not.
// RUN: llvm-nm %t/split | FileCheck %s --check-prefix=SYMBOLS
// RUN: %t/split 12345 | FileCheck %s --check-prefix=OUT
// RUN: llvm-dwarfdump --verify %t/split | FileCheck %s --check-prefix=DWARF
// RUN: llvm-dwarfdump --debug-info --name=work --show-children=0 %t/split \
// RUN:   | FileCheck %s --check-prefix=RANGES
// RUN: llvm-nm %t/split | grep ' _Z4worki.cold$' | cut -d' ' -f1 \
// RUN:   | sed 's/^/0x/' | llvm-symbolizer --obj=%t/split \
// RUN:   | FileCheck %s --check-prefix=SYMBOLIZE
// Without the profile's cold block there is nothing to split: the same
// program built with the plugin but without the option has no cold part.
// RUN: %clangxx -O2 -fprofile-use=%t/train.profdata \
// RUN:   -fpass-plugin=%kiln_plugin %s -o %t/plain
// RUN: llvm-nm %t/plain | FileCheck %s --check-prefix=PLAIN

// SYMBOLS: {{[0-9a-f]+}} t _Z4worki.cold
// OUT: throwing
// OUT-NEXT: caught: bad input 12345
// OUT-NEXT: total
// DWARF: No errors.
// work's DIE covers both parts.
// RANGES:      DW_AT_ranges
// RANGES-NEXT: [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}})
// RANGES-NEXT: [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}))
// The cold part's first instruction is the throwing block's (inlined
// std::to_string frames come first).
// SYMBOLIZE: work(int) (.cold)
// SYMBOLIZE-NEXT: split-functions-eh.cpp:[[@LINE+13]]:
// PLAIN-NOT: .cold

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

static volatile long Table[8] = {1, 2, 3, 4, 5, 6, 7, 8};

__attribute__((noinline)) long work(int X) {
  long Sum = Table[X & 7] * X;
  if (X == 12345) {
    std::string Message = "bad input " + std::to_string(X);
    std::puts("throwing");
    throw std::runtime_error(Message);
  }
  return Sum;
}

__attribute__((noinline)) long guarded(int X) {
  try {
    return work(X);
  } catch (const std::exception &E) {
    std::printf("caught: %s\n", E.what());
    return -1;
  }
}

int main(int Argc, char **Argv) {
  int Bad = Argc > 1 ? std::atoi(Argv[1]) : 0;
  long Total = 0;
  for (int I = 0; I < 200000; ++I)
    Total += guarded(I == 7 && Bad ? Bad : (I & 1023));
  std::printf("total %ld\n", Total);
  return 0;
}

// Split code stays correct: an exception thrown below a function's cold
// part unwinds through it and is caught in its caller, debug info maps
// cold-part addresses back to the function and its source line, and the
// machine verifier and the DWARF verifier are clean. Training never takes
// the throw; the checked run does. A function with landing pads (work: the
// string it destroys while unwinding) is kept whole, because LLVM 22's
// splitter can break exception handling in such functions
// (bench/differential.py on bench/eh_program.py's programs). (Linked with
// lld: GNU ld 2.40 writes a .debug_str_offsets that llvm-dwarfdump --verify
// rejects, split or not.)
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && mkdir %t
// RUN: %clangxx -O2 -fprofile-generate=%t/raw %s -o %t/instrumented
// RUN: env LLVM_PROFILE_FILE=%t/train.profraw %t/instrumented > %t/train.out
// RUN: llvm-profdata merge -o %t/train.profdata %t/train.profraw
// RUN: %clangxx -O2 -g -fprofile-use=%t/train.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
// RUN:   -mllvm -verify-machineinstrs -fuse-ld=lld %s -o %t/split
// The block that calls the thrower went to relay's cold part; work, with its
// landing pad, was not split.
// RUN: llvm-nm %t/split | FileCheck %s --check-prefix=SYMBOLS
// RUN: %t/split 12345 | FileCheck %s --check-prefix=OUT
// RUN: llvm-dwarfdump --verify %t/split | FileCheck %s --check-prefix=DWARF
// RUN: llvm-dwarfdump --debug-info --name=relay --show-children=0 %t/split \
// RUN:   | FileCheck %s --check-prefix=RANGES
// RUN: llvm-nm %t/split | grep ' _Z5relayi.cold$' | cut -d' ' -f1 \
// RUN:   | sed 's/^/0x/' | llvm-symbolizer --obj=%t/split \
// RUN:   | FileCheck %s --check-prefix=SYMBOLIZE
// Without the profile's cold block there is nothing to split: the same
// program built with the plugin but without the option has no cold part.
// RUN: %clangxx -O2 -fprofile-use=%t/train.profdata \
// RUN:   -fpass-plugin=%kiln_plugin %s -o %t/plain
// RUN: llvm-nm %t/plain | FileCheck %s --check-prefix=PLAIN

// SYMBOLS-NOT: _Z4worki.cold
// SYMBOLS: {{[0-9a-f]+}} t _Z5relayi.cold
// SYMBOLS-NOT: _Z4worki.cold
// OUT: relaying
// OUT-NEXT: throwing
// OUT-NEXT: caught: bad input 12345
// OUT-NEXT: total
// DWARF: No errors.
// relay's DIE covers both parts.
// RANGES:      DW_AT_ranges
// RANGES-NEXT: [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}})
// RANGES-NEXT: [0x{{[0-9a-f]+}}, 0x{{[0-9a-f]+}}))
// The cold part's first instruction is the relaying block's.
// SYMBOLIZE: relay(int) (.cold)
// SYMBOLIZE-NEXT: split-functions-eh.cpp:[[@LINE+24]]:
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

// No landing pad: unwinding passes through relay, split or not.
__attribute__((noinline)) long relay(int X) {
  long Sum = Table[X & 7];
  if (X == 12345) {
    std::puts("relaying");
    return Sum + work(X);
  }
  return Sum + X;
}

__attribute__((noinline)) long guarded(int X) {
  try {
    return relay(X);
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

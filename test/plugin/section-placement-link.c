// End to end: a real profile (an instrumented run, merged by llvm-profdata),
// clang with the plugin, -kiln-section-placement and a startup list; then the
// linkers keep the groups apart.
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -O2 -fprofile-generate=%t/raw main.c -o instrumented
// RUN: ./instrumented
// RUN: llvm-profdata merge -o main.profdata %t/raw
//
// ELF: prefixes and .text.startup.<name> in the object; ld.lld
// -z keep-text-section-prefix turns them into the output sections
// .text.startup, .text.hot and .text.unlikely, while warm code stays in .text.
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-section-placement \
// RUN:   -mllvm -kiln-startup-functions=startup.txt \
// RUN:   -Rpass=kiln-section-placement -c main.c -o main.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: ld.lld -e main -z keep-text-section-prefix main.o -o main.elf
// RUN: llvm-readelf -S main.elf | FileCheck %s --check-prefix=SECTIONS
// RUN: llvm-objdump -t main.elf | FileCheck %s --check-prefix=SYMBOLS
//
// COFF: .text$k<N><group> sections, which lld-link merges into .text sorted by
// suffix: startup, hot, warm, cold, whatever order the object had them in.
// RUN: %clang --target=x86_64-pc-windows-msvc -O2 -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-section-placement \
// RUN:   -mllvm -kiln-startup-functions=startup.txt -c main.c -o main.obj
// RUN: lld-link /entry:main /subsystem:console /nodefaultlib /out:main.exe \
// RUN:   /map:main.map main.obj
// RUN: FileCheck %s --check-prefix=MAP --input-file=main.map
//
// Without the option the plugin places nothing.
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -c main.c -o plain.o
// RUN: %clang -O2 -ffunction-sections -fprofile-use=main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -c main.c -o loaded.o
// RUN: cmp plain.o loaded.o

// REMARK-DAG: remark: placed in startup (.text.startup.parse_config): listed in 'startup.txt'
// REMARK-DAG: remark: placed in startup (.text.startup.setup): listed in 'startup.txt'
// REMARK-DAG: remark: placed in startup (.text.startup.main): listed in 'startup.txt'
// REMARK-DAG: remark: placed in hot (.text.hot.): temperature hot, entry count 100000
// REMARK-DAG: remark: placed in warm (.text): temperature warm, entry count 50
// REMARK-DAG: remark: placed in cold (.text.unlikely.): temperature cold, entry count 0

// SECTIONS-DAG: ] .text PROGBITS
// SECTIONS-DAG: ] .text.startup PROGBITS
// SECTIONS-DAG: ] .text.hot PROGBITS
// SECTIONS-DAG: ] .text.unlikely PROGBITS

// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} parse_config
// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} setup
// SYMBOLS-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} main
// SYMBOLS-DAG: F .text.hot{{[[:space:]]+}}{{[0-9a-f]+}} kernel
// SYMBOLS-DAG: F .text{{[[:space:]]+}}{{[0-9a-f]+}} tidy
// SYMBOLS-DAG: F .text.unlikely{{[[:space:]]+}}{{[0-9a-f]+}} report_error

// MAP:      .text$k1startup
// MAP-NEXT: .text$k2hot
// MAP-NEXT: .text$k3warm
// MAP-NEXT: .text$k4cold
// MAP:      0001:{{[0-9a-f]+}} parse_config{{ }}
// MAP-NEXT: 0001:{{[0-9a-f]+}} setup{{ }}
// MAP-NEXT: 0001:{{[0-9a-f]+}} main{{ }}
// MAP-NEXT: 0001:{{[0-9a-f]+}} kernel{{ }}
// MAP-NEXT: 0001:{{[0-9a-f]+}} tidy{{ }}
// MAP-NEXT: 0001:{{[0-9a-f]+}} report_error{{ }}

//--- startup.txt
# The functions a temporal profile saw run first, in that order.
main
setup
parse_config

//--- main.c
__attribute__((noinline)) int parse_config(int x) { return x * 7 + 3; }
__attribute__((noinline)) int setup(int x) { return parse_config(x) ^ 5; }
// Entered 100000 times: hot.
__attribute__((noinline)) int kernel(int x) {
  int s = 0;
  for (int i = 0; i < x; ++i)
    s += i ^ x;
  return s;
}
// Never run: cold.
__attribute__((noinline)) int report_error(int x) { return x - 42; }
// Entered 50 times: warm.
__attribute__((noinline)) int tidy(int x) { return x + 1; }
int main(int argc, char **argv) {
  int s = setup(argc);
  for (int i = 0; i < 100000; ++i)
    s += kernel(argc + (i & 7));
  for (int i = 0; i < 50; ++i)
    s += tidy(i);
  if (argc > 5)
    s += report_error(s);
  return s == 12345;
}

// kiln-lld links an ELF hello world byte for byte as ld.lld does, called
// directly, under its flavor name, and by clang with -fuse-ld=<its path>;
// the programs run and print the same.
// REQUIRES: x86_64-linux, kiln-lld
// RUN: rm -rf %t && mkdir %t
// RUN: %clang -O2 -c %s -o %t/hello.o
//
// clang drives the link: ld.lld versus -fuse-ld=<absolute path to kiln-lld>.
// RUN: %clang -fuse-ld=lld %t/hello.o -o %t/hello.lld
// RUN: %clang -fuse-ld=kiln-lld %t/hello.o -o %t/hello.kiln
// RUN: cmp %t/hello.lld %t/hello.kiln
// RUN: %t/hello.kiln | FileCheck %s
// RUN: %t/hello.lld | FileCheck %s
//
// The same GNU-style command line given to each directly.
// RUN: %clang -fuse-ld=lld -### %t/hello.o -o %t/unused 2>&1 \
// RUN:   | FileCheck %s --check-prefix=DRIVER
// RUN: ld.lld -pie -z relro --hash-style=gnu %t/hello.o -o %t/direct.lld \
// RUN:   --unresolved-symbols=ignore-all -e main
// RUN: kiln-lld -pie -z relro --hash-style=gnu %t/hello.o -o %t/direct.kiln \
// RUN:   --unresolved-symbols=ignore-all -e main
// RUN: cmp %t/direct.lld %t/direct.kiln
//
// Under the name kiln-ld.lld (a symlink elsewhere), lld's own naming rule
// picks ELF and the plugin is still found next to the real executable.
// RUN: ln -s kiln-lld %t/kiln-ld.lld
// RUN: %t/kiln-ld.lld -pie -z relro --hash-style=gnu %t/hello.o \
// RUN:   -o %t/named.kiln --unresolved-symbols=ignore-all -e main
// RUN: cmp %t/direct.lld %t/named.kiln
// RUN: %t/kiln-ld.lld --version | FileCheck %s --check-prefix=VERSION

// CHECK: hello from kiln-lld
// DRIVER: "{{.*}}ld.lld"
// VERSION: LLD {{[0-9.]+}} (compatible with GNU linkers)

#include <stdio.h>

int main(void) {
  puts("hello from kiln-lld");
  return 0;
}

/* Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 * Linked into the benchmark's "+preread" configuration: calls Kiln's
 * pre-read helper before main(), so that the program itself is unchanged. */
#include "kiln/preread.h"

__attribute__((constructor)) static void kiln_bench_preread(void) {
  kiln_preread();
}

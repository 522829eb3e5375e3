/*===- preread.c - Pre-fault a Kiln binary's startup code ------------------===
 *
 * Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
 * See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===
 *
 * The record below is the whole interface with kiln-lld: it is linked in
 * with magic bytes and a zero length, and kiln-lld overwrites the distance
 * and the length in the output file once the startup range has its final
 * addresses (lld-plugin/driver/lib/PrereadPlan.cpp). Storing a distance from
 * the record rather than an address keeps it valid wherever the loader puts
 * a PIE or shared library. `volatile` keeps the compiler from folding the
 * zero it sees at compile time.
 *
 *===----------------------------------------------------------------------===*/

#include "kiln/preread.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

struct kiln_preread_record {
  char magic[8];    /* "KILNPRE1" (no terminating NUL) */
  int64_t distance; /* start of the startup range minus &kiln_preread_plan */
  uint64_t length;  /* bytes of the range; 0: no range recorded */
};

__attribute__((used, aligned(8)))
const volatile struct kiln_preread_record kiln_preread_plan = {
    {'K', 'I', 'L', 'N', 'P', 'R', 'E', '1'}, 0, 0};

int kiln_preread(void) {
  uint64_t length = kiln_preread_plan.length;
  if (length == 0)
    return 0;
  long page = sysconf(_SC_PAGESIZE);
  if (page <= 0)
    page = 4096;
  uintptr_t begin =
      (uintptr_t)&kiln_preread_plan + (uintptr_t)kiln_preread_plan.distance;
  uintptr_t first = begin & ~((uintptr_t)page - 1);
  uintptr_t end =
      (begin + length + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
#ifdef MADV_POPULATE_READ
  /* Linux 5.14+: read the pages in and map them, so startup takes neither
   * major nor minor faults on them. */
  if (madvise((void *)first, end - first, MADV_POPULATE_READ) == 0)
    return 1;
#endif
  /* Older kernels: start read-ahead of the range; faults become minor. */
  return madvise((void *)first, end - first, MADV_WILLNEED) == 0 ? 1 : -1;
}

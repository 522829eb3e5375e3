/*===- kiln/preread.h - Pre-fault a Kiln binary's startup code -----*- C -*-===
 *
 * Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
 * See LICENSE for license information.
 * SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
 *
 *===----------------------------------------------------------------------===
 *
 * The optional runtime half of Kiln's pre-read plan. A binary linked by
 * `kiln-lld --kiln-profile=... --kiln-preread-out=plan.json` keeps its
 * startup functions in one contiguous range; when this library is linked in,
 * kiln-lld also writes that range into the library's record in the binary.
 * Calling kiln_preread() first thing in main() then asks the kernel for the
 * whole range at once (one read-ahead of the file instead of a major page
 * fault per page as startup reaches each one).
 *
 *===----------------------------------------------------------------------===*/

#ifndef KILN_PREREAD_H
#define KILN_PREREAD_H

#ifdef __cplusplus
extern "C" {
#endif

/* Pre-reads the startup range recorded in this binary. Returns 1 if it did,
 * 0 if the binary carries no range (not linked by kiln-lld with a profile:
 * nothing to do), -1 if the kernel refused (errno says why). Safe to call
 * more than once and from any thread; never faults. */
int kiln_preread(void);

#ifdef __cplusplus
}
#endif

#endif /* KILN_PREREAD_H */

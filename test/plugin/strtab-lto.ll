; At LTO, internalization makes a table that was external in its module
; local, so kiln-strtab lowers it there: at the end of full LTO and of each
; ThinLTO backend. Compiling the same module alone refuses it.
; REQUIRES: x86-registered-target, kiln-lld
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-missed=kiln-strtab -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=COMPILE
;
; RUN: llvm-as %s -o %t/full.o
; RUN: kiln-lld -shared -mllvm -kiln-strtab -mllvm -pass-remarks=kiln-strtab \
; RUN:   %t/full.o -o %t/full.so 2>&1 | FileCheck %s --check-prefix=LTO
; RUN: llvm-readelf -r %t/full.so | FileCheck %s --check-prefix=RELOCS
; RUN: llvm-nm %t/full.so | FileCheck %s --check-prefix=LOWERED
;
; RUN: opt -module-summary %s -o %t/thin.o
; RUN: kiln-lld -shared --thinlto-jobs=1 -mllvm -kiln-strtab \
; RUN:   -mllvm -pass-remarks=kiln-strtab %t/thin.o -o %t/thin.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=LTO
; RUN: llvm-readelf -r %t/thin.so | FileCheck %s --check-prefix=RELOCS
; RUN: llvm-nm %t/thin.so | FileCheck %s --check-prefix=LOWERED
;
; The pass is on by default wherever kiln-lld loads the plugin. With
; -kiln-strtab=false, LLVM's RelLookupTableConverter turns the table into
; 32-bit relative offsets (colors.rel) instead: also relocation-free, but
; 4 bytes per entry and no shared strings. Kiln runs before it, at the start
; of full LTO, so the converter never sees the table.
; RUN: kiln-lld -shared %t/full.o -o %t/default.so
; RUN: llvm-nm %t/default.so | FileCheck %s --check-prefix=LOWERED
; RUN: kiln-lld -shared -mllvm -kiln-strtab=false %t/full.o -o %t/plain.so
; RUN: llvm-nm %t/plain.so | FileCheck %s --check-prefix=PLAIN

; COMPILE: string table colors not lowered: it is not local to the module (external linkage)
; LTO:     string table colors lowered: 3 entries (3 strings)
; RELOCS-NOT: R_X86_64_RELATIVE
; LOWERED-NOT: colors
; PLAIN: r colors.rel

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@.red = private unnamed_addr constant [4 x i8] c"red\00"
@.green = private unnamed_addr constant [6 x i8] c"green\00"
@.blue = private unnamed_addr constant [5 x i8] c"blue\00"
;; Hidden: not exported from the shared library, so LTO internalizes it.
@colors = hidden unnamed_addr constant [3 x ptr] [ptr @.red, ptr @.green, ptr @.blue]

define ptr @color(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @colors, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

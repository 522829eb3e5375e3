; A string object keeps its alignment inside the blob: x86-64 aligns a
; `static const char name[]` of 16 bytes or more to 16, and code reading the
; pointer from the table may rely on it. The blob is padded and aligned.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; CHECK: @tab.chars = private unnamed_addr constant [38 x i8] c"x\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00sixteen or more bytes\00", align 16
; CHECK: @tab.offsets = private unnamed_addr constant [3 x i8] c"\00\10\18", align 1

@.x = private unnamed_addr constant [2 x i8] c"x\00"
@long_name = internal unnamed_addr constant [22 x i8] c"sixteen or more bytes\00", align 16
;; "or more bytes" is a suffix 8 bytes in: aligned enough for its alignment of 8.
@.tail = private unnamed_addr constant [14 x i8] c"or more bytes\00", align 8
@tab = internal unnamed_addr constant [3 x ptr] [ptr @.x, ptr @long_name, ptr @.tail]

define ptr @get(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

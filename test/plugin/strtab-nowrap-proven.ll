; Address arithmetic without inbounds is still rewritten when it cannot
; wrap: a nusw or nuw getelementptr, an index known to be small (a zext from
; i8, an i32 sign-extended, a masked index), or a byte offset of scale 1.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: count 0 < %t.err

; CHECK-NOT: @nusw =
; CHECK-NOT: @nuw =
; CHECK-NOT: @small =
; CHECK-NOT: @narrow =
; CHECK-NOT: @masked =
; CHECK-NOT: @bytes =
; CHECK-DAG: @nusw.offsets =
; CHECK-DAG: @nuw.offsets =
; CHECK-DAG: @small.offsets =
; CHECK-DAG: @narrow.offsets =
; CHECK-DAG: @masked.offsets =
; CHECK-DAG: @bytes.offsets =

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@nusw = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@nuw = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@small = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@narrow = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@masked = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@bytes = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]

define ptr @get_nusw(i64 %i) {
  %p = getelementptr nusw ptr, ptr @nusw, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_nuw(i64 %i) {
  %p = getelementptr nuw ptr, ptr @nuw, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_small(i8 %i) {
  %w = zext i8 %i to i64
  %p = getelementptr ptr, ptr @small, i64 %w
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_narrow(i32 %i) {
  %p = getelementptr ptr, ptr @narrow, i32 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_masked(i64 %i) {
  %m = and i64 %i, 1
  %p = getelementptr ptr, ptr @masked, i64 %m
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_bytes(i64 %i) {
  %off = shl i64 %i, 3
  %p = getelementptr i8, ptr @bytes, i64 %off
  %s = load ptr, ptr %p
  ret ptr %s
}

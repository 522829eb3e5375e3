; A table of structs: the string field becomes an offset, other fields keep
; their type, a function-pointer field stays a pointer, and the struct is
; repacked: {ptr, i32, [4 x i8]} (16 bytes) becomes {i8, i32} (8 bytes),
; since the padding is never read.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; The tables of one module share one blob.
; CHECK: @kv.chars = private unnamed_addr constant [26 x i8] c"alpha\00beta\00gamma\00run\00stop\00", align 1
; CHECK: @kv.offsets = private unnamed_addr constant [3 x { i8, i32 }] [{ i8, i32 } { i8 0, i32 1 }, { i8, i32 } { i8 6, i32 2 }, { i8, i32 } { i8 11, i32 3 }], align 4
;; Fields reordered by alignment when that is smaller: {i8, i8, ptr, i8}
;; (24 bytes) becomes {ptr, i8, i8, i8} (16 bytes).
; CHECK-NOT: @cmds.chars
; CHECK: @cmds.offsets = private unnamed_addr constant [2 x { ptr, i8, i8, i8 }] [{ ptr, i8, i8, i8 } { ptr @run, i8 1, i8 17, i8 0 }, { ptr, i8, i8, i8 } { ptr @stop, i8 2, i8 21, i8 1 }], align 8

; CHECK-LABEL: define ptr @name(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds { i8, i32 }, ptr @kv.offsets, i64 [[I]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
; CHECK-NEXT:    [[WIDE:%.*]] = zext i8 [[OFF]] to i64
; CHECK-NEXT:    [[S:%.*]] = getelementptr inbounds i8, ptr @kv.chars, i64 [[WIDE]]
; CHECK-NEXT:    ret ptr [[S]]

; CHECK-LABEL: define i32 @value(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[E:%.*]] = getelementptr inbounds { i8, i32 }, ptr @kv.offsets, i64 [[I]]
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds i8, ptr [[E]], i64 4
; CHECK-NEXT:    [[V:%.*]] = load i32, ptr [[F]], align 4
; CHECK-NEXT:    ret i32 [[V]]

; CHECK-LABEL: define ptr @handler(
; CHECK:         [[E:%.*]] = getelementptr inbounds { ptr, i8, i8, i8 }, ptr @cmds.offsets, i64 %i
; CHECK-NEXT:    [[H:%.*]] = load ptr, ptr [[E]], align 8
; CHECK-NEXT:    ret ptr [[H]]

; CHECK-LABEL: define ptr @command(
; CHECK:         [[E:%.*]] = getelementptr inbounds { ptr, i8, i8, i8 }, ptr @cmds.offsets, i64 %i
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds i8, ptr [[E]], i64 9
; CHECK-NEXT:    load i8, ptr [[F]], align 1

; CHECK-LABEL: define i8 @flags(
; CHECK:         [[E:%.*]] = getelementptr inbounds { ptr, i8, i8, i8 }, ptr @cmds.offsets, i64 %i
; CHECK-NEXT:    [[F:%.*]] = getelementptr inbounds i8, ptr [[E]], i64 8
; CHECK-NEXT:    [[A:%.*]] = load i8, ptr [[F]], align 8
; CHECK-NEXT:    [[E2:%.*]] = getelementptr inbounds { ptr, i8, i8, i8 }, ptr @cmds.offsets, i64 %i
; CHECK-NEXT:    [[F2:%.*]] = getelementptr inbounds i8, ptr [[E2]], i64 10
; CHECK-NEXT:    [[B:%.*]] = load i8, ptr [[F2]], align 2

%struct.kv = type { ptr, i32 }

@.str.a = private unnamed_addr constant [6 x i8] c"alpha\00"
@.str.b = private unnamed_addr constant [5 x i8] c"beta\00"
@.str.g = private unnamed_addr constant [6 x i8] c"gamma\00"
@kv = internal unnamed_addr constant [3 x { ptr, i32, [4 x i8] }] [{ ptr, i32, [4 x i8] } { ptr @.str.a, i32 1, [4 x i8] zeroinitializer }, { ptr, i32, [4 x i8] } { ptr @.str.b, i32 2, [4 x i8] zeroinitializer }, { ptr, i32, [4 x i8] } { ptr @.str.g, i32 3, [4 x i8] zeroinitializer }], align 16

@.str.run = private unnamed_addr constant [4 x i8] c"run\00"
@.str.stop = private unnamed_addr constant [5 x i8] c"stop\00"
@cmds = internal unnamed_addr constant [2 x { i8, ptr, ptr, i8 }] [{ i8, ptr, ptr, i8 } { i8 1, ptr @.str.run, ptr @run, i8 0 }, { i8, ptr, ptr, i8 } { i8 2, ptr @.str.stop, ptr @stop, i8 1 }]

declare void @run()
declare void @stop()

define ptr @name(i64 %i) {
  %e = getelementptr inbounds %struct.kv, ptr @kv, i64 %i
  %s = load ptr, ptr %e, align 16
  ret ptr %s
}

define i32 @value(i64 %i) {
  %e = getelementptr inbounds %struct.kv, ptr @kv, i64 %i
  %f = getelementptr inbounds nuw i8, ptr %e, i64 8
  %v = load i32, ptr %f, align 8
  ret i32 %v
}

define ptr @handler(i64 %i) {
  %e = getelementptr inbounds [2 x { i8, ptr, ptr, i8 }], ptr @cmds, i64 0, i64 %i, i32 2
  %h = load ptr, ptr %e
  ret ptr %h
}

define ptr @command(i64 %i) {
  %e = getelementptr inbounds [2 x { i8, ptr, ptr, i8 }], ptr @cmds, i64 0, i64 %i, i32 1
  %s = load ptr, ptr %e
  ret ptr %s
}

define i8 @flags(i64 %i) {
  %e = getelementptr inbounds [2 x { i8, ptr, ptr, i8 }], ptr @cmds, i64 0, i64 %i
  %a = load i8, ptr %e
  %f = getelementptr inbounds i8, ptr %e, i64 24
  %b = load i8, ptr %f
  %sum = add i8 %a, %b
  ret i8 %sum
}

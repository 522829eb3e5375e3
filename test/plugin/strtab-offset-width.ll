; The offsets are the narrowest integers that fit: i8 while every offset is
; below 255 (the all-ones null marker), i16 beyond.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks=kiln-strtab -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: string table small lowered: {{.*}} with i8 offsets
; REMARK: string table large lowered: {{.*}} with i16 offsets

;; The second string of @small starts at 254: the last offset i8 can encode
;; next to the null marker 255.
; CHECK: @small.offsets = private unnamed_addr constant [3 x i8] c"\00\FE\FF", align 1
;; The tables share one blob (long254, x, long255): @large's first string
;; starts at 256, beyond i8.
; CHECK: @large.offsets = private unnamed_addr constant [3 x i16] [i16 256, i16 254, i16 -1], align 2

; CHECK-LABEL: define ptr @get_large(
; CHECK:         [[P:%.*]] = getelementptr inbounds i16, ptr @large.offsets, i64 %i
; CHECK-NEXT:    [[OFF:%.*]] = load i16, ptr [[P]], align 2
; CHECK-NEXT:    [[WIDE:%.*]] = zext i16 [[OFF]] to i64
; CHECK-NEXT:    [[STR:%.*]] = getelementptr inbounds i8, ptr @small.chars, i64 [[WIDE]]
; CHECK-NEXT:    [[ISNULL:%.*]] = icmp eq i16 [[OFF]], -1

@.long254 = private unnamed_addr constant [254 x i8] zeroinitializer
@.long255 = private unnamed_addr constant [255 x i8] c"\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\00"
@.x = private unnamed_addr constant [2 x i8] c"x\00"
@small = internal unnamed_addr constant [3 x ptr] [ptr @.long254, ptr @.x, ptr null]
@large = internal unnamed_addr constant [3 x ptr] [ptr @.long255, ptr @.x, ptr null]

define ptr @get_small(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @small, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_large(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @large, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

; kiln-strtab rewrites a table of string pointers read at a variable index
; into an i8 offset table and one character blob; the loaded pointer is the
; blob plus the offset, and the passed remark gives the sizes.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks=kiln-strtab -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK: remark: <unknown>:0:0: string table errors lowered: 3 entries (3 strings), 46 bytes to 25 bytes with i8 offsets

;; The strings lie in first-use order; nothing is left of the old globals.
; CHECK:     @errors.chars = private unnamed_addr constant [22 x i8] c"no error\00on fire\00busy\00", align 1
; CHECK:     @errors.offsets = private unnamed_addr constant [3 x i8] c"\00\09\11", align 1
; CHECK-NOT: @errors =
; CHECK-NOT: @.str

; CHECK-LABEL: define ptr @message(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @errors.offsets, i64 [[I]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
; CHECK-NEXT:    [[WIDE:%.*]] = zext i8 [[OFF]] to i64
; CHECK-NEXT:    [[S:%.*]] = getelementptr inbounds i8, ptr @errors.chars, i64 [[WIDE]]
; CHECK-NEXT:    ret ptr [[S]]

;; The canonical InstCombine form (gep ptr) and the array form (gep [3 x ptr],
;; 0, i) are the same address; an i32 index is sign-extended as GEP does.
; CHECK-LABEL: define ptr @message_array_gep(
; CHECK-SAME:    i32 [[I:%.*]])
; CHECK-NEXT:    [[WIDE_I:%.*]] = sext i32 [[I]] to i64
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @errors.offsets, i64 [[WIDE_I]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
; CHECK-NEXT:    [[WIDE:%.*]] = zext i8 [[OFF]] to i64
; CHECK-NEXT:    [[S:%.*]] = getelementptr inbounds i8, ptr @errors.chars, i64 [[WIDE]]
; CHECK-NEXT:    ret ptr [[S]]

;; A constant byte offset of one element, then an index.
; CHECK-LABEL: define ptr @message_next(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[NEXT:%.*]] = add i64 [[I]], 1
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @errors.offsets, i64 [[NEXT]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1

@.str.0 = private unnamed_addr constant [9 x i8] c"no error\00"
@.str.1 = private unnamed_addr constant [8 x i8] c"on fire\00"
@.str.2 = private unnamed_addr constant [5 x i8] c"busy\00"
@errors = internal unnamed_addr constant [3 x ptr] [ptr @.str.0, ptr @.str.1, ptr @.str.2], align 16

define ptr @message(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @errors, i64 %i
  %s = load ptr, ptr %p, align 8
  ret ptr %s
}

define ptr @message_array_gep(i32 %i) {
  %p = getelementptr inbounds [3 x ptr], ptr @errors, i64 0, i32 %i
  %s = load ptr, ptr %p, align 8
  ret ptr %s
}

define ptr @message_next(i64 %i) {
  %base = getelementptr inbounds i8, ptr @errors, i64 8
  %p = getelementptr inbounds ptr, ptr %base, i64 %i
  %s = load ptr, ptr %p, align 8
  ret ptr %s
}

;; A byte offset computed outside the GEP is understood when its low bits are
;; known zero (here 3 of them: a whole number of 8-byte entries); the element
;; index is recovered with an exact shift.
; CHECK-LABEL: define ptr @message_bytes(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[BYTES:%.*]] = shl i64 [[I]], 3
; CHECK-NEXT:    [[IDX:%.*]] = ashr exact i64 [[BYTES]], 3
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @errors.offsets, i64 [[IDX]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
define ptr @message_bytes(i64 %i) {
  %bytes = shl i64 %i, 3
  %p = getelementptr inbounds i8, ptr @errors, i64 %bytes
  %s = load ptr, ptr %p, align 8
  ret ptr %s
}

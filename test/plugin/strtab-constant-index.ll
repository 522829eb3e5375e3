; A load at a constant index needs no load after kiln-strtab: it becomes the
; address of the string inside the blob (or null), as a constant.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; CHECK:     @names.chars = private unnamed_addr constant [9 x i8] c"zero\00one\00", align 1
; CHECK:     @names.offsets = private unnamed_addr constant [3 x i8] c"\00\05\FF", align 1
; CHECK-NOT: @names =

; CHECK-LABEL: define ptr @second(
; CHECK-NEXT:    ret ptr getelementptr inbounds (i8, ptr @names.chars, i64 5)
; CHECK-LABEL: define ptr @third(
; CHECK-NEXT:    ret ptr null
;; A variable index next to the constant ones still loads an offset.
; CHECK-LABEL: define ptr @any(
; CHECK:         load i8, ptr {{.*}}, align 1

@.str.0 = private unnamed_addr constant [5 x i8] c"zero\00"
@.str.1 = private unnamed_addr constant [4 x i8] c"one\00"
@names = internal unnamed_addr constant [3 x ptr] [ptr @.str.0, ptr @.str.1, ptr null]

define ptr @second() {
  %s = load ptr, ptr getelementptr inbounds ([3 x ptr], ptr @names, i64 0, i64 1)
  ret ptr %s
}

define ptr @third() {
  %p = getelementptr inbounds i8, ptr @names, i64 16
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @any(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @names, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

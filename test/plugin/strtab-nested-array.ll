; A two-dimensional table (const char *grid[3][2]) is one flat table: the
; row and column terms of the GEP both become entry indices.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; CHECK:     @grid.chars = private unnamed_addr constant [9 x i8] c"a\00b\00c\00de\00", align 1
;;           a=0 b=2 c=4 de=6 e=7 (inside "de")
; CHECK:     @grid.offsets = private unnamed_addr constant [6 x i8] c"\00\02\04\06\07\FF", align 1
; CHECK-NOT: @grid =

; CHECK-LABEL: define ptr @cell(
; CHECK-SAME:    i64 [[R:%.*]], i64 [[C:%.*]])
; CHECK-NEXT:    [[ROW:%.*]] = mul i64 [[R]], 2
; CHECK-NEXT:    [[IDX:%.*]] = add i64 [[ROW]], [[C]]
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @grid.offsets, i64 [[IDX]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1

;; Constant row and column: the string itself, a constant.
; CHECK-LABEL: define ptr @middle_row_second(
; CHECK-NEXT:    ret ptr getelementptr inbounds (i8, ptr @grid.chars, i64 6)

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
@.de = private unnamed_addr constant [3 x i8] c"de\00"
@grid = internal unnamed_addr constant [3 x [2 x ptr]] [[2 x ptr] [ptr @.a, ptr @.b], [2 x ptr] [ptr @.c, ptr @.de], [2 x ptr] [ptr getelementptr (i8, ptr @.de, i64 1), ptr null]]

define ptr @cell(i64 %r, i64 %c) {
  %p = getelementptr inbounds [3 x [2 x ptr]], ptr @grid, i64 0, i64 %r, i64 %c
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @middle_row_second() {
  %row = getelementptr inbounds [2 x ptr], ptr @grid, i64 1
  %p = getelementptr inbounds ptr, ptr %row, i64 1
  %s = load ptr, ptr %p
  ret ptr %s
}

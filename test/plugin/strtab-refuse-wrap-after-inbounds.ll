; An inbounds row address followed by a column index without inbounds: the
; second getelementptr may wrap (8 * %j), whatever the first one proves.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table grid not lowered: its address arithmetic may wrap (a getelementptr without inbounds, nusw or nuw scales an index not known to be small), so its offsets cannot be rewritten exactly
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            MayWrap
; CHECK:       @grid = internal unnamed_addr constant [2 x [2 x ptr]]
; CHECK-NOT:   .offsets

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@grid = internal unnamed_addr constant [2 x [2 x ptr]] [[2 x ptr] [ptr @.a, ptr @.b], [2 x ptr] [ptr @.b, ptr @.a]]

define ptr @cell(i64 %i, i64 %j) {
  %row = getelementptr inbounds [2 x ptr], ptr @grid, i64 %i
  %p = getelementptr ptr, ptr %row, i64 %j
  %s = load ptr, ptr %p
  ret ptr %s
}

; A getelementptr without inbounds scales its index by the element size in
; wrapping arithmetic: with %i = 2^61 + 3, 8 * %i wraps to 24 and reads entry
; 3, which an offset table indexed by %i itself cannot reproduce. Such a
; table keeps its pointers (the no-wrap rule of StringTableAnalysis.cpp).
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table tab not lowered: its address arithmetic may wrap (a getelementptr without inbounds, nusw or nuw scales an index not known to be small), so its offsets cannot be rewritten exactly
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            MayWrap
; YAML-NEXT:   Function:        get
; CHECK:       @tab = {{.*}}[4 x ptr] [ptr @.a, ptr @.b, ptr @.c, ptr @.d]
; CHECK-NOT:   .offsets
; CHECK-LABEL: define ptr @get(
; CHECK-NEXT:    getelementptr ptr, ptr @tab, i64 %i

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
@.d = private unnamed_addr constant [2 x i8] c"d\00"
@tab = internal unnamed_addr constant [4 x ptr] [ptr @.a, ptr @.b, ptr @.c, ptr @.d]

define ptr @get(i64 %i) {
  %p = getelementptr ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

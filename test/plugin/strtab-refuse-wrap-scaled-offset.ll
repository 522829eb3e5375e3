; A byte offset that is a whole number of entries by its known low bits,
; scaled again without inbounds: 2 * %k may wrap, so it is refused (an
; inbounds getelementptr of the same shape is lowered, as in
; strtab-variable-index.ll).
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
; CHECK:       @tab = internal unnamed_addr constant [2 x ptr]
; CHECK-NOT:   .offsets

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]

define ptr @get(i64 %i) {
  %k = shl i64 %i, 2
  %p = getelementptr i16, ptr @tab, i64 %k
  %s = load ptr, ptr %p
  ret ptr %s
}

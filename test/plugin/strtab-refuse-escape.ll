; A table whose address is in another global's initializer escapes: code
; anywhere may read it from there.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table tab not lowered: its address escapes (ptrtoint, stored, in an initializer or an operand bundle)
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            Escape
; CHECK:       @tab = {{.*}}[2 x ptr] [ptr @.a, ptr @.b]
; CHECK-NOT:   .offsets

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]

@ref = global ptr @tab

define ptr @get(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

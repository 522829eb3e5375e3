; The same for a table of structs: a field address computed by a
; getelementptr without inbounds may wrap (16 * %i), so the table is kept.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table entries not lowered: its address arithmetic may wrap (a getelementptr without inbounds, nusw or nuw scales an index not known to be small), so its offsets cannot be rewritten exactly
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            MayWrap
; CHECK:       @entries = internal unnamed_addr constant [2 x %entry]
; CHECK-NOT:   .offsets

%entry = type { ptr, i32 }

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@entries = internal unnamed_addr constant [2 x %entry] [%entry { ptr @.a, i32 1 }, %entry { ptr @.b, i32 2 }]

define ptr @name(i64 %i) {
  %p = getelementptr %entry, ptr @entries, i64 %i, i32 0
  %s = load ptr, ptr %p
  ret ptr %s
}

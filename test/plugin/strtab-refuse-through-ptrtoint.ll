; An element address turned into an integer (an index computed by pointer
; difference) shows the old layout.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table kw not lowered: its address escapes (ptrtoint, stored, in an initializer or an operand bundle)
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            Escape
; CHECK:       @kw = internal unnamed_addr constant [2 x %struct.kw]
; CHECK-NOT:   .offsets

%struct.kw = type { ptr, i32 }

@.if = private unnamed_addr constant [3 x i8] c"if\00"
@.do = private unnamed_addr constant [3 x i8] c"do\00"
@kw = internal unnamed_addr constant [2 x %struct.kw] [%struct.kw { ptr @.do, i32 1 }, %struct.kw { ptr @.if, i32 2 }]

define internal ptr @find(i64 %i) {
  %e = getelementptr inbounds %struct.kw, ptr @kw, i64 %i
  ret ptr %e
}

define i64 @index(i64 %i) {
  %k = call ptr @find(i64 %i)
  %a = ptrtoint ptr %k to i64
  %d = sub i64 %a, ptrtoint (ptr @kw to i64)
  ret i64 %d
}

; A compare with null needs the pointer to be null or inside the table: an
; element reached without inbounds (here a wrapping constant offset) could
; be anywhere, and the new table's address would change the result.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table kw not lowered: a pointer it holds or into it is compared by identity
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            IdentityCompare
; CHECK:       @kw = internal unnamed_addr constant [2 x %struct.kw]
; CHECK-NOT:   .offsets

%struct.kw = type { ptr, i32 }

@.if = private unnamed_addr constant [3 x i8] c"if\00"
@.do = private unnamed_addr constant [3 x i8] c"do\00"
@kw = internal unnamed_addr constant [2 x %struct.kw] [%struct.kw { ptr @.do, i32 1 }, %struct.kw { ptr @.if, i32 2 }]

define internal ptr @find(i1 %b) {
  %e = getelementptr %struct.kw, ptr @kw, i64 -1
  %r = select i1 %b, ptr %e, ptr null
  ret ptr %r
}

define i32 @token(i1 %b) {
entry:
  %k = call ptr @find(i1 %b)
  %none = icmp eq ptr %k, null
  br i1 %none, label %missing, label %have

have:
  %f = getelementptr inbounds i8, ptr %k, i64 24
  %t = load i32, ptr %f
  ret i32 %t

missing:
  ret i32 -1
}

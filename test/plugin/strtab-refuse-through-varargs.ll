; An element address passed to a variadic module-local function: va_arg
; reads it from memory the pass does not follow.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table kw not lowered: an address into it is passed to a variadic function (token)
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            VarArgs
; CHECK:       @kw = internal unnamed_addr constant [2 x %struct.kw]
; CHECK-NOT:   .offsets

%struct.kw = type { ptr, i32 }

@.if = private unnamed_addr constant [3 x i8] c"if\00"
@.do = private unnamed_addr constant [3 x i8] c"do\00"
@kw = internal unnamed_addr constant [2 x %struct.kw] [%struct.kw { ptr @.do, i32 1 }, %struct.kw { ptr @.if, i32 2 }]

define internal i32 @token(i32 %n, ...) {
  ret i32 %n
}

define i32 @give(i64 %i) {
  %e = getelementptr inbounds %struct.kw, ptr @kw, i64 %i
  %t = call i32 (i32, ...) @token(i32 1, ptr %e)
  ret i32 %t
}

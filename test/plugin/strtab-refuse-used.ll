; A table in llvm.compiler.used or llvm.used (__attribute__((used))) must
; be kept as it is: each is left alone with one missed remark.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table tab not lowered: it is in llvm.used or llvm.compiler.used
; REMARK-NEXT: remark: <unknown>:0:0: string table tab2 not lowered: it is in llvm.used or llvm.compiler.used
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            Used
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            Used
; CHECK:       @tab = {{.*}}[2 x ptr] [ptr @.a, ptr @.b]
; CHECK:       @tab2 = {{.*}}[2 x ptr] [ptr @.b, ptr @.a]
; CHECK-NOT:   .offsets

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [2 x ptr] [ptr @.a, ptr @.b]
@llvm.compiler.used = appending global [1 x ptr] [ptr @tab], section "llvm.metadata"
@tab2 = internal unnamed_addr constant [2 x ptr] [ptr @.b, ptr @.a]
@llvm.used = appending global [1 x ptr] [ptr @tab2], section "llvm.metadata"

define ptr @get(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get2(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab2, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

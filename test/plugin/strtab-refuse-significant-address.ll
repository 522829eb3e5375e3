; An entry pointing to a named string constant without unnamed_addr (its
; address is significant: code may compare it with &name) cannot move into
; the blob. As the first entry, too, it is reported, not skipped silently.
; The table is left as it is, with one missed remark naming the reason.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t.yaml

; REMARK:      remark: <unknown>:0:0: string table tab not lowered: an entry points to a string whose address is significant (a named constant without unnamed_addr), which cannot move
; REMARK-NEXT: remark: <unknown>:0:0: string table later not lowered: an entry points to a string whose address is significant (a named constant without unnamed_addr), which cannot move
; REMARK-NOT:  remark:
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            SignificantAddress
; YAML:        --- !Missed
; YAML-NEXT:   Pass:            kiln-strtab
; YAML-NEXT:   Name:            SignificantAddress
; CHECK:       @tab = internal unnamed_addr constant [2 x ptr] [ptr @name, ptr @.b]
; CHECK:       @later = internal unnamed_addr constant [2 x ptr] [ptr @.b, ptr @name]
; CHECK-NOT:   .offsets

@name = internal constant [5 x i8] c"name\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [2 x ptr] [ptr @name, ptr @.b]
@later = internal unnamed_addr constant [2 x ptr] [ptr @.b, ptr @name]

define ptr @get(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define ptr @get_later(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @later, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

define i1 @is_name(ptr %p) {
  %c = icmp eq ptr %p, @name
  ret i1 %c
}

; A table no instruction uses directly, whose element addresses are in
; another global that code reads (SimplifyCFG's switch table of a search
; returning &found[i]): the table is read, so its refusal is reported, at
; the instruction that reads the other global, rather than left silent.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks-missed=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --input-file=%t.ll

; REMARK:      remark: <unknown>:0:0: string table found not lowered: its address escapes (ptrtoint, stored, in an initializer or an operand bundle)
; REMARK-NOT:  remark:
; CHECK:       @found = internal unnamed_addr constant [2 x { ptr, i32 }]
; CHECK-NOT:   .offsets

@.x = private unnamed_addr constant [2 x i8] c"x\00"
@.y = private unnamed_addr constant [2 x i8] c"y\00"
@found = internal unnamed_addr constant [2 x { ptr, i32 }] [{ ptr, i32 } { ptr @.x, i32 1 }, { ptr, i32 } { ptr @.y, i32 2 }]
@switch.table.find = private unnamed_addr constant [2 x ptr] [ptr @found, ptr getelementptr inbounds (i8, ptr @found, i64 16)]

define ptr @find(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @switch.table.find, i64 %i
  %e = load ptr, ptr %p
  ret ptr %e
}

; A loop walking the table by pointer with a variable step and no inbounds:
; the step (8 * %step) may wrap, so the anchor's new steps could not match.
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
; YAML-NEXT:   Function:        walk
; CHECK:       @tab = internal unnamed_addr constant [3 x ptr]
; CHECK-NOT:   .offsets

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [3 x ptr] [ptr @.a, ptr null, ptr @.b]

define i32 @walk(i64 %step) {
entry:
  br label %loop
loop:
  %p = phi ptr [ @tab, %entry ], [ %next, %loop ]
  %n = phi i32 [ 0, %entry ], [ %n.next, %loop ]
  %s = load ptr, ptr %p
  %set = icmp ne ptr %s, null
  %inc = zext i1 %set to i32
  %n.next = add i32 %n, %inc
  %next = getelementptr ptr, ptr %p, i64 %step
  %done = icmp eq ptr %next, getelementptr inbounds (i8, ptr @tab, i64 24)
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %n.next
}

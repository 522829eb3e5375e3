; kiln-inline in the linker's LTO: plain ld.lld takes Kiln's options from
; KILN_OPTIONS; the advisor decides in full LTO's merged module and in each
; ThinLTO backend, and its remarks reach lld's remarks file.
; REQUIRES: x86-registered-target
; RUN: rm -rf %t && mkdir %t
; RUN: llvm-as %s -o %t/full.o
; RUN: env KILN_OPTIONS='-kiln-inline' ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin -mllvm -hot-callsite-threshold=100 \
; RUN:   --opt-remarks-filename %t/full.yaml --opt-remarks-passes kiln-inline --opt-remarks-format yaml \
; RUN:   %t/full.o -o %t/full.so
; RUN: FileCheck %s --input-file=%t/full.yaml
; RUN: opt -module-summary %s -o %t/thin.o
; RUN: env KILN_OPTIONS='-kiln-inline' ld.lld -shared --thinlto-jobs=1 \
; RUN:   --load-pass-plugin=%kiln_plugin -mllvm -hot-callsite-threshold=100 \
; RUN:   --opt-remarks-filename %t/thin.yaml --opt-remarks-passes kiln-inline --opt-remarks-format yaml \
; RUN:   %t/thin.o -o %t/thin.so
; RUN: FileCheck %s --input-file=%t/thin.yaml.thin.1.yaml

; CHECK:      --- !Passed
; CHECK-NEXT: Pass:            kiln-inline
; CHECK-NEXT: Name:            Inlined
; CHECK-NEXT: Function:        main
; CHECK-NEXT: Args:
; CHECK-NEXT:   - Callee:          big1
; CHECK:      --- !Passed
; CHECK:        - Callee:          big2
; CHECK:      --- !Missed
; CHECK:        - Callee:          small

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @main(ptr %p, i1 %c) !prof !20 {
entry:
  %a = call i32 @big1(ptr %p)
  br i1 %c, label %hot, label %cold, !prof !23

hot:
  %b = call i32 @big2(ptr %p)
  %n = call i32 @never(ptr %p)
  %bn = add i32 %b, %n
  br label %exit

cold:
  %s = call i32 @small(ptr %p)
  br label %exit

exit:
  %r = phi i32 [ %bn, %hot ], [ %s, %cold ]
  %t = add i32 %a, %r
  ret i32 %t
}

define i32 @big1(ptr %p) {
  %l0 = load volatile i32, ptr %p
  %s0 = add i32 0, %l0
  %l1 = load volatile i32, ptr %p
  %s1 = add i32 %s0, %l1
  %l2 = load volatile i32, ptr %p
  %s2 = add i32 %s1, %l2
  %l3 = load volatile i32, ptr %p
  %s3 = add i32 %s2, %l3
  %l4 = load volatile i32, ptr %p
  %s4 = add i32 %s3, %l4
  %l5 = load volatile i32, ptr %p
  %s5 = add i32 %s4, %l5
  %l6 = load volatile i32, ptr %p
  %s6 = add i32 %s5, %l6
  %l7 = load volatile i32, ptr %p
  %s7 = add i32 %s6, %l7
  %l8 = load volatile i32, ptr %p
  %s8 = add i32 %s7, %l8
  %l9 = load volatile i32, ptr %p
  %s9 = add i32 %s8, %l9
  %l10 = load volatile i32, ptr %p
  %s10 = add i32 %s9, %l10
  %l11 = load volatile i32, ptr %p
  %s11 = add i32 %s10, %l11
  %l12 = load volatile i32, ptr %p
  %s12 = add i32 %s11, %l12
  %l13 = load volatile i32, ptr %p
  %s13 = add i32 %s12, %l13
  %l14 = load volatile i32, ptr %p
  %s14 = add i32 %s13, %l14
  %l15 = load volatile i32, ptr %p
  %s15 = add i32 %s14, %l15
  %l16 = load volatile i32, ptr %p
  %s16 = add i32 %s15, %l16
  %l17 = load volatile i32, ptr %p
  %s17 = add i32 %s16, %l17
  %l18 = load volatile i32, ptr %p
  %s18 = add i32 %s17, %l18
  %l19 = load volatile i32, ptr %p
  %s19 = add i32 %s18, %l19
  ret i32 %s19
}
define i32 @big2(ptr %p) {
  %l0 = load volatile i32, ptr %p
  %s0 = add i32 0, %l0
  %l1 = load volatile i32, ptr %p
  %s1 = add i32 %s0, %l1
  %l2 = load volatile i32, ptr %p
  %s2 = add i32 %s1, %l2
  %l3 = load volatile i32, ptr %p
  %s3 = add i32 %s2, %l3
  %l4 = load volatile i32, ptr %p
  %s4 = add i32 %s3, %l4
  %l5 = load volatile i32, ptr %p
  %s5 = add i32 %s4, %l5
  %l6 = load volatile i32, ptr %p
  %s6 = add i32 %s5, %l6
  %l7 = load volatile i32, ptr %p
  %s7 = add i32 %s6, %l7
  %l8 = load volatile i32, ptr %p
  %s8 = add i32 %s7, %l8
  %l9 = load volatile i32, ptr %p
  %s9 = add i32 %s8, %l9
  %l10 = load volatile i32, ptr %p
  %s10 = add i32 %s9, %l10
  %l11 = load volatile i32, ptr %p
  %s11 = add i32 %s10, %l11
  %l12 = load volatile i32, ptr %p
  %s12 = add i32 %s11, %l12
  %l13 = load volatile i32, ptr %p
  %s13 = add i32 %s12, %l13
  %l14 = load volatile i32, ptr %p
  %s14 = add i32 %s13, %l14
  %l15 = load volatile i32, ptr %p
  %s15 = add i32 %s14, %l15
  %l16 = load volatile i32, ptr %p
  %s16 = add i32 %s15, %l16
  %l17 = load volatile i32, ptr %p
  %s17 = add i32 %s16, %l17
  %l18 = load volatile i32, ptr %p
  %s18 = add i32 %s17, %l18
  %l19 = load volatile i32, ptr %p
  %s19 = add i32 %s18, %l19
  ret i32 %s19
}
define i32 @never(ptr %p) noinline {
  %l0 = load volatile i32, ptr %p
  %s0 = add i32 0, %l0
  %l1 = load volatile i32, ptr %p
  %s1 = add i32 %s0, %l1
  %l2 = load volatile i32, ptr %p
  %s2 = add i32 %s1, %l2
  %l3 = load volatile i32, ptr %p
  %s3 = add i32 %s2, %l3
  %l4 = load volatile i32, ptr %p
  %s4 = add i32 %s3, %l4
  %l5 = load volatile i32, ptr %p
  %s5 = add i32 %s4, %l5
  %l6 = load volatile i32, ptr %p
  %s6 = add i32 %s5, %l6
  %l7 = load volatile i32, ptr %p
  %s7 = add i32 %s6, %l7
  %l8 = load volatile i32, ptr %p
  %s8 = add i32 %s7, %l8
  %l9 = load volatile i32, ptr %p
  %s9 = add i32 %s8, %l9
  %l10 = load volatile i32, ptr %p
  %s10 = add i32 %s9, %l10
  %l11 = load volatile i32, ptr %p
  %s11 = add i32 %s10, %l11
  %l12 = load volatile i32, ptr %p
  %s12 = add i32 %s11, %l12
  %l13 = load volatile i32, ptr %p
  %s13 = add i32 %s12, %l13
  %l14 = load volatile i32, ptr %p
  %s14 = add i32 %s13, %l14
  %l15 = load volatile i32, ptr %p
  %s15 = add i32 %s14, %l15
  %l16 = load volatile i32, ptr %p
  %s16 = add i32 %s15, %l16
  %l17 = load volatile i32, ptr %p
  %s17 = add i32 %s16, %l17
  %l18 = load volatile i32, ptr %p
  %s18 = add i32 %s17, %l18
  %l19 = load volatile i32, ptr %p
  %s19 = add i32 %s18, %l19
  ret i32 %s19
}
define i32 @small(ptr %p) {
  %l0 = load volatile i32, ptr %p
  %s0 = add i32 0, %l0
  %l1 = load volatile i32, ptr %p
  %s1 = add i32 %s0, %l1
  %l2 = load volatile i32, ptr %p
  %s2 = add i32 %s1, %l2
  %l3 = load volatile i32, ptr %p
  %s3 = add i32 %s2, %l3
  %l4 = load volatile i32, ptr %p
  %s4 = add i32 %s3, %l4
  %l5 = load volatile i32, ptr %p
  %s5 = add i32 %s4, %l5
  %l6 = load volatile i32, ptr %p
  %s6 = add i32 %s5, %l6
  ret i32 %s6
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 10000}
!4 = !{!"MaxCount", i64 2000}
!5 = !{!"MaxInternalCount", i64 2000}
!6 = !{!"MaxFunctionCount", i64 2000}
!7 = !{!"NumCounts", i64 8}
!8 = !{!"NumFunctions", i64 5}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12}
!11 = !{i32 990000, i64 1000, i32 1}
!12 = !{i32 999999, i64 1, i32 3}
!20 = !{!"function_entry_count", i64 2000}
!21 = !{!"function_entry_count", i64 2000}
!23 = !{!"branch_weights", i32 1999, i32 1}

; kiln-inline's growth budget: the callee instructions it may inline per
; module beyond the default's decisions. big1 and big2 have 41 instructions
; each; a budget of 50 takes big1 (the first hot call site), then refuses
; big2 and says why. A budget of 0 inlines nothing more, and cold call sites
; are still refused. noinline is respected whatever the profile says.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -kiln-inline-budget=50 \
; RUN:   -hot-callsite-threshold=100 -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks=kiln-inline -pass-remarks-missed=kiln-inline \
; RUN:   -S %s -o %t/fifty.ll 2> %t/fifty.txt
; RUN: FileCheck %s --check-prefix=FIFTY --input-file=%t/fifty.ll
; RUN: FileCheck %s --check-prefix=FIFTY-REMARK --input-file=%t/fifty.txt
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -kiln-inline-budget=0 \
; RUN:   -hot-callsite-threshold=100 -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks=kiln-inline -pass-remarks-missed=kiln-inline \
; RUN:   -S %s -o %t/zero.ll 2> %t/zero.txt
; RUN: FileCheck %s --check-prefix=ZERO --input-file=%t/zero.ll
; RUN: FileCheck %s --check-prefix=ZERO-REMARK --input-file=%t/zero.txt
;
; A hot-cost threshold below the callees' cost leaves them to the default.
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -kiln-inline-hot-threshold=10 \
; RUN:   -hot-callsite-threshold=100 -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks=kiln-inline -S %s -o %t/low.ll 2> %t/low.txt
; RUN: FileCheck %s --check-prefix=ZERO --input-file=%t/low.ll
; RUN: FileCheck %s --check-prefix=LOW-REMARK --allow-empty --input-file=%t/low.txt

; FIFTY-LABEL: define i32 @main(
; FIFTY-NOT:   call i32 @big1(
; FIFTY:       call i32 @big2(
; FIFTY:       call i32 @never(
; FIFTY:       call i32 @small(

; FIFTY-REMARK:     remark: <unknown>:0:0: big1 inlined into main: hot call site (count 2000, hot threshold 1000), cost {{[0-9]+}} <= 300, budget left 9 instructions
; FIFTY-REMARK:     remark: <unknown>:0:0: big2 not inlined into main: hot call site (count 1999, hot threshold 1000), cost {{[0-9]+}} <= 300, but the growth budget is exhausted: 41 instructions needed, budget left 9 instructions
; FIFTY-REMARK-NOT: never

; ZERO-LABEL: define i32 @main(
; ZERO:       call i32 @big1(
; ZERO:       call i32 @big2(
; ZERO:       call i32 @never(
; ZERO:       call i32 @small(

; ZERO-REMARK-DAG: remark: <unknown>:0:0: big1 not inlined into main: {{.*}}growth budget is exhausted: 41 instructions needed, budget left 0 instructions
; ZERO-REMARK-DAG: remark: <unknown>:0:0: small not inlined into main: cold call site
; ZERO-REMARK-DAG: remark: <unknown>:0:0: big2 not inlined into main: {{.*}}growth budget is exhausted: 41 instructions needed, budget left 0 instructions

; LOW-REMARK-NOT: big1
; LOW-REMARK-NOT: big2

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

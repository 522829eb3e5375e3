; kiln-inline corrects LLVM's default inliner from the profile: the hot call
; sites to big1 and big2, which the default refuses as too costly (the hot
; call-site threshold is lowered to 100 so that small callees show it), are
; inlined, within the growth budget; the cold call site to small, which the
; default inlines (cost 30 <= cold threshold 45), is refused, while the
; cold alwaysinline and free (cost <= 0) callees, and hotsmall, a callee the
; profile shows hot, are still inlined; the noinline callee stays a call. Hot means count >= 1000, cold <= 1 in this
; summary.
; The stand-alone cgscc(inline) pass never asks a plugin advisor, so the
; tests run the inliner as the default pipelines do (inliner-wrapper, with
; the profile summary computed first).
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks=kiln-inline -pass-remarks-missed=kiln-inline \
; RUN:   -S %s -o %t/kiln.ll 2> %t/kiln.txt
; RUN: FileCheck %s --input-file=%t/kiln.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/kiln.txt
;
; The remarks as YAML carry the numbers as arguments.
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks-output=%t/kiln.yaml -pass-remarks-filter=kiln-inline \
; RUN:   -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t/kiln.yaml
;
; The module inliner asks the same advisor.
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,module-inline' -S %s -o %t/module.ll
; RUN: FileCheck %s --input-file=%t/module.ll
;
; A stand-alone cgscc(inline) makes its own default advisor: -kiln-inline
; changes nothing there (a limit of LLVM's plugin-advisor mechanism).
; RUN: opt -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,cgscc(inline)' -S %s -o %t/cgscc-ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,cgscc(inline)' -S %s -o %t/cgscc.ll
; RUN: cmp %t/cgscc-ref.ll %t/cgscc.ll
;
; Without -kiln-inline the loaded plugin changes nothing: the default
; advisor inlines small and refuses big1 and big2.
; RUN: opt -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' -S %s -o %t/ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' -S %s -o %t/loaded.ll
; RUN: cmp %t/ref.ll %t/loaded.ll
; RUN: FileCheck %s --check-prefix=DEFAULT --input-file=%t/ref.ll

; CHECK-LABEL: define i32 @main(
; CHECK-NOT:   call i32 @big1(
; CHECK-NOT:   call i32 @big2(
; CHECK:       call i32 @never(
; CHECK:       call i32 @small(
; CHECK-NOT:   call i32 @always(
; CHECK-NOT:   call i32 @tiny(
; CHECK-NOT:   call i32 @hotsmall(
; CHECK-LABEL: define i32 @big1(

; REMARK:      remark: <unknown>:0:0: big1 inlined into main: hot call site (count 2000, hot threshold 1000), cost {{[0-9]+}} <= 300, budget left 3959 instructions
; REMARK:      remark: <unknown>:0:0: big2 inlined into main: hot call site (count 1999, hot threshold 1000), cost {{[0-9]+}} <= 300, budget left {{[0-9]+}} instructions
; REMARK:      remark: <unknown>:0:0: small not inlined into main: cold call site (count 1, cold threshold 1), cost 30 > 0, budget left {{[0-9]+}} instructions
; REMARK-NOT:  never
; REMARK-NOT:  always
; REMARK-NOT:  tiny
; REMARK-NOT:  hotsmall

; YAML:      --- !Passed
; YAML-NEXT: Pass:            kiln-inline
; YAML-NEXT: Name:            Inlined
; YAML-NEXT: Function:        main
; YAML-NEXT: Args:
; YAML-NEXT:   - Callee:          big1
; YAML:        - Count:           '2000'
; YAML:        - HotThreshold:    '1000'
; YAML:        - Cost:
; YAML:        - CostThreshold:   '300'
; YAML:        - BudgetLeft:
; YAML:      --- !Missed
; YAML-NEXT: Pass:            kiln-inline
; YAML-NEXT: Name:            NotInlined
; YAML-NEXT: Function:        main
; YAML-NEXT: Args:
; YAML-NEXT:   - Callee:          small
; YAML:        - ColdThreshold:   '1'

; DEFAULT-LABEL: define i32 @main(
; DEFAULT:       call i32 @big1(
; DEFAULT:       call i32 @big2(
; DEFAULT:       call i32 @never(
; DEFAULT-NOT:   call i32 @small(
; DEFAULT-LABEL: define i32 @big1(

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
  %s0 = call i32 @small(ptr %p)
  %w = call i32 @always(ptr %p)
  %t0 = call i32 @tiny(i32 %w)
  %h0 = call i32 @hotsmall(ptr %p)
  %st = add i32 %s0, %t0
  %s = add i32 %st, %h0
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

; hotsmall is small's twin that the profile shows hot (entry count 2000):
; called from a cold site, it keeps the default's decision, since work the
; training did not cover may well run that site.
define i32 @hotsmall(ptr %p) !prof !21 {
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

; Cold call sites Kiln leaves to the default: alwaysinline, and a callee whose
; inlining costs nothing.
define i32 @always(ptr %p) alwaysinline {
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

define i32 @tiny(i32 %x) {
  ret i32 %x
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

; Without a profile summary kiln-inline leaves every decision to LLVM's
; default advisor: the output is byte-identical to a run without
; -kiln-inline, and one analysis remark says why.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' -S %s -o %t/ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -hot-callsite-threshold=100 \
; RUN:   -passes='require<profile-summary>,inliner-wrapper' \
; RUN:   -pass-remarks=kiln-inline -pass-remarks-missed=kiln-inline \
; RUN:   -pass-remarks-analysis=kiln-inline -S %s -o %t/kiln.ll 2> %t/kiln.txt
; RUN: cmp %t/ref.ll %t/kiln.ll
; RUN: FileCheck %s --input-file=%t/kiln.txt
;
; The same through the whole -O2 pipeline.
; RUN: opt -passes='default<O2>' -S %s -o %t/ref-o2.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-inline -passes='default<O2>' \
; RUN:   -S %s -o %t/kiln-o2.ll
; RUN: cmp %t/ref-o2.ll %t/kiln-o2.ll

; CHECK:     remark: <unknown>:0:0: module has no profile summary: kiln-inline leaves every inlining decision to LLVM's default advisor
; CHECK-NOT: remark:

define i32 @main(ptr %p, i1 %c) {
entry:
  %a = call i32 @big1(ptr %p)
  br i1 %c, label %hot, label %cold

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

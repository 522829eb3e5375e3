; The plugin loads into opt, its analysis is reachable by name, and the
; printer shows each defined function's entry count and temperature from the
; module's profile summary.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='print<kiln-function-profile>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -load-pass-plugin=%kiln_plugin \
; RUN:   -passes='require<kiln-function-profile>,invalidate<kiln-function-profile>' \
; RUN:   -disable-output %s 2>&1 | count 0

; CHECK:      kiln-function-profile: module '{{.*}}opt-function-profile.ll' summary=instr
; CHECK-NEXT:   hot: entry=5000 temperature=hot blocks=1 insts=1
; CHECK-NEXT:   warm: entry=100 temperature=warm blocks=1 insts=1
; CHECK-NEXT:   cold: entry=1 temperature=cold blocks=2 insts=2
; CHECK-NEXT:   unprofiled: entry=- temperature=unknown blocks=1 insts=1
; CHECK-NOT:  external

define void @hot() !prof !20 { ret void }
define void @warm() !prof !21 { ret void }
define void @cold() !prof !22 {
entry:
  br label %exit
exit:
  ret void
}
define void @unprofiled() { ret void }
declare void @external()

!llvm.module.flags = !{!1}
!1 = !{i32 1, !"ProfileSummary", !2}
!2 = !{!3, !4, !5, !6, !7, !8, !9, !10}
!3 = !{!"ProfileFormat", !"InstrProf"}
!4 = !{!"TotalCount", i64 10000}
!5 = !{!"MaxCount", i64 5000}
!6 = !{!"MaxInternalCount", i64 5000}
!7 = !{!"MaxFunctionCount", i64 5000}
!8 = !{!"NumCounts", i64 4}
!9 = !{!"NumFunctions", i64 4}
!10 = !{!"DetailedSummary", !11}
!11 = !{!12, !13, !14}
!12 = !{i32 10000, i64 5000, i32 1}
!13 = !{i32 990000, i64 1000, i32 1}
!14 = !{i32 999999, i64 10, i32 3}
!20 = !{!"function_entry_count", i64 5000}
!21 = !{!"function_entry_count", i64 100}
!22 = !{!"function_entry_count", i64 1}

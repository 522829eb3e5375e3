; Indirect calls: every target of the value profile becomes an edge, the
; ninth too (CGProfilePass reads the first 8: CGPROFILE), targets the module
; does not know (hash 12345) are dropped, and a pair reached both directly
; (a promoted call) and indirectly is one edge with both counts. Calls to
; dllimport functions go through a pointer the linker cannot order, and are
; left out as CGProfilePass leaves them out.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='print<kiln-callgraph>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -passes=cg-profile -S %s | FileCheck %s --check-prefix=CGPROFILE

; CHECK:      kiln-callgraph: module '{{.*}}' functions=11 edges=9
; CHECK:        edge dispatch -> t1: count=954 direct=855 indirect=99
; CHECK-NEXT:   edge dispatch -> t2: count=98 direct=0 indirect=98
; CHECK-NEXT:   edge dispatch -> t3: count=97 direct=0 indirect=97
; CHECK-NEXT:   edge dispatch -> t4: count=96 direct=0 indirect=96
; CHECK-NEXT:   edge dispatch -> t5: count=95 direct=0 indirect=95
; CHECK-NEXT:   edge dispatch -> t6: count=94 direct=0 indirect=94
; CHECK-NEXT:   edge dispatch -> t7: count=93 direct=0 indirect=93
; CHECK-NEXT:   edge dispatch -> t8: count=92 direct=0 indirect=92
; CHECK-NEXT:   edge dispatch -> t9: count=91 direct=0 indirect=91
; CHECK-NOT:  edge

; CGPROFILE:     !{ptr @dispatch, ptr @t8, i64 92}
; CGPROFILE-NOT: ptr @t9

define void @dispatch(ptr %fp) !prof !0 {
  call void @t1()
  call void %fp(), !prof !1
  call void @imported()
  ret void
}

declare void @t1()
declare void @t2()
declare void @t3()
declare void @t4()
declare void @t5()
declare void @t6()
declare void @t7()
declare void @t8()
declare void @t9()
declare dllimport void @imported()

!0 = !{!"function_entry_count", i64 855}
; MD5 of the names t1 ... t9, each with its count, then an unknown one.
!1 = !{!"VP", i32 0, i64 860, i64 17585337845215916419, i64 99, i64 11079814748834529807, i64 98, i64 14314392591860533259, i64 97, i64 8059958135287337232, i64 96, i64 15988743726059233759, i64 95, i64 6586081056788216999, i64 94, i64 9702606092171773238, i64 93, i64 16022645799910578771, i64 92, i64 359734211862001282, i64 91, i64 12345, i64 5}

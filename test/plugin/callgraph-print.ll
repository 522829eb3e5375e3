; print<kiln-callgraph> shows the weighted call graph the profile metadata
; gives: one line per function (declarations too) and one per merged edge,
; sorted by caller then callee. Direct calls weigh their block's count (BFI
; relative to the entry, times the entry count: @work's rare call to @ext
; runs 10 times of 1000); the indirect call contributes its value-profile
; targets, resolved through their PGO names (`cg.c;handler_a` for the local
; one). Intrinsics are no calls in the object and do not appear. The edges
; equal those of LLVM's own cg-profile pass on the same IR (CGPROFILE).
; REQUIRES: x86-registered-target
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='print<kiln-callgraph>' \
; RUN:   -disable-output %s 2>&1 | FileCheck %s
; RUN: opt -passes=cg-profile -S %s | FileCheck %s --check-prefix=CGPROFILE
;
; The analysis is registered by name, and printing it twice prints the same.
; RUN: opt -load-pass-plugin=%kiln_plugin \
; RUN:   -passes='require<kiln-callgraph>,invalidate<kiln-callgraph>' \
; RUN:   -disable-output %s 2>&1 | count 0
; RUN: opt -load-pass-plugin=%kiln_plugin \
; RUN:   -passes='print<kiln-callgraph>,print<kiln-callgraph>' -disable-output \
; RUN:   %s 2>&1 | FileCheck %s --check-prefix=TWICE

; CHECK:      kiln-callgraph: module '{{.*}}callgraph-print.ll' functions=8 edges=7
; CHECK-NEXT:   function main: entry=1 size=10
; CHECK-NEXT:   function init: entry=1 size=2
; CHECK-NEXT:   function work: entry=1000 size=5
; CHECK-NEXT:   function handler_a: entry=700 size=1
; CHECK-NEXT:   function handler_b: entry=300 size=1
; CHECK-NEXT:   function unprofiled: entry=- size=2
; CHECK-NEXT:   function cond: declaration
; CHECK-NEXT:   function ext: declaration
; CHECK-NEXT:   edge init -> ext: count=1 direct=1 indirect=0
; CHECK-NEXT:   edge main -> handler_a: count=700 direct=0 indirect=700
; CHECK-NEXT:   edge main -> handler_b: count=300 direct=0 indirect=300
; CHECK-NEXT:   edge main -> init: count=1 direct=1 indirect=0
; CHECK-NEXT:   edge main -> work: count=1000 direct=1000 indirect=0
; CHECK-NEXT:   edge work -> cond: count=1000 direct=1000 indirect=0
; CHECK-NEXT:   edge work -> ext: count=10 direct=10 indirect=0
; CHECK-NOT:  {{.}}

; CGPROFILE:      !{ptr @main, ptr @init, i64 1}
; CGPROFILE-NEXT: !{ptr @main, ptr @work, i64 1000}
; CGPROFILE-NEXT: !{ptr @main, ptr @handler_a, i64 700}
; CGPROFILE-NEXT: !{ptr @main, ptr @handler_b, i64 300}
; CGPROFILE-NEXT: !{ptr @init, ptr @ext, i64 1}
; CGPROFILE-NEXT: !{ptr @work, ptr @cond, i64 1000}
; CGPROFILE-NEXT: !{ptr @work, ptr @ext, i64 10}

; TWICE-COUNT-2: kiln-callgraph: module

source_filename = "cg.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@handler = global ptr @handler_a

; Called once; calls @work 1000 times, and 1000 times through @handler.
define void @main() !prof !20 {
entry:
  call void @init()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  call void @work()
  %fp = load ptr, ptr @handler
  call void %fp(), !prof !30
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 1000
  br i1 %done, label %exit, label %loop, !prof !21
exit:
  call void @llvm.donothing()
  ret void
}

define void @init() !prof !20 {
  call void @ext()
  ret void
}

; Takes the rare branch 10 times in 1000.
define void @work() !prof !22 {
entry:
  %c = call i1 @cond()
  br i1 %c, label %rare, label %common, !prof !23
rare:
  call void @ext()
  br label %common
common:
  ret void
}

define internal void @handler_a() !prof !24 { ret void }
define void @handler_b() !prof !25 { ret void }

; No entry count: a node, but its calls have no weight.
define void @unprofiled() {
  call void @ext()
  ret void
}

declare i1 @cond()
declare void @ext()
declare void @llvm.donothing()

!20 = !{!"function_entry_count", i64 1}
!21 = !{!"branch_weights", i32 1, i32 999}
!22 = !{!"function_entry_count", i64 1000}
!23 = !{!"branch_weights", i32 10, i32 990}
!24 = !{!"function_entry_count", i64 700}
!25 = !{!"function_entry_count", i64 300}
; MD5 of "cg.c;handler_a" and of "handler_b".
!30 = !{!"VP", i32 0, i64 1000, i64 17388020660033797449, i64 700, i64 15359705068410131518, i64 300}

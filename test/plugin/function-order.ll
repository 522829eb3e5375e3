; kiln-function-order reorders a (full-LTO) module by Kiln's layout of its
; profile: startup functions first, then hot code by call locality, warm,
; and cold last; it writes the order and drops the 'CG Profile' flag it used.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -pass-remarks=kiln-function-order -kiln-function-order-out=%t/order.txt \
; RUN:   -S %s -o %t/out.ll 2> %t/remarks.txt
; RUN: FileCheck %s --input-file=%t/out.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/remarks.txt
; RUN: FileCheck %s --check-prefix=ORDER --input-file=%t/order.txt
;
; A startup list puts its functions first, in its order.
; RUN: printf 'init\n# comment\nmain\n' > %t/startup.txt
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -kiln-startup-functions=%t/startup.txt -S %s -o - \
; RUN:   | FileCheck %s --check-prefix=STARTUP
;
; Refusals: no profile at all, an unreadable startup list, a bad page size.
; RUN: sed -e '/function_entry_count/d' -e 's/,\{0,1\} !prof ![0-9]*//' %s > %t/noprof.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -pass-remarks-missed=kiln-function-order -S %t/noprof.ll -o %t/noprof.out.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOPROF
; RUN: opt -S %t/noprof.ll -o %t/noprof.ref.ll
; RUN: diff %t/noprof.ref.ll %t/noprof.out.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -kiln-startup-functions=%t/missing.txt -S %s -o %t/nolist.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=NOLIST
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -kiln-layout-page-size=3000 -S %s -o %t/badpage.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BADPAGE
;
; -kiln-strict makes unusable input an error.
; RUN: not opt -load-pass-plugin=%kiln_plugin -passes=kiln-function-order \
; RUN:   -kiln-strict -kiln-startup-functions=%t/missing.txt -S %s -o /dev/null 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STRICT
; RUN: opt -S %s -o %t/ref.ll
; RUN: diff %t/ref.ll %t/nolist.ll
; RUN: diff %t/ref.ll %t/badpage.ll

; The hot caller and its hot callee together, warm init next, cold last.
; CHECK:      define i32 @main()
; CHECK-NEXT: call void @init()
; CHECK:      define i32 @leaf(
; CHECK:      define void @init()
; CHECK:      define void @cold_a()
; CHECK-NOT:  CG Profile

; REMARK: remark: <unknown>:0:0: ordered 3 functions: 0 startup, 2 hot, 1 warm, 1 cold (cold code stays last, in module order); removed the 'CG Profile' module flag so that the linker's call-graph sort keeps this order

; ORDER:      # Kiln function order of the full-LTO module
; ORDER-NEXT: {{^}}main{{$}}
; ORDER-NEXT: leaf
; ORDER-NEXT: init
; ORDER-NOT:  cold_a

; STARTUP:      define void @init()
; STARTUP:      define i32 @main()
; STARTUP:      define i32 @leaf(
; STARTUP:      define void @cold_a()

; NOPROF: remark: <unknown>:0:0: module not reordered: no function has an entry count or is a startup function
; NOLIST: warning: kiln-function-order: cannot read the startup function list '{{.*}}missing.txt': {{.*}}; no function is placed
; STRICT: error: kiln-function-order: cannot read the startup function list
; BADPAGE: warning: kiln-function-order: -kiln-layout-page-size=3000 is not a power of two; the module is not reordered

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @cold_a() !prof !20 {
  ret void
}

define i32 @leaf(i32 %x) !prof !21 {
  %r = add i32 %x, 1
  ret i32 %r
}

define void @init() !prof !22 {
  ret void
}

define i32 @main() !prof !22 {
  call void @init()
  br label %loop
loop:
  %i = phi i32 [ 0, %0 ], [ %n, %loop ]
  %v = call i32 @leaf(i32 %i)
  %n = add i32 %i, 1
  %c = icmp slt i32 %n, 1000
  br i1 %c, label %loop, label %exit, !prof !23
exit:
  ret i32 %v
}

!llvm.module.flags = !{!0, !30}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 1002}
!4 = !{!"MaxCount", i64 1000}
!5 = !{!"MaxInternalCount", i64 1}
!6 = !{!"MaxFunctionCount", i64 1000}
!7 = !{!"NumCounts", i64 4}
!8 = !{!"NumFunctions", i64 4}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12}
!11 = !{i32 990000, i64 1000, i32 1}
!12 = !{i32 999999, i64 1, i32 3}
!20 = !{!"function_entry_count", i64 0}
!21 = !{!"function_entry_count", i64 1000}
!22 = !{!"function_entry_count", i64 1}
!23 = !{!"branch_weights", i32 999, i32 1}
!30 = !{i32 5, !"CG Profile", !31}
!31 = !{!32}
!32 = !{ptr @main, ptr @leaf, i64 1000}

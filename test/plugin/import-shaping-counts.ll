; kiln-import-shaping supplies the entry count of a local function that has
; none when the module proves it: every use is a direct call from a function
; with an entry count, so the function is entered as often as those calls
; run. Without an entry count the summary drops the hotness of the function's
; own calls; with the supplied one they are hot (and marked critical) or
; cold. Counts the module cannot prove are left missing, and an entry count
; below the calls the module makes is reported, not changed. Hot means
; count >= 1000, cold <= 1 in this summary.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-import-shaping \
; RUN:   -pass-remarks=kiln-import-shaping -pass-remarks-analysis=kiln-import-shaping \
; RUN:   --thinlto-bc %s -o %t/kiln.bc 2> %t/kiln.txt
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/kiln.txt \
; RUN:   --implicit-check-not=remark: --implicit-check-not=warning:
; RUN: llvm-dis %t/kiln.bc -o %t/kiln.ll
; RUN: FileCheck %s --check-prefixes=CHECK,KILN --input-file=%t/kiln.ll
; RUN: FileCheck %s --check-prefix=IR --input-file=%t/kiln.ll
; RUN: opt --thinlto-bc %s -o %t/stock.bc
; RUN: llvm-dis %t/stock.bc -o - | FileCheck %s --check-prefixes=CHECK,STOCK

; REMARK:      remark: <unknown>:0:0: entry count 3000 supplied to helper: all its 2 call sites are in profiled functions of this module
; REMARK-NEXT: remark: <unknown>:0:0: entry count 0 supplied to unused_path: all its 1 call sites are in profiled functions of this module
;; Supplied in a second round: its caller, helper, had no count in the first.
; REMARK-NEXT: remark: <unknown>:0:0: entry count 3000 supplied to leaf_helper: all its 1 call sites are in profiled functions of this module
; REMARK-NEXT: remark: <unknown>:0:0: entry count 1 of low_count is below the 2000 calls its 1 call sites in this module make; left as is
; REMARK-NEXT: remark: <unknown>:0:0: ext_a marked for import into helper: hot call site (count 3000, hot threshold 1000), critical edge
; REMARK-NEXT: remark: <unknown>:0:0: ext_b stays out of import into unused_path: cold call sites (count 0, cold threshold 1), a cold edge the importer does not take
; REMARK-NEXT: remark: <unknown>:0:0: ext_c marked for import into leaf_helper: hot call site (count 3000, hot threshold 1000), critical edge
;; low_count's own (inconsistent) entry count still decides for its calls.
; REMARK-NEXT: remark: <unknown>:0:0: ext_d stays out of import into low_count: cold call sites (count 1, cold threshold 1), a cold edge the importer does not take
; REMARK-NEXT: remark: <unknown>:0:0: address_taken has no entry count: the summary records its calls without hotness
; REMARK-NEXT: remark: <unknown>:0:0: recursive has no entry count: the summary records its calls without hotness
; REMARK-NEXT: remark: <unknown>:0:0: exported has no entry count: the summary records its calls without hotness
; REMARK-NEXT: remark: <unknown>:0:0: from_unprofiled has no entry count: the summary records its calls without hotness
; REMARK-NEXT: remark: <unknown>:0:0: unprofiled_caller has no entry count: the summary records its calls without hotness

;; The profile metadata: counts supplied, low_count's left as it was. The
;; import lists hold the GUIDs of ext_a (9237488605184534231) and ext_c
;; (9486781260523487933), which the IR prints as signed i64.
; IR-DAG: define internal i32 @helper(i32 %x) !prof ![[HELPER:[0-9]+]]
; IR-DAG: define internal i32 @unused_path(i32 %x) !prof ![[UNUSED:[0-9]+]]
; IR-DAG: define internal i32 @leaf_helper(i32 %x) !prof ![[LEAF:[0-9]+]]
; IR-DAG: define internal i32 @low_count(i32 %x) !prof ![[LOW:[0-9]+]]
; IR-DAG: define internal i32 @address_taken(i32 %x) {
; IR-DAG: define internal i32 @recursive(i32 %x) {
; IR-DAG: define i32 @exported(i32 %x) {
; IR-DAG: define internal i32 @from_unprofiled(i32 %x) {
; IR-DAG: ![[HELPER]] = !{!"function_entry_count", i64 3000, i64 -9209255468525017385}
; IR-DAG: ![[UNUSED]] = !{!"function_entry_count", i64 0}
; IR-DAG: ![[LEAF]] = !{!"function_entry_count", i64 3000, i64 -8959962813186063683}
; IR-DAG: ![[LOW]] = !{!"function_entry_count", i64 1}

;; Stock: no hotness for the calls of a function without an entry count.
; KILN-DAG:  gv: (name: "helper", {{.*}} calls: ((callee: ^{{[0-9]+}}, hotness: critical), (callee: ^{{[0-9]+}}, hotness: hot))))) ;
; STOCK-DAG: gv: (name: "helper", {{.*}} calls: ((callee: ^{{[0-9]+}}), (callee: ^{{[0-9]+}}))))) ;
; KILN-DAG:  gv: (name: "unused_path", {{.*}} calls: ((callee: ^{{[0-9]+}}, hotness: cold))))) ;
; STOCK-DAG: gv: (name: "unused_path", {{.*}} calls: ((callee: ^{{[0-9]+}}))))) ;
; KILN-DAG:  gv: (name: "leaf_helper", {{.*}} calls: ((callee: ^{{[0-9]+}}, hotness: critical))))) ;
; STOCK-DAG: gv: (name: "leaf_helper", {{.*}} calls: ((callee: ^{{[0-9]+}}))))) ;
; CHECK-DAG: gv: (name: "exported", {{.*}} calls: ((callee: ^{{[0-9]+}}))))) ;

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@table = global ptr @address_taken

declare i32 @ext_a(i32)
declare i32 @ext_b(i32)
declare i32 @ext_c(i32)
declare i32 @ext_d(i32)

; Called from main (2000) and from busy (1000), nowhere else.
define internal i32 @helper(i32 %x) {
  %a = call i32 @ext_a(i32 %x)
  %b = call i32 @leaf_helper(i32 %a)
  ret i32 %b
}

; Called only from a block of main that never ran.
define internal i32 @unused_path(i32 %x) {
  %b = call i32 @ext_b(i32 %x)
  ret i32 %b
}

; Called only from helper, which has no count until the pass supplies it.
define internal i32 @leaf_helper(i32 %x) {
  %c = call i32 @ext_c(i32 %x)
  ret i32 %c
}

; Entered once by its counter, called 2000 times by main's block counts.
define internal i32 @low_count(i32 %x) !prof !22 {
  %d = call i32 @ext_d(i32 %x)
  ret i32 %d
}

; Its address is stored in @table: entries the module cannot count.
define internal i32 @address_taken(i32 %x) {
  %d = call i32 @ext_d(i32 %x)
  ret i32 %d
}

; Calls itself, so one of its callers never has a count.
define internal i32 @recursive(i32 %x) {
  %c = icmp eq i32 %x, 0
  br i1 %c, label %done, label %again
again:
  %y = sub i32 %x, 1
  %r = call i32 @recursive(i32 %y)
  br label %done
done:
  %v = phi i32 [ 0, %0 ], [ %r, %again ]
  ret i32 %v
}

; External: other modules may call it too.
define i32 @exported(i32 %x) {
  %d = call i32 @ext_d(i32 %x)
  ret i32 %d
}

; Its only caller has no entry count itself.
define internal i32 @from_unprofiled(i32 %x) {
  ret i32 %x
}

define i32 @unprofiled_caller(i32 %x) {
  %r = call i32 @from_unprofiled(i32 %x)
  ret i32 %r
}

define i32 @main(i32 %x) !prof !20 {
entry:
  %h = call i32 @helper(i32 %x)
  %l = call i32 @low_count(i32 %h)
  %e = call i32 @exported(i32 %l)
  %r = call i32 @recursive(i32 %e)
  %z = icmp eq i32 %r, 0
  br i1 %z, label %rare, label %exit, !prof !23
rare:
  %u = call i32 @unused_path(i32 %r)
  br label %exit
exit:
  %p = phi i32 [ %r, %entry ], [ %u, %rare ]
  ret i32 %p
}

define i32 @busy(i32 %x) !prof !21 {
  %h = call i32 @helper(i32 %x)
  ret i32 %h
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
!11 = !{i32 990000, i64 1000, i32 3}
!12 = !{i32 999999, i64 1, i32 5}
!20 = !{!"function_entry_count", i64 2000}
!21 = !{!"function_entry_count", i64 1000}
!22 = !{!"function_entry_count", i64 1}
!23 = !{!"branch_weights", i32 0, i32 2000}

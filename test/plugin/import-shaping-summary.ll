; kiln-import-shaping marks the hot cross-module call edges of the ThinLTO
; summary as critical, through the caller's import list (the GUIDs after the
; count in its function_entry_count), the one way LLVM 22's summary builder
; makes a critical edge; every refusal is a missed remark and cold edges are
; reported, not changed. Hot means count >= 1000, cold <= 1 in this summary.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-import-shaping \
; RUN:   -pass-remarks=kiln-import-shaping -pass-remarks-missed=kiln-import-shaping \
; RUN:   -pass-remarks-analysis=kiln-import-shaping \
; RUN:   --thinlto-bc %s -o %t/kiln.bc 2> %t/kiln.txt
; RUN: llvm-dis %t/kiln.bc -o - | FileCheck %s --check-prefixes=CHECK,KILN
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/kiln.txt \
; RUN:   --implicit-check-not=remark: --implicit-check-not=warning:
;
; Without the pass the same edges are only hot (the summary records the
; hotness of each call's block count).
; RUN: opt --thinlto-bc %s -o %t/stock.bc
; RUN: llvm-dis %t/stock.bc -o - | FileCheck %s --check-prefixes=CHECK,STOCK
;
; The remarks as YAML carry the counts as arguments.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-import-shaping \
; RUN:   -pass-remarks-output=%t/kiln.yaml -disable-output %s
; RUN: FileCheck %s --check-prefix=YAML --input-file=%t/kiln.yaml
;
; -kiln-import-critical-cutoff=900000 asks for the count of the summary's
; 90% cutoff (5000): only busy's call to ext_very_hot (6000) reaches it.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-import-shaping \
; RUN:   -kiln-import-critical-cutoff=900000 -pass-remarks=kiln-import-shaping \
; RUN:   -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=CUTOFF --implicit-check-not=remark:
;
; A cutoff beyond the summary's last entry cannot be answered: a warning, and
; the bitcode is the stock one.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-import-shaping \
; RUN:   -kiln-import-critical-cutoff=1000000 --thinlto-bc %s -o %t/bad-cutoff.bc \
; RUN:   2>&1 | FileCheck %s --check-prefix=BAD-CUTOFF
; RUN: cmp %t/stock.bc %t/bad-cutoff.bc

;; llvm-dis lists the summary's entries by GUID; the numbers are captured
;; where they first appear.
; CHECK:      gv: (name: "spread", {{.*}} calls: ((callee: ^[[EXT_VTARGET:[0-9]+]], hotness: hot), (callee: ^[[EXT_SPREAD:[0-9]+]], hotness: hot))))) ;
; CHECK-NEXT: ^[[STRLEN:[0-9]+]] = gv: (name: "strlen")
; CHECK-NEXT: ^[[EXT_SPREAD]] = gv: (guid: 3526342565314271212)
; CHECK-NEXT: gv: (name: "never", {{.*}} calls: ((callee: ^[[EXT_HOT:[0-9]+]], hotness: cold))))) ;
; CHECK-NEXT: ^[[EXT_SIZED:[0-9]+]] = gv: (name: "ext_sized")
; CHECK-NEXT: ^[[EXT_COLD:[0-9]+]] = gv: (name: "ext_cold")
; CHECK-NEXT: ^[[HERE_HOT:[0-9]+]] = gv: (name: "here_hot", summaries:
; CHECK-NEXT: ^[[EXT_VERY_HOT:[0-9]+]] = gv: (name: "ext_very_hot")
; CHECK-NEXT: ^[[EXT_NOINLINE_DECL:[0-9]+]] = gv: (name: "ext_noinline_decl")
; CHECK-NEXT: ^[[EXT_HOT]] = gv: (name: "ext_hot")
; CHECK-NEXT: ^[[EXT_WARM:[0-9]+]] = gv: (name: "ext_warm")
; CHECK-NEXT: ^[[EXT_NOINLINE_SITE:[0-9]+]] = gv: (name: "ext_noinline_site")
; CHECK-NEXT: ^[[EXT_VTARGET]] = gv: (guid: 10724711285577877757)
;; optsize: the inliner gives no hot threshold there, the edge stays hot.
; CHECK-NEXT: gv: (name: "sized", {{.*}} calls: ((callee: ^[[EXT_SIZED]], hotness: hot))))) ;
;; A hot indirect-call target in a function entered 0 times: contradictory,
;; left hot.
; CHECK-NEXT: gv: (name: "zero_vp", {{.*}} calls: ((callee: ^[[EXT_VTARGET]], hotness: hot))))) ;
; KILN-NEXT:  gv: (name: "main", {{.*}} calls: ((callee: ^[[EXT_HOT]], hotness: critical), (callee: ^[[HERE_HOT]], hotness: hot), (callee: ^[[EXT_NOINLINE_SITE]], hotness: hot), (callee: ^[[EXT_NOINLINE_DECL]], hotness: hot), (callee: ^[[STRLEN]], hotness: hot), (callee: ^[[EXT_VTARGET]], hotness: critical), (callee: ^[[EXT_COLD]], hotness: cold), (callee: ^[[EXT_WARM]], hotness: none))))) ;
; STOCK-NEXT: gv: (name: "main", {{.*}} calls: ((callee: ^[[EXT_HOT]], hotness: hot), (callee: ^[[HERE_HOT]], hotness: hot), (callee: ^[[EXT_NOINLINE_SITE]], hotness: hot), (callee: ^[[EXT_NOINLINE_DECL]], hotness: hot), (callee: ^[[STRLEN]], hotness: hot), (callee: ^[[EXT_VTARGET]], hotness: hot), (callee: ^[[EXT_COLD]], hotness: cold), (callee: ^[[EXT_WARM]], hotness: none))))) ;
; KILN-NEXT:  gv: (name: "busy", {{.*}} calls: ((callee: ^[[EXT_VERY_HOT]], hotness: critical))))) ;
; STOCK-NEXT: gv: (name: "busy", {{.*}} calls: ((callee: ^[[EXT_VERY_HOT]], hotness: hot))))) ;

; REMARK:      remark: <unknown>:0:0: ext_hot marked for import into main: hot call site (count 2000, hot threshold 1000), critical edge
; REMARK-NEXT: remark: <unknown>:0:0: here_hot not marked for import into main: hot call site (count 2000, hot threshold 1000), but it is defined in this module
; REMARK-NEXT: remark: <unknown>:0:0: ext_noinline_site not marked for import into main: hot call site (count 2000, hot threshold 1000), but the call site is noinline
; REMARK-NEXT: remark: <unknown>:0:0: ext_noinline_decl not marked for import into main: hot call site (count 2000, hot threshold 1000), but the callee is noinline
; REMARK-NEXT: remark: <unknown>:0:0: strlen not marked for import into main: hot call site (count 2000, hot threshold 1000), but it is a library function
; REMARK-NEXT: remark: <unknown>:0:0: GUID 10724711285577877757 marked for import into main: hot indirect-call target (count 1000, hot threshold 1000), critical edge
; REMARK-NEXT: remark: <unknown>:0:0: ext_cold stays out of import into main: cold call sites (count 0, cold threshold 1), a cold edge the importer does not take
; REMARK-NEXT: remark: <unknown>:0:0: ext_sized not marked for import into sized: hot call site (count 2000, hot threshold 1000), but the caller is optimized for size (the inliner gives it no hot threshold)
; REMARK-NEXT: remark: <unknown>:0:0: ext_very_hot marked for import into busy: hot call site (count 6000, hot threshold 1000), critical edge
; REMARK-NEXT: remark: <unknown>:0:0: ext_hot stays out of import into never: cold call sites (count 0, cold threshold 1), a cold edge the importer does not take
; REMARK-NEXT: remark: <unknown>:0:0: GUID 10724711285577877757 not marked for import into zero_vp: hot indirect-call target (count 1500, hot threshold 1000), but the caller's entry count is 0 (the profile contradicts itself)
; REMARK-NEXT: remark: <unknown>:0:0: GUID 10724711285577877757 not marked for import into spread: hot indirect-call target (count 2500, hot threshold 1000), but indirect-call promotion will not promote it (its share of the call's targets is too small)
; REMARK-NEXT: remark: <unknown>:0:0: GUID 3526342565314271212 not marked for import into spread: hot indirect-call target (count 2000, hot threshold 1000), but indirect-call promotion will not promote it (its share of the call's targets is too small)

; YAML:      --- !Passed
; YAML-NEXT: Pass:            kiln-import-shaping
; YAML-NEXT: Name:            Critical
; YAML-NEXT: Function:        main
; YAML-NEXT: Args:
; YAML-NEXT:   - Callee:          ext_hot
; YAML-NEXT:   - String:          ' marked for import into '
; YAML-NEXT:   - Caller:          main
; YAML-NEXT:   - String:          ': hot call site (count '
; YAML-NEXT:   - Count:           '2000'
; YAML-NEXT:   - String:          ', hot threshold '
; YAML-NEXT:   - HotThreshold:    '1000'
; YAML-NEXT:   - String:          '), critical edge'
; YAML:      --- !Missed
; YAML-NEXT: Pass:            kiln-import-shaping
; YAML-NEXT: Name:            NotMarked
; YAML-NEXT: Function:        main
; YAML-NEXT: Args:
; YAML-NEXT:   - Callee:          here_hot
; YAML:        - Reason:          it is defined in this module
; YAML:      --- !Analysis
; YAML-NEXT: Pass:            kiln-import-shaping
; YAML-NEXT: Name:            ColdEdge
; YAML-NEXT: Function:        main
; YAML-NEXT: Args:
; YAML-NEXT:   - Callee:          ext_cold
; YAML:        - Count:           '0'
; YAML:        - ColdThreshold:   '1'

; CUTOFF: remark: <unknown>:0:0: ext_very_hot marked for import into busy: hot call site (count 6000, hot threshold 5000), critical edge

; BAD-CUTOFF: warning: kiln-import-shaping: module '{{.*}}import-shaping-summary.ll': -kiln-import-critical-cutoff=1000000 is beyond the profile summary's last cutoff; no import is shaped

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i32 @ext_hot(i32)
declare i32 @ext_cold(i32)
declare i32 @ext_warm(i32)
declare i32 @ext_noinline_site(i32)
declare i32 @ext_noinline_decl(i32) noinline
declare i64 @strlen(ptr)
declare i32 @ext_sized(i32)
declare i32 @ext_very_hot(i32)

; Defined here: nothing to import, whatever the count.
define i32 @here_hot(i32 %x) !prof !20 {
  %r = add i32 %x, 1
  ret i32 %r
}

; The indirect call's value profile has two promotable targets of 1000 calls
; each: ext_vtarget (GUID 10724711285577877757, defined elsewhere, marked)
; and here_hot (GUID 6415311669001166189, defined here). The call to ext_cold
; never ran (cold); the one to ext_warm ran 500 times (neither hot nor cold).
define i32 @main(i32 %n, ptr %s, ptr %fp) !prof !20 {
entry:
  %a = call i32 @ext_hot(i32 %n)
  %b = call i32 @here_hot(i32 %a)
  %c = call i32 @ext_noinline_site(i32 %b) noinline
  %d = call i32 @ext_noinline_decl(i32 %c)
  %l = call i64 @strlen(ptr %s)
  %i = call i32 %fp(i32 %d), !prof !30
  %z = icmp eq i32 %i, 0
  br i1 %z, label %rare, label %next, !prof !23

rare:
  %e = call i32 @ext_cold(i32 %i)
  br label %next

next:
  %p = phi i32 [ %i, %entry ], [ %e, %rare ]
  %w = icmp eq i32 %p, 1
  br i1 %w, label %warm, label %exit, !prof !24

warm:
  %f = call i32 @ext_warm(i32 %p)
  br label %exit

exit:
  %r = phi i32 [ %p, %next ], [ %f, %warm ]
  ret i32 %r
}

define i32 @sized(i32 %x) optsize !prof !20 {
  %r = call i32 @ext_sized(i32 %x)
  ret i32 %r
}

define i32 @busy(i32 %x) !prof !21 {
  %r = call i32 @ext_very_hot(i32 %x)
  ret i32 %r
}

; Entered 0 times: its call to ext_hot is cold, and main's hot call does not
; make this edge hot.
define i32 @never(i32 %x) !prof !22 {
  %r = call i32 @ext_hot(i32 %x)
  ret i32 %r
}

define i32 @zero_vp(ptr %fp) !prof !22 {
  %r = call i32 %fp(i32 0), !prof !31
  ret i32 %r
}

; Two hot targets (2500 and 2000 of 10000 calls), neither of which
; indirect-call promotion promotes (the first has less than 30% of the
; calls): the backend cannot inline them, so they stay hot.
define i32 @spread(ptr %fp) !prof !20 {
  %r = call i32 %fp(i32 1), !prof !32
  ret i32 %r
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 20000}
!4 = !{!"MaxCount", i64 6000}
!5 = !{!"MaxInternalCount", i64 2000}
!6 = !{!"MaxFunctionCount", i64 6000}
!7 = !{!"NumCounts", i64 10}
!8 = !{!"NumFunctions", i64 6}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12, !13}
!11 = !{i32 900000, i64 5000, i32 1}
!12 = !{i32 990000, i64 1000, i32 3}
!13 = !{i32 999999, i64 1, i32 6}
!20 = !{!"function_entry_count", i64 2000}
!21 = !{!"function_entry_count", i64 6000}
!22 = !{!"function_entry_count", i64 0}
!23 = !{!"branch_weights", i32 0, i32 2000}
!24 = !{!"branch_weights", i32 500, i32 1500}
!30 = !{!"VP", i32 0, i64 2000, i64 10724711285577877757, i64 1000, i64 6415311669001166189, i64 1000}
!31 = !{!"VP", i32 0, i64 1500, i64 10724711285577877757, i64 1500}
!32 = !{!"VP", i32 0, i64 10000, i64 10724711285577877757, i64 2500, i64 3526342565314271212, i64 2000}

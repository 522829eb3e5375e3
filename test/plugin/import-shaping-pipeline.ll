; -kiln-import-shaping adds kiln-import-shaping at the end of the ThinLTO
; pre-link pipeline, before the bitcode writer builds the summary, so the
; summary carries its critical edge. It is not added anywhere else: the
; per-TU, full-LTO pre-link and ThinLTO backend pipelines write no summary
; for the thin link, and their output is byte-identical with and without the
; option. Without the option the loaded plugin changes nothing.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-import-shaping \
; RUN:   -passes='thinlto-pre-link<O2>' -pass-remarks=kiln-import-shaping \
; RUN:   --thinlto-bc %s -o %t/prelink.bc 2> %t/prelink.txt
; RUN: llvm-dis %t/prelink.bc -o - | FileCheck %s --check-prefix=PRELINK
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/prelink.txt \
; RUN:   --implicit-check-not=remark:
;
; RUN: opt -passes='thinlto-pre-link<O2>' --thinlto-bc %s -o %t/prelink-ref.bc
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='thinlto-pre-link<O2>' \
; RUN:   --thinlto-bc %s -o %t/prelink-loaded.bc
; RUN: cmp %t/prelink-ref.bc %t/prelink-loaded.bc
; RUN: llvm-dis %t/prelink-ref.bc -o - | FileCheck %s --check-prefix=STOCK
;
; RUN: opt -passes='default<O2>' -S %s -o %t/o2-ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-import-shaping \
; RUN:   -passes='default<O2>' -S %s -o %t/o2.ll
; RUN: cmp %t/o2-ref.ll %t/o2.ll
; RUN: opt -passes='lto-pre-link<O2>' -S %s -o %t/full-ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-import-shaping \
; RUN:   -passes='lto-pre-link<O2>' -S %s -o %t/full.ll
; RUN: cmp %t/full-ref.ll %t/full.ll
; RUN: opt -passes='thinlto<O2>' -S %s -o %t/backend-ref.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-import-shaping \
; RUN:   -passes='thinlto<O2>' -S %s -o %t/backend.ll
; RUN: cmp %t/backend-ref.ll %t/backend.ll

; PRELINK: gv: (name: "main", {{.*}} calls: ((callee: ^{{[0-9]+}}, hotness: critical, tail: 1))))) ;
; STOCK:   gv: (name: "main", {{.*}} calls: ((callee: ^{{[0-9]+}}, hotness: hot, tail: 1))))) ;
; REMARK:  remark: <unknown>:0:0: work marked for import into main: hot call site (count 2000, hot threshold 1000), critical edge

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i32 @work(i32)

define i32 @main(i32 %x) !prof !20 {
  %r = call i32 @work(i32 %x)
  ret i32 %r
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

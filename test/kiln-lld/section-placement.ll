; -kiln-section-placement through kiln-lld: the pass runs at the end of each
; ThinLTO backend and of full LTO, and -z keep-text-section-prefix keeps the
; groups apart. @init is cold by its count but listed as a startup function:
; only Kiln puts it in .text.startup (without the option, CodeGenPrepare's
; own profile-guided prefix sends it to .text.unlikely).
; REQUIRES: x86-registered-target, kiln-lld
; RUN: rm -rf %t && mkdir %t && cd %t
; RUN: printf '# startup\ninit\n' > startup.txt
; RUN: opt -module-summary %s -o thin.o
; RUN: llvm-as %s -o full.o
; RUN: kiln-lld -shared --thinlto-jobs=1 -z keep-text-section-prefix \
; RUN:   -mllvm -kiln-section-placement -mllvm -kiln-startup-functions=startup.txt \
; RUN:   thin.o -o thin.so
; RUN: llvm-objdump -t thin.so | FileCheck %s --check-prefixes=CHECK,PLACED
; RUN: kiln-lld -shared -z keep-text-section-prefix \
; RUN:   -mllvm -kiln-section-placement -mllvm -kiln-startup-functions=startup.txt \
; RUN:   full.o -o full.so
; RUN: llvm-objdump -t full.so | FileCheck %s --check-prefixes=CHECK,PLACED
; RUN: kiln-lld -shared --thinlto-jobs=1 -z keep-text-section-prefix thin.o \
; RUN:   -o plain.so
; RUN: llvm-objdump -t plain.so | FileCheck %s --check-prefixes=CHECK,PLAIN

; CHECK-DAG:  F .text.hot{{[[:space:]]+}}{{[0-9a-f]+}} hot
; CHECK-DAG:  F .text{{[[:space:]]+}}{{[0-9a-f]+}} warm
; CHECK-DAG:  F .text.unlikely{{[[:space:]]+}}{{[0-9a-f]+}} cold
; PLACED-DAG: F .text.startup{{[[:space:]]+}}{{[0-9a-f]+}} init
; PLAIN-DAG:  F .text.unlikely{{[[:space:]]+}}{{[0-9a-f]+}} init

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @hot() !prof !20 { ret void }
define void @warm() !prof !21 { ret void }
define void @cold() !prof !22 { ret void }
define void @init() !prof !22 { ret void }

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

; REQUIRES: x86-registered-target, kiln-lld
; kiln-bind-hot-imports marks nonlazybind the functions another object
; provides that a hot block calls: ext_hot (from the loop, count 2000:
; hot, as counts >= 1000 are in this summary). Not: ext_cold, which only
; the cold exit calls (count 1); local, which the program defines
; (dso_local: called directly, no PLT); the memcpy intrinsic; ext_ptr, only
; called through a pointer. The code generator then calls ext_hot through
; its GOT entry, the others as before. Without an instrumentation profile
; (the second module), nothing is marked.
; RUN: rm -rf %t && mkdir %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-bind-hot-imports \
; RUN:   -pass-remarks-analysis=kiln-bind-hot-imports -S %s -o %t/out.ll 2> %t/remarks.txt
; RUN: FileCheck %s --input-file=%t/out.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/remarks.txt
; RUN: llc -relocation-model=pic %t/out.ll -o - | FileCheck %s --check-prefix=ASM
;
; In the default pipelines under -kiln-bind-hot-imports only (it is off by
; default).
; RUN: opt -load-pass-plugin=%kiln_plugin -kiln-bind-hot-imports -passes='default<O2>' \
; RUN:   -S %s | FileCheck %s --check-prefix=PIPELINE
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='default<O2>' \
; RUN:   -S %s | FileCheck %s --check-prefix=OFF
;
; In the ThinLTO backends of kiln-lld's link, where the flow gives it (a
; stock ld.lld parses -mllvm before it loads a plugin): the shared library
; calls ext_hot through the GOT, ext_cold through the PLT.
; RUN: opt -module-summary %s -o %t/thin.o
; RUN: kiln-lld -shared -mllvm -kiln-bind-hot-imports --thinlto-jobs=1 \
; RUN:   %t/thin.o -o %t/thin.so
; RUN: llvm-objdump -d -r --no-show-raw-insn %t/thin.so | FileCheck %s --check-prefix=LINKED
; LINKED-NOT: <ext_hot@plt>
; LINKED: <ext_cold@plt>
; RUN: llvm-readelf -r %t/thin.so | FileCheck %s --check-prefix=RELOCS
; RELOCS-DAG: R_X86_64_GLOB_DAT {{.*}} ext_hot
; RELOCS-DAG: R_X86_64_JUMP_SLOT {{.*}} ext_cold
;
; No instrumentation profile, no change.
; RUN: sed -e '/ProfileSummary/d' -e '/^!llvm.module.flags/d' %s > %t/noprofile.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-bind-hot-imports -S %t/noprofile.ll \
; RUN:   | FileCheck %s --check-prefix=NOPROFILE

; CHECK: declare i64 @ext_hot(i64) [[HOT:#[0-9]+]]
; CHECK: declare void @ext_cold(){{$}}
; CHECK: declare dso_local i64 @local(i64){{$}}
; CHECK: declare void @ext_ptr(){{$}}
; CHECK: attributes [[HOT]] = { nonlazybind }

; REMARK: remark: <unknown>:0:0: ext_hot called through its GOT entry: a hot block calls it
; REMARK-NOT: remark

; (The loop's calls load the GOT entry once, before the loop.)
; ASM-LABEL: caller:
; ASM-NOT: ext_hot@PLT
; ASM: ext_hot@GOTPCREL(%rip)
; ASM-NOT: ext_hot@PLT
; ASM: callq local{{$}}
; ASM: callq ext_cold@PLT

; PIPELINE: declare i64 @ext_hot(i64) local_unnamed_addr [[PHOT:#[0-9]+]]
; PIPELINE: attributes [[PHOT]] = { nonlazybind }
; OFF-NOT: nonlazybind
; NOPROFILE-NOT: nonlazybind

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare i64 @ext_hot(i64)
declare void @ext_cold()
declare dso_local i64 @local(i64)
declare void @ext_ptr()
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

define i64 @caller(i64 %n, ptr %dst, ptr %src) !prof !20 {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %sum, %loop ]
  %v = call i64 @ext_hot(i64 %i)
  %w = call i64 @local(i64 %v)
  call void @llvm.memcpy.p0.p0.i64(ptr %dst, ptr %src, i64 8, i1 false)
  %sum = add i64 %acc, %w
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop, !prof !23

exit:
  call void @ext_cold()
  %p = load ptr, ptr %src
  call void %p()
  store ptr @ext_ptr, ptr %dst
  ret i64 %sum
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
!20 = !{!"function_entry_count", i64 1}
!23 = !{!"branch_weights", i32 1, i32 1999}

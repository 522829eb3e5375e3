; -kiln-split-functions: LLVM's machine function splitter with Kiln's
; threshold. @hot ran 100000 times; its %once block ran once (the startup
; path) and its %never.bb block never ran. LLVM's default (a percentile
; cutoff) moves both to hot.cold, so startup executes the cold part; Kiln
; moves only the block no run executed. @unprofiled has no profile: never
; split. COFF and Mach-O are refused with a warning (LLVM 22's splitter
; crashes on them), an error under -kiln-strict.
; REQUIRES: x86-registered-target
; RUN: rm -rf %t && mkdir %t
; RUN: %clang -O2 -c %s -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -o %t/kiln.o
; RUN: llvm-objdump -dr --no-show-raw-insn %t/kiln.o | FileCheck %s --check-prefix=KILN
; RUN: %clang -O2 -c %s -fsplit-machine-functions -o %t/stock.o
; RUN: llvm-objdump -dr --no-show-raw-insn %t/stock.o | FileCheck %s --check-prefix=STOCK
; Loading the plugin alone changes nothing: no cold part.
; RUN: %clang -O2 -c %s -fpass-plugin=%kiln_plugin -o %t/plugin-only.o
; RUN: llvm-nm %t/plugin-only.o | FileCheck %s --check-prefix=NOSPLIT
; A cutoff the user gives is kept (here LLVM's default percentile again).
; RUN: %clang -O2 -c %s -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -mllvm -mfs-psi-cutoff=999950 -o %t/user.o
; RUN: llvm-objdump -dr --no-show-raw-insn %t/user.o | FileCheck %s --check-prefix=STOCK
;
; In lld's LTO (plain ld.lld takes Kiln's options from KILN_OPTIONS): full
; LTO and a ThinLTO backend split the same way.
; RUN: llvm-as %s -o %t/full.bc
; RUN: env KILN_OPTIONS=-kiln-split-functions ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin %t/full.bc -o %t/full.so
; RUN: llvm-objdump -dr --no-show-raw-insn %t/full.so | FileCheck %s --check-prefix=LINKED
; RUN: opt -module-summary %s -o %t/thin.bc
; RUN: env KILN_OPTIONS=-kiln-split-functions ld.lld -shared --thinlto-jobs=2 \
; RUN:   --load-pass-plugin=%kiln_plugin %t/thin.bc -o %t/thin.so
; RUN: llvm-objdump -dr --no-show-raw-insn %t/thin.so | FileCheck %s --check-prefix=LINKED
;
; RUN: sed -e 's/x86_64-pc-linux-gnu/x86_64-pc-windows-msvc/' -e '/^target datalayout/d' %s > %t/coff.ll
; RUN: %clang --target=x86_64-pc-windows-msvc -O2 -c %t/coff.ll -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -Wno-override-module -o %t/coff.o 2>&1 | FileCheck %s --check-prefix=COFF
; RUN: llvm-nm %t/coff.o | FileCheck %s --check-prefix=NOSPLIT
; RUN: sed -e 's/x86_64-pc-linux-gnu/x86_64-apple-macos13/' -e '/^target datalayout/d' %s > %t/macho.ll
; RUN: %clang --target=x86_64-apple-macos13 -O2 -c %t/macho.ll -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -Wno-override-module -o %t/macho.o 2>&1 | FileCheck %s --check-prefix=MACHO
; RUN: llvm-nm %t/macho.o | FileCheck %s --check-prefix=NOSPLIT
; RUN: not %clang --target=x86_64-pc-windows-msvc -O2 -c %t/coff.ll -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -mllvm -kiln-strict -Wno-override-module -o %t/strict.o 2>&1 \
; RUN:   | FileCheck %s --check-prefix=STRICT
;
; -mfs-split-ehcode replaces the splitter's profile-based decisions (LLVM 22):
; Kiln says so, and nothing is split by the profile.
; RUN: %clang -O2 -c %s -fpass-plugin=%kiln_plugin -mllvm -kiln-split-functions \
; RUN:   -mllvm -mfs-split-ehcode -o %t/eh.o 2>&1 | FileCheck %s --check-prefix=EHONLY
; RUN: llvm-nm %t/eh.o | FileCheck %s --check-prefix=NOSPLIT

; KILN:      <hot>:
; KILN-NOT:  <hot.cold>:
; KILN:      R_X86_64_PLT32 startup_work
; KILN:      <hot.cold>:
; KILN-NOT:  startup_work
; KILN:      R_X86_64_PLT32 never
; KILN-NOT:  <unprofiled.cold>:

; STOCK:      <hot.cold>:
; STOCK-NOT:  <{{.*}}>:
; STOCK:      R_X86_64_PLT32 startup_work
; STOCK:      R_X86_64_PLT32 never

; NOSPLIT-NOT: cold

; LINKED:      <hot>:
; LINKED-NOT:  <hot.cold>:
; LINKED:      <startup_work@plt>
; LINKED:      <hot.cold>:
; LINKED-NOT:  startup_work
; LINKED:      <never@plt>

; COFF: warning: kiln-split-functions: LLVM's machine function splitter supports ELF on x86-64 and AArch64, not 'x86_64-pc-windows-msvc{{.*}}'; '{{.*}}coff.ll' is not split
; MACHO: warning: kiln-split-functions: LLVM's machine function splitter supports ELF on x86-64 and AArch64, not 'x86_64-apple-macos{{.*}}'; '{{.*}}macho.ll' is not split
; EHONLY: warning: kiln-split-functions: -mfs-split-ehcode is set, so LLVM's splitter moves only exception-handling code, not the blocks the profile says never ran; '{{.*}}split-functions.ll' is not split by the profile
; STRICT: error: kiln-split-functions: LLVM's machine function splitter supports ELF

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

declare void @startup_work(i32)
declare void @never(i32)

define void @hot(i32 %x) !prof !30 {
entry:
  %c1 = icmp eq i32 %x, 0
  br i1 %c1, label %once, label %next, !prof !31
once:
  call void @startup_work(i32 1)
  call void @startup_work(i32 2)
  call void @startup_work(i32 3)
  br label %next
next:
  %c2 = icmp eq i32 %x, 7
  br i1 %c2, label %never.bb, label %exit, !prof !32
never.bb:
  call void @never(i32 1)
  call void @never(i32 2)
  call void @never(i32 3)
  br label %exit
exit:
  ret void
}

define void @unprofiled(i32 %x) {
entry:
  %c = icmp eq i32 %x, 7
  br i1 %c, label %rare, label %exit
rare:
  call void @never(i32 4)
  br label %exit
exit:
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 1000000}
!4 = !{!"MaxCount", i64 100000}
!5 = !{!"MaxInternalCount", i64 100000}
!6 = !{!"MaxFunctionCount", i64 100000}
!7 = !{!"NumCounts", i64 10}
!8 = !{!"NumFunctions", i64 3}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12, !13}
!11 = !{i32 10000, i64 100000, i32 1}
!12 = !{i32 999000, i64 100000, i32 1}
!13 = !{i32 999999, i64 1, i32 3}
!30 = !{!"function_entry_count", i64 100000}
!31 = !{!"branch_weights", i32 1, i32 99999}
!32 = !{!"branch_weights", i32 0, i32 100000}

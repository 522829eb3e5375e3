; ld.lld loads the plugin with --load-pass-plugin= and runs a Kiln pass named
; in its LTO pipeline, in full LTO and in ThinLTO backends.
; REQUIRES: x86-registered-target
; RUN: rm -rf %t && mkdir %t
; RUN: llvm-as %s -o %t/full.o
; RUN: ld.lld -shared --load-pass-plugin=%kiln_plugin \
; RUN:   --lto-newpm-passes='print<kiln-function-profile>' %t/full.o \
; RUN:   -o %t/full.so 2>&1 | FileCheck %s --check-prefix=FULL
; RUN: llvm-nm -D %t/full.so | FileCheck %s --check-prefix=SYMS
;
; RUN: opt -module-summary %s -o %t/thin.o
; RUN: ld.lld -shared --load-pass-plugin=%kiln_plugin --thinlto-jobs=1 \
; RUN:   --lto-newpm-passes='print<kiln-function-profile>' %t/thin.o \
; RUN:   -o %t/thin.so 2>&1 | FileCheck %s --check-prefix=THIN
; RUN: llvm-nm -D %t/thin.so | FileCheck %s --check-prefix=SYMS
;
; Remarks from a Kiln pass reach lld's remarks file.
; RUN: ld.lld -shared --load-pass-plugin=%kiln_plugin \
; RUN:   --lto-newpm-passes=kiln-profile-remarks \
; RUN:   --opt-remarks-filename %t/remarks.yaml %t/full.o -o %t/remarks.so
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t/remarks.yaml
;
; Plain ld.lld parses -mllvm before it loads plugins, so Kiln's own options
; are unknown to it (kiln-lld exists for this; see test/kiln-lld).
; RUN: not ld.lld -shared --load-pass-plugin=%kiln_plugin \
; RUN:   -mllvm -kiln-print-function-profile %t/full.o -o %t/plain.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=PLAIN

; FULL:      kiln-function-profile: module 'ld-temp.o' summary=none
; FULL-NEXT:   exported: entry=7 temperature=none blocks=1 insts=1
; THIN:      kiln-function-profile: module '{{.*}}thin.o' summary=none
; THIN-NEXT:   exported: entry=7 temperature=none blocks=1 insts=1
; SYMS:      T exported
; REMARK:    Pass: kiln-profile
; REMARK:    Function: exported
; PLAIN:     Unknown command line argument '-kiln-print-function-profile'
;
; So plain ld.lld takes Kiln's options from KILN_OPTIONS, read when the
; plugin is registered: in full LTO and in each ThinLTO backend.
; RUN: env KILN_OPTIONS='-kiln-print-function-profile' ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin %t/full.o -o %t/env.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ENV-FULL
; RUN: env KILN_OPTIONS='--kiln-print-function-profile' ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin --thinlto-jobs=2 %t/thin.o \
; RUN:   -o %t/env-thin.so 2>&1 | FileCheck %s --check-prefix=ENV-THIN
; A bad KILN_OPTIONS is a warning and the link goes on without it.
; RUN: env KILN_OPTIONS='-kiln-no-such-option' ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin %t/full.o -o %t/bad.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ENV-BAD
; RUN: env KILN_OPTIONS='-O0 -kiln-print-function-profile' ld.lld -shared \
; RUN:   --load-pass-plugin=%kiln_plugin %t/full.o -o %t/foreign.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=ENV-FOREIGN
; RUN: llvm-nm -D %t/bad.so | FileCheck %s --check-prefix=SYMS

; ENV-FULL:    kiln-function-profile: module 'ld-temp.o' summary=none at=fulllto
; ENV-THIN:    kiln-function-profile: module '{{.*}}thin.o' summary=none at=thinlto-backend
; ENV-BAD:     kiln: warning: KILN_OPTIONS: {{.*}}Unknown command line argument '-kiln-no-such-option'
; ENV-BAD-NOT: kiln-function-profile
; ENV-FOREIGN: kiln: warning: KILN_OPTIONS: '-O0' is not a Kiln option (-kiln-...); KILN_OPTIONS ignored
; ENV-FOREIGN-NOT: kiln-function-profile

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @exported() !prof !0 { ret void }

!0 = !{!"function_entry_count", i64 7}

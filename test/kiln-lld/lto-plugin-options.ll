; kiln-lld loads Kiln's plugin before lld parses -mllvm, so Kiln's options
; work inside lld's LTO, and its passes run at the pipelines' extension
; points: at the end of full LTO and of each ThinLTO backend.
; REQUIRES: x86-registered-target, kiln-lld
; RUN: rm -rf %t && mkdir %t
; RUN: llvm-as %s -o %t/full.o
; RUN: opt -module-summary %s -o %t/thin.o
; RUN: kiln-lld -shared -mllvm -kiln-print-function-profile %t/full.o \
; RUN:   -o %t/full.so 2>&1 | FileCheck %s --check-prefix=FULL
; RUN: kiln-lld -shared --thinlto-jobs=1 -mllvm=-kiln-print-function-profile \
; RUN:   %t/thin.o -o %t/thin.so 2>&1 | FileCheck %s --check-prefix=THIN
;
; Naming the plugin again with --load-pass-plugin= is harmless: it is loaded
; once and its passes run once.
; RUN: kiln-lld -shared --load-pass-plugin=%kiln_plugin \
; RUN:   -mllvm -kiln-print-function-profile %t/full.o -o %t/again.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=FULL --implicit-check-not=kiln-function-profile:
; RUN: cmp %t/full.so %t/again.so
;
; Without Kiln options the plugin changes nothing: same bytes as ld.lld.
; RUN: kiln-lld -shared %t/full.o -o %t/kiln-nooption.so
; RUN: ld.lld -shared %t/full.o -o %t/lld.so
; RUN: cmp %t/kiln-nooption.so %t/lld.so
;
; A Kiln option without a loadable plugin is a clear error...
; RUN: env KILN_PLUGIN=%t/missing.so not kiln-lld -shared \
; RUN:   -mllvm -kiln-print-function-profile %t/full.o -o %t/err.so 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING
; ...while a link without Kiln options does not need the plugin at all.
; RUN: env KILN_PLUGIN=%t/missing.so kiln-lld -shared %t/full.o -o %t/noplugin.so
; RUN: cmp %t/noplugin.so %t/lld.so

; FULL:      kiln-function-profile: module 'ld-temp.o' summary=none at=fulllto
; FULL-NEXT:   exported: entry=- temperature=none
; THIN:      kiln-function-profile: module '{{.*}}thin.o' summary=none at=thinlto-backend
; THIN-NEXT:   exported: entry=- temperature=none
; MISSING:   kiln-lld: error: cannot find the Kiln plugin {{.*}}missing.so (named by $KILN_PLUGIN): {{.*}}; the -kiln-* options on the command line need it

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @exported() { ret void }

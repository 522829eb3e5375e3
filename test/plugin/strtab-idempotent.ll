; Running kiln-strtab on its own output changes nothing and says nothing: a
; lowered table is an integer array, never a candidate again (the pass runs
; both in the ThinLTO pre-link compile and in the backends). The output is
; also the same on every run. (ModuleID lines name the input; they differ.)
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -S \
; RUN:   %S/strtab-struct-fields.ll -o %t.once.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -S \
; RUN:   -pass-remarks=kiln-strtab -pass-remarks-missed=kiln-strtab \
; RUN:   %t.once.ll -o %t.twice.ll 2>&1 | count 0
; RUN: grep -v '^; ModuleID' %t.once.ll > %t.once.body
; RUN: grep -v '^; ModuleID' %t.twice.ll > %t.twice.body
; RUN: diff %t.once.body %t.twice.body
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -S \
; RUN:   %S/strtab-struct-fields.ll -o %t.again.ll
; RUN: diff %t.once.ll %t.again.ll
;
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -S \
; RUN:   %S/strtab-pointer-walk.ll -o %t.walk.once.ll
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -S \
; RUN:   %t.walk.once.ll -o %t.walk.twice.ll
; RUN: grep -v '^; ModuleID' %t.walk.once.ll > %t.walk.once.body
; RUN: grep -v '^; ModuleID' %t.walk.twice.ll > %t.walk.twice.body
; RUN: diff %t.walk.once.body %t.walk.twice.body

; kiln-unique-local-names: the module's locals that the list names for its
; source file get the name clang's -funique-internal-linkage-names gives
; them (`.__uniq.` and the decimal MD5 of "m.c"); a C++ local's debug
; linkage name follows. Not renamed: what the list names for another source
; file, a function that is not local (ThinLTO promoted it), a name the list
; gives that the module does not define. A list that cannot be used is
; reported and nothing is renamed.
; RUN: rm -rf %t && split-file %s %t
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-unique-local-names \
; RUN:   -kiln-unique-local-names=%t/list.txt -S %t/m.ll | FileCheck %s
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-unique-local-names \
; RUN:   -kiln-unique-local-names=%t/bad.txt -S %t/m.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=BAD
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-unique-local-names \
; RUN:   -kiln-unique-local-names=%t/nonexistent.txt -S %t/m.ll 2>&1 \
; RUN:   | FileCheck %s --check-prefix=MISSING
; Without a list the pass does nothing.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-unique-local-names \
; RUN:   -S %t/m.ll | FileCheck %s --check-prefix=NONE

; CHECK-DAG: define internal i32 @init.__uniq.78705038579501394913647837988931592976(
; CHECK-DAG: define internal void @_ZN12_GLOBAL__N_14stepEv.__uniq.78705038579501394913647837988931592976(){{.*}} !dbg ![[STEP:[0-9]+]]
; CHECK-DAG: define internal void @other(
; CHECK-DAG: define hidden void @promoted.llvm.7(
; CHECK-DAG: call i32 @init.__uniq.78705038579501394913647837988931592976()
; CHECK-DAG: ![[STEP]] = distinct !DISubprogram(name: "step", linkageName: "_ZN12_GLOBAL__N_14stepEv.__uniq.78705038579501394913647837988931592976"

; BAD: warning: kiln-unique-local-names: {{.*}}bad.txt:1: not a list of local names to make unique (the first line is not 'kiln-unique-local-names v1'); the local functions of '{{.*}}m.ll' keep their names
; BAD: define internal i32 @init(
; MISSING: warning: kiln-unique-local-names: {{.*}}nonexistent.txt: {{[Nn]}}o such file or directory; the local functions of '{{.*}}m.ll' keep their names
; NONE: define internal i32 @init(

;--- list.txt
kiln-unique-local-names v1
init m.c
_ZN12_GLOBAL__N_14stepEv m.c
other other.c
promoted m.c
absent m.c
;--- bad.txt
init m.c
;--- m.ll
source_filename = "m.c"
target triple = "x86_64-unknown-linux-gnu"

define internal i32 @init() {
  ret i32 1
}

define internal void @_ZN12_GLOBAL__N_14stepEv() !dbg !5 {
  ret void
}

define internal void @other() {
  ret void
}

define hidden void @promoted.llvm.7() {
  ret void
}

define i32 @main() {
  %v = call i32 @init()
  call void @_ZN12_GLOBAL__N_14stepEv()
  call void @other()
  call void @promoted.llvm.7()
  ret i32 %v
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "m.cpp", directory: "/src")
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 7, !"Dwarf Version", i32 5}
!5 = distinct !DISubprogram(name: "step", linkageName: "_ZN12_GLOBAL__N_14stepEv", scope: !1, file: !1, line: 1, type: !6, scopeLine: 1, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{null}

; The table's DIGlobalVariableExpression is dropped with the table: the
; variable stays in the compile unit's globals (a debugger shows it as
; optimized out), the new globals carry no debug info, debug records that
; named a pointer into the table become poison, and the module verifies.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: opt -passes=verify -disable-output %t.ll

;; The remark points at the source line of the first use.
; REMARK: dbg.c:2:34: string table names lowered: 3 entries

; CHECK:     @names.chars = private unnamed_addr constant [15 x i8] c"red\00green\00blue\00", align 1{{$}}
; CHECK:     @names.offsets = private unnamed_addr constant [3 x i8] c"\00\04\0A", align 1{{$}}
; CHECK-NOT: @names =
; CHECK-LABEL: define ptr @name(
; CHECK:       #dbg_value(ptr poison, [[VAR:![0-9]+]]
; CHECK:       load i8, ptr {{.*}}, align 1, !dbg [[LOC:![0-9]+]]
; CHECK:       !DICompileUnit({{.*}}globals: [[GLOBALS:![0-9]+]]
; CHECK:       [[GLOBALS]] = !{[[GVE:![0-9]+]]}
; CHECK:       [[GVE]] = !DIGlobalVariableExpression(var: [[GV:![0-9]+]]
; CHECK:       [[GV]] = distinct !DIGlobalVariable(name: "names"

target triple = "x86_64-unknown-linux-gnu"

@.str = private unnamed_addr constant [4 x i8] c"red\00", align 1
@.str.1 = private unnamed_addr constant [6 x i8] c"green\00", align 1
@.str.2 = private unnamed_addr constant [5 x i8] c"blue\00", align 1
@names = internal unnamed_addr constant [3 x ptr] [ptr @.str, ptr @.str.1, ptr @.str.2], align 16, !dbg !0

define ptr @name(i32 %i) !dbg !20 {
  %idx = sext i32 %i to i64, !dbg !24
  %p = getelementptr inbounds ptr, ptr @names, i64 %idx, !dbg !24
    #dbg_value(ptr %p, !23, !DIExpression(), !24)
  %s = load ptr, ptr %p, align 8, !dbg !24
  ret ptr %s, !dbg !24
}

!llvm.dbg.cu = !{!5}
!llvm.module.flags = !{!10, !11}

!0 = !DIGlobalVariableExpression(var: !1, expr: !DIExpression())
!1 = distinct !DIGlobalVariable(name: "names", scope: !5, file: !2, line: 1, type: !3, isLocal: true, isDefinition: true)
!2 = !DIFile(filename: "dbg.c", directory: "/tmp")
!3 = !DICompositeType(tag: DW_TAG_array_type, baseType: !4, size: 192, elements: !8)
!4 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !7, size: 64)
!5 = distinct !DICompileUnit(language: DW_LANG_C11, file: !2, isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, globals: !6)
!6 = !{!0}
!7 = !DIBasicType(name: "char", size: 8, encoding: DW_ATE_signed_char)
!8 = !{!9}
!9 = !DISubrange(count: 3)
!10 = !{i32 2, !"Debug Info Version", i32 3}
!11 = !{i32 7, !"Dwarf Version", i32 5}
!20 = distinct !DISubprogram(name: "name", scope: !2, file: !2, line: 2, type: !21, scopeLine: 2, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !5, retainedNodes: !22)
!21 = !DISubroutineType(types: !22)
!22 = !{}
!23 = !DILocalVariable(name: "p", scope: !20, file: !2, line: 2, type: !4)
!24 = !DILocation(line: 2, column: 34, scope: !20)

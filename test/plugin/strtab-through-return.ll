; A sorted table of structs searched by a module-local function that returns
; the element found, or null: the element address becomes a new-table
; pointer along the return, and the callers' null checks, selects, compares
; with other elements and field reads are rewritten. Attributes that
; described the old 24-byte element are dropped; noundef stays.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks=kiln-strtab -pass-remarks-missed=kiln-strtab \
; RUN:   -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK:     remark: <unknown>:0:0: string table kw lowered: 3 entries (6 strings), 104 bytes to 56 bytes with i8 offsets
; REMARK-NOT: remark:

; CHECK:     @kw.chars = private unnamed_addr constant [32 x i8] c"break\00leave\00case\00arm\00while\00loop\00", align 1
; CHECK:     @kw.offsets = private unnamed_addr constant [3 x { i32, i8, i8 }] [{ i32, i8, i8 } { i32 1, i8 0, i8 6 }, { i32, i8, i8 } { i32 2, i8 12, i8 17 }, { i32, i8, i8 } { i32 3, i8 21, i8 27 }], align 4
; CHECK-NOT: @kw =

; CHECK-LABEL: define internal noundef ptr @find(
; CHECK:       body:
; CHECK:         [[E:%.*]] = getelementptr inbounds { i32, i8, i8 }, ptr @kw.offsets, i64 %mid
; CHECK-NEXT:    [[NAMEF:%.*]] = getelementptr inbounds i8, ptr [[E]], i64 4
; CHECK-NEXT:    %name.offset = load i8, ptr [[NAMEF]], align 1
; CHECK:       exit:
; CHECK-NEXT:    %r.strtab = phi ptr [ [[E]], %body ], [ null, %loop ]
; CHECK-NEXT:    ret ptr %r.strtab

; CHECK-LABEL: define i32 @token(
; CHECK:         %k = call ptr @find(ptr %key)
; CHECK-NEXT:    %none = icmp eq ptr %k, null
; CHECK:       have:
; CHECK-NEXT:    %t = load i32, ptr %k, align 4
; CHECK-NEXT:    ret i32 %t

; CHECK-LABEL: define ptr @help(
; CHECK:         %e.strtab = select i1 %none, ptr getelementptr inbounds (i8, ptr @kw.offsets, i64 16), ptr %k
; CHECK-NEXT:    [[HELPF:%.*]] = getelementptr inbounds i8, ptr %e.strtab, i64 5
; CHECK-NEXT:    %h.offset = load i8, ptr [[HELPF]], align 1

; CHECK-LABEL: define i1 @is_first(
; CHECK:         %first = icmp eq ptr %k, @kw.offsets

; CHECK-LABEL: define i1 @before_last(
; CHECK:         %before = icmp ult ptr %k, getelementptr inbounds (i8, ptr @kw.offsets, i64 16)

%struct.kw = type { ptr, i32, ptr }

@.break = private unnamed_addr constant [6 x i8] c"break\00"
@.case = private unnamed_addr constant [5 x i8] c"case\00"
@.while = private unnamed_addr constant [6 x i8] c"while\00"
@.leave = private unnamed_addr constant [6 x i8] c"leave\00"
@.arm = private unnamed_addr constant [4 x i8] c"arm\00"
@.loop = private unnamed_addr constant [5 x i8] c"loop\00"
@kw = internal unnamed_addr constant [3 x %struct.kw] [%struct.kw { ptr @.break, i32 1, ptr @.leave }, %struct.kw { ptr @.case, i32 2, ptr @.arm }, %struct.kw { ptr @.while, i32 3, ptr @.loop }]

declare i32 @strcmp(ptr, ptr)

;; Binary search by name: returns &kw[mid], or null.
define internal noundef dereferenceable_or_null(24) align 8 ptr @find(ptr %key) {
entry:
  br label %loop

loop:
  %lo = phi i64 [ 0, %entry ], [ %lo.next, %next ]
  %hi = phi i64 [ 3, %entry ], [ %hi.next, %next ]
  %more = icmp ult i64 %lo, %hi
  br i1 %more, label %body, label %exit

body:
  %sum = add nuw nsw i64 %lo, %hi
  %mid = lshr i64 %sum, 1
  %e = getelementptr inbounds %struct.kw, ptr @kw, i64 %mid
  %name = load ptr, ptr %e, align 8
  %c = call i32 @strcmp(ptr %key, ptr %name)
  %eq = icmp eq i32 %c, 0
  br i1 %eq, label %exit, label %next

next:
  %lt = icmp slt i32 %c, 0
  %mid1 = add nuw nsw i64 %mid, 1
  %lo.next = select i1 %lt, i64 %lo, i64 %mid1
  %hi.next = select i1 %lt, i64 %mid, i64 %hi
  br label %loop

exit:
  %r = phi ptr [ %e, %body ], [ null, %loop ]
  ret ptr %r
}

;; The caller tests for null and reads a field through the element.
define i32 @token(ptr %key) {
entry:
  %k = call dereferenceable_or_null(24) ptr @find(ptr %key)
  %none = icmp eq ptr %k, null
  br i1 %none, label %missing, label %have

have:
  %f = getelementptr inbounds i8, ptr %k, i64 8
  %t = load i32, ptr %f, align 8
  ret i32 %t

missing:
  ret i32 -1
}

;; A select of the element and a fallback element, then a string field.
define ptr @help(ptr %key) {
  %k = call ptr @find(ptr %key)
  %none = icmp eq ptr %k, null
  %e = select i1 %none, ptr getelementptr inbounds (i8, ptr @kw, i64 48), ptr %k
  %f = getelementptr inbounds i8, ptr %e, i64 16
  %h = load ptr, ptr %f, align 8
  ret ptr %h
}

;; Compares with other elements of the same table.
define i1 @is_first(ptr %key) {
  %k = call ptr @find(ptr %key)
  %first = icmp eq ptr %k, @kw
  ret i1 %first
}

define i1 @before_last(ptr %key) {
  %k = call ptr @find(ptr %key)
  %before = icmp ult ptr %k, getelementptr inbounds (i8, ptr @kw, i64 48)
  ret i1 %before
}

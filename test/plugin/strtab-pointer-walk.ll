; A loop walking the table by pointer: the pointer induction variable into
; the table becomes one into the offset table, stepping by the new element
; size, and the end-of-table comparison compares the new pointers.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; CHECK:     @tab.offsets = private unnamed_addr constant [3 x i8] c"\00\FF\02", align 1
; CHECK-NOT: @tab =

; CHECK-LABEL: define i32 @count_set(
; CHECK:       loop:
; CHECK-NEXT:    [[P:%.*]] = phi ptr [ @tab.offsets, %entry ], [ [[NEXT:%.*]], %loop ]
; CHECK-NEXT:    [[N:%.*]] = phi i32
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
; CHECK:         [[NEXT]] = getelementptr inbounds i8, ptr [[P]], i64 1
; CHECK-NEXT:    [[DONE:%.*]] = icmp eq ptr [[NEXT]], getelementptr inbounds (i8, ptr @tab.offsets, i64 3)
; CHECK-NEXT:    br i1 [[DONE]], label %exit, label %loop

;; A select between two positions of the table is an anchor too.
; CHECK-LABEL: define ptr @pick(
; CHECK-NEXT:    [[P:%.*]] = select i1 %c, ptr getelementptr inbounds (i8, ptr @tab.offsets, i64 2), ptr @tab.offsets
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1

@.a = private unnamed_addr constant [2 x i8] c"a\00"
@.b = private unnamed_addr constant [2 x i8] c"b\00"
@tab = internal unnamed_addr constant [3 x ptr] [ptr @.a, ptr null, ptr @.b]

define i32 @count_set() {
entry:
  br label %loop
loop:
  %p = phi ptr [ @tab, %entry ], [ %next, %loop ]
  %n = phi i32 [ 0, %entry ], [ %n.next, %loop ]
  %s = load ptr, ptr %p
  %set = icmp ne ptr %s, null
  %inc = zext i1 %set to i32
  %n.next = add i32 %n, %inc
  %next = getelementptr inbounds ptr, ptr %p, i64 1
  %done = icmp eq ptr %next, getelementptr inbounds (i8, ptr @tab, i64 24)
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %n.next
}

define ptr @pick(i1 %c) {
  %p = select i1 %c, ptr getelementptr inbounds (i8, ptr @tab, i64 16), ptr @tab
  %s = load ptr, ptr %p
  ret ptr %s
}

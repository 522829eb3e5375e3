; A null entry is encoded as the all-ones offset and turned back into null
; with a select; comparing a loaded entry with null is allowed.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -S %s -o - | FileCheck %s

; CHECK: @tab.chars = private unnamed_addr constant [4 x i8] c"yes\00", align 1
; CHECK: @tab.offsets = private unnamed_addr constant [2 x i8] c"\00\FF", align 1

; CHECK-LABEL: define i1 @is_set(
; CHECK-SAME:    i64 [[I:%.*]])
; CHECK-NEXT:    [[P:%.*]] = getelementptr inbounds i8, ptr @tab.offsets, i64 [[I]]
; CHECK-NEXT:    [[OFF:%.*]] = load i8, ptr [[P]], align 1
; CHECK-NEXT:    [[WIDE:%.*]] = zext i8 [[OFF]] to i64
; CHECK-NEXT:    [[STR:%.*]] = getelementptr inbounds i8, ptr @tab.chars, i64 [[WIDE]]
; CHECK-NEXT:    [[ISNULL:%.*]] = icmp eq i8 [[OFF]], -1
; CHECK-NEXT:    [[S:%.*]] = select i1 [[ISNULL]], ptr null, ptr [[STR]]
; CHECK-NEXT:    [[SET:%.*]] = icmp ne ptr [[S]], null
; CHECK-NEXT:    ret i1 [[SET]]

@.str = private unnamed_addr constant [4 x i8] c"yes\00"
@tab = internal unnamed_addr constant [2 x ptr] [ptr @.str, ptr null]

define i1 @is_set(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @tab, i64 %i
  %s = load ptr, ptr %p
  %set = icmp ne ptr %s, null
  ret i1 %set
}

; Element addresses followed through module-local functions: a recursive
; search whose pointer argument receives the table and addresses derived
; from itself, and which returns elements, null and its own calls; and a
; function receiving elements from a call's result, a select of two elements
; and a variable index. Each argument keeps its type and now carries a
; pointer into the 8-byte elements of the new table; dereferenceable and
; align, which described the old 16-byte element, are dropped.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks=kiln-strtab -pass-remarks-missed=kiln-strtab \
; RUN:   -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; REMARK:     remark: <unknown>:0:0: string table opts lowered: 4 entries (4 strings), 87 bytes to 55 bytes with i8 offsets
; REMARK-NOT: remark:

; CHECK:     @opts.offsets = private unnamed_addr constant [4 x { i8, i32 }] [{ i8, i32 } { i8 0, i32 10 }, { i8, i32 } { i8 6, i32 20 }, { i8, i32 } { i8 11, i32 40 }, { i8, i32 } { i8 17, i32 30 }], align 4
; CHECK-NOT: @opts =

; CHECK-LABEL: define internal ptr @search(ptr %base, i64 %n, ptr %key)
; CHECK:       probe:
; CHECK:         [[MID:%.*]] = getelementptr inbounds { i8, i32 }, ptr %base, i64 %half
; CHECK-NEXT:    %name.offset = load i8, ptr [[MID]], align 1
; CHECK:       left:
; CHECK-NEXT:    %l = call ptr @search(ptr %base, i64 %half, ptr %key)
; CHECK:       right:
; CHECK-NEXT:    [[NEXTI:%.*]] = add i64 %half, 1
; CHECK-NEXT:    [[NEXT:%.*]] = getelementptr inbounds { i8, i32 }, ptr %base, i64 [[NEXTI]]
; CHECK:         %r = call ptr @search(ptr [[NEXT]], i64 %rest1, ptr %key)
; CHECK:       found:
; CHECK-NEXT:    %res.strtab = phi ptr [ [[MID]], %probe ], [ %l, %left ], [ %r, %right ]
; CHECK:       none:
; CHECK-NEXT:    ret ptr null

; CHECK-LABEL: define internal i32 @describe(ptr noundef nonnull %o)
; CHECK-NEXT:    %name.offset = load i8, ptr %o, align 1
; CHECK:         [[F:%.*]] = getelementptr inbounds i8, ptr %o, i64 4
; CHECK-NEXT:    %v = load i32, ptr [[F]], align 4

; CHECK-LABEL: define i32 @lookup(
; CHECK:         %o = call ptr @search(ptr @opts.offsets, i64 4, ptr %key)
; CHECK-NEXT:    %missing = icmp eq ptr %o, null
; CHECK:         %v = call i32 @describe(ptr %o)

; CHECK-LABEL: define i32 @pick(
; CHECK-NEXT:    %s.strtab = select i1 %b, ptr @opts.offsets, ptr getelementptr inbounds (i8, ptr @opts.offsets, i64 24)
; CHECK-NEXT:    %a = call i32 @describe(ptr %s.strtab)
; CHECK-NEXT:    [[E:%.*]] = getelementptr inbounds { i8, i32 }, ptr @opts.offsets, i64 %i
; CHECK-NEXT:    %c = call i32 @describe(ptr [[E]])

%struct.opt = type { ptr, i32 }

@.alpha = private unnamed_addr constant [6 x i8] c"alpha\00"
@.beta = private unnamed_addr constant [5 x i8] c"beta\00"
@.gamma = private unnamed_addr constant [6 x i8] c"gamma\00"
@.delta = private unnamed_addr constant [6 x i8] c"delta\00"
@opts = internal unnamed_addr constant [4 x %struct.opt] [%struct.opt { ptr @.alpha, i32 10 }, %struct.opt { ptr @.beta, i32 20 }, %struct.opt { ptr @.delta, i32 40 }, %struct.opt { ptr @.gamma, i32 30 }]

declare i32 @strcmp(ptr, ptr)
declare i32 @puts(ptr)

;; Recursive search over [%base, %base + %n): the argument receives the table
;; from the caller and addresses derived from itself; the results are
;; elements, null and its own calls.
define internal ptr @search(ptr dereferenceable(16) align 8 %base, i64 %n, ptr %key) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %none, label %probe

probe:
  %half = lshr i64 %n, 1
  %mid = getelementptr inbounds %struct.opt, ptr %base, i64 %half
  %name = load ptr, ptr %mid, align 8
  %c = call i32 @strcmp(ptr %key, ptr %name)
  %eq = icmp eq i32 %c, 0
  br i1 %eq, label %found, label %descend

descend:
  %lt = icmp slt i32 %c, 0
  br i1 %lt, label %left, label %right

left:
  %l = call ptr @search(ptr %base, i64 %half, ptr %key)
  br label %found

right:
  %next = getelementptr inbounds i8, ptr %mid, i64 16
  %rest = sub i64 %n, %half
  %rest1 = add i64 %rest, -1
  %r = call ptr @search(ptr %next, i64 %rest1, ptr %key)
  br label %found

found:
  %res = phi ptr [ %mid, %probe ], [ %l, %left ], [ %r, %right ]
  ret ptr %res

none:
  ret ptr null
}

;; The element is passed on to another module-local function, which reads
;; both fields; pointers into the table reach it from a call's result, a
;; select of two elements and a variable index.
define internal i32 @describe(ptr noundef nonnull %o) {
  %name = load ptr, ptr %o, align 8
  %1 = call i32 @puts(ptr %name)
  %f = getelementptr inbounds i8, ptr %o, i64 8
  %v = load i32, ptr %f, align 8
  ret i32 %v
}

define i32 @lookup(ptr %key) {
entry:
  %o = call ptr @search(ptr @opts, i64 4, ptr %key)
  %missing = icmp eq ptr %o, null
  br i1 %missing, label %out, label %show

show:
  %v = call i32 @describe(ptr %o)
  br label %out

out:
  %res = phi i32 [ %v, %show ], [ -1, %entry ]
  ret i32 %res
}

define i32 @pick(i1 %b, i64 %i) {
  %s = select i1 %b, ptr @opts, ptr getelementptr inbounds (i8, ptr @opts, i64 48)
  %a = call i32 @describe(ptr %s)
  %e = getelementptr inbounds %struct.opt, ptr @opts, i64 %i
  %c = call i32 @describe(ptr %e)
  %sum = add i32 %a, %c
  ret i32 %sum
}

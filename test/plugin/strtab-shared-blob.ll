; The tables of a module share one blob, so a literal two tables hold is
; stored once; a literal other code also uses moves into the blob (the only
; copy left); a table whose offsets would widen in the shared blob gets a
; blob of its own; a literal in llvm.used stays where it is.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes='kiln-strtab,verify' \
; RUN:   -pass-remarks=kiln-strtab -S %s -o %t.ll 2>%t.err
; RUN: FileCheck %s --input-file=%t.ll
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err
; RUN: FileCheck %s --check-prefix=GONE --input-file=%t.ll

;; The first table lowered into a blob counts the blob's bytes.
; REMARK:      string table first lowered: 2 entries (2 strings), 27 bytes to 19 bytes with i8 offsets
; REMARK-NEXT: string table second lowered: 3 entries (3 strings), 41 bytes to 3 bytes with i8 offsets
; REMARK-NEXT: string table wide lowered: 2 entries (2 strings), 258 bytes to 244 bytes with i8 offsets

;; "beta" (the same object in both tables) and "gamma" (two objects, equal
;; bytes) are stored once; "alpha", which @greet also prints, too.
; CHECK:     @.kept = private unnamed_addr constant [5 x i8] c"kept\00"
; CHECK:     @first.chars = private unnamed_addr constant [17 x i8] c"alpha\00beta\00gamma\00", align 1
; CHECK:     @first.offsets = private unnamed_addr constant [2 x i8] c"\00\06", align 1
; CHECK:     @second.offsets = private unnamed_addr constant [3 x i8] c"\06\0B\0B", align 1
;; In @first's blob @wide's "c" would start at 256: @wide keeps its own.
; CHECK:     @wide.chars = private unnamed_addr constant [242 x i8]
; CHECK:     @wide.offsets = private unnamed_addr constant [2 x i8] c"\00\F0", align 1
; GONE-NOT:  @.alpha =
; GONE-NOT:  @.beta =
; GONE-NOT:  @.gamma
; GONE-NOT:  @.big =
; CHECK-LABEL: define i32 @greet(
; CHECK-NEXT:    call i32 @puts(ptr @first.chars)
; CHECK-NEXT:    call i32 @puts(ptr getelementptr inbounds (i8, ptr @first.chars, i64 6))
; CHECK-NEXT:    call i32 @puts(ptr @.kept)

@.alpha = private unnamed_addr constant [6 x i8] c"alpha\00"
@.beta = private unnamed_addr constant [5 x i8] c"beta\00"
@.gamma1 = private unnamed_addr constant [6 x i8] c"gamma\00"
@.gamma2 = private unnamed_addr constant [6 x i8] c"gamma\00"
@.big = private unnamed_addr constant [240 x i8] c"\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\01\00"
@.c = private unnamed_addr constant [2 x i8] c"c\00"
@.kept = private unnamed_addr constant [5 x i8] c"kept\00"
@first = internal unnamed_addr constant [2 x ptr] [ptr @.alpha, ptr @.beta]
@second = internal unnamed_addr constant [3 x ptr] [ptr @.beta, ptr @.gamma1, ptr @.gamma2]
@wide = internal unnamed_addr constant [2 x ptr] [ptr @.big, ptr @.c]
@llvm.used = appending global [1 x ptr] [ptr @.kept], section "llvm.metadata"

declare i32 @puts(ptr)

define ptr @get(i64 %t, i64 %i) {
  %p1 = getelementptr inbounds ptr, ptr @first, i64 %i
  %s1 = load ptr, ptr %p1
  %p2 = getelementptr inbounds ptr, ptr @second, i64 %i
  %s2 = load ptr, ptr %p2
  %p3 = getelementptr inbounds ptr, ptr @wide, i64 %i
  %s3 = load ptr, ptr %p3
  %c1 = icmp eq i64 %t, 1
  %c2 = icmp eq i64 %t, 2
  %a = select i1 %c1, ptr %s1, ptr %s2
  %b = select i1 %c2, ptr %s3, ptr %a
  ret ptr %b
}

define i32 @greet() {
  call i32 @puts(ptr @.alpha)
  call i32 @puts(ptr @.beta)
  call i32 @puts(ptr @.kept)
  ret i32 0
}

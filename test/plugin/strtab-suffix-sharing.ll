; Duplicates share one copy, and a string that ends another lives inside it:
; "fire" is the tail of "on fire", both "error" entries are one string.
; Strings reached through a constant offset ("xerror" + 1) and strings with
; embedded NULs keep all their bytes.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-strtab -verify-each \
; RUN:   -pass-remarks=kiln-strtab -S %s -o - 2>%t.err | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

; CHECK:     @errors.chars = private unnamed_addr constant [21 x i8] c"on fire\00xerror\00ab\00cd\00", align 1
;;             on fire=0, fire=3, error=9 (inside xerror), error again=9, ab\0cd=15
; CHECK:     @errors.offsets = private unnamed_addr constant [5 x i8] c"\00\03\09\09\0F", align 1
; CHECK-NOT: @.str

; REMARK: string table errors lowered: 5 entries (5 strings), 66 bytes to 26 bytes with i8 offsets

@.str.0 = private unnamed_addr constant [8 x i8] c"on fire\00"
@.str.1 = private unnamed_addr constant [5 x i8] c"fire\00"
@.str.2 = private unnamed_addr constant [7 x i8] c"xerror\00"
@.str.3 = private unnamed_addr constant [6 x i8] c"ab\00cd\00"
@errors = internal unnamed_addr constant [5 x ptr] [ptr @.str.0, ptr @.str.1, ptr getelementptr (i8, ptr @.str.2, i64 1), ptr getelementptr (i8, ptr @.str.2, i64 1), ptr @.str.3]

define ptr @message(i64 %i) {
  %p = getelementptr inbounds ptr, ptr @errors, i64 %i
  %s = load ptr, ptr %p
  ret ptr %s
}

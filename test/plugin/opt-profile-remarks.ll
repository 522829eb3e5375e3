; kiln-profile-remarks reports, as ordinary optimization remarks, what Kiln
; reads from the profile; without a profile summary it says so.
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-profile-remarks \
; RUN:   -pass-remarks-output=%t.yaml -disable-output %s
; RUN: FileCheck %s --input-file=%t.yaml
; RUN: opt -load-pass-plugin=%kiln_plugin -passes=kiln-profile-remarks \
; RUN:   -pass-remarks-analysis=kiln-profile -disable-output %s 2>&1 \
; RUN:   | FileCheck %s --check-prefix=DIAG

; CHECK:      --- !Analysis
; CHECK-NEXT: Pass:            kiln-profile
; CHECK-NEXT: Name:            FunctionProfile
; CHECK-NEXT: Function:        counted
; CHECK-NEXT: Args:
; CHECK-NEXT:   - String:          'entry count '
; CHECK-NEXT:   - EntryCount:      '42'
; CHECK-NEXT:   - String:          ', temperature '
; CHECK-NEXT:   - Temperature:     none
; CHECK:      --- !Analysis
; CHECK:      Function:        uncounted
; CHECK:        - EntryCount:      none

; DIAG: remark: <unknown>:0:0: entry count 42, temperature none, 1 instructions
; DIAG: remark: <unknown>:0:0: entry count none, temperature none, 1 instructions

define void @counted() !prof !0 { ret void }
define void @uncounted() { ret void }

!0 = !{!"function_entry_count", i64 42}

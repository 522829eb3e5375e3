// clang with a front-end instrumentation profile and -mllvm -kiln-inline:
// the hot call to heavy, which LLVM's inliner refuses as too costly, is
// inlined (cost <= 3 x the hot call-site threshold); the never-executed call
// to rare, which the default inlines, stays a call; noinline warm stays a
// call. With an instrumentation profile LLVM decides hot call sites by its
// cost-benefit analysis, which inlines a callee this small; the test turns
// it off and lowers the hot call-site threshold to 50 so that a small
// function shows a refusal for cost. The warm loop makes the profile's hot
// count threshold lower than heavy's call count. The default's own missed
// remark for heavy is still written (it decides before Kiln does).
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang -O2 -fprofile-instr-generate %t/main.c -o %t/instrumented
// RUN: env LLVM_PROFILE_FILE=%t/main.profraw %t/instrumented
// RUN: llvm-profdata merge -o %t/main.profdata %t/main.profraw
// RUN: %clang -O2 -fprofile-instr-use=%t/main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -kiln-inline \
// RUN:   -mllvm -inline-enable-cost-benefit-analysis=false \
// RUN:   -mllvm -hot-callsite-threshold=50 \
// RUN:   -Rpass=kiln-inline -Rpass-missed=kiln-inline \
// RUN:   -S -emit-llvm %t/main.c -o %t/kiln.ll 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --input-file=%t/kiln.ll
//
// The same compile without -kiln-inline keeps the default's decisions.
// RUN: %clang -O2 -fprofile-instr-use=%t/main.profdata \
// RUN:   -fpass-plugin=%kiln_plugin -mllvm -inline-enable-cost-benefit-analysis=false \
// RUN:   -mllvm -hot-callsite-threshold=50 \
// RUN:   -S -emit-llvm %t/main.c -o %t/default.ll
// RUN: FileCheck %s --check-prefix=DEFAULT --input-file=%t/default.ll

// REMARK-DAG: main.c:[[#]]:[[#]]: remark: heavy inlined into main: hot call site (count [[#]], hot threshold [[#]]), cost [[#]] <= 150, budget left [[#]] instructions [-Rpass=kiln-inline]
// REMARK-DAG: main.c:[[#]]:[[#]]: remark: rare not inlined into main: cold call site (count 0, cold threshold [[#]]), cost [[#]] > 0, budget left [[#]] instructions [-Rpass-missed=kiln-inline]

// CHECK-LABEL: define {{.*}}i32 @main(
// CHECK-NOT:   call {{.*}}@heavy(
// CHECK:       call {{.*}}@warm(
// CHECK-NOT:   call {{.*}}@heavy(
// CHECK:       call {{.*}}@rare(
// CHECK-NOT:   call {{.*}}@heavy(
// CHECK:       {{^}}}

// DEFAULT-LABEL: define {{.*}}i32 @main(
// DEFAULT:       call {{.*}}@heavy(
// DEFAULT-NOT:   call {{.*}}@rare(
// DEFAULT:       {{^}}}

//--- main.c
volatile int Sink;

// Big enough that the default inliner refuses it at a hot call site with the
// lowered hot threshold of the test.
int heavy(int X) {
  int S = X;
  S = S * 31 + Sink;
  S ^= S >> 3;
  S = S * 31 + Sink;
  S ^= S >> 3;
  S = S * 31 + Sink;
  S ^= S >> 3;
  S = S * 31 + Sink;
  S ^= S >> 3;
  S = S * 31 + Sink;
  S ^= S >> 3;
  S = S * 31 + Sink;
  S ^= S >> 3;
  Sink = S;
  return S;
}

int rare(int X) {
  int S = X * 3 + Sink;
  S ^= Sink * (X >> 2);
  return S + Sink;
}

__attribute__((noinline)) int warm(int X) { return X + Sink; }

int main(int argc, char **argv) {
  int T = 0;
  for (int I = 0; I < 50000; ++I)
    T += warm(I);
  for (int I = 0; I < 100000; ++I)
    T += heavy(I);
  if (argc > 5)
    T += rare(argc);
  Sink = T;
  return 0;
}

// The whole flow with clang: an instrumented run, then a ThinLTO build with
// -fprofile-use and -mllvm -kiln-import-shaping. The hot cross-module call
// to work() becomes a critical edge of main.o's summary (remark and llvm-dis),
// the never-executed call to rarely() stays a cold one; under Chromium's
// -import-instr-limit=5 the thin link imports work() (critical: 500
// instructions allowed) where the stock build does not (hot: 50).
// extra.c was not part of the training: the profile has none of its
// functions, which is a warning, and the program still links.
// REQUIRES: x86_64-linux
// RUN: rm -rf %t && split-file %s %t && cd %t
// RUN: %clang -O2 -fprofile-generate=%t/raw main.c lib.c -o instrumented
// RUN: ./instrumented
// RUN: llvm-profdata merge -o app.profdata %t/raw
//
// RUN: %clang -O2 -flto=thin -fprofile-use=app.profdata -fpass-plugin=%kiln_plugin \
// RUN:   -mllvm -kiln-import-shaping -Rpass=kiln-import-shaping \
// RUN:   -Rpass-analysis=kiln-import-shaping -c main.c -o main.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: llvm-dis main.o -o - | FileCheck %s --check-prefix=SUMMARY
// RUN: %clang -O2 -flto=thin -fprofile-use=app.profdata -c main.c -o main-stock.o
// RUN: llvm-dis main-stock.o -o - | FileCheck %s --check-prefix=STOCK-SUMMARY
// RUN: %clang -O2 -flto=thin -fprofile-use=app.profdata -fpass-plugin=%kiln_plugin \
// RUN:   -mllvm -kiln-import-shaping -c lib.c -o lib.o
// RUN: %clang -O2 -flto=thin -fprofile-use=app.profdata -fpass-plugin=%kiln_plugin \
// RUN:   -mllvm -kiln-import-shaping -c extra.c -o extra.o 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXTRA
//
// RUN: ld.lld -e main --thinlto-jobs=1 -mllvm -import-instr-limit=5 \
// RUN:   -mllvm -print-imports main.o lib.o extra.o -o kiln.out 2>&1 \
// RUN:   | FileCheck %s --check-prefix=IMPORTS --implicit-check-not=Import
// RUN: ld.lld -e main --thinlto-jobs=1 -mllvm -import-instr-limit=5 \
// RUN:   -mllvm -print-imports main-stock.o lib.o extra.o -o stock.out 2>&1 \
// RUN:   | FileCheck %s --allow-empty --check-prefix=STOCK-IMPORTS \
// RUN:     --implicit-check-not=Import

// REMARK: main.c:[[#]]:[[#]]: remark: work marked for import into main: hot call site (count [[#]], hot threshold [[#]]), critical edge [-Rpass=kiln-import-shaping]
// REMARK: main.c:[[#]]:[[#]]: remark: rarely stays out of import into main: cold call sites (count 0, cold threshold [[#]]), a cold edge the importer does not take [-Rpass-analysis=kiln-import-shaping]

// SUMMARY-DAG: ^[[WORK:[0-9]+]] = gv: (name: "work")
// SUMMARY-DAG: ^[[RARELY:[0-9]+]] = gv: (name: "rarely")
// SUMMARY:     gv: (name: "main", {{.*}}calls: ((callee: ^[[WORK]], hotness: critical, tail: 1), (callee: ^[[RARELY]], hotness: cold, tail: 1))))) ;
// STOCK-SUMMARY-DAG: ^[[WORK:[0-9]+]] = gv: (name: "work")
// STOCK-SUMMARY-DAG: ^[[RARELY:[0-9]+]] = gv: (name: "rarely")
// STOCK-SUMMARY:     gv: (name: "main", {{.*}}calls: ((callee: ^[[WORK]], hotness: hot, tail: 1), (callee: ^[[RARELY]], hotness: cold, tail: 1))))) ;

// EXTRA: warning: kiln-import-shaping: module 'extra.c': the profile has no count for any of its 1 functions (a profile of another program or version?); no import is shaped

// IMPORTS: main.c: Import work from lib.c
// IMPORTS: main.c: Import Sink from lib.c
// STOCK-IMPORTS-NOT: Import

//--- main.c
int work(int);
int rarely(int);

int main(int argc, char **argv) {
  int T = 0;
  for (int I = 0; I < 20000; ++I)
    T += work(I);
  if (argc > 5)
    T += rarely(T);
  return T == 12345;
}

//--- lib.c
volatile int Sink;

// About 60 IR instructions: more than a hot edge allows under
// -import-instr-limit=5, less than a critical one.
int work(int X) {
  int S = X;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  S = S * 31 + Sink; S ^= S >> 3; S = S * 31 + Sink; S ^= S >> 3;
  Sink = S;
  return S;
}

int rarely(int X) { return X + Sink; }

//--- extra.c
int extra(int X) { return X * 7; }

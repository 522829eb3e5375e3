// The program the block-profile tests run: `loop` runs its body ten times,
// calling `work` for every third iteration (four calls); `fail` and the
// branch of `main` that calls it never run.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int work(int X) { return X * 3 + 1; }

__attribute__((noinline)) void fail(const char *Why) {
  fprintf(stderr, "error: %s\n", Why);
  exit(2);
}

__attribute__((noinline)) int loop(int N) {
  int Sum = 0;
  for (int I = 0; I < N; ++I) {
    if (I % 3 == 0)
      Sum += work(I);
    else
      Sum -= I;
  }
  return Sum;
}

int main(int Argc, char **Argv) {
  if (Argc > 5)
    fail("too many arguments");
  printf("%d\n", loop(10));
  return 0;
}

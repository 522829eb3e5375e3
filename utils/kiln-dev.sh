#!/usr/bin/env bash
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# kiln-dev.sh: everything a developer or CI needs, from a brand-new Debian 12
# machine to a result, in one command.
#
#   utils/kiln-dev.sh demo   install, build, then run Kiln's main job on the
#                            bundled sample application: the guided flow
#                            (kiln pgo instrument | run | optimize) against
#                            stock PGO + ThinLTO, and the before/after table
#   utils/kiln-dev.sh bench  install, build, then the full benchmark matrix
#                            on the sample application (bench/run.py)
#   utils/kiln-dev.sh test   install, build everything, check the code
#                            (lint) and run all tests (lit + unit tests:
#                            the check-kiln target)
#   utils/kiln-dev.sh lint   clang-format-22 on every C++ file, clang-tidy-22
#                            (.clang-tidy's checks) on every library and tool
#                            source; fails on any difference or warning
#   utils/kiln-dev.sh deps   only install the Debian packages that are missing
#   utils/kiln-dev.sh build  only configure and build
#
# Environment: KILN_BUILD_DIR (default: <repo>/build), KILN_JOBS (default:
# number of cores), KILN_BENCH_ARGS (extra arguments for bench/run.py).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KILN_BUILD_DIR:-$repo_root/build}
jobs=${KILN_JOBS:-$(nproc)}
llvm_bin=/usr/lib/llvm-22/bin

# Exactly what Kiln needs from Debian: LLVM 22 (headers, clang, lld as a
# library, lit/FileCheck, the profile runtime), GoogleTest/GoogleMock,
# Abseil, valgrind and BOLT (the benchmark's post-link row) for the
# benchmarks, and the build tools (make: the kiln pgo tests build small Make
# projects).
packages=(
  llvm-22-dev llvm-22-tools clang-22 lld-22 liblld-22-dev libclang-rt-22-dev
  zlib1g-dev libzstd-dev
  libgtest-dev libgmock-dev libabsl-dev
  valgrind bolt-22 python3 cmake ninja-build make
  clang-format-22 clang-tidy-22
)

log() { printf 'kiln-dev: %s\n' "$*" >&2; }

install_deps() {
  local missing=()
  for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    log "all ${#packages[@]} required packages are installed"
    return
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { log "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    sudo=(sudo)
  fi
  log "installing: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
}

configure_and_build() {
  if [ ! -f "$build_dir/build.ninja" ]; then
    log "configuring in $build_dir"
    cmake -G Ninja -S "$repo_root" -B "$build_dir" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$llvm_bin/clang" \
      -DCMAKE_CXX_COMPILER="$llvm_bin/clang++" \
      -DLLVM_EXTERNAL_LIT="$llvm_bin/lit"
  fi
  log "building with $jobs jobs"
  cmake --build "$build_dir" -j "$jobs"
}

run_tests() {
  log "running check-kiln (lit and unit tests)"
  local out status=0
  out=$(mktemp)
  cmake --build "$build_dir" -j "$jobs" --target check-kiln 2>&1 | tee "$out" ||
    status=1
  # One closing line that any CI can read: "N passed, M failed".
  local passed failed
  passed=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$out" | tail -1)
  failed=$(sed -n 's/^ *Failed *: *\([0-9]*\).*/\1/p' "$out" | tail -1)
  rm -f "$out"
  echo "${passed:-0} passed, ${failed:-0} failed"
  return $status
}

# Formatting and clang-tidy, over the whole tree: every C++ file is formatted
# by clang-format-22 with the repository's .clang-format, and the library and
# tool sources (not the tests) pass .clang-tidy's checks with no warning.
run_lint() {
  log "checking formatting (clang-format-22) and clang-tidy-22"
  cd "$repo_root"
  local unformatted
  # The C files under test/ are lit inputs, laid out around their RUN lines.
  unformatted=$(git ls-files '*.cpp' '*.h' '*.c' | grep -v '^test/.*[.]c$' |
    while read -r f; do
      clang-format-22 --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
    done)
  if [ -n "$unformatted" ]; then
    log "not formatted (run clang-format-22 -i on them):"
    printf '  %s\n' $unformatted >&2
    return 1
  fi
  git ls-files '*.cpp' | grep -v '^test/\|^bench/' |
    xargs -P "$jobs" -n 8 clang-tidy-22 -p "$build_dir" --quiet \
      --warnings-as-errors='*' 2> >(grep -v '^Suppressed\|^Use -header-filter' >&2)
}

run_demo() {
  log "running the guided flow on the bundled sample application"
  # The four commands a user types (bench/pgo_flow.py prints each step), then
  # the same program built with stock PGO + ThinLTO, both measured.
  python3 "$repo_root/bench/pgo_flow.py" --work-dir "$build_dir/pgo-demo" \
    --kiln-bin "$build_dir/bin" --jobs "$jobs"
}

run_bench() {
  log "running the benchmark matrix on the bundled sample application"
  # shellcheck disable=SC2086
  # The demo's rows (DEMO_CONFIGS in bench/lib/configs.py); KILN_BENCH_ARGS
  # may give another --configs (the last one wins).
  python3 "$repo_root/bench/run.py" --work-dir "$build_dir/bench" \
    --jobs "$jobs" --configs demo ${KILN_BENCH_ARGS:-}
}

case "${1:-}" in
  deps) install_deps ;;
  build) install_deps; configure_and_build ;;
  test) install_deps; configure_and_build; run_lint; run_tests ;;
  lint) install_deps; configure_and_build; run_lint ;;
  demo) install_deps; configure_and_build; run_demo ;;
  bench) install_deps; configure_and_build; run_bench ;;
  *)
    sed -n '5,24p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

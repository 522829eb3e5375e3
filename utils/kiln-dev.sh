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
#   utils/kiln-dev.sh fuzz [SECONDS]
#                            build the libFuzzer targets (test/fuzz, with
#                            ASan+UBSan) and run each for SECONDS (default
#                            60) from its seed corpus; prints executions
#                            and findings per target, fails on a finding
#   utils/kiln-dev.sh sanitize
#                            build Kiln with ASan+UBSan (the pass plugin
#                            stays unsanitized) and run all tests
#
# Environment: KILN_BUILD_DIR (default: <repo>/build), KILN_JOBS (default:
# number of cores), KILN_BENCH_ARGS (extra arguments for bench/run.py),
# KILN_FUZZ_BUILD_DIR (default: <repo>/build-fuzz), KILN_SANITIZE_BUILD_DIR
# (default: <repo>/build-sanitize).
set -euo pipefail

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${KILN_BUILD_DIR:-$repo_root/build}
jobs=${KILN_JOBS:-$(nproc)}
llvm_bin=/usr/lib/llvm-22/bin

# Exactly what Kiln needs from Debian: LLVM 22 (headers, clang, lld as a
# library, lit/FileCheck, the profile runtime), GoogleTest/GoogleMock,
# Abseil, valgrind and BOLT (the benchmark's post-link row) for the
# benchmarks, the build tools (make: the kiln pgo tests build small Make
# projects), and chromium (the test that renders kiln report's page).
packages=(
  llvm-22-dev llvm-22-tools clang-22 lld-22 liblld-22-dev libclang-rt-22-dev
  zlib1g-dev libzstd-dev
  libgtest-dev libgmock-dev libabsl-dev
  valgrind bolt-22 python3 cmake ninja-build make
  clang-format-22 clang-tidy-22
  chromium
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

# Configures build directory $1 (once) with LLVM 22's clang and lit, and
# the extra CMake arguments that follow.
configure_dir() {
  local dir=$1
  shift
  if [ ! -f "$dir/build.ninja" ]; then
    log "configuring in $dir"
    cmake -G Ninja -S "$repo_root" -B "$dir" \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$llvm_bin/clang" \
      -DCMAKE_CXX_COMPILER="$llvm_bin/clang++" \
      -DLLVM_EXTERNAL_LIT="$llvm_bin/lit" "$@"
  fi
}

configure_and_build() {
  configure_dir "$build_dir"
  log "building with $jobs jobs"
  cmake --build "$build_dir" -j "$jobs"
}

run_tests() {
  log "running check-kiln (lit and unit tests)"
  local out status=0
  out=$(mktemp)
  # lit runs as many tests at once as the build runs jobs.
  LIT_OPTS=${LIT_OPTS:--j $jobs} \
    cmake --build "$build_dir" -j "$jobs" --target check-kiln 2>&1 |
    tee "$out" || status=1
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

# The fuzz targets, by the name of their seed corpus in test/fuzz/corpus/.
fuzzers=(edge-list:EdgeListFuzzer profile:ProfileFuzzer
  linker-input:LinkerInputFuzzer option:OptionFuzzer
  link-command:LinkCommandFuzzer string-table:StringTableFuzzer)

# Seeds that are binary files, made from text at fuzz time: objects of each
# format (with call-graph sections), an archive, indexed and binary sample
# profiles (extensible-binary ones with and without compressed sections).
generate_seeds() {
  local corpus=$1 src=$repo_root/test/fuzz/corpus
  mkdir -p "$corpus/linker-input" "$corpus/profile"
  local asm=$src/linker-input/calls.s.txt
  "$llvm_bin/llvm-mc" -filetype=obj -triple=x86_64-unknown-linux "$asm" \
    -o "$corpus/linker-input/gen-elf.o"
  "$llvm_bin/llvm-mc" -filetype=obj -triple=aarch64-unknown-linux "$src/linker-input/calls-aarch64.s.txt" \
    -o "$corpus/linker-input/gen-elf-aarch64.o"
  "$llvm_bin/llvm-mc" -filetype=obj -triple=x86_64-pc-windows-msvc \
    "$src/linker-input/calls-coff.s.txt" -o "$corpus/linker-input/gen-coff.obj"
  "$llvm_bin/llvm-mc" -filetype=obj -triple=x86_64-apple-macos \
    "$src/linker-input/calls-macho.s.txt" -o "$corpus/linker-input/gen-macho.o"
  rm -f "$corpus/linker-input/gen-archive.a"
  "$llvm_bin/llvm-ar" rcs "$corpus/linker-input/gen-archive.a" \
    "$corpus/linker-input/gen-elf.o" "$corpus/linker-input/gen-elf-aarch64.o"
  "$llvm_bin/llvm-profdata" merge "$src/profile/ir.proftext" \
    -o "$corpus/profile/gen-ir.profdata"
  "$llvm_bin/llvm-profdata" merge "$src/profile/frontend.proftext" \
    -o "$corpus/profile/gen-frontend.profdata"
  "$llvm_bin/llvm-profdata" merge --sample --extbinary \
    "$src/profile/sample.prof" -o "$corpus/profile/gen-sample.extbinary"
  "$llvm_bin/llvm-profdata" merge --sample --binary \
    "$src/profile/sample.prof" -o "$corpus/profile/gen-sample.binary"
  "$llvm_bin/llvm-profdata" merge --sample --extbinary --compress-all-sections \
    "$src/profile/sample.prof" -o "$corpus/profile/gen-sample.zextbinary"
}

run_fuzz() {
  local seconds=${1:-60}
  local fuzz_dir=${KILN_FUZZ_BUILD_DIR:-$repo_root/build-fuzz}
  configure_dir "$fuzz_dir" -DKILN_BUILD_FUZZERS=ON -DKILN_INCLUDE_TESTS=OFF
  log "building the fuzzers with $jobs jobs"
  cmake --build "$fuzz_dir" -j "$jobs" --target kiln-fuzzers
  generate_seeds "$fuzz_dir/seeds"
  local summary=() status=0 entry name target
  for entry in "${fuzzers[@]}"; do
    name=${entry%%:*}
    target=${entry#*:}
    [ -x "$fuzz_dir/fuzz/$target" ] || continue
    # The corpus grows in the build directory; the repository's seeds and
    # the generated ones are read only.
    local work=$fuzz_dir/corpus/$name findings=$fuzz_dir/findings/$name
    local logfile=$fuzz_dir/findings/$name.log seeds=()
    mkdir -p "$work" "$findings"
    [ -d "$repo_root/test/fuzz/corpus/$name" ] &&
      seeds+=("$repo_root/test/fuzz/corpus/$name")
    [ -d "$fuzz_dir/seeds/$name" ] && seeds+=("$fuzz_dir/seeds/$name")
    log "running $target for ${seconds}s"
    local before
    before=$(find "$findings" -type f | wc -l)
    # An allocation too large to succeed returns null, as the product's
    # allocator does, and LLVM reports it as a fatal error (which Kiln's
    # guard turns into an error) instead of ASan ending the run.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
      UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
      "$fuzz_dir/fuzz/$target" -max_total_time="$seconds" -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$findings/" "$work" "${seeds[@]}" \
      >"$logfile" 2>&1 || status=1
    local runs found recovered
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -1)
    found=$(( $(find "$findings" -type f | wc -l) - before ))
    # Faults inside LLVM's readers that Kiln's guard turned into errors
    # (test/fuzz/FuzzerUtils.h): not findings, but worth knowing.
    recovered=$(sed -n "s/^kiln-fuzz: faults of LLVM's readers recovered: //p" \
      "$logfile" | tail -1)
    summary+=("$(printf '%-14s %12s executions  %d findings%s' "$name" \
      "${runs:-?}" "$found" "${recovered:+  ($recovered faults in LLVM readers recovered)}")")
    [ "$found" -eq 0 ] || status=1
  done
  printf '%s\n' "${summary[@]}"
  [ $status -eq 0 ] || log "findings (and logs) are in $fuzz_dir/findings"
  return $status
}

run_sanitize() {
  local san_dir=${KILN_SANITIZE_BUILD_DIR:-$repo_root/build-sanitize}
  configure_dir "$san_dir" -DKILN_USE_SANITIZERS="Address;Undefined"
  log "building the sanitized Kiln with $jobs jobs"
  cmake --build "$san_dir" -j "$jobs"
  # A sanitizer's report fails the process that made it, so the test that
  # ran it fails; lit passes these variables on to the tests.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    build_dir=$san_dir run_tests
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
  fuzz) install_deps; run_fuzz "${2:-60}" ;;
  sanitize) install_deps; run_sanitize ;;
  *)
    sed -n '5,34p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac

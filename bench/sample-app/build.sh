#!/usr/bin/env bash
# Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Build a generated kiln-sample tree.
#
#   build.sh DIR OUT [extra compiler flags...]
#
# DIR is a directory written by generate.py, OUT the build directory (object
# files in OUT/obj, the program in OUT/kiln-sample).  Every .c is compiled
# with clang-22 -std=c11, every .cpp with clang++-22 -std=c++17, all with
# -O2 -I DIR/src and then the extra flags (so a later -O0 wins); the link is
# clang++-22 -fuse-ld=lld with all the extra flags (so -flto=thin,
# -fprofile-generate, -fsanitize=... work).  Linker-only flags (-Wl,...,
# -fuse-ld=...) are passed to the link only.  Two compile jobs at a time;
# set KS_JOBS to change that.
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 DIR OUT [extra compiler flags...]" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
out=$2
shift 2
jobs=${KS_JOBS:-2}
CC=${KS_CC:-clang-22}
CXX=${KS_CXX:-clang++-22}

[ -f "$dir/sources.txt" ] || { echo "$0: $dir/sources.txt not found" >&2; exit 2; }
mkdir -p "$out/obj"
out=$(cd "$out" && pwd)

# One object per source; the object name keeps the path so that files with
# the same base name never clash.
compile_one() {
  local src=$1; shift
  local obj
  obj="$KS_OUT/obj/$(echo "$src" | tr '/' '_').o"
  case "$src" in
    *.c)   "$KS_CC_BIN" -std=c11 -O2 -I "$KS_DIR/src" "$@" -c "$KS_DIR/$src" -o "$obj" ;;
    *.cpp) "$KS_CXX_BIN" -std=c++17 -O2 -I "$KS_DIR/src" "$@" -c "$KS_DIR/$src" -o "$obj" ;;
    *)     echo "build.sh: unknown source type: $src" >&2; return 1 ;;
  esac
}
export -f compile_one
export KS_OUT="$out" KS_DIR="$dir" KS_CC_BIN="$CC" KS_CXX_BIN="$CXX"

cflags=()
for flag in "$@"; do
  case "$flag" in
    -Wl,*|-fuse-ld=*) ;;
    *) cflags+=("$flag") ;;
  esac
done

rm -f "$out"/obj/*.o
# shellcheck disable=SC2016
xargs -a "$dir/sources.txt" -P "$jobs" -I{} bash -c 'compile_one "$@"' _ {} ${cflags[@]+"${cflags[@]}"}

objs=()
while IFS= read -r src; do
  [ -n "$src" ] && objs+=("$out/obj/$(echo "$src" | tr '/' '_').o")
done < "$dir/sources.txt"
"$CXX" -fuse-ld=lld "$@" "${objs[@]}" -o "$out/kiln-sample"
echo "built $out/kiln-sample"

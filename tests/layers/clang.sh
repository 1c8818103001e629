#!/usr/bin/env bash
# clang.sh: the tree compiles with clang too (make clang-check: every source,
# compile only, the same warnings as errors), so that code only gcc accepts
# does not land.
cd "$(dirname "$0")/../.."
if ! command -v clang >/dev/null; then echo "not ok clang: clang is not installed (make setup)"; exit 0; fi
if out=$(make --no-print-directory BUILD="${BUILD:-build}" clang-check 2>&1); then
    echo "ok clang_compiles ($(echo "$out" | tail -1))"
else
    echo "not ok clang_compiles"
    echo "$out" | grep -E 'error' | head -20 | sed 's/^/  /'
fi

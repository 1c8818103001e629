#!/usr/bin/env bash
# boundaries.sh: the build refuses to cross a module boundary (DESIGN §3,
# scripts/check-deps.sh). A copy of the tree is built once; then each
# violation is put into the copy alone, `make` must fail naming the file, the
# include or symbol and the rule, and with the violation taken out it must
# build again. Undoing an include keeps the file's old time stamp, so the
# rebuilds stay incremental: only the symbol cases recompile one file.
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d /tmp/eddy-boundaries.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The sources as they stand (tracked and new files; outside git, every file
# but the build folders), without the fuzz corpora.
sources() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard
    else
        find . -path './build*' -prune -o -type f -printf '%P\0'
    fi
}
sources | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    grep -zv '^tests/fuzz/corpus/' | tar --null -T - -cf - | tar -xf - -C "$tmp"
cd "$tmp" || exit 1
# The suite, the bench, the fuzzers and the package check are not what is under
# test: stubs, so that a target that wrongly got past the check ends quickly.
for f in tests/run.sh tests/bench/run.sh tests/fuzz/run.sh scripts/setup.sh; do
    printf '#!/bin/sh\necho "stub %s ran"\nexit 0\n' "$f" >"$f"
done

B=b
mk() { timeout 300 make --no-print-directory -j2 OPT=-O0 BUILD=$B "$@" >"$tmp/make.out" 2>&1; }
t0=$SECONDS
if ! mk "$B/eddy"; then
    echo "not ok boundaries_clean_tree: the untouched tree does not build"
    tail -20 "$tmp/make.out" | sed 's/^/  /'
    exit 0
fi
echo "ok boundaries_clean_tree: the untouched tree passes the checks and builds ($((SECONDS - t0)) s)"

df=$(ls dataflow/*.c | head -1)
cat_c=$(ls catalog/*.c | head -1)
srv=$(ls server/srv_*.c | head -1)
tool=$(ls tests/tools/*.c | head -1); tool=$B/tools/$(basename "$tool" .c)
unit=$(ls tests/unit/test_*.c | head -1); unit=$B/tests/$(basename "$unit" .c)

# Every target that builds, for the cases that fail before anything compiles.
all_goals=(all "$B/eddy" "$B/libeddy.a" "$unit" "$tool" "$B/fuzz/replay_parser" deps test check tsan bench fuzz)
# The targets that reach the archive, for the symbol cases (check and tsan
# would first build the whole tree again under sanitizers; they meet the same
# archive rule through `all`).
lib_goals=(all "$B/eddy" "$B/libeddy.a" "$unit" "$tool" "$B/fuzz/replay_parser" deps)

# refused NAME EXPECTED GOAL...: every goal fails and says EXPECTED (an ERE).
refused() {
    local name=$1 want=$2 goal; shift 2
    for goal in "$@"; do
        if mk "$goal"; then
            echo "not ok boundaries_$name: make $goal built across the boundary"
            grep -v '^cc \|^ar \|^  *-o ' "$tmp/make.out" | tail -5 | sed 's/^/  /'
            return 1
        fi
        if ! grep -qE "$want" "$tmp/make.out"; then
            echo "not ok boundaries_$name: make $goal failed without saying /$want/"
            grep -v '^cc \|^ar ' "$tmp/make.out" | tail -5 | sed 's/^/  /'
            return 1
        fi
    done
}
# builds NAME: with the violation gone the tree builds again.
builds() {
    if ! mk "$B/eddy"; then
        echo "not ok boundaries_$1: does not build again once the violation is gone"
        grep -v '^cc \|^ar ' "$tmp/make.out" | tail -5 | sed 's/^/  /'
        return 1
    fi
}
# include_case NAME FILE LINE EXPECTED GOAL...: LINE appended to FILE is refused.
include_case() {
    local name=$1 file=$2 line=$3 want=$4; shift 4
    cp -p "$file" "$tmp/orig"
    printf '%s\n' "$line" >>"$file"
    refused "$name" "$want" "$@"; local rc=$?
    cp -p "$tmp/orig" "$file"
    [ $rc -eq 0 ] && builds "$name" && echo "ok boundaries_$name: $line in $file"
}
# symbol_case NAME FILE CODE EXPECTED|"" GOAL...: CODE (a function that calls through
# a prototype of its own) appended to FILE; EXPECTED empty: it must build.
symbol_case() {
    local name=$1 file=$2 code=$3 want=$4 rc=0; shift 4
    cp -p "$file" "$tmp/orig"
    printf '%s\n' "$code" >>"$file"
    if [ -n "$want" ]; then
        refused "$name" "$want" "$@"; rc=$?
    elif ! mk "$B/eddy"; then
        echo "not ok boundaries_$name: refused a call the rules allow"
        grep -v '^cc \|^ar ' "$tmp/make.out" | tail -5 | sed 's/^/  /'
        rc=1
    fi
    cp -p "$tmp/orig" "$file"
    touch "$file"   # its object has the probe in it: compile it again
    [ $rc -eq 0 ] && builds "$name" && echo "ok boundaries_$name: a local prototype in $file${want:+ is refused}"
}
probe() {   # probe FUNC PROTO CALL: a function that declares PROTO locally and returns CALL
    printf '\nint %s(int x);\nint %s(int x)\n{\n    %s;\n    return %s;\n}\n' "$1" "$1" "$2" "$3"
}

include_case include_quoted "$df" '#include "planner/planner.h"' \
    "$df:[0-9]+: includes \"planner/planner.h\" \(planner/planner.h\), but dataflow may not depend on planner" \
    "${all_goals[@]}"
include_case include_angle "$df" '#include <planner/planner.h>' \
    "$df:[0-9]+: includes <planner/planner.h> \(planner/planner.h\), but dataflow may not depend on planner" \
    "$B/eddy" all
include_case include_relative "$df" '#include "../planner/planner.h"' \
    "$df:[0-9]+: includes \"../planner/planner.h\" \(planner/planner.h\), but dataflow may not depend on planner" \
    "$B/eddy" all
include_case include_generated "$cat_c" '#include "sql.h"' \
    "$cat_c:[0-9]+: includes \"sql.h\" \(the parser grammar's generated $B/gen/sql.h\), but catalog may not depend on parser" \
    "$B/eddy" all
include_case include_internal "$srv" '#include "planner/pln_internal.h"' \
    "$srv:[0-9]+: includes \"planner/pln_internal.h\" \(planner/pln_internal.h\), an internal header of planner" \
    "$B/eddy" all

symbol_case symbol_prototype "$df" "$(probe df__boundary_probe 'int pln_parse(int)' 'pln_parse(x)')" \
    "$df \($B/obj/${df%.c}.o\): uses symbol pln_parse of planner, but dataflow may not depend on planner" \
    "${lib_goals[@]}"
symbol_case symbol_internal "$srv" "$(probe srv__boundary_probe 'int pln__boundary_probe(int)' 'pln__boundary_probe(x)')" \
    "$srv \($B/obj/${srv%.c}.o\): uses symbol pln__boundary_probe, an internal name of planner" \
    "$B/eddy" all
# libuv's uv_ and ZooKeeper's zoo_ look like prefixes but are no module's.
symbol_case symbol_library "$df" "$(probe df__boundary_probe 'struct _zhandle; uint64_t uv_hrtime(void); int zoo_state(struct _zhandle *)' \
    '(int)(uv_hrtime() & 1) + zoo_state(NULL) + x')" "" "$B/eddy"

mkdir -p dataflow/sub
printf '#include "dataflow/dataflow.h"\nint df__sub_probe;\n' >dataflow/sub/df_sub.c
refused subfolder "dataflow/sub/df_sub.c is in a subfolder of dataflow" "$B/eddy" all "$B/libeddy.a" && {
    rm -rf dataflow/sub
    builds subfolder && echo "ok boundaries_subfolder: dataflow/sub/df_sub.c is refused"
}
rm -rf dataflow/sub
echo "boundaries: $((SECONDS - t0)) s in all"
exit 0

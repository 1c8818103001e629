#!/usr/bin/env bash
# run.sh: make fuzz. Builds each libFuzzer target (tests/fuzz/fuzz_<target>.c) with
# clang -fsanitize=fuzzer,address,undefined and runs it for SECONDS (default 600,
# or FUZZ_SECONDS) over tests/fuzz/corpus/<target>/, where new inputs are added.
# Crashes land in build/fuzz/crash-* and fail the run. The target "grammar" is the
# grammar-based query fuzzer against a live eddy (ASan + UBSan) and PostgreSQL 15
# (tests/fuzz/grammar_run.sh), for the same SECONDS.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-${FUZZ_SECONDS:-600}}
[ -n "$secs" ] || secs=600
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(codec parser plan tls grammar)
out=build/fuzz
mkdir -p "$out"
make --no-print-directory build/gen/sql.h >/dev/null || exit 1

srcs_codec=(common/*.c server/srv_codec.c server/srv_codec_fuzz.c)
srcs_parser=(common/*.c parser/*.c build/gen/sql.c)
srcs_plan=(common/*.c types/*.c plan/*.c parser/*.c build/gen/sql.c catalog/*.c planner/*.c)
libs_plan=(-lzookeeper_st -lcrypto -lpcre2-8)
# The TLS target drives srv_tls.c (its context and session need nothing else of the server).
srcs_tls=(common/*.c server/srv_tls.c server/srv_codec.c server/srv_codec_fuzz.c)
libs_tls=(-luv -lzookeeper_st -lssl -lcrypto)
flags=(-std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer -I. -Ibuild/gen -Iparser
       -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -pthread)
status=0
for t in "${targets[@]}"; do
    if [ "$t" = grammar ]; then
        echo "== fuzz grammar: $secs s against eddy (ASan + UBSan) and PostgreSQL 15"
        tests/fuzz/grammar_run.sh "$secs" || status=1
        continue
    fi
    var="srcs_$t[@]"
    echo "== fuzz $t: building"
    libs="libs_$t[@]"
    if ! clang "${flags[@]}" -o "$out/fuzz_$t" "tests/fuzz/fuzz_$t.c" "${!var}" ${!libs+"${!libs}"} -lm; then
        echo "not ok fuzz_$t: build failed"; status=1; continue
    fi
    mkdir -p "tests/fuzz/corpus/$t"
    dict=()
    [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
    echo "== fuzz $t: $secs s over tests/fuzz/corpus/$t"
    if "$out/fuzz_$t" -max_total_time="$secs" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/$t-" "${dict[@]}" -print_final_stats=1 \
        "tests/fuzz/corpus/$t" >"$out/$t.log" 2>&1; then
        echo "ok fuzz_$t ($(grep -c . <(ls "tests/fuzz/corpus/$t")) corpus files)"
        grep -E 'stat::number_of_executed_units|stat::new_units_added' "$out/$t.log" | sed 's/^/   /'
    else
        echo "not ok fuzz_$t: see $out/$t.log"
        grep -E 'ERROR|SUMMARY|Test unit written' "$out/$t.log" | head -10 | sed 's/^/  /'
        status=1
    fi
done
exit $status

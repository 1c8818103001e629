#!/usr/bin/env bash
# grammar_fuzz.sh: a fixed-seed slice of the grammar-based query fuzzer
# (tests/fuzz/grammar.py) against the shared eddy and PostgreSQL 15. It fails
# only on a crash, a hang or (under make check) a sanitizer report; differing
# SQLSTATEs are counted in its summary line and written to
# $LOG_DIR/grammar/diffs.txt. make fuzz runs the same fuzzer for longer.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg eddy
out=${LOG_DIR:-/tmp}/grammar
mkdir -p "$out"
for seed in 1 2; do
    /usr/bin/python3 tests/fuzz/grammar.py --seed "$seed" --count "${GRAMMAR_FUZZ_COUNT:-1000}" \
        --san "${LOG_DIR:-}" --out "$out" "${EDDY_PORT:-}" "${PG_PORT:-}"
done
exit 0

#!/usr/bin/env bash
# grammar_run.sh: make fuzz's grammar-based query fuzzer. Builds eddy under
# ASan + UBSan (build/check, as make check does), starts it and a PostgreSQL 15,
# and runs tests/fuzz/grammar.py for SECONDS (default 600), one seed after
# another from SEED (default: the time); a crash or a sanitizer report is
# kept (build/fuzz/grammar/failures.sql, the reports beside it), eddy is
# started again and the run goes on with the next seed. Fails if anything
# was found.
#   tests/fuzz/grammar_run.sh [SECONDS] [SEED]
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:-600}
seed=${2:-$(date +%s)}
out=build/fuzz/grammar
mkdir -p "$out"
rm -f "$out"/san.* "$out"/failures.sql
make --no-print-directory BUILD=build/check OPT=-O1 \
    SAN_FLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
    build/check/eddy >/dev/null || { echo "not ok grammar_fuzz: build failed"; exit 1; }
export BUILD=build/check EDDY_BIN=$PWD/build/check/eddy LOG_DIR=$out
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=0:log_path=$PWD/$out/san"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$PWD/$out/san"
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
pg_start || { echo "not ok grammar_fuzz: PostgreSQL did not start"; exit 1; }
end=$((SECONDS + secs))
status=0
while [ $SECONDS -lt $end ]; do
    eddy_start || { echo "not ok grammar_fuzz: eddy did not start"; exit 1; }
    /usr/bin/python3 tests/fuzz/grammar.py --seed "$seed" --seconds $((end - SECONDS)) \
        --san "$out" --out "$out" "$EDDY_PORT" "$PG_PORT" || status=1
    eddy_stop "$EDDY_PID"
    seed=$((seed + 1))
done
exit $status

#!/usr/bin/env bash
# run.sh: runs every test layer and ends with "N passed, N failed".
#
# Each layer prints one "ok <name>" or "not ok <name>" line per test; this
# script counts them. It starts what the layers share (an eddy server and a
# PostgreSQL 15 for differential tests) on free loopback ports and stops them
# on exit, whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
export BUILD
export EDDY_BIN=$PWD/$BUILD/eddy
LOG_DIR=$(mktemp -d /tmp/eddy-test.XXXXXX)
export LOG_DIR
results=$LOG_DIR/results

source tests/lib/servers.sh
trap 'servers_stop_all' EXIT

# Sanitizer builds (make check, make tsan): every instrumented process (eddy
# servers, unit tests, C tools) writes its reports to $LOG_DIR/san.*, and any
# report fails the suite at the end, even one from a server in the background.
# A small quarantine keeps freed memory from counting as growth in the RSS checks.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:quarantine_size_mb=4:log_path=$LOG_DIR/san:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$LOG_DIR/san:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="second_deadlock_stack=1:log_path=$LOG_DIR/san:${TSAN_OPTIONS:-}"

layer() {   # layer NAME COMMAND...: runs one layer, keeps its output for counting
    local name=$1; shift
    echo "== $name"
    local out=$LOG_DIR/$name.out
    local t0=$SECONDS
    "$@" >"$out" 2>&1
    local rc=$?
    grep -E '^(ok|not ok) ' "$out" | sed "s/^/[$name] /" >>"$results"
    grep -E '^not ok |^  ' "$out" | head -40
    local p f
    p=$(grep -cE '^ok ' "$out"); f=$(grep -cE '^not ok ' "$out")
    if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then
        # A layer that crashed without reporting a failure still fails.
        echo "not ok $name exited with status $rc" | tee -a "$out"
        echo "[$name] not ok exited with status $rc" >>"$results"
        tail -20 "$out"
        f=1
    fi
    echo "   $p passed, $f failed ($((SECONDS - t0)) s)"
    # The shared eddy must survive every layer; if it died, say so and start another.
    if [ -n "${EDDY_PID:-}" ] && ! kill -0 "$EDDY_PID" 2>/dev/null; then
        echo "not ok eddy server survived layer $name"
        echo "[$name] not ok eddy server survived layer $name" >>"$results"
        tail -20 "$LOG_DIR/eddy.log"
        eddy_start || unset EDDY_PORT EDDY_PID
    fi
}

# ONLY=glob runs only the layers whose name matches (e.g. ONLY='wire*').
wanted() { [ -z "${ONLY:-}" ] || [[ $1 == $ONLY ]]; }

: >"$results"
# The shared servers: a PostgreSQL 15 for differential tests and one eddy with
# default settings. Layers that need special settings start their own.
echo "== servers"
if pg_start; then echo "   PostgreSQL 15 on 127.0.0.1:$PG_PORT"; else echo "   PostgreSQL did not start"; fi
if eddy_is_server && eddy_start; then
    echo "   eddy on 127.0.0.1:$EDDY_PORT ($EDDY_BIN)"
else
    unset EDDY_PORT EDDY_PID
    echo "   eddy is not running: $EDDY_BIN is missing, not the server yet, or did not start"
fi
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && wanted "unit-$(basename "$t" | sed 's/^test_//')" && layer "unit-$(basename "$t" | sed 's/^test_//')" "$t"
done
for f in tests/layers/*.sh; do
    [ -f "$f" ] && wanted "$(basename "$f" .sh)" && layer "$(basename "$f" .sh)" bash "$f"
done

# Stop the servers first so that their exit-time reports (leaks) are written.
servers_stop_all
for f in "$LOG_DIR"/san.*; do
    [ -f "$f" ] || continue
    echo "not ok sanitizer report $(basename "$f")"
    echo "[sanitizers] not ok report $f" >>"$results"
    grep -E '^(==|SUMMARY|WARNING: ThreadSanitizer|.*runtime error)' "$f" | head -5 | sed 's/^/  /'
done

passed=$(grep -c '\] ok ' "$results")
failed=$(grep -c '\] not ok ' "$results")
echo
echo "logs: $LOG_DIR"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]

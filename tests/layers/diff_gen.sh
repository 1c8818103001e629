#!/usr/bin/env bash
# diff_gen.sh: the seeded differential generator (tests/diff/gen.py): random tables, views and
# queries (and write batches between rounds) on eddy and on the shared PostgreSQL 15, compared
# (names, types, rows as multisets or in ORDER BY's order, SQLSTATEs). Fixed seeds, each
# against its own eddy with --workers 1, 2 and 4; then the materialized-view mode, which skips
# (and counts) what the engine refuses. Any difference fails; they are also written to
# $LOG_DIR/gen_diffs.txt. make soak runs the same generator over many seeds.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg
out=${LOG_DIR:-/tmp}/gen_diffs.txt
queries=${GEN_QUERIES:-300}
for workers in 1 2 4; do
    if ! eddy_start --workers "$workers"; then
        echo "not ok gen workers=$workers: eddy did not start"
        continue
    fi
    for seed in $((workers * 10 + 1)) $((workers * 10 + 2)); do
        /usr/bin/python3 tests/diff/gen.py --seed "$seed" --queries "$queries" --label "w$workers" \
            --out "$out" "$EDDY_PORT" "$PG_PORT"
    done
    if [ "$workers" = 2 ]; then
        /usr/bin/python3 tests/diff/gen.py --seed 7 --queries 60 --mode matview --label "mv_w$workers" \
            --out "$out" "$EDDY_PORT" "$PG_PORT"
    fi
    eddy_stop "$EDDY_PID"
done
exit 0

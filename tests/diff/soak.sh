#!/usr/bin/env bash
# soak.sh: the differential generator (gen.py) over fresh seeds for SECONDS (default 600):
# eddy with --workers 1, 2 and 4 in turn against one PostgreSQL 15, every fifth seed in
# materialized-view mode. Prints each run's line, writes differences to $LOG_DIR/gen_diffs.txt,
# and ends with the totals; exit status 1 if any run differed.
#   soak.sh [SECONDS]   (SOAK_SEED: the first seed, default the time)
set -uo pipefail
cd "$(dirname "$0")/../.."
LOG_DIR=${LOG_DIR:-$(mktemp -d /tmp/eddy-soak.XXXXXX)}
export LOG_DIR
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
seconds=${1:-600}
[ -n "$seconds" ] || seconds=600
seed=${SOAK_SEED:-$(date +%s)}
pg_start || { echo "not ok soak: PostgreSQL did not start"; exit 1; }
end=$((SECONDS + seconds)) runs=0 failed=0 workers_list=(1 2 4) i=0
while [ $SECONDS -lt $end ]; do
    workers=${workers_list[$((i % 3))]}
    eddy_start --workers "$workers" || { echo "not ok soak: eddy did not start"; exit 1; }
    for k in 1 2 3 4 5; do
        mode=adhoc
        [ $k = 5 ] && mode=matview
        /usr/bin/python3 tests/diff/gen.py --seed "$seed" --queries "${SOAK_QUERIES:-300}" --rounds 3 \
            --mode "$mode" --label "soak_w$workers" --out "$LOG_DIR/gen_diffs.txt" "$EDDY_PORT" "$PG_PORT" \
            | head -3
        [ "${PIPESTATUS[0]}" = 0 ] || failed=$((failed + 1))
        runs=$((runs + 1)) seed=$((seed + 1))
        [ $SECONDS -lt $end ] || break
    done
    eddy_stop "$EDDY_PID"
    i=$((i + 1))
done
echo "soak: $runs runs, $failed with differences (see $LOG_DIR/gen_diffs.txt)"
[ $failed = 0 ]

#!/usr/bin/env bash
# mview.sh: materialized views kept up to date by the workers, against PostgreSQL 15
# (tests/diff/mview.py: seeded random writes, every view compared after every batch),
# on eddy servers of their own with --workers 1, 2 and 4.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg
for w in 1 2 4; do
    if eddy_start --workers "$w" --view-recursion-limit 300; then
        for seed in $((w * 100 + 1)) $((w * 100 + 2)); do
            echo "# tests/diff/mview.py --workers $w seed $seed"
            /usr/bin/python3 tests/diff/mview.py "$EDDY_PORT" "$PG_PORT" "$seed" 30 300 |
                sed "s/^\(not ok\|ok\) /\1 workers $w: /"
        done
        eddy_stop "$EDDY_PID"
    else
        echo "not ok mview workers $w: eddy --workers $w did not start"
    fi
done
exit 0

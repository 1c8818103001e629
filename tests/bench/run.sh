#!/usr/bin/env bash
# run.sh: make bench. pgbench "SELECT 1;" against eddy and a PostgreSQL 15 (own
# temp cluster), both on free loopback ports, in the simple, extended and
# prepared protocols. Runs alternate between the servers (and which goes first)
# so that both see the same machine; the table gives TPS and eddy/PostgreSQL.
#   BENCH_SECONDS=10 BENCH_CLIENTS=8 BENCH_THREADS=2 BENCH_ROUNDS=1 tests/bench/run.sh
# Then the same over TLS, and TLS handshakes per second (tests/bench/tls.sh; BENCH_TLS=0 skips it).
# Then DDL latency on the same two servers (tests/bench/ddl.py): a 10,000-object
# catalog, CREATE VIEW p50/p99 and SHOW OBJECTS against PostgreSQL's CREATE VIEW and
# pg_class listing, with issue 3's targets, and that pg_class query on both. BENCH_DDL=0 skips it;
#   BENCH_DDL_OBJECTS=10000 BENCH_DDL_STATEMENTS=300 BENCH_DDL_SHOWS=30 size it.
# Then sequencing throughput and commit-to-applied latency for 1, 2 and 4 workers
# (tests/tools/seq_bench.c); BENCH_SEQ=0 skips it, BENCH_SEQ_COMMITS / BENCH_SEQ_BURST size it.
# Then DDL latency with the catalog in ZooKeeper (tests/bench/ddl_zk.py): CREATE VIEW + DROP VIEW
# pairs on eddy --zookeeper (a standalone ZooKeeper started here), eddy embedded and PostgreSQL;
# BENCH_ZK=0 skips it, BENCH_ZK_PAIRS sizes it (ZooKeeper's JVM is warmed up first with
# BENCH_ZK_JIT_WARMUP unmeasured zk_rtt rounds); then tests/tools/zk_rtt prints ZooKeeper's own
# round trips for a get and a commit-shaped multi on that server (the floor; BENCH_ZK_RTT sizes it). BENCH_MODES= (empty) skips pgbench, so
#   BENCH_MODES= BENCH_DDL=0 BENCH_SEQ=0 tests/bench/run.sh   runs only the ZooKeeper part.
# Then a materialized view's freshness on 10k and 1M rows (tests/bench/mview.py; BENCH_MV=0 skips it).
# Then the engine's COPY, ad hoc GROUP BY, view reads, INSERT rate and workers 1 vs 2
# (tests/bench/engine.py; BENCH_ENGINE=0 skips it, BENCH_ENGINE_ROWS / _SECONDS size it).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
export EDDY_BIN=${EDDY_BIN:-$PWD/$BUILD/eddy}
LOG_DIR=$(mktemp -d /tmp/eddy-bench.XXXXXX)
export LOG_DIR
source tests/lib/servers.sh
trap 'servers_stop_all; rm -rf "$LOG_DIR"' EXIT
T=${BENCH_SECONDS:-10} C=${BENCH_CLIENTS:-8} J=${BENCH_THREADS:-2} R=${BENCH_ROUNDS:-1}
MODES=(${BENCH_MODES-simple extended prepared})

eddy_start || { echo "bench: eddy did not start"; exit 1; }
pg_start || { echo "bench: PostgreSQL did not start"; exit 1; }

bench_one() {   # bench_one PORT MODE: prints the TPS
    local out
    out=$(pgbench -n -f tests/bench/select1.sql -c "$C" -j "$J" -T "$T" -M "$2" \
          -h 127.0.0.1 -p "$1" -U postgres eddy 2>&1)
    local tps
    tps=$(sed -nE 's/^tps = ([0-9.]+) \(without initial connection time\)/\1/p' <<<"$out")
    if [ -z "$tps" ]; then
        echo "bench: pgbench -M $2 on port $1 failed:" >&2
        tail -5 <<<"$out" >&2
        echo 0
    else
        echo "$tps"
    fi
}

declare -A eddy_tps pg_tps
echo "pgbench -n -f select1.sql -c $C -j $J -T $T, $R round(s), $(nproc) CPUs"
echo "eddy: $EDDY_BIN ($("$EDDY_BIN" --version 2>&1 | head -1)); PostgreSQL: $("$PG_BIN/postgres" --version)"
k=0
for ((r = 0; r < R; r++)); do
    for m in "${MODES[@]}"; do
        if ((k++ % 2 == 0)); then
            e=$(bench_one "$EDDY_PORT" "$m"); p=$(bench_one "$PG_PORT" "$m")
        else
            p=$(bench_one "$PG_PORT" "$m"); e=$(bench_one "$EDDY_PORT" "$m")
        fi
        eddy_tps[$m]="${eddy_tps[$m]:-} $e"; pg_tps[$m]="${pg_tps[$m]:-} $p"
    done
done
((${#MODES[@]})) && printf '\n%-10s %14s %14s %10s\n' mode "eddy TPS" "PG15 TPS" "eddy/PG"
for m in "${MODES[@]}"; do
    # The median of the rounds for each server.
    e=$(tr ' ' '\n' <<<"${eddy_tps[$m]}" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    p=$(tr ' ' '\n' <<<"${pg_tps[$m]}" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    ratio=$(awk -v e="$e" -v p="$p" 'BEGIN { if (p > 0) printf "%.2f", e / p; else print "n/a" }')
    printf '%-10s %14.0f %14.0f %10s\n' "$m" "$e" "$p" "$ratio"
done

rc=0
# --- TLS (tests/bench/tls.sh): SELECT 1 and handshakes per second, both servers over TLS.
if [ "${BENCH_TLS:-1}" != 0 ]; then
    echo
    bash tests/bench/tls.sh || rc=1
fi

# --- DDL latency on a large catalog (tests/bench/ddl.py).
if [ "${BENCH_DDL:-1}" != 0 ]; then
    echo
    /usr/bin/python3 tests/bench/ddl.py "$EDDY_PORT" "$PG_PORT" || rc=1
fi

# --- Sequencing (issue 5): worker 0 to N workers over the embedded store, no
# network; commands/s and store commit -> applied by every worker (target p50 <= 1 ms).
if [ "${BENCH_SEQ:-1}" != 0 ]; then
    echo
    "$BUILD"/tools/seq_bench -n "${BENCH_SEQ_COMMITS:-2000}" -m "${BENCH_SEQ_BURST:-20000}" || rc=1
fi

# --- DDL with the catalog in ZooKeeper (issue 4): a second eddy on a standalone ZooKeeper.
if [ "${BENCH_ZK:-1}" != 0 ]; then
    echo
    mem_port=$EDDY_PORT
    if zk_start && eddy_start --zookeeper "$ZK_ADDR/bench"; then
        # ZooKeeper is a JVM started moments ago: until its JIT has compiled the request path
        # (thousands of requests) it runs slower code, and its compiler threads take the CPUs
        # (2 here) that eddy's threads and PostgreSQL need. A production ensemble runs for
        # months, so ZooKeeper alone gets unmeasured rounds of zk_rtt first (a get and a
        # commit-shaped multi each, on a chroot of its own; BENCH_ZK_JIT_WARMUP sizes it).
        "$BUILD"/tools/zk_rtt "$ZK_ADDR/bench_jit" "${BENCH_ZK_JIT_WARMUP:-10000}" >/dev/null 2>&1 || rc=1
        /usr/bin/python3 tests/bench/ddl_zk.py "$mem_port" "$EDDY_PORT" "$PG_PORT" || rc=1
        # The floor under the ZooKeeper numbers: the same server, no eddy in between.
        "$BUILD"/tools/zk_rtt "$ZK_ADDR/bench_rtt" "${BENCH_ZK_RTT:-2000}" 2>/dev/null || rc=1
    else
        echo "bench: eddy on ZooKeeper did not start"; rc=1
    fi
fi
# --- Materialized view freshness (tests/bench/mview.py): eddy --workers 2 beside PostgreSQL's
# INSERT + REFRESH, then a join view's update rates and freshness; BENCH_MV=0 skips it, BENCH_MV_ROWS /
# BENCH_MV_FRESH size it (BENCH_MV_JOIN=0 skips the join, BENCH_MV_JOIN_SECONDS / _CLIENTS size it).
if [ "${BENCH_MV:-1}" != 0 ]; then
    echo
    if eddy_start --workers 2; then
        /usr/bin/python3 tests/bench/mview.py "$EDDY_PORT" "$EDDY_PID" "$PG_PORT" || rc=1
        eddy_stop "$EDDY_PID"
    else
        echo "bench: eddy --workers 2 did not start"; rc=1
    fi
fi
# --- The engine's load, read and write figures (tests/bench/engine.py), eddy --workers 2.
if [ "${BENCH_ENGINE:-1}" != 0 ]; then
    echo
    if eddy_start --workers 2; then
        /usr/bin/python3 tests/bench/engine.py "$EDDY_PORT" "$EDDY_PID" "$PG_PORT" || rc=1
        eddy_stop "$EDDY_PID"
    else
        echo "bench: eddy --workers 2 did not start"; rc=1
    fi
fi
exit $rc

#!/usr/bin/env bash
# metrics.sh: /metrics parsed by Prometheus' text-format parser with values
# that move as statements run, /healthz and /readyz, eddy_internal.metrics,
# and answers that stay fast while the server is busy (tests/ops/metrics.py);
# then cluster mode against a real ZooKeeper: /readyz says owner and standby,
# the ZooKeeper figures are there, and /readyz turns 503 when ZooKeeper goes.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
if ! eddy_is_server; then echo "not ok metrics: $EDDY_BIN is not the server yet"; exit 0; fi
/usr/bin/python3 tests/ops/metrics.py "$EDDY_BIN"

: "${LOG_DIR:=/tmp}"
if ! zk_start; then echo "not ok metrics_cluster: ZooKeeper did not start"; exit 0; fi
# start_cluster_eddy NAME: an eddy of cluster c1 serving HTTP; sets NAME_PORT, NAME_HTTP, NAME_PID.
start_cluster_eddy() {
    local port http
    port=$(free_port); http=$(free_port)
    "$EDDY_BIN" --listen 127.0.0.1:"$port" --http-listen 127.0.0.1:"$http" --zookeeper "$ZK_ADDR/metrics" \
        --cluster c1 --workers 1 --zookeeper-session-timeout-ms 2000 >>"$LOG_DIR/metrics.cluster.log" 2>&1 &
    SERVERS_PIDS+=("$!")
    printf -v "${1}_PORT" %s "$port"; printf -v "${1}_HTTP" %s "$http"; printf -v "${1}_PID" %s "$!"
}
# wait_ready HTTP_PORT STATUS BODY_PREFIX: polls /readyz for up to 30 s; prints the last answer.
wait_ready() {
    local i out
    for ((i = 0; i < 600; i++)); do
        out=$(curl -s -o /dev/stdout -w ' %{http_code}' "http://127.0.0.1:$1/readyz" 2>/dev/null | tr -d '\n')
        [[ $out == "$3"*" $2" ]] && { echo "$out"; return 0; }
        sleep 0.05
    done
    echo "$out"
    return 1
}
start_cluster_eddy A
if out=$(wait_ready "$A_HTTP" 200 "ready: owner"); then
    echo "ok metrics_readyz_owner: the first eddy of cluster c1 answers /readyz: $out"
else
    echo "not ok metrics_readyz_owner: /readyz said: $out"
fi
start_cluster_eddy B
if out=$(wait_ready "$B_HTTP" 200 "ready: standby"); then
    echo "ok metrics_readyz_standby: the second eddy of cluster c1 answers /readyz: $out"
else
    echo "not ok metrics_readyz_standby: /readyz said: $out"
fi
psql -X -qAt -h 127.0.0.1 -p "$A_PORT" -U eddy eddy -c 'CREATE TABLE zk_m(a int)' >/dev/null 2>&1
m=$(curl -s "http://127.0.0.1:$A_HTTP/metrics")
commits=$(grep -E '^eddy_zookeeper_call_duration_seconds_count\{call="commit"\} ' <<<"$m" | cut -d' ' -f2)
if grep -qx 'eddy_zookeeper_session_state{state="connected"} 1' <<<"$m" && grep -qx 'eddy_cluster_owner 1' <<<"$m" &&
   [ "${commits:-0}" -ge 1 ]; then
    echo "ok metrics_zookeeper_figures: session connected, owner, $commits commit round trips after a CREATE TABLE"
else
    echo "not ok metrics_zookeeper_figures: $(grep -E '^eddy_(zookeeper|cluster)' <<<"$m" | grep -v _bucket | tr '\n' ' ')"
fi
zk_stop
if out=$(wait_ready "$A_HTTP" 503 "not ready: ZooKeeper is not connected"); then
    echo "ok metrics_readyz_zookeeper_lost: with ZooKeeper stopped /readyz answers: $out"
else
    echo "not ok metrics_readyz_zookeeper_lost: /readyz said: $out"
fi
if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$A_HTTP/healthz")" = 200 ]; then
    echo "ok metrics_healthz_without_zookeeper: the process is alive: /healthz 200"
else
    echo "not ok metrics_healthz_without_zookeeper"
fi

# servers.sh: start and stop the servers a test layer needs, on free loopback ports.
# Sourced by tests/run.sh and by layer scripts run on their own.

SERVERS_PIDS=()

free_port() {   # prints a TCP port nobody listens on
    /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

wait_port() {   # wait_port PORT SECONDS
    local port=$1 limit=$2 i
    for ((i = 0; i < limit * 20; i++)); do
        if (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null; then return 0; fi
        sleep 0.05
    done
    return 1
}

eddy_start() {   # eddy_start [ARGS...]: starts eddy, sets EDDY_PORT and EDDY_PID
    EDDY_PORT=$(free_port)
    "$EDDY_BIN" --listen 127.0.0.1:"$EDDY_PORT" "$@" >>"${LOG_DIR:-/tmp}/eddy.log" 2>&1 &
    EDDY_PID=$!
    SERVERS_PIDS+=("$EDDY_PID")
    export EDDY_PORT EDDY_PID
    wait_port "$EDDY_PORT" 10 || { echo "eddy did not start" >&2; return 1; }
}

servers_stop_all() {
    local p
    for p in "${SERVERS_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${SERVERS_PIDS[@]}"; do wait "$p" 2>/dev/null; done
    SERVERS_PIDS=()
    [ -n "${PG_DATA:-}" ] && pg_stop
}

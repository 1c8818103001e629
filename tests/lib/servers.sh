# servers.sh: start and stop the servers a test layer needs, on free loopback ports.
# Sourced by tests/run.sh and by layer scripts run on their own.
#
#   eddy_start [ARGS...]   starts $EDDY_BIN on a free port: EDDY_PORT, EDDY_PID
#   pg_start [-c name=value ...]
#                          initdb's a fresh PostgreSQL 15 cluster in a temp dir and
#                          starts it on a free port: PG_PORT, PG_DATA, PG_PID
#   servers_need           in a layer: reuse the servers run.sh exported, or start
#                          both (eddy only if it is built) and stop them on exit
#   zk_start               starts a standalone ZooKeeper (Debian's `zookeeper` package)
#                          in a temp dir on a free port: ZK_PORT, ZK_ADDR, ZK_PID, ZK_DIR
#   zk_stop                stops it and removes its directory
#   zk_ensemble_start      a 3-node ZooKeeper ensemble on free ports: ZK_ENS_ADDR (the
#                          connect string), ZK_ENS_PIDS (pid,pid,pid), ZK_ENS_DIR (node i's
#                          config is $ZK_ENS_DIR/zk<i>/zoo.cfg, so a test can restart it)
#   zk_ensemble_stop       stops it and removes its directory
#   servers_stop_all       stops everything started through this file
#
# Everything binds to 127.0.0.1 only; PostgreSQL's unix socket lives in its temp dir.

SERVERS_PIDS=()
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PY=/usr/bin/python3
EDDY_BIN=${EDDY_BIN:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/${BUILD:-build}/eddy}
export EDDY_BIN

free_port() {   # prints a TCP port nobody listens on
    $PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
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
    if ! wait_port "$EDDY_PORT" 10 || ! kill -0 "$EDDY_PID" 2>/dev/null; then
        echo "eddy did not start (see ${LOG_DIR:-/tmp}/eddy.log)" >&2
        return 1
    fi
}

eddy_stop() {   # eddy_stop PID: stops one eddy started by eddy_start, waits for it
    local pid=$1 p keep=()
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    local rc=$?
    for p in "${SERVERS_PIDS[@]}"; do [ "$p" != "$pid" ] && keep+=("$p"); done
    SERVERS_PIDS=("${keep[@]}")
    return $rc
}

# Runs a PostgreSQL tool as the postgres OS user when we are root (initdb and
# postgres refuse to run as root), as ourselves otherwise.
pg__as() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {   # pg_start [-c name=value ...]: fresh cluster, trust auth, free port
    local dir
    dir=$(mktemp -d /tmp/eddy-pg.XXXXXX) || return 1
    [ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
    PG_DIR=$dir
    PG_DATA=$dir/data
    PG_PORT=$(free_port)
    if ! pg__as "$PG_BIN/initdb" -D "$PG_DATA" -U postgres -A trust -E UTF8 --locale=C.UTF-8 \
            --no-sync >"$dir/initdb.log" 2>&1; then
        echo "initdb failed:" >&2; cat "$dir/initdb.log" >&2
        return 1
    fi
    # Settings go into postgresql.conf so that pg_ctl needs no quoting.
    {
        echo "listen_addresses = '127.0.0.1'"
        echo "port = $PG_PORT"
        echo "unix_socket_directories = '$dir'"
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
        echo "timezone = 'UTC'"
        echo "log_timezone = 'UTC'"
        echo "lc_messages = 'C'"
        echo "max_connections = 200"
        echo "shared_buffers = 32MB"
        echo "logging_collector = off"
    } >>"$PG_DATA/postgresql.conf"
    while [ $# -gt 0 ]; do
        if [ "$1" = "-c" ] && [ $# -ge 2 ]; then
            echo "${2%%=*} = '${2#*=}'" >>"$PG_DATA/postgresql.conf"; shift 2
        else
            echo "pg_start: unknown argument $1" >&2; return 1
        fi
    done
    if ! pg__as "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$dir/server.log" -w -t 30 start >/dev/null 2>&1; then
        echo "PostgreSQL did not start:" >&2; cat "$dir/server.log" >&2
        return 1
    fi
    PG_PID=$(head -1 "$PG_DATA/postmaster.pid")
    # A database named like eddy's default one, so that tests can use the same
    # connection parameters (user postgres, database eddy) against both servers.
    pg__as "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -qAtX \
        -c 'CREATE DATABASE eddy' >/dev/null 2>&1
    export PG_PORT PG_DATA PG_PID PG_DIR
    # Not exported: a layer that inherits PG_PORT must not stop the shared server.
    PG_OWNED=1
}

pg_stop() {   # stops the cluster pg_start made and removes its directory
    [ -n "${PG_DATA:-}" ] || return 0
    if [ -f "$PG_DATA/postmaster.pid" ]; then
        pg__as "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w -t 30 stop >/dev/null 2>&1
    fi
    rm -rf "$PG_DIR"
    PG_DATA= PG_DIR= PG_PORT= PG_PID= PG_OWNED=
}

# ZooKeeper runs from the jars of Debian's package with a minimal config: no
# admin server (it would take port 8080 and clash between tests), tickTime 500
# so that session timeouts (2 to 20 ticks) make expiry tests fast, and only the
# four-letter words the tests use. The server logs nothing (no SLF4J binding).
ZK_JAR=${ZK_JAR:-/usr/share/java/zookeeper.jar}

zk_start() {   # zk_start: standalone ZooKeeper on a free port: ZK_PORT, ZK_ADDR, ZK_PID, ZK_DIR
    local dir i
    if [ ! -f "$ZK_JAR" ] || ! command -v java >/dev/null 2>&1; then
        echo "ZooKeeper is not installed ($ZK_JAR, java); run scripts/setup.sh" >&2
        return 1
    fi
    dir=$(mktemp -d /tmp/eddy-zk.XXXXXX) || return 1
    ZK_DIR=$dir
    ZK_PORT=$(free_port)
    {
        echo "tickTime=500"
        echo "dataDir=$dir/data"
        echo "clientPort=$ZK_PORT"
        echo "clientPortAddress=127.0.0.1"
        echo "admin.enableServer=false"
        echo "4lw.commands.whitelist=ruok,srvr,stat,mntr,cons"
        echo "maxClientCnxns=0"
        echo "forceSync=no"
    } >"$dir/zoo.cfg"
    mkdir -p "$dir/data"
    java -Xmx256m -cp "$dir:$ZK_JAR" org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zoo.cfg" \
        >"$dir/server.log" 2>&1 &
    ZK_PID=$!
    SERVERS_PIDS+=("$ZK_PID")
    ZK_ADDR=127.0.0.1:$ZK_PORT
    export ZK_PORT ZK_ADDR ZK_PID ZK_DIR
    # Listening is not serving: wait until it answers ruok with imok.
    for ((i = 0; i < 600; i++)); do
        kill -0 "$ZK_PID" 2>/dev/null || break
        if [ "$(zk__4lw ruok)" = imok ]; then return 0; fi
        sleep 0.05
    done
    echo "ZooKeeper did not start on $ZK_ADDR:" >&2
    tail -20 "$dir/server.log" >&2
    zk_stop
    return 1
}

zk__4lw() {   # zk__4lw WORD: a four-letter word's answer from the server zk_start made
    local out
    out=$({ exec 3<>/dev/tcp/127.0.0.1/"$ZK_PORT" && printf '%s' "$1" >&3 && timeout 2 cat <&3; } 2>/dev/null)
    printf '%s' "$out"
}

zk_stop() {   # stops the ZooKeeper zk_start made and removes its directory
    [ -n "${ZK_DIR:-}" ] || return 0
    local p keep=()
    if [ -n "${ZK_PID:-}" ]; then
        kill "$ZK_PID" 2>/dev/null
        wait "$ZK_PID" 2>/dev/null
        for p in "${SERVERS_PIDS[@]}"; do [ "$p" != "$ZK_PID" ] && keep+=("$p"); done
        SERVERS_PIDS=("${keep[@]}")
    fi
    rm -rf "$ZK_DIR"
    ZK_DIR= ZK_PORT= ZK_ADDR= ZK_PID=
    return 0
}

# The ensemble: the same settings as zk_start plus the quorum and election
# ports of every node; a leader is elected within a few ticks.
zk_ensemble_start() {   # zk_ensemble_start: three nodes, see the header
    local dir i j cport qport eport pids=() addrs=()
    dir=$(mktemp -d /tmp/eddy-zkens.XXXXXX) || return 1
    ZK_ENS_DIR=$dir
    local servers=""
    local cports=()
    for i in 1 2 3; do
        cports[$i]=$(free_port); qport=$(free_port); eport=$(free_port)
        servers+="server.$i=127.0.0.1:$qport:$eport"$'\n'
    done
    for i in 1 2 3; do
        mkdir -p "$dir/zk$i/data"
        echo "$i" >"$dir/zk$i/data/myid"
        {
            echo "tickTime=500"
            echo "initLimit=10"
            echo "syncLimit=5"
            echo "dataDir=$dir/zk$i/data"
            echo "clientPort=${cports[$i]}"
            echo "clientPortAddress=127.0.0.1"
            echo "admin.enableServer=false"
            echo "4lw.commands.whitelist=ruok,srvr,stat,mntr,cons"
            echo "maxClientCnxns=0"
            echo "forceSync=no"
            printf '%s' "$servers"
        } >"$dir/zk$i/zoo.cfg"
        java -Xmx256m -cp "$dir/zk$i:$ZK_JAR" org.apache.zookeeper.server.quorum.QuorumPeerMain \
            "$dir/zk$i/zoo.cfg" >"$dir/zk$i/server.log" 2>&1 &
        pids+=("$!")
        SERVERS_PIDS+=("$!")
        addrs+=("127.0.0.1:${cports[$i]}")
    done
    ZK_ENS_PIDS=$(IFS=,; echo "${pids[*]}")
    ZK_ENS_ADDR=$(IFS=,; echo "${addrs[*]}")
    export ZK_ENS_DIR ZK_ENS_PIDS ZK_ENS_ADDR
    # Serving means a quorum: wait until some node says it is the leader.
    for ((j = 0; j < 600; j++)); do
        for i in 1 2 3; do
            if zk__4lw_port "${cports[$i]}" srvr | grep -q 'Mode: leader'; then return 0; fi
        done
        sleep 0.05
    done
    echo "the ZooKeeper ensemble elected no leader:" >&2
    tail -5 "$dir"/zk*/server.log >&2
    zk_ensemble_stop
    return 1
}

zk__4lw_port() {   # zk__4lw_port PORT WORD
    { exec 3<>/dev/tcp/127.0.0.1/"$1" && printf '%s' "$2" >&3 && timeout 2 cat <&3; } 2>/dev/null
}

zk_ensemble_stop() {
    [ -n "${ZK_ENS_DIR:-}" ] || return 0
    local p q keep=()
    IFS=, read -ra ens <<<"$ZK_ENS_PIDS"
    for p in "${ens[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${ens[@]}"; do wait "$p" 2>/dev/null; done
    for p in "${SERVERS_PIDS[@]}"; do
        for q in "${ens[@]}"; do [ "$p" = "$q" ] && continue 2; done
        keep+=("$p")
    done
    SERVERS_PIDS=("${keep[@]}")
    rm -rf "$ZK_ENS_DIR"
    ZK_ENS_DIR= ZK_ENS_PIDS= ZK_ENS_ADDR=
    return 0
}

servers_stop_all() {
    local p
    zk_stop
    zk_ensemble_stop
    for p in "${SERVERS_PIDS[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${SERVERS_PIDS[@]}"; do wait "$p" 2>/dev/null; done
    SERVERS_PIDS=()
    [ -n "${PG_OWNED:-}" ] && pg_stop
    return 0
}

# eddy_is_server: true when $EDDY_BIN exists and looks like the server (it
# accepts --listen); the skeleton's placeholder exits at once.
eddy_is_server() {
    [ -x "$EDDY_BIN" ] || return 1
    # grep reads the whole text: with -q it would stop at the match, and the rest of the
    # help written to a closed pipe would kill eddy with SIGPIPE, a failure under pipefail.
    "$EDDY_BIN" --help 2>&1 | grep -- '--listen' >/dev/null
}

# servers_need [pg] [eddy]: inside a layer, make sure PG_PORT / EDDY_PORT point at
# running servers: reuse what run.sh exported, otherwise start our own (stopped
# by the EXIT trap this installs). A server that cannot start leaves its port
# unset; the layer then reports its cases as failed.
servers_need() {
    local what
    trap 'servers_stop_all' EXIT
    for what in "$@"; do
        case $what in
        pg)   [ -n "${PG_PORT:-}" ] || pg_start || echo "  PostgreSQL not available" ;;
        eddy) if [ -z "${EDDY_PORT:-}" ]; then
                  if eddy_is_server; then eddy_start || unset EDDY_PORT
                  else echo "  $EDDY_BIN is not the server yet"; fi
              fi ;;
        esac
    done
}

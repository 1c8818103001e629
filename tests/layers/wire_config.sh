#!/usr/bin/env bash
# wire_config.sh: wire tests that need an eddy started with special settings:
# a small connection limit (53300), and password / SCRAM authentication with a
# users file written by `eddy --hash-password`.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
WORK=$(mktemp -d /tmp/eddy-wirecfg.XXXXXX)
trap 'servers_stop_all; rm -rf "$WORK"' EXIT
: "${LOG_DIR:=$WORK}"

if ! eddy_is_server; then
    echo "not ok max_connections: $EDDY_BIN is not the server yet"
    echo "not ok auth_password: $EDDY_BIN is not the server yet"
    echo "not ok auth_scram: $EDDY_BIN is not the server yet"
    exit 0
fi
help=$("$EDDY_BIN" --help 2>&1)

# --- connection limit: the knob's name is whatever --help lists as max...connections.
knob=$(grep -oE -- '--max[-_a-z]*conn[-_a-z]*' <<<"$help" | head -1)
if [ -z "$knob" ]; then
    echo "not ok max_connections: eddy --help lists no --max-...-connections knob"
else
    if eddy_start "$knob" 4; then
        echo "# tests/wire/test_maxconn.py ($knob 4)"
        MAXCONN_PORT=$EDDY_PORT MAXCONN_LIMIT=4 /usr/bin/python3 tests/wire/test_maxconn.py
        eddy_stop "$EDDY_PID"
    else
        echo "not ok max_connections: eddy $knob 4 did not start"
    fi
fi

# --- message size limit and start-up timeout.
if eddy_start --message-max-bytes 65536 --auth-timeout-ms 1000; then
    echo "# tests/wire/test_limits.py (--message-max-bytes 65536 --auth-timeout-ms 1000)"
    LIMITS_PORT=$EDDY_PORT MSG_MAX=65536 AUTH_TIMEOUT_MS=1000 /usr/bin/python3 tests/wire/test_limits.py
    eddy_stop "$EDDY_PID"
else
    echo "not ok limits: eddy --message-max-bytes 65536 --auth-timeout-ms 1000 did not start"
fi

# --- --ddl-spin-us and --worker-spin-us: 0 (every thread sleeps at once) still answers DDL only
# once the workers applied it (every worker, one per CPU by default, holds the view's dataflow
# when CREATE VIEW returns), and a value past its limit is refused at start.
if eddy_start --ddl-spin-us 0 --worker-spin-us 0; then
    out=$(psql -X -q -A -t -h 127.0.0.1 -p "$EDDY_PORT" -U postgres -d eddy -v ON_ERROR_STOP=1 \
          -c "CREATE VIEW spin_v AS SELECT 1 AS x" -c "SELECT count(*) FROM eddy_internal.dataflows WHERE name LIKE '%spin_v'" \
          -c "DROP VIEW spin_v" -c "SELECT count(*) FROM eddy_internal.dataflows WHERE name LIKE '%spin_v'" 2>&1)
    if [ "$(tr '\n' ' ' <<<"$out")" = "$(nproc) 0 " ]; then
        echo "ok ddl_spin_zero"
    else
        echo "not ok ddl_spin_zero: $out"
    fi
    eddy_stop "$EDDY_PID"
else
    echo "not ok ddl_spin_zero: eddy --ddl-spin-us 0 --worker-spin-us 0 did not start"
fi
if "$EDDY_BIN" --listen 127.0.0.1:0 --ddl-spin-us 20000 >"$WORK/spin.err" 2>&1; then
    echo "not ok ddl_spin_limit: --ddl-spin-us 20000 was accepted"
else
    echo "ok ddl_spin_limit"
fi
if "$EDDY_BIN" --listen 127.0.0.1:0 --worker-spin-us 100001 >"$WORK/spin.err" 2>&1; then
    echo "not ok worker_spin_limit: --worker-spin-us 100001 was accepted"
elif grep -q "worker-spin-us" "$WORK/spin.err"; then
    echo "ok worker_spin_limit"
else
    echo "not ok worker_spin_limit: the refusal does not name the option: $(head -2 "$WORK/spin.err")"
fi

# --- authentication: users file from `eddy --hash-password` (password on stdin,
# verifier on stdout), one "user:verifier" line per user.
users=$WORK/users
if verifier=$(printf '%s\n' 's3cret pw' | "$EDDY_BIN" --hash-password 2>"$WORK/hash.err") && [ -n "$verifier" ]; then
    printf 'alice:%s\n' "$verifier" >"$users"
    printf 'bob:%s\n' "$(printf '%s\n' 'other' | "$EDDY_BIN" --hash-password 2>/dev/null)" >>"$users"
    for method in password scram; do
        if eddy_start --auth "$method" --users "$users"; then
            echo "# tests/wire/test_auth.py (--auth $method)"
            AUTH_PORT=$EDDY_PORT AUTH_METHOD=$method AUTH_USER=alice AUTH_PASSWORD='s3cret pw' \
                /usr/bin/python3 tests/wire/test_auth.py | sed "s/^\(\(not \)\?ok [a-z_]*\)/\1_$method/"
            eddy_stop "$EDDY_PID"
        else
            echo "not ok auth_$method: eddy --auth $method --users FILE did not start"
        fi
    done
else
    echo "not ok auth: eddy --hash-password failed: $(head -3 "$WORK/hash.err")"
fi
exit 0

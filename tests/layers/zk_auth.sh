#!/usr/bin/env bash
# zk_auth.sh: the catalog in ZooKeeper locked to eddy's digest credentials
# (--zookeeper-auth-file), against the real ZooKeeper tests/lib/servers.sh
# starts. A client without the credentials (tests/tools/zk_acl_probe) cannot
# read, create, change, delete or re-ACL anything under the chroot; the
# read-only identity can read and nothing more; an eddy with wrong or missing
# credentials does not start and names the chroot; an open catalog is warned
# about, and eddy --zookeeper-lock-acls locks it.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
WORK=$(mktemp -d /tmp/eddy-zkauth.XXXXXX)
trap 'servers_stop_all; zk_stop; rm -rf "$WORK"' EXIT
: "${LOG_DIR:=$WORK}"
B=${BUILD:-build}
PROBE=$B/tools/zk_acl_probe
if ! eddy_is_server; then echo "not ok zk_auth: $EDDY_BIN is not the server yet"; exit 0; fi
[ -x "$PROBE" ] || { echo "not ok zk_auth: $PROBE is not built"; exit 0; }
zk_start || { echo "not ok zk_auth: ZooKeeper did not start"; exit 0; }

printf '# eddy on ZooKeeper\neddy:s3cret-zk\nread-only ops:ops-pw\n' >"$WORK/auth"
printf 'eddy:wrong\n' >"$WORK/wrong"
chmod 600 "$WORK/auth" "$WORK/wrong"
psql_q() { PGCONNECT_TIMEOUT=10 psql -X -q -A -t -h 127.0.0.1 -p "$EDDY_PORT" -U postgres -d eddy -c "$1" 2>&1; }
ALL=read,list,create,change,delete,acl
probe() { "$PROBE" "$ZK_ADDR" "$@" 2>&1 | tr '\n' ' '; }
log_mark() { wc -l <"$LOG_DIR/eddy.log" 2>/dev/null || echo 0; }
log_since() { tail -n +$(($1 + 1)) "$LOG_DIR/eddy.log"; }

# --- a locked catalog: everything eddy creates is its own.
mark=$(log_mark)
if eddy_start --zookeeper "$ZK_ADDR/secure" --zookeeper-auth-file "$WORK/auth"; then
    out=$(psql_q "CREATE TABLE t (a int)"; psql_q "CREATE TABLE u (b int)"; psql_q "SELECT count(*) FROM pg_class WHERE relname IN ('t', 'u')")
    if [ "$(tail -1 <<<"$out")" = 2 ]; then echo "ok zk_auth_eddy_serves"; else echo "not ok zk_auth_eddy_serves: $out"; fi
    got=$(probe /secure $ALL)
    want="read ZNOAUTH list ZNOAUTH create ZNOAUTH change ZNOAUTH delete ZNOAUTH acl ZNOAUTH "
    if [ "$got" = "$want" ]; then echo "ok zk_auth_anonymous_refused"; else echo "not ok zk_auth_anonymous_refused: $got"; fi
    got=$(probe /secure $ALL ops:wrong-pw)
    if [ "$got" = "auth ZOK $want" ]; then
        echo "ok zk_auth_wrong_password_refused"; else echo "not ok zk_auth_wrong_password_refused: $got"; fi
    got=$(probe /secure $ALL ops:ops-pw)
    if [ "$got" = "auth ZOK read ZOK list ZOK create ZNOAUTH change ZNOAUTH delete ZNOAUTH acl ZNOAUTH " ]; then
        echo "ok zk_auth_read_only_identity"; else echo "not ok zk_auth_read_only_identity: $got"; fi
    if log_since "$mark" | grep -q "open ACLs"; then echo "not ok zk_auth_no_warning_when_locked: $(log_since "$mark" | grep 'open ACLs' | tail -1)"; else
        echo "ok zk_auth_no_warning_when_locked"; fi
    eddy_stop "$EDDY_PID"
else
    echo "not ok zk_auth_eddy_serves: eddy --zookeeper-auth-file did not start: $(tail -3 "$LOG_DIR/eddy.log")"
fi

# --- wrong and missing credentials: refused at start, naming the chroot.
for case in wrong missing; do
    args=(--listen 127.0.0.1:0 --zookeeper "$ZK_ADDR/secure" --zookeeper-connect-timeout-ms 20000)
    [ "$case" = wrong ] && args+=(--zookeeper-auth-file "$WORK/wrong")
    start=$SECONDS
    if timeout 30 "$EDDY_BIN" "${args[@]}" >"$WORK/$case.log" 2>&1; then
        echo "not ok zk_auth_${case}_credentials_refused: eddy started"
    elif grep -qE 'not allowed to read the catalog at chroot \\?"/secure\\?"' "$WORK/$case.log" && ((SECONDS - start < 15)); then
        echo "ok zk_auth_${case}_credentials_refused"
    else
        echo "not ok zk_auth_${case}_credentials_refused: $(grep -v '^$' "$WORK/$case.log" | tail -2)"
    fi
done
chmod 644 "$WORK/auth"
if "$EDDY_BIN" --listen 127.0.0.1:0 --zookeeper "$ZK_ADDR/secure" --zookeeper-auth-file "$WORK/auth" >"$WORK/perm.log" 2>&1; then
    echo "not ok zk_auth_file_permissions: a world-readable auth file was accepted"
elif grep -q "group or world access" "$WORK/perm.log"; then echo "ok zk_auth_file_permissions"; else
    echo "not ok zk_auth_file_permissions: $(tail -2 "$WORK/perm.log")"; fi
chmod 600 "$WORK/auth"

# --- an open catalog is warned about, then locked in place.
mark=$(log_mark)
if eddy_start --zookeeper "$ZK_ADDR/open"; then
    psql_q "CREATE TABLE w (y int)" >/dev/null
    sleep 0.5
    if log_since "$mark" | grep -qE 'the catalog at chroot \\?"/open\\?" on .* has open ACLs'; then echo "ok zk_auth_open_acls_warned"; else
        echo "not ok zk_auth_open_acls_warned: no warning in the log"; fi
    eddy_stop "$EDDY_PID"
    got=$(probe /open read,list,create)
    if [ "$got" = "read ZOK list ZOK create ZOK " ]; then echo "ok zk_auth_open_before_lock"; else echo "not ok zk_auth_open_before_lock: $got"; fi
    if out=$("$EDDY_BIN" --zookeeper "$ZK_ADDR/open" --zookeeper-auth-file "$WORK/auth" --zookeeper-lock-acls 2>&1) &&
       grep -qE 'locked [0-9]* znodes of the catalog at chroot \\?"/open\\?"' <<<"$out"; then
        echo "ok zk_auth_lock_acls"
    else
        echo "not ok zk_auth_lock_acls: $out"
    fi
    got=$(probe /open $ALL)
    want="read ZNOAUTH list ZNOAUTH create ZNOAUTH change ZNOAUTH delete ZNOAUTH acl ZNOAUTH "
    if [ "$got" = "$want" ]; then echo "ok zk_auth_locked_refuses_anonymous"; else echo "not ok zk_auth_locked_refuses_anonymous: $got"; fi
    mark=$(log_mark)
    if eddy_start --zookeeper "$ZK_ADDR/open" --zookeeper-auth-file "$WORK/auth"; then
        out=$(psql_q "SELECT relname FROM pg_class WHERE relname = 'w'")
        warned=$(log_since "$mark" | grep -c 'open ACLs')
        if [ "$out" = w ] && [ "$warned" = 0 ]; then echo "ok zk_auth_locked_catalog_serves"; else
            echo "not ok zk_auth_locked_catalog_serves: '$out', $warned open-ACL warnings"; fi
        eddy_stop "$EDDY_PID"
    else
        echo "not ok zk_auth_locked_catalog_serves: eddy did not start: $(tail -2 "$LOG_DIR/eddy.log")"
    fi
else
    echo "not ok zk_auth_open_acls_warned: eddy on /open did not start"
fi
exit 0

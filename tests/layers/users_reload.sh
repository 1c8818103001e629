#!/usr/bin/env bash
# users_reload.sh: SIGHUP re-reads the --users file. A new user and a
# changed password apply to new connections at once; a session opened
# before goes on; a file that does not parse is reported in the log and the
# users read before stay in use. The file seeds the catalog's roles at the
# first start: a user the catalog holds as a role keeps the catalog's
# password (ALTER ROLE changes it), so changed passwords are seen on a user
# the file added later.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
tmp=$(mktemp -d /tmp/eddy-users.XXXXXX)
trap 'servers_stop_all; rm -rf "$tmp"' EXIT

if ! eddy_is_server; then echo "not ok users_reload: $EDDY_BIN is not the server yet"; exit 0; fi
verifier() { printf '%s\n' "$1" | "$EDDY_BIN" --hash-password; }
printf 'alice:%s\n' "$(verifier old-secret)" >"$tmp/users"
port=$(free_port)
"$EDDY_BIN" --listen 127.0.0.1:"$port" --auth scram --users "$tmp/users" --log-level info --workers 1 \
    2>"$tmp/eddy.log" &
pid=$!
SERVERS_PIDS+=("$pid")
if ! wait_port "$port" 20; then echo "not ok users_reload_start: $(tail -3 "$tmp/eddy.log")"; exit 0; fi

login() {   # login USER PASSWORD: "ok" or psql's error
    PGPASSWORD=$2 PGCONNECT_TIMEOUT=10 psql -X -qAt "host=127.0.0.1 port=$port user=$1 dbname=eddy" \
        -c "SELECT 'ok'" 2>&1 | tail -1
}
# hup N: sends SIGHUP and waits (up to 20 s) for the Nth reload line in the log.
hup() {
    kill -HUP "$pid"
    local i
    for ((i = 0; i < 400; i++)); do
        [ "$(grep -cE 'received SIGHUP, (reloaded [0-9]+ users|users file not reloaded)' "$tmp/eddy.log")" -ge "$1" ] && return 0
        sleep 0.05
    done
    return 1
}

out=$(login alice old-secret)
if [ "$out" = ok ]; then echo "ok users_reload_initial: alice logs in with the file's password"; else
    echo "not ok users_reload_initial: $out"; fi

# A session opened before the reload, kept open through it.
coproc HELD { PGPASSWORD=old-secret psql -X -qAt "host=127.0.0.1 port=$port user=alice dbname=eddy" 2>&1; }
echo "SELECT 'held 1';" >&"${HELD[1]}"
read -r -t 20 h1 <&"${HELD[0]}"

printf 'alice:%s\nbob:%s\n' "$(verifier new-secret)" "$(verifier bob-secret)" >"$tmp/users.new"
mv "$tmp/users.new" "$tmp/users"
if hup 1; then
    bob=$(login bob bob-secret); alice=$(login alice old-secret); alice_new=$(login alice new-secret)
    if [ "$bob" = ok ] && [ "$alice" = ok ] && grep -q 'password authentication failed' <<<"$alice_new" &&
       grep -q 'reloaded 2 users' "$tmp/eddy.log"; then
        echo "ok users_reload_new_user: after SIGHUP the new user bob logs in; alice, a role since the first start, keeps the catalog's password"
    else
        echo "not ok users_reload_new_user: bob '$bob' alice '$alice' alice with the file's new password '$alice_new'"
    fi
else
    echo "not ok users_reload_new_user: no reload line in the log: $(tail -3 "$tmp/eddy.log")"
fi
printf 'alice:%s\nbob:%s\n' "$(verifier new-secret)" "$(verifier bob-changed)" >"$tmp/users.new"
mv "$tmp/users.new" "$tmp/users"
if hup 2; then
    old=$(login bob bob-secret); new=$(login bob bob-changed)
    if grep -q 'password authentication failed for user "bob"' <<<"$old" && [ "$new" = ok ]; then
        echo "ok users_reload_changed_password: after SIGHUP bob's new password logs in, the old one fails"
    else
        echo "not ok users_reload_changed_password: old '$old' new '$new'"
    fi
else
    echo "not ok users_reload_changed_password: no reload line in the log"
fi
echo "SELECT 'held 2';" >&"${HELD[1]}"
read -r -t 20 h2 <&"${HELD[0]}"
if [ "$h1" = "held 1" ] && [ "$h2" = "held 2" ]; then
    echo "ok users_reload_keeps_sessions: the session opened before the reload still answers"
else
    echo "not ok users_reload_keeps_sessions: '$h1' '$h2'"
fi
exec {HELD[1]}>&-

# A broken file: logged, and the users of the last good file stay.
printf 'bob:%s\ncarol-without-a-verifier\n' "$(verifier third-secret)" >"$tmp/users"
if hup 3; then
    new=$(login bob bob-changed); third=$(login bob third-secret)
    if grep -q 'users file not reloaded (the previous users stay in use): users file .*line 2' "$tmp/eddy.log" &&
       [ "$new" = ok ] && grep -q 'password authentication failed' <<<"$third"; then
        echo "ok users_reload_broken_file_keeps_old: the error names line 2, the previous passwords still apply"
    else
        echo "not ok users_reload_broken_file_keeps_old: new '$new' third '$third' log: $(grep SIGHUP "$tmp/eddy.log" | tail -1)"
    fi
else
    echo "not ok users_reload_broken_file_keeps_old: no reload line in the log"
fi
rm -f "$tmp/users"
if hup 4 && [ "$(login bob bob-changed)" = ok ] && grep -q 'could not open users file' "$tmp/eddy.log"; then
    echo "ok users_reload_missing_file_keeps_old: a missing file is reported and bob still logs in"
else
    echo "not ok users_reload_missing_file_keeps_old: $(grep SIGHUP "$tmp/eddy.log" | tail -1)"
fi
if kill -0 "$pid" 2>/dev/null; then echo "ok users_reload_server_alive"; else echo "not ok users_reload_server_alive"; fi

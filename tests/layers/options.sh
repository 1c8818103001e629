#!/usr/bin/env bash
# options.sh: where options come from. A --config FILE of "key = value" lines
# and EDDY_* variables set every option that takes a value; the command line
# wins over the environment, the environment over the file, the file over the
# defaults (as --help says). What the server then does shows which won: the
# port it listens on and its number of workers (eddy_internal.workers).
# Bad input names its source and exits 2. --help lists every option of the
# option table under its topic; --version is the package's version.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
tmp=$(mktemp -d /tmp/eddy-options.XXXXXX)
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
unset EDDY_CONFIG EDDY_LISTEN EDDY_WORKERS

# start NAME: runs eddy with the rest of the arguments in the current environment,
# prints its worker count once it serves on $port.
serve() {
    "$EDDY_BIN" "$@" >"$tmp/log" 2>&1 &
    local pid=$!
    pids+=("$pid")
    if ! wait_port "$port" 20; then echo "none"; cat "$tmp/log" >&2; return; fi
    psql -X -qAt -h 127.0.0.1 -p "$port" -U eddy eddy -c 'SELECT count(*) FROM eddy_internal.workers' 2>&1
    kill "$pid"; wait "$pid" 2>/dev/null
}
check() {   # check NAME WANT HAVE
    if [ "$2" = "$3" ]; then echo "ok options_$1"; else echo "not ok options_$1: want $2, have $3"; fi
}

port=$(free_port)
cat >"$tmp/eddy.conf" <<CONF
# a comment, then settings
listen = 127.0.0.1:$port
workers = 1
io-threads = "1"

log-level = warn
CONF
check file_sets 1 "$(serve --config "$tmp/eddy.conf")"
check env_names_file 1 "$(EDDY_CONFIG=$tmp/eddy.conf serve)"
check env_over_file 3 "$(EDDY_WORKERS=3 serve --config "$tmp/eddy.conf")"
check cmdline_over_env 2 "$(EDDY_WORKERS=3 serve --config "$tmp/eddy.conf" --workers 2)"
port2=$(free_port)
check env_listen 1 "$(port=$port2; EDDY_LISTEN=127.0.0.1:$port2 serve --config "$tmp/eddy.conf")"

# refused NAME WANT-REGEX ARGS...: exits 2 and says WANT on stderr.
refused() {
    local name=$1 want=$2; shift 2
    local err rc
    err=$(timeout 10 "$EDDY_BIN" "$@" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 2 ] && grep -qE -- "$want" <<<"$err"; then echo "ok options_$name: $err"
    else echo "not ok options_$name: status $rc, said: $err"; fi
}
printf 'workers = 1\nworkers = lots\n' >"$tmp/bad.conf"
refused bad_value_in_file "invalid value for --workers: \"lots\" \\(from $tmp/bad.conf:2\\)" --config "$tmp/bad.conf"
printf 'wrokers = 1\n' >"$tmp/typo.conf"
refused unknown_key_in_file "$tmp/typo.conf:1: unknown option \"wrokers\"" --config "$tmp/typo.conf"
printf 'help = 1\n' >"$tmp/action.conf"
refused action_in_file "unknown option \"help\" \\(only on the command line\\)" --config "$tmp/action.conf"
printf 'just words\n' >"$tmp/noeq.conf"
refused line_without_equals "noeq.conf:1: expected \"key = value\"" --config "$tmp/noeq.conf"
refused missing_file "cannot read the config file $tmp/none.conf" --config "$tmp/none.conf"
EDDY_MAX_CONNECTIONS=0 refused bad_value_in_env 'invalid value for --max-connections: "0" \(from \$EDDY_MAX_CONNECTIONS\)'
refused bad_value_on_cmdline 'invalid value for --write-retries: "x"$' --write-retries x

# --help: every option of main.c's table is listed at the start of a line, under a topic.
help=$("$EDDY_BIN" --help)
missing=""
for o in $(grep -oE '\{"[a-z-]+", (required|no)_argument' server/main.c | sed 's/{"\([a-z-]*\)".*/\1/'); do
    grep -qE -- "^  --$o( |$)" <<<"$help" || missing+="--$o "
done
topics=$(grep -cE '^[A-Z][A-Za-z ,]*:$' <<<"$help")
if [ -z "$missing" ] && [ "$topics" -ge 5 ] &&
   grep -q 'command line > environment > config file > defaults' <<<"$help"; then
    echo "ok options_help: every option listed, under $topics topics, with the precedence"
else
    echo "not ok options_help: missing $missing; $topics topics"
fi
ver=$(sed -n 's/^#define EDDY_VERSION "\(.*\)"/\1/p' common/common.h)
check version "eddy $ver" "$("$EDDY_BIN" --version)"

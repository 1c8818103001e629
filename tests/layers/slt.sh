#!/usr/bin/env bash
# slt.sh: the sqllogictest layer. First the runner itself ($BUILD/tools/slt_run,
# built from tests/slt/*.c) is checked on the project's own scripts, on an eddy
# it starts and on PostgreSQL 15: features.test must pass whole, failures.test
# must fail exactly where its "# expect:" lines say, regress.test pins down
# behaviour the corpus found wrong (on both servers); then the statement and file timeouts, a
# server killed (crash) and a server stopped (hang) in the middle of a
# statement, each reported at its line and followed by a restarted server.
# Then the sqllogictest corpus, which is not part of the repo: SLT_DIR, else
# ../shared/slt beside this checkout or beside the main one; absent, it is
# skipped with a message. Every file of it runs on an eddy the runner starts;
# the layer prints each file's pass rate and first failures, writes
# $BUILD/slt/{summary,failures}.tsv and triage.txt, and fails a file that
# passes fewer records than tests/slt/baseline.tsv says (raise the baseline
# in a commit when a file passes more). SLT_PG=1 (make slt) also runs the
# corpus on PostgreSQL 15 and prints its passes beside eddy's.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
servers_need pg
SLT=$BUILD/tools/slt_run
OUT=$BUILD/slt
TMP=$(mktemp -d /tmp/eddy-slt.XXXXXX)
trap 'servers_stop_all; rm -rf "$TMP"' EXIT
mkdir -p "$OUT"
if [ ! -x "$SLT" ] || ! eddy_is_server; then
    echo "not ok slt: needs $SLT and the eddy server ($EDDY_BIN)"
    exit 0
fi

# The failures a test script announces: "LINE CATEGORY[ SQLSTATE]" for each
# "# expect:" line, at the first line of the record after it (past any
# skipif/onlyif). FAULT in the annotation becomes $2.
expected_of() {
    awk -v fault="${2:-}" '
        /^# expect: / { want = substr($0, 11); if (fault != "") sub(/FAULT/, fault, want); next }
        /^#/ || /^[ \t]*$/ { next }
        want != "" && $1 != "skipif" && $1 != "onlyif" { print NR " " want; want = "" }
    ' "$1" | sort
}

# The failures the runner reported for FILE in a failures TSV, in the same form
# (the SQLSTATE only for "error", the one category that names it).
got_of() {
    awk -F'\t' -v f="$2" '$1 == f { print $2 " " $3 ($3 == "error" ? " " $4 : "") }' "$1" | sort
}

# check NAME SUMMARY FAILURES FILE [FAULT]: the reported failures are exactly the
# announced ones, and every other record passed (records left unrun after a
# fault are counted from the runner's message).
check() {
    local name=$1 sum=$2 fail=$3 file=$4 fault=${5:-}
    local exp got row passed total unrun nfail
    exp=$(expected_of "$file" "$fault")
    got=$(got_of "$fail" "$file")
    row=$(awk -F'\t' -v f="$file" '$1 == f' "$sum")
    passed=$(cut -f2 <<<"$row"); total=$(cut -f3 <<<"$row")
    unrun=$(awk -F'\t' -v f="$file" '$1 == f && ($3 == "not-run" || $3 == "file-timeout") { split($5, w, " "); n += w[1] } END { print n + 0 }' "$fail")
    nfail=$(awk -F'\t' -v f="$file" '$1 == f && $3 != "not-run" && $3 != "file-timeout"' "$fail" | wc -l)
    if [ -z "$row" ]; then
        echo "not ok $name: no summary line for $file"
    elif [ "$exp" != "$got" ]; then
        echo "not ok $name: the failures reported differ from the ones $file announces"
        diff <(echo "$exp") <(echo "$got") | sed 's/^/  /' | head -20
        awk -F'\t' -v f="$file" '$1 == f { print "  line " $2 ": " $3 " " $4 " " $5 }' "$fail" | head -10
    elif [ "$total" -eq 0 ] || [ $((passed + nfail + unrun)) -ne "$total" ]; then
        echo "not ok $name: $passed passed + $nfail failed + $unrun not run != $total records"
        awk -F'\t' -v f="$file" '$1 == f { print "  line " $2 ": " $3 " " $4 " " $5 }' "$fail" | head -10
    else
        echo "ok $name ($passed/$total passed, $(printf '%s' "$exp" | grep -c .) announced failures seen)"
    fi
}

# The runner's own scripts, on an eddy it owns and on PostgreSQL.
own=(tests/slt/features.test tests/slt/failures.test tests/slt/regress.test)
for target in eddy pg; do
    if [ "$target" = eddy ]; then
        conn=(--eddy "$EDDY_BIN" --server-log "$TMP/eddy.log")
    elif [ -n "${PG_PORT:-}" ]; then
        conn=(--dsn "host=127.0.0.1 port=$PG_PORT user=postgres dbname=eddy")
    else
        echo "not ok slt_own_pg: PostgreSQL is not running"
        continue
    fi
    "$SLT" "${conn[@]}" --summary "$TMP/own_$target.sum" --failures "$TMP/own_$target.fail" \
        "${own[@]}" >"$TMP/own_$target.out" 2>&1
    for f in "${own[@]}"; do
        check "slt_$(basename "$f" .test)_$target" "$TMP/own_$target.sum" "$TMP/own_$target.fail" "$f"
    done
    # features.test says how many records it runs and skips; skipif/onlyif must agree.
    want=$(sed -n 's/^# records: \([0-9]*\) run, \([0-9]*\) skipped$/\1 \2/p' tests/slt/features.test)
    have=$(awk -F'\t' '$1 == "tests/slt/features.test" { print $3 " " $4 }' "$TMP/own_$target.sum")
    if [ -n "$want" ] && [ "$want" = "$have" ]; then
        echo "ok slt_conditions_$target (run and skipped: $have)"
    else
        echo "not ok slt_conditions_$target: features.test ran/skipped '$have', it says '$want'"
    fi
done

# Timeouts: the server ends a statement past --stmt-timeout-ms (57014), and a
# file past --file-timeout-s stops at the next record.
"$SLT" --eddy "$EDDY_BIN" --server-log "$TMP/eddy.log" --stmt-timeout-ms 1000 \
    --summary "$TMP/ts.sum" --failures "$TMP/ts.fail" tests/slt/timeout_stmt.test >"$TMP/ts.out" 2>&1
check slt_statement_timeout "$TMP/ts.sum" "$TMP/ts.fail" tests/slt/timeout_stmt.test
"$SLT" --eddy "$EDDY_BIN" --server-log "$TMP/eddy.log" --file-timeout-s 2 \
    --summary "$TMP/tf.sum" --failures "$TMP/tf.fail" tests/slt/timeout_file.test >"$TMP/tf.out" 2>&1
check slt_file_timeout "$TMP/tf.sum" "$TMP/tf.fail" tests/slt/timeout_file.test

# fault KIND SIGNAL STMT_TIMEOUT_MS: the runner's server gets SIGNAL while the
# sleep of crash.test runs (the runner's --trace says when it is sent); the
# runner must report KIND at that line, restart the server and pass features.test.
fault() {
    local kind=$1 sig=$2 stmt=$3 line pid rpid i
    local out=$TMP/fault_$kind.out
    line=$(expected_of tests/slt/crash.test "$kind" | awk -v k="$kind" '$2 == k { print $1 }')
    "$SLT" --eddy "$EDDY_BIN" --server-log "$TMP/eddy.log" --trace --stmt-timeout-ms "$stmt" --grace-ms 1000 \
        --summary "$TMP/fault_$kind.sum" --failures "$TMP/fault_$kind.fail" \
        tests/slt/crash.test tests/slt/features.test >"$out" 2>&1 &
    rpid=$!
    for ((i = 0; i < 600; i++)); do
        grep -qsx "> tests/slt/crash.test:$line" "$out" && break
        sleep 0.05
    done
    pid=$(awk '/^server: eddy pid/ { print $4; exit }' "$out")
    if [ -z "$pid" ] || ! grep -qx "> tests/slt/crash.test:$line" "$out"; then
        echo "not ok slt_$kind: the runner never reached line $line"
        kill "$rpid" 2>/dev/null; wait "$rpid" 2>/dev/null
        return
    fi
    kill "-$sig" "$pid"
    i=0
    while kill -0 "$rpid" 2>/dev/null && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
    if kill -0 "$rpid" 2>/dev/null; then
        echo "not ok slt_$kind: the runner did not finish within 60 s of the $kind"
        kill "$rpid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null
        wait "$rpid" 2>/dev/null
        return
    fi
    wait "$rpid"
    check "slt_$kind" "$TMP/fault_$kind.sum" "$TMP/fault_$kind.fail" tests/slt/crash.test "$kind"
    if [ "$(grep -c '^server: eddy pid' "$out")" -ge 2 ]; then
        check "slt_${kind}_restart" "$TMP/fault_$kind.sum" "$TMP/fault_$kind.fail" tests/slt/features.test
    else
        echo "not ok slt_${kind}_restart: the runner started no second server"
    fi
}
fault crash KILL 60000
fault hang STOP 3000

# The corpus.
slt_dir=
if [ -n "${SLT_DIR:-}" ]; then
    slt_dir=$SLT_DIR
else
    for d in ../shared/slt "$(git rev-parse --path-format=absolute --git-common-dir 2>/dev/null)/../../shared/slt"; do
        [ -d "$d" ] && { slt_dir=$d; break; }
    done
fi
if [ -z "$slt_dir" ] || [ ! -d "$slt_dir" ]; then
    echo "  slt corpus: not found (${SLT_DIR:-../shared/slt}); skipped: the corpus is not part of the repo, set SLT_DIR"
    exit 0
fi
slt_dir=$(cd "$slt_dir" && pwd)
mapfile -t files < <(find "$slt_dir" -name '*.test' | LC_ALL=C sort)
if [ ${#files[@]} -eq 0 ]; then
    echo "  slt corpus: no .test files under $slt_dir; skipped"
    exit 0
fi
echo "  slt corpus: the full corpus, ${#files[@]} files under $slt_dir, on eddy"
t0=$SECONDS
"$SLT" --eddy "$EDDY_BIN" --server-log "$TMP/eddy.log" --root "$slt_dir" --file-timeout-s 300 \
    --summary "$OUT/summary.tsv" --failures "$OUT/failures.tsv" "${files[@]}" >"$OUT/run.out" 2>&1
if [ -n "${SLT_PG:-}" ] && [ -n "${PG_PORT:-}" ]; then
    echo "  slt corpus on PostgreSQL 15 too (SLT_PG)"
    "$SLT" --dsn "host=127.0.0.1 port=$PG_PORT user=postgres dbname=eddy" --root "$slt_dir" --file-timeout-s 1200 \
        --summary "$OUT/pg_summary.tsv" --failures "$OUT/pg_failures.tsv" "${files[@]}" >"$OUT/pg_run.out" 2>&1
fi

# Per file: eddy's passes against the baseline (and PostgreSQL's, when run).
awk -F'\t' -v base=tests/slt/baseline.tsv -v pgsum="$OUT/pg_summary.tsv" -v fails="$OUT/failures.tsv" -v pg="${SLT_PG:-}" '
    BEGIN {
        while ((getline l < base) > 0) { split(l, b, "\t"); if (l !~ /^#/) want[b[1]] = b[2] }
        if (pg != "") while ((getline l < pgsum) > 0) { split(l, b, "\t"); pgp[b[1]] = b[2] }
        while ((getline l < fails) > 0) {
            split(l, b, "\t")
            if (b[1] == "file") continue
            if (nf[b[1]]++ < 3) first[b[1]] = first[b[1]] (first[b[1]] == "" ? "" : ", ") "L" b[2] " " b[3] (b[4] != "" ? " " b[4] : "")
        }
    }
    NR > 1 {
        p += $2; t += $3
        extra = (pg != "" ? sprintf(", PostgreSQL %s", ($1 in pgp) ? pgp[$1] : "?") : "")
        line = sprintf("%s: %d/%d (%.1f%%)%s", $1, $2, $3, $3 ? 100 * $2 / $3 : 100, extra)
        if ($6 != "done" && $6 != "halt") line = line ", ended: " $6
        if (first[$1] != "") line = line "; first: " first[$1]
        if (!($1 in want)) { print "ok slt_corpus " $1 " (no baseline yet)"; print "  " line " [no baseline]"; next }
        if ($2 < want[$1]) { print "not ok slt_corpus " line ": below its baseline of " want[$1]; next }
        note = $2 > want[$1] ? sprintf(" [%d above the baseline: raise it in tests/slt/baseline.tsv]", $2 - want[$1]) : ""
        print "ok slt_corpus " $1 " (" $2 " passed, baseline " want[$1] ")"
        print "  " line note
    }
    END { printf "  slt corpus: %d/%d records passed (%.1f%%)\n", p, t, t ? 100 * p / t : 100 }
' "$OUT/summary.tsv"
echo "  slt corpus: $((SECONDS - t0)) s; files: $OUT/summary.tsv, $OUT/failures.tsv, $OUT/triage.txt"

# Triage: failures grouped by category, SQLSTATE and message with names and numbers blanked.
awk -F'\t' 'NR > 1 {
        m = $5; gsub(/"[^"]*"/, "\"_\"", m); gsub(/[0-9]+/, "N", m)
        k = $3 "\t" $4 "\t" m
        if (!(k in n)) ex[k] = $1 ":" $2 "  " $6
        n[k]++
    }
    END { for (k in n) printf "%d\t%s\t%s\n", n[k], k, ex[k] }' "$OUT/failures.tsv" | sort -t$'\t' -k1,1nr >"$OUT/triage.txt"
head -8 "$OUT/triage.txt" | awk -F'\t' '{ printf "  triage: %5d %s %s %s\n", $1, $2, $3, substr($4, 1, 90) }'
exit 0

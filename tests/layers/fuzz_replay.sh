#!/usr/bin/env bash
# fuzz_replay.sh: replays every committed corpus file of each fuzz target
# (tests/fuzz/corpus/<target>/) through the target built with a plain main()
# ($BUILD/fuzz/replay_<target>; under ASan/UBSan in make check). One line per target.
cd "$(dirname "$0")/../.."
B=${BUILD:-build}
for t in codec parser plan tls; do
    bin=$B/fuzz/replay_$t
    if [ ! -x "$bin" ]; then
        echo "not ok fuzz_replay_$t: $bin not built (make all builds it once its module has sources)"
        continue
    fi
    log=$(mktemp)
    if timeout 300 "$bin" "tests/fuzz/corpus/$t" >"$log.out" 2>"$log"; then
        echo "ok fuzz_replay_$t ($(cat "$log.out"))"
    else
        echo "not ok fuzz_replay_$t: crashed"
        grep -v '^replaying ' "$log" | head -20 | sed 's/^/  /'
        echo "  input: $(grep '^replaying ' "$log" | tail -1 | cut -d' ' -f2-)"
    fi
    rm -f "$log" "$log.out"
done
exit 0

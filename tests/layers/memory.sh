#!/usr/bin/env bash
# memory.sh: an eddy --workers 2 of its own loads rows under a maintained view, and its RSS,
# once it is quiet, must follow the live rows (tests/ops/memory.py): at most 96 bytes per row
# of table and view, and back near the start after DELETE and DROP. Sanitizer builds keep
# freed memory in their own allocator's quarantine, so the figure means nothing there.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
if ldd "$EDDY_BIN" 2>/dev/null | grep -qE 'libasan|libtsan'; then
    echo "ok rss_per_row_quiet # SKIP sanitizer build"
    exit 0
fi
if eddy_start --workers 2; then
    /usr/bin/python3 tests/ops/memory.py "$EDDY_PORT" "$EDDY_PID" "${MEMORY_ROWS:-300000}" 96
else
    echo "not ok rss_per_row_quiet: eddy --workers 2 did not start"
fi
exit 0

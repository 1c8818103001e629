#!/usr/bin/env bash
# sequencer.sh: one order to every worker (DESIGN §5), on an eddy of its own
# started with --workers 4: a DDL storm from 8 sessions, reads right after
# DDL from another session, and the eddy_internal relations
# (tests/sequencer/test_order.py); then DDL against workers slower than
# --ddl-apply-timeout-ms (tests/sequencer/test_apply_timeout.py).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
: "${LOG_DIR:=/tmp}"
if ! eddy_start --workers 4; then
    echo "not ok sequencer: eddy --workers 4 did not start"
    exit 0
fi
SEQ_PORT=$EDDY_PORT SEQ_WORKERS=4 /usr/bin/python3 tests/sequencer/test_order.py
rc=$?
eddy_stop "$EDDY_PID" || { echo "not ok sequencer: eddy did not stop cleanly"; rc=1; }
if eddy_start --workers 2 --fault-worker-delay-ms 2500 --ddl-apply-timeout-ms 1000; then
    SEQ_PORT=$EDDY_PORT SEQ_WORKERS=2 SEQ_DELAY_MS=2500 SEQ_TIMEOUT_MS=1000 \
        /usr/bin/python3 tests/sequencer/test_apply_timeout.py || rc=1
    eddy_stop "$EDDY_PID" || { echo "not ok sequencer: the slow eddy did not stop cleanly"; rc=1; }
else
    echo "not ok sequencer: eddy --fault-worker-delay-ms did not start"
fi
exit $rc

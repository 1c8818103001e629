#!/usr/bin/env bash
# shutdown.sh: SIGTERM lets running statements answer, ends sessions with
# 57P01 and exits 0 within --shutdown-timeout-ms (tests/ops/shutdown.py).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
/usr/bin/python3 tests/ops/shutdown.py "$EDDY_BIN"

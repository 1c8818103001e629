#!/usr/bin/env bash
# metrics.sh: /metrics parsed by Prometheus' text-format parser with values
# that move as statements run, /healthz and /readyz, eddy_internal.metrics,
# and answers that stay fast while the server is busy (tests/ops/metrics.py).
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
if ! eddy_is_server; then echo "not ok metrics: $EDDY_BIN is not the server yet"; exit 0; fi
/usr/bin/python3 tests/ops/metrics.py "$EDDY_BIN"

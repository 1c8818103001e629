#!/usr/bin/env bash
# zk_cluster.sh: eddy in cluster mode (--zookeeper) against real ZooKeeper servers
# from Debian's package: a standalone server and a 3-node ensemble on free
# loopback ports, used by tests/zk/cluster.py (two processes on one catalog,
# name races, kill -9 during a DDL storm, leader and follower kills, session
# expiry, an ambiguous commit through a cutting proxy, ZooKeeper stopped and
# restarted, start-up time with 1000 objects). Everything started is stopped.
cd "$(dirname "$0")/../.."
export LOG_DIR=${LOG_DIR:-$(mktemp -d /tmp/eddy-zkc.XXXXXX)}
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
export BUILD=${BUILD:-build}
if [ ! -x "$BUILD/tools/zk_catalog_check" ]; then echo "not ok zk_cluster: $BUILD/tools/zk_catalog_check is not built"; exit 0; fi
if ! zk_start; then echo "not ok zk_cluster: ZooKeeper did not start"; exit 0; fi
zk_ensemble_start || echo "  (the ensemble did not start: its test fails)"
export ZK_JAR
# The tests kill servers this shell started: its "Killed" notices about them go
# to a file, the tests' own stderr stays where it was.
exec 3>&2 2>>"$LOG_DIR/zk_cluster.shell.log"
timeout 400 "$PY" tests/zk/cluster.py 2>&3

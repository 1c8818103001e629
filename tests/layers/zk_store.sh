#!/usr/bin/env bash
# zk_store.sh: the store contract on a real ZooKeeper. Starts a standalone
# server from Debian's package on a free port, runs the store_zk unit binary
# against it (each case in a fresh chroot under /eddy-test-<pid>), stops it.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
trap 'servers_stop_all' EXIT
bin=${BUILD:-build}/tests/test_catalog_store_zk
if [ ! -x "$bin" ]; then echo "not ok zk_store: $bin is not built"; exit 0; fi
if ! zk_start; then echo "not ok zk_store: ZooKeeper did not start"; exit 0; fi
EDDY_ZK=$ZK_ADDR timeout 120 "$bin"

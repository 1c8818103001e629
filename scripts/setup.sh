#!/usr/bin/env bash
# setup.sh: installs the Debian 12 packages eddy needs, in two profiles.
#
#   scripts/setup.sh run     what building and running eddy needs: the compiler,
#                            lemon, the C libraries eddy links and psql to connect
#   scripts/setup.sh test    run's packages plus the test toolchain (PostgreSQL 15's
#                            server as the oracle, ZooKeeper and a JDK, clang, drivers)
#   scripts/setup.sh --list run|test
#                            prints the profile's packages, one per line, and
#                            installs nothing (tests/layers/packages.sh reads it)
#
# As root it runs apt-get for whatever is missing; otherwise it prints the
# exact command to run and fails, so nothing is half-installed silently.
set -euo pipefail

# Building: a C compiler and make, the lemon parser generator, and the -dev
# package of every library the Makefile's LDLIBS_ALL names. Running: their
# runtime libraries come with them. psql is how the README connects.
run_packages=(build-essential lemon libuv1-dev libssl-dev libzookeeper-st-dev libpcre2-dev libmicrohttpd-dev
              postgresql-client-15)

# Testing: PostgreSQL 15's server (the differential oracle) and libpq for the C
# tools, ZooKeeper's server and the JDK it runs on (also pgJDBC's tests),
# psycopg, clang for the fuzzers, the dpkg tools that build the package,
# Prometheus' own text-format parser for the scrape of /metrics and curl.
test_packages=("${run_packages[@]}" clang libclang-rt-14-dev libpq-dev postgresql-15
               python3-psycopg default-jdk-headless libpostgresql-jdbc-java zookeeper
               dpkg-dev fakeroot python3-prometheus-client curl)

list=false
if [ "${1:-}" = --list ]; then list=true; shift; fi
case ${1:-test} in
run)  packages=("${run_packages[@]}") ;;
test) packages=("${test_packages[@]}") ;;
*)    echo "usage: scripts/setup.sh [--list] run|test" >&2; exit 2 ;;
esac
if $list; then
    printf '%s\n' "${packages[@]}"
    exit 0
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
# Java 17 may come from a JDK that is not default-jdk-headless; accept any javac.
if command -v javac >/dev/null 2>&1; then
    missing=("${missing[@]/default-jdk-headless}")
fi
missing=($(printf '%s\n' "${missing[@]}" | grep -v '^$' || true))
[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "eddy needs: ${missing[*]}" >&2
    echo "run as root: apt-get update && $cmd" >&2
    exit 1
fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

#!/usr/bin/env bash
# setup.sh: installs what building and testing eddy needs on Debian 12.
#
# As root it runs apt-get for whatever is missing; otherwise it prints the
# exact command to run and fails, so nothing is half-installed silently.
set -euo pipefail

packages=(build-essential clang libclang-rt-14-dev lemon libuv1-dev libssl-dev libpq-dev postgresql-15
          postgresql-client-15 python3-psycopg default-jdk-headless libpostgresql-jdbc-java
          zookeeper libzookeeper-st-dev)

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

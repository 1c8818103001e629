#!/usr/bin/env bash
# packages.sh: `make run` installs only what building and running eddy needs.
# Its dependency step, asked for its package list (SETUP_LIST=--list), must
# name no test-only package (a JDK, ZooKeeper's server, PostgreSQL's server,
# clang), neither directly nor through the packages' own dependencies
# (apt-cache's recursive Depends); the test profile must hold them all, so
# that `make test` still installs its toolchain on a fresh machine.
cd "$(dirname "$0")/../.."

# A test-only package: the JDK and Java libraries, ZooKeeper's server (not
# its C client libzookeeper-*), PostgreSQL's server (not its client), clang.
test_only='^(default-jdk.*|default-jre.*|openjdk-.*|.*-java|zookeeper|zookeeperd|postgresql|postgresql-[0-9]+|clang|clang-[0-9]+|libclang-rt-.*)$'

if ! grep -q 'scripts/setup.sh.* run$' < <(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -n --no-print-directory run 2>/dev/null); then
    echo "not ok packages_run_uses_run_profile: make run does not run scripts/setup.sh run"
else
    echo "ok packages_run_uses_run_profile: make run's dependency step is scripts/setup.sh run"
fi

run_list=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory setup-run SETUP_LIST=--list)
test_list=$(env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -s --no-print-directory setup SETUP_LIST=--list)
if [ -z "$run_list" ]; then
    echo "not ok packages_run_list: make setup-run SETUP_LIST=--list printed nothing"
    exit 0
fi
bad=$(grep -E "$test_only" <<<"$run_list" | tr '\n' ' ')
if [ -n "$bad" ]; then
    echo "not ok packages_run_list: make run would install test-only packages: $bad"
else
    echo "ok packages_run_list: make run installs $(wc -l <<<"$run_list") packages, none test-only"
fi

# Everything those packages pull in (Depends and Pre-Depends, not Recommends:
# setup.sh installs with --no-install-recommends).
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
              --no-replaces --no-enhances $run_list 2>/dev/null | grep -v '^ ' | sed 's/:.*//' | sort -u)
if [ -z "$closure" ]; then
    echo "not ok packages_run_closure: apt-cache knows none of the packages"
else
    bad=$(grep -E "$test_only" <<<"$closure" | tr '\n' ' ')
    if [ -n "$bad" ]; then
        echo "not ok packages_run_closure: make run's packages pull in test-only packages: $bad"
    else
        echo "ok packages_run_closure: the $(wc -l <<<"$closure") packages make run may install hold no test-only one"
    fi
fi

# The test profile is a superset of the run profile and holds the toolchain.
missing=$(comm -23 <(sort <<<"$run_list") <(sort <<<"$test_list") | tr '\n' ' ')
want_ok=true
for want in 'postgresql-15' 'zookeeper' 'default-jdk-headless' 'clang'; do
    grep -qx "$want" <<<"$test_list" || { want_ok=false; missing+="$want "; }
done
if [ -n "$missing" ] || ! $want_ok; then
    echo "not ok packages_test_list: make test's profile lacks $missing"
else
    echo "ok packages_test_list: make test installs the run profile plus $(($(wc -l <<<"$test_list") - $(wc -l <<<"$run_list"))) test packages"
fi

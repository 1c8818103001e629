#!/usr/bin/env bash
# deb.sh: installing and packaging. `make install PREFIX=...` lays out the
# binary, the man page written from --help and a systemd unit naming the
# installed binary; `make deb` builds the Debian package with
# dpkg-buildpackage, whose Depends are runtime libraries only (all present
# here, since the build linked them); dpkg installs it into a throwaway root
# (not this machine: the suites of several checkouts may run at once), and the
# installed binary starts, tells a service manager it is ready
# (tests/ops/notify.py), serves psql and stops on SIGTERM with status 0.
cd "$(dirname "$0")/../.."
source tests/lib/servers.sh
BUILD=${BUILD:-build}
tmp=$(mktemp -d /tmp/eddy-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make --no-print-directory BUILD="$BUILD" "$@"; }

# -------------------------------------------------------------- make install
prefix=$tmp/inst/opt/eddy
if ! mk -s install PREFIX="$prefix" >"$tmp/install.log" 2>&1; then
    echo "not ok install: make install failed"; sed 's/^/  /' "$tmp/install.log" | tail -10
else
    unit=$prefix/lib/systemd/system/eddy.service
    if [ -x "$prefix/bin/eddy" ] && [ -f "$prefix/share/man/man1/eddy.1" ] &&
       grep -qx "ExecStart=$prefix/bin/eddy" "$unit" && grep -qx 'Type=notify' "$unit"; then
        echo "ok install: make install PREFIX= lays out bin/eddy, man1/eddy.1 and a Type=notify unit running it"
    else
        echo "not ok install: missing files or a unit not naming $prefix/bin/eddy"
        find "$tmp/inst" | sed 's/^/  /'
    fi
    # Every option --help names is in the man page, which renders as roff.
    missing=""
    for o in $("$prefix/bin/eddy" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
        grep -qF -- ".B ${o//-/\\-}" "$prefix/share/man/man1/eddy.1" || missing+="$o "
    done
    if [ -z "$missing" ] && head -1 "$prefix/share/man/man1/eddy.1" | grep -q '^\.TH EDDY 1'; then
        echo "ok install_man_page: eddy.1 documents every option of --help"
    else
        echo "not ok install_man_page: eddy.1 lacks $missing"
    fi
fi

# -------------------------------------------------------------- make deb
t0=$SECONDS
if ! mk deb >"$tmp/deb.log" 2>&1; then
    echo "not ok deb_build: make deb failed"; sed 's/^/  /' "$tmp/deb.log" | tail -20
    exit 0
fi
deb=$(ls "$BUILD"/deb/eddy_*.deb 2>/dev/null | head -1)
if [ -z "$deb" ]; then echo "not ok deb_build: make deb wrote no .deb"; exit 0; fi
echo "ok deb_build: make deb built $(basename "$deb") with dpkg-buildpackage ($((SECONDS - t0)) s)"

# Depends: no -dev package, libuv and ZooKeeper's client among them, and each
# one satisfied by what is installed here.
depends=$(dpkg-deb -f "$deb" Depends)
bad=""
IFS=',' read -ra deps <<<"$depends"
for d in "${deps[@]}"; do
    d=$(sed 's/^ *//; s/ *$//' <<<"$d")
    name=${d%% *}
    case $name in *-dev) bad+="$d (a -dev package); "; continue ;; esac
    have=$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null)
    if [ -z "$have" ]; then bad+="$d (not installed); "; continue; fi
    if [[ $d =~ \((\>=|\<=|=|\>\>|\<\<)\ (.*)\) ]]; then
        op=${BASH_REMATCH[1]} ver=${BASH_REMATCH[2]}
        case $op in '>=') op=ge ;; '<=') op=le ;; '=') op=eq ;; '>>') op=gt ;; '<<') op=lt ;; esac
        dpkg --compare-versions "$have" "$op" "$ver" || bad+="$d (have $have); "
    fi
done
if [ -z "$bad" ] && grep -q libuv1 <<<"$depends" && grep -q libzookeeper <<<"$depends" && grep -q libssl <<<"$depends"; then
    echo "ok deb_depends: runtime libraries only, all satisfied here: $depends"
else
    echo "not ok deb_depends: $depends: $bad"
fi

# Installed with dpkg into a throwaway root (its own dpkg database; the
# libraries it depends on are this machine's, checked above).
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info"
: >"$root/var/lib/dpkg/status"
if ! dpkg --root="$root" --force-depends --force-script-chrootless --force-not-root -i "$deb" >"$tmp/dpkg.log" 2>&1 ||
   [ "$(dpkg --root="$root" -s eddy 2>/dev/null | sed -n 's/^Status: //p')" != "install ok installed" ]; then
    echo "not ok deb_install: dpkg -i failed"; sed 's/^/  /' "$tmp/dpkg.log" | tail -10
    exit 0
fi
want=$(dpkg-deb -f "$deb" Version)
have=$("$root/usr/bin/eddy" --version 2>&1)
if [ -f "$root/lib/systemd/system/eddy.service" ] && [ -f "$root/usr/share/man/man1/eddy.1.gz" ] &&
   grep -qx 'ExecStart=/usr/bin/eddy' "$root/lib/systemd/system/eddy.service" && [ "$have" = "eddy $want" ]; then
    echo "ok deb_install: dpkg -i installs /usr/bin/eddy ($have), its man page and unit"
else
    echo "not ok deb_install: the installed files are not as expected ($have, package $want)"
    dpkg --root="$root" -L eddy | sed 's/^/  /'
fi
port=$(free_port)
/usr/bin/python3 tests/ops/notify.py "$port" "$root/usr/bin/eddy" --listen 127.0.0.1:"$port" --workers 1 --io-threads 1 |
    sed 's/^\(\(not \)\?ok \)/\1deb_/'

#!/usr/bin/env bash
# deb.sh: builds eddy's Debian package with dpkg-buildpackage (debian/) from a
# copy of the sources in $BUILD/deb (tracked and new files, not the tests),
# so that nothing is written next to the checkout; the .deb lands in $BUILD/deb.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
version=$(sed -n 's/^#define EDDY_VERSION "\(.*\)"/\1/p' common/common.h)
changelog=$(sed -n '1s/^eddy (\([^)]*\)).*/\1/p' debian/changelog)
if [ "$version" != "$changelog" ]; then
    echo "deb: common.h says version $version, debian/changelog $changelog" >&2
    exit 1
fi
out=$BUILD/deb
src=$out/eddy-$version
rm -rf "$out"
mkdir -p "$src"
sources() {
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files -z --cached --others --exclude-standard
    else
        find . -path './build*' -prune -o -type f -printf '%P\0'
    fi
}
sources | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    grep -zv '^tests/' | tar --null -T - -cf - | tar -xf - -C "$src"
jobs=$(nproc)
if ! (cd "$src" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS \
        DEB_BUILD_OPTIONS="parallel=$jobs ${DEB_BUILD_OPTIONS:-}" \
        dpkg-buildpackage -b -uc -us) >"$out/build.log" 2>&1; then
    tail -30 "$out/build.log" >&2
    exit 1
fi
rm -rf "$src"
ls "$out"/eddy_"$version"_*.deb

#!/usr/bin/env bash
# gen-man.sh: writes eddy.1 (roff) from `eddy --help`, so the man page says
# exactly what the binary says.
#
#   scripts/gen-man.sh BUILD/eddy > eddy.1
#
# --help's shape: a first line "eddy VERSION: summary", a "usage:" line,
# then topics (a line ending in ':' at column 0), options ("  --name ARG"
# then two or more spaces and the description, which may go on over deeper
# indented lines) and plain paragraphs.
set -euo pipefail
bin=$1
help=$("$bin" --help)
version=$("$bin" --version | awk '{print $2}')
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)
awk -v version="$version" -v date="$date" '
function esc(s) { gsub(/\\/, "\\e", s); gsub(/^\./, "\\\\\\&.", s); gsub(/^'\''/, "\\\\\\&'\''", s); gsub(/-/, "\\-", s); return s }
NR == 1 {
    summary = $0; sub(/^[^:]*: */, "", summary)
    printf ".TH EDDY 1 \"%s\" \"eddy %s\" \"User Commands\"\n", date, version
    printf ".SH NAME\neddy \\- %s\n", esc(summary)
    next
}
/^usage:/ { sub(/^usage: */, ""); printf ".SH SYNOPSIS\n.B eddy\n[\\fIoptions\\fR]\n.SH OPTIONS\n"; next }
/^$/ { next }
/^[^ ].*:$/ { t = $0; sub(/:$/, "", t); printf ".SS %s\n", esc(t); next }
/^  -/ {
    line = $0; sub(/^  /, "", line)
    if (match(line, /   */)) { opt = substr(line, 1, RSTART - 1); desc = substr(line, RSTART + RLENGTH) }
    else { opt = line; desc = "" }
    printf ".TP\n.B %s\n", esc(opt)
    if (desc != "") print esc(desc)
    next
}
/^      / { line = $0; sub(/^ */, "", line); print esc(line); next }
{ line = $0; sub(/^ */, "", line); printf ".PP\n%s\n", esc(line) }
' <<<"$help"

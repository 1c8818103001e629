#!/usr/bin/env bash
# check-deps.sh: holds the module boundaries of DESIGN §3. The Makefile runs it
# on every build, so no target (all, eddy, libeddy.a, unit tests, tools, fuzz
# replays, check, tsan, bench) builds across a forbidden dependency.
#
#   scripts/check-deps.sh includes MODULE...  before anything compiles: every
#       #include of each module's files, in any spelling ("mod/x.h", <mod/x.h>,
#       "../mod/x.h", the generated sql.h), resolved as the compiler's -I. and
#       -I$BUILD/gen would resolve it; and no files in a module's subfolders,
#       which the Makefile (module/*.c only) would neither compile nor check.
#   scripts/check-deps.sh symbols OBJECT...   before libeddy.a is archived: the
#       undefined symbols (nm -u) of each module's objects, so that a prototype
#       written into a .c file cannot reach another module behind the headers.
#
# A module may include its own files, system headers, and only the public header
# (<module>/<module>.h) of a module it may depend on. A symbol belongs to the
# module whose objects define it, or else to the module whose prefix it carries
# (only the project prefixes followed by '_' count: libuv's uv_ or ZooKeeper's
# zoo_ are nobody's); prefix__name is a module's internal name and no other
# module may use it. BUILD (default build) locates the generated parser.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}

# Who may depend on whom; server may depend on every module.
declare -A allowed=(
    [common]=""
    [types]="common"
    [parser]="common"
    [plan]="types common"
    [planner]="plan parser types catalog common"
    [exec]="plan types common"
    [catalog]="types common"
    [sequencer]="planner plan catalog dataflow types common"
    [dataflow]="plan types common"
    [server]="*"
)
declare -A prefix=(
    [common]=cm [types]=ty [parser]=sql [plan]=plan [planner]=pln [exec]=ex
    [catalog]=cat [sequencer]=seq [dataflow]=df [server]=srv
)
# The parser's grammar files become $BUILD/gen/<name>.c and .h (lemon), which
# belong to the parser.
gen_names=$(for y in parser/*.y; do [ -f "$y" ] && basename "$y" .y; done | sed 's/$/.h/' | tr '\n' ' ')

table() {   # "module=allowed list;..." and "module=prefix;..." for awk
    local m out=""
    for m in "${!allowed[@]}"; do out+="$m=${allowed[$m]};"; done
    printf '%s' "$out"
}
prefixes() {
    local m out=""
    for m in "${!prefix[@]}"; do out+="$m=${prefix[$m]};"; done
    printf '%s' "$out"
}

# Shared awk: the table and the messages.
awk_lib='
function load(   n, i, kv, parts) {
    n = split(table, parts, ";")
    for (i = 1; i <= n; i++) {
        if (parts[i] == "") continue
        split(parts[i], kv, "=")
        known[kv[1]] = 1
        allow[kv[1]] = kv[2]
    }
    n = split(prefixes, parts, ";")
    for (i = 1; i <= n; i++) {
        if (parts[i] == "") continue
        split(parts[i], kv, "=")
        owner_of_prefix[kv[2]] = kv[1]
    }
}
function may(mod, target,   n, i, list) {
    if (mod == target || allow[mod] == "*") return 1
    n = split(allow[mod], list, " ")
    for (i = 1; i <= n; i++) if (list[i] == target) return 1
    return 0
}
function rule(mod) {
    if (allow[mod] == "") return mod " may depend on no module (libc only)"
    return mod " may depend on: " allow[mod]
}
function fail(msg) { print "check-deps: " msg > "/dev/stderr"; status = 1 }
'

check_includes() {
    local status=0 mod files=()
    for mod in "$@"; do
        if [ -z "${allowed[$mod]+x}" ]; then
            echo "check-deps: module $mod has no row in the dependency table of scripts/check-deps.sh" >&2
            status=1
            continue
        fi
        [ -d "$mod" ] || continue
        # The Makefile compiles only $mod/*.c: a file further down would escape the checks.
        while IFS= read -r f; do
            echo "check-deps: $f is in a subfolder of $mod, but a module is one flat folder (the Makefile builds only $mod/*.c, so this file would escape the boundary checks)" >&2
            status=1
        done < <(find "$mod" -mindepth 2 ! -type d)
        for f in "$mod"/*; do
            [ -f "$f" ] && files+=("$f")
        done
    done
    [ ${#files[@]} -gt 0 ] || return $status
    { grep -HnIE '^[[:space:]]*#[[:space:]]*include' "${files[@]}" || true; } |
    awk -v table="$(table)" -v prefixes="$(prefixes)" -v gen_dir="$BUILD/gen" \
        -v gen_names="$gen_names" "$awk_lib"'
    function exists(p,   line, r) {
        if (p in seen) return seen[p]
        r = (getline line < p)
        if (r >= 0) close(p)
        return seen[p] = (r >= 0)
    }
    function norm(p,   n, i, k, part, out, res) {   # a/./b/../c -> a/c; leading .. kept
        n = split(p, part, "/")
        k = 0
        for (i = 1; i <= n; i++) {
            if (part[i] == "" || part[i] == ".") continue
            if (part[i] == ".." && k > 0 && out[k] != "..") { k--; continue }
            out[++k] = part[i]
        }
        res = ""
        for (i = 1; i <= k; i++) res = res (i > 1 ? "/" : "") out[i]
        return res
    }
    BEGIN {
        load()
        n = split(gen_names, g, " ")
        for (i = 1; i <= n; i++) generated[g[i]] = 1
        gen_prefix = norm(gen_dir) "/"
    }
    {
        c1 = index($0, ":"); file = substr($0, 1, c1 - 1); rest = substr($0, c1 + 1)
        c2 = index(rest, ":"); lineno = substr(rest, 1, c2 - 1); text = substr(rest, c2 + 1)
        where = file ":" lineno
        mod = file; sub(/\/.*/, "", mod)
        dir = file; sub(/\/[^\/]*$/, "", dir)
        sub(/^[ \t]*#[ \t]*include[ \t]*/, "", text)
        form = substr(text, 1, 1)
        if (form != "\"" && form != "<") {
            fail(where ": #include " text " is computed by a macro, which the boundary check cannot follow; write the header name out")
            next
        }
        close_ch = form == "<" ? ">" : "\""
        text = substr(text, 2)
        e = index(text, close_ch)
        if (e == 0) next   # malformed: the compiler says so
        inc = substr(text, 1, e - 1)
        spelled = form inc close_ch

        # Resolve as the compiler does: the including file folder (quotes only),
        # then -I. (the tree), then -I$BUILD/gen (the generated parser).
        path = ""
        if (form == "\"" && exists(dir "/" inc)) path = norm(dir "/" inc)
        else if (exists(inc)) path = norm(inc)
        else if ((inc in generated) || exists(gen_dir "/" inc)) path = gen_prefix norm(inc)
        else if (index(norm(inc), gen_prefix) == 1) path = norm(inc)
        if (path == "") next   # a system header

        if (index(path, gen_prefix) == 1) {
            tmod = "parser"; header = substr(path, length(gen_prefix) + 1)
            what = "the parser grammar\047s generated " path
            public = 0
        } else {
            tmod = path; sub(/\/.*/, "", tmod)
            header = substr(path, length(tmod) + 2)
            what = path
            public = (header == tmod ".h")
            if (!(tmod in known) || index(path, "/") == 0 || substr(path, 1, 3) == "../") {
                fail(where ": includes " spelled " (" path "), which belongs to no module: a module includes only its own files, public headers of the modules it may use, and system headers")
                next
            }
        }
        if (tmod == mod) next
        if (!may(mod, tmod))
            fail(where ": includes " spelled " (" what "), but " mod " may not depend on " tmod " (" rule(mod) ")")
        else if (!public)
            fail(where ": includes " spelled " (" what "), an internal header of " tmod "; other modules include only " tmod "/" tmod ".h")
    }
    END { exit status }' || status=1
    return $status
}

check_symbols() {
    [ $# -gt 0 ] || return 0
    # Module of an object: its folder under obj/ ($BUILD/obj/gen/sql.o is the parser).
    { nm -A -g --defined-only "$@" | sed 's/^/D /'; nm -A -u "$@" | sed 's/^/U /'; } |
    awk -v table="$(table)" -v prefixes="$(prefixes)" "$awk_lib"'
    function module_of(obj,   m) {
        m = obj; sub(/\/[^\/]*$/, "", m); sub(/.*\//, "", m)
        return m == "gen" ? "parser" : m
    }
    function source_of(obj,   s) {
        s = obj; sub(/.*\/obj\//, "", s); sub(/\.o$/, ".c", s)
        if (s == "gen/sql.c") return "parser grammar (" obj ")"
        return s " (" obj ")"
    }
    BEGIN { load() }
    {
        kind = $1; sym = $NF
        obj = substr($0, 3); obj = substr(obj, 1, index(obj, ":") - 1)
        if (kind == "D") { if (!(sym in defined_by)) defined_by[sym] = module_of(obj); next }
        use_obj[++n] = obj; use_sym[n] = sym
    }
    END {
        for (i = 1; i <= n; i++) {
            obj = use_obj[i]; sym = use_sym[i]; mod = module_of(obj)
            if (!(mod in known)) continue
            owner = ""
            if (sym in defined_by) owner = defined_by[sym]
            else if (match(sym, /^[a-z]+_/) && (substr(sym, 1, RLENGTH - 1) in owner_of_prefix))
                owner = owner_of_prefix[substr(sym, 1, RLENGTH - 1)]
            if (owner == "" || owner == mod || !(owner in known)) continue
            if (!may(mod, owner))
                fail(source_of(obj) ": uses symbol " sym " of " owner ", but " mod " may not depend on " owner " (" rule(mod) ")")
            else if (match(sym, /^[a-z]+__/))
                fail(source_of(obj) ": uses symbol " sym ", an internal name of " owner "; other modules call only what " owner "/" owner ".h declares")
        }
        exit status
    }'
}

case ${1:-} in
includes) shift; check_includes "$@" ;;
symbols)  shift; check_symbols "$@" ;;
*)
    echo "usage: scripts/check-deps.sh includes MODULE... | symbols OBJECT..." >&2
    exit 2
    ;;
esac

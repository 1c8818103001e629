#!/usr/bin/env bash
# check-deps.sh: holds the module boundaries of DESIGN §3.
#
# A module may include only the public headers (<module>/<module>.h) of the
# modules it is allowed to depend on; its own internal headers are free.
set -euo pipefail
cd "$(dirname "$0")/.."

declare -A allowed=(
    [common]=""
    [types]="common"
    [parser]="common"
    [plan]="common types"
    [planner]="common plan parser types catalog"
    [catalog]="common types"
    [sequencer]="common plan planner catalog types parser dataflow"
    [dataflow]="common types"
    [server]="common types parser plan planner catalog sequencer dataflow"
)
status=0
for mod in "${!allowed[@]}"; do
    [ -d "$mod" ] || continue
    while IFS=: read -r file _ inc; do
        target=$(sed -E 's/.*#include "([a-z_]+)\/([^"]+)".*/\1 \2/' <<<"$inc")
        tmod=${target% *}
        theader=${target#* }
        [ "$tmod" = "$mod" ] && continue
        [ "$tmod" = "tests" ] && continue
        if ! grep -qw "$tmod" <<<"${allowed[$mod]}"; then
            echo "check-deps: $file includes $tmod/$theader, but $mod may not depend on $tmod" >&2
            status=1
        elif [ "$theader" != "$tmod.h" ]; then
            echo "check-deps: $file includes $tmod/$theader, an internal header of $tmod" >&2
            status=1
        fi
    done < <(grep -Hn '#include "[a-z_]*/' "$mod"/*.[ch] 2>/dev/null || true)
done
exit $status

/*
 * plan_error.c: errors kept in a plan. PostgreSQL raises some errors while
 * planning rather than analysing (a constant expression that fails when
 * folded, 1/0): a statement prepared with one still describes, and the
 * error is raised when it is bound or run, so the plan carries a copy.
 */
#include "plan/plan.h"

#include <string.h>

const plan_error_t *plan_error_keep(cm_arena_t *arena, cm_err_t *err)
{
    plan_error_t *e = cm_arena_zalloc(arena, sizeof(*e));
    memcpy(e->sqlstate, err->sqlstate, sizeof(e->sqlstate));
    e->message = cm_arena_strdup(arena, err->message ? err->message : "");
    e->detail = err->detail ? cm_arena_strdup(arena, err->detail) : NULL;
    e->hint = err->hint ? cm_arena_strdup(arena, err->hint) : NULL;
    e->position = err->position;
    cm_err_clear(err);
    return e;
}

bool plan_error_raise(const plan_error_t *e, cm_err_t *err)
{
    if (e == NULL)
        return true;
    cm_err_set(err, e->sqlstate, "%s", e->message);
    if (e->detail)
        cm_err_set_detail(err, "%s", e->detail);
    if (e->hint)
        cm_err_set_hint(err, "%s", e->hint);
    err->position = e->position;
    return false;
}

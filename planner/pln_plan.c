/*
 * pln_plan.c: a statement over a plan that came as bytes (planner.h,
 * pln_stmt_of_plan). plan_decode checks a plan's structure; which session
 * relations exist, and their columns, only the planner knows (pln_sysrel.c,
 * eddy_catalog's built-in relations), so a decoded plan's session reads are
 * checked here before it runs in a session or prints.
 */
#include "planner/pln_internal.h"

#include <string.h>

static bool session_check(const plan_rel_t *rel, cm_err_t *err)
{
    if (!rel)
        return true;
    if (rel->kind == PLAN_REL_SESSION) {
        const cat_column_t *cols = NULL;
        uint32_t ncols = 0;
        if (!rel->session || !pln__session_columns(rel->session, &cols, &ncols) || (int)ncols != rel->ncols)
            return cm_err_set(err, "XX001", "invalid query plan: unknown session relation");
        for (int i = 0; i < rel->ncols; i++)
            if (cols[i].type != rel->types[i])
                return cm_err_set(err, "XX001", "invalid query plan: session relation %s with column %d of type %u",
                                  rel->session, i, rel->types[i]);
    }
    if (!session_check(rel->input, err) || !session_check(rel->right, err))
        return false;
    for (int i = 0; i < rel->nctes; i++)
        if (!session_check(rel->ctes[i]->def, err) || !session_check(rel->ctes[i]->rec, err))
            return false;
    return true;
}

bool pln_stmt_of_plan(cm_arena_t *arena, plan_t *plan, pln_stmt_t **out, cm_err_t *err)
{
    *out = NULL;
    if (!session_check(plan->root, err))
        return false;
    for (int i = 0; i < plan->nsublinks; i++)
        if (!session_check(plan->sublinks[i].rel, err))
            return false;
    pln_stmt_t *st = cm_arena_zalloc(arena, sizeof(*st));
    st->kind = PLN_QUERY;
    st->tag = "SELECT";
    st->query = plan;
    st->ncols = plan->ncols;
    st->cols = plan->cols;
    st->nparams = plan->nparams;
    st->param_types = cm_arena_alloc(arena, sizeof(ty_oid_t) * (size_t)(plan->nparams ? plan->nparams : 1));
    if (plan->nparams > 0)
        memcpy(st->param_types, plan->param_types, sizeof(ty_oid_t) * (size_t)plan->nparams);
    st->catalog_index = plan->catalog_index;
    st->plan_error = plan->error;
    st->blocking = plan->blocking;
    *out = st;
    return true;
}

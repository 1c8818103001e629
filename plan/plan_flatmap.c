/*
 * plan_flatmap.c: the rows FLATMAP makes of one input row, for every
 * executor of a plan (the pull executor's ex_flatmap.c, a materialized
 * view's df_op_flatmap.c): the functions' rows zipped, NULLs padding the
 * shorter ones (PostgreSQL's ROWS FROM and ProjectSet), a strict function
 * of a NULL argument giving none, WITH ORDINALITY counting them, and LEFT
 * keeping an input row none of whose rows meet the join's condition once,
 * NULL-padded. The caller gives the expressions to evaluate (the plan's, or
 * its own copies with subqueries replaced) and its parameters.
 */
#include "plan/plan.h"

#include <string.h>

plan_flatmap_t *plan_flatmap_new(cm_arena_t *a, const plan_rel_t *rel, ty_expr_t ***args, ty_expr_t **exprs,
                                 ty_expr_t *pred)
{
    plan_flatmap_t *s = cm_arena_zalloc(a, sizeof(*s));
    int n = rel->nfuncs;
    s->rel = rel;
    s->args = args;
    s->exprs = exprs;
    s->pred = pred;
    s->vals = cm_arena_zalloc(a, sizeof(ty_datum_t *) * (size_t)(n ? n : 1));
    s->st = cm_arena_zalloc(a, sizeof(void *) * (size_t)(n ? n : 1));
    s->done = cm_arena_zalloc(a, sizeof(bool) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        if (f->srf)
            s->vals[i] = cm_arena_alloc(a, sizeof(ty_datum_t) * (size_t)(f->nargs ? f->nargs : 1));
    }
    return s;
}

bool plan_flatmap_begin(plan_flatmap_t *s, const ty_datum_t *row, const ty_datum_t *params, ty_ctx_t *ctx)
{
    const plan_rel_t *rel = s->rel;
    s->row = row;
    s->ord = 0;
    s->matched = false;
    s->finished = false;
    for (int i = 0; i < rel->nfuncs; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        s->st[i] = NULL;
        s->done[i] = false;
        for (int k = 0; f->srf && k < f->nargs; k++) {
            ty_datum_t *v = &s->vals[i][k];
            memset(v, 0, sizeof(*v));
            if (!ty_expr_eval(s->args[i][k], ctx, row, params, v))
                return false;
            if (v->isnull && (f->srf->fn.flags & TY_FN_STRICT))
                s->done[i] = true;   /* a strict function of NULL has no rows */
        }
    }
    return true;
}

bool plan_flatmap_next(plan_flatmap_t *s, const ty_datum_t *params, ty_ctx_t *ctx, ty_datum_t **row)
{
    const plan_rel_t *rel = s->rel;
    int nin = rel->input->ncols;
    *row = NULL;
    while (!s->finished) {
        if ((++s->made & 1023) == 0 && !ty_ctx_check_interrupt(ctx))
            return false;   /* a long series (or one whose rows the condition drops) can be cancelled */
        ty_datum_t *out = cm_arena_zalloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(rel->ncols ? rel->ncols : 1));
        memcpy(out, s->row, sizeof(ty_datum_t) * (size_t)nin);
        bool any = false;
        for (int i = 0, at = nin; i < rel->nfuncs; at += rel->funcs[i]->ncols, i++) {
            const plan_srfcall_t *f = rel->funcs[i];
            ty_datum_t *dst = out + at;
            if (!s->done[i] && !f->srf) {
                if (!ty_expr_eval(s->exprs[i], ctx, s->row, params, dst))
                    return false;
                s->done[i] = true;   /* a scalar function gives its one row */
                any = true;
                continue;
            }
            if (!s->done[i]) {
                bool done = false;
                if (!f->srf->next(ctx, s->vals[i], f->nargs, &s->st[i], dst, &done))
                    return false;
                if (!done) {
                    any = true;
                    continue;
                }
                s->done[i] = true;
            }
            for (int k = 0; k < f->ncols; k++)
                dst[k] = (ty_datum_t){.isnull = true};
        }
        if (!any) {
            s->finished = true;
            if (rel->join != PLAN_JOIN_LEFT || s->matched)
                return true;
            /* LEFT JOIN: the input row once, with NULL for every function column. */
            for (int c = nin; c < rel->ncols; c++)
                out[c] = (ty_datum_t){.isnull = true};
            *row = out;
            return true;
        }
        if (rel->ordinality)
            out[rel->ncols - 1] = (ty_datum_t){.v.i = ++s->ord};
        if (s->pred) {
            ty_datum_t ok = {0};
            if (!ty_expr_eval(s->pred, ctx, out, params, &ok))
                return false;
            if (ok.isnull || !ok.v.b)
                continue;
            s->matched = true;
        }
        *row = out;
        return true;
    }
    return true;
}

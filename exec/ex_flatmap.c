/*
 * ex_flatmap.c: FLATMAP at run time: each input row with the rows of the
 * functions of it, zipped, NULLs padding the shorter ones (PostgreSQL's
 * ROWS FROM and ProjectSet), WITH ORDINALITY counting them, and LEFT
 * keeping a row none of whose function rows meet the join's condition.
 */
#include "exec/ex_int.h"

#include <string.h>

typedef struct fm_state {
    ty_expr_t ***args;            /* per function: its arguments, sublinks replaced */
    ty_expr_t **exprs;            /* per scalar function: its expression */
    ty_datum_t *row;              /* the input row being expanded; NULL: read the next */
    ty_datum_t **vals;            /* per function: the argument values for this row */
    void **st;                    /* per function: its own state */
    bool *done;
    ty_expr_t *pred;              /* LEFT: the join's condition, sublinks replaced */
    bool matched;                 /* LEFT: a row of the input row met the condition */
    int64_t ord;
    int64_t made;
} fm_state_t;

static fm_state_t *ex__fm_start(ex_exec_t *x, const plan_rel_t *rel)
{
    cm_arena_t *a = x->ctx->arena;
    fm_state_t *s = cm_arena_zalloc(a, sizeof(*s));
    int n = rel->nfuncs;
    s->args = cm_arena_zalloc(a, sizeof(ty_expr_t **) * (size_t)n);
    s->exprs = cm_arena_zalloc(a, sizeof(ty_expr_t *) * (size_t)n);
    s->vals = cm_arena_zalloc(a, sizeof(ty_datum_t *) * (size_t)n);
    s->st = cm_arena_zalloc(a, sizeof(void *) * (size_t)n);
    s->done = cm_arena_zalloc(a, sizeof(bool) * (size_t)n);
    if (rel->pred && !(s->pred = ex__instantiate(x, rel->pred)))
        return NULL;
    for (int i = 0; i < n; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        if (!f->srf) {
            if (!(s->exprs[i] = ex__instantiate(x, f->expr)))
                return NULL;
            continue;
        }
        s->args[i] = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)(f->nargs ? f->nargs : 1));
        s->vals[i] = cm_arena_alloc(a, sizeof(ty_datum_t) * (size_t)(f->nargs ? f->nargs : 1));
        for (int k = 0; k < f->nargs; k++)
            if (!(s->args[i][k] = ex__instantiate(x, f->args[k])))
                return NULL;
    }
    return s;
}

/* A new input row: each function starts over with its arguments evaluated over it. */
static bool ex__fm_begin_row(ex_exec_t *x, const plan_rel_t *rel, fm_state_t *s)
{
    s->ord = 0;
    s->matched = false;
    for (int i = 0; i < rel->nfuncs; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        s->st[i] = NULL;
        s->done[i] = false;
        for (int k = 0; f->srf && k < f->nargs; k++) {
            ty_datum_t *v = &s->vals[i][k];
            memset(v, 0, sizeof(*v));
            if (!ty_expr_eval(s->args[i][k], x->ctx, s->row, x->params, v))
                return false;
            if (v->isnull && (f->srf->fn.flags & TY_FN_STRICT))
                s->done[i] = true;   /* a strict function of NULL has no rows */
        }
    }
    return true;
}

bool ex__flatmap_next(ex_exec_t *x, const plan_rel_t *rel, ex_iter_t *in, void **state, ty_datum_t **row)
{
    *row = NULL;
    fm_state_t *s = *state;
    if (!s && !(s = *state = ex__fm_start(x, rel)))
        return false;
    int nin = rel->input->ncols;
    for (;;) {
        if (!s->row) {
            if (!ex__iter_next(x, in, &s->row))
                return false;
            if (!s->row)
                return true;
            if (!ex__fm_begin_row(x, rel, s))
                return false;
        }
        if ((++s->made & 1023) == 0 && !ty_ctx_check_interrupt(x->ctx))
            return false;
        ty_datum_t *out = cm_arena_zalloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(rel->ncols ? rel->ncols : 1));
        memcpy(out, s->row, sizeof(ty_datum_t) * (size_t)nin);
        bool any = false;
        for (int i = 0, at = nin; i < rel->nfuncs; at += rel->funcs[i]->ncols, i++) {
            const plan_srfcall_t *f = rel->funcs[i];
            ty_datum_t *dst = out + at;
            if (!s->done[i] && !f->srf) {
                if (!ty_expr_eval(s->exprs[i], x->ctx, s->row, x->params, dst))
                    return false;
                s->done[i] = true;   /* a scalar function gives its one row */
                any = true;
                continue;
            }
            if (!s->done[i]) {
                bool done = false;
                if (!f->srf->next(x->ctx, s->vals[i], f->nargs, &s->st[i], dst, &done))
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
            bool pad = rel->join == PLAN_JOIN_LEFT && !s->matched;
            s->row = NULL;
            if (!pad)
                continue;
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
            if (!ty_expr_eval(s->pred, x->ctx, out, x->params, &ok))
                return false;
            if (ok.isnull || !ok.v.b)
                continue;
            s->matched = true;
        }
        *row = out;
        return true;
    }
}


/*
 * ex_flatmap.c: FLATMAP at run time: each input row with the rows of the
 * functions of it, as plan_flatmap.c makes them (zipped, NULLs padding the
 * shorter ones, WITH ORDINALITY, LEFT keeping a row none of whose function
 * rows meet the join's condition), over expressions whose subqueries this
 * execution has replaced.
 */
#include "exec/ex_int.h"

#include <string.h>

typedef struct fm_state {
    plan_flatmap_t *fm;
    bool in_row;                  /* an input row is being expanded */
} fm_state_t;

static fm_state_t *ex__fm_start(ex_exec_t *x, const plan_rel_t *rel)
{
    cm_arena_t *a = x->ctx->arena;
    int n = rel->nfuncs;
    ty_expr_t ***args = cm_arena_zalloc(a, sizeof(ty_expr_t **) * (size_t)(n ? n : 1));
    ty_expr_t **exprs = cm_arena_zalloc(a, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    ty_expr_t *pred = NULL;
    if (rel->pred && !(pred = ex__instantiate(x, rel->pred)))
        return NULL;
    for (int i = 0; i < n; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        if (!f->srf) {
            if (!(exprs[i] = ex__instantiate(x, f->expr)))
                return NULL;
            continue;
        }
        args[i] = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)(f->nargs ? f->nargs : 1));
        for (int k = 0; k < f->nargs; k++)
            if (!(args[i][k] = ex__instantiate(x, f->args[k])))
                return NULL;
    }
    fm_state_t *s = cm_arena_zalloc(a, sizeof(*s));
    s->fm = plan_flatmap_new(a, rel, args, exprs, pred);
    return s;
}

bool ex__flatmap_next(ex_exec_t *x, const plan_rel_t *rel, ex_iter_t *in, void **state, ty_datum_t **row)
{
    *row = NULL;
    fm_state_t *s = *state;
    if (!s && !(s = *state = ex__fm_start(x, rel)))
        return false;
    for (;;) {
        if (!s->in_row) {
            ty_datum_t *r;
            if (!ex__iter_next(x, in, &r))
                return false;
            if (!r)
                return true;
            if (!plan_flatmap_begin(s->fm, r, x->params, x->ctx))
                return false;
            s->in_row = true;
        }
        if (!plan_flatmap_next(s->fm, x->params, x->ctx, row))
            return false;
        if (*row)
            return true;
        s->in_row = false;
    }
}

/*
 * ex_reduce.c: GROUP BY in the pull executor. The input is read whole;
 * each group (keys compared as DISTINCT does, NULLs equal) keeps its
 * aggregates' running states (plan_agg.c), and groups come out in the
 * order they were first seen. A FILTER is evaluated before the arguments,
 * so arguments of rows it rejects are never evaluated (as in PostgreSQL).
 */
#include "exec/ex_int.h"

#include <string.h>

bool ex__reduce(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    int nk = rel->nkeys, na = rel->naggs;
    int nargs = 0, maxvals = 1;
    for (int a = 0; a < na; a++) {
        nargs += plan_agg_nexprs(rel->aggs[a]);
        if (plan_agg_nexprs(rel->aggs[a]) > maxvals)
            maxvals = plan_agg_nexprs(rel->aggs[a]);
    }
    ty_expr_t **es = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)(nk + nargs + 1));
    for (int k = 0; k < nk; k++)
        es[k] = rel->keys[k];
    for (int a = 0, j = nk; a < na; a++)
        j += plan_agg_exprs(rel->aggs[a], es + j);
    ty_datum_t *vals = ex__new_row(x, maxvals);
    plan_rowset_t *groups = plan_rowset_new(x->ctx->arena, nk, rel->types);
    for (;;) {
        ty_datum_t *r;
        if (!ex__iter_next(x, it->in, &r))
            return false;
        if (!r)
            break;
        if (!ex__inst_all(x, it, es, nk + nargs))
            return false;
        ty_datum_t *key = ex__new_row(x, nk);
        for (int k = 0; k < nk; k++)
            if (!ex__eval(x, it->inst[k], r, &key[k]))
                return false;
        bool added;
        plan_rowent_t *g = plan_rowset_find(groups, key, true, &added);
        if (added) {
            plan_aggstate_t **st = cm_arena_alloc(x->ctx->arena, sizeof(*st) * (size_t)(na ? na : 1));
            for (int a = 0; a < na; a++)
                st[a] = plan_agg_start(rel->aggs[a], x->ctx);
            g->state = st;
        }
        plan_aggstate_t **st = g->state;
        for (int a = 0, j = nk; a < na; a++) {
            const plan_agg_t *ag = rel->aggs[a];
            int nv = plan_agg_nexprs(ag);
            memset(vals, 0, sizeof(ty_datum_t) * (size_t)maxvals);
            bool skip = false;
            for (int i = 0, v = 0; i < nv; i++, j++) {
                if (skip)
                    continue;
                ty_datum_t d;
                if (!ex__eval(x, it->inst[j], r, &d))
                    return false;
                if (ag->filter && i == 0)
                    skip = d.isnull || !d.v.b;   /* FILTER first: arguments of other rows are not evaluated */
                else
                    vals[v++] = d;
            }
            if (!skip && !plan_agg_step(ag, st[a], vals, x->ctx))
                return false;
        }
    }
    /* Without GROUP BY there is one group even when there were no rows. */
    if (nk == 0 && !plan_rowset_first(groups)) {
        ty_datum_t none;
        plan_rowent_t *g = plan_rowset_find(groups, &none, true, NULL);
        plan_aggstate_t **st = cm_arena_alloc(x->ctx->arena, sizeof(*st) * (size_t)(na ? na : 1));
        for (int a = 0; a < na; a++)
            st[a] = plan_agg_start(rel->aggs[a], x->ctx);
        g->state = st;
    }
    int n = 0;
    for (plan_rowent_t *g = plan_rowset_first(groups); g; g = g->order)
        n++;
    it->buf = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)(n ? n : 1));
    for (plan_rowent_t *g = plan_rowset_first(groups); g; g = g->order) {
        ty_datum_t *out = ex__new_row(x, rel->ncols);
        if (nk)
            memcpy(out, g->row, sizeof(ty_datum_t) * (size_t)nk);
        plan_aggstate_t **st = g->state;
        for (int a = 0; a < na; a++)
            if (!plan_agg_finish(rel->aggs[a], st[a], x->ctx, &out[nk + a]))
                return false;
        it->buf[it->nbuf++] = out;
    }
    return true;
}


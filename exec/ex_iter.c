/*
 * ex_iter.c: the operators' iterators and the entry point (exec.h): runs
 * a plan on the caller's thread, for queries that read no catalog relation
 * (constant rows, VALUES, subqueries over them). Each operator is an iterator that hands rows up one at a time
 * (filter, project, product, limit, distinct and UNION stream; sort,
 * reduce and INTERSECT/EXCEPT consume their input first), so rows reach
 * the client as they are made and LIMIT stops the work early. Literal
 * conversions left for run time are checked first, so a bad literal is
 * reported at its position as PostgreSQL does at parse time. Rows live in
 * ctx->arena.
 */
#include "exec/ex_int.h"

#include <string.h>



ex_iter_t *ex__iter_new(ex_exec_t *x, const plan_rel_t *rel)
{
    ex_iter_t *it = cm_arena_zalloc(x->ctx->arena, sizeof(*it));
    it->rel = rel;
    if (rel->input)
        it->in = ex__iter_new(x, rel->input);
    if (rel->right)
        it->right = ex__iter_new(x, rel->right);
    return it;
}

bool ex__eval(ex_exec_t *x, ty_expr_t *e, const ty_datum_t *row, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    return ty_expr_eval(e, x->ctx, row, x->params, out);
}

/* The operator's expressions with sublinks replaced, made when its first row needs them. */
bool ex__inst_all(ex_exec_t *x, ex_iter_t *it, ty_expr_t **es, int n)
{
    if (it->inst)
        return true;
    it->inst = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        if (!(it->inst[i] = ex__instantiate(x, es[i])))
            return false;
    return true;
}

ty_datum_t *ex__new_row(ex_exec_t *x, int n)
{
    return cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
}

/* Reads all of an input into an array. */
bool ex__drain(ex_exec_t *x, ex_iter_t *in, int max, ty_datum_t ***rows, int *n)
{
    int cap = 16;
    *rows = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)cap);
    *n = 0;
    for (;;) {
        if (max >= 0 && *n >= max)
            return true;
        ty_datum_t *r;
        if (!ex__iter_next(x, in, &r))
            return false;
        if (!r)
            return true;
        if (*n == cap) {
            ty_datum_t **g = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)cap * 2);
            memcpy(g, *rows, sizeof(ty_datum_t *) * (size_t)cap);
            *rows = g;
            cap *= 2;
        }
        (*rows)[(*n)++] = r;
    }
}

/* ------------------------------------------------------------ operators */

static bool ex__eval_bound(ex_exec_t *x, ty_expr_t *e, const char *what, const char *sqlstate, int64_t *out)
{
    ty_datum_t d;
    ty_expr_t *i = ex__instantiate(x, e);
    if (!i || !ex__eval(x, i, NULL, &d))
        return false;
    if (d.isnull)
        return true;   /* LIMIT NULL is no limit, OFFSET NULL is none */
    if (d.v.i < 0)
        return cm_err_set(x->ctx->err, sqlstate, "%s must not be negative", what);
    *out = d.v.i;
    return true;
}

/* A session relation's rows, read once per execution: a catalog view joins eddy_catalog.items to
 * itself, and every reference then sees one state. Readers never change the shared rows. */
struct ex_session_rows {
    const char *name;
    int ncols, nrows;
    ty_datum_t **rows;
    struct ex_session_rows *next;
};

static bool ex__session_start(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    /* Without a session (unit tests, workers) the relation is empty. */
    if (!x->ctx->session_rows)
        return true;
    for (struct ex_session_rows *s = x->sessions; s; s = s->next)
        if (s->ncols == rel->ncols && strcmp(s->name, rel->session) == 0) {
            it->buf = s->rows;
            it->nbuf = s->nrows;
            return true;
        }
    if (!x->ctx->session_rows(x->ctx->session_arg, rel->session, rel->ncols, x->ctx->arena, &it->buf, &it->nbuf,
                              x->ctx->err))
        return false;
    struct ex_session_rows *s = cm_arena_alloc(x->ctx->arena, sizeof *s);
    *s = (struct ex_session_rows){rel->session, rel->ncols, it->nbuf, it->buf, x->sessions};
    x->sessions = s;
    return true;
}

static bool ex__start(ex_exec_t *x, ex_iter_t *it)
{
    it->started = true;
    const plan_rel_t *rel = it->rel;
    switch (rel->kind) {
    case PLAN_REL_SORT: {
        if (!ex__drain(x, it->in, -1, &it->buf, &it->nbuf))
            return false;
        ty_datum_t **tmp = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)(it->nbuf + 1));
        plan_rows_sort(rel->sort, rel->nsort, it->buf, tmp, it->nbuf);
        return true;
    }
    case PLAN_REL_REDUCE:
        return ex__reduce(x, it);
    case PLAN_REL_WINDOW: {
        ty_datum_t **in;
        int n;
        return ex__drain(x, it->in, -1, &in, &n) && ex__window_run(x, rel, in, n, &it->buf) && (it->nbuf = n, true);
    }
    case PLAN_REL_PRODUCT:
        return ex__drain(x, it->right, -1, &it->rrows, &it->nr);
    case PLAN_REL_JOIN:
        if (!ex__drain(x, it->right, -1, &it->rrows, &it->nr))
            return false;
        it->rmatched = cm_arena_zalloc(x->ctx->arena, sizeof(bool) * (size_t)(it->nr ? it->nr : 1));
        ex__join_hash(x, it);
        return true;
    case PLAN_REL_DISTINCT:
        if (rel->nsort) {
            /* DISTINCT ON: a set of the key columns only. */
            ty_oid_t *types = cm_arena_alloc(x->ctx->arena, sizeof(ty_oid_t) * (size_t)rel->nsort);
            for (int i = 0; i < rel->nsort; i++)
                types[i] = rel->sort[i].type;
            it->set = plan_rowset_new(x->ctx->arena, rel->nsort, types);
            return true;
        }
        it->set = plan_rowset_new(x->ctx->arena, rel->ncols, rel->types);
        return true;
    case PLAN_REL_LIMIT:
        it->limit = -1;
        return (!rel->offset || ex__eval_bound(x, rel->offset, "OFFSET", "2201X", &it->skip)) &&
               (!rel->limit || ex__eval_bound(x, rel->limit, "LIMIT", "2201W", &it->limit));
    case PLAN_REL_SETOP:
        return ex__setop_start(x, it);
    case PLAN_REL_SESSION:
        return ex__session_start(x, it);
    case PLAN_REL_GET:
        /* Rows the workers sent for this read; without them (a caller that gathered none) there are none. */
        return !x->get || x->get(x->get_arg, rel->item, rel->types, rel->ncols, x->ctx, &it->buf, &it->nbuf);
    default:
        return true;
    }
}

bool ex__iter_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    *row = NULL;
    if (!it->started && !ex__start(x, it))
        return false;
    const plan_rel_t *rel = it->rel;
    switch (rel->kind) {
    case PLAN_REL_VALUES: {
        if (it->pos >= rel->nrows)
            return true;
        if (!ty_ctx_check_interrupt(x->ctx))
            return false;
        ty_datum_t *r = ex__new_row(x, rel->ncols);
        for (int c = 0; c < rel->ncols; c++) {
            ty_expr_t *e = ex__instantiate(x, rel->rows[it->pos][c]);
            if (!e || !ex__eval(x, e, NULL, &r[c]))
                return false;
        }
        it->pos++;
        *row = r;
        return true;
    }
    case PLAN_REL_PROJECT: {
        ty_datum_t *in;
        if (!ex__iter_next(x, it->in, &in))
            return false;
        if (!in)
            return true;
        if (!ex__inst_all(x, it, rel->exprs, rel->ncols))
            return false;
        ty_datum_t *r = ex__new_row(x, rel->ncols);
        for (int c = 0; c < rel->ncols; c++)
            if (!ex__eval(x, it->inst[c], in, &r[c]))
                return false;
        *row = r;
        return true;
    }
    case PLAN_REL_FILTER:
        for (;;) {
            ty_datum_t *in, ok;
            if (!ex__iter_next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            if (!ex__inst_all(x, it, (ty_expr_t **)&rel->pred, 1) || !ex__eval(x, it->inst[0], in, &ok))
                return false;
            if (!ok.isnull && ok.v.b) {
                *row = in;
                return true;
            }
        }
    case PLAN_REL_PRODUCT: {
        int lw = rel->input->ncols, rw = rel->right->ncols;
        while (!it->cur || it->pos >= it->nr) {
            if (!ex__iter_next(x, it->in, &it->cur))
                return false;
            if (!it->cur)
                return true;
            it->pos = 0;
        }
        ty_datum_t *r = ex__new_row(x, rel->ncols);
        memcpy(r, it->cur, sizeof(ty_datum_t) * (size_t)lw);
        memcpy(r + lw, it->rrows[it->pos++], sizeof(ty_datum_t) * (size_t)rw);
        *row = r;
        return true;
    }
    case PLAN_REL_JOIN:
        return ex__join_next(x, it, row);
    case PLAN_REL_SORT:
    case PLAN_REL_REDUCE:
    case PLAN_REL_SESSION:
    case PLAN_REL_GET:
    case PLAN_REL_WINDOW:
        if (it->pos < it->nbuf)
            *row = it->buf[it->pos++];
        return true;
    case PLAN_REL_DISTINCT:
        for (;;) {
            ty_datum_t *in;
            if (!ex__iter_next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            bool added;
            const ty_datum_t *key = in;
            if (rel->nsort) {
                ty_datum_t *k = ex__new_row(x, rel->nsort);
                for (int i = 0; i < rel->nsort; i++)
                    k[i] = in[rel->sort[i].col];
                key = k;
            }
            plan_rowset_find(it->set, key, true, &added);
            if (added) {
                *row = in;
                return true;
            }
        }
    case PLAN_REL_LIMIT:
        while (it->limit < 0 || it->sent < it->limit) {
            ty_datum_t *in;
            if (!ex__iter_next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            if (it->skip > 0) {
                it->skip--;
                continue;
            }
            it->sent++;
            *row = in;
            return true;
        }
        return true;
    case PLAN_REL_SETOP:
        return ex__setop_next(x, it, row);
    case PLAN_REL_LET:
        return ex__iter_next(x, it->in, row);   /* the CTEs are computed when first read */
    case PLAN_REL_CTE:
        return ex__cte_next(x, rel, &it->ext, row);
    case PLAN_REL_FLATMAP:
        return ex__flatmap_next(x, rel, it->in, &it->ext, row);
    }
    return cm_err_set(x->ctx->err, CM_ERRCODE_INTERNAL_ERROR, "unknown plan operator %d", (int)rel->kind);
}

bool ex__collect(ex_exec_t *x, const plan_rel_t *rel, int max_rows, ty_datum_t ***rows, int *nrows)
{
    return ex__drain(x, ex__iter_new(x, rel), max_rows, rows, nrows);
}


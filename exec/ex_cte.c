/*
 * ex_cte.c: WITH queries at run time. An item's rows are made once per
 * execution and only as far as its readers need them, so a LIMIT over an
 * endless WITH RECURSIVE stops as in PostgreSQL; a recursion fails with
 * 54000 after max_recursive_iterations iterations instead of running
 * forever. A recursive UNION (not ALL) drops rows seen before.
 */
#include "exec/ex_int.h"

#include <stdlib.h>
#include <string.h>

/* One item's rows in one execution, made as far as readers need them. */
typedef struct ex_cterun {
    const plan_cte_t *cte;
    int n, cap;
    ty_datum_t **rows;
    ex_iter_t *cur;              /* the term being read: the query (or non-recursive term), then each iteration */
    bool in_rec;                  /* cur is an iteration of the recursive term */
    bool done;
    int work_start, work_end;     /* the worktable: rows the previous iteration added */
    int64_t iterations;
    int64_t max_iterations;
    plan_rowset_t *seen;           /* recursive UNION: rows given so far */
    bool busy;                    /* making rows: a read of the item now would be a cycle */
} ex_cterun_t;

static int64_t ex__iteration_limit(ex_exec_t *x)
{
    ty_ctx_t *ctx = x->ctx;
    if (!ctx->setting_get)
        return EX_RECURSIVE_ITERATIONS_DEFAULT;
    cm_buf_t v;
    cm_buf_init(&v, 0);
    cm_err_t e = {0};
    int64_t n = EX_RECURSIVE_ITERATIONS_DEFAULT;
    if (ctx->setting_get(ctx->setting_arg, "max_recursive_iterations", true, &v, &e) && v.len > 0) {
        cm_buf_put_u8(&v, 0);
        n = strtoll((const char *)v.data, NULL, 10);
    }
    cm_err_clear(&e);
    cm_buf_free(&v);
    return n;
}

/* The item's results in this execution (a short list: a query has few CTEs). */
static ex_cterun_t *ex__run_of(ex_exec_t *x, const plan_cte_t *c)
{
    for (int i = 0; i < x->nctes; i++)
        if (x->ctes[i]->cte == c)
            return x->ctes[i];
    ex_cterun_t **g = cm_arena_alloc(x->ctx->arena, sizeof(*g) * (size_t)(x->nctes + 1));
    if (x->nctes)
        memcpy(g, x->ctes, sizeof(*g) * (size_t)x->nctes);
    ex_cterun_t *r = cm_arena_zalloc(x->ctx->arena, sizeof(*r));
    r->cte = c;
    r->cur = ex__iter_new(x, c->def);
    if (c->rec && !c->all)
        r->seen = plan_rowset_new(x->ctx->arena, c->ncols, c->types);
    g[x->nctes++] = r;
    x->ctes = g;
    return r;
}

static void ex__append(ex_exec_t *x, ex_cterun_t *r, ty_datum_t *row)
{
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 16;
        ty_datum_t **g = cm_arena_alloc(x->ctx->arena, sizeof(*g) * (size_t)cap);
        if (r->n)
            memcpy(g, r->rows, sizeof(*g) * (size_t)r->n);
        r->rows = g;
        r->cap = cap;
    }
    r->rows[r->n++] = row;
}

/* Makes at least one more row of the item, or marks it done. */
static bool ex__produce(ex_exec_t *x, const plan_cte_t *c, ex_cterun_t *r)
{
    for (;;) {
        if (!r->cur) {
            /* The next iteration reads what the last one added; none added: the recursion is over. */
            if (!c->rec || r->work_end == r->n) {
                r->done = true;
                return true;
            }
            if (r->iterations == 0)
                r->max_iterations = ex__iteration_limit(x);
            if (++r->iterations > r->max_iterations) {
                cm_err_set(x->ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                           "recursive query \"%s\" did not finish within %lld iterations", c->name,
                           (long long)r->max_iterations);
                cm_err_set_hint(x->ctx->err, "Check the recursive term's stop condition, or raise max_recursive_iterations.");
                return false;
            }
            if (!ty_ctx_check_interrupt(x->ctx))
                return false;
            r->work_start = r->work_end;
            r->work_end = r->n;
            r->cur = ex__iter_new(x, c->rec);
            r->in_rec = true;
        }
        ty_datum_t *row;
        if (!ex__iter_next(x, r->cur, &row))
            return false;
        if (!row) {
            if (!r->in_rec)
                r->work_end = 0;   /* the non-recursive term's rows are the first worktable */
            r->cur = NULL;
            continue;
        }
        if (r->seen) {
            bool added;
            plan_rowset_find(r->seen, row, true, &added);
            if (!added)
                continue;
        }
        ex__append(x, r, row);
        return true;
    }
}

typedef struct cte_reader {
    ex_cterun_t *run;
    int pos, end;
} cte_reader_t;

bool ex__cte_next(ex_exec_t *x, const plan_rel_t *rel, void **state, ty_datum_t **row)
{
    *row = NULL;
    const plan_cte_t *c = rel->cte;
    cte_reader_t *rd = *state;
    if (!rd) {
        rd = cm_arena_zalloc(x->ctx->arena, sizeof(*rd));
        rd->run = ex__run_of(x, c);
        if (rel->worktable) {
            rd->pos = rd->run->work_start;
            rd->end = rd->run->work_end;
        } else {
            rd->end = -1;
        }
        *state = rd;
    }
    ex_cterun_t *r = rd->run;
    if (rel->worktable) {
        if (rd->pos < rd->end)
            *row = r->rows[rd->pos++];
        return true;
    }
    while (rd->pos >= r->n && !r->done) {
        /* Only a plan that was not bound here can make a CTE read itself while it makes its rows. */
        if (r->busy)
            return cm_err_set(x->ctx->err, CM_ERRCODE_INTERNAL_ERROR, "WITH query \"%s\" reads itself", c->name);
        r->busy = true;
        bool ok = ex__produce(x, c, r);
        r->busy = false;
        if (!ok)
            return false;
    }
    if (rd->pos < r->n)
        *row = r->rows[rd->pos++];
    return true;
}

/*
 * pln_exec.c: the small executor for constant queries (SELECT without
 * FROM, VALUES): checks literal coercions first so that a bad literal is
 * reported at its position as PostgreSQL does at parse time, filters with
 * WHERE, evaluates each row, then applies ORDER BY, DISTINCT and
 * LIMIT/OFFSET. Rows are produced into ctx->arena.
 */
#include "planner/pln_internal.h"

#include <string.h>

typedef struct pln_run {
    const struct pln_query *q;
    ty_ctx_t *ctx;
    const char *sql;
} pln_run_t;

/* Evaluation errors carry the expression's position only if types gave none. */
static bool run_eval(pln_run_t *r, const ty_expr_t *e, const ty_datum_t *params, ty_datum_t *out, bool positioned)
{
    if (ty_expr_eval(e, r->ctx, NULL, params, out))
        return true;
    if (positioned && r->ctx->err->set && r->ctx->err->position == 0 && e->location >= 0)
        r->ctx->err->position = pln__char_pos(r->sql, e->location);
    return false;
}

static int cmp_rows(const pln_run_t *r, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int i = 0; i < r->q->nsort; i++) {
        const pln_sortkey_t *k = &r->q->sort[i];
        const ty_datum_t *x = &a[k->col], *y = &b[k->col];
        int c;
        if (x->isnull || y->isnull) {
            if (x->isnull && y->isnull)
                continue;
            c = x->isnull ? (k->nulls_first ? -1 : 1) : (k->nulls_first ? 1 : -1);
            return c;
        }
        c = ty_datum_compare(k->type, x, y);
        if (c)
            return k->desc ? -c : c;
    }
    return 0;
}

/* A stable merge sort: ORDER BY keeps equal rows in VALUES order. */
static void sort_rows(const pln_run_t *r, ty_datum_t **rows, ty_datum_t **tmp, int n)
{
    if (n < 2)
        return;
    int h = n / 2;
    sort_rows(r, rows, tmp, h);
    sort_rows(r, rows + h, tmp, n - h);
    int i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp_rows(r, rows[j], rows[i]) < 0 ? rows[j++] : rows[i++];
    while (i < h)
        tmp[k++] = rows[i++];
    while (j < n)
        tmp[k++] = rows[j++];
    memcpy(rows, tmp, sizeof(*rows) * (size_t)n);
}

static bool same_row(const struct pln_query *q, const pln_column_t *cols, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int c = 0; c < q->ncols; c++) {
        if (a[c].isnull != b[c].isnull)
            return false;
        if (!a[c].isnull && ty_datum_compare(cols[c].type, &a[c], &b[c]) != 0)
            return false;
    }
    return true;
}

static bool eval_bound(pln_run_t *r, const ty_expr_t *e, const ty_datum_t *params, const char *what,
                       const char *sqlstate, int64_t *out)
{
    ty_datum_t d;
    if (!run_eval(r, e, params, &d, true))
        return false;
    if (d.isnull)
        return true;   /* LIMIT NULL is no limit, OFFSET NULL is none */
    if (d.v.i < 0)
        return cm_err_set(r->ctx->err, sqlstate, "%s must not be negative", what);
    *out = d.v.i;
    return true;
}

bool pln_query_run(const pln_stmt_t *stmt, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx,
                   pln_row_cb cb, void *arg)
{
    CM_ASSERT(stmt->kind == PLN_QUERY && stmt->query);
    const struct pln_query *q = stmt->query;
    pln_run_t r = {.q = q, .ctx = ctx, .sql = sql};

    for (int i = 0; i < q->nlits; i++) {
        ty_datum_t d;
        if (!run_eval(&r, q->lits[i], params, &d, true))
            return false;
    }
    if (q->where) {
        ty_datum_t w;
        if (!run_eval(&r, q->where, params, &w, false))
            return false;
        if (w.isnull || !w.v.b)
            return true;
    }
    int64_t limit = -1, offset = 0;
    if (q->limit && !eval_bound(&r, q->limit, params, "LIMIT", "2201W", &limit))
        return false;
    if (q->offset && !eval_bound(&r, q->offset, params, "OFFSET", "2201X", &offset))
        return false;

    /* Without ORDER BY or DISTINCT rows stream straight to the callback. */
    bool buffer = q->nsort > 0 || q->distinct;
    ty_datum_t **rows = buffer ? cm_arena_alloc(ctx->arena, sizeof(ty_datum_t *) * (size_t)(q->nrows + 1)) : NULL;
    int kept = 0;
    int64_t skipped = 0, sent = 0;
    for (int i = 0; i < q->nrows; i++) {
        if (!buffer && limit >= 0 && sent >= limit)
            break;
        if (!ty_ctx_check_interrupt(ctx))
            return false;
        ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(q->nvals ? q->nvals : 1));
        if (!buffer && skipped < offset) {
            skipped++;
            continue;
        }
        for (int c = 0; c < q->nvals; c++)
            if (!run_eval(&r, q->rows[i][c], params, &vals[c], false))
                return false;
        if (buffer) {
            rows[kept++] = vals;
            continue;
        }
        if (!cb(arg, vals, q->ncols))
            return false;
        sent++;
    }
    if (!buffer)
        return true;

    if (q->nsort) {
        ty_datum_t **tmp = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t *) * (size_t)(kept + 1));
        sort_rows(&r, rows, tmp, kept);
    }
    if (q->distinct) {
        int n = 0;
        for (int i = 0; i < kept; i++) {
            bool dup = false;
            for (int j = 0; j < n && !dup; j++)
                dup = same_row(q, stmt->cols, rows[j], rows[i]);
            if (!dup)
                rows[n++] = rows[i];
        }
        kept = n;
    }
    for (int i = 0; i < kept; i++) {
        if (i < offset)
            continue;
        if (limit >= 0 && sent >= limit)
            break;
        if (!cb(arg, rows[i], q->ncols))
            return false;
        sent++;
    }
    return true;
}

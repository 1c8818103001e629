/*
 * srv_write.c: INSERT, UPDATE and DELETE on tables. The write plan
 * (plan_write_t) gives the rows: run like a query (its reads of tables are
 * a Peek, srv_read.c), then each new row is checked in PostgreSQL's order,
 * NOT NULL columns first (23502), then CHECK constraints (23514), and the
 * changes go to the workers as one Write command: +1 for a new row, -1 for
 * an old one. The workers check the table's key where it lives (23505) and
 * apply the write at one step on every shard, or nowhere. RETURNING's
 * values, the plan's trailing columns, are sent once the write applied.
 *
 * Known limit: UPDATE and DELETE read at one step and write at a later one;
 * a write by another session in between is not detected yet.
 */
#include "server/srv_int.h"

#include <string.h>

typedef struct srv__rows {
    cm_arena_t *arena;
    int n, cap;
    ty_datum_t **rows;
} srv__rows_t;

static bool srv__collect_cb(void *arg, const ty_datum_t *row, int ncols)
{
    srv__rows_t *c = arg;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        ty_datum_t **g = cm_arena_alloc(c->arena, sizeof *g * (size_t)cap);
        if (c->n)
            memcpy(g, c->rows, sizeof *g * (size_t)c->n);
        c->rows = g;
        c->cap = cap;
    }
    ty_datum_t *copy = cm_arena_alloc(c->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    memcpy(copy, row, sizeof(ty_datum_t) * (size_t)ncols);
    c->rows[c->n++] = copy;
    return true;
}

/* "Failing row contains (1, null)." */
static void srv__failing_row(const plan_write_t *w, const ty_datum_t *row, ty_ctx_t *ctx)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_str(&b, "Failing row contains (");
    for (int i = 0; i < w->ncols; i++) {
        if (i)
            cm_buf_put_str(&b, ", ");
        if (row[i].isnull || !ty_datum_to_text(w->cols[i].type, &row[i], ctx, &b))
            cm_buf_put_str(&b, "null");
    }
    cm_buf_put_str(&b, ").");
    cm_err_set_detail(ctx->err, "%.*s", (int)b.len, (const char *)b.data);
    cm_buf_free(&b);
}

static bool srv__check_row(const plan_write_t *w, const ty_datum_t *row, const ty_datum_t *params, ty_ctx_t *ctx)
{
    for (int i = 0; i < w->ncols; i++)
        if (w->not_null && w->not_null[i] && row[i].isnull) {
            cm_err_set(ctx->err, "23502", "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                       w->cols[i].name, w->name);
            srv__failing_row(w, row, ctx);
            return false;
        }
    for (int i = 0; i < w->nchecks; i++) {
        ty_datum_t ok;
        memset(&ok, 0, sizeof ok);
        if (!ty_expr_eval(w->checks[i].expr, ctx, row, params, &ok))
            return false;
        if (!ok.isnull && !ok.v.b) {
            cm_err_set(ctx->err, "23514", "new row for relation \"%s\" violates check constraint \"%s\"", w->name,
                       w->checks[i].name);
            srv__failing_row(w, row, ctx);
            return false;
        }
    }
    return true;
}

/* Sends the write to the workers and waits until every one has applied it (or refused it). */
static bool srv__submit_write(srv_server_t *srv, const plan_write_t *w, bool check_only, ty_datum_t **rows,
                              const int64_t *diffs, int n, ty_ctx_t *ctx)
{
    ty_oid_t *types = cm_arena_alloc(ctx->arena, sizeof(ty_oid_t) * (size_t)(w->ncols ? w->ncols : 1));
    for (int i = 0; i < w->ncols; i++)
        types[i] = w->cols[i].type;
    cm_buf_t body;
    cm_buf_init(&body, 0);
    const char *constraint = w->nkeys > 0 ? w->keys[0].name : NULL;
    df_reply_t *rep = NULL;
    if (df_write_encode(w->item, constraint, check_only, types, w->ncols, rows, diffs, n, ctx, &body)) {
        const char *refused = cm_arena_printf(ctx->arena, "cannot write to table \"%s\" here", w->name);
        rep = srv_workers_ask(srv, DF_CMD_WRITE, &body, false, refused, ctx);
    }
    cm_buf_free(&body);
    df_reply_unref(rep);
    return rep != NULL;
}

bool srv_write_run(srv_server_t *srv, const plan_write_t *w, const char *sql, const ty_datum_t *params,
                   ty_ctx_t *ctx, ex_row_cb cb, void *arg, uint64_t *written)
{
    *written = 0;
    if (!plan_error_raise(w->error, ctx->err))
        return false;
    if (w->kind != PLAN_WRITE_INSERT && w->kind != PLAN_WRITE_UPDATE && w->kind != PLAN_WRITE_DELETE) {
        static const char *const what[] = {"INSERT into", "UPDATE of", "DELETE from", "TRUNCATE of", "COPY into"};
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "%s table \"%s\" needs the dataflow engine, which is not built yet", what[w->kind], w->name);
    }
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "writing tables needs the workers");
    srv__rows_t got = {.arena = ctx->arena};
    bool ok = w->plan->reads ? srv_read_run(srv, w->plan, sql, params, ctx, srv__collect_cb, &got)
                                            : ex_run(w->plan, sql, params, ctx, srv__collect_cb, &got);
    if (!ok)
        return false;
    int per = w->kind == PLAN_WRITE_UPDATE ? 2 : 1;   /* changes per plan row */
    int n = got.n * per;
    ty_datum_t **rows = cm_arena_alloc(ctx->arena, sizeof *rows * (size_t)(n ? n : 1));
    int64_t *diffs = cm_arena_alloc(ctx->arena, sizeof *diffs * (size_t)(n ? n : 1));
    for (int i = 0; i < got.n; i++) {
        ty_datum_t *r = got.rows[i];
        if (w->kind == PLAN_WRITE_INSERT) {
            rows[i] = r;
            diffs[i] = 1;
        } else if (w->kind == PLAN_WRITE_DELETE) {
            rows[i] = r;
            diffs[i] = -1;
        } else {
            rows[2 * i] = r;
            diffs[2 * i] = -1;
            rows[2 * i + 1] = r + w->ncols;
            diffs[2 * i + 1] = 1;
        }
        ty_datum_t *fresh = w->kind == PLAN_WRITE_INSERT ? r : w->kind == PLAN_WRITE_UPDATE ? r + w->ncols : NULL;
        if (fresh && !srv__check_row(w, fresh, params, ctx)) {
            /* PostgreSQL checks each row's constraints, then its keys, row by row: a key broken by
             * an earlier row is the error, if there is one. The workers check those rows' keys. */
            if (i > 0) {
                cm_err_t row_err = *ctx->err;
                memset(ctx->err, 0, sizeof *ctx->err);
                if (!srv__submit_write(srv, w, true, rows, diffs, i * per, ctx)) {
                    cm_err_clear(&row_err);
                    return false;
                }
                *ctx->err = row_err;
            }
            return false;
        }
    }
    if (w->each_value && w->kind != PLAN_WRITE_INSERT)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "%s table \"%s\" with FROM or USING needs the dataflow engine, which is not built yet",
                          w->kind == PLAN_WRITE_UPDATE ? "UPDATE of" : "DELETE from", w->name);
    if (n > 0 && !srv__submit_write(srv, w, false, rows, diffs, n, ctx))
        return false;
    *written = (uint64_t)got.n;
    if (w->nreturning > 0) {
        int width = w->ncols * per + w->nreturning;
        for (int i = 0; i < got.n; i++)
            if (!cb(arg, got.rows[i] + width - w->nreturning, w->nreturning))
                return false;
    }
    return true;
}

/*
 * srv_read.c: a query that reads tables. Its plan travels to the workers as
 * a Peek command, sequenced after every write acknowledged before it (so a
 * session reads its own writes, and every write acknowledged to anyone
 * before the query began); each worker answers with its shards' rows at
 * that step, and the plan runs here over the gathered rows (exec/,
 * ex_run_reading), which also finishes ORDER BY / LIMIT / OFFSET. A table
 * the plan reads by key only is looked up, not sent whole (srv_read_lookup.c).
 * A plan that reduces what it reads (GROUP BY, aggregates, DISTINCT) has that
 * part computed by the workers instead (plan_split_computed): they send the
 * reduced rows, and the rest of the plan runs here over them.
 *
 * It runs on libuv's thread pool like any statement that may wait, so the
 * connection's loop keeps serving others; cancel and statement_timeout end
 * the wait (the workers' answer is then dropped when it comes).
 *
 * Inside a transaction that has written, the rows of each table it changed
 * are the workers' with its own changes applied (srv_write_txn.c).
 */
#include "server/srv_int.h"

typedef struct srv__read {
    df_reply_t *rep;
    const srv_wtxn_t *tx;
    srv_read_keep_t *keep;
} srv__read_t;

static bool srv__read_get(void *arg, uint64_t item, const ty_oid_t *types, int ncols, ty_ctx_t *ctx,
                          ty_datum_t ***rows, int *nrows)
{
    srv__read_t *r = arg;
    if (!df_peek_rows(r->rep, item, types, ncols, ctx, rows, nrows) || !srv_wtxn_overlay(r->tx, item, ctx, rows, nrows))
        return false;
    if (r->keep != NULL && r->keep->item == item) {
        r->keep->rows = *rows;
        r->keep->nrows = *nrows;
        r->keep->found = true;
    }
    return true;
}

/* The workers evaluate with the default settings: a session with others reads the rows itself. */
static bool srv__default_settings(const ty_settings_t *s)
{
    ty_settings_t d;
    ty_settings_default(&d);
    return s == NULL || (s->extra_float_digits == d.extra_float_digits && s->datestyle == d.datestyle &&
                         s->dateorder == d.dateorder && s->intervalstyle == d.intervalstyle && s->tz == d.tz &&
                         s->bytea_output_escape == d.bytea_output_escape);
}

bool srv_read_run(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const char *sql,
                  const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg)
{
    return srv_read_run_keep(srv, p, tx, sql, params, ctx, cb, arg, NULL);
}

bool srv_read_plan_bytes(const plan_t *p, cm_buf_t *body, ty_ctx_t *ctx)
{
    return plan_encode(p, NULL, body, ctx->err);
}

bool srv_read_prepare(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const ty_datum_t *params,
                      ty_ctx_t *ctx, bool keep, cm_buf_t *body, const plan_t **rest, bool *plan_left)
{
    if (plan_left != NULL)
        *plan_left = false;
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "reading tables needs the workers");
    *rest = p;
    if (!srv_read_lookups(p, params, ctx, body))
        return false;
    plan_t *sub, *top;
    if (body->len == 0 && !keep && srv_wtxn_empty(tx) && srv__default_settings(ctx->settings) &&
        plan_split_computed(p, ctx->arena, DF_PEEK_COMPUTED, &sub, &top)) {
        df_peek_computed_begin(body);
        *rest = top;
        return plan_encode(sub, NULL, body, ctx->err);
    }
    if (plan_left != NULL && srv->cfg.snapshot_reads && srv_wtxn_empty(tx)) {
        *plan_left = true;
        return true;
    }
    return plan_encode(p, NULL, body, ctx->err);
}

bool srv_read_finish(df_reply_t *rep, const plan_t *rest, const srv_wtxn_t *tx, const char *sql,
                     const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, srv_read_keep_t *keep)
{
    srv__read_t rd = {.rep = rep, .tx = tx, .keep = keep};
    return ex_run_reading(rest, sql, params, ctx, srv__read_get, &rd, cb, arg);
}

bool srv_read_run_keep(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const char *sql,
                       const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, srv_read_keep_t *keep)
{
    cm_buf_t body;
    cm_buf_init(&body, 0);
    const plan_t *rest;
    bool plan_left;
    if (!srv_read_prepare(srv, p, tx, params, ctx, keep != NULL, &body, &rest, &plan_left))
        return cm_buf_free(&body), false;
    df_reply_t *rep = NULL;
    if (plan_left) {
        rep = df_reply_new(df_workers_count(srv->workers), NULL, NULL);
        if (!srv_workers_read_published(srv, p, &body, rep)) {
            df_reply_unref(rep);
            rep = NULL;
            if (!srv_read_plan_bytes(p, &body, ctx))
                return cm_buf_free(&body), false;
        } else if (!srv_workers_answer_ok(rep, ctx)) {
            df_reply_unref(rep);
            return cm_buf_free(&body), false;
        }
    }
    if (rep == NULL)
        rep = srv_workers_ask(srv, DF_CMD_PEEK, &body, SRV_ASK_INTERRUPTIBLE, "cannot read tables here", ctx);
    cm_buf_free(&body);
    if (rep == NULL)
        return false;
    bool ok = srv_read_finish(rep, rest, tx, sql, params, ctx, cb, arg, keep);
    df_reply_unref(rep);
    return ok;
}

/*
 * srv_read.c: a query that reads tables. Its plan travels to the workers as
 * a Peek command, sequenced after every write acknowledged before it (so a
 * session reads its own writes, and every write acknowledged to anyone
 * before the query began); each worker answers with its shards' rows at
 * that step, and the plan runs here over the gathered rows (exec/,
 * ex_run_reading), which also finishes ORDER BY / LIMIT / OFFSET.
 *
 * It runs on libuv's thread pool like any statement that may wait, so the
 * connection's loop keeps serving others; cancel and statement_timeout end
 * the wait (the workers' answer is then dropped when it comes).
 */
#include "server/srv_int.h"
#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"

#define SRV_READ_POLL_MS 10   /* how often a waiting read looks at cancel and statement_timeout */

typedef struct srv__read {
    df_reply_t *reply;
} srv__read_t;

static bool srv__read_get(void *arg, uint64_t item, const ty_oid_t *types, int ncols, ty_ctx_t *ctx,
                          ty_datum_t ***rows, int *nrows)
{
    return df_peek_rows(((srv__read_t *)arg)->reply, item, types, ncols, ctx, rows, nrows);
}

bool srv_read_run(srv_server_t *srv, const plan_t *p, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx,
                  ex_row_cb cb, void *arg)
{
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "reading tables needs the workers");
    cm_buf_t body;
    cm_buf_init(&body, 0);
    if (!plan_encode(p, NULL, &body, ctx->err)) {
        cm_buf_free(&body);
        return false;
    }
    df_reply_t *rep = df_reply_new(df_workers_count(srv->workers), NULL, NULL);
    df_cmd_t *c = df_cmd_new(DF_CMD_PEEK);
    df_cmd_set_payload(c, body.data, body.len, rep);
    cm_buf_free(&body);
    if (!seq_submit(srv->seq, c)) {
        df_cmd_unref(c);
        df_reply_unref(rep);
        return cm_err_set(ctx->err, "57P03",
                          "cannot read tables here: this process does not run its cluster's workers now "
                          "(a standby, too many reads waiting, or shutting down)");
    }
    bool ok = true;
    while (ok && !df_reply_wait(rep, SRV_READ_POLL_MS))
        ok = ty_ctx_check_interrupt(ctx);
    if (ok && rep->err.set) {
        cm_err_set(ctx->err, rep->err.sqlstate, "%s", rep->err.message ? rep->err.message : "");
        if (rep->err.detail)
            cm_err_set_detail(ctx->err, "%s", rep->err.detail);
        ok = false;
    }
    if (ok) {
        srv__read_t rd = {.reply = rep};
        ok = ex_run_reading(p, sql, params, ctx, srv__read_get, &rd, cb, arg);
    }
    df_reply_unref(rep);
    return ok;
}

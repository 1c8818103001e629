/*
 * srv_exec_ask.c: statements whose work is one command to the workers, run
 * from the connection's loop without the thread pool: a query that reads
 * tables (its Peek sent, the rest of its plan run here over the answer) and
 * an INSERT of VALUES outside a transaction (its rows computed and checked
 * here, its Write sent). The connection is BUSY meanwhile and the loop
 * serves its other connections; the answer (srv_ask.c) ends the statement
 * as a thread-pool statement's end does (srv__busy_end). An answer too large
 * to finish on the loop without holding up its other connections finishes
 * on the thread pool instead.
 */
#include "server/srv_exec_int.h"

#include <string.h>

/* Answers larger than this run the rest of their plan on the thread pool. */
#define SRV_ASK_LOOP_BYTES ((size_t)256 << 10)

typedef struct srv__asked {
    srv_run_t r;
    srv_cols_t cols;
    ty_ctx_t ctx;
    cm_err_t err;
    const plan_t *rest;         /* a read: what runs here over the answer */
    const srv_wtxn_t *tx;
    srv_write_prep_t prep;      /* an INSERT: its rows and Write */
    char tag[32];
} srv__asked_t;

static srv__asked_t *srv__asked_new(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols)
{
    srv__asked_t *q = cm_arena_zalloc(&c->arena, sizeof *q);
    q->r = *r;
    q->cols = *cols;
    q->tx = c->wtxn;
    srv__ctx_init(c, &q->ctx, &c->arena, &q->err);
    /* As off the loop: the loop's catalog snapshot may move on before the answer comes. */
    q->ctx.catalog_fn = NULL;
    return q;
}

/* The statement did not go out: its error becomes the caller's. */
static srv_run_rc_t srv__asked_refused(srv__asked_t *q, cm_err_t *err)
{
    *err = q->err;
    memset(&q->err, 0, sizeof q->err);
    return SRV_RUN_ERROR;
}

static size_t srv__reply_bytes(const df_reply_t *rep)
{
    size_t n = 0;
    for (int i = 0; i < rep->nworkers; i++)
        n += rep->parts[i].bytes.len;
    return n;
}

static void srv__asked_done(srv_conn_t *c, df_reply_t *rep, void *arg)
{
    srv__asked_t *q = arg;
    if (c->state == SRV_CONN_CLOSED) {
        cm_err_clear(&q->err);
        return;
    }
    const pln_stmt_t *st = q->r.st;
    bool writes = st->kind == PLN_WRITE;
    if (rep != NULL && !writes && srv__reply_bytes(rep) > SRV_ASK_LOOP_BYTES && !rep->err.set) {
        cm_err_clear(&q->err);
        cm_err_t e = {0};
        if (srv__run_answered(c, &q->r, &q->cols, rep, q->rest, &e) != SRV_RUN_BUSY)
            srv__busy_end(c, false, &q->ctx, &e, q->r.portal, q->r.max_rows, 0, NULL);
        cm_err_clear(&e);
        return;
    }
    srv_portal_t *p = q->r.portal;
    srv_sink_t k = {.out = &c->out,
                    .spill = p != NULL ? &p->rows : NULL,
                    .limit = p != NULL ? q->r.max_rows : 0,
                    .types = q->cols.types,
                    .formats = p != NULL ? p->formats : NULL,
                    .ctx = &q->ctx,
                    .copy = q->r.st->copy_to,
                    .c = c,
                    .max = c->lp->srv->cfg.result_max_bytes};
    bool ok = rep != NULL && srv_workers_answer_ok(rep, &q->ctx);
    if (ok && writes) {
        ok = srv_write_returning(st->write, &q->prep, srv__row_cb, &k);
        snprintf(q->tag, sizeof q->tag, "%s 0 %d", st->tag, q->prep.n);
    } else if (ok) {
        ok = srv_read_finish(rep, q->rest, q->tx, q->r.sql, q->r.params, &q->ctx, srv__row_cb, &k, NULL);
    }
    if (!ok && !q->err.set)
        cm_err_set(&q->err, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    /* q is in the connection's arena, which the next statement, run from here, resets. */
    cm_err_t e = q->err;
    memset(&q->err, 0, sizeof q->err);
    ty_ctx_t ctx = q->ctx;
    srv__busy_end(c, ok, &ctx, &e, p, q->r.max_rows, k.n, writes ? q->tag : srv__rows_tag(st));
    cm_err_clear(&e);
}

srv_run_rc_t srv__run_read_ask(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv__asked_t *q = srv__asked_new(c, r, cols);
    cm_buf_t body;
    cm_buf_init(&body, 0);
    bool plan_left = false;
    bool ok = srv_read_prepare(c->lp->srv, r->st->query, q->tx, r->params, &q->ctx, false, &body, &q->rest,
                               &plan_left) &&
              (plan_left ? srv_ask_send_read(c, &body, r->st->query, &q->ctx, "cannot read tables here",
                                             srv__asked_done, q)
                         : srv_ask_send(c, DF_CMD_PEEK, &body, SRV_ASK_INTERRUPTIBLE, 0, &q->ctx,
                                        "cannot read tables here", srv__asked_done, q));
    cm_buf_free(&body);
    if (!ok)
        return srv__asked_refused(q, err);
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return SRV_RUN_BUSY;
}

/* VALUES (projected, perhaps): rows the loop computes at once, unlike a SELECT that might compute
 * a great many (generate_series), which runs on the thread pool. */
static bool srv__values_only(const plan_t *p)
{
    const plan_rel_t *r = p->root;
    while (r != NULL && r->kind == PLAN_REL_PROJECT)
        r = r->input;
    return r != NULL && r->kind == PLAN_REL_VALUES && p->nsublinks == 0 && !p->reads && !p->blocking;
}

bool srv__insert_on_loop(const srv_conn_t *c, const pln_stmt_t *st)
{
    const plan_write_t *w = st->write;
    return w->kind == PLAN_WRITE_INSERT && c->wtxn == NULL && !st->blocking && w->plan != NULL &&
           srv__values_only(w->plan) && c->lp->srv->seq != NULL;
}

srv_run_rc_t srv__run_insert_ask(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv__asked_t *q = srv__asked_new(c, r, cols);
    const plan_write_t *w = r->st->write;
    switch (srv_write_prepare_insert(w, r->sql, r->params, &q->ctx, &q->prep)) {
    case SRV_WRITE_FAILED:
        cm_buf_free(&q->prep.body);
        return srv__asked_refused(q, err);
    case SRV_WRITE_OFF_LOOP:
        cm_buf_free(&q->prep.body);
        cm_err_clear(&q->err);
        return srv__run_answered(c, r, cols, NULL, NULL, err);
    case SRV_WRITE_READY:
        break;
    }
    if (q->prep.n == 0) {   /* nothing to send (VALUES always has rows): the usual way */
        cm_buf_free(&q->prep.body);
        cm_err_clear(&q->err);
        return srv__run_answered(c, r, cols, NULL, NULL, err);
    }
    bool ok = srv_ask_send(c, DF_CMD_WRITE, &q->prep.body, q->prep.flags, r->st->catalog_index, &q->ctx,
                           q->prep.refused, srv__asked_done, q);
    cm_buf_free(&q->prep.body);
    if (!ok)
        return srv__asked_refused(q, err);
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return SRV_RUN_BUSY;
}

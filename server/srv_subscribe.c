/*
 * srv_subscribe.c: SUBSCRIBE's session side. The statement sends one
 * Subscribe command carrying a df_sub_t (dataflow.h) and its connection
 * stays busy, streaming: every SRV_SUBSCRIBE_POLL_MS a timer on the
 * connection's loop takes what the workers appended, and emits every step
 * that all of them have passed (their progress), in step order, each step's
 * rows consolidated, as rows (mz_timestamp = the step, mz_diff, the view's
 * columns) through the statement's sink: DataRows, or CopyData lines for
 * COPY (SUBSCRIBE ...) TO STDOUT. A timer rather than a wake-up from the
 * workers: no worker ever touches a loop whose session may be gone, and an
 * idle subscription costs a few checks a second. It ends only with an
 * error: a cancel or statement_timeout (57014), its view dropped, or more
 * than --result-max-bytes waiting for a client that does not read.
 */
#include "server/srv_exec_int.h"

#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"

#include <stdlib.h>
#include <string.h>

#define SRV_SUBSCRIBE_POLL_MS 5

struct srv_subscribe {
    srv_conn_t *c;              /* NULL once the connection went away */
    uv_timer_t timer;
    df_sub_t *sub;
    const pln_stmt_t *st;
    srv_portal_t *portal;
    int nworkers;
    cm_buf_t *got;              /* per worker: records taken from sub, not yet emitted */
    uint64_t *progress;
    uint64_t emitted;
    cm_arena_t arena;           /* one emission's decoded rows */
    ty_ctx_t ctx;
    cm_err_t err;
    const ty_oid_t *types;      /* the output's: mz_timestamp, mz_diff, the view's */
};

typedef struct srv__subrec {
    uint64_t step;
    int64_t diff;
    const uint8_t *row;
    uint32_t len;
} srv__subrec_t;

static int srv__subrec_cmp(const void *a, const void *b)
{
    const srv__subrec_t *x = a, *y = b;
    if (x->step != y->step)
        return x->step < y->step ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->row, y->row, n);
    return c != 0 ? c : (x->len > y->len) - (x->len < y->len);
}

static uint64_t srv__be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

static uint32_t srv__be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void srv__subscribe_free_cb(uv_handle_t *h)
{
    srv_subscribe_t *ss = h->data;
    for (int i = 0; i < ss->nworkers; i++)
        cm_buf_free(&ss->got[i]);
    free(ss->got);
    free(ss->progress);
    cm_err_clear(&ss->err);
    cm_arena_free(&ss->arena);
    free(ss);
}

/* The workers let it go; the handle and the rest go once libuv closed the timer. */
static void srv__subscribe_release(srv_subscribe_t *ss)
{
    df_sub_close(ss->sub);
    df_sub_unref(ss->sub);
    ss->sub = NULL;
    uv_timer_stop(&ss->timer);
    uv_close((uv_handle_t *)&ss->timer, srv__subscribe_free_cb);
}

static void srv__subscribe_end(srv_subscribe_t *ss)
{
    srv_conn_t *c = ss->c;
    c->subscription = NULL;
    ss->c = NULL;
    cm_err_t e = ss->err;
    memset(&ss->err, 0, sizeof ss->err);
    ty_ctx_t ctx = ss->ctx;
    srv_portal_t *portal = ss->portal;
    uint64_t n = ss->emitted;
    srv__subscribe_release(ss);
    if (!e.set)
        cm_err_set(&e, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    srv__busy_end(c, false, &ctx, &e, portal, 0, n, NULL);
    cm_err_clear(&e);
}

/* The records of every worker up to step upper, in step order, consolidated, out as rows. */
static bool srv__subscribe_emit(srv_subscribe_t *ss, uint64_t upper)
{
    size_t n = 0, *cut = cm_arena_zalloc(&ss->arena, sizeof *cut * (size_t)ss->nworkers);
    for (int w = 0; w < ss->nworkers; w++) {
        const uint8_t *p = ss->got[w].data;
        size_t at = 0, len = ss->got[w].len;
        while (at + 20 <= len && srv__be64(p + at) <= upper) {
            at += 20 + srv__be32(p + at + 16);
            n++;
        }
        cut[w] = at;
    }
    if (n == 0)
        return true;
    srv__subrec_t *recs = cm_arena_alloc(&ss->arena, sizeof *recs * n);
    size_t k = 0;
    for (int w = 0; w < ss->nworkers; w++)
        for (size_t at = 0; at < cut[w];) {
            const uint8_t *p = ss->got[w].data + at;
            uint32_t rl = srv__be32(p + 16);
            recs[k++] = (srv__subrec_t){.step = srv__be64(p), .diff = (int64_t)srv__be64(p + 8), .row = p + 20, .len = rl};
            at += 20 + rl;
        }
    qsort(recs, n, sizeof *recs, srv__subrec_cmp);
    const pln_subscribe_t *sb = ss->st->subscribe;
    srv_sink_t sink = {.out = &ss->c->out, .types = ss->types, .ctx = &ss->ctx, .c = ss->c,
                       .copy = ss->st->copy_to, .max = ss->c->lp->srv->cfg.result_max_bytes};
    ty_datum_t *out = cm_arena_zalloc(&ss->arena, sizeof *out * (size_t)(sb->ncols + 2));
    bool ok = true;
    for (size_t i = 0; ok && i < n;) {
        size_t j = i + 1;
        int64_t diff = recs[i].diff;
        while (j < n && srv__subrec_cmp(&recs[i], &recs[j]) == 0)
            diff += recs[j++].diff;
        if (diff != 0) {
            out[0] = (ty_datum_t){.v.i = (int64_t)recs[i].step};
            out[1] = (ty_datum_t){.v.i = diff};
            ok = df_sub_decode(sb->types, sb->ncols, recs[i].row, recs[i].len, &ss->ctx, out + 2) &&
                 srv__row_cb(&sink, out, sb->ncols + 2);
            ss->emitted++;
        }
        i = j;
    }
    for (int w = 0; w < ss->nworkers; w++)
        cm_buf_consume(&ss->got[w], cut[w]);
    return ok;
}

static void srv__subscribe_poll_cb(uv_timer_t *t)
{
    srv_subscribe_t *ss = t->data;
    if (ss->c == NULL)
        return;
    cm_arena_reset(&ss->arena);
    if (!ty_ctx_check_interrupt(&ss->ctx) || !df_sub_take(ss->sub, ss->got, ss->progress, &ss->err)) {
        srv__subscribe_end(ss);
        return;
    }
    uint64_t upper = UINT64_MAX;
    for (int w = 0; w < ss->nworkers; w++)
        if (ss->progress[w] < upper)
            upper = ss->progress[w];
    if (!srv__subscribe_emit(ss, upper)) {
        if (!ss->err.set)
            cm_err_set(&ss->err, CM_ERRCODE_INTERNAL_ERROR, "SUBSCRIBE could not send a row");
        srv__subscribe_end(ss);
        return;
    }
    srv_conn_flush(ss->c);
}

srv_run_rc_t srv_subscribe_run(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv_server_t *srv = c->lp->srv;
    const pln_subscribe_t *sb = r->st->subscribe;
    if (srv->seq == NULL || srv->workers == NULL) {
        cm_err_set(err, "57P03", "SUBSCRIBE: this process does not run its cluster's workers now");
        return SRV_RUN_ERROR;
    }
    srv_subscribe_t *ss = cm_calloc(1, sizeof *ss);
    ss->c = c;
    ss->st = r->st;
    ss->portal = r->portal;
    ss->types = cols->types;
    ss->nworkers = df_workers_count(srv->workers);
    ss->got = cm_calloc((size_t)ss->nworkers, sizeof *ss->got);
    ss->progress = cm_calloc((size_t)ss->nworkers, sizeof *ss->progress);
    for (int i = 0; i < ss->nworkers; i++)
        cm_buf_init(&ss->got[i], 0);
    cm_arena_init(&ss->arena, 0);
    srv__ctx_init(c, &ss->ctx, &ss->arena, &ss->err);
    ss->sub = df_sub_new(ss->nworkers, sb->view, sb->snapshot, srv->cfg.result_max_bytes);
    df_cmd_t *cmd = df_cmd_new(DF_CMD_SUBSCRIBE);
    cmd->sub = ss->sub;
    df_sub_ref(ss->sub);
    cmd->object_id = sb->view;
    uv_timer_init(&c->lp->uv, &ss->timer);
    ss->timer.data = ss;
    if (!seq_submit(srv->seq, cmd)) {
        df_cmd_unref(cmd);
        srv__subscribe_release(ss);
        cm_err_set(err, "57P03", "SUBSCRIBE: this process does not run its cluster's workers now "
                   "(a standby, too many statements waiting, or shutting down)");
        return SRV_RUN_ERROR;
    }
    uv_timer_start(&ss->timer, srv__subscribe_poll_cb, SRV_SUBSCRIBE_POLL_MS, SRV_SUBSCRIBE_POLL_MS);
    c->subscription = ss;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return SRV_RUN_BUSY;
}

void srv_subscribe_conn_free(srv_conn_t *c)
{
    srv_subscribe_t *ss = c->subscription;
    if (ss == NULL)
        return;
    c->subscription = NULL;
    ss->c = NULL;
    srv__subscribe_release(ss);
}

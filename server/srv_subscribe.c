/*
 * srv_subscribe.c: SUBSCRIBE's session side. The statement sends one
 * Subscribe command carrying a df_sub_t (dataflow.h; a query's plan bytes
 * in its payload) and its connection stays busy, streaming: when the last
 * worker passes a step with rows for it, the workers wake the connection's
 * loop (srv_sub_wake.c), which takes what they appended (srv_sub_collect:
 * every step that all of them have passed, in step order, each step's rows
 * consolidated, and with PROGRESS a progress row whenever that frontier
 * moved) and sends it as rows (mz_timestamp = the step, [mz_progressed,]
 * mz_diff, the columns) through the statement's sink: DataRows, or CopyData
 * lines for COPY (SUBSCRIBE ...) TO STDOUT. A timer every
 * SRV_SUBSCRIBE_POLL_MS looks for a cancel. A query that reads no relation
 * ends once its rows are out, as a query does; any other only with an
 * error: a cancel or statement_timeout (57014), the server stopping
 * (57P01), what it reads dropped, or more than --result-max-bytes waiting
 * for a client that does not read. However it ends, one more Subscribe command tears its
 * dataflow down on every worker at one step (srv_sub_close, offered again
 * on a timer while the sequencer refuses it: srv_sub_dispose); a cursor
 * (srv_cursor.c) uses the same subscription without the streaming.
 */
#include "server/srv_subscribe.h"

#include "sequencer/sequencer.h"

#include <stdlib.h>
#include <string.h>

/* The workers wake the loop when rows are ready (srv_sub_wake.c); the poll is for cancels. */
#define SRV_SUBSCRIBE_POLL_MS 10
/* How often the ending command is offered again while the sequencer refuses it (a full inbox). */
#define SRV_SUBSCRIBE_END_RETRY_MS 20

struct srv_subscribe {
    srv_conn_t *c;              /* its connection; NULL once it went away */
    srv_loop_t *lp;
    uv_timer_t timer;
    srv_sub_watch_t watch;
    srv_sub_t core;
    const pln_stmt_t *st;
    srv_portal_t *portal;
    cm_arena_t arena;           /* one emission's decoded rows */
    ty_ctx_t ctx;
    cm_err_t err;
    const ty_oid_t *types;      /* the output's: mz_timestamp, [mz_progressed,] mz_diff, the columns */
};

/* A ready record: be64 step, u8 progress, be64 diff, be32 row length, the row. */
#define SRV_SUB_READY_HEAD 21

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

/* ------------------------------------------------------------ the subscription */

bool srv_sub_open(srv_sub_t *s, srv_server_t *srv, const pln_stmt_t *st, cm_err_t *err)
{
    const pln_subscribe_t *sb = st->subscribe;
    memset(s, 0, sizeof *s);
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(err, "57P03", "SUBSCRIBE: this process does not run its cluster's workers now");
    s->progress = sb->progress;
    s->finite = sb->finite;
    s->ncols = sb->ncols;
    s->types = cm_malloc(sizeof *s->types * (size_t)(sb->ncols + 1));
    memcpy(s->types, sb->types, sizeof *s->types * (size_t)sb->ncols);
    s->nworkers = df_workers_count(srv->workers);
    s->got = cm_calloc((size_t)s->nworkers, sizeof *s->got);
    s->progress_at = cm_calloc((size_t)s->nworkers, sizeof *s->progress_at);
    for (int i = 0; i < s->nworkers; i++)
        cm_buf_init(&s->got[i], 0);
    cm_buf_init(&s->ready, 0);
    cm_arena_init(&s->scratch, 0);
    df_sub_kind_t kind = sb->kind == PLN_SUBSCRIBE_VIEW ? DF_SUB_VIEW
                         : sb->kind == PLN_SUBSCRIBE_TABLE ? DF_SUB_TABLE : DF_SUB_QUERY;
    s->sub = df_sub_new(s->nworkers, kind, sb->object, sb->snapshot, srv->cfg.result_max_bytes);
    df_cmd_t *cmd = df_cmd_new(DF_CMD_SUBSCRIBE);
    cmd->sub = s->sub;
    df_sub_ref(s->sub);
    cmd->object_id = sb->object;
    bool ok = true;
    if (kind == DF_SUB_QUERY) {
        /* The plan carries the statement's columns (pln_bind); the query's own follow mz_*. */
        plan_t q = *st->query;
        q.cols = st->cols + (sb->progress ? 3 : 2);
        q.ncols = sb->ncols;
        cm_buf_t plan;
        cm_buf_init(&plan, 0);
        ok = plan_encode(&q, NULL, &plan, err);
        if (ok)
            df_cmd_take_payload(cmd, &plan, NULL);
        cm_buf_free(&plan);
    }
    if (ok && !seq_submit(srv->seq, cmd)) {
        ok = cm_err_set(err, "57P03", "SUBSCRIBE: this process does not run its cluster's workers now "
                        "(a standby, too many statements waiting, or shutting down)");
    }
    if (!ok) {
        df_cmd_unref(cmd);
        srv_sub_free(s);
        return false;
    }
    return true;
}

void srv_sub_free(srv_sub_t *s)
{
    if (s->sub != NULL) {
        df_sub_close(s->sub);
        df_sub_unref(s->sub);
    }
    for (int i = 0; i < s->nworkers; i++)
        cm_buf_free(&s->got[i]);
    free(s->got);
    free(s->progress_at);
    free(s->types);
    cm_buf_free(&s->ready);
    cm_arena_free(&s->scratch);
    memset(s, 0, sizeof *s);
}

bool srv_sub_close(srv_sub_t *s, srv_server_t *srv)
{
    if (s->sub == NULL || s->end_sent)
        return true;
    df_sub_close(s->sub);
    if (srv->seq == NULL)
        return true;   /* no workers to tell */
    df_cmd_t *cmd = df_cmd_new(DF_CMD_SUBSCRIBE);
    cmd->sub = s->sub;
    df_sub_ref(s->sub);
    cmd->sub_end = true;
    if (!seq_submit(srv->seq, cmd)) {
        df_cmd_unref(cmd);
        return false;
    }
    s->end_sent = true;
    return true;
}

/* Every step at or below upper out of the workers' records, in step order, consolidated, into ready. */
static void srv__sub_consolidate(srv_sub_t *s, uint64_t upper)
{
    cm_arena_reset(&s->scratch);
    size_t n = 0, *cut = cm_arena_zalloc(&s->scratch, sizeof *cut * (size_t)s->nworkers);
    for (int w = 0; w < s->nworkers; w++) {
        const uint8_t *p = s->got[w].data;
        size_t at = 0, len = s->got[w].len;
        while (at + 20 <= len && srv__be64(p + at) <= upper) {
            at += 20 + srv__be32(p + at + 16);
            n++;
        }
        cut[w] = at;
    }
    if (n == 0)
        return;
    srv__subrec_t *recs = cm_arena_alloc(&s->scratch, sizeof *recs * n);
    size_t k = 0;
    for (int w = 0; w < s->nworkers; w++)
        for (size_t at = 0; at < cut[w];) {
            const uint8_t *p = s->got[w].data + at;
            uint32_t rl = srv__be32(p + 16);
            recs[k++] = (srv__subrec_t){.step = srv__be64(p), .diff = (int64_t)srv__be64(p + 8), .row = p + 20, .len = rl};
            at += 20 + rl;
        }
    qsort(recs, n, sizeof *recs, srv__subrec_cmp);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        int64_t diff = recs[i].diff;
        while (j < n && srv__subrec_cmp(&recs[i], &recs[j]) == 0)
            diff += recs[j++].diff;
        if (diff != 0) {
            cm_buf_put_be64(&s->ready, recs[i].step);
            cm_buf_put(&s->ready, "\0", 1);
            cm_buf_put_be64(&s->ready, (uint64_t)diff);
            cm_buf_put_be32(&s->ready, recs[i].len);
            cm_buf_put(&s->ready, recs[i].row, recs[i].len);
            s->nready++;
        }
        i = j;
    }
    for (int w = 0; w < s->nworkers; w++)
        cm_buf_consume(&s->got[w], cut[w]);
}

static void srv__sub_ready_progress(srv_sub_t *s, uint64_t ts)
{
    cm_buf_put_be64(&s->ready, ts);
    cm_buf_put(&s->ready, "\1", 1);
    cm_buf_put_be64(&s->ready, 0);
    cm_buf_put_be32(&s->ready, 0);
    s->nready++;
}

bool srv_sub_collect(srv_sub_t *s, cm_err_t *err)
{
    if (!df_sub_take(s->sub, s->got, s->progress_at, err))
        return false;
    uint64_t upper = UINT64_MAX;
    for (int w = 0; w < s->nworkers; w++)
        if (s->progress_at[w] < upper)
            upper = s->progress_at[w];
    /* 0: some worker has not begun it yet (its progress is set from the step it began at on). */
    if (upper == 0)
        return true;
    /* With PROGRESS the first row says where it begins (its AS OF, its snapshot's step). */
    if (s->progress && s->progressed == 0) {
        s->progressed = df_sub_started(s->sub);
        srv__sub_ready_progress(s, s->progressed);
    }
    srv__sub_consolidate(s, upper);
    uint64_t start = df_sub_started(s->sub);
    if (s->finite && start != 0 && upper >= start)
        s->complete = true;
    /* Every step up to upper is out: nothing later can come at a step before upper + 1. */
    if (s->progress && upper + 1 > s->progressed) {
        s->progressed = upper + 1;
        srv__sub_ready_progress(s, upper + 1);
    }
    return true;
}

bool srv_sub_emit(srv_sub_t *s, srv_sink_t *sink, ty_ctx_t *ctx, uint64_t max_rows, uint64_t *emitted)
{
    int lead = s->progress ? 3 : 2;
    ty_datum_t *out = cm_arena_zalloc(ctx->arena, sizeof *out * (size_t)(s->ncols + lead));
    const uint8_t *p = s->ready.data;
    size_t at = 0;
    bool ok = true;
    uint64_t n = 0;
    while (ok && s->nready > 0 && n < max_rows) {
        uint64_t step = srv__be64(p + at);
        bool progress = p[at + 8] != 0;
        int64_t diff = (int64_t)srv__be64(p + at + 9);
        uint32_t len = srv__be32(p + at + 17);
        const uint8_t *row = p + at + SRV_SUB_READY_HEAD;
        out[0] = (ty_datum_t){.v.i = (int64_t)step};
        if (s->progress)
            out[1] = (ty_datum_t){.v.b = progress};
        out[lead - 1] = (ty_datum_t){.isnull = progress, .v.i = diff};
        if (progress) {
            for (int i = 0; i < s->ncols; i++)
                out[lead + i] = (ty_datum_t){.isnull = true};
        } else {
            ok = df_sub_decode(s->types, s->ncols, row, len, ctx, out + lead);
        }
        ok = ok && srv__row_cb(sink, out, s->ncols + lead);
        at += SRV_SUB_READY_HEAD + len;
        s->nready--;
        n++;
    }
    cm_buf_consume(&s->ready, at);
    *emitted += n;
    return ok;
}

/* A subscription whose ending command the sequencer refused (a full inbox): offered again
 * until it is taken, by a timer of its own, so the session that held it may be gone. */
typedef struct srv__sub_ender {
    uv_timer_t timer;
    srv_loop_t *lp;
    srv_sub_t core;
} srv__sub_ender_t;

static void srv__sub_ender_free_cb(uv_handle_t *h)
{
    srv__sub_ender_t *e = h->data;
    srv_sub_free(&e->core);
    free(e);
}

static void srv__sub_ender_cb(uv_timer_t *t)
{
    srv__sub_ender_t *e = t->data;
    /* A stopping loop stops its workers too: nothing is left to tear down. */
    if (!e->lp->stopping && !srv_sub_close(&e->core, e->lp->srv))
        return;
    uv_timer_stop(&e->timer);
    uv_close((uv_handle_t *)&e->timer, srv__sub_ender_free_cb);
}

void srv_sub_dispose(srv_sub_t *s, srv_loop_t *lp)
{
    if (s->sub == NULL || lp->stopping || srv_sub_close(s, lp->srv)) {
        srv_sub_free(s);
        return;
    }
    srv__sub_ender_t *e = cm_calloc(1, sizeof *e);
    e->lp = lp;
    e->core = *s;   /* pointers only: it moves */
    memset(s, 0, sizeof *s);
    uv_timer_init(&lp->uv, &e->timer);
    e->timer.data = e;
    uv_timer_start(&e->timer, srv__sub_ender_cb, SRV_SUBSCRIBE_END_RETRY_MS, SRV_SUBSCRIBE_END_RETRY_MS);
}

/* ------------------------------------------------------------ streaming */

static void srv__subscribe_free_cb(uv_handle_t *h)
{
    srv_subscribe_t *ss = h->data;
    cm_err_clear(&ss->err);
    cm_arena_free(&ss->arena);
    free(ss);
}

/* The workers let it go; the handle and the rest go once libuv closed the timer. */
static void srv__subscribe_release(srv_subscribe_t *ss)
{
    uv_timer_stop(&ss->timer);
    srv_sub_watch_stop(&ss->watch);
    srv_sub_dispose(&ss->core, ss->lp);
    uv_close((uv_handle_t *)&ss->timer, srv__subscribe_free_cb);
}

/* A constant query's subscription after its rows: the statement ends as a query does. */
static void srv__subscribe_complete(srv_subscribe_t *ss)
{
    srv_conn_t *c = ss->c;
    c->subscription = NULL;
    ss->c = NULL;
    ty_ctx_t ctx = ss->ctx;
    srv_portal_t *portal = ss->portal;
    uint64_t n = ss->core.emitted;
    const char *tag = ss->st->copy_to != NULL ? "COPY" : NULL;
    srv__subscribe_release(ss);
    cm_err_t none = {0};
    srv__busy_end(c, true, &ctx, &none, portal, 0, n, tag);
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
    uint64_t n = ss->core.emitted;
    srv__subscribe_release(ss);
    if (!e.set)
        cm_err_set(&e, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    srv__busy_end(c, false, &ctx, &e, portal, 0, n, NULL);
    cm_err_clear(&e);
}

static void srv__subscribe_poll(srv_subscribe_t *ss)
{
    if (ss->c == NULL)
        return;
    cm_arena_reset(&ss->arena);
    /* A stopping server ends it now: it would never end by itself. */
    if (ss->lp->stopping)
        cm_err_set(&ss->err, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    if (ss->err.set || !ty_ctx_check_interrupt(&ss->ctx) || !srv_sub_collect(&ss->core, &ss->err)) {
        srv__subscribe_end(ss);
        return;
    }
    srv_sink_t sink = {.out = &ss->c->out, .types = ss->types, .ctx = &ss->ctx, .c = ss->c,
                       .copy = ss->st->copy_to, .max = ss->c->lp->srv->cfg.result_max_bytes};
    if (!srv_sub_emit(&ss->core, &sink, &ss->ctx, UINT64_MAX, &ss->core.emitted)) {
        if (!ss->err.set)
            cm_err_set(&ss->err, CM_ERRCODE_INTERNAL_ERROR, "SUBSCRIBE could not send a row");
        srv__subscribe_end(ss);
        return;
    }
    if (ss->core.complete && ss->core.nready == 0) {
        srv__subscribe_complete(ss);
        return;
    }
    srv_conn_flush(ss->c);
}

static void srv__subscribe_poll_cb(uv_timer_t *t)
{
    srv__subscribe_poll(t->data);
}

static void srv__subscribe_woken(srv_sub_watch_t *w)
{
    srv__subscribe_poll((srv_subscribe_t *)((char *)w - offsetof(srv_subscribe_t, watch)));
}

srv_run_rc_t srv_subscribe_run(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv_subscribe_t *ss = cm_calloc(1, sizeof *ss);
    if (!srv_sub_open(&ss->core, c->lp->srv, r->st, err)) {
        free(ss);
        return SRV_RUN_ERROR;
    }
    ss->c = c;
    ss->lp = c->lp;
    ss->st = r->st;
    ss->portal = r->portal;
    ss->types = cols->types;
    cm_arena_init(&ss->arena, 0);
    srv__ctx_init(c, &ss->ctx, &ss->arena, &ss->err);
    uv_timer_init(&c->lp->uv, &ss->timer);
    ss->timer.data = ss;
    uv_timer_start(&ss->timer, srv__subscribe_poll_cb, SRV_SUBSCRIBE_POLL_MS, SRV_SUBSCRIBE_POLL_MS);
    srv_sub_watch_start(c->lp, &ss->watch, ss->core.sub, ss->core.progress, srv__subscribe_woken);
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

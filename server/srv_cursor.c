/*
 * srv_cursor.c: cursors over SUBSCRIBE, as Materialize has them and as
 * drivers read a subscription: DECLARE c CURSOR FOR SUBSCRIBE ... (in a
 * transaction block, explicit or implicit) opens the subscription
 * (srv_subscribe.h) and the session holds it; FETCH [n | ALL] c [WITH
 * (timeout = ...)] answers up to n of the rows the workers have finished
 * (every step all of them passed, consolidated), waiting for at least one
 * for at most the timeout (none: until one comes; 0: not at all; not at
 * all either once a constant query's rows are out), with the tag FETCH k;
 * CLOSE c, or the end of the transaction, closes it and the workers tear
 * its dataflow down. While a FETCH waits, the connection is busy; the
 * workers wake its loop when rows are ready, and a timer looks for a
 * cancel or statement_timeout (57014) and the FETCH's timeout. The
 * cursor's columns describe FETCH (srv_cursor_cols), so the extended
 * protocol's Describe answers them.
 */
#include "server/srv_subscribe.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The workers wake a waiting FETCH when rows are ready (srv_sub_wake.c); the poll is for
 * cancels and timeouts. */
#define SRV_CURSOR_POLL_MS 10

struct srv_cursor {
    struct srv_cursor *next;
    char *name;
    srv_sub_t core;
    int ncols;                  /* FETCH's columns: mz_timestamp, [mz_progressed,] mz_diff, the rows' */
    plan_column_t *cols;
    cm_arena_t arena;           /* name, cols */
};

/* A FETCH waiting for a first row. */
typedef struct srv_fetch {
    uv_timer_t timer;
    srv_sub_watch_t watch;
    srv_conn_t *c;              /* NULL once the connection went away */
    srv_cursor_t *k;
    srv_portal_t *portal;
    uint64_t count;
    uint64_t deadline_ms;       /* 0: none */
    const ty_oid_t *types;
    const int16_t *formats;
    cm_arena_t arena;
    ty_ctx_t ctx;
    cm_err_t err;
} srv_fetch_t;

static srv_cursor_t *srv__cursor_find(srv_conn_t *c, const char *name)
{
    for (srv_cursor_t *k = c->cursors; k != NULL; k = k->next)
        if (strcmp(k->name, name) == 0)
            return k;
    return NULL;
}

static void srv__cursor_free(srv_conn_t *c, srv_cursor_t *k)
{
    srv_sub_dispose(&k->core, c->lp);
    cm_arena_free(&k->arena);
    free(k);
}

static bool srv__cursor_missing(const char *name, cm_err_t *err)
{
    return cm_err_set(err, CM_ERRCODE_INVALID_CURSOR_NAME, "cursor \"%s\" does not exist", name);
}

void srv_cursor_cols(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out)
{
    const srv_cursor_t *k = st->cursor_name ? srv__cursor_find(c, st->cursor_name) : NULL;
    if (k == NULL)
        return;   /* FETCH fails when it runs; Describe has no row to describe */
    pln_stmt_t q = {.kind = PLN_QUERY, .ncols = k->ncols, .cols = k->cols};
    srv_cols_build(c, &q, a, out);
}

srv_run_rc_t srv_cursor_declare(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err)
{
    if (c->xact == 'I' && !srv__implicit_block(c))
        return cm_err_set(err, CM_ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
                          "DECLARE CURSOR can only be used in transaction blocks"),
               SRV_RUN_ERROR;
    if (srv__cursor_find(c, st->cursor_name) != NULL)
        return cm_err_set(err, CM_ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", st->cursor_name),
               SRV_RUN_ERROR;
    srv_cursor_t *k = cm_calloc(1, sizeof *k);
    cm_arena_init(&k->arena, 0);
    /* The subscription is the statement's SUBSCRIBE, with that statement's columns. */
    pln_stmt_t q = *st;
    q.kind = PLN_QUERY;
    q.ncols = st->ncursor_cols;
    q.cols = st->cursor_cols;
    if (!srv_sub_open(&k->core, c->lp->srv, &q, err)) {
        cm_arena_free(&k->arena);
        free(k);
        return SRV_RUN_ERROR;
    }
    k->name = cm_arena_strdup(&k->arena, st->cursor_name);
    k->ncols = st->ncursor_cols;
    k->cols = cm_arena_zalloc(&k->arena, sizeof *k->cols * (size_t)(k->ncols + 1));
    for (int i = 0; i < k->ncols; i++) {
        k->cols[i] = st->cursor_cols[i];
        k->cols[i].name = cm_arena_strdup(&k->arena, st->cursor_cols[i].name ? st->cursor_cols[i].name : "?column?");
    }
    k->next = c->cursors;
    c->cursors = k;
    return SRV_RUN_OK;
}

bool srv_cursor_close(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err)
{
    if (st->cursor_name == NULL) {
        srv_cursor_close_all(c);
        return true;
    }
    for (srv_cursor_t **p = &c->cursors; *p != NULL; p = &(*p)->next)
        if (strcmp((*p)->name, st->cursor_name) == 0) {
            srv_cursor_t *k = *p;
            *p = k->next;
            srv__cursor_free(c, k);
            return true;
        }
    return srv__cursor_missing(st->cursor_name, err);
}

void srv_cursor_close_all(srv_conn_t *c)
{
    while (c->cursors != NULL) {
        srv_cursor_t *k = c->cursors;
        c->cursors = k->next;
        srv__cursor_free(c, k);
    }
}

/* Up to count ready rows out, then "FETCH n". */
static bool srv__fetch_answer(srv_conn_t *c, srv_cursor_t *k, srv_portal_t *portal, uint64_t count,
                              const ty_oid_t *types, const int16_t *formats, ty_ctx_t *ctx, uint64_t *n)
{
    srv_sink_t sink = {.out = &c->out, .types = types, .formats = formats, .ctx = ctx, .c = c,
                       .max = c->lp->srv->cfg.result_max_bytes};
    *n = 0;
    return srv_sub_emit(&k->core, &sink, ctx, count, n);
}

static void srv__fetch_tag(uint64_t n, char *tag, size_t cap)
{
    snprintf(tag, cap, "FETCH %llu", (unsigned long long)n);
}

static void srv__fetch_free_cb(uv_handle_t *h)
{
    srv_fetch_t *f = h->data;
    cm_err_clear(&f->err);
    cm_arena_free(&f->arena);
    free(f);
}

static void srv__fetch_poll(srv_fetch_t *f)
{
    srv_conn_t *c = f->c;
    if (c == NULL)
        return;
    if (c->lp->stopping)
        cm_err_set(&f->err, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    bool failed = f->err.set || !ty_ctx_check_interrupt(&f->ctx) || !srv_sub_collect(&f->k->core, &f->err);
    bool due = f->deadline_ms != 0 && uv_now(&c->lp->uv) >= f->deadline_ms;
    if (!failed && f->k->core.nready == 0 && !due && !f->k->core.complete)
        return;
    uv_timer_stop(&f->timer);
    srv_sub_watch_stop(&f->watch);
    c->fetch = NULL;
    uint64_t n = 0;
    if (!failed)
        failed = !srv__fetch_answer(c, f->k, f->portal, f->count, f->types, f->formats, &f->ctx, &n);
    char tag[40];
    srv__fetch_tag(n, tag, sizeof tag);
    if (failed && !f->err.set)
        cm_err_set(&f->err, CM_ERRCODE_INTERNAL_ERROR, "FETCH could not send a row");
    srv__busy_end(c, !failed, &f->ctx, &f->err, f->portal, 0, n, tag);
    uv_close((uv_handle_t *)&f->timer, srv__fetch_free_cb);
}

static void srv__fetch_poll_cb(uv_timer_t *t)
{
    srv__fetch_poll(t->data);
}

static void srv__fetch_woken(srv_sub_watch_t *w)
{
    srv__fetch_poll((srv_fetch_t *)((char *)w - offsetof(srv_fetch_t, watch)));
}

srv_run_rc_t srv_cursor_fetch(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    const pln_stmt_t *st = r->st;
    srv_cursor_t *k = srv__cursor_find(c, st->cursor_name);
    if (k == NULL)
        return srv__cursor_missing(st->cursor_name, err), SRV_RUN_ERROR;
    if (!cols->rows || cols->n != k->ncols)
        return cm_err_set(err, CM_ERRCODE_INVALID_CURSOR_NAME,
                          "cursor \"%s\" changed since the FETCH was prepared", st->cursor_name),
               SRV_RUN_ERROR;
    uint64_t count = st->fetch_count < 0 ? UINT64_MAX : (uint64_t)st->fetch_count;
    const int16_t *formats = r->portal != NULL ? r->portal->formats : NULL;
    /* Only what this FETCH may answer is taken from the workers: rows ready beyond it stay
     * there, where --result-max-bytes bounds them. */
    if (k->core.nready < count && !srv_sub_collect(&k->core, err))
        return SRV_RUN_ERROR;
    if (k->core.nready > 0 || count == 0 || st->fetch_timeout_ms == 0 || k->core.complete) {
        ty_ctx_t ctx;
        srv__ctx_init(c, &ctx, &c->arena, err);
        uint64_t n = 0;
        if (!srv__fetch_answer(c, k, r->portal, count, cols->types, formats, &ctx, &n))
            return SRV_RUN_ERROR;
        char tag[40];
        srv__fetch_tag(n, tag, sizeof tag);
        srv__complete_rows(c, r->portal, 0, n, tag);
        return SRV_RUN_OK;
    }
    srv_fetch_t *f = cm_calloc(1, sizeof *f);
    f->c = c;
    f->k = k;
    f->portal = r->portal;
    f->count = count;
    cm_arena_init(&f->arena, 0);
    /* The statement's columns and formats live as long as it runs, which this wait is part of. */
    f->types = cols->types;
    f->formats = formats;
    srv__ctx_init(c, &f->ctx, &f->arena, &f->err);
    uv_timer_init(&c->lp->uv, &f->timer);
    f->timer.data = f;
    if (st->fetch_timeout_ms > 0)
        f->deadline_ms = uv_now(&c->lp->uv) + (uint64_t)st->fetch_timeout_ms;
    uv_timer_start(&f->timer, srv__fetch_poll_cb, SRV_CURSOR_POLL_MS, SRV_CURSOR_POLL_MS);
    srv_sub_watch_start(c->lp, &f->watch, k->core.sub, k->core.progress, srv__fetch_woken);
    srv_cancel_stmt_begin(&c->cancel);
    c->fetch = f;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return SRV_RUN_BUSY;
}

void srv_cursor_conn_free(srv_conn_t *c)
{
    srv_fetch_t *f = c->fetch;
    if (f != NULL) {
        c->fetch = NULL;
        f->c = NULL;
        uv_timer_stop(&f->timer);
        srv_sub_watch_stop(&f->watch);
        uv_close((uv_handle_t *)&f->timer, srv__fetch_free_cb);
    }
    srv_cursor_close_all(c);
}

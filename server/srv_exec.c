/*
 * srv_exec.c: statement execution for the simple and the extended query
 * protocol once a connection is ready: Query, Parse, Bind, Describe,
 * Execute, Close, Flush, Sync; transactions (explicit and implicit) and
 * their ReadyForQuery status; discard-until-Sync after an extended-protocol
 * error; row output in text or binary; blocking statements on the thread
 * pool; statement_timeout and cancel through ty_ctx_t.
 */
#include "server/srv_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRV_VERSION_TEXT "PostgreSQL 15.0 (eddy " EDDY_VERSION ") on x86_64-pc-linux-gnu, 64-bit"

typedef enum srv_run_rc {
    SRV_RUN_OK,
    SRV_RUN_ERROR,   /* err is set */
    SRV_RUN_BUSY,    /* went to the thread pool; the completion continues */
} srv_run_rc_t;

void srv_exec_conn_free(srv_conn_t *c)
{
    srv_catalog_conn_free(c);
    srv_sync_conn_free(c);
    cm_err_clear(&c->sync_err);
    srv_portal_free_all(c);
    srv_stmt_free_all(c);
    if (c->work != NULL) {
        cm_buf_free(&c->work->out);
        cm_err_clear(&c->work->err);
        free(c->work);
    }
    if (c->sess.user != NULL)
        srv_session_free(&c->sess);
}

/* ------------------------------------------------------------ transactions */

static void srv__xact_touch(srv_conn_t *c)
{
    if (!c->xact_open) {
        c->xact_open = true;
        c->xact_ts = cm_now_wall_us() - SRV_PG_EPOCH_US;
    }
}

static void srv__xact_end(srv_conn_t *c, bool commit)
{
    srv_txn_discard(c);   /* a COMMIT that commits DDL took it first */
    srv_session_xact_end(&c->sess, commit);
    srv_portal_drop_all(c);
    c->xact = 'I';
    c->xact_open = false;
}

/* A query string with several statements runs them as one implicit
 * transaction, as in PostgreSQL, and so do the extended protocol's messages
 * up to Sync: its DDL is held like a block's (srv_txn.c) and committed at its
 * end, or not at all when one of them failed. */
static bool srv__implicit_block(const srv_conn_t *c)
{
    return c->xact == 'I' && (c->current_portal != NULL || (c->q.active && c->q.raws.count > 1));
}

/* End of a Query or of a Sync group: the implicit transaction, if any, ends. */
static void srv__implicit_end(srv_conn_t *c)
{
    if (c->xact == 'I' && c->xact_open)
        srv__xact_end(c, !c->implicit_failed);
    c->implicit_failed = false;
}

static void srv__ready(srv_conn_t *c)
{
    srv_session_report(&c->sess, &c->out, false);
    srv_put_ready_for_query(&c->out, c->xact);
    cm_arena_reset(&c->arena);
}

/* An error aborts an explicit transaction; an implicit one rolls back at its end. */
static void srv__fail(srv_conn_t *c, cm_err_t *err)
{
    err->severity = CM_SEV_ERROR;
    srv_conn_send_error(c, err);
    cm_err_clear(err);
    if (c->xact == 'T')
        c->xact = 'E';
    c->implicit_failed = true;
}

static void srv__fail_extended(srv_conn_t *c, cm_err_t *err)
{
    srv__fail(c, err);
    c->ignore_till_sync = true;
}

static bool srv__is_exit_stmt(const pln_stmt_t *st)
{
    return st != NULL && (st->kind == PLN_COMMIT || st->kind == PLN_ROLLBACK);
}

static bool srv__aborted(cm_err_t *err)
{
    return cm_err_set(err, CM_ERRCODE_IN_FAILED_SQL_TRANSACTION,
                      "current transaction is aborted, commands ignored until end of transaction block");
}

/* ------------------------------------------------------------ result rows */

typedef struct srv_sink {
    cm_buf_t *out;          /* rows up to the limit */
    cm_buf_t *spill;        /* rows beyond it (a portal's) */
    int32_t limit;          /* 0: none */
    uint64_t n;
    const ty_oid_t *types;
    const int16_t *formats; /* per column; NULL: all text */
    ty_ctx_t *ctx;
    srv_conn_t *c;          /* set when running on the loop: flush early */
    size_t max;             /* unsent bytes one statement may leave behind */
} srv_sink_t;

static bool srv__row_cb(void *arg, const ty_datum_t *row, int ncols)
{
    srv_sink_t *k = arg;
    cm_buf_t *b = k->limit > 0 && k->n >= (uint64_t)k->limit ? k->spill : k->out;
    size_t at = srv_data_row_begin(b, ncols);
    for (int i = 0; i < ncols; i++) {
        if (row[i].isnull) {
            srv_data_row_null(b);
            continue;
        }
        size_t v = srv_data_row_value_begin(b);
        bool ok = k->formats != NULL && k->formats[i] == 1
                      ? ty_datum_to_binary(k->types[i], &row[i], k->ctx, b)
                      : ty_datum_to_text(k->types[i], &row[i], k->ctx, b);
        if (!ok)
            return false;
        srv_data_row_value_finish(b, v);
    }
    srv_msg_finish(b, at);
    k->n++;
    size_t pending = b->len;
    if (k->c != NULL && b == &k->c->out) {
        if (b->len >= SRV_FLUSH_BYTES)
            srv_conn_flush(k->c);
        pending = k->c->out.len + k->c->wbuf.len;
    }
    if (pending > k->max || b->failed)
        return cm_err_set(k->ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "result exceeds the per-connection limit of %zu unsent bytes", k->max);
    return true;
}

/* ------------------------------------------------------------ running one statement */

typedef struct srv_run {
    const pln_stmt_t *st;
    const char *sql;
    const ty_datum_t *params;
    srv_portal_t *portal;     /* extended protocol; NULL for a simple Query */
    int raw_off;              /* byte offset of the statement in sql (a Query's string may hold several) */
    const srv_cols_t *cols;   /* extended: the statement's; NULL: built here */
    int32_t max_rows;
} srv_run_t;

static void srv__ctx_init(srv_conn_t *c, ty_ctx_t *ctx, cm_arena_t *a, cm_err_t *err)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->arena = a;
    ctx->settings = &c->sess.settings;
    ctx->err = err;
    ctx->xact_ts = c->xact_ts;
    ctx->stmt_ts = cm_now_wall_us() - SRV_PG_EPOCH_US;
    ctx->cancel = &c->cancel.cancel;
    if (c->sess.statement_timeout_ms > 0)
        ctx->deadline_mono_us = cm_now_mono_us() + c->sess.statement_timeout_ms * 1000;
    ctx->user = c->sess.user;
    ctx->database = c->sess.database;
    ctx->schema = "public";
    ctx->version = SRV_VERSION_TEXT;
    ctx->setting_get = srv_session_setting_get;
    ctx->setting_set = srv_session_setting_set;
    ctx->setting_arg = &c->sess;
    ctx->session_rows = srv_sysrel_rows;
    ctx->session_arg = c;
    const pln_catalog_t *cat = srv_catalog_for(c);
    if (cat != NULL) {
        ctx->catalog_fn = pln_catalog_fn;
        ctx->catalog_arg = (void *)cat;   /* the connection's; the functions only read it */
    }
}

/* PostgreSQL words a 57014 after what fired it. */
static void srv__interrupt_message(const ty_ctx_t *ctx, cm_err_t *err)
{
    if (!err->set || strcmp(err->sqlstate, CM_ERRCODE_QUERY_CANCELED) != 0)
        return;
    bool timeout = ctx->deadline_mono_us != 0 && cm_now_mono_us() >= ctx->deadline_mono_us;
    free(err->message);
    err->message = cm_strdup(timeout ? "canceling statement due to statement timeout"
                                     : "canceling statement due to user request");
}

/*
 * The end of an Execute or Query that returned rows: PortalSuspended when the
 * row limit was reached (even if no row is left, as PostgreSQL cannot know
 * either), else CommandComplete: "SHOW", or "SELECT n".
 */
/* The tag of a row-returning statement when it is not "SELECT n": "SHOW", "EXPLAIN" (NULL: SELECT n). */
static const char *srv__rows_tag(const pln_stmt_t *st)
{
    if (st->kind == PLN_SHOW)
        return "SHOW";
    /* Only a query's own tag: a portal over EXECUTE keeps the tag of the statement it ran. */
    return st->kind == PLN_QUERY && st->tag != NULL && strcmp(st->tag, "EXPLAIN") == 0 ? st->tag : NULL;
}

static void srv__complete_rows(srv_conn_t *c, srv_portal_t *portal, int32_t max_rows, uint64_t emitted,
                               const char *fixed)
{
    if (portal != NULL && max_rows > 0 && emitted >= (uint64_t)max_rows) {
        srv_put_empty_message(&c->out, 's');
        return;
    }
    if (portal != NULL)
        portal->done = true;
    if (fixed != NULL) {
        srv_put_command_complete(&c->out, fixed);
        return;
    }
    /* "SELECT n", written by hand: snprintf costs more than the rest of a SELECT 1. */
    char tag[32] = "SELECT ";
    char digits[24];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + emitted % 10);
        emitted /= 10;
    } while (emitted > 0);
    int at = 7;
    while (nd > 0)
        tag[at++] = digits[--nd];
    tag[at] = 0;
    srv_put_command_complete(&c->out, tag);
}

/* A suspended portal continues from the rows it kept. */
static void srv__portal_continue(srv_conn_t *c, srv_portal_t *p, int32_t max_rows)
{
    uint64_t n = 0;
    while (p->rows_off < p->rows.len && (max_rows == 0 || n < (uint64_t)max_rows)) {
        size_t len = 1 + srv_be32_at(p->rows.data + p->rows_off + 1, 0);
        cm_buf_put(&c->out, p->rows.data + p->rows_off, len);
        p->rows_off += len;
        n++;
    }
    if (p->rows_off >= p->rows.len) {
        p->rows.len = p->rows_off = 0;
        cm_buf_shrink(&p->rows, 0);
    }
    srv__complete_rows(c, p, max_rows, n, srv__rows_tag(p->stmt->plan));
}

static void srv__work_cb(uv_work_t *req);
static void srv__after_work_cb(uv_work_t *req, int status);

static srv_run_rc_t srv__run_blocking(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols,
                                      cm_err_t *err)
{
    srv_work_t *w = c->work;
    if (w == NULL) {
        w = c->work = cm_calloc(1, sizeof *w);
        cm_buf_init(&w->out, 0);
    }
    w->stmt = r->st;
    w->sql = r->sql;
    w->params = r->params;
    w->portal = r->portal;
    w->formats = r->portal != NULL ? r->portal->formats : NULL;
    w->nformats = cols->n;
    w->nrows = 0;
    w->ok = false;
    cm_err_clear(&w->err);
    srv__ctx_init(c, &w->ctx, &c->arena, &w->err);
    /* Off the loop the loop's snapshot may change under the statement: no catalog there. */
    w->ctx.catalog_fn = NULL;
    w->req.data = c;
    /* The sink needs the column types after this function returns. */
    ty_oid_t *types = cm_arena_alloc(&c->arena, sizeof *types * (size_t)(cols->n + 1));
    memcpy(types, cols->types, sizeof *types * (size_t)cols->n);
    w->types = types;
    w->max_rows = r->max_rows;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    w->inflight = true;
    if (uv_queue_work(&c->lp->uv, &w->req, srv__work_cb, srv__after_work_cb) != 0) {
        w->inflight = false;
        srv_conn_set_state(c, SRV_CONN_READY);
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not start a blocking statement");
        return SRV_RUN_ERROR;
    }
    return SRV_RUN_BUSY;
}

static void srv__work_cb(uv_work_t *req)
{
    srv_conn_t *c = req->data;
    srv_work_t *w = c->work;
    srv_sink_t k = {.out = &w->out,
                    .spill = w->portal != NULL ? &w->portal->rows : NULL,
                    .limit = w->portal != NULL ? w->max_rows : 0,
                    .types = w->types,
                    .formats = w->formats,
                    .ctx = &w->ctx,
                    .c = NULL,
                    .max = c->lp->srv->cfg.result_max_bytes};
    w->ok = ex_run(w->stmt->query, w->sql, w->params, &w->ctx, srv__row_cb, &k);
    if (!w->ok && !w->err.set)
        cm_err_set(&w->err, CM_ERRCODE_INTERNAL_ERROR, "statement failed without an error");
    w->nrows = k.n;
}

static void srv__query_continue(srv_conn_t *c);

static void srv__after_work_cb(uv_work_t *req, int status)
{
    srv_conn_t *c = req->data;
    srv_work_t *w = c->work;
    w->inflight = false;
    if (c->state == SRV_CONN_CLOSED) {
        if (c->handle_closed)
            srv_conn_free_orphan(c);
        return;
    }
    srv__interrupt_message(&w->ctx, &w->err);
    srv_cancel_stmt_end(&c->cancel);
    srv_conn_set_state(c, SRV_CONN_READY);
    cm_buf_put(&c->out, w->out.data, w->out.len);
    w->out.len = 0;
    cm_buf_shrink(&w->out, SRV_BUF_KEEP);
    bool extended = w->portal != NULL;
    if (status != 0 && !w->err.set)
        cm_err_set(&w->err, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    if (w->ok && status == 0) {
        if (extended)
            w->portal->started = true;
        uint64_t emitted = extended && w->max_rows > 0 && w->nrows > (uint64_t)w->max_rows
                               ? (uint64_t)w->max_rows
                               : w->nrows;
        srv__complete_rows(c, w->portal, extended ? w->max_rows : 0, emitted, srv__rows_tag(w->stmt));
    } else if (extended) {
        srv__fail_extended(c, &w->err);
    } else {
        srv__fail(c, &w->err);
        c->q.failed = true;
    }
    c->current_portal = NULL;
    if (c->q.active)
        srv__query_continue(c);
    srv_conn_resume(c);
}

void srv_exec_ddl_done(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    srv_conn_set_state(c, SRV_CONN_READY);
    if (c->implicit_committing) {
        /* The implicit transaction's commit (srv__implicit_commit) ends its
         * query string or Sync group; no tag of its own, as PostgreSQL. */
        c->implicit_committing = false;
        if (err != NULL)
            srv__fail(c, err);
        c->q.active = false;
        srv__implicit_end(c);
        srv__ready(c);
        srv_conn_resume(c);
        return;
    }
    if (err == NULL)
        srv_put_command_complete(&c->out, tag);
    else if (c->current_portal != NULL)
        srv__fail_extended(c, err);
    else if (c->q.active)
        srv__fail(c, err), c->q.failed = true;
    else
        srv__fail(c, err);
    c->current_portal = NULL;
    if (c->q.active)
        srv__query_continue(c);
    srv_conn_resume(c);
}

/* SHOW and SHOW ALL rows go through the same sink as query rows. */
typedef struct srv_show_all {
    srv_sink_t *k;
    bool ok;
} srv_show_all_t;

static void srv__show_visit(void *arg, const char *name, const char *value, const char *desc)
{
    srv_show_all_t *s = arg;
    ty_datum_t row[3];
    const char *v[3] = {name, value, desc};
    for (int i = 0; i < 3; i++) {
        row[i].isnull = false;
        row[i].v.s.p = v[i];
        row[i].v.s.len = (uint32_t)strlen(v[i]);
    }
    if (s->ok)
        s->ok = srv__row_cb(s->k, row, 3);
}

/* A portal that ran before: the rows it kept, or an empty completion once it is done. */
static bool srv__portal_resume(srv_conn_t *c, srv_portal_t *p, int32_t max_rows)
{
    if (p == NULL || !p->started)
        return false;
    if (p->done)
        srv_put_command_complete(&c->out, srv__rows_tag(p->stmt->plan) ? srv__rows_tag(p->stmt->plan) : "SELECT 0");
    else
        srv__portal_continue(c, p, max_rows);
    return true;
}

static srv_run_rc_t srv__run_show(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv_portal_t *p = r->portal;
    if (srv__portal_resume(c, p, r->max_rows))
        return SRV_RUN_OK;
    ty_ctx_t ctx;
    srv__ctx_init(c, &ctx, &c->arena, err);
    srv_sink_t k = {.out = &c->out,
                    .spill = p != NULL ? &p->rows : NULL,
                    .limit = p != NULL ? r->max_rows : 0,
                    .types = cols->types,
                    .formats = p != NULL ? p->formats : NULL,
                    .ctx = &ctx,
                    .c = c,
                    .max = c->lp->srv->cfg.result_max_bytes};
    if (r->st->var_name != NULL && cm_strcasecmp(r->st->var_name, "all") == 0) {
        srv_show_all_t s = {&k, true};
        srv_session_show_all(&c->sess, srv__show_visit, &s);
        if (!s.ok)
            return SRV_RUN_ERROR;
    } else {
        const char *value, *canonical;
        if (!srv_session_show(&c->sess, r->st->var_name, &value, &canonical, err))
            return SRV_RUN_ERROR;
        ty_datum_t d = {.isnull = false};
        d.v.s.p = value;
        d.v.s.len = (uint32_t)strlen(value);
        if (!srv__row_cb(&k, &d, 1))
            return SRV_RUN_ERROR;
    }
    if (p != NULL)
        p->started = true;
    uint64_t emitted = k.limit > 0 && k.n > (uint64_t)k.limit ? (uint64_t)k.limit : k.n;
    srv__complete_rows(c, p, r->max_rows, emitted, "SHOW");
    return SRV_RUN_OK;
}

static srv_run_rc_t srv__run_query(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv_portal_t *p = r->portal;
    if (srv__portal_resume(c, p, r->max_rows))
        return SRV_RUN_OK;
    srv_cancel_stmt_begin(&c->cancel);
    if (r->st->blocking) {
        srv_run_rc_t rc = srv__run_blocking(c, r, cols, err);
        if (rc != SRV_RUN_BUSY)
            srv_cancel_stmt_end(&c->cancel);
        return rc;
    }
    ty_ctx_t ctx;
    srv__ctx_init(c, &ctx, &c->arena, err);
    srv_sink_t k = {.out = &c->out,
                    .spill = p != NULL ? &p->rows : NULL,
                    .limit = p != NULL ? r->max_rows : 0,
                    .types = cols->types,
                    .formats = p != NULL ? p->formats : NULL,
                    .ctx = &ctx,
                    .c = c,
                    .max = c->lp->srv->cfg.result_max_bytes};
    bool ok = ex_run(r->st->query, r->sql, r->params, &ctx, srv__row_cb, &k);
    if (!ok && !err->set)
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "statement failed without an error");
    srv__interrupt_message(&ctx, err);
    srv_cancel_stmt_end(&c->cancel);
    if (!ok)
        return SRV_RUN_ERROR;
    if (p != NULL)
        p->started = true;
    uint64_t emitted = k.limit > 0 && k.n > (uint64_t)k.limit ? (uint64_t)k.limit : k.n;
    srv__complete_rows(c, p, r->max_rows, emitted, srv__rows_tag(r->st));
    return SRV_RUN_OK;
}

/* A transaction's DDL as one catalog commit (none: nothing to commit);
 * BUSY until the store and the workers answer (srv_exec_ddl_done). */
static srv_run_rc_t srv__commit_ddl(srv_conn_t *c, srv_txn_t *ddl, cm_err_t *err)
{
    if (ddl == NULL)
        return SRV_RUN_OK;
    switch (srv_catalog_commit_txn(c, ddl, err)) {
    case SRV_DDL_DONE:
        return SRV_RUN_OK;
    case SRV_DDL_ERROR:
        return SRV_RUN_ERROR;
    default:
        return SRV_RUN_BUSY;
    }
}

static srv_run_rc_t srv__run(srv_conn_t *c, const srv_run_t *r, bool describe, cm_err_t *err);

/*
 * EXECUTE: the prepared statement runs in its place, with the arguments as
 * its parameters and its own tag ("SELECT 2"). It is held by a reference
 * while it runs, as it may drop itself (a protocol-level DEALLOCATE).
 */
static srv_run_rc_t srv__run_execute(srv_conn_t *c, const srv_run_t *r, bool describe, cm_err_t *err)
{
    if (srv__portal_resume(c, r->portal, r->max_rows))
        return SRV_RUN_OK;
    ty_ctx_t ctx;
    srv__ctx_init(c, &ctx, &c->arena, err);
    srv_run_t in = *r;
    srv_cancel_stmt_begin(&c->cancel);
    srv_stmt_t *t = srv_sqlprep_execute_begin(c, r->st, r->sql, r->cols, &ctx, &in.params);
    srv__interrupt_message(&ctx, err);
    srv_cancel_stmt_end(&c->cancel);
    if (t == NULL)
        return SRV_RUN_ERROR;
    srv_run_rc_t rc = SRV_RUN_OK;
    if (t->plan == NULL || t->plan->kind == PLN_EMPTY) {
        srv_put_command_complete(&c->out, r->st->tag);
    } else {
        in.st = t->plan;
        in.sql = t->sql;
        in.cols = &t->cols;
        if (describe && t->cols.rows)
            srv_stmt_put_row_description(t, &c->out, NULL);
        rc = srv__run(c, &in, false, err);
    }
    srv_stmt_release(c, t);
    return rc;
}

static srv_run_rc_t srv__run(srv_conn_t *c, const srv_run_t *r, bool describe, cm_err_t *err)
{
    const pln_stmt_t *st = r->st;
    srv__xact_touch(c);
    if (st == NULL) {
        srv_put_empty_message(&c->out, 'I');
        return SRV_RUN_OK;
    }
    if (c->xact == 'E' && !srv__is_exit_stmt(st))
        return srv__aborted(err), SRV_RUN_ERROR;
    srv_cols_t cols = {0};
    if (r->cols != NULL) {
        cols = *r->cols;
    } else if (st->kind == PLN_QUERY || st->kind == PLN_SHOW) {
        srv_cols_build(c, st, &c->arena, &cols);
        if (describe)
            srv_cols_put_row_description(&c->out, &cols, NULL);
    }
    switch (st->kind) {
    case PLN_EMPTY:
        srv_put_empty_message(&c->out, 'I');
        return SRV_RUN_OK;
    case PLN_QUERY:
        return srv__run_query(c, r, &cols, err);
    case PLN_SHOW:
        return srv__run_show(c, r, &cols, err);
    case PLN_SET:
        if (st->set_local && c->xact == 'I') {
            srv_conn_send_notice(c, CM_ERRCODE_NO_ACTIVE_SQL_TRANSACTION, CM_SEV_WARNING,
                                 "SET LOCAL can only be used in transaction blocks");
        } else if (!srv_session_set(&c->sess, st->var_name, st->var_value, st->set_local, err)) {
            return SRV_RUN_ERROR;
        }
        break;
    case PLN_RESET:
        if (st->var_name == NULL || cm_strcasecmp(st->var_name, "all") == 0)
            srv_session_reset_all(&c->sess);
        else if (!srv_session_set(&c->sess, st->var_name, NULL, false, err))
            return SRV_RUN_ERROR;
        break;
    case PLN_BEGIN:
        if (c->xact != 'I')
            srv_conn_send_notice(c, CM_ERRCODE_ACTIVE_SQL_TRANSACTION, CM_SEV_WARNING,
                                 "there is already a transaction in progress");
        else
            c->xact = 'T';
        break;
    case PLN_COMMIT:
    case PLN_ROLLBACK: {
        const char *tag = st->kind == PLN_COMMIT ? "COMMIT" : "ROLLBACK";
        if (c->xact == 'I') {
            srv_conn_send_notice(c, CM_ERRCODE_NO_ACTIVE_SQL_TRANSACTION, CM_SEV_WARNING,
                                 "there is no transaction in progress");
            /* As PostgreSQL, it still ends the implicit transaction of a query string. */
            srv_txn_t *ddl = srv_txn_take(c);
            if (st->kind == PLN_ROLLBACK) {
                srv_txn_free(ddl);
                ddl = NULL;
            }
            srv_run_rc_t rc = srv__commit_ddl(c, ddl, err);
            if (rc != SRV_RUN_OK)
                return rc;
        } else {
            bool commit = st->kind == PLN_COMMIT && c->xact == 'T';
            if (st->kind == PLN_COMMIT && !commit)
                tag = "ROLLBACK";   /* COMMIT of a failed transaction rolls back */
            srv_txn_t *ddl = commit ? srv_txn_take(c) : NULL;
            srv__xact_end(c, commit);
            c->implicit_failed = false;
            /* The block is over whatever the commit of its DDL answers. */
            srv_run_rc_t rc = srv__commit_ddl(c, ddl, err);
            if (rc != SRV_RUN_OK)
                return rc;
        }
        srv_put_command_complete(&c->out, tag);
        return SRV_RUN_OK;
    }
    case PLN_SET_TRANSACTION:
        break;
    case PLN_DDL:
        /* As PostgreSQL's PreventInTransactionBlock: databases are created and dropped outside any
         * block, explicit or the implicit one of a query string with several statements. */
        if ((strcmp(st->tag, "CREATE DATABASE") == 0 || strcmp(st->tag, "DROP DATABASE") == 0) &&
            (c->xact != 'I' || (c->q.active && c->q.raws.count > 1)))
            return cm_err_set(err, CM_ERRCODE_ACTIVE_SQL_TRANSACTION, "%s cannot run inside a transaction block",
                              st->tag),
                   SRV_RUN_ERROR;
        /* In a transaction block, explicit or implicit, DDL waits for its end (srv_txn.c);
         * otherwise it commits at once. */
        if (c->xact == 'T' || srv__implicit_block(c)) {
            if (!srv_txn_ddl(c, st, r->sql, r->raw_off, err))
                return SRV_RUN_ERROR;
            break;
        }
        switch (srv_catalog_ddl(c, st, r->sql, err)) {
        case SRV_DDL_DONE:
            break;
        case SRV_DDL_ERROR:
            return SRV_RUN_ERROR;
        case SRV_DDL_BUSY:
            return SRV_RUN_BUSY;
        }
        break;
    case PLN_DISCARD:
        /* PLANS, SEQUENCES and TEMP drop caches eddy does not keep: nothing to do, anywhere. */
        if (strcmp(st->var_name, "all") != 0)
            break;
        if (c->xact != 'I')
            return cm_err_set(err, CM_ERRCODE_ACTIVE_SQL_TRANSACTION,
                              "DISCARD ALL cannot run inside a transaction block"),
                   SRV_RUN_ERROR;
        srv_session_reset_all(&c->sess);
        srv_sqlprep_drop_all(c);
        break;
    case PLN_PREPARE:
        if (!srv_sqlprep_prepare(c, st, r->sql, err))
            return SRV_RUN_ERROR;
        break;
    case PLN_EXECUTE:
        return srv__run_execute(c, r, describe, err);
    case PLN_DEALLOCATE:
        if (!srv_sqlprep_deallocate(c, st, err))
            return SRV_RUN_ERROR;
        break;
    default:
        cm_panic(__FILE__, __LINE__, "unknown statement kind %d", (int)st->kind);
    }
    srv_put_command_complete(&c->out, st->tag != NULL ? st->tag : "SET");
    return SRV_RUN_OK;
}

/* ------------------------------------------------------------ simple query */

/*
 * The implicit transaction ends: its DDL, held as a block's, commits as one
 * catalog entry, or is dropped when a statement of it failed. True while the
 * commit is out: ReadyForQuery waits for it (srv_exec_ddl_done).
 */
static bool srv__implicit_commit(srv_conn_t *c)
{
    if (c->xact != 'I' || c->txn == NULL)
        return false;
    srv_txn_t *ddl = srv_txn_take(c);
    if (c->implicit_failed) {   /* every failed statement went through srv__fail */
        srv_txn_free(ddl);
        return false;
    }
    cm_err_t err = {0};
    c->implicit_committing = true;
    srv_run_rc_t rc = srv__commit_ddl(c, ddl, &err);
    if (rc == SRV_RUN_BUSY)
        return true;
    c->implicit_committing = false;
    if (rc == SRV_RUN_ERROR)
        srv__fail(c, &err);
    return false;
}

static void srv__query_finish(srv_conn_t *c)
{
    if (srv__implicit_commit(c))
        return;
    c->q.active = false;
    srv__implicit_end(c);
    srv__ready(c);
}

/*
 * A simple Query has no parameter values, so a $n in it is an error, as in
 * PostgreSQL: 42P02 at the first reference, positioned in the whole string.
 * Binding it as if Parse had sent it either succeeds with parameters or fails
 * on them (42P18 for a gap before $n); only an error the planner found
 * before the reference stands. Returns whether the statement may run.
 */
static bool srv__no_params(const char *sql, const pln_raw_t *raw, bool bound, const pln_stmt_t *st,
                           cm_err_t *err)
{
    if (bound && st->nparams == 0)
        return true;
    int off = 0, len = 0, number = 0;
    size_t at = 0;
    pln_raw_span(raw, &off, &len);
    if (!srv_paramref_first(sql + off, (size_t)len, &number, &at))
        return bound;
    int pos = cm_utf8_chars(sql, (size_t)off + at) + 1;
    if (!bound && err->position > 0 && err->position < pos)
        return false;
    cm_err_clear(err);
    cm_err_set(err, CM_ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d", number);
    err->position = pos;
    return false;
}

/* A name missing from the catalog (relation, schema, type, database): in
 * cluster mode perhaps only from this loop's snapshot so far. */
static bool srv__name_missing(const cm_err_t *err)
{
    static const char *const codes[] = {CM_ERRCODE_UNDEFINED_TABLE, CM_ERRCODE_UNDEFINED_OBJECT,
                                        CM_ERRCODE_INVALID_CATALOG_NAME, "3F000"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (err->set && strcmp(err->sqlstate, codes[i]) == 0)
            return true;
    return false;
}

/* The recheck of a missing name ended: bind the statement again, once. */
static void srv__query_rechecked(srv_conn_t *c)
{
    if (c->q.active)
        srv__query_continue(c);
}

static void srv__query_continue(srv_conn_t *c)
{
    srv_query_run_t *q = &c->q;
    while (!q->failed && q->next < q->raws.count) {
        cm_err_t err = {0};
        pln_stmt_t *st = NULL;
        const pln_raw_t *raw = q->raws.items[q->next++];
        bool bound = pln_bind_catalog(&c->arena, raw, q->sql, NULL, 0, &c->sess.settings, srv_catalog_for(c), false,
                                      &st, &err);
        if (c->xact == 'E' && (!bound || !srv__is_exit_stmt(st))) {
            cm_err_clear(&err);
            srv__aborted(&err);
            bound = false;
        } else {
            bound = srv__no_params(q->sql, raw, bound, st, &err);
        }
        if (!bound && !q->rechecked && srv__name_missing(&err) && srv_catalog_recheck(c, srv__query_rechecked)) {
            /* Another process may have just created it: the same statement again once caught up. */
            cm_err_clear(&err);
            q->rechecked = true;
            q->next--;
            return;
        }
        q->rechecked = false;
        if (!bound) {
            srv__fail(c, &err);
            q->failed = true;
            break;
        }
        int raw_len;
        srv_run_t r = {.st = st, .sql = q->sql};
        pln_raw_span(raw, &r.raw_off, &raw_len);
        srv_run_rc_t rc = srv__run(c, &r, true, &err);
        if (rc == SRV_RUN_BUSY)
            return;
        if (rc == SRV_RUN_ERROR) {
            srv__fail(c, &err);
            q->failed = true;
        }
    }
    srv__query_finish(c);
}

static void srv__exec_query(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_query_t m;
    cm_err_t err = {0};
    c->ignore_till_sync = false;
    if (!srv_decode_query(f->body, f->body_len, &m, &err)) {
        srv_conn_fatal_err(c, &err);
        return;
    }
    /* A simple Query replaces the unnamed statement and portal. */
    srv_portal_drop(c, "");
    srv_stmt_drop(c, "");
    cm_arena_reset(&c->arena);
    char *sql = cm_arena_strndup(&c->arena, m.sql, m.len);
    c->q = (srv_query_run_t){.active = true, .sql = sql};
    if (c->sync_err.set) {
        /* The workers did not reach the session's catalog index in time (srv_sync_hold). */
        cm_err_t e = {0};
        cm_err_move(&e, &c->sync_err);
        srv__fail(c, &e);
        srv__query_finish(c);
        return;
    }
    /* Client text is checked before anything reads it, as PostgreSQL does. */
    if (!cm_utf8_check(sql, m.len, &err) || !pln_parse(&c->arena, sql, m.len, &c->q.raws, &err)) {
        srv__fail(c, &err);
        srv__query_finish(c);
        return;
    }
    if (c->q.raws.count == 0) {
        srv_put_empty_message(&c->out, 'I');
        srv__query_finish(c);
        return;
    }
    srv__xact_touch(c);
    srv__query_continue(c);
}

/* ------------------------------------------------------------ extended protocol */

/*
 * Whether a Parse would bind to what the unnamed statement already holds.
 * Binding is deterministic for a given text, declared parameter types and
 * session settings (the generation counts every change of any of them), so
 * a client that sends the same unnamed Parse before every Bind (libpq's
 * PQexecParams, pgbench -M extended, most drivers) pays for parsing once.
 * PostgreSQL parses again; the outcome the client sees is the same. A
 * statement that read the catalog is bound again once the catalog moved.
 */
static bool srv__unnamed_same(srv_conn_t *c, const srv_stmt_t *st, const srv_msg_parse_t *m)
{
    if (st == NULL || st->settings_gen != c->sess.settings_gen || st->sql_len != m->sql_len ||
        (st->plan != NULL && st->plan->catalog_index != 0 && st->plan->catalog_index != srv_catalog_index(c)) ||
        st->ndeclared != m->nparams || memcmp(st->sql, m->sql, m->sql_len) != 0)
        return false;
    for (int i = 0; i < m->nparams; i++)
        if (st->declared[i] != srv_be32_at(m->param_types, i))
            return false;
    return true;
}

/* The recheck of a missing name ended: the frame, left unread, runs again. */
static void srv__frame_rechecked(srv_conn_t *c)
{
    (void)c;
}

/*
 * A Parse, or the revalidation of a prepared statement at Bind or Describe,
 * found a name missing: in cluster mode perhaps only from this loop's
 * snapshot so far (another process created it, or created it again after a
 * DROP this loop has seen). The frame is left unread and runs again, once,
 * when the loop has caught up with the store's head; true when it waits.
 */
static bool srv__frame_recheck(srv_conn_t *c, cm_err_t *err)
{
    if (!c->frame_rechecked && srv__name_missing(err) && srv_catalog_recheck(c, srv__frame_rechecked)) {
        cm_err_clear(err);
        c->frame_rechecked = true;
        c->frame_again = true;
        return true;
    }
    c->frame_rechecked = false;
    return false;
}

static void srv__exec_parse(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_parse_t m;
    cm_err_t err = {0};
    if (!srv_decode_parse(f->body, f->body_len, &m, &err)) {
        srv_conn_fatal_err(c, &err);
        return;
    }
    if (c->sync_err.set) {
        /* The workers did not reach the session's catalog index in time (srv_sync_hold). */
        cm_err_t e = {0};
        cm_err_move(&e, &c->sync_err);
        srv__fail_extended(c, &e);
        return;
    }
    if (m.name[0] != 0 && srv_stmt_find(c, m.name) != NULL) {
        cm_err_set(&err, CM_ERRCODE_DUPLICATE_PREPARED_STATEMENT, "prepared statement \"%s\" already exists", m.name);
        srv__fail_extended(c, &err);
        return;
    }
    srv__xact_touch(c);
    if (m.name[0] == 0) {
        if (srv__unnamed_same(c, c->unnamed_stmt, &m) &&
            (c->xact != 'E' || srv__is_exit_stmt(c->unnamed_stmt->plan))) {
            srv_put_empty_message(&c->out, '1');
            return;
        }
        /* As in PostgreSQL, the old unnamed statement is gone even if this Parse fails. */
        srv_stmt_drop(c, "");
    }
    srv_stmt_t *st = srv_stmt_new(c);
    st->name = cm_arena_strdup(&st->arena, m.name);
    char *sql = cm_arena_strndup(&st->arena, m.sql, m.sql_len);
    st->sql = sql;
    st->sql_len = m.sql_len;
    st->settings_gen = c->sess.settings_gen;
    st->ndeclared = m.nparams;
    if (m.nparams > 0) {
        st->declared = cm_arena_alloc(&st->arena, sizeof *st->declared * (size_t)m.nparams);
        for (int i = 0; i < m.nparams; i++)
            st->declared[i] = srv_be32_at(m.param_types, i);
    }
    pln_raw_list_t raws;
    bool ok = cm_utf8_check(sql, m.sql_len, &err) && pln_parse(&st->arena, sql, m.sql_len, &raws, &err);
    if (ok && raws.count > 1)
        ok = cm_err_set(&err, CM_ERRCODE_SYNTAX_ERROR, "cannot insert multiple commands into a prepared statement");
    if (ok && raws.count == 1)
        ok = pln_bind_catalog(&st->arena, raws.items[0], sql, st->declared, m.nparams, &c->sess.settings,
                              srv_catalog_for(c), true, &st->plan, &err);
    if (ok && c->xact == 'E' && !srv__is_exit_stmt(st->plan))
        ok = srv__aborted(&err);
    if (!ok && srv__frame_recheck(c, &err)) {
        srv_stmt_release(c, st);
        return;
    }
    c->frame_rechecked = false;
    if (!ok) {
        srv_stmt_release(c, st);
        srv__fail_extended(c, &err);
        return;
    }
    srv_stmt_ready(c, st);
    srv_prepstmt_made(st, st->sql, st->sql_len, false);
    if (m.name[0] == 0) {
        c->unnamed_stmt = st;
    } else {
        st->next = c->stmts;
        c->stmts = st;
    }
    srv_put_empty_message(&c->out, '1');
}

static bool srv__stmt_missing(const char *name, cm_err_t *err)
{
    if (name[0] == 0)
        return cm_err_set(err, CM_ERRCODE_INVALID_SQL_STATEMENT_NAME, "unnamed prepared statement does not exist");
    return cm_err_set(err, CM_ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", name);
}

/*
 * A binary value shorter than its fixed-length type: PostgreSQL's receive
 * function runs out of message (08P01) before it could check the length, so
 * the error differs from a value that is too long (22P03, caller's).
 */
static bool srv__binary_short(ty_oid_t type, int32_t len, cm_err_t *err)
{
    const ty_info_t *ti = ty_info(type);
    /* name is fixed-length on disk but travels as text. */
    if (ti == NULL || ti->typlen <= 0 || type == TY_NAME || len >= ti->typlen)
        return false;
    cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
               ti->typlen == 1 ? "no data left in message" : "insufficient data left in message");
    return true;
}

static bool srv__bind_params(srv_conn_t *c, const srv_msg_bind_t *m, srv_stmt_t *st, srv_portal_t *p,
                             cm_err_t *err)
{
    int n = st->plan != NULL ? st->plan->nparams : 0;
    if (m->nparams != n)
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
                          "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                          m->nparams, st->name, n);
    if (n == 0)
        return true;
    if (c->xact == 'E')
        return srv__aborted(err);
    ty_ctx_t ctx;
    srv__ctx_init(c, &ctx, &p->arena, err);
    p->params = cm_arena_zalloc(&p->arena, sizeof *p->params * (size_t)n);
    srv_bind_iter_t it;
    const uint8_t *v;
    int32_t len;
    srv_bind_iter_init(&it, m);
    for (int i = 0; srv_bind_iter_next(&it, &v, &len); i++) {
        int16_t fmt = srv_format_at(m->formats, m->nformats, i);
        ty_oid_t type = st->plan->param_types[i];
        if (type == TY_INVALID || type == TY_UNKNOWN)
            type = TY_TEXT;
        if (fmt != 0 && fmt != 1)
            return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unsupported format code: %d", fmt);
        if (len < 0) {
            p->params[i].isnull = true;
            continue;
        }
        bool ok;
        if (fmt == 0) {
            if (!cm_utf8_check((const char *)v, (size_t)len, err))
                return false;
            ok = ty_datum_from_text(type, -1, (const char *)v, (size_t)len, &ctx, &p->params[i]);
        } else {
            if (!ty_has_binary(type)) {
                const ty_info_t *ti = ty_info(type);
                return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "binary format is not supported for parameters of type %s",
                                  ti != NULL ? ti->name : "unknown");
            }
            if (srv__binary_short(type, len, err))
                return false;
            ok = ty_datum_from_binary(type, -1, v, (size_t)len, &ctx, &p->params[i]);
            if (!ok && err->set && strcmp(err->message, "insufficient data left in message") == 0) {
                /* PostgreSQL's receive functions read through pq_getmsg*, which
                 * calls running out of bytes a protocol violation. */
                memcpy(err->sqlstate, CM_ERRCODE_PROTOCOL_VIOLATION, sizeof err->sqlstate);
            } else if (!ok && err->set && strcmp(err->sqlstate, CM_ERRCODE_INVALID_BINARY_REPRESENTATION) == 0) {
                char msg[80];
                snprintf(msg, sizeof msg, "incorrect binary data format in bind parameter %d", i + 1);
                free(err->message);
                err->message = cm_strdup(msg);
            }
        }
        if (!ok) {
            if (!err->set)
                cm_err_set(err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid value for parameter $%d", i + 1);
            return false;
        }
    }
    return true;
}

/* Result formats per column; all text (the usual case) leaves p->formats NULL. */
static bool srv__bind_formats(const srv_msg_bind_t *m, srv_stmt_t *st, srv_portal_t *p, cm_err_t *err)
{
    const srv_cols_t *cols = &st->cols;
    if (m->nresult_formats > 1 && m->nresult_formats != cols->n)
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
                          "bind message has %d result formats but query has %d columns", m->nresult_formats, cols->n);
    p->nformats = cols->n;
    p->formats = NULL;
    for (int i = 0; i < cols->n && m->nresult_formats > 0; i++) {
        int16_t fmt = srv_format_at(m->result_formats, m->nresult_formats, i);
        if (fmt == 0)
            continue;
        if (fmt != 1)
            return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unsupported format code: %d", fmt);
        if (!ty_has_binary(cols->types[i])) {
            const ty_info_t *ti = ty_info(cols->types[i]);
            return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "binary format is not supported for results of type %s",
                              ti != NULL ? ti->name : "unknown");
        }
        if (p->formats == NULL)
            p->formats = cm_arena_zalloc(&p->arena, sizeof *p->formats * (size_t)cols->n);
        p->formats[i] = fmt;
    }
    return true;
}

static void srv__exec_bind(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_bind_t m;
    cm_err_t err = {0};
    if (!srv_decode_bind(f->body, f->body_len, &m, &err)) {
        srv__fail_extended(c, &err);
        return;
    }
    srv_stmt_t *st = srv_stmt_find(c, m.stmt);
    if (st == NULL) {
        srv__stmt_missing(m.stmt, &err);
        srv__fail_extended(c, &err);
        return;
    }
    if (m.portal[0] != 0 && srv_portal_find(c, m.portal) != NULL) {
        cm_err_set(&err, CM_ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", m.portal);
        srv__fail_extended(c, &err);
        return;
    }
    if (!srv_stmt_revalidate(c, st, &err)) {
        if (!srv__frame_recheck(c, &err))
            srv__fail_extended(c, &err);
        return;
    }
    c->frame_rechecked = false;
    srv_sqlprep_bind(c, st);
    srv__xact_touch(c);
    if (m.portal[0] == 0)
        srv_portal_drop(c, "");
    srv_portal_t *p = srv_portal_new(c);
    p->name = cm_arena_strdup(&p->arena, m.portal);
    p->stmt = st;
    st->refs++;
    /* A constant that failed to fold is a planning error: PostgreSQL plans at
     * Bind, after the parameters are read, so that is where it surfaces. */
    if (!srv__bind_params(c, &m, st, p, &err) || !srv__bind_formats(&m, st, p, &err) ||
        (st->plan != NULL && !pln_plan_error_raise(st->plan, &err))) {
        srv_portal_free(c, p);
        srv__fail_extended(c, &err);
        return;
    }
    srv_prepstmt_planned(st);
    if (m.portal[0] == 0) {
        c->unnamed_portal = p;
    } else {
        p->next = c->portals;
        c->portals = p;
    }
    srv_put_empty_message(&c->out, '2');
}

static void srv__exec_describe(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_describe_t m;
    cm_err_t err = {0};
    if (!srv_decode_describe(f->body, f->body_len, &m, &err)) {
        srv__fail_extended(c, &err);
        return;
    }
    srv_stmt_t *st;
    const int16_t *formats = NULL;
    if (m.what == 'S') {
        st = srv_stmt_find(c, m.name);
        if (st == NULL) {
            srv__stmt_missing(m.name, &err);
            srv__fail_extended(c, &err);
            return;
        }
        if (!srv_stmt_revalidate(c, st, &err)) {
            if (!srv__frame_recheck(c, &err))
                srv__fail_extended(c, &err);
            return;
        }
        c->frame_rechecked = false;
    } else {
        srv_portal_t *p = srv_portal_find(c, m.name);
        if (p == NULL) {
            cm_err_set(&err, CM_ERRCODE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", m.name);
            srv__fail_extended(c, &err);
            return;
        }
        st = p->stmt;
        formats = p->formats;
    }
    bool rows = st->plan != NULL && st->cols.rows;
    if (rows && c->xact == 'E') {
        /* PostgreSQL refuses to describe results in a failed transaction (it
         * would need the catalog) but still describes commands, so that a
         * client that describes everything can send its ROLLBACK. */
        srv__aborted(&err);
        srv__fail_extended(c, &err);
        return;
    }
    if (m.what == 'S') {
        int n = st->plan != NULL ? st->plan->nparams : 0;
        srv_put_parameter_description(&c->out, n, n > 0 ? st->plan->param_types : NULL);
        if (!srv_sqlprep_describe(c, st, &err)) {
            srv__fail_extended(c, &err);
            return;
        }
    }
    if (rows)
        srv_stmt_put_row_description(st, &c->out, formats);
    else
        srv_put_empty_message(&c->out, 'n');
}

static void srv__exec_execute(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_execute_t m;
    cm_err_t err = {0};
    if (!srv_decode_execute(f->body, f->body_len, &m, &err)) {
        srv__fail_extended(c, &err);
        return;
    }
    srv_portal_t *p = srv_portal_find(c, m.portal);
    if (p == NULL) {
        cm_err_set(&err, CM_ERRCODE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", m.portal);
        srv__fail_extended(c, &err);
        return;
    }
    c->current_portal = p;
    srv_run_t r = {.st = p->stmt->plan, .sql = p->stmt->sql, .params = p->params, .portal = p,
                   .cols = &p->stmt->cols, .max_rows = m.max_rows};
    srv_run_rc_t rc = srv__run(c, &r, false, &err);
    if (rc == SRV_RUN_BUSY)
        return;
    c->current_portal = NULL;
    if (rc == SRV_RUN_ERROR)
        srv__fail_extended(c, &err);
}

static void srv__exec_close(srv_conn_t *c, const srv_frame_t *f)
{
    srv_msg_describe_t m;
    cm_err_t err = {0};
    if (!srv_decode_close(f->body, f->body_len, &m, &err)) {
        srv__fail_extended(c, &err);
        return;
    }
    if (m.what == 'S')
        srv_stmt_drop(c, m.name);
    else
        srv_portal_drop(c, m.name);
    srv_put_empty_message(&c->out, '3');
}

void srv_exec_message(srv_conn_t *c, const srv_frame_t *f)
{
    cm_err_t err = {0};
    /* After an extended-protocol error everything up to Sync is dropped. */
    if (c->ignore_till_sync && f->type != 'S' && f->type != 'X')
        return;
    switch (f->type) {
    case 'Q':
        srv__exec_query(c, f);
        break;
    case 'P':
        srv__exec_parse(c, f);
        break;
    case 'B':
        srv__exec_bind(c, f);
        break;
    case 'D':
        srv__exec_describe(c, f);
        break;
    case 'E':
        srv__exec_execute(c, f);
        break;
    case 'C':
        srv__exec_close(c, f);
        break;
    case 'H':
        if (!srv_decode_empty(f->body, f->body_len, &err))
            srv_conn_fatal_err(c, &err);
        break;
    case 'S':
        if (!srv_decode_empty(f->body, f->body_len, &err)) {
            srv_conn_fatal_err(c, &err);
            break;
        }
        c->ignore_till_sync = false;
        if (srv__implicit_commit(c))
            break;
        srv__implicit_end(c);
        srv__ready(c);
        break;
    case 'X':
        srv_conn_close(c);
        break;
    case 'F':
        cm_err_set(&err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "fast-path function calls are not supported");
        srv__fail(c, &err);
        srv__ready(c);
        break;
    case 'd':
    case 'c':
    case 'f':
        /* Copy messages outside COPY are ignored, as PostgreSQL does. */
        break;
    default:
        srv_conn_fatal(c, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type %d", f->type);
        break;
    }
}

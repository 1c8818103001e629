/*
 * srv_exec_run.c: running one bound statement, whichever protocol brought it:
 * queries (on the loop, or on libuv's thread pool when they may block), SHOW,
 * SET and RESET, transaction control, DDL, DISCARD, PREPARE / EXECUTE /
 * DEALLOCATE; the evaluation context with statement_timeout and cancel; and
 * the answer of a statement that went busy, once its work is done.
 */
#include "server/srv_exec_int.h"
#include "server/srv_metrics.h"
#include "server/srv_copy.h"

#include <stdlib.h>
#include <string.h>

#define SRV_VERSION_TEXT "PostgreSQL 15.0 (eddy " EDDY_VERSION ") on x86_64-pc-linux-gnu, 64-bit"

void srv__ctx_init(srv_conn_t *c, ty_ctx_t *ctx, cm_arena_t *a, cm_err_t *err)
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
    ctx->user = srv_current_user(&c->sess);
    ctx->session_user = srv_session_user(&c->sess);
    ctx->database = c->sess.database;
    ctx->schema = "public";
    ctx->version = SRV_VERSION_TEXT;
    ctx->backend_pid = c->cancel.pid;
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

static void srv__work_cb(uv_work_t *req);
static void srv__after_work_cb(uv_work_t *req, int status);

static srv_run_rc_t srv__run_blocking(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, df_reply_t *answered,
                                      const plan_t *rest, cm_err_t *err)
{
    srv_work_t *w = c->work;
    if (w == NULL) {
        w = c->work = cm_calloc(1, sizeof *w);
        cm_buf_init(&w->out, 0);
    }
    w->stmt = r->st;
    w->writes = r->st->kind == PLN_WRITE;
    w->reads = !w->writes && r->st->query->reads;
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
    if (cols->n > 0)   /* a write without RETURNING has no columns (types NULL) */
        memcpy(types, cols->types, sizeof *types * (size_t)cols->n);
    w->types = types;
    w->max_rows = r->max_rows;
    w->commit = NULL;
    w->tx = c->wtxn;
    w->answered = answered;
    w->rest = rest;
    if (answered != NULL)
        df_reply_ref(answered);
    /* A read whose answer came to the loop (srv_exec_ask.c) is BUSY already. */
    bool was_busy = c->state == SRV_CONN_BUSY;
    if (!was_busy)
        srv_conn_set_state(c, SRV_CONN_BUSY);
    w->inflight = true;
    if (uv_queue_work(&c->lp->uv, &w->req, srv__work_cb, srv__after_work_cb) != 0) {
        w->inflight = false;
        df_reply_unref(w->answered);
        w->answered = NULL;
        if (!was_busy)
            srv_conn_set_state(c, SRV_CONN_READY);
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not start a blocking statement");
        return SRV_RUN_ERROR;
    }
    return SRV_RUN_BUSY;
}

/* srv__run_blocking for a statement whose cancel window is open: closed here unless it went busy. */
static srv_run_rc_t srv__run_off_loop(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err)
{
    srv_run_rc_t rc = srv__run_blocking(c, r, cols, NULL, NULL, err);
    if (rc != SRV_RUN_BUSY)
        srv_cancel_stmt_end(&c->cancel);
    return rc;
}

srv_run_rc_t srv__run_answered(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, df_reply_t *rep,
                               const plan_t *rest, cm_err_t *err)
{
    return srv__run_blocking(c, r, cols, rep, rest, err);
}

/* A statement that runs with its workers' command sent from the loop (srv_exec_ask.c): its
 * cancel window closes here unless it went busy. */
static srv_run_rc_t srv__run_asked(srv_conn_t *c, srv_run_rc_t rc)
{
    if (rc != SRV_RUN_BUSY)
        srv_cancel_stmt_end(&c->cancel);
    return rc;
}

/*
 * A transaction's writes commit off the loop, as they wait for the workers;
 * done answers on the loop (with tag, or the error). Takes tx.
 */
static srv_run_rc_t srv__run_job(srv_conn_t *c, srv_wtxn_t *tx, struct srv_copy_in *cp, const pln_stmt_t *ctas,
                                 const char *sql, srv_ddl_done_cb done, const char *tag, cm_err_t *err)
{
    srv_work_t *w = c->work;
    if (w == NULL) {
        w = c->work = cm_calloc(1, sizeof *w);
        cm_buf_init(&w->out, 0);
    }
    w->commit = tx;
    w->copy_in = cp;
    w->ctas_copy = ctas;
    w->commit_done = done;
    w->commit_tag = tag;
    w->tx = NULL;
    w->ok = false;
    w->sql = sql;
    cm_err_clear(&w->err);
    srv__ctx_init(c, &w->ctx, &c->arena, &w->err);
    w->ctx.catalog_fn = NULL;
    w->req.data = c;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    w->inflight = true;
    if (uv_queue_work(&c->lp->uv, &w->req, srv__work_cb, srv__after_work_cb) != 0) {
        w->inflight = false;
        w->commit = NULL;
        w->copy_in = NULL;
        w->ctas_copy = NULL;
        w->commit_done = NULL;
        srv_wtxn_free(tx);
        srv_conn_set_state(c, SRV_CONN_READY);
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not start the end of a transaction or COPY");
        return SRV_RUN_ERROR;
    }
    return SRV_RUN_BUSY;
}

/*
 * A transaction's writes commit off the loop, as they wait for the workers;
 * done answers on the loop (with tag, or the error). Takes tx.
 */
srv_run_rc_t srv__run_commit(srv_conn_t *c, srv_wtxn_t *tx, srv_ddl_done_cb done, const char *tag, cm_err_t *err)
{
    return srv__run_job(c, tx, NULL, NULL, NULL, done, tag, err);
}

srv_run_rc_t srv__run_copy(srv_conn_t *c, struct srv_copy_in *cp, cm_err_t *err)
{
    return srv__run_job(c, NULL, cp, NULL, NULL, srv__stmt_done, NULL, err);
}

srv_run_rc_t srv__run_ctas_copy(srv_conn_t *c, const pln_stmt_t *ins, const char *sql, srv_ddl_done_cb done,
                                cm_err_t *err)
{
    return srv__run_job(c, NULL, NULL, ins, sql, done, NULL, err);
}

static void srv__work_cb(uv_work_t *req)
{
    srv_conn_t *c = req->data;
    srv_work_t *w = c->work;
    if (w->commit != NULL) {
        w->ok = srv_wtxn_commit(c->lp->srv, w->commit, &w->ctx);
        return;
    }
    if (w->copy_in != NULL) {
        w->ok = srv_copy_in_run(c->lp->srv, w->copy_in, &w->ctx, w->tag, sizeof w->tag);
        w->commit_tag = w->tag;
        return;
    }
    if (w->ctas_copy != NULL) {
        uint64_t written = 0;
        srv_crash_note("", w->sql, strlen(w->sql));
        w->ok = srv_write_run(c->lp->srv, w->ctas_copy->write, NULL, w->sql, NULL, &w->ctx, NULL, NULL, &written);
        srv_crash_note_clear();
        snprintf(w->tag, sizeof w->tag, "SELECT %llu", (unsigned long long)written);
        w->commit_tag = w->tag;
        if (!w->ok && !w->err.set)
            cm_err_set(&w->err, CM_ERRCODE_INTERNAL_ERROR, "CREATE TABLE AS could not copy its rows");
        return;
    }
    srv_crash_note("", w->sql, w->sql != NULL ? strlen(w->sql) : 0);
    srv_sink_t k = {.out = &w->out,
                    .spill = w->portal != NULL ? &w->portal->rows : NULL,
                    .limit = w->portal != NULL ? w->max_rows : 0,
                    .types = w->types,
                    .formats = w->formats,
                    .ctx = &w->ctx,
                    .copy = w->writes ? NULL : w->stmt->copy_to,
                    .c = NULL,
                    .max = c->lp->srv->cfg.result_max_bytes};
    if (w->writes) {
        const plan_write_t *pw = w->stmt->write;
        w->ok = srv_write_run(c->lp->srv, pw, w->tx, w->sql, w->params, &w->ctx, srv__row_cb, &k, &w->written);
        if (pw->kind == PLAN_WRITE_TRUNCATE)
            snprintf(w->tag, sizeof w->tag, "%s", w->stmt->tag);
        else
            snprintf(w->tag, sizeof w->tag, "%s%s%llu", w->stmt->tag, pw->kind == PLAN_WRITE_INSERT ? " 0 " : " ",
                     (unsigned long long)w->written);
    } else {
        if (w->answered != NULL)
            w->ok = srv_read_finish(w->answered, w->rest, w->tx, w->sql, w->params, &w->ctx, srv__row_cb, &k, NULL);
        else if (w->reads)
            w->ok = srv_read_run(c->lp->srv, w->stmt->query, w->tx, w->sql, w->params, &w->ctx, srv__row_cb, &k);
        else
            w->ok = ex_run(w->stmt->query, w->sql, w->params, &w->ctx, srv__row_cb, &k);
    }
    if (!w->ok && !w->err.set)
        cm_err_set(&w->err, CM_ERRCODE_INTERNAL_ERROR, "statement failed without an error");
    w->nrows = k.n;
    srv_crash_note_clear();
}

static void srv__after_work_cb(uv_work_t *req, int status)
{
    srv_conn_t *c = req->data;
    srv_work_t *w = c->work;
    w->inflight = false;
    df_reply_unref(w->answered);
    w->answered = NULL;
    if (w->commit != NULL) {
        srv_wtxn_free(w->commit);
        w->commit = NULL;
    }
    if (w->copy_in != NULL) {
        srv_copy_in_done(c, w->copy_in);
        w->copy_in = NULL;
    }
    if (w->ctas_copy != NULL) {
        srv__interrupt_message(&w->ctx, &w->err);
        w->ctas_copy = NULL;
    }
    if (c->state == SRV_CONN_CLOSED) {
        if (c->handle_closed)
            srv_conn_free_orphan(c);
        return;
    }
    if (w->commit_done != NULL) {
        srv_ddl_done_cb done = w->commit_done;
        w->commit_done = NULL;
        srv_conn_set_state(c, SRV_CONN_READY);
        if (status != 0 && !w->err.set)
            cm_err_set(&w->err, CM_ERRCODE_INTERNAL_ERROR, "the commit did not run");
        /* done runs the query string's next statement, which may start the next job in w (its
         * error and tag too) on a pool thread at once: this job's outcome is taken out first. */
        cm_err_t e = w->err;
        memset(&w->err, 0, sizeof w->err);
        char tag[sizeof w->tag];
        snprintf(tag, sizeof tag, "%s", w->commit_tag != NULL ? w->commit_tag : "");
        done(c, w->ok && status == 0 ? NULL : &e, w->commit_tag != NULL ? tag : NULL);
        cm_err_clear(&e);
        return;
    }
    cm_buf_put(&c->out, w->out.data, w->out.len);
    w->out.len = 0;
    cm_buf_shrink(&w->out, SRV_BUF_KEEP);
    if (status != 0 && !w->err.set)
        cm_err_set(&w->err, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    srv__busy_end(c, w->ok && status == 0, &w->ctx, &w->err, w->portal, w->max_rows, w->nrows,
                  w->writes ? w->tag : srv__rows_tag(w->stmt));
}

void srv__busy_end(srv_conn_t *c, bool ok, const ty_ctx_t *ctx, cm_err_t *err, srv_portal_t *portal, int32_t max_rows,
                   uint64_t nrows, const char *tag)
{
    srv__interrupt_message(ctx, err);
    srv_cancel_stmt_end(&c->cancel);
    srv_conn_set_state(c, SRV_CONN_READY);
    bool extended = portal != NULL;
    if (ok) {
        if (extended)
            portal->started = true;
        uint64_t emitted = extended && max_rows > 0 && nrows > (uint64_t)max_rows ? (uint64_t)max_rows : nrows;
        srv__complete_rows(c, portal, extended ? max_rows : 0, emitted, tag);
    } else if (extended) {
        srv__fail_extended(c, err);
    } else {
        srv__fail(c, err);
        c->q.failed = true;
    }
    c->current_portal = NULL;
    if (c->q.active)
        srv__query_continue(c);
    srv_conn_resume(c);
}

/* A DDL statement, a COMMIT with DDL or writes, or a COPY, that went busy is answered (srv_ddl_done_cb). */
void srv__stmt_done(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    if (err == NULL)
        srv__complete(c, tag);
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
    if (r->st->query->reads && !r->st->blocking)
        return srv__run_asked(c, srv__run_read_ask(c, r, cols, err));
    if (r->st->blocking || r->st->query->reads)
        return srv__run_off_loop(c, r, cols, err);
    ty_ctx_t ctx;
    srv__ctx_init(c, &ctx, &c->arena, err);
    srv_sink_t k = {.out = &c->out,
                    .spill = p != NULL ? &p->rows : NULL,
                    .limit = p != NULL ? r->max_rows : 0,
                    .types = cols->types,
                    .formats = p != NULL ? p->formats : NULL,
                    .ctx = &ctx,
                    .copy = r->st->copy_to,
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
        srv__complete(c, r->st->tag);
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

srv_run_rc_t srv__run(srv_conn_t *c, const srv_run_t *r, bool describe, cm_err_t *err)
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
    } else if (st->kind == PLN_QUERY || st->kind == PLN_SHOW || st->kind == PLN_FETCH ||
               (st->kind == PLN_WRITE && st->ncols > 0)) {
        srv_cols_build(c, st, &c->arena, &cols);
        if (describe && cols.rows)
            srv_cols_put_row_description(&c->out, &cols, NULL);
    }
    if (st->kind == PLN_QUERY && st->copy_to != NULL && !(r->portal != NULL && r->portal->started))
        srv_copy_out_begin(&c->out, st);
    if (st->kind == PLN_QUERY && st->subscribe != NULL) {
        srv_cancel_stmt_begin(&c->cancel);
        return srv_subscribe_run(c, r, &cols, err);
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
        } else if (!srv_roles_check_set(c, st->var_name, st->var_value, err) ||
                   !srv_session_set(&c->sess, st->var_name, st->var_value, st->set_local, err)) {
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
            srv_wtxn_t *tx = c->wtxn;
            c->wtxn = NULL;
            if (st->kind == PLN_ROLLBACK) {
                srv_txn_free(ddl);
                srv_wtxn_free(tx);
                ddl = NULL;
                tx = NULL;
            }
            if (!srv_wtxn_empty(tx))
                return srv__run_commit(c, tx, srv__stmt_done, tag, err);
            srv_wtxn_free(tx);
            srv_run_rc_t rc = srv__commit_ddl(c, ddl, srv__stmt_done, err);
            if (rc != SRV_RUN_OK)
                return rc;
        } else {
            bool commit = st->kind == PLN_COMMIT && c->xact == 'T';
            if (st->kind == PLN_COMMIT && !commit)
                tag = "ROLLBACK";   /* COMMIT of a failed transaction rolls back */
            srv_txn_t *ddl = commit ? srv_txn_take(c) : NULL;
            srv_wtxn_t *tx = commit ? c->wtxn : NULL;
            if (commit)
                c->wtxn = NULL;
            srv__xact_end(c, commit);
            c->implicit_failed = false;
            /* The block's writes apply at one step now, or not at all (the block is over either way). */
            if (!srv_wtxn_empty(tx))
                return srv__run_commit(c, tx, srv__stmt_done, tag, err);
            srv_wtxn_free(tx);
            /* The block is over whatever the commit of its DDL answers. */
            srv_run_rc_t rc = srv__commit_ddl(c, ddl, srv__stmt_done, err);
            if (rc != SRV_RUN_OK)
                return rc;
        }
        srv__complete(c, tag);
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
        /* CREATE TABLE AS with rows, when nothing is held yet, creates the table at once and copies
         * (srv_ctas.c), even in an implicit transaction, since DDL and writes share no commit yet. */
        if (srv_ctas_applies(c, st))
            return srv_ctas_run(c, st, r->sql, err);
        /* In a transaction block, explicit or implicit, DDL waits for its end (srv_txn.c);
         * otherwise it commits at once. */
        if (c->xact == 'T' || srv__implicit_block(c)) {
            if (!srv_wtxn_empty(c->wtxn))
                return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "DDL after a write in the same transaction is not supported yet"),
                       SRV_RUN_ERROR;
            if (!srv_txn_ddl(c, st, r->sql, r->raw_off, err))
                return SRV_RUN_ERROR;
            break;
        }
        switch (srv_ddl_run(c, st, r->sql, srv__stmt_done, err)) {
        case SRV_DDL_DONE:
            break;
        case SRV_DDL_ERROR:
            return SRV_RUN_ERROR;
        case SRV_DDL_BUSY:
            return SRV_RUN_BUSY;
        }
        break;
    case PLN_WRITE: {
        /* Bound, described and checked as PostgreSQL does; applying a write is the dataflow
         * engine's, which is not built yet. An error PostgreSQL raises when the write starts
         * (COPY's and TRUNCATE's checks, a materialized view) comes first. */
        if (!plan_error_raise(st->write->error, err))
            return SRV_RUN_ERROR;
        if (srv__portal_resume(c, r->portal, r->max_rows))
            return SRV_RUN_OK;
        /* In a transaction, explicit or implicit, the writes are kept and apply at its end as one
         * step (srv_write_txn.c); the DDL a transaction holds commits separately, so the two do not
         * mix yet. */
        if (c->xact != 'I' || srv__implicit_block(c)) {
            if (c->txn != NULL)
                return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "a write after DDL in the same transaction is not supported yet"),
                       SRV_RUN_ERROR;
            if (c->wtxn == NULL)
                c->wtxn = srv_wtxn_new(c->lp->srv->cfg.txn_write_rows_max);
        }
        if (st->write->kind == PLAN_WRITE_COPY)
            return (srv_run_rc_t)srv_copy_in_start(c, st->write, c->wtxn, err);
        srv_cancel_stmt_begin(&c->cancel);
        if (srv__insert_on_loop(c, st))
            return srv__run_asked(c, srv__run_insert_ask(c, r, &cols, err));
        return srv__run_off_loop(c, r, &cols, err);
    }
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
    case PLN_DECLARE:
        if (srv_cursor_declare(c, st, err) != SRV_RUN_OK)
            return SRV_RUN_ERROR;
        break;
    case PLN_FETCH:
        return srv_cursor_fetch(c, r, &cols, err);
    case PLN_CLOSE:
        if (!srv_cursor_close(c, st, err))
            return SRV_RUN_ERROR;
        break;
    default:
        cm_panic(__FILE__, __LINE__, "unknown statement kind %d", (int)st->kind);
    }
    srv__complete(c, st->tag != NULL ? st->tag : "SET");
    return SRV_RUN_OK;
}

/* A name missing from the catalog (relation, schema, type, database): in
 * cluster mode perhaps only from this loop's snapshot so far. */
bool srv__name_missing(const cm_err_t *err)
{
    static const char *const codes[] = {CM_ERRCODE_UNDEFINED_TABLE, CM_ERRCODE_UNDEFINED_OBJECT,
                                        CM_ERRCODE_INVALID_CATALOG_NAME, "3F000"};
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (err->set && strcmp(err->sqlstate, codes[i]) == 0)
            return true;
    return false;
}

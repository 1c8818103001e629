/*
 * srv_exec_simple.c: the simple query protocol: a Query string is parsed
 * whole first (a syntax error runs nothing), then bound and run statement by
 * statement, pausing while one is busy; a $n in it is 42P02; a name missing
 * in cluster mode is looked for again once, after catching up with the store.
 */
#include "server/srv_exec_int.h"

#include <string.h>

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

/* The recheck of a missing name ended: bind the statement again, once. */
static void srv__query_rechecked(srv_conn_t *c)
{
    if (c->q.active)
        srv__query_continue(c);
}

void srv__query_continue(srv_conn_t *c)
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
        if (!bound && !q->rechecked && srv__name_missing(&err) && srv_ddl_recheck(c, srv__query_rechecked)) {
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

void srv__exec_query(srv_conn_t *c, const srv_frame_t *f)
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

/*
 * srv_exec_extended.c: the extended query protocol: Parse (with the unnamed
 * statement's cache), Bind (parameters in text or binary, result formats),
 * Describe, Execute (row limits, PortalSuspended) and Close; an error makes
 * the connection discard messages until Sync (srv_exec.c handles Sync).
 */
#include "server/srv_exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (!c->frame_rechecked && srv__name_missing(err) && srv_ddl_recheck(c, srv__frame_rechecked)) {
        cm_err_clear(err);
        c->frame_rechecked = true;
        c->frame_again = true;
        return true;
    }
    c->frame_rechecked = false;
    return false;
}

void srv__exec_parse(srv_conn_t *c, const srv_frame_t *f)
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

/* PortalStart starts a query's executor at Bind; a write's (PORTAL_MULTI_QUERY,
 * ONE_RETURNING) waits for the first Execute, and so do its privilege checks. */
static bool srv__starts_at_execute(const srv_stmt_t *st)
{
    return st->plan != NULL && st->plan->kind == PLN_WRITE;
}

void srv__exec_bind(srv_conn_t *c, const srv_frame_t *f)
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
     * Bind, after the parameters are read, so that is where it surfaces; a
     * query's executor then starts and checks the current user's privileges. */
    if (!srv__bind_params(c, &m, st, p, &err) || !srv__bind_formats(&m, st, p, &err) ||
        (st->plan != NULL && !pln_plan_error_raise(st->plan, &err)) ||
        (!srv__starts_at_execute(st) && !pln_check_privileges(st->plan, srv_catalog_for(c), &err))) {
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

void srv__exec_describe(srv_conn_t *c, const srv_frame_t *f)
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

void srv__exec_execute(srv_conn_t *c, const srv_frame_t *f)
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
    if (!p->started && srv__starts_at_execute(p->stmt) &&
        !pln_check_privileges(p->stmt->plan, srv_catalog_for(c), &err)) {
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

void srv__exec_close(srv_conn_t *c, const srv_frame_t *f)
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

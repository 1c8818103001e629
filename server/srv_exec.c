/*
 * srv_exec.c: statement execution once a connection is ready: one entry per
 * frontend message (Query, Parse, Bind, Describe, Execute, Close, Flush,
 * Sync, ...), handed to the simple (srv_exec_simple.c) or the extended
 * protocol (srv_exec_extended.c); they run statements with srv_exec_run.c,
 * write rows with srv_exec_rows.c and keep transactions with srv_exec_txn.c.
 */
#include "server/srv_exec_int.h"
#include "server/srv_copy.h"

#include <stdlib.h>

void srv_exec_conn_free(srv_conn_t *c)
{
    srv_ddl_conn_free(c);
    srv_catalog_conn_free(c);
    srv_sync_conn_free(c);
    srv_ask_conn_free(c);
    srv_subscribe_conn_free(c);
    srv_cursor_conn_free(c);
    cm_err_clear(&c->sync_err);
    srv_portal_free_all(c);
    srv_stmt_free_all(c);
    srv_copy_in_conn_free(c);
    srv_wtxn_free(c->wtxn);
    c->wtxn = NULL;
    if (c->work != NULL) {
        cm_buf_free(&c->work->out);
        cm_err_clear(&c->work->err);
        free(c->work);
    }
    if (c->sess.user != NULL)
        srv_session_free(&c->sess);
}

void srv_exec_message(srv_conn_t *c, const srv_frame_t *f)
{
    cm_err_t err = {0};
    /* After an extended-protocol error everything up to Sync is dropped. */
    if (c->ignore_till_sync && f->type != 'S' && f->type != 'X')
        return;
    /* COPY FROM STDIN takes every message until it ends (Terminate still closes). */
    if (c->copy != NULL && f->type != 'X') {
        srv_copy_in_message(c, f);
        return;
    }
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

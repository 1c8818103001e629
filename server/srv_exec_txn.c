/*
 * srv_exec_txn.c: transactions as the protocol sees them: the explicit block
 * and the implicit one (a query string with several statements, or the
 * extended protocol's messages up to Sync), what an error does to them, the
 * ReadyForQuery status, and the commit of the DDL or the writes a
 * transaction held.
 */
#include "server/srv_exec_int.h"

void srv__xact_touch(srv_conn_t *c)
{
    if (!c->xact_open) {
        c->xact_open = true;
        c->xact_ts = cm_now_wall_us() - SRV_PG_EPOCH_US;
    }
}

void srv__xact_end(srv_conn_t *c, bool commit)
{
    srv_txn_discard(c);   /* a COMMIT that commits DDL or writes took them first */
    srv_wtxn_free(c->wtxn);
    c->wtxn = NULL;
    srv_session_xact_end(&c->sess, commit);
    srv_portal_drop_all(c);
    srv_cursor_close_all(c);
    c->xact = 'I';
    c->xact_open = false;
}

/* A query string with several statements runs them as one implicit
 * transaction, as in PostgreSQL, and so do the extended protocol's messages
 * up to Sync: its DDL is held like a block's (srv_txn.c) and committed at its
 * end, or not at all when one of them failed. */
bool srv__implicit_block(const srv_conn_t *c)
{
    return c->xact == 'I' && (c->current_portal != NULL || (c->q.active && c->q.raws.count > 1));
}

/* End of a Query or of a Sync group: the implicit transaction, if any, ends. */
void srv__implicit_end(srv_conn_t *c)
{
    if (c->xact == 'I' && c->xact_open)
        srv__xact_end(c, !c->implicit_failed);
    c->implicit_failed = false;
}

#define SRV_ARENA_FLUSH_FIRST ((size_t)8 << 20)

void srv__ready(srv_conn_t *c)
{
    srv_session_report(&c->sess, &c->out, false);
    srv_put_ready_for_query(&c->out, c->xact);
    c->out_ready = true;
    srv_conn_stmt_end(c);
    /* Giving back a statement's hundreds of megabytes (a huge repeat or lpad) takes tens of
     * milliseconds of munmap: the client has its answer first. */
    if (c->arena.bytes_total >= SRV_ARENA_FLUSH_FIRST)
        srv_conn_flush(c);
    cm_arena_reset(&c->arena);
}

/* An error aborts an explicit transaction; an implicit one rolls back at its end. */
void srv__fail(srv_conn_t *c, cm_err_t *err)
{
    err->severity = CM_SEV_ERROR;
    srv_conn_send_error(c, err);
    cm_err_clear(err);
    if (c->xact == 'T')
        c->xact = 'E';
    c->implicit_failed = true;
}

void srv__fail_extended(srv_conn_t *c, cm_err_t *err)
{
    srv__fail(c, err);
    c->ignore_till_sync = true;
}

bool srv__is_exit_stmt(const pln_stmt_t *st)
{
    return st != NULL && (st->kind == PLN_COMMIT || st->kind == PLN_ROLLBACK);
}

bool srv__aborted(cm_err_t *err)
{
    return cm_err_set(err, CM_ERRCODE_IN_FAILED_SQL_TRANSACTION,
                      "current transaction is aborted, commands ignored until end of transaction block");
}

/* A transaction's DDL as one catalog commit (none: nothing to commit);
 * BUSY until the store and the workers answer, then done does. */
srv_run_rc_t srv__commit_ddl(srv_conn_t *c, srv_txn_t *ddl, srv_ddl_done_cb done, cm_err_t *err)
{
    if (ddl == NULL)
        return SRV_RUN_OK;
    switch (srv_ddl_commit_txn(c, ddl, done, err)) {
    case SRV_DDL_DONE:
        return SRV_RUN_OK;
    case SRV_DDL_ERROR:
        return SRV_RUN_ERROR;
    default:
        return SRV_RUN_BUSY;
    }
}

/* The implicit transaction's commit ends its query string or Sync group;
 * no tag of its own, as PostgreSQL (srv_ddl_done_cb). */
static void srv__implicit_committed(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    if (err != NULL)
        srv__fail(c, err);
    c->q.active = false;
    srv__implicit_end(c);
    srv__ready(c);
    srv_conn_resume(c);
}

/*
 * The implicit transaction ends: its DDL, held as a block's, commits as one
 * catalog entry, or is dropped when a statement of it failed. True while the
 * commit is out: ReadyForQuery waits for it (srv__implicit_committed).
 */
bool srv__implicit_commit(srv_conn_t *c)
{
    if (c->xact == 'I' && !srv_wtxn_empty(c->wtxn) && !c->implicit_failed) {
        /* Its writes apply at one step, then ReadyForQuery (srv__implicit_committed). */
        srv_wtxn_t *tx = c->wtxn;
        c->wtxn = NULL;
        cm_err_t err = {0};
        if (srv__run_commit(c, tx, srv__implicit_committed, NULL, &err) == SRV_RUN_BUSY)
            return true;
        srv__fail(c, &err);
        return false;
    }
    if (c->xact != 'I' || c->txn == NULL)
        return false;
    srv_txn_t *ddl = srv_txn_take(c);
    if (c->implicit_failed) {   /* every failed statement went through srv__fail */
        srv_txn_free(ddl);
        return false;
    }
    cm_err_t err = {0};
    srv_run_rc_t rc = srv__commit_ddl(c, ddl, srv__implicit_committed, &err);
    if (rc == SRV_RUN_BUSY)
        return true;
    if (rc == SRV_RUN_ERROR)
        srv__fail(c, &err);
    return false;
}

/*
 * srv_ctas.c: CREATE TABLE AS and SELECT INTO with their rows.
 *
 * DDL and writes do not share a commit yet, so the statement runs as two
 * steps (pln_ctas_split): the table is created WITH NO DATA (synchronous DDL:
 * every worker has it once that answers), then an INSERT INTO it of the
 * query copies the rows off the loop, at one step. When the copy fails (an
 * error in the query, cancel, statement_timeout), the table is dropped again
 * and the copy's error is the statement's, so nothing is left behind, as in
 * PostgreSQL. What differs: another session may see the empty table between
 * the two steps. The tag is PostgreSQL's "SELECT n"; a table that exists
 * under IF NOT EXISTS gets its notice and "CREATE TABLE AS".
 */
#include "server/srv_exec_int.h"

#include <stdio.h>
#include <string.h>

typedef struct srv_ctas {
    const char *sql;           /* the statement's query string (positions point into it) */
    pln_raw_t *insert;         /* INSERT INTO the table of the query, bound once it exists */
    const char *table;         /* its name as written, quoted, for the DROP after a failure */
    cm_err_t failed;           /* the copy's error, answered once the table is gone */
} srv_ctas_t;

static void srv__ctas_end(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    srv_ctas_t *k = c->ctas;
    c->ctas = NULL;
    if (k != NULL && err == NULL && k->failed.set) {
        /* k lives in the statement's arena, which ending the statement resets: its error first. */
        cm_err_t failed = k->failed;
        memset(&k->failed, 0, sizeof k->failed);
        srv__stmt_done(c, &failed, NULL);
        cm_err_clear(&failed);
        return;
    }
    if (k != NULL)
        cm_err_clear(&k->failed);
    srv__stmt_done(c, err, tag);
}

/* The DROP that undoes the table answered: the copy's error is the answer either way. */
static void srv__ctas_dropped(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    (void)tag;
    if (err != NULL)
        cm_log_warn("ctas: could not drop the table of a failed CREATE TABLE AS: %s", err->message);
    srv__ctas_end(c, NULL, NULL);
}

/* Undoes the created table after the copy failed with k->failed. */
static void srv__ctas_undo(srv_conn_t *c)
{
    srv_ctas_t *k = c->ctas;
    size_t n = strlen(k->table) + sizeof "DROP TABLE ";
    char *text = cm_arena_alloc(&c->arena, n);
    snprintf(text, n, "DROP TABLE %s", k->table);
    cm_err_t err = {0};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    bool ok = pln_parse(&c->arena, text, strlen(text), &raws, &err) && raws.count == 1 &&
              pln_bind_catalog(&c->arena, raws.items[0], text, NULL, 0, &c->sess.settings, srv_catalog_for(c), false,
                               &st, &err);
    if (ok) {
        switch (srv_ddl_run(c, st, text, srv__ctas_dropped, &err)) {
        case SRV_DDL_BUSY:
            return;
        case SRV_DDL_DONE:
            srv__ctas_end(c, NULL, NULL);
            return;
        case SRV_DDL_ERROR:
            break;
        }
    }
    srv__ctas_dropped(c, &err, NULL);
    cm_err_clear(&err);
}

/* The copy ended (srv__run_ctas_copy): its tag, or drop the table and answer its error. */
static void srv__ctas_copied(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    srv_cancel_stmt_end(&c->cancel);
    if (err == NULL) {
        srv__ctas_end(c, NULL, tag);
        return;
    }
    srv_ctas_t *k = c->ctas;
    cm_err_move(&k->failed, err);
    srv__ctas_undo(c);
}

/* The table exists on every worker: bind the copy against the snapshot that holds it and run it. */
static void srv__ctas_created(srv_conn_t *c, cm_err_t *err, const char *tag)
{
    (void)tag;
    if (err != NULL) {
        srv__ctas_end(c, err, NULL);
        return;
    }
    srv_ctas_t *k = c->ctas;
    cm_err_t e = {0};
    pln_stmt_t *ins = NULL;
    if (pln_bind_catalog(&c->arena, k->insert, k->sql, NULL, 0, &c->sess.settings, srv_catalog_for(c), false, &ins,
                         &e) &&
        ins->kind == PLN_WRITE && plan_error_raise(ins->write->error, &e)) {
        srv_cancel_stmt_begin(&c->cancel);
        if (srv__run_ctas_copy(c, ins, k->sql, srv__ctas_copied, &e) == SRV_RUN_BUSY)
            return;
        srv_cancel_stmt_end(&c->cancel);
    }
    if (!e.set)
        cm_err_set(&e, CM_ERRCODE_INTERNAL_ERROR, "CREATE TABLE AS could not copy its rows");
    cm_err_move(&k->failed, &e);
    srv__ctas_undo(c);
}

bool srv_ctas_applies(const srv_conn_t *c, const pln_stmt_t *st)
{
    if (c->xact == 'T' || c->txn != NULL || !srv_wtxn_empty(c->wtxn))
        return false;
    return pln_ctas_split(NULL, st, NULL, NULL, NULL);
}

srv_run_rc_t srv_ctas_run(srv_conn_t *c, const pln_stmt_t *st, const char *sql, cm_err_t *err)
{
    pln_stmt_t *create;
    pln_raw_t *insert;
    const char *table;
    if (!pln_ctas_split(&c->arena, st, &create, &insert, &table))
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "not a CREATE TABLE AS with rows"), SRV_RUN_ERROR;
    srv_ctas_t *k = cm_arena_zalloc(&c->arena, sizeof *k);
    k->sql = sql;
    k->insert = insert;
    k->table = table;
    c->ctas = k;
    switch (srv_ddl_run(c, create, sql, srv__ctas_created, err)) {
    case SRV_DDL_BUSY:
        return SRV_RUN_BUSY;
    case SRV_DDL_DONE:
        /* IF NOT EXISTS of a table that is there: its notice is sent; nothing is copied. */
        c->ctas = NULL;
        srv__complete(c, create->tag);
        return SRV_RUN_OK;
    case SRV_DDL_ERROR:
        break;
    }
    c->ctas = NULL;
    return SRV_RUN_ERROR;
}

/*
 * srv_txn.c: DDL inside an explicit transaction block (BEGIN ... COMMIT),
 * as PostgreSQL: visible to the block's later statements only, committed
 * all at once at COMMIT, gone at ROLLBACK or when an error aborted the block.
 *
 * While the block runs, the session plans each DDL statement against its own
 * overlay of the catalog (cat_txn_t: the loop's snapshot when the block's
 * first DDL ran, plus the block's statements), which srv_catalog_for gives
 * every statement of the session, and keeps the statement's text. COMMIT
 * hands the texts to srv_ddl.c, which binds and plans them again, one
 * after the other, against the head it commits on (other sessions may have
 * committed meanwhile) and commits the result as one catalog entry
 * (cat_txn_commit); a conflict found then (42P07 ...) fails the COMMIT and
 * nothing of the block stays, as PostgreSQL's COMMIT would fail on a unique
 * violation. Errors found at COMMIT carry no position: the text they would
 * point into is not the COMMIT's.
 *
 * The implicit transaction of a query string with several statements holds
 * its DDL the same way, committed when the string ends (srv_exec_txn.c).
 */
#include "server/srv_int.h"

#include <stdlib.h>
#include <string.h>

struct srv_txn {
    cat_txn_t *ct;            /* the session's overlay while the block runs */
    char **sqls;              /* each DDL's query string, malloc'd */
    int *offs;                /* the statement's byte offset in it */
    size_t n, cap;
};

void srv_txn_free(srv_txn_t *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++)
        free(t->sqls[i]);
    free(t->sqls);
    free(t->offs);
    cat_txn_free(t->ct);
    free(t);
}

void srv_txn_discard(srv_conn_t *c)
{
    srv_txn_free(c->txn);
    c->txn = NULL;
}

const cat_snap_t *srv_txn_snap(const srv_conn_t *c)
{
    return c->txn && c->txn->ct ? cat_txn_snap(c->txn->ct) : NULL;
}

srv_txn_t *srv_txn_take(srv_conn_t *c)
{
    srv_txn_t *t = c->txn;
    c->txn = NULL;
    if (t && t->n == 0) {
        srv_txn_free(t);
        return NULL;
    }
    return t;
}

/* The statement at byte offset off of sql, parsed and bound against cat. */
static bool srv__bind_at(cm_arena_t *a, const char *sql, int off, const ty_settings_t *settings,
                         const pln_catalog_t *cat, pln_stmt_t **st, cm_err_t *err)
{
    pln_raw_list_t raws;
    if (!pln_parse(a, sql, strlen(sql), &raws, err))
        return false;
    for (int i = 0; i < raws.count; i++) {
        int o, len;
        pln_raw_span(raws.items[i], &o, &len);
        if (o == off || raws.count == 1)
            return pln_bind_catalog(a, raws.items[i], sql, NULL, 0, settings, cat, false, st, err);
    }
    return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "a statement of the transaction block was not found again");
}

bool srv_txn_ddl(srv_conn_t *c, const pln_stmt_t *st, const char *sql, int off, cm_err_t *err)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s needs the catalog", st->tag);
    if (c->txn == NULL)
        c->txn = cm_calloc(1, sizeof *c->txn);
    srv_txn_t *t = c->txn;
    if (t->ct == NULL)
        t->ct = cat_txn_new(srv_catalog_loop_snap(c));
    cm_arena_t a;
    cm_arena_init(&a, 0);
    cat_change_t *ch = cat_change_new();
    bool ok = pln_ddl_plan(&a, st, sql, &c->sess.settings, srv_catalog_for(c), ch, err) &&
              cat_txn_add(t->ct, ch, st->tag, srv_roles_entry_sql(st->tag, sql), err);
    if (!ok && c->xact == 'I' && strcmp(err->sqlstate, "54000") == 0)
        cm_err_set_hint(err, "A query string with several statements, like the extended protocol's messages "
                             "up to Sync, is one transaction, as in PostgreSQL: send its DDL in several.");
    if (ok) {
        for (size_t i = 0; i < cat_change_notice_count(ch); i++) {
            cm_err_t n = *cat_change_notice(ch, i);
            if (n.severity != CM_SEV_WARNING)
                n.severity = CM_SEV_NOTICE;
            srv_put_error(&c->out, 'N', &n);
        }
        if (cat_change_op_count(ch) > 0) {
            if (t->n == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 8;
                t->sqls = cm_realloc(t->sqls, t->cap * sizeof(char *));
                t->offs = cm_realloc(t->offs, t->cap * sizeof(int));
            }
            t->sqls[t->n] = cm_strdup(sql);
            t->offs[t->n++] = off;
        }
    }
    cat_change_free(ch);
    cm_arena_free(&a);
    return ok;
}

cat_commit_t *srv_txn_build(const srv_txn_t *t, srv_conn_t *c, const cat_snap_t *snap, const cat_head_t *head,
                            const uint8_t uuid[16], const cat_limits_t *limits, cm_err_t *err)
{
    cat_txn_t *x = cat_txn_new(snap);
    const pln_catalog_t *conn_cat = srv_catalog_for(c);
    pln_catalog_t cat = {.snap = cat_txn_snap(x), .search = conn_cat ? conn_cat->search : (cat_search_t){0}};
    bool ok = true;
    for (size_t i = 0; ok && i < t->n; i++) {
        cm_arena_t a;
        cm_arena_init(&a, 0);
        pln_stmt_t *st = NULL;
        cat_change_t *ch = cat_change_new();
        cat.snap = cat_txn_snap(x);
        ok = srv__bind_at(&a, t->sqls[i], t->offs[i], &c->sess.settings, &cat, &st, err) && st->kind == PLN_DDL &&
             pln_ddl_plan(&a, st, t->sqls[i], &c->sess.settings, &cat, ch, err) &&
             cat_txn_add(x, ch, st->tag, srv_roles_entry_sql(st->tag, t->sqls[i]), err);
        if (!ok && !err->set)
            cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "a statement of the transaction block is not DDL again");
        cat_change_free(ch);
        cm_arena_free(&a);
    }
    cat_commit_t *commit = ok ? cat_txn_commit(x, head, uuid, limits, err) : NULL;
    if (!commit && err->set)
        err->position = 0;
    cat_txn_free(x);
    return commit;
}

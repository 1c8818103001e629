/*
 * srv_revalidate.c: a prepared statement whose binding read the catalog is
 * bound again from its text before its next use once the catalog moved, as
 * PostgreSQL's plan cache revalidates a cached plan after DDL. Names are
 * looked up again (a dropped or renamed relation is 42P01, positioned in
 * the query string the statement came in, as PostgreSQL reports it); the parameter types stay what they
 * were; a result shape that changed (columns, names, types, modifiers) is
 * 0A000 "cached plan must not change result type" and the statement keeps
 * its old plan, so the next use tries again (the change may be undone).
 * The new plan lives in the statement's arena: rebinds happen only after
 * DDL, so the arena's growth is bounded by the number of catalog changes.
 */
#include "server/srv_int.h"

#include <string.h>

static bool srv__same_result(const srv_cols_t *x, const srv_cols_t *y)
{
    if (x->rows != y->rows || x->n != y->n)
        return false;
    for (int i = 0; i < x->n; i++)
        if (x->types[i] != y->types[i] || x->fields[i].typmod != y->fields[i].typmod ||
            strcmp(x->fields[i].name, y->fields[i].name) != 0)
            return false;
    return true;
}

bool srv_stmt_revalidate(srv_conn_t *c, srv_stmt_t *st, cm_err_t *err)
{
    const pln_stmt_t *old = st->plan;
    if (old == NULL || old->catalog_index == 0 || old->kind == PLN_DDL ||
        old->catalog_index == srv_catalog_index(c) || srv_catalog_for(c) == NULL)
        return true;
    pln_raw_list_t raws;
    pln_stmt_t *plan = NULL;
    bool ok = pln_parse(&st->arena, st->sql, st->sql_len, &raws, err) && raws.count == 1 &&
              pln_bind_catalog(&st->arena, raws.items[0], st->sql, old->param_types, old->nparams,
                               &c->sess.settings, srv_catalog_for(c), true, &plan, err);
    if (ok && plan->kind == PLN_PREPARE) {
        /* A PREPARE keeps the whole statement's text: bind what it prepares, as PREPARE did. */
        const char *text;
        size_t len;
        pln_stmt_t *outer = plan;
        ok = pln_prepare_bind(&st->arena, outer, st->sql, &c->sess.settings, srv_catalog_for(c), &plan, &text, &len,
                              err);
    }
    if (!ok) {
        if (!err->set)
            cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "prepared statement \"%s\" could not be bound again", st->name);
        if (st->from_sql && err->position > 0 && st->source != NULL) {
            /* Counted in the PREPARE's own text: PostgreSQL counts in the whole string it came in. */
            int chars = 0;
            for (int i = 0; i < st->source_off && st->source[i]; i++)
                chars += ((unsigned char)st->source[i] & 0xC0) != 0x80;
            err->position += chars;
        }
        return false;
    }
    srv_cols_t cols = {0};
    srv_cols_build(c, plan, &st->arena, &cols);
    if (plan->nparams != old->nparams || !srv__same_result(&cols, &st->cols))
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cached plan must not change result type");
    st->plan = plan;
    return true;
}

/*
 * pln_view.c: an ordinary view named in FROM is its stored query bound in
 * place, as PostgreSQL's rewriter expands a view's rule: a subquery under
 * the view's name (or the alias written) whose columns carry the view's
 * names, types and origin (the view's OID, for Describe). The stored query
 * names every relation fully qualified, so it reads the same relations
 * whatever the reading session's search_path is. What the view reads is
 * noted as read by the statement (the 0A000 gate and the workers' Peek see
 * tables and materialized views only), but it is not a dependency of the
 * statement: a view created over this one depends on the view alone, as in
 * PostgreSQL.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* The views being expanded, innermost first: a view reaching itself again is PostgreSQL's 42P17. */
typedef struct pln_inline {
    const cat_item_t *view;
    const struct pln_inline *outer;
} pln_inline_t;

static const sql_select_t *view__query(pln_binder_t *b, const cat_item_t *view, int pos)
{
    sql_stmt_list_t stmts;
    cm_err_t e = {0};
    const char *sql = view->create_sql ? view->create_sql : "";
    if (!sql_parse(b->arena, sql, strlen(sql), &stmts, &e) || stmts.count != 1 ||
        stmts.items[0]->kind != SQL_STMT_CREATE_VIEW) {
        pln__error(b, pos, CM_ERRCODE_INTERNAL_ERROR, "the definition of view \"%s\" does not parse: %s", view->name,
                   e.set ? e.message : "not one CREATE VIEW");
        cm_err_clear(&e);
        return NULL;
    }
    return stmts.items[0]->create_view->query;
}

bool pln__bind_view_ref(pln_binder_t *b, const sql_from_t *f, const cat_item_t *view, pln_scope_t *sc,
                        plan_rel_t **rel)
{
    const char *alias = f->alias ? f->alias : view->name;
    int ncols = (int)view->ncolumns;
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols)
        return pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias,
                          ncols, naliases);
    for (const pln_inline_t *in = b->inlining; in; in = in->outer)
        if (in->view->id == view->id)
            return pln__error(b, -1, "42P17", "infinite recursion detected in rules for relation \"%s\"", view->name);
    const sql_select_t *query = view__query(b, view, f->pos);
    if (!query)
        return false;
    /* The view's query is a scope of its own: it sees neither the reading query's
     * names nor its WITH queries, and what it reads renames nothing in the statement. */
    pln_inline_t level = {.view = view, .outer = b->inlining};
    pln_scope_t inner = {.outer = NULL, .id = ++b->nscopes, .open_sublink = -1};
    pln_binder_t saved = *b;
    b->scope = &inner;
    b->aggs = NULL;
    b->agg_forbidden = NULL;
    b->wins = NULL;
    b->win_forbidden = NULL;
    b->srfs = NULL;
    b->setop_leaf = false;
    b->with = NULL;
    b->note_cols = false;
    b->inlining = &level;
    /* A view reads what it reads with its owner's rights, as PostgreSQL's views do. */
    b->in_view = true;
    b->view_owner = view->acl.owner;
    b->sql = view->create_sql;
    b->sql_len = strlen(view->create_sql);
    pln_bound_t q;
    bool ok = pln__bind_select(b, query, &q);
    b->scope = saved.scope;
    b->aggs = saved.aggs;
    b->agg_forbidden = saved.agg_forbidden;
    b->wins = saved.wins;
    b->win_forbidden = saved.win_forbidden;
    b->srfs = saved.srfs;
    b->setop_leaf = saved.setop_leaf;
    b->in_view = saved.in_view;
    b->view_owner = saved.view_owner;
    b->with = saved.with;
    b->note_cols = saved.note_cols;
    b->inlining = saved.inlining;
    b->sql = saved.sql;
    b->sql_len = saved.sql_len;
    if (!ok) {
        b->err->position = 0;   /* it would count in the view's text, which this statement does not have */
        return false;
    }
    if (q.ncols != ncols)
        return pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR, "view \"%s\" has %d columns but its query has %d",
                          view->name, ncols, q.ncols);
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++) {
        const cat_column_t *c = &view->columns[i];
        if (q.cols[i].type != c->type)
            return pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR,
                              "column \"%s\" of view \"%s\" is of type %s but its query yields %s", c->name,
                              view->name, pln__type_name(b, c->type), pln__type_name(b, q.cols[i].type));
        cols[i] = q.cols[i];
        cols[i].name = i < naliases ? f->col_aliases->items[i] : c->name;
        cols[i].table_oid = view->oid;
        cols[i].attnum = (int16_t)(i + 1);
    }
    *rel = q.rel;
    if (!pln__add_rte(b, sc, alias, ncols, cols))
        return false;
    sc->rtes[sc->nrtes - 1].item = view;
    sc->rtes[sc->nrtes - 1].naliased = naliases;
    return true;
}

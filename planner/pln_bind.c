/*
 * pln_bind.c: the planner's entry points for statements: pln_parse wraps
 * the parser's statements, pln_bind turns one into a pln_stmt_t: session
 * commands (SET/SHOW/RESET/transactions/DISCARD) pass their arguments
 * through, and queries become relational plans (pln_select.c) with
 * PostgreSQL's column names, types and typmods, folded constants, and the
 * types of their $n parameters declared or inferred.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln_parse(cm_arena_t *arena, const char *sql, size_t len, pln_raw_list_t *out, cm_err_t *err)
{
    sql_stmt_list_t list;
    if (!sql_parse(arena, sql, len, &list, err))
        return false;
    /* An empty string is one empty statement, so it can be prepared and executed too. */
    int n = list.count ? list.count : 1;
    out->count = n;
    out->items = cm_arena_alloc(arena, sizeof(pln_raw_t *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        pln_raw_t *r = cm_arena_zalloc(arena, sizeof(*r));
        if (list.count) {
            r->stmt = list.items[i];
            r->offset = r->stmt->pos;
            r->length = r->stmt->len;
        }
        out->items[i] = r;
    }
    return true;
}

void pln_raw_span(const pln_raw_t *raw, int *offset, int *length)
{
    *offset = raw->offset;
    *length = raw->length;
}

/* ============================================================ queries */

static bool has_blocking(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_BLOCKING);
}

bool pln__plan_query(pln_binder_t *b, const sql_select_t *s, const plan_error_t **kept, pln_bound_t *q, plan_t **out)
{
    if (!pln__bind_select(b, s, q))
        return false;
    /* Literal conversions, then every expression, as PostgreSQL's planner folds them. */
    if (!pln__fold_literals(b))
        return false;
    /* Optimized before folding: an expression pruning drops is never evaluated, as in PostgreSQL. */
    /* A plan reading columns its rows lack is a planner bug: refused here, before the optimizer
     * rewrites it or anything runs it, rather than reading or writing past a row. */
    bool columns_ok = plan_rel_columns_ok(q->rel);
    for (int i = 0; columns_ok && i < b->nsublinks; i++)
        columns_ok = plan_rel_columns_ok(b->sublinks[i].rel);
    if (!columns_ok)
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "internal error: the plan of this query reads a column "
                                                            "its input does not have");
    /* A decorrelated sublink's operators are part of the query's plan (some shared): not again. */
    pln__optimize(b, &q->rel);
    for (int i = 0; i < b->nsublinks; i++)
        if (!b->sublinks[i].joined)
            pln__optimize(b, &b->sublinks[i].rel);
    /* And after: an optimizer pass's mistake is refused the same way. */
    columns_ok = plan_rel_columns_ok(q->rel);
    for (int i = 0; columns_ok && i < b->nsublinks; i++)
        columns_ok = b->sublinks[i].joined || plan_rel_columns_ok(b->sublinks[i].rel);
    if (!columns_ok)
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "internal error: the optimized plan of this query reads "
                                                            "a column its input does not have");
    bool planned = pln__fold_rel(b, q->rel);
    for (int i = 0; planned && i < b->nsublinks; i++)
        planned = b->sublinks[i].joined || pln__fold_rel(b, b->sublinks[i].rel);
    if (!planned) {
        /* Folding is planning, not analysis: with kept the statement
         * stays describable and the error waits for Bind. A partly
         * folded tree is still a correct one, but it never runs. */
        if (!kept)
            return false;
        *kept = plan_error_keep(b->arena, b->err);
    }
    plan_t *pq = cm_arena_zalloc(b->arena, sizeof(*pq));
    pq->root = q->rel;
    pq->ncols = q->ncols;
    pq->nlits = b->nlits;
    pq->lits = b->lits;
    pq->nsublinks = b->nsublinks;
    pq->sublinks = pln__plan_sublinks(b);
    *out = pq;
    return true;
}

static bool bind_query(pln_binder_t *b, const sql_select_t *s, pln_stmt_t *st)
{
    pln_bound_t q;
    if (!pln__plan_query(b, s, b->defer_plan_errors ? &st->plan_error : NULL, &q, &st->query))
        return false;
    st->kind = PLN_QUERY;
    st->tag = "SELECT";
    st->ncols = q.ncols;
    st->cols = q.cols;
    for (int i = 0; i < q.ncols; i++)
        st->cols[i].typmod = pln__typmod_out(st->cols[i].type, st->cols[i].typmod);
    st->blocking = plan_rel_any(q.rel, has_blocking);
    for (int i = 0; i < b->nsublinks; i++)
        st->blocking |= plan_rel_any(b->sublinks[i].rel, has_blocking);
    /* Tables and materialized views are read from the workers' arrangements at the read's
     * step (views are expanded into what they read); other relations (sources) have no rows
     * to read until their dataflows are built. Names, columns and types are known either
     * way, so Describe is right. */
    const cat_item_t *unread = NULL;
    for (int i = 0; i < b->nreads && !unread; i++)
        if (b->read_item[i]->kind != CAT_ITEM_TABLE && b->read_item[i]->kind != CAT_ITEM_MATVIEW)
            unread = b->read_item[i];
    if (unread && st->plan_error == NULL && !b->explain) {
        const cat_item_t *it = unread;
        pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "reading %s \"%s\" needs the dataflow engine, which is not built yet",
                   cat_item_kind_name(it->kind), it->name);
        if (!b->defer_plan_errors)
            return false;
        st->plan_error = plan_error_keep(b->arena, b->err);
    }
    return true;
}

bool pln__bind_query_stmt(pln_binder_t *b, const sql_select_t *s, pln_stmt_t *st)
{
    return bind_query(b, s, st);
}

/* ============================================================ commands */

static const char *lower_dup(pln_binder_t *b, const char *s)
{
    char *c = cm_arena_strdup(b->arena, s);
    cm_str_lower(c);
    return c;
}

/* SET's value as text: list items joined with ", ", as PostgreSQL flattens them. */
const char *pln__set_value(pln_binder_t *b, const sql_list_t *values)
{
    cm_buf_t v;
    cm_buf_init(&v, 0);
    for (int i = 0; i < sql_list_len(values); i++) {
        const sql_expr_t *e = values->items[i];
        if (i)
            cm_buf_put_str(&v, ", ");
        cm_buf_put(&v, e->str, e->len);
    }
    const char *s = cm_arena_strndup(b->arena, v.len ? (const char *)v.data : "", v.len);
    cm_buf_free(&v);
    return s;
}

static void bind_modes(pln_stmt_t *st, const sql_txn_modes_t *m)
{
    st->isolation = m->isolation;
    st->read_only = m->read_only == 1;
}

static bool bind_command(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    static const char *const discard_tags[] = {"DISCARD ALL", "DISCARD PLANS", "DISCARD SEQUENCES", "DISCARD TEMP"};
    static const char *const discard_names[] = {"all", "plans", "sequences", "temp"};
    switch (s->kind) {
    case SQL_STMT_SET:
        st->kind = PLN_SET;
        st->tag = "SET";
        st->var_name = lower_dup(b, s->var_name);
        st->var_value = s->set_default ? NULL : pln__set_value(b, s->var_values);
        st->set_local = s->set_local;
        return true;
    case SQL_STMT_SET_TRANSACTION:
        st->kind = PLN_SET_TRANSACTION;
        st->tag = "SET";
        st->var_name = s->session_chars ? "default_transaction_isolation" : "transaction_isolation";
        st->var_value = s->modes.isolation;
        bind_modes(st, &s->modes);
        return true;
    case SQL_STMT_SHOW:
        st->kind = PLN_SHOW;
        st->tag = "SHOW";
        st->var_name = lower_dup(b, s->var_name);
        if (strcmp(st->var_name, "all") == 0) {
            static const char *const names[] = {"name", "setting", "description"};
            st->ncols = 3;
            st->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t) * 3);
            for (int i = 0; i < 3; i++)
                st->cols[i] = (plan_column_t){names[i], TY_TEXT, -1};
        } else {
            st->ncols = 1;
            st->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t));
            st->cols[0] = (plan_column_t){st->var_name, TY_TEXT, -1};
        }
        return true;
    case SQL_STMT_RESET:
        st->kind = PLN_RESET;
        st->tag = "RESET";
        st->var_name = s->var_name ? lower_dup(b, s->var_name) : NULL;
        return true;
    case SQL_STMT_BEGIN:
        st->kind = PLN_BEGIN;
        st->tag = s->start_transaction ? "START TRANSACTION" : "BEGIN";
        bind_modes(st, &s->modes);
        return true;
    case SQL_STMT_COMMIT:
        st->kind = PLN_COMMIT;
        st->tag = "COMMIT";
        return true;
    case SQL_STMT_ROLLBACK:
        st->kind = PLN_ROLLBACK;
        st->tag = "ROLLBACK";
        return true;
    case SQL_STMT_DISCARD:
        st->kind = PLN_DISCARD;
        st->tag = discard_tags[s->discard];
        st->var_name = discard_names[s->discard];
        return true;
    case SQL_STMT_PREPARE:
    case SQL_STMT_EXECUTE:
    case SQL_STMT_DEALLOCATE:
        return pln__bind_sqlprep(b, s, st);
    case SQL_STMT_DECLARE:
    case SQL_STMT_FETCH:
    case SQL_STMT_CLOSE:
        return pln__bind_cursor(b, s, st);
    case SQL_STMT_UNSUPPORTED:
    case SQL_STMT_CREATE_TABLE:
    case SQL_STMT_CREATE_SOURCE:
    case SQL_STMT_CREATE_VIEW:
    case SQL_STMT_CREATE_INDEX:
    case SQL_STMT_CREATE_SCHEMA:
    case SQL_STMT_CREATE_DATABASE:
    case SQL_STMT_DROP:
    case SQL_STMT_ALTER_RENAME:
    case SQL_STMT_GRANT:
    case SQL_STMT_CREATE_ROLE:
    case SQL_STMT_ALTER_ROLE:
    case SQL_STMT_DROP_ROLE:
    case SQL_STMT_GRANT_ROLE:
    case SQL_STMT_REVOKE_ROLE:
    case SQL_STMT_REASSIGN_OWNED:
    case SQL_STMT_DROP_OWNED:
    case SQL_STMT_INSERT:
    case SQL_STMT_UPDATE:
    case SQL_STMT_DELETE:
    case SQL_STMT_COPY:
    case SQL_STMT_TRUNCATE:
    case SQL_STMT_SUBSCRIBE:   /* bound before it gets here */
    case SQL_STMT_SHOW_OBJECTS:
    case SQL_STMT_SHOW_COLUMNS:
    case SQL_STMT_SHOW_CREATE:
    case SQL_STMT_EXPLAIN:
        /* Parsed, not bound yet: the catalog and the statement binders come next. */
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", sql_stmt_name(s));
    case SQL_STMT_EMPTY:
    case SQL_STMT_SELECT:
        break;
    }
    return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "unexpected statement kind %d", (int)s->kind);
}

bool pln_bind(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared, int ndeclared,
              pln_stmt_t **out, cm_err_t *err)
{
    return pln_bind_session(arena, raw, sql, declared, ndeclared, NULL, out, err);
}

static bool bind_stmt(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, const pln_catalog_t *cat,
                      bool defer_plan_errors, bool explain, bool join_sublinks, pln_stmt_t **out, cm_err_t *err)
{
    pln_binder_t b = {.arena = arena, .sql = sql, .sql_len = sql ? strlen(sql) : 0, .err = err,
                      .defer_plan_errors = defer_plan_errors, .explain = explain, .join_sublinks = join_sublinks,
                      .cat = cat};
    if (settings) {
        b.settings = *settings;
        b.settings_known = true;
    } else {
        ty_settings_default(&b.settings);
    }
    b.ctx.arena = arena;
    b.ctx.settings = &b.settings;
    b.ctx.err = err;
    pln__ctx_catalog(&b.ctx, cat);
    if (ndeclared > PLN_PARAMS_MAX)
        ndeclared = PLN_PARAMS_MAX;
    if (ndeclared > 0) {
        b.params_cap = ndeclared;
        b.nparams = ndeclared;
        b.param_types = cm_arena_zalloc(arena, sizeof(ty_oid_t) * (size_t)ndeclared);
        memcpy(b.param_types, declared, sizeof(ty_oid_t) * (size_t)ndeclared);
    }
    pln_stmt_t *st = cm_arena_zalloc(arena, sizeof(*st));
    *out = NULL;
    const sql_stmt_t *s = raw->stmt;
    bool ok;
    if (!s) {
        st->kind = PLN_EMPTY;
        st->tag = "";
        ok = true;
    } else if (s->kind == SQL_STMT_SELECT) {
        ok = bind_query(&b, s->select, st);
    } else if (pln__is_ddl(s)) {
        ok = pln__bind_ddl(&b, s, st);
    } else if (pln__is_show_catalog(s)) {
        ok = pln__bind_show(&b, s, st);
    } else if (s->kind == SQL_STMT_EXPLAIN) {
        ok = pln__bind_explain(&b, s, st);
    } else if (s->kind == SQL_STMT_SUBSCRIBE) {
        ok = pln__bind_subscribe(&b, s->subscribe, st);
    } else if (s->kind == SQL_STMT_COPY && s->copy->to) {
        ok = pln__bind_copy_to(&b, s, st);
    } else if (pln__is_write(s)) {
        ok = pln__bind_write(&b, s, st);
    } else {
        ok = bind_command(&b, s, st);
    }
    if (!ok)
        return false;
    /* PostgreSQL checks privileges when a statement starts executing: one prepared (Parse,
     * PREPARE) keeps what it needs and is checked at each Bind and EXECUTE as the user then
     * (pln_check_privileges). */
    bool prepared = defer_plan_errors && (st->kind == PLN_QUERY || st->kind == PLN_WRITE);
    if (!prepared && !pln__raise_denied(&b))
        return false;
    if (prepared && !b.denied) {
        st->perms = b.perms;
        st->nperms = b.nperms;
    } else if (prepared && !pln__raise_denied(&b)) {
        return false;   /* pg_authid: refused whoever runs it */
    }
    /* Every parameter needs a type by now; references made before it was known take it. */
    for (int i = 0; i < b.nparams; i++) {
        if (b.param_types[i] == 0 || b.param_types[i] == TY_UNKNOWN) {
            int pos = -1;
            for (int k = 0; k < b.nparam_nodes; k++)
                if (b.param_nodes[k]->index == i) {
                    pos = b.param_nodes[k]->location;
                    break;
                }
            return pln__error(&b, pos, CM_ERRCODE_INDETERMINATE_DATATYPE,
                              "could not determine data type of parameter $%d", i + 1);
        }
    }
    for (int k = 0; k < b.nparam_nodes; k++)
        b.param_nodes[k]->type = b.param_types[b.param_nodes[k]->index];
    st->nparams = b.nparams;
    st->param_types = b.param_types;
    if (cat && cat->snap &&
        (b.nrels > 0 || st->kind == PLN_DDL || st->kind == PLN_WRITE || pln__is_show_catalog(s) ||
         (s && s->kind == SQL_STMT_EXPLAIN)))
        st->catalog_index = cat_snap_index(cat->snap);
    if (st->kind == PLN_WRITE) {
        for (int i = 0; i < st->ncols; i++)
            st->cols[i].typmod = pln__typmod_out(st->cols[i].type, st->cols[i].typmod);
        /* Each plan of the write carries the statement's parameters and catalog index, as a query's does. */
        for (plan_write_t *w = st->write; w; w = (plan_write_t *)w->next)
            if (w->plan) {
                w->plan->nparams = st->nparams;
                w->plan->param_types = st->param_types;
                w->plan->catalog_index = st->catalog_index;
                w->plan->error = st->plan_error;
            }
    }
    if (st->kind == PLN_QUERY) {
        /* The plan carries what its statement knows, so that it can travel alone (plan_encode). */
        plan_t *pq = st->query;
        pq->cols = st->cols;
        pq->nparams = st->nparams;
        pq->param_types = st->param_types;
        pq->catalog_index = st->catalog_index;
        pq->error = st->plan_error;
        pq->blocking = st->blocking;
        pq->reads = plan_reads_relations(pq);
    }
    *out = st;
    return true;
}

bool pln_bind_session(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, pln_stmt_t **out, cm_err_t *err)
{
    return bind_stmt(arena, raw, sql, declared, ndeclared, settings, NULL, false, false, false, out, err);
}

bool pln_bind_catalog(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, const pln_catalog_t *cat,
                      bool defer_plan_errors, pln_stmt_t **out, cm_err_t *err)
{
    return bind_stmt(arena, raw, sql, declared, ndeclared, settings, cat, defer_plan_errors, false, false, out, err);
}

bool pln_bind_prepare(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, pln_stmt_t **out, cm_err_t *err)
{
    return bind_stmt(arena, raw, sql, declared, ndeclared, settings, NULL, true, false, false, out, err);
}

/* ============================================================ views */

/*
 * The query a view stands for, as SQL: the SELECT of its stored CREATE
 * (normalized, every relation qualified) deparsed, under the column names
 * it declares as PostgreSQL's view renames its query's columns. Binding
 * this text rather than the stored statement's tree keeps the plan's
 * positions counting in the query alone, as the sequencer's plan bytes
 * always have.
 */
static bool view_query_text(cm_arena_t *arena, const cat_item_t *view, const char **text, cm_err_t *err)
{
    sql_stmt_list_t stmts;
    const char *sql = view->create_sql ? view->create_sql : "";
    if (!sql_parse(arena, sql, strlen(sql), &stmts, err))
        return false;
    if (stmts.count != 1 || stmts.items[0]->kind != SQL_STMT_CREATE_VIEW)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the definition of \"%s\" is not a view",
                          pln__item_qualified(arena, view));
    const sql_create_view_t *cv = stmts.items[0]->create_view;
    cm_buf_t q;
    cm_buf_init(&q, 0);
    if (cv->columns == NULL) {
        sql_deparse_select(cv->query, &q);
    } else {
        cm_buf_put_str(&q, "SELECT * FROM (");
        sql_deparse_select(cv->query, &q);
        cm_buf_put_str(&q, ") AS v(");
        for (int i = 0; i < cv->columns->count; i++) {
            if (i > 0)
                cm_buf_put_str(&q, ", ");
            sql_deparse_ident(cv->columns->items[i], &q);
        }
        cm_buf_put_u8(&q, ')');
    }
    *text = cm_arena_strndup(arena, (const char *)q.data, q.len);
    cm_buf_free(&q);
    return true;
}

bool pln__bind_view(cm_arena_t *arena, const pln_catalog_t *cat, const cat_item_t *view, const ty_settings_t *settings,
                    bool defer_plan_errors, bool explain, pln_stmt_t **out, cm_err_t *err)
{
    const char *text = NULL;
    pln_raw_list_t raws;
    if (!view_query_text(arena, view, &text, err) || !pln_parse(arena, text, strlen(text), &raws, err))
        return false;
    if (raws.count != 1)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the query of \"%s\" is not one statement",
                          pln__item_qualified(arena, view));
    /* A materialized view's plan is the one its CREATE checked (pln_ddl.c): subqueries joined. */
    return bind_stmt(arena, raws.items[0], text, NULL, 0, settings, cat, defer_plan_errors, explain,
                     view->kind == CAT_ITEM_MATVIEW, out, err);
}

bool pln_bind_view(cm_arena_t *arena, const pln_catalog_t *cat, const cat_item_t *view, const ty_settings_t *settings,
                   bool defer_plan_errors, pln_stmt_t **out, cm_err_t *err)
{
    return pln__bind_view(arena, cat, view, settings, defer_plan_errors, false, out, err);
}

/* ============================================================ kept errors */

bool pln_plan_error_raise(const pln_stmt_t *stmt, cm_err_t *err)
{
    return plan_error_raise(stmt->plan_error, err);
}

/*
 * pln_explain.c: the statements EXPLAIN [PLAN FOR] query, EXPLAIN VIEW v
 * and EXPLAIN MATERIALIZED VIEW v. The query (or the view's stored
 * definition) is bound, optimized and folded exactly as it would be to
 * run, and the plan printer (plan/plan_explain.c) writes its plan, one row
 * per line in a single text column named "Optimized Plan", as Materialize
 * names it; EXPLAIN PHYSICAL PLAN FOR prints what the workers build
 * instead (pln_explain_physical.c), in a column "Physical Plan". A query
 * the engine cannot run yet (reading a source) is still explained, since
 * EXPLAIN shows what would run. The result is bound as a query over constant rows, so
 * Describe, portals and row limits work as for any query.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define EXPLAIN_COLUMN "Optimized Plan"
#define EXPLAIN_PHYSICAL_COLUMN "Physical Plan"

const char *pln__item_qualified(cm_arena_t *arena, const cat_item_t *it)
{
    cm_buf_t t;
    cm_buf_init(&t, 0);
    if (it->schema && it->schema->database) {
        cat_quote_ident(it->schema->database->name, &t);
        cm_buf_put_u8(&t, '.');
    }
    if (it->schema) {
        cat_quote_ident(it->schema->name, &t);
        cm_buf_put_u8(&t, '.');
    }
    cat_quote_ident(it->name, &t);
    const char *s = cm_arena_strndup(arena, (const char *)t.data, t.len);
    cm_buf_free(&t);
    return s;
}

/* A query planned as bind_query plans it to run, without the 0A000 of reading relations; folding errors fail. */
static bool bind_plan(pln_binder_t *b, const sql_select_t *s, plan_t **p)
{
    pln_bound_t q;
    return pln__plan_query(b, s, NULL, &q, p);
}

/*
 * EXPLAIN VIEW v: the view's query bound again from its stored definition
 * (pln_bind_view), as a dataflow of it would run it. Positions of errors in
 * it would point into text the user did not write, so they are dropped.
 */
static bool bind_view(pln_binder_t *b, const sql_explain_t *ex, plan_t **p, const char **header)
{
    if (ex->object == SQL_OBJ_INDEX)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "EXPLAIN INDEX is not supported yet");
    if (!b->cat || !b->cat->snap)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "EXPLAIN VIEW needs a catalog");
    cat_qname_t qn;
    if (!pln__qname(b, ex->name->names, ex->name->pos, &qn))
        return false;
    const cat_item_t *it = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, b->err);
    if (!it) {
        b->err->position = pln__char_pos(b->sql, ex->name->pos);
        return false;
    }
    bool mat = ex->object == SQL_OBJ_MATERIALIZED_VIEW;
    const char *name = pln__item_qualified(b->arena, it);
    if (it->kind != (mat ? CAT_ITEM_MATVIEW : CAT_ITEM_VIEW))
        return pln__error(b, ex->name->pos, "42809", "\"%s\" is not a %s", name,
                          mat ? "materialized view" : "view");
    /* The plan a dataflow of the view runs, bound with this statement's settings and catalog. */
    pln_stmt_t *vst;
    if (!pln__bind_view(b->arena, b->cat, it, b->settings_known ? &b->settings : NULL, false, true, &vst, b->err)) {
        b->err->position = 0;   /* it would count in the view's query, which the user did not write */
        return false;
    }
    *p = vst->query;
    *header = cm_arena_printf(b->arena, "%s:", name);
    return true;
}

bool pln__bind_explain(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    const sql_explain_t *ex = s->explain;
    if (sql_list_len(ex->options) > 0) {
        const sql_option_t *o = ex->options->items[0];
        return pln__error(b, o->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "EXPLAIN option \"%s\" is not supported",
                          o->name);
    }
    plan_t *p;
    const char *header = "Explained Query:";
    /* EXPLAIN PHYSICAL PLAN FOR CREATE [MATERIALIZED] VIEW: the view's query, planned as CREATE would. */
    const sql_create_view_t *cv = ex->physical && ex->stmt && ex->stmt->kind == SQL_STMT_CREATE_VIEW
                                      ? ex->stmt->create_view
                                      : NULL;
    bool dataflow = ex->physical && (cv ? cv->materialized : ex->object == SQL_OBJ_MATERIALIZED_VIEW);
    if (ex->name) {
        if (!bind_view(b, ex, &p, &header))
            return false;
    } else if (cv) {
        b->join_sublinks = cv->materialized;   /* planned as CREATE plans it (pln_ddl.c) */
        if (!bind_plan(b, cv->query, &p) || (cv->materialized && !plan_maintainable(p, b->err)))
            return false;
        header = pln__physical_header(b, cv->name);
    } else if (ex->stmt->kind != SQL_STMT_SELECT) {
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "EXPLAIN of %s is not supported yet",
                          sql_stmt_name(ex->stmt));
    } else if (!bind_plan(b, ex->stmt->select, &p)) {
        return false;
    }
    /* Constants print as the statement's context prints them: its settings, regclass names from its catalog. */
    const char **lines;
    int n;
    if (ex->physical) {
        if (!pln__physical_lines(b, p, header, dataflow, &lines, &n))
            return false;
    } else {
        n = plan_explain_lines(p, header, &b->ctx, b->arena, &lines);
    }

    /* The answer: one text row per line, run like any query over constant rows. */
    plan_rel_t *v = pln__rel_new(b, PLAN_REL_VALUES, NULL, 1);
    v->types[0] = TY_TEXT;
    v->nrows = n;
    v->rows = cm_arena_alloc(b->arena, sizeof(ty_expr_t **) * (size_t)n);
    for (int i = 0; i < n; i++) {
        ty_datum_t d = {.isnull = false};
        d.v.s.p = lines[i];
        d.v.s.len = (uint32_t)strlen(lines[i]);
        v->rows[i] = cm_arena_alloc(b->arena, sizeof(ty_expr_t *));
        v->rows[i][0] = ty_expr_const(b->arena, TY_TEXT, -1, d);
    }
    plan_t *pq = cm_arena_zalloc(b->arena, sizeof(*pq));
    pq->root = v;
    pq->ncols = 1;
    st->query = pq;
    st->kind = PLN_QUERY;
    st->tag = "EXPLAIN";   /* PostgreSQL's CommandComplete for EXPLAIN, whatever the row count */
    st->ncols = 1;
    st->cols = cm_arena_zalloc(b->arena, sizeof(plan_column_t));
    st->cols[0] = (plan_column_t){ex->physical ? EXPLAIN_PHYSICAL_COLUMN : EXPLAIN_COLUMN, TY_TEXT, -1};
    return true;
}

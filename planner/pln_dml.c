/*
 * pln_dml.c: what every write shares when it is bound (INSERT, UPDATE and
 * DELETE here and in pln_dml_insert.c / pln_dml_update.c, COPY FROM STDIN
 * and TRUNCATE in pln_copy.c): the statement's entry point, the target
 * table resolved and described into a plan_write_t (its columns, NOT NULL,
 * DEFAULTs bound and coerced, PRIMARY KEY / UNIQUE columns, CHECK
 * conditions bound over its row), the refusals PostgreSQL 15 gives for what
 * is not a table, assignment coercion with its 42804, RETURNING, and the
 * last step that folds and optimizes the rows' plan.
 *
 * PostgreSQL raises its errors at different moments, and so does eddy: a
 * column or type error while analysing (Parse), an unupdatable view when
 * rewriting (Parse, after every analysis error), a constant that fails to
 * fold and a foreign table without a handler while planning (kept for
 * Bind), a materialized view at executor start (kept in the write for
 * when it runs).
 */
#include "planner/pln_internal.h"

#include <stdlib.h>
#include <string.h>

bool pln__is_write(const sql_stmt_t *s)
{
    if (!s)
        return false;
    switch (s->kind) {
    case SQL_STMT_INSERT:
    case SQL_STMT_UPDATE:
    case SQL_STMT_DELETE:
    case SQL_STMT_TRUNCATE:
        return true;
    case SQL_STMT_COPY:
        return !s->copy->to && s->copy->table != NULL;
    default:
        return false;
    }
}

/* ============================================================ refusals */

/* PostgreSQL's words for the write, by kind: "cannot <verb> view", its hint's gerund and its rule event. */
static const char *verb_of(plan_write_kind_t k)
{
    switch (k) {
    case PLAN_WRITE_INSERT: return "insert into";
    case PLAN_WRITE_UPDATE: return "update";
    case PLAN_WRITE_DELETE: return "delete from";
    case PLAN_WRITE_COPY: return "copy to";
    case PLAN_WRITE_TRUNCATE: return "truncate";
    }
    return "write";
}

static bool view_refused(pln_binder_t *b, plan_write_kind_t k, const char *name, const char *detail)
{
    static const char *const gerund[] = {"inserting into", "updating", "deleting from"};
    static const char *const event[] = {"INSERT", "UPDATE", "DELETE"};
    if (k == PLAN_WRITE_COPY) {
        pln__error(b, -1, "42809", "cannot copy to view \"%s\"", name);
        cm_err_set_hint(b->err, "To enable copying to a view, provide an INSTEAD OF INSERT trigger.");
        return false;
    }
    if (k == PLAN_WRITE_TRUNCATE)
        return pln__error(b, -1, "42809", "\"%s\" is not a table", name);
    pln__error(b, -1, "55000", "cannot %s view \"%s\"", verb_of(k), name);
    cm_err_set_detail(b->err, "%s", detail);
    cm_err_set_hint(b->err, "To enable %s the view, provide an INSTEAD OF %s trigger or an unconditional ON %s DO INSTEAD rule.",
                    gerund[k], event[k], event[k]);
    return false;
}

/* PostgreSQL's own relations cannot be written; its views are not automatically updatable. */
static bool system_refused(pln_binder_t *b, plan_write_kind_t k, const char *name, bool view)
{
    if (view)
        return view_refused(b, k, name,
                            "Views that do not select from a single table or view are not automatically updatable.");
    return pln__error(b, -1, "42501", "permission denied: \"%s\" is a system catalog", name);
}

/* Aggregates, window functions and set-returning functions an expression calls (not inside subqueries). */
static void calls_in(const sql_expr_t *e, bool *agg, bool *win, bool *srf)
{
    if (!e)
        return;
    if (e->kind == SQL_EXPR_SUBQUERY) {
        calls_in(e->left, agg, win, srf);
        calls_in(e->arg, agg, win, srf);
        return;
    }
    if (e->kind == SQL_EXPR_FUNC && e->names && e->names->count > 0) {
        const char *name = e->names->items[e->names->count - 1];
        if (e->over)
            *win = true;
        else if (pln__is_aggregate(name))
            *agg = true;
        if (pln__is_srf_call(name))
            *srf = true;
    }
    calls_in(e->arg, agg, win, srf);
    calls_in(e->left, agg, win, srf);
    calls_in(e->right, agg, win, srf);
    calls_in(e->def, agg, win, srf);
    calls_in(e->agg_filter, agg, win, srf);
    for (int i = 0; i < sql_list_len(e->args); i++)
        calls_in(e->args->items[i], agg, win, srf);
}

/*
 * Why PostgreSQL would not update the view automatically
 * (view_query_is_auto_updatable, in its order); NULL when it would. eddy
 * updates no view yet, but PostgreSQL's reason is what a client expects.
 */
static const char *view_not_updatable(pln_binder_t *b, const cat_item_t *v)
{
    sql_stmt_list_t stmts;
    cm_err_t err = {0};
    if (!v->create_sql || !sql_parse(b->arena, v->create_sql, strlen(v->create_sql), &stmts, &err) ||
        stmts.count != 1 || stmts.items[0]->kind != SQL_STMT_CREATE_VIEW) {
        cm_err_clear(&err);
        return NULL;
    }
    const sql_select_t *q = stmts.items[0]->create_view->query;
    static const char single[] = "Views that do not select from a single table or view are not automatically updatable.";
    if (q->distinct || q->distinct_on)
        return "Views containing DISTINCT are not automatically updatable.";
    if (q->group_by)
        return "Views containing GROUP BY are not automatically updatable.";
    if (q->having)
        return "Views containing HAVING are not automatically updatable.";
    if (q->op != SQL_SETOP_NONE)
        return "Views containing UNION, INTERSECT, or EXCEPT are not automatically updatable.";
    if (q->with)
        return "Views containing WITH are not automatically updatable.";
    if (q->limit || q->offset)
        return "Views containing LIMIT or OFFSET are not automatically updatable.";
    bool agg = false, win = false, srf = false;
    for (int i = 0; i < sql_list_len(q->targets); i++)
        calls_in(((const sql_target_t *)q->targets->items[i])->expr, &agg, &win, &srf);
    calls_in(q->having, &agg, &win, &srf);
    if (agg)
        return "Views that return aggregate functions are not automatically updatable.";
    if (win)
        return "Views that return window functions are not automatically updatable.";
    if (srf)
        return "Views that return set-returning functions are not automatically updatable.";
    if (q->values || sql_list_len(q->from) != 1)
        return single;
    const sql_from_t *f = q->from->items[0];
    if (f->kind != SQL_FROM_RELATION)
        return single;
    cat_qname_t qn;
    if (!pln__qname(b, f->names, -1, &qn)) {
        cm_err_clear(b->err);
        return single;
    }
    const cat_item_t *base = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, &err);
    cm_err_clear(&err);
    if (!base || (base->kind != CAT_ITEM_TABLE && base->kind != CAT_ITEM_VIEW && base->kind != CAT_ITEM_SOURCE))
        return single;
    return NULL;
}

static const plan_error_t *keep(pln_binder_t *b)
{
    return plan_error_keep(b->arena, b->err);
}

/* ============================================================ the table */

/*
 * An expression stored with the table (DEFAULT, CHECK), bound by a binder
 * of its own: its positions count in that text, not the statement's, and
 * none of its literals or subqueries belong to the statement's plan.
 * Over the table's row when over_row; coerced to type/typmod by
 * assignment unless type is TY_INVALID.
 */
static ty_expr_t *bind_stored(pln_binder_t *b, const char *text, const sql_expr_t *e, const plan_write_t *w,
                              bool over_row, const char *what, ty_oid_t type, int32_t typmod)
{
    pln_binder_t sub = {.arena = b->arena, .sql = text, .sql_len = strlen(text), .err = b->err,
                        .settings = b->settings, .settings_known = b->settings_known, .cat = b->cat,
                        .params_forbidden = true, .sublink_forbidden = what, .agg_forbidden = what};
    sub.ctx = b->ctx;
    sub.ctx.settings = &sub.settings;
    pln_rte_t rte = {.alias = w->name, .ncols = w->ncols, .cols = (plan_column_t *)w->cols};
    pln_scope_t scope = {.nrtes = over_row ? 1 : 0, .rtes = &rte, .ncols = over_row ? w->ncols : 0, .id = 1,
                         .open_sublink = -1};
    sub.scope = &scope;
    sub.nscopes = 1;
    ty_expr_t *x = pln__bind_expr(&sub, e);
    if (x && type != TY_INVALID)
        x = pln__coerce(&sub, x, type, typmod, PLN_CC_ASSIGNMENT, -1);
    if (!x || !pln__fold_literals(&sub)) {
        b->err->position = 0;
        return NULL;
    }
    return x;
}

/* A deep copy, so that each use of a stored expression is folded and rewritten on its own. */
static ty_expr_t *expr_copy(cm_arena_t *a, const ty_expr_t *e)
{
    if (!e)
        return NULL;
    ty_expr_t *c = cm_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->nargs > 0) {
        c->args = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = expr_copy(a, e->args[i]);
    }
    return c;
}

/* Folded where it can be; a folding error leaves it to fail when it is evaluated, as PostgreSQL would. */
static ty_expr_t *fold_quietly(pln_binder_t *b, ty_expr_t *x)
{
    cm_err_t err = {0};
    cm_err_t *saved = b->err, *saved_ctx = b->ctx.err;
    b->err = &err;
    b->ctx.err = &err;
    ty_expr_t *f = pln__fold(b, x);
    b->err = saved;
    b->ctx.err = saved_ctx;
    cm_err_clear(&err);
    return f ? f : x;
}

static bool column_default(pln_binder_t *b, plan_write_t *w, int col, const char *text, ty_expr_t **out)
{
    const char *sql = cm_arena_printf(b->arena, "SELECT %s", text);
    sql_stmt_list_t stmts;
    cm_err_t err = {0};
    if (!sql_parse(b->arena, sql, strlen(sql), &stmts, &err) || stmts.count != 1 ||
        stmts.items[0]->kind != SQL_STMT_SELECT || sql_list_len(stmts.items[0]->select->targets) != 1) {
        pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "the default of column \"%s\" of \"%s\" does not parse: %s",
                   w->cols[col].name, w->name, err.set ? err.message : "not one expression");
        cm_err_clear(&err);
        return false;
    }
    const sql_target_t *t = stmts.items[0]->select->targets->items[0];
    ty_expr_t *x = bind_stored(b, sql, t->expr, w, false, "DEFAULT expressions", w->cols[col].type,
                               w->cols[col].typmod);
    if (!x)
        return false;
    *out = fold_quietly(b, x);
    return true;
}

static int check_cmp(const void *a, const void *b)
{
    return strcmp(((const plan_write_check_t *)a)->name, ((const plan_write_check_t *)b)->name);
}

static bool constraints(pln_binder_t *b, const cat_item_t *it, plan_write_t *w)
{
    pln_constraint_t *cs;
    int n = pln__constraints_of(it, b->arena, &cs);
    plan_write_key_t *keys = cm_arena_zalloc(b->arena, sizeof(*keys) * (size_t)(n ? n : 1));
    plan_write_check_t *checks = cm_arena_zalloc(b->arena, sizeof(*checks) * (size_t)(n ? n : 1));
    int nk = 0, nc = 0;
    /* The primary key's index comes first, as PostgreSQL creates it, then the others as declared. */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            const pln_constraint_t *c = &cs[i];
            if (c->type == 'c' || (c->type == 'p') != (pass == 0))
                continue;
            int *cols = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(c->nkeys ? c->nkeys : 1));
            for (int k = 0; k < c->nkeys; k++)
                cols[k] = c->keys[k] - 1;
            keys[nk++] = (plan_write_key_t){.name = c->name, .primary = c->type == 'p', .ncols = c->nkeys, .cols = cols};
        }
    for (int i = 0; i < n; i++) {
        const pln_constraint_t *c = &cs[i];
        if (c->type != 'c' || !c->expr)
            continue;
        ty_expr_t *x = bind_stored(b, it->create_sql, c->expr, w, true, "check constraint", TY_BOOL, -1);
        if (!x)
            return false;
        checks[nc++] = (plan_write_check_t){.name = c->name, .expr = fold_quietly(b, x)};
    }
    /* PostgreSQL sorts a relation's checks by name (CheckConstraintFetch), so the first failing
     * one in that order is the one reported. */
    qsort(checks, (size_t)nc, sizeof(*checks), check_cmp);
    w->nkeys = nk;
    w->keys = keys;
    w->nchecks = nc;
    w->checks = checks;
    return true;
}

static bool describe_table(pln_binder_t *b, const cat_item_t *it, plan_write_t *w)
{
    int n = (int)it->ncolumns;
    w->item = it->id;
    w->table_oid = it->oid;
    w->relname = pln__item_qualified(b->arena, it);
    w->schema = it->schema ? it->schema->name : NULL;
    w->name = it->name;
    w->ncols = n;
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof(*cols) * (size_t)(n ? n : 1));
    bool *nn = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(n ? n : 1));
    ty_expr_t **defs = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const cat_column_t *c = &it->columns[i];
        cols[i] = (plan_column_t){.name = c->name, .type = c->type, .typmod = c->typmod, .table_oid = it->oid,
                                  .attnum = (int16_t)(i + 1)};
        nn[i] = c->not_null;
    }
    w->cols = cols;
    w->not_null = nn;
    w->defaults = defs;
    for (int i = 0; i < n; i++)
        if (it->columns[i].default_sql && !column_default(b, w, i, it->columns[i].default_sql, &defs[i]))
            return false;
    return it->kind != CAT_ITEM_TABLE || constraints(b, it, w);
}

/* The source a table's rows come from (CREATE TABLE t FROM SOURCE s ...); NULL for a table of its own. */
static const cat_item_t *feeding_source(pln_binder_t *b, const cat_item_t *it)
{
    if (it->kind != CAT_ITEM_TABLE || it->ndeps == 0)
        return NULL;
    const cat_item_t *s = cat_snap_item_by_id(b->cat->snap, it->deps[0]);
    return s && s->kind == CAT_ITEM_SOURCE ? s : NULL;
}

bool pln__write_target(pln_binder_t *b, plan_write_kind_t kind, const sql_qname_t *name, const char *alias,
                       pln_target_t *t)
{
    memset(t, 0, sizeof(*t));
    /* COPY and TRUNCATE are utility statements: PostgreSQL checks them when they run, without positions. */
    bool utility = kind == PLAN_WRITE_COPY || kind == PLAN_WRITE_TRUNCATE;
    int pos = utility ? -1 : name->pos;
    const sql_list_t *n = name->names;
    int k = n->count;
    const char *const *parts = (const char *const *)n->items;
    cat_qname_t qn;
    if (!pln__qname(b, n, pos, &qn))
        return false;
    const char *db = b->cat && b->cat->search.database ? b->cat->search.database : "eddy";
    if (k == 3 && strcmp(parts[0], db) != 0)
        return pln__error(b, pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "cross-database references are not implemented: \"%s.%s.%s\"", parts[0], parts[1], parts[2]);
    const pln_catview_t *cv = pln__catview_find(b, &qn);
    if (cv)
        return system_refused(b, kind, cv->name, cv->oid == 0);
    const pln_sysrel_t *sys = pln__sysrel_find(b, &qn);
    if (sys)
        return system_refused(b, kind, sys->name, strcmp(sys->schema, "pg_catalog") == 0);
    const cat_item_t *it = NULL;
    if (b->cat && b->cat->snap) {
        cm_err_t e = {0};
        it = utility ? cat_resolve_relation(b->cat->snap, &b->cat->search, &qn, &e)
                     : cat_resolve_item(b->cat->snap, &b->cat->search, &qn, &e);
        /* TRUNCATE and COPY look it up as utilities do: a missing schema is named. */
        if (!it && utility && strcmp(e.sqlstate, "3F000") == 0) {
            pln__error(b, -1, "3F000", "%s", e.message);
            cm_err_clear(&e);
            return false;
        }
        cm_err_clear(&e);
    }
    if (!it) {
        if (k >= 2)
            return pln__error(b, pos, "42P01", "relation \"%s.%s\" does not exist", parts[k - 2], parts[k - 1]);
        return pln__error(b, pos, "42P01", "relation \"%s\" does not exist", parts[0]);
    }
    if (cat_id_is_system(it->id))
        return system_refused(b, kind, it->name, false);
    if (it->kind == CAT_ITEM_INDEX) {
        if (kind == PLAN_WRITE_TRUNCATE)
            return pln__error(b, pos, "42809", "\"%s\" is not a table", it->name);
        return pln__error(b, pos, "42809", "\"%s\" is an index", it->name);
    }
    if ((it->kind == CAT_ITEM_VIEW || it->kind == CAT_ITEM_MATVIEW) && kind == PLAN_WRITE_TRUNCATE)
        return pln__error(b, pos, "42809", "\"%s\" is not a table", it->name);
    t->item = it;
    t->alias = alias ? alias : it->name;
    static const uint32_t needs[] = {[PLAN_WRITE_INSERT] = CAT_PRIV_INSERT, [PLAN_WRITE_UPDATE] = CAT_PRIV_UPDATE,
                                     [PLAN_WRITE_DELETE] = CAT_PRIV_DELETE, [PLAN_WRITE_TRUNCATE] = CAT_PRIV_TRUNCATE,
                                     [PLAN_WRITE_COPY] = CAT_PRIV_INSERT};
    t->perm = b->write_perm = pln__check_privilege(b, it, needs[kind]);
    t->w = cm_arena_zalloc(b->arena, sizeof(*t->w));
    t->w->kind = kind;
    if (!describe_table(b, it, t->w))
        return false;
    const cat_item_t *src = feeding_source(b, it);
    if (it->kind == CAT_ITEM_VIEW && kind == PLAN_WRITE_COPY) {
        /* COPY checks its columns and options first, and refuses the relation when it starts copying. */
        view_refused(b, kind, it->name, NULL);
        t->run_error = keep(b);
    } else if (it->kind == CAT_ITEM_VIEW) {
        /* After analysis, as PostgreSQL's rewriter: a column or type error comes first. */
        const char *why = view_not_updatable(b, it);
        if (why) {
            view_refused(b, kind, it->name, why);
        } else {
            pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot %s view \"%s\"", verb_of(kind), it->name);
            cm_err_set_detail(b->err, "eddy does not write through views yet.");
        }
        t->analysis_error = keep(b);
    } else if (it->kind == CAT_ITEM_MATVIEW) {
        /* PostgreSQL refuses it at executor start (CheckValidResultRel): Parse and Describe work. */
        if (kind == PLAN_WRITE_COPY)
            pln__error(b, -1, "42809", "cannot copy to materialized view \"%s\"", it->name);
        else
            pln__error(b, -1, "42809", "cannot change materialized view \"%s\"", it->name);
        t->run_error = keep(b);
    } else if (it->kind == CAT_ITEM_SOURCE || src) {
        /* A source is a foreign table to clients (pg_class.relkind 'f'); PostgreSQL refuses a write
         * to one without a handler while planning. eddy words it after its sources. */
        pln__error(b, -1, "55000", "cannot %s %s \"%s\"", verb_of(kind), src ? "table" : "source", it->name);
        if (src)
            cm_err_set_detail(b->err, "Its rows come from source \"%s\".", src->name);
        else
            cm_err_set_detail(b->err, "A source's rows come from its connector; they cannot be written.");
        if (kind == PLAN_WRITE_TRUNCATE)
            return false;
        if (kind == PLAN_WRITE_COPY)
            t->run_error = keep(b);
        else
            t->plan_error = keep(b);
    }
    return true;
}

bool pln__target_rte(pln_binder_t *b, const pln_target_t *t, pln_scope_t *scope, bool hidden)
{
    const plan_write_t *w = t->w;
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(*cols) * (size_t)(w->ncols ? w->ncols : 1));
    memcpy(cols, w->cols, sizeof(*cols) * (size_t)w->ncols);
    if (!pln__add_rte(b, scope, t->alias, w->ncols, cols))
        return false;
    pln_rte_t *r = &scope->rtes[scope->nrtes - 1];
    r->item = t->item;
    r->hidden_cols = hidden;
    r->hidden_rel = hidden;
    r->write_target = true;
    r->perm = t->perm;
    return true;
}

/* ============================================================ columns and values */

int pln__write_column(const plan_write_t *w, const char *name)
{
    for (int i = 0; i < w->ncols; i++)
        if (strcmp(w->cols[i].name, name) == 0)
            return i;
    return -1;
}

bool pln__no_write_column(pln_binder_t *b, const plan_write_t *w, const char *name, int pos)
{
    return pln__error(b, pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name,
                      w->name);
}

ty_expr_t *pln__assign(pln_binder_t *b, const plan_write_t *w, int col, ty_expr_t *x, int pos)
{
    const plan_column_t *c = &w->cols[col];
    if (x->type != TY_UNKNOWN && x->type != c->type && !pln__can_coerce(x->type, c->type, PLN_CC_ASSIGNMENT)) {
        pln__error(b, pos, CM_ERRCODE_DATATYPE_MISMATCH, "column \"%s\" is of type %s but expression is of type %s",
                   c->name, pln__type_name(b, c->type), pln__type_name(b, x->type));
        cm_err_set_hint(b->err, "You will need to rewrite or cast the expression.");
        return NULL;
    }
    /* A literal takes the type first, as PostgreSQL converts it while analysing; the length or
     * precision is a cast of its own, applied (and failing: 22001, 22003) when planned. */
    if (!(x = pln__coerce(b, x, c->type, -1, PLN_CC_ASSIGNMENT, pos)))
        return NULL;
    if (c->typmod >= 0 && x->typmod != c->typmod)
        x = pln__coerce(b, x, c->type, c->typmod, PLN_CC_ASSIGNMENT, pos);
    return x;
}

ty_expr_t *pln__column_default(pln_binder_t *b, const plan_write_t *w, int col)
{
    if (w->defaults[col])
        return expr_copy(b->arena, w->defaults[col]);
    ty_datum_t null = {.isnull = true};
    return ty_expr_const(b->arena, w->cols[col].type, w->cols[col].typmod, null);
}

int pln__expr_leftmost(const ty_expr_t *e)
{
    if (!e)
        return -1;
    int p = e->location;
    for (int i = 0; i < e->nargs; i++) {
        int k = pln__expr_leftmost(e->args[i]);
        if (k >= 0 && (p < 0 || k < p))
            p = k;
    }
    return p;
}

bool pln__bind_returning(pln_binder_t *b, const sql_list_t *returning, ty_expr_t ***exprs, plan_column_t **cols,
                         int *n)
{
    int cap = 8, m = 0;
    ty_expr_t **es = cm_arena_alloc(b->arena, sizeof(*es) * (size_t)cap);
    plan_column_t *cs = cm_arena_zalloc(b->arena, sizeof(*cs) * (size_t)cap);
    b->aggs = NULL;
    b->agg_forbidden = "RETURNING";
    b->wins = NULL;
    b->win_forbidden = NULL;
    b->srfs = NULL;
    for (int i = 0; i < sql_list_len(returning); i++) {
        const sql_target_t *t = returning->items[i];
        const sql_expr_t *e = t->expr;
        ty_expr_t **xs, *one;
        const char **names, *name;
        int k;
        if (e->kind == SQL_EXPR_STAR || (e->kind == SQL_EXPR_COLUMN && e->star)) {
            if (!pln__expand_star(b, e, &xs, &names, &k))
                return false;
        } else {
            if (!(one = pln__bind_expr(b, e)) || !(one = pln__resolve_unknown(b, one)))
                return false;
            name = t->alias ? t->alias : pln__colname(e);
            xs = &one;
            names = &name;
            k = 1;
        }
        for (int j = 0; j < k; j++) {
            if (m == cap) {
                ty_expr_t **e2 = cm_arena_alloc(b->arena, sizeof(*e2) * (size_t)cap * 2);
                plan_column_t *c2 = cm_arena_zalloc(b->arena, sizeof(*c2) * (size_t)cap * 2);
                memcpy(e2, es, sizeof(*es) * (size_t)m);
                memcpy(c2, cs, sizeof(*cs) * (size_t)m);
                es = e2, cs = c2, cap *= 2;
            }
            es[m] = xs[j];
            cs[m] = (plan_column_t){names[j], xs[j]->type, xs[j]->typmod};
            pln__column_origin(b->scope, xs[j], &cs[m]);
            m++;
        }
    }
    b->agg_forbidden = NULL;
    *exprs = es;
    *cols = cs;
    *n = m;
    return true;
}

/* ============================================================ the plan */

static bool has_blocking(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_BLOCKING);
}

bool pln__write_plan(pln_binder_t *b, pln_target_t *t, plan_rel_t *rel, int ncols, plan_column_t *cols,
                     pln_stmt_t *st)
{
    plan_write_t *w = t->w;
    if (!(rel = pln__decorrelate(b, rel)))
        return false;
    /* An unupdatable view is refused by PostgreSQL's rewriter: after analysis, before planning. */
    if (t->analysis_error)
        return plan_error_raise(t->analysis_error, b->err);
    if (!pln__fold_literals(b))
        return false;
    /* As for a query: a plan reading columns its rows lack is a planner bug, refused before and
     * after the optimizer rather than run. */
    for (int pass = 0; pass < 2; pass++) {
        bool columns_ok = plan_rel_columns_ok(rel);
        for (int i = 0; columns_ok && i < b->nsublinks; i++)
            columns_ok = (pass == 1 && b->sublinks[i].joined) || plan_rel_columns_ok(b->sublinks[i].rel);
        if (!columns_ok)
            return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR,
                              "internal error: the plan of this write reads a column its input does not have");
        if (pass == 0) {
            pln__optimize(b, &rel);
            for (int i = 0; i < b->nsublinks; i++)
                if (!b->sublinks[i].joined)
                    pln__optimize(b, &b->sublinks[i].rel);
        }
    }
    bool planned = pln__fold_rel(b, rel);
    for (int i = 0; planned && i < b->nsublinks; i++)
        planned = b->sublinks[i].joined || pln__fold_rel(b, b->sublinks[i].rel);
    if (!planned) {
        if (!b->defer_plan_errors)
            return false;
        st->plan_error = keep(b);
    }
    if (t->plan_error && !st->plan_error) {
        if (!b->defer_plan_errors)
            return plan_error_raise(t->plan_error, b->err);
        st->plan_error = t->plan_error;
    }
    plan_t *p = cm_arena_zalloc(b->arena, sizeof(*p));
    p->root = rel;
    p->ncols = ncols;
    p->cols = cols;
    p->nlits = b->nlits;
    p->lits = b->lits;
    p->nsublinks = b->nsublinks;
    p->sublinks = pln__plan_sublinks(b);
    p->blocking = plan_rel_any(rel, has_blocking);
    for (int i = 0; i < b->nsublinks; i++)
        p->blocking |= plan_rel_any(b->sublinks[i].rel, has_blocking);
    p->reads = plan_reads_relations(p);
    w->plan = p;
    w->error = t->run_error;
    st->write = w;
    st->blocking = p->blocking;
    return true;
}

/* ============================================================ the statement */

static bool unsupported_with(pln_binder_t *b, const sql_select_t *with, const char *verb)
{
    if (!with)
        return true;
    return pln__error(b, with->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "WITH before %s is not supported yet", verb);
}

bool pln__bind_write(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    pln_target_t t;
    st->kind = PLN_WRITE;
    switch (s->kind) {
    case SQL_STMT_INSERT: {
        const sql_insert_t *i = s->insert;
        st->tag = "INSERT";
        if (!unsupported_with(b, i->with, "INSERT"))
            return false;
        if (i->on_conflict)
            return pln__error(b, i->on_conflict->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "INSERT ... ON CONFLICT is not supported yet");
        return pln__write_target(b, PLAN_WRITE_INSERT, i->table, i->alias, &t) && pln__bind_insert(b, s, &t, st);
    }
    case SQL_STMT_UPDATE:
        st->tag = "UPDATE";
        return unsupported_with(b, s->update->with, "UPDATE") &&
               pln__write_target(b, PLAN_WRITE_UPDATE, s->update->table, s->update->alias, &t) &&
               pln__bind_update(b, s, &t, st);
    case SQL_STMT_DELETE:
        st->tag = "DELETE";
        return unsupported_with(b, s->delete_->with, "DELETE") &&
               pln__write_target(b, PLAN_WRITE_DELETE, s->delete_->table, s->delete_->alias, &t) &&
               pln__bind_delete(b, s, &t, st);
    case SQL_STMT_COPY:
        st->tag = "COPY";
        return pln__bind_copy(b, s, st);
    case SQL_STMT_TRUNCATE:
        st->tag = "TRUNCATE TABLE";
        return pln__bind_truncate(b, s, st);
    default:
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "not a write: statement kind %d", (int)s->kind);
    }
}

/*
 * pln_scope.c: the FROM clause and the names it brings into scope, as
 * PostgreSQL's transformFromClause and colNameToVar: subqueries and VALUES
 * lists in FROM (with their alias and column aliases), comma lists and
 * CROSS/INNER joins as a product (ON is a filter above it), column
 * references with PostgreSQL's errors (ambiguous, missing FROM-clause
 * entry, undefined column) and the expansion of * and t.*. Relation
 * names resolve in the binder's catalog snapshot through the search path;
 * one that does not resolve is 42P01 at its position, as in PostgreSQL.
 * Session relations (pg_prepared_statements) resolve first, by the same rules.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__add_rte(pln_binder_t *b, pln_scope_t *sc, const char *alias, int ncols, plan_column_t *cols)
{
    /* One FROM may not name two visible items alike, or a qualified name would be ambiguous
     * (PostgreSQL's checkNameSpaceConflicts); items inside an aliased join are hidden. */
    for (int i = 0; alias && i < sc->nrtes; i++)
        if (sc->rtes[i].alias && !sc->rtes[i].hidden_rel && strcmp(sc->rtes[i].alias, alias) == 0)
            return pln__error(b, -1, "42712", "table name \"%s\" specified more than once", alias);
    pln_rte_t *r = cm_arena_alloc(b->arena, sizeof(pln_rte_t) * (size_t)(sc->nrtes + 1));
    if (sc->nrtes)
        memcpy(r, sc->rtes, sizeof(pln_rte_t) * (size_t)sc->nrtes);
    r[sc->nrtes] = (pln_rte_t){.alias = alias, .ncols = ncols, .cols = cols, .offset = sc->ncols};
    sc->rtes = r;
    sc->nrtes++;
    sc->ncols += ncols;
    return true;
}

static bool bind_subquery(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    if (!f->alias) {
        bool values = f->select->values != NULL && f->select->op == SQL_SETOP_NONE;
        pln__error(b, f->pos, CM_ERRCODE_SYNTAX_ERROR, "%s in FROM must have an alias",
                   values ? "VALUES" : "subquery");
        cm_err_set_hint(b->err, "For example, FROM (%s ...) [AS] foo.", values ? "VALUES" : "SELECT");
        return false;
    }
    /* A FROM subquery sees the enclosing query's names (for sublinks); LATERAL also the items before it. */
    pln_scope_t inner = {.outer = f->lateral ? sc : sc->outer, .id = ++b->nscopes, .open_sublink = -1};
    pln_scope_t around = *sc;
    int serial = 0, first_ref = b->norefs;
    if (f->lateral) {
        sc->open_sublink = serial = ++b->nserials;
        sc->sub_aggs = NULL;
        sc->sub_agg_forbidden = "FROM clause of their own query level";
    }
    pln_scope_t *saved = b->scope;
    pln_aggctx_t *saved_aggs = b->aggs;
    const char *saved_forbidden = b->agg_forbidden;
    b->scope = &inner;
    b->aggs = NULL;
    pln_bound_t q;
    bool ok = pln__bind_select(b, f->select, &q);
    b->scope = saved;
    b->aggs = saved_aggs;
    b->agg_forbidden = saved_forbidden;
    sc->open_sublink = around.open_sublink;
    sc->sub_aggs = around.sub_aggs;
    sc->sub_agg_forbidden = around.sub_agg_forbidden;
    if (!ok)
        return false;
    for (int i = first_ref; serial && i < b->norefs; i++)
        if (b->orefs[i].sublink == serial)
            b->lateral_serial = serial;   /* the caller joins it to the items it reads */
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > q.ncols)
        return pln__error(b, -1, "42P10",
                          "table \"%s\" has %d columns available but %d columns specified", f->alias, q.ncols,
                          naliases);
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(q.ncols ? q.ncols : 1));
    for (int i = 0; i < q.ncols; i++) {
        cols[i] = q.cols[i];
        if (i < naliases)
            cols[i].name = f->col_aliases->items[i];
    }
    *rel = q.rel;
    return pln__add_rte(b, sc, f->alias, q.ncols, cols);
}

static bool bind_item(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel);

void pln__column_origin(const pln_scope_t *sc, const ty_expr_t *e, plan_column_t *out)
{
    if (sc == NULL || e->kind != TY_EXPR_COLUMN || e->index < 0 || e->index >= sc->ncols)
        return;
    for (int r = 0; r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        for (int c = 0; c < t->ncols; c++)
            if ((t->index ? t->index[c] : t->offset + c) == e->index) {
                out->table_oid = t->cols[c].table_oid;
                out->attnum = t->cols[c].attnum;
                return;
            }
    }
}

static plan_rel_t *product(pln_binder_t *b, plan_rel_t *l, plan_rel_t *r)
{
    plan_rel_t *p = pln__rel_new(b, PLAN_REL_PRODUCT, l, l->ncols + r->ncols);
    p->right = r;
    memcpy(p->types, l->types, sizeof(ty_oid_t) * (size_t)l->ncols);
    memcpy(p->types + l->ncols, r->types, sizeof(ty_oid_t) * (size_t)r->ncols);
    return p;
}

/* Column references bound against the whole FROM row, made relative to a join's own row. */
/*
 * A copy of e with its columns counted from the join's first one. A copy, not
 * in place: binding shares subexpressions (a BETWEEN's operand is read by both
 * comparisons), and a shared column moved twice would read another column.
 */
static ty_expr_t *rebase(pln_binder_t *b, const ty_expr_t *e, int base)
{
    if (!e)
        return NULL;
    ty_expr_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *e;
    if (c->kind == TY_EXPR_COLUMN && c->index >= 0 && c->index < PLN_AGG_BASE)
        c->index -= base;
    if (e->nargs > 0) {
        c->args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = rebase(b, e->args[i], base);
    }
    return c;
}

static int col_index(const pln_rte_t *t, int c)
{
    return t->index ? t->index[c] : t->offset + c;
}

/* The columns one side of a join shows to unqualified names, in order (absolute indexes). */
typedef struct side_cols {
    int n;
    plan_column_t *cols;
    int *index;
} side_cols_t;

static void visible_cols(pln_binder_t *b, const pln_scope_t *sc, int from, int to, side_cols_t *out)
{
    int n = 0;
    for (int r = from; r < to; r++)
        if (!sc->rtes[r].hidden_cols)
            n += sc->rtes[r].ncols;
    out->cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(n ? n : 1));
    out->index = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(n ? n : 1));
    out->n = 0;
    for (int r = from; r < to; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        for (int c = 0; !t->hidden_cols && c < t->ncols; c++) {
            out->cols[out->n] = t->cols[c];
            out->index[out->n++] = col_index(t, c);
        }
    }
}

static int find_side(const side_cols_t *s, const char *name, int *at)
{
    int hits = 0;
    for (int i = 0; i < s->n; i++)
        if (strcmp(s->cols[i].name, name) == 0) {
            hits++;
            *at = i;
        }
    return hits;
}

static bool using_col(pln_binder_t *b, const side_cols_t *s, const char *name, const char *side, int *at)
{
    int hits = find_side(s, name, at);
    if (hits == 0)
        return pln__error(b, -1, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" specified in USING clause does not exist in %s table",
                          name, side);
    if (hits > 1)
        return pln__error(b, -1, CM_ERRCODE_AMBIGUOUS_COLUMN, "common column name \"%s\" appears more than once in %s table",
                          name, side);
    return true;
}

static ty_expr_t *side_ref(pln_binder_t *b, const side_cols_t *s, int i, int base)
{
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, s->cols[i].type, 0);
    c->typmod = s->cols[i].typmod;
    c->index = s->index[i] - base;
    return c;
}

static ty_expr_t *and_of(pln_binder_t *b, ty_expr_t *p, ty_expr_t *q)
{
    if (!p)
        return q;
    ty_expr_t *a = ty_expr_new(b->arena, TY_EXPR_AND, TY_BOOL, 2);
    a->args[0] = p;
    a->args[1] = q;
    return a;
}

/*
 * JOIN as PostgreSQL's transformFromClauseItem: USING and NATURAL columns
 * are compared with "=" after coercion to their common type and merged
 * into one output column (the left value, the right one for RIGHT JOIN,
 * COALESCE of both for FULL JOIN); the join then shows its own columns to
 * unqualified names, and under an alias hides the items inside it.
 */
static bool bind_join(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    int start = sc->nrtes, base = sc->ncols;
    plan_rel_t *l, *r;
    b->lateral_serial = 0;
    if (!bind_item(b, f->larg, sc, &l))
        return false;
    if (b->lateral_serial || pln__srf_is_lateral(l)) {
        /* A join's left side is planned on its own: nothing joins it to the FROM items before
         * the join, so a LATERAL reference to them there would read columns it does not have. */
        int at = f->larg->pos;
        for (int i = 0; b->lateral_serial && i < b->norefs; i++)
            if (b->orefs[i].sublink == b->lateral_serial)
                at = b->orefs[i].location;
        b->lateral_serial = 0;
        return pln__error(b, at, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "LATERAL references from the left side of a JOIN are not supported yet");
    }
    int mid = sc->nrtes;
    b->lateral_serial = 0;
    if (!bind_item(b, f->rarg, sc, &r))
        return false;
    int lateral = b->lateral_serial;
    b->lateral_serial = 0;
    if (lateral) {
        /* Joined below with the left side's rows; a reference to anything else cannot be. */
        for (int i = 0; i < b->norefs; i++) {
            if (b->orefs[i].sublink != lateral)
                continue;
            const ty_expr_t *x = b->orefs[i].expr;
            if (x->kind != TY_EXPR_COLUMN || x->index < base || x->index >= base + l->ncols)
                return pln__error(b, b->orefs[i].location, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "LATERAL references outside the join's left side are not supported yet");
        }
        if (f->join == SQL_JOIN_RIGHT || f->join == SQL_JOIN_FULL) {
            pln__error(b, b->orefs[b->norefs - 1].location, "42P10", "invalid reference to FROM-clause entry for table \"%s\"",
                       b->orefs[b->norefs - 1].name);
            cm_err_set_detail(b->err, "The combining JOIN type must be INNER or LEFT for a LATERAL reference.");
            return false;
        }
    }
    int end = sc->nrtes, nraw = l->ncols + r->ncols;
    bool fn_lateral = pln__srf_is_lateral(r);   /* a function reading the left side (pln_srf.c) */
    if (fn_lateral && f->join != SQL_JOIN_CROSS && f->join != SQL_JOIN_INNER && f->join != SQL_JOIN_LEFT)
        return pln__error(b, f->rarg->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "a function in FROM that reads the left side of a RIGHT or FULL join is not supported yet");
    if (f->join == SQL_JOIN_CROSS) {
        if (fn_lateral)
            return pln__srf_lateral(b, r, l, base, f->rarg->pos) && (*rel = r);
        *rel = lateral ? pln__lateral_join(b, l, r, lateral, base, PLAN_JOIN_INNER, NULL) : product(b, l, r);
        return *rel != NULL;
    }
    plan_rel_t *j = product(b, l, r);
    j->kind = PLAN_REL_JOIN;
    j->join = pln__join_of(f->join);
    side_cols_t lc, rc;
    visible_cols(b, sc, start, mid, &lc);
    visible_cols(b, sc, mid, end, &rc);
    /* The merged columns: USING's list, or the names both sides share for NATURAL. */
    int nmerge = 0;
    const char **names = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)(lc.n + sql_list_len(f->using_cols) + 1));
    if (f->natural) {
        for (int i = 0; i < lc.n; i++) {
            int at;
            if (find_side(&rc, lc.cols[i].name, &at) > 0)
                names[nmerge++] = lc.cols[i].name;
        }
    } else {
        for (int i = 0; i < sql_list_len(f->using_cols); i++)
            names[nmerge++] = f->using_cols->items[i];
    }
    int *lat = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(nmerge + 1));
    int *rat = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(nmerge + 1));
    ty_expr_t **merged = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nmerge + 1));
    for (int k = 0; k < nmerge; k++) {
        for (int q = 0; q < k; q++)
            if (strcmp(names[q], names[k]) == 0)
                return pln__error(b, -1, "42701", "column \"%s\" appears more than once in USING clause",
                                  names[k]);
        if (!using_col(b, &lc, names[k], "left", &lat[k]) || !using_col(b, &rc, names[k], "right", &rat[k]))
            return false;
        ty_expr_t *pair[2] = {side_ref(b, &lc, lat[k], base), side_ref(b, &rc, rat[k], base)};
        /* transformJoinUsingClause reads both columns (markVarForSelectPriv). */
        pln__perm_mark_index(b, sc, lc.index[lat[k]]);
        pln__perm_mark_index(b, sc, rc.index[rat[k]]);
        ty_oid_t t;
        int32_t tm;
        if (!pln__common_type(b, pair, 2, NULL, "JOIN/USING", &t, &tm) || !pln__coerce_all(b, pair, 2, t, -1, "JOIN/USING"))
            return false;
        ty_expr_t *eq = pln__make_op(b, "=", pair[0], pair[1], -1);
        if (!eq || !(eq = pln__coerce_bool(b, eq, "JOIN/USING")))
            return false;
        j->pred = and_of(b, j->pred, eq);
        if (f->join == SQL_JOIN_FULL) {
            merged[k] = ty_expr_new(b->arena, TY_EXPR_COALESCE, t, 2);
            merged[k]->args[0] = pair[0];
            merged[k]->args[1] = pair[1];
        } else {
            merged[k] = pair[f->join == SQL_JOIN_RIGHT ? 1 : 0];
        }
        merged[k]->typmod = lc.cols[lat[k]].typmod == rc.cols[rat[k]].typmod ? lc.cols[lat[k]].typmod : -1;
    }
    if (f->on) {
        /* ON sees the two sides only; its references are bound absolute and made relative to the join's row. */
        pln_scope_t inner = {.nrtes = end - start, .rtes = sc->rtes + start, .ncols = sc->ncols, .outer = sc->outer};
        pln_scope_t *saved = b->scope;
        const char *saved_forbidden = b->agg_forbidden;
        pln_aggctx_t *saved_aggs = b->aggs;
        b->scope = &inner;
        b->aggs = NULL;
        b->agg_forbidden = "JOIN conditions";
        ty_expr_t *on = pln__bind_expr(b, f->on);
        b->scope = saved;
        b->aggs = saved_aggs;
        b->agg_forbidden = saved_forbidden;
        if (!on || !(on = pln__coerce_bool(b, on, "JOIN/ON")))
            return false;
        on = rebase(b, on, base);
        j->pred = and_of(b, j->pred, on);
    }
    if (lateral && !(j = pln__lateral_join(b, l, r, lateral, base, pln__join_of(f->join), j->pred)))
        return false;
    if (!lateral && !fn_lateral && pln__has_correlated(b, j) && !(j = pln__decorrelate_on(b, j, base)))
        return false;
    if (fn_lateral) {
        /* The join's rows are the function's over each left row, filtered by the condition. */
        if (pln__has_correlated(b, j))
            return pln__error(b, f->rarg->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "a correlated subquery in the condition of a join with a function is not supported yet");
        if (!pln__srf_lateral(b, r, l, base, f->rarg->pos))
            return false;
        if (f->join == SQL_JOIN_LEFT) {
            /* LEFT: the FlatMap keeps a left row none of whose function rows meet the condition. */
            r->join = PLAN_JOIN_LEFT;
            r->pred = j->pred;
            j = r;
        } else {
            j->kind = PLAN_REL_FILTER;
            j->input = r;
            j->right = NULL;
            if (!j->pred)
                j->pred = ty_expr_const(b->arena, TY_BOOL, -1, (ty_datum_t){.v.b = true});
        }
    }
    *rel = j;
    if (nmerge == 0 && !f->alias)
        return true;
    /* The join's own row: both sides, then the merged columns. */
    plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, j, nraw + nmerge);
    p->exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nraw + nmerge));
    for (int i = 0; i < nraw; i++) {
        p->exprs[i] = ty_expr_new(b->arena, TY_EXPR_COLUMN, j->types[i], 0);
        p->exprs[i]->index = i;
        p->types[i] = j->types[i];
    }
    for (int k = 0; k < nmerge; k++) {
        p->exprs[nraw + k] = merged[k];
        p->types[nraw + k] = merged[k]->type;
    }
    *rel = p;
    int ncols = nmerge + lc.n + rc.n - 2 * nmerge;
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    int *index = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(ncols ? ncols : 1));
    int n = 0;
    for (int k = 0; k < nmerge; k++, n++) {
        cols[n] = (plan_column_t){.name = names[k], .type = merged[k]->type, .typmod = merged[k]->typmod};
        if (merged[k]->kind == TY_EXPR_COLUMN) {
            /* Not FULL, and not coerced: the merged column is one side's, and so is its origin. */
            const plan_column_t *from = f->join == SQL_JOIN_RIGHT ? &rc.cols[rat[k]] : &lc.cols[lat[k]];
            cols[n].table_oid = from->table_oid;
            cols[n].attnum = from->attnum;
        }
        index[n] = base + nraw + k;
    }
    for (int side = 0; side < 2; side++) {
        const side_cols_t *sd = side ? &rc : &lc;
        const int *at = side ? rat : lat;
        for (int i = 0; i < sd->n; i++) {
            bool used = false;
            for (int k = 0; k < nmerge; k++)
                used |= at[k] == i;
            if (!used) {
                cols[n] = sd->cols[i];
                index[n++] = sd->index[i];
            }
        }
    }
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols)
        return pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", f->alias,
                          ncols, naliases);
    for (int i = 0; i < naliases; i++)
        cols[i].name = f->col_aliases->items[i];
    for (int t = start; t < end; t++) {
        sc->rtes[t].hidden_cols = true;
        sc->rtes[t].hidden_rel |= f->alias != NULL;
    }
    if (!pln__add_rte(b, sc, f->alias, ncols, cols))
        return false;
    pln_rte_t *jr = &sc->rtes[sc->nrtes - 1];
    jr->index = index;
    sc->ncols = base + nraw + nmerge;   /* only the merged columns are new in the FROM row */
    return true;
}

/* Remembers a relation the statement reads: the statement's own FROM items are its
 * dependencies (and are qualified in a view's stored SQL); every relation, also inside
 * an expanded view, is read by its plan. */
static void note_rel(pln_binder_t *b, const sql_from_t *f, const cat_item_t *it)
{
    if (it->kind != CAT_ITEM_VIEW) {
        if (b->nreads == b->reads_cap) {
            int cap = b->reads_cap ? 2 * b->reads_cap : 4;
            const cat_item_t **rs = cm_arena_alloc(b->arena, sizeof(*rs) * (size_t)cap);
            if (b->nreads)
                memcpy(rs, b->read_item, sizeof(*rs) * (size_t)b->nreads);
            b->read_item = rs;
            b->reads_cap = cap;
        }
        b->read_item[b->nreads++] = it;
    }
    if (b->inlining)
        return;
    if (b->nrels == b->rels_cap) {
        int cap = b->rels_cap ? 2 * b->rels_cap : 4;
        const sql_from_t **fs = cm_arena_alloc(b->arena, sizeof(*fs) * (size_t)cap);
        const cat_item_t **is = cm_arena_alloc(b->arena, sizeof(*is) * (size_t)cap);
        if (b->nrels) {
            memcpy(fs, b->rel_from, sizeof(*fs) * (size_t)b->nrels);
            memcpy(is, b->rel_item, sizeof(*is) * (size_t)b->nrels);
        }
        b->rel_from = fs;
        b->rel_item = is;
        b->rels_cap = cap;
    }
    b->rel_from[b->nrels] = f;
    b->rel_item[b->nrels++] = it;
}

/* A session relation in FROM: its rows are read from the session when the query runs. */
static bool bind_sysrel(pln_binder_t *b, const sql_from_t *f, const pln_sysrel_t *sys, uint32_t oid,
                        pln_scope_t *sc, plan_rel_t **rel)
{
    int ncols = (int)sys->ncolumns;
    const char *alias = f->alias ? f->alias : sys->name;
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols)
        return pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias,
                          ncols, naliases);
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)ncols);
    plan_rel_t *r = pln__rel_new(b, PLAN_REL_SESSION, NULL, ncols);
    r->session = sys->session;
    r->relname = cm_arena_printf(b->arena, "%s.%s", sys->schema, sys->name);   /* what EXPLAIN prints */
    for (int i = 0; i < ncols; i++) {
        const cat_column_t *c = &sys->columns[i];
        cols[i] = (plan_column_t){.name = i < naliases ? f->col_aliases->items[i] : c->name, .type = c->type,
                                 .typmod = c->typmod, .table_oid = oid, .attnum = oid ? (int16_t)(i + 1) : 0};
        r->types[i] = c->type;
    }
    *rel = r;
    return pln__add_rte(b, sc, alias, ncols, cols);
}

/* A pg_catalog view in FROM: bound as its SQL (pln_catview.c) in a subquery of the name or alias. */
static bool bind_catview(pln_binder_t *b, const sql_from_t *f, const pln_catview_t *v, pln_scope_t *sc,
                         plan_rel_t **rel)
{
    sql_stmt_list_t stmts;
    cm_err_t err = {0};
    if (!sql_parse(b->arena, v->sql, strlen(v->sql), &stmts, &err) || stmts.count != 1 ||
        stmts.items[0]->kind != SQL_STMT_SELECT) {
        pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR, "the definition of %s.%s does not parse: %s", v->schema,
                   v->name, err.set ? err.message : "not one query");
        cm_err_clear(&err);
        return false;
    }
    sql_from_t sub = *f;
    sub.kind = SQL_FROM_SUBQUERY;
    sub.select = stmts.items[0]->select;
    sub.lateral = false;
    sub.alias = f->alias ? f->alias : v->name;
    if (strcmp(v->schema, "pg_catalog") == 0 && strcmp(v->name, "pg_authid") == 0)
        pln__check_superuser_read(b, v->name);
    b->in_catview++;
    bool ok = bind_subquery(b, &sub, sc, rel);
    b->in_catview--;
    if (!ok) {
        b->err->position = 0;   /* a position would count in the view's text, not the statement's */
        return false;
    }
    /* Its columns come from the catalog relation PostgreSQL has (pg_class: 1259), not from eddy_catalog. */
    pln_rte_t *t = &sc->rtes[sc->nrtes - 1];
    for (int i = 0; i < t->ncols; i++) {
        t->cols[i].table_oid = v->oid;
        t->cols[i].attnum = v->oid ? (int16_t)(i + 1) : 0;
    }
    return true;
}

/*
 * A relation named in FROM, resolved in the catalog snapshot. A database
 * part other than the session's is refused first, as RangeVarGetRelid
 * does. A missing schema is reported like a missing relation (42P01 with
 * the name as written), as PostgreSQL does for a FROM item. A view is its
 * query bound in place (pln_view.c); any other relation is a GET of it, which
 * bind_query refuses (0A000) for relations other than tables until the
 * dataflow engine answers reads of them.
 */
static bool bind_relname(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    const sql_list_t *n = f->names;
    int k = n->count;
    const char *const *it = (const char *const *)n->items;
    cat_qname_t qn;
    if (!pln__qname(b, n, f->pos, &qn))
        return false;
    if (k == 1) {
        /* A WITH query of that name hides any relation (PostgreSQL's scanNameSpaceForCTE). */
        int cte = pln__bind_cte_ref(b, f, sc, rel);
        if (cte != 0)
            return cte > 0;
    }
    const char *db = b->cat && b->cat->search.database ? b->cat->search.database : "eddy";
    if (k == 3 && strcmp(it[0], db) != 0)
        return pln__error(b, f->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "cross-database references are not implemented: \"%s.%s.%s\"", it[0], it[1], it[2]);
    const pln_catview_t *view = pln__catview_find(b, &qn);
    if (view)
        return bind_catview(b, f, view, sc, rel);
    const pln_sysrel_t *sys = pln__sysrel_find(b, &qn);
    if (sys)
        return bind_sysrel(b, f, sys, 0, sc, rel);   /* the session's state, not a relation with an OID */
    const cat_item_t *item = NULL;
    if (b->cat && b->cat->snap) {
        cm_err_t e = {0};
        item = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, &e);
        /* A schema named without USAGE: LookupExplicitNamespace's 42501, at the name. */
        bool usage = e.set && strcmp(e.sqlstate, "42501") == 0;
        if (usage)
            pln__error(b, f->pos, "42501", "%s", e.message);
        cm_err_clear(&e);
        if (usage)
            return false;
    }
    if (!item) {
        if (k >= 2)
            return pln__error(b, f->pos, "42P01", "relation \"%s.%s\" does not exist", it[k - 2], it[k - 1]);
        pln__error(b, f->pos, "42P01", "relation \"%s\" does not exist", it[0]);
        pln__cte_forward_hint(b, it[0]);
        return false;
    }
    if (cat_id_is_system(item->id) && (item->kind == CAT_ITEM_TABLE || item->kind == CAT_ITEM_VIEW)) {
        /* eddy_catalog's tables and eddy_internal's views: their rows are the session's catalog
         * and the server's state when the query runs. */
        if (strcmp(item->schema->name, "eddy_catalog") == 0 && strcmp(item->name, "roles") == 0)
            pln__check_superuser_read(b, item->name);   /* its rows hold the password verifiers */
        pln_sysrel_t builtin = {.schema = item->schema->name, .name = item->name,
                                .session = cm_arena_printf(b->arena, "%s.%s", item->schema->name, item->name),
                                .columns = item->columns, .ncolumns = item->ncolumns};
        return bind_sysrel(b, f, &builtin, item->oid, sc, rel);
    }
    if (item->kind == CAT_ITEM_INDEX) {
        pln__error(b, f->pos, "42809", "cannot open relation \"%s\"", item->name);
        cm_err_set_detail(b->err, "This operation is not supported for indexes.");
        return false;
    }
    int perm = f != b->write_from ? pln__check_privilege(b, item, CAT_PRIV_SELECT) : b->write_perm;
    if (item->kind == CAT_ITEM_VIEW) {
        note_rel(b, f, item);
        if (!pln__bind_view_ref(b, f, item, sc, rel))
            return false;
        sc->rtes[sc->nrtes - 1].perm = perm;
        return true;
    }
    int ncols = (int)item->ncolumns;
    const char *alias = f->alias ? f->alias : item->name;
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols)
        return pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias,
                          ncols, naliases);
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    plan_rel_t *v = pln__rel_new(b, PLAN_REL_GET, NULL, ncols);
    for (int i = 0; i < ncols; i++) {
        const cat_column_t *c = &item->columns[i];
        cols[i] = (plan_column_t){.name = i < naliases ? f->col_aliases->items[i] : c->name, .type = c->type,
                                 .typmod = c->typmod, .table_oid = item->oid, .attnum = (int16_t)(i + 1)};
        v->types[i] = c->type;
    }
    v->relname = pln__item_qualified(b->arena, item);
    v->item = item->id;
    plan_column_t *defs = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols; i++)
        defs[i] = (plan_column_t){item->columns[i].name, item->columns[i].type, item->columns[i].typmod};
    v->item_cols = defs;
    pln__item_keys(b->arena, item, &v->nitem_keys, &v->item_keys);
    note_rel(b, f, item);
    *rel = v;
    if (!pln__add_rte(b, sc, alias, ncols, cols))
        return false;
    sc->rtes[sc->nrtes - 1].item = item;
    sc->rtes[sc->nrtes - 1].naliased = naliases;
    sc->rtes[sc->nrtes - 1].write_target = f == b->write_from;
    sc->rtes[sc->nrtes - 1].perm = perm;
    return true;
}

static bool bind_item(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    switch (f->kind) {
    case SQL_FROM_RELATION:
        return bind_relname(b, f, sc, rel);
    case SQL_FROM_SUBQUERY:
        return bind_subquery(b, f, sc, rel);
    case SQL_FROM_JOIN:
        return bind_join(b, f, sc, rel);
    case SQL_FROM_FUNCTION:
        return pln__bind_from_function(b, f, sc, rel);
    }
    return pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR, "unexpected FROM item");
}

bool pln__bind_from(pln_binder_t *b, const sql_list_t *from, pln_scope_t *scope, plan_rel_t **rel)
{
    *rel = NULL;
    for (int i = 0; i < sql_list_len(from); i++) {
        plan_rel_t *r;
        b->lateral_serial = 0;
        if (!bind_item(b, from->items[i], scope, &r))
            return false;
        if (pln__srf_is_lateral(r)) {
            /* A function reading earlier items runs over their rows (pln_srf.c). */
            const sql_from_t *f = from->items[i];
            b->lateral_serial = 0;
            if (!pln__srf_lateral(b, r, *rel, 0, f->pos))
                return false;
            *rel = r;
            continue;
        }
        if (b->lateral_serial && *rel) {
            if (!(*rel = pln__lateral_join(b, *rel, r, b->lateral_serial, 0, PLAN_JOIN_INNER, NULL)))
                return false;
        } else {
            *rel = *rel ? product(b, *rel, r) : r;
        }
        b->lateral_serial = 0;
    }
    return true;
}

/* ===================================================== column references */

static const pln_rte_t *find_rte_any(const pln_scope_t *sc, const char *alias, bool hidden)
{
    for (int i = 0; sc && i < sc->nrtes; i++)
        if (sc->rtes[i].alias && sc->rtes[i].hidden_rel == hidden && strcmp(sc->rtes[i].alias, alias) == 0)
            return &sc->rtes[i];
    return NULL;
}

static const pln_rte_t *find_rte(const pln_scope_t *sc, const char *alias)
{
    return find_rte_any(sc, alias, false);
}

/* A FROM item of any level that reads the relation `rel` names (resolved as a FROM name is) under an alias. */
static const pln_rte_t *aliased_rte(const pln_binder_t *b, const char *rel)
{
    if (!b->cat || !b->cat->snap)
        return NULL;
    cat_qname_t qn = {.name = rel};
    cm_err_t e = {0};
    const cat_item_t *it = cat_resolve_item(b->cat->snap, &b->cat->search, &qn, &e);
    cm_err_clear(&e);
    if (!it)
        return NULL;
    for (const pln_scope_t *sc = b->scope; sc; sc = sc->outer)
        for (int i = 0; i < sc->nrtes; i++) {
            const pln_rte_t *t = &sc->rtes[i];
            if (t->item && t->item->id == it->id && !t->hidden_rel && t->alias && strcmp(t->alias, rel) != 0)
                return t;
        }
    return NULL;
}

/* A name hidden under a join's alias: PostgreSQL's error differs from an unknown one. */
static bool missing_rte(pln_binder_t *b, const char *rel, int pos)
{
    const pln_rte_t *aliased = find_rte_any(b->scope, rel, true) ? NULL : aliased_rte(b, rel);
    if (aliased) {
        /* SELECT t.a FROM t AS x: PostgreSQL's errorMissingRTE points at the alias. */
        pln__error(b, pos, CM_ERRCODE_UNDEFINED_TABLE, "invalid reference to FROM-clause entry for table \"%s\"", rel);
        cm_err_set_hint(b->err, "Perhaps you meant to reference the table alias \"%s\".", aliased->alias);
        return false;
    }
    if (find_rte_any(b->scope, rel, true)) {
        pln__error(b, pos, CM_ERRCODE_UNDEFINED_TABLE, "invalid reference to FROM-clause entry for table \"%s\"", rel);
        cm_err_set_hint(b->err, "There is an entry for table \"%s\", but it cannot be referenced from this part of the query.",
                        rel);
        return false;
    }
    return pln__error(b, pos, CM_ERRCODE_UNDEFINED_TABLE, "missing FROM-clause entry for table \"%s\"", rel);
}

/* Columns named `name` in rte (or in every rte of sc when rte is NULL): how many, and the last. */
static int find_col(const pln_scope_t *sc, const pln_rte_t *rte, const char *name, const pln_rte_t **in, int *col)
{
    int hits = 0;
    for (int r = 0; sc && r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        if (rte ? t != rte : t->hidden_cols)
            continue;
        for (int c = 0; c < t->ncols; c++)
            if (strcmp(t->cols[c].name, name) == 0) {
                hits++;
                *in = t;
                *col = c;
            }
    }
    return hits;
}

static bool in_outer(const pln_binder_t *b, const char *rel, const char *name)
{
    for (const pln_scope_t *o = b->scope ? b->scope->outer : NULL; o; o = o->outer) {
        const pln_rte_t *in;
        int col;
        const pln_rte_t *r = rel ? find_rte(o, rel) : NULL;
        if (rel ? r != NULL : find_col(o, NULL, name, &in, &col) > 0)
            return true;
    }
    return false;
}

/* A reference to a catalog relation's column, for rewriting stored SQL when the column is renamed. */
static void note_colref(pln_binder_t *b, const sql_expr_t *e, const cat_item_t *item, int col)
{
    if (b->ncolrefs == b->colrefs_cap) {
        int cap = b->colrefs_cap ? 2 * b->colrefs_cap : 8;
        const sql_expr_t **es = cm_arena_alloc(b->arena, sizeof(*es) * (size_t)cap);
        const cat_item_t **is = cm_arena_alloc(b->arena, sizeof(*is) * (size_t)cap);
        int *cs = cm_arena_alloc(b->arena, sizeof(*cs) * (size_t)cap);
        if (b->ncolrefs) {
            memcpy(es, b->colref_expr, sizeof(*es) * (size_t)b->ncolrefs);
            memcpy(is, b->colref_item, sizeof(*is) * (size_t)b->ncolrefs);
            memcpy(cs, b->colref_col, sizeof(*cs) * (size_t)b->ncolrefs);
        }
        b->colref_expr = es, b->colref_item = is, b->colref_col = cs;
        b->colrefs_cap = cap;
    }
    b->colref_expr[b->ncolrefs] = e;
    b->colref_item[b->ncolrefs] = item;
    b->colref_col[b->ncolrefs++] = col;
}

ty_expr_t *pln__bind_column(pln_binder_t *b, const sql_expr_t *e)
{
    int n = e->names->count;
    const char *name = e->names->items[n - 1];
    const char *rel = n >= 2 ? e->names->items[n - 2] : NULL;
    const pln_scope_t *sc = b->scope;
    const pln_rte_t *rte = NULL, *in = NULL;
    int col = -1;
    if (rel && !(rte = find_rte(sc, rel))) {
        if (in_outer(b, rel, name))
            goto correlated;
        missing_rte(b, rel, e->pos);
        return NULL;
    }
    int hits = find_col(sc, rte, name, &in, &col);
    if (hits > 1) {
        pln__error(b, e->pos, CM_ERRCODE_AMBIGUOUS_COLUMN, "column reference \"%s\" is ambiguous", name);
        return NULL;
    }
    if (hits == 0) {
        if (!rel && in_outer(b, NULL, name))
            goto correlated;
        if (rel) {
            pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column %s.%s does not exist", rel, name);
            return NULL;
        }
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
        /* A column of an item this part of the query cannot see (INSERT's target from its VALUES):
         * PostgreSQL's errorMissingColumn says where it is. */
        for (int r = 0; sc && r < sc->nrtes; r++) {
            const pln_rte_t *t = &sc->rtes[r];
            for (int c = 0; t->hidden_cols && t->alias && c < t->ncols; c++)
                if (strcmp(t->cols[c].name, name) == 0) {
                    cm_err_set_hint(b->err,
                                    "There is a column named \"%s\" in table \"%s\", but it cannot be referenced from "
                                    "this part of the query.",
                                    name, t->alias);
                    return NULL;
                }
        }
        return NULL;
    }
    if (b->note_cols && in->item && col >= in->naliased)
        note_colref(b, e, in->item, col);
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, in->cols[col].type, 0);
    c->typmod = in->cols[col].typmod;
    c->index = col_index(in, col);
    pln__perm_mark_index(b, sc, c->index);
    c->location = e->pos;
    return c;
correlated:
    /* A column of an enclosing query: the nearest level that has the name, as PostgreSQL's scanNameSpaceForRefname. */
    for (pln_scope_t *o = b->scope->outer; o; o = o->outer) {
        const pln_rte_t *ot = NULL;
        if (rel && !(ot = find_rte(o, rel)))
            continue;
        hits = find_col(o, ot, name, &in, &col);
        if (hits == 0 && !rel)
            continue;
        if (hits == 0) {
            pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column %s.%s does not exist", rel, name);
            return NULL;
        }
        if (hits > 1) {
            pln__error(b, e->pos, CM_ERRCODE_AMBIGUOUS_COLUMN, "column reference \"%s\" is ambiguous", name);
            return NULL;
        }
        ty_expr_t *oc = ty_expr_new(b->arena, TY_EXPR_COLUMN, in->cols[col].type, 0);
        oc->typmod = in->cols[col].typmod;
        oc->index = col_index(in, col);
        oc->location = e->pos;
        pln__perm_mark_index(b, o, oc->index);
        return pln__outer_ref(b, o, oc, pln__column_name(o, oc->index, true, b->arena));
    }
    pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
    return NULL;
}

bool pln__expand_star(pln_binder_t *b, const sql_expr_t *e, ty_expr_t ***exprs, const char ***names, int *n)
{
    const pln_scope_t *sc = b->scope;
    const pln_rte_t *only = NULL;
    if (e->kind == SQL_EXPR_COLUMN) {
        const char *rel = e->names->items[e->names->count - 2];
        if (!(only = find_rte(sc, rel)))
            return missing_rte(b, rel, e->pos);
    } else if (!sc || sc->nrtes == 0) {
        return pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "SELECT * with no tables specified is not valid");
    }
    int total = 0;
    for (int r = 0; r < sc->nrtes; r++)
        total += sc->rtes[r].ncols;
    *exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(total ? total : 1));
    *names = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)(total ? total : 1));
    *n = 0;
    for (int r = 0; r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        if (only ? t != only : t->hidden_cols)
            continue;
        for (int c = 0; c < t->ncols; c++) {
            ty_expr_t *x = ty_expr_new(b->arena, TY_EXPR_COLUMN, t->cols[c].type, 0);
            x->typmod = t->cols[c].typmod;
            x->index = col_index(t, c);
            x->location = e->pos;
            pln__perm_mark_index(b, sc, x->index);
            (*exprs)[*n] = x;
            (*names)[*n] = t->cols[c].name;
            (*n)++;
        }
    }
    return true;
}

const char *pln__column_name(const pln_scope_t *scope, int index, bool qualified, cm_arena_t *a)
{
    for (int r = 0; scope && r < scope->nrtes; r++) {
        const pln_rte_t *t = &scope->rtes[r];
        for (int c = 0; !t->hidden_rel && c < t->ncols; c++)
            if (col_index(t, c) == index) {
                const char *col = t->cols[c].name;
                return qualified && t->alias ? cm_arena_printf(a, "%s.%s", t->alias, col) : col;
            }
    }
    return "?column?";
}

/*
 * pln_scope.c: the FROM clause and the names it brings into scope, as
 * PostgreSQL's transformFromClause and colNameToVar: subqueries and VALUES
 * lists in FROM (with their alias and column aliases), comma lists and
 * CROSS/INNER joins as a product (ON is a filter above it), column
 * references with PostgreSQL's errors (ambiguous, missing FROM-clause
 * entry, undefined column) and the expansion of * and t.*. Relations named
 * by the catalog (tables, views, sources) are not readable yet.
 */
#include "planner/pln_internal.h"

#include <string.h>

static bool add_rte(pln_binder_t *b, pln_scope_t *sc, const char *alias, int ncols, pln_column_t *cols)
{
    pln_rte_t *r = cm_arena_alloc(b->arena, sizeof(pln_rte_t) * (size_t)(sc->nrtes + 1));
    if (sc->nrtes)
        memcpy(r, sc->rtes, sizeof(pln_rte_t) * (size_t)sc->nrtes);
    r[sc->nrtes] = (pln_rte_t){.alias = alias, .ncols = ncols, .cols = cols, .offset = sc->ncols};
    sc->rtes = r;
    sc->nrtes++;
    sc->ncols += ncols;
    return true;
}

static bool bind_subquery(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, pln_rel_t **rel)
{
    if (!f->alias) {
        bool values = f->select->values != NULL && f->select->op == SQL_SETOP_NONE;
        pln__error(b, f->pos, CM_ERRCODE_SYNTAX_ERROR, "%s in FROM must have an alias",
                   values ? "VALUES" : "subquery");
        cm_err_set_hint(b->err, "For example, FROM (%s ...) [AS] foo.", values ? "VALUES" : "SELECT");
        return false;
    }
    /* A FROM subquery sees the enclosing query's names (for sublinks), not its siblings (no LATERAL). */
    pln_scope_t inner = {.outer = sc->outer};
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
    if (!ok)
        return false;
    int naliases = sql_list_len(f->col_aliases);
    if (naliases > q.ncols)
        return pln__error(b, -1, "42P10",
                          "table \"%s\" has %d columns available but %d columns specified", f->alias, q.ncols,
                          naliases);
    pln_column_t *cols = cm_arena_alloc(b->arena, sizeof(pln_column_t) * (size_t)(q.ncols ? q.ncols : 1));
    for (int i = 0; i < q.ncols; i++) {
        cols[i] = q.cols[i];
        if (i < naliases)
            cols[i].name = f->col_aliases->items[i];
    }
    *rel = q.rel;
    return add_rte(b, sc, f->alias, q.ncols, cols);
}

static bool bind_item(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, pln_rel_t **rel);

static pln_rel_t *product(pln_binder_t *b, pln_rel_t *l, pln_rel_t *r)
{
    pln_rel_t *p = pln__rel_new(b, PLN_REL_PRODUCT, l, l->ncols + r->ncols);
    p->right = r;
    memcpy(p->types, l->types, sizeof(ty_oid_t) * (size_t)l->ncols);
    memcpy(p->types + l->ncols, r->types, sizeof(ty_oid_t) * (size_t)r->ncols);
    return p;
}

static bool bind_join(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, pln_rel_t **rel)
{
    if (f->alias)   /* (a JOIN b) AS j hides a's and b's names, which the scope cannot express yet */
        return pln__error(b, f->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "an alias on a JOIN is not supported yet");
    if (f->natural || f->using_cols || (f->join != SQL_JOIN_INNER && f->join != SQL_JOIN_CROSS))
        return pln__error(b, f->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet",
                          f->natural ? "NATURAL JOIN" : f->using_cols ? "JOIN ... USING" : "outer join");
    pln_rel_t *l, *r;
    if (!bind_item(b, f->larg, sc, &l) || !bind_item(b, f->rarg, sc, &r))
        return false;
    *rel = product(b, l, r);
    if (f->on) {
        /* ON sees both sides, like WHERE, and is a filter over their product. */
        pln_scope_t *saved = b->scope;
        const char *saved_forbidden = b->agg_forbidden;
        pln_aggctx_t *saved_aggs = b->aggs;
        b->scope = sc;
        b->aggs = NULL;
        b->agg_forbidden = "JOIN conditions";
        ty_expr_t *on = pln__bind_expr(b, f->on);
        b->scope = saved;
        b->aggs = saved_aggs;
        b->agg_forbidden = saved_forbidden;
        if (!on || !(on = pln__coerce_bool(b, on, "JOIN/ON")))
            return false;
        pln_rel_t *flt = pln__rel_new(b, PLN_REL_FILTER, *rel, (*rel)->ncols);
        memcpy(flt->types, (*rel)->types, sizeof(ty_oid_t) * (size_t)(*rel)->ncols);
        flt->pred = on;
        *rel = flt;
    }
    return true;
}

static bool bind_item(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, pln_rel_t **rel)
{
    switch (f->kind) {
    case SQL_FROM_RELATION: {
        const char *name = f->names->items[f->names->count - 1];
        return pln__error(b, f->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "cannot read relation \"%s\": tables, views and sources are not supported yet", name);
    }
    case SQL_FROM_SUBQUERY:
        return bind_subquery(b, f, sc, rel);
    case SQL_FROM_JOIN:
        return bind_join(b, f, sc, rel);
    }
    return pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR, "unexpected FROM item");
}

bool pln__bind_from(pln_binder_t *b, const sql_list_t *from, pln_scope_t *scope, pln_rel_t **rel)
{
    *rel = NULL;
    for (int i = 0; i < sql_list_len(from); i++) {
        pln_rel_t *r;
        if (!bind_item(b, from->items[i], scope, &r))
            return false;
        *rel = *rel ? product(b, *rel, r) : r;
    }
    return true;
}

/* ===================================================== column references */

static const pln_rte_t *find_rte(const pln_scope_t *sc, const char *alias)
{
    for (int i = 0; sc && i < sc->nrtes; i++)
        if (sc->rtes[i].alias && strcmp(sc->rtes[i].alias, alias) == 0)
            return &sc->rtes[i];
    return NULL;
}

/* Columns named `name` in rte (or in every rte of sc when rte is NULL): how many, and the last. */
static int find_col(const pln_scope_t *sc, const pln_rte_t *rte, const char *name, const pln_rte_t **in, int *col)
{
    int hits = 0;
    for (int r = 0; sc && r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        if (rte && t != rte)
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
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_TABLE, "missing FROM-clause entry for table \"%s\"", rel);
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
        if (rel)
            pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column %s.%s does not exist", rel, name);
        else
            pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
        return NULL;
    }
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, in->cols[col].type, 0);
    c->typmod = in->cols[col].typmod;
    c->index = in->offset + col;
    c->location = e->pos;
    return c;
correlated:
    pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "correlated subqueries are not supported yet");
    return NULL;
}

bool pln__expand_star(pln_binder_t *b, const sql_expr_t *e, ty_expr_t ***exprs, const char ***names, int *n)
{
    const pln_scope_t *sc = b->scope;
    const pln_rte_t *only = NULL;
    if (e->kind == SQL_EXPR_COLUMN) {
        const char *rel = e->names->items[e->names->count - 2];
        if (!(only = find_rte(sc, rel)))
            return pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_TABLE, "missing FROM-clause entry for table \"%s\"", rel);
    } else if (!sc || sc->nrtes == 0) {
        return pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "SELECT * with no tables specified is not valid");
    }
    int total = only ? only->ncols : sc->ncols;
    *exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(total ? total : 1));
    *names = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)(total ? total : 1));
    *n = 0;
    for (int r = 0; r < sc->nrtes; r++) {
        const pln_rte_t *t = &sc->rtes[r];
        if (only && t != only)
            continue;
        for (int c = 0; c < t->ncols; c++) {
            ty_expr_t *x = ty_expr_new(b->arena, TY_EXPR_COLUMN, t->cols[c].type, 0);
            x->typmod = t->cols[c].typmod;
            x->index = t->offset + c;
            x->location = e->pos;
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
        if (index >= t->offset && index < t->offset + t->ncols) {
            const char *col = t->cols[index - t->offset].name;
            return qualified && t->alias ? cm_arena_printf(a, "%s.%s", t->alias, col) : col;
        }
    }
    return "?column?";
}

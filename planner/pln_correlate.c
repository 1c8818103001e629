/*
 * pln_correlate.c: subqueries that read columns of an enclosing query
 * (outer references), planned as joins instead of being run once per row.
 *
 * Binding: a column found in an enclosing level becomes an outer reference
 * (a COLUMN of index PLN_OUTER_BASE + slot) naming the level's sublink it
 * is inside; above that level's GROUP BY it is rewritten over the grouped
 * row, or is PostgreSQL's 42803 "subquery uses ungrouped column".
 *
 * Planning, once a level is bound (Neumann and Kemper's unnesting, the
 * way Materialize plans subqueries): for an operator (WHERE or HAVING
 * filter, or the targets' projection) whose expressions hold a correlated
 * sublink, with input I,
 *   D  = Distinct(Project(I, keys)): the distinct values of the outer
 *        references (and, for IN / ANY / ALL, of the left operand);
 *   SD = the subquery with D pushed through every operator: each row
 *        carries its key values in front, filters and projections read the
 *        key columns in place of the references, GROUP BY and DISTINCT and
 *        window partitions add the keys, LIMIT becomes a row_number() per
 *        key, an aggregate without GROUP BY is left-joined to D so that an
 *        empty group still gives its row (count 0), and a subtree without
 *        references is a product with D;
 * and I is left-joined to a summary of SD on the keys (IS NOT DISTINCT
 * FROM, so a NULL outer value finds its own rows):
 *   EXISTS      Distinct(keys, true): the marker column is not NULL;
 *   scalar      Reduce by keys of single_value(v), which fails with 21000 on
 *               a second row for one key; no row gives NULL;
 *   ARRAY       Reduce by keys of array_agg(v ORDER BY the subquery's sort
 *               values, carried along as extra columns); no row gives '{}';
 *   IN / ANY    Reduce by keys of bool_or(lhs op v) and bool_or(lhs op v IS
 *               NULL): true if one is true, else NULL if one is NULL, else
 *               false (also for no rows), SQL's three-valued answer; NOT IN
 *               is its negation; ALL the same with NOT (lhs op v).
 * References to levels further out stay in SD and are joined when their
 * own level is planned, so subqueries correlate at any depth.
 */
#include "planner/pln_internal.h"

#include <limits.h>
#include <string.h>

/* ============================================================ binding */

ty_expr_t *pln__outer_ref(pln_binder_t *b, pln_scope_t *owner, ty_expr_t *col, const char *name)
{
    if (b->norefs == b->orefs_cap) {
        int cap = b->orefs_cap ? b->orefs_cap * 2 : 8;
        pln_oref_t *n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (b->norefs)
            memcpy(n, b->orefs, sizeof(*n) * (size_t)b->norefs);
        b->orefs = n;
        b->orefs_cap = cap;
    }
    b->orefs[b->norefs] = (pln_oref_t){owner->id, owner->open_sublink, col, col->location, name};
    ty_expr_t *r = ty_expr_new(b->arena, TY_EXPR_COLUMN, col->type, 0);
    r->typmod = col->typmod;
    r->index = PLN_OUTER_BASE + b->norefs++;
    r->location = col->location;
    return r;
}

bool pln__sublink_regroup(pln_binder_t *b, const ty_expr_t *placeholder, ty_expr_t **keys, int nkeys)
{
    pln_sublink_t *sl = &b->sublinks[PLAN_SUBLINK_OF(placeholder->index)];
    if (!sl->correlated || sl->regrouped)
        return true;
    sl->regrouped = true;
    for (int i = 0; i < b->norefs; i++) {
        pln_oref_t *o = &b->orefs[i];
        if (o->sublink != sl->serial)
            continue;
        ty_expr_t *x = pln__regroup(b, o->expr, keys, nkeys);
        if (!x) {
            cm_err_clear(b->err);
            return pln__error(b, o->location, CM_ERRCODE_GROUPING_ERROR,
                              "subquery uses ungrouped column \"%s\" from outer query", o->name);
        }
        o->expr = x;
    }
    return true;
}

/* ============================================================ helpers */

typedef struct dctx {
    pln_binder_t *b;
    int m;                        /* key columns */
    int *keyof;                   /* per outer reference: its key column, -1 if not this sublink's */
    plan_rel_t *d;                 /* the distinct keys */
} dctx_t;

static ty_expr_t *col(pln_binder_t *b, int index, ty_oid_t type)
{
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, type, 0);
    c->index = index;
    return c;
}

static ty_expr_t *bool_const(pln_binder_t *b, int v)   /* v < 0: NULL */
{
    ty_datum_t d = {.isnull = v < 0, .v.b = v > 0};
    return ty_expr_const(b->arena, TY_BOOL, -1, d);
}

static ty_expr_t *node(pln_binder_t *b, ty_expr_kind_t kind, ty_oid_t type, ty_expr_t *x, ty_expr_t *y)
{
    ty_expr_t *e = ty_expr_new(b->arena, kind, type, y ? 2 : 1);
    e->args[0] = x;
    if (y)
        e->args[1] = y;
    return e;
}

static ty_expr_t *and_of(pln_binder_t *b, ty_expr_t *x, ty_expr_t *y)
{
    return !x ? y : !y ? x : node(b, TY_EXPR_AND, TY_BOOL, x, y);
}

/* x IS NOT DISTINCT FROM y: a NULL outer value matches the rows computed for NULL. */
static ty_expr_t *same_value(pln_binder_t *b, ty_expr_t *x, ty_expr_t *y)
{
    ty_expr_t *args[2] = {x, y};
    const ty_func_t *eq = pln__resolve(b, "=", true, args, 2, -1, true);
    if (!eq)
        return NULL;
    ty_expr_t *e = node(b, TY_EXPR_IS_DISTINCT, TY_BOOL, args[0], args[1]);
    e->func = eq;
    e->negated = true;
    return e;
}

static plan_rel_t *rel_new(pln_binder_t *b, plan_rel_kind_t kind, plan_rel_t *in, int ncols)
{
    return pln__rel_new(b, kind, in, ncols);
}

static plan_rel_t *project(pln_binder_t *b, plan_rel_t *in, ty_expr_t **es, int n)
{
    plan_rel_t *p = rel_new(b, PLAN_REL_PROJECT, in, n);
    p->exprs = es;
    for (int i = 0; i < n; i++)
        p->types[i] = es[i]->type;
    return p;
}

static ty_expr_t **exprs_new(pln_binder_t *b, int n)
{
    return cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
}

/* The columns from..from+n of rel as expressions. */
static void cols_of(pln_binder_t *b, const plan_rel_t *rel, int from, int n, ty_expr_t **out)
{
    for (int i = 0; i < n; i++)
        out[i] = col(b, from + i, rel->types[from + i]);
}

/* A join of l and r (kind LEFT/INNER...) with the columns of both, side by side. */
static plan_rel_t *join(pln_binder_t *b, plan_rel_t *l, plan_rel_t *r, plan_join_t kind, ty_expr_t *pred)
{
    plan_rel_t *j = rel_new(b, pred || kind != PLAN_JOIN_INNER ? PLAN_REL_JOIN : PLAN_REL_PRODUCT, l, l->ncols + r->ncols);
    j->right = r;
    j->join = kind;
    j->pred = pred;
    memcpy(j->types, l->types, sizeof(ty_oid_t) * (size_t)l->ncols);
    memcpy(j->types + l->ncols, r->types, sizeof(ty_oid_t) * (size_t)r->ncols);
    return j;
}

/* Key columns 0..m of a row at `at` equal to those of the row at `other` (one join row). */
static ty_expr_t *keys_match(dctx_t *c, const plan_rel_t *row, int at, int other)
{
    ty_expr_t *p = NULL;
    for (int i = 0; i < c->m; i++) {
        ty_expr_t *eq = same_value(c->b, col(c->b, at + i, row->types[at + i]), col(c->b, other + i, row->types[other + i]));
        if (!eq)
            return NULL;
        p = and_of(c->b, p, eq);
    }
    return p;
}

/*
 * A copy of a plan's operators (expressions are shared: nothing changes
 * them in place). D and the enclosing operator's input are used in several
 * places, and the optimizer rewrites operators in place: each use gets its own.
 */
static plan_rel_t *rel_copy(pln_binder_t *b, const plan_rel_t *r)
{
    if (!r)
        return NULL;
    plan_rel_t *n = cm_arena_alloc(b->arena, sizeof(*n));
    *n = *r;
    n->input = rel_copy(b, r->input);
    n->right = rel_copy(b, r->right);
    if (r->exprs) {
        n->exprs = exprs_new(b, r->ncols);
        memcpy(n->exprs, r->exprs, sizeof(ty_expr_t *) * (size_t)r->ncols);
    }
    return n;
}

/* ============================================================ references */

static bool expr_has(const dctx_t *c, const ty_expr_t *e)
{
    if (!e)
        return false;
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_OUTER_BASE)
        return c->keyof[e->index - PLN_OUTER_BASE] >= 0;
    for (int i = 0; i < e->nargs; i++)
        if (expr_has(c, e->args[i]))
            return true;
    return false;
}

static bool list_has(const dctx_t *c, ty_expr_t *const *es, int n)
{
    for (int i = 0; i < n; i++)
        if (expr_has(c, es[i]))
            return true;
    return false;
}

static bool agg_has(const dctx_t *c, const plan_agg_t *a)
{
    return list_has(c, a->args, a->nargs) || expr_has(c, a->filter) || list_has(c, a->order, a->norder);
}

static bool rel_has(const dctx_t *c, const plan_rel_t *r)
{
    if (!r)
        return false;
    if (rel_has(c, r->input) || rel_has(c, r->right))
        return true;
    for (int i = 0; i < r->nrows; i++)
        if (list_has(c, r->rows[i], r->ncols))
            return true;
    if (r->kind == PLAN_REL_PROJECT && list_has(c, r->exprs, r->ncols))
        return true;
    if (expr_has(c, r->pred) || list_has(c, r->keys, r->nkeys) || expr_has(c, r->limit) || expr_has(c, r->offset))
        return true;
    for (int i = 0; i < r->naggs; i++)
        if (agg_has(c, r->aggs[i]))
            return true;
    for (int i = 0; i < r->nctes; i++)
        if (rel_has(c, r->ctes[i]->def) || rel_has(c, r->ctes[i]->rec))
            return true;
    for (int i = 0; i < r->nfuncs; i++)
        if (list_has(c, r->funcs[i]->args, r->funcs[i]->nargs) || expr_has(c, r->funcs[i]->expr))
            return true;
    if (r->kind == PLAN_REL_WINDOW) {
        const plan_window_t *w = r->window;
        if (list_has(c, w->part, w->npart) || list_has(c, w->order, w->norder) || expr_has(c, w->frame.start_bound) ||
            expr_has(c, w->frame.end_bound))
            return true;
        for (int i = 0; i < w->nfuncs; i++)
            if (list_has(c, w->funcs[i]->args, w->funcs[i]->nargs) || (w->funcs[i]->agg && agg_has(c, w->funcs[i]->agg)))
                return true;
    }
    return false;
}

/* Where an input row's columns go: those before split move by lo, the others by hi; key k is at dbase + k. */
typedef struct cmap {
    int split, lo, hi, dbase;
} cmap_t;

static ty_expr_t *subst(const dctx_t *c, ty_expr_t *e, const cmap_t *m)
{
    if (!e)
        return NULL;
    if (e->kind == TY_EXPR_COLUMN) {
        int k = e->index < PLN_OUTER_BASE ? -2 : c->keyof ? c->keyof[e->index - PLN_OUTER_BASE] : -1;
        if (k == -1 || (k == -2 && e->index >= PLN_AGG_BASE))
            return e;   /* a reference to a level further out, joined when that level is planned */
        ty_expr_t *n = cm_arena_alloc(c->b->arena, sizeof(*n));
        *n = *e;
        n->index = k >= 0 ? m->dbase + k : e->index + (e->index < m->split ? m->lo : m->hi);
        return n;
    }
    if (e->nargs == 0)
        return e;
    ty_expr_t *n = cm_arena_alloc(c->b->arena, sizeof(*n));
    *n = *e;
    n->args = exprs_new(c->b, e->nargs);
    for (int i = 0; i < e->nargs; i++)
        n->args[i] = subst(c, e->args[i], m);
    return n;
}

static ty_expr_t **subst_list(const dctx_t *c, ty_expr_t *const *es, int n, const cmap_t *m)
{
    ty_expr_t **out = exprs_new(c->b, n);
    for (int i = 0; i < n; i++)
        out[i] = subst(c, es[i], m);
    return out;
}

static plan_agg_t *subst_agg(const dctx_t *c, const plan_agg_t *a, const cmap_t *m)
{
    plan_agg_t *n = cm_arena_alloc(c->b->arena, sizeof(*n));
    *n = *a;
    for (int i = 0; i < a->nargs; i++)
        n->args[i] = subst(c, a->args[i], m);
    n->filter = subst(c, a->filter, m);
    n->order = subst_list(c, a->order, a->norder, m);
    return n;
}

/* ============================================================ pushing D down */

static plan_rel_t *pushd(dctx_t *c, plan_rel_t *x);

/* rel's columns with the m key columns in front. */
static plan_rel_t *with_keys(dctx_t *c, plan_rel_kind_t kind, plan_rel_t *in, const plan_rel_t *like)
{
    plan_rel_t *r = rel_new(c->b, kind, in, c->m + like->ncols);
    memcpy(r->types, c->d->types, sizeof(ty_oid_t) * (size_t)c->m);
    memcpy(r->types + c->m, like->types, sizeof(ty_oid_t) * (size_t)like->ncols);
    return r;
}

static plan_sortkey_t *shift_keys(dctx_t *c, const plan_sortkey_t *k, int n, bool lead)
{
    int total = n + (lead ? c->m : 0);
    plan_sortkey_t *out = cm_arena_zalloc(c->b->arena, sizeof(*out) * (size_t)(total ? total : 1));
    int j = 0;
    for (int i = 0; lead && i < c->m; i++)
        out[j++] = (plan_sortkey_t){.col = i, .type = c->d->types[i]};
    for (int i = 0; i < n; i++) {
        out[j] = k[i];
        out[j++].col += c->m;
    }
    return out;
}

/* An aggregate without GROUP BY makes a row for every key, even without input rows (count 0). */
static plan_rel_t *reduce_every_key(dctx_t *c, const plan_rel_t *x, plan_rel_t *r)
{
    pln_binder_t *b = c->b;
    int m = c->m;
    ty_expr_t *on = keys_match(c, join(b, c->d, r, PLAN_JOIN_LEFT, NULL), 0, m);
    if (m && !on)
        return NULL;
    plan_rel_t *j = join(b, rel_copy(b, c->d), r, PLAN_JOIN_LEFT, on ? on : bool_const(b, 1));
    ty_expr_t **es = exprs_new(b, m + x->naggs);
    cols_of(b, j, 0, m, es);
    for (int a = 0; a < x->naggs; a++) {
        ty_expr_t *v = col(b, 2 * m + a, x->aggs[a]->type);
        if (x->aggs[a]->op == PLAN_AGG_COUNT || x->aggs[a]->op == PLAN_AGG_COUNT_STAR) {
            ty_datum_t zero = {.v.i = 0};
            v = node(b, TY_EXPR_COALESCE, TY_INT8, v, ty_expr_const(b->arena, TY_INT8, -1, zero));
        }
        es[m + a] = v;
    }
    return project(b, j, es, m + x->naggs);
}

/* LIMIT / OFFSET per key: row_number() over the keys in the sort's order, then a filter on it. */
static plan_rel_t *limit_per_key(dctx_t *c, plan_rel_t *x)
{
    pln_binder_t *b = c->b;
    int m = c->m;
    plan_rel_t *in = x->input, *sort = NULL;
    const plan_rel_t *pick = NULL;   /* a projection of the sorted rows (it may drop hidden columns) */
    if (in->kind == PLAN_REL_SORT) {
        sort = in;
    } else if (in->kind == PLAN_REL_PROJECT && in->input->kind == PLAN_REL_SORT) {
        pick = in;
        sort = in->input;
    }
    plan_rel_t *below = pushd(c, sort ? sort : in);
    if (!below)
        return NULL;
    plan_window_t *w = cm_arena_zalloc(b->arena, sizeof(*w));
    w->npart = m;
    w->part = exprs_new(b, m);
    cols_of(b, below, 0, m, w->part);
    if (sort) {
        w->norder = sort->nsort;
        w->order = exprs_new(b, w->norder);
        w->keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(w->norder + 1));
        for (int i = 0; i < w->norder; i++) {
            w->order[i] = col(b, sort->sort[i].col + m, sort->sort[i].type);
            w->keys[i] = sort->sort[i];
            w->keys[i].col = m + i;
        }
    }
    w->frame = (plan_frame_t){.mode = PLAN_FRAME_ROWS, .start = PLAN_BOUND_UNBOUNDED_PRECEDING, .end = PLAN_BOUND_CURRENT_ROW};
    plan_wfunc_t *rn = cm_arena_zalloc(b->arena, sizeof(*rn));
    *rn = (plan_wfunc_t){.kind = PLAN_WF_ROW_NUMBER, .name = "row_number", .type = TY_INT8, .typmod = -1};
    w->nfuncs = 1;
    w->funcs = cm_arena_alloc(b->arena, sizeof(plan_wfunc_t *));
    w->funcs[0] = rn;
    plan_rel_t *win = rel_new(b, PLAN_REL_WINDOW, below, below->ncols + 1);
    memcpy(win->types, below->types, sizeof(ty_oid_t) * (size_t)below->ncols);
    win->types[below->ncols] = TY_INT8;
    win->window = w;
    /* rn > offset AND (limit IS NULL OR rn <= offset + limit); NULL offset or limit mean none. They may read the keys. */
    cmap_t keys_only = {.split = INT_MAX};
    ty_expr_t *limit = subst(c, x->limit, &keys_only), *offset = subst(c, x->offset, &keys_only);
    ty_datum_t zero = {.v.i = 0};
    ty_expr_t *off = offset ? node(b, TY_EXPR_COALESCE, TY_INT8, offset, ty_expr_const(b->arena, TY_INT8, -1, zero))
                            : ty_expr_const(b->arena, TY_INT8, -1, zero);
    ty_expr_t *num = col(b, below->ncols, TY_INT8);
    ty_expr_t *pred = pln__make_op(b, ">", num, off, -1);
    if (!pred)
        return NULL;
    if (limit) {
        ty_expr_t *upto = pln__make_op(b, "+", off, limit, -1);
        ty_expr_t *le = upto ? pln__make_op(b, "<=", col(b, below->ncols, TY_INT8), upto, -1) : NULL;
        if (!le)
            return NULL;
        ty_expr_t *none = node(b, TY_EXPR_IS_NULL, TY_BOOL, limit, NULL);
        pred = and_of(b, pred, node(b, TY_EXPR_OR, TY_BOOL, none, le));
    }
    plan_rel_t *f = rel_new(b, PLAN_REL_FILTER, win, win->ncols);
    memcpy(f->types, win->types, sizeof(ty_oid_t) * (size_t)win->ncols);
    f->pred = pred;
    ty_expr_t **es = exprs_new(b, m + x->ncols);
    cols_of(b, f, 0, m, es);
    /* The projection over the sort is evaluated here, over [keys, sorted row, rn]: its outer
     * references become key columns (it need not be column-only: SELECT 5 ... ORDER BY c). */
    cmap_t map = {.split = INT_MAX, .lo = m};
    for (int i = 0; i < x->ncols; i++)
        es[m + i] = pick ? subst(c, pick->exprs[i], &map) : col(b, m + i, x->types[i]);
    return project(b, f, es, m + x->ncols);
}

static plan_rel_t *pushd_join(dctx_t *c, plan_rel_t *x)
{
    pln_binder_t *b = c->b;
    int m = c->m;
    plan_rel_t *a = x->input, *r = x->right;
    bool ra = rel_has(c, a), rb = rel_has(c, r);
    plan_join_t kind = x->kind == PLAN_REL_PRODUCT ? PLAN_JOIN_INNER : x->join;
    if (kind == PLAN_JOIN_FULL) {
        pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "correlated subqueries with FULL JOIN are not supported yet");
        return NULL;
    }
    bool dl, dr;
    if (kind == PLAN_JOIN_LEFT) {
        dl = true;
        dr = rb;
    } else if (kind == PLAN_JOIN_RIGHT) {
        dr = true;
        dl = ra;
    } else {
        dr = rb;
        dl = ra || !rb;
    }
    plan_rel_t *na = dl ? pushd(c, a) : a, *nb = dr ? pushd(c, r) : r;
    if (!na || !nb)
        return NULL;
    int wa = a->ncols;
    cmap_t map = {.split = wa, .lo = dl ? m : 0, .hi = (dl ? m : 0) + (dr ? m : 0), .dbase = dl ? 0 : wa};
    ty_expr_t *pred = subst(c, x->pred, &map);
    plan_rel_t *j = join(b, na, nb, kind, NULL);
    if (dl && dr) {
        ty_expr_t *eq = keys_match(c, j, 0, m + wa);
        if (m && !eq)
            return NULL;
        pred = and_of(b, pred, eq);
    }
    j = join(b, na, nb, kind, pred);
    if (dl && !dr)
        return j;
    /* Keys first: the right side's for a RIGHT JOIN (a left row may be missing), else the one there is. */
    int kat = dl && kind != PLAN_JOIN_RIGHT ? 0 : (dl ? m : 0) + wa;
    ty_expr_t **es = exprs_new(b, m + wa + r->ncols);
    cols_of(b, j, kat, m, es);
    cols_of(b, j, dl ? m : 0, wa, es + m);
    cols_of(b, j, (dl ? m : 0) + wa + (dr ? m : 0), r->ncols, es + m + wa);
    return project(b, j, es, m + wa + r->ncols);
}

static plan_rel_t *pushd_window(dctx_t *c, plan_rel_t *x, plan_rel_t *in)
{
    pln_binder_t *b = c->b;
    int m = c->m;
    cmap_t map = {.split = INT_MAX, .lo = m};
    const plan_window_t *w = x->window;
    plan_window_t *n = cm_arena_alloc(b->arena, sizeof(*n));
    *n = *w;
    n->npart = m + w->npart;
    n->part = exprs_new(b, n->npart);
    cols_of(b, in, 0, m, n->part);
    for (int i = 0; i < w->npart; i++)
        n->part[m + i] = subst(c, w->part[i], &map);
    n->order = subst_list(c, w->order, w->norder, &map);
    n->keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)(w->norder + 1));
    for (int i = 0; i < w->norder; i++) {
        n->keys[i] = w->keys[i];
        n->keys[i].col = n->npart + i;
    }
    n->frame.start_bound = subst(c, w->frame.start_bound, &map);
    n->frame.end_bound = subst(c, w->frame.end_bound, &map);
    n->funcs = cm_arena_alloc(b->arena, sizeof(plan_wfunc_t *) * (size_t)(w->nfuncs ? w->nfuncs : 1));
    for (int i = 0; i < w->nfuncs; i++) {
        plan_wfunc_t *f = cm_arena_alloc(b->arena, sizeof(*f));
        *f = *w->funcs[i];
        for (int k = 0; k < f->nargs; k++)
            f->args[k] = subst(c, f->args[k], &map);
        if (f->agg)
            f->agg = subst_agg(c, f->agg, &map);
        n->funcs[i] = f;
    }
    plan_rel_t *r = with_keys(c, PLAN_REL_WINDOW, in, x);
    r->window = n;
    return r;
}

static plan_rel_t *pushd(dctx_t *c, plan_rel_t *x)
{
    pln_binder_t *b = c->b;
    int m = c->m;
    if (!rel_has(c, x))
        return join(b, rel_copy(b, c->d), x, PLAN_JOIN_INNER, NULL);   /* the same rows for every key */
    cmap_t map = {.split = INT_MAX, .lo = m};
    plan_rel_t *in = NULL;
    if (x->kind != PLAN_REL_PRODUCT && x->kind != PLAN_REL_JOIN && x->kind != PLAN_REL_LIMIT && x->kind != PLAN_REL_SETOP &&
        x->input && !(in = pushd(c, x->input)))
        return NULL;
    switch (x->kind) {
    case PLAN_REL_FILTER: {
        plan_rel_t *f = with_keys(c, PLAN_REL_FILTER, in, x);
        f->pred = subst(c, x->pred, &map);
        return f;
    }
    case PLAN_REL_PROJECT: {
        ty_expr_t **es = exprs_new(b, m + x->ncols);
        cols_of(b, in, 0, m, es);
        for (int i = 0; i < x->ncols; i++)
            es[m + i] = subst(c, x->exprs[i], &map);
        return project(b, in, es, m + x->ncols);
    }
    case PLAN_REL_REDUCE: {
        plan_rel_t *r = with_keys(c, PLAN_REL_REDUCE, in, x);
        r->nkeys = m + x->nkeys;
        r->keys = exprs_new(b, r->nkeys);
        cols_of(b, in, 0, m, r->keys);
        for (int i = 0; i < x->nkeys; i++)
            r->keys[m + i] = subst(c, x->keys[i], &map);
        r->naggs = x->naggs;
        r->aggs = cm_arena_alloc(b->arena, sizeof(plan_agg_t *) * (size_t)(x->naggs ? x->naggs : 1));
        for (int i = 0; i < x->naggs; i++)
            r->aggs[i] = subst_agg(c, x->aggs[i], &map);
        return x->nkeys == 0 ? reduce_every_key(c, x, r) : r;
    }
    case PLAN_REL_SORT: {
        plan_rel_t *s = with_keys(c, PLAN_REL_SORT, in, x);
        s->nsort = x->nsort;
        s->sort = shift_keys(c, x->sort, x->nsort, false);
        return s;
    }
    case PLAN_REL_DISTINCT: {
        plan_rel_t *d = with_keys(c, PLAN_REL_DISTINCT, in, x);
        if (x->nsort) {
            d->nsort = m + x->nsort;
            d->sort = shift_keys(c, x->sort, x->nsort, true);
        }
        return d;
    }
    case PLAN_REL_WINDOW:
        return pushd_window(c, x, in);
    case PLAN_REL_LIMIT:
        return limit_per_key(c, x);
    case PLAN_REL_SETOP: {
        plan_rel_t *l = pushd(c, x->input), *r = pushd(c, x->right);
        if (!l || !r)
            return NULL;
        plan_rel_t *s = with_keys(c, PLAN_REL_SETOP, l, x);
        s->right = r;
        s->setop = x->setop;
        s->all = x->all;
        return s;
    }
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:
        return pushd_join(c, x);
    case PLAN_REL_VALUES: {
        /* Rows that read the references: one projection of D per row, their union. */
        plan_rel_t *u = NULL;
        for (int r = 0; r < x->nrows; r++) {
            ty_expr_t **es = exprs_new(b, m + x->ncols);
            cols_of(b, c->d, 0, m, es);
            for (int i = 0; i < x->ncols; i++)
                es[m + i] = subst(c, x->rows[r][i], &map);
            plan_rel_t *p = project(b, rel_copy(b, c->d), es, m + x->ncols);
            if (u) {
                plan_rel_t *s = with_keys(c, PLAN_REL_SETOP, u, x);
                s->right = p;
                s->setop = PLAN_SETOP_UNION;
                s->all = true;
                p = s;
            }
            u = p;
        }
        return u;
    }
    case PLAN_REL_LET: {
        /* The query reads the outer row; its CTEs must not (each is computed once, pln_cte.c). */
        for (int i = 0; i < x->nctes; i++)
            if (rel_has(c, x->ctes[i]->def) || rel_has(c, x->ctes[i]->rec)) {
                pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                           "a WITH query that reads an outer query's columns is not supported yet");
                return NULL;
            }
        plan_rel_t *l = with_keys(c, PLAN_REL_LET, in, x);
        l->nctes = x->nctes;
        l->ctes = x->ctes;
        return l;
    }
    case PLAN_REL_FLATMAP: {
        /* The functions' arguments read the input row, now behind the keys. */
        plan_rel_t *f = with_keys(c, PLAN_REL_FLATMAP, in, x);
        f->ordinality = x->ordinality;
        f->join = x->join;
        f->pred = subst(c, x->pred, &map);
        f->nfuncs = x->nfuncs;
        f->funcs = cm_arena_alloc(b->arena, sizeof(plan_srfcall_t *) * (size_t)(x->nfuncs ? x->nfuncs : 1));
        for (int i = 0; i < x->nfuncs; i++) {
            plan_srfcall_t *fn = cm_arena_alloc(b->arena, sizeof(*fn));
            *fn = *x->funcs[i];
            fn->expr = subst(c, fn->expr, &map);
            fn->args = subst_list(c, fn->args, fn->nargs, &map);
            f->funcs[i] = fn;
        }
        return f;
    }
    case PLAN_REL_CTE:      /* reads no expression: rel_has is false for it */
    case PLAN_REL_SESSION:
    case PLAN_REL_GET:
        break;
    }
    pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "unexpected operator %d in a correlated subquery", (int)x->kind);
    return NULL;
}

/* ============================================================ joining a sublink */

/* The expression node a sublink's value replaces: the IN / ANY / ALL around it, or its placeholder. */
typedef struct use {
    int k;                        /* sublink */
    ty_expr_t *at;                /* the node replaced */
    ty_expr_t *lhs;               /* IN / ANY / ALL: the left operand */
} use_t;

static bool is_placeholder(const ty_expr_t *e)
{
    return e && e->kind == TY_EXPR_PARAM && e->index < 0;
}

static bool pending(pln_binder_t *b, const ty_expr_t *e)
{
    if (!is_placeholder(e))
        return false;
    const pln_sublink_t *s = &b->sublinks[PLAN_SUBLINK_OF(e->index)];
    return s->correlated && !s->joined;
}

/* x IN / op ANY / op ALL (SELECT ...), not op ANY over an array a scalar or ARRAY subquery gives. */
static bool quantified(pln_binder_t *b, const ty_expr_t *placeholder)
{
    plan_sublink_kind_t k = b->sublinks[PLAN_SUBLINK_OF(placeholder->index)].kind;
    return k == PLAN_SUBLINK_IN || k == PLAN_SUBLINK_ANY || k == PLAN_SUBLINK_ALL;
}

static bool expr_pending(pln_binder_t *b, const ty_expr_t *e)
{
    if (!e)
        return false;
    if (pending(b, e))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (expr_pending(b, e->args[i]))
            return true;
    return false;
}

/* The first pending sublink in e (innermost operands first), or false. */
static bool find_use(pln_binder_t *b, ty_expr_t *e, use_t *u)
{
    if (!e)
        return false;
    if ((e->kind == TY_EXPR_IN_LIST || e->kind == TY_EXPR_ANY || e->kind == TY_EXPR_ALL) && e->nargs == 2 &&
        pending(b, e->args[1]) && quantified(b, e->args[1])) {
        if (find_use(b, e->args[0], u))
            return true;
        *u = (use_t){PLAN_SUBLINK_OF(e->args[1]->index), e, e->args[0]};
        return true;
    }
    for (int i = 0; i < e->nargs; i++)
        if (find_use(b, e->args[i], u))
            return true;
    if (pending(b, e)) {
        *u = (use_t){PLAN_SUBLINK_OF(e->index), e, NULL};
        return true;
    }
    return false;
}

static ty_expr_t *replace(pln_binder_t *b, ty_expr_t *e, const ty_expr_t *at, ty_expr_t *with)
{
    if (e == at)
        return with;
    if (!e || e->nargs == 0)
        return e;
    ty_expr_t *n = NULL;
    for (int i = 0; i < e->nargs; i++) {
        ty_expr_t *a = replace(b, e->args[i], at, with);
        if (a != e->args[i] && !n) {
            n = cm_arena_alloc(b->arena, sizeof(*n));
            *n = *e;
            n->args = exprs_new(b, e->nargs);
            memcpy(n->args, e->args, sizeof(ty_expr_t *) * (size_t)e->nargs);
        }
        if (n)
            n->args[i] = a;
    }
    return n ? n : e;
}

static void stand_in(pln_binder_t *b, pln_sublink_t *sl);

/*
 * Values of these types can be equal (IS NOT DISTINCT FROM) and still print differently: 1.0 and
 * 1.00, 0 and -0, '1 day' and '24 hours', jsonb 1.0 and 1, and arrays and records holding them.
 * D keeps one value per equal group, so the subquery would see (and show) another row's value.
 */
static bool equal_may_differ(ty_oid_t t)
{
    return t == TY_NUMERIC || t == TY_FLOAT4 || t == TY_FLOAT8 || t == TY_INTERVAL || t == TY_JSONB ||
           t == TY_BPCHAR || t == TY_RECORD || ty_array_elem_type(t) != TY_INVALID;
}

/* k's text form as one more key (an image of the value), so that D keeps each printed value apart. */
static void add_image_key(pln_binder_t *b, dctx_t *c, ty_expr_t *k, ty_expr_t **keys)
{
    if (!equal_may_differ(k->type) || !pln__can_coerce(k->type, TY_TEXT, PLN_CC_EXPLICIT))
        return;
    ty_expr_t *img = ty_expr_new(b->arena, TY_EXPR_CAST, TY_TEXT, 1);
    img->args[0] = k;
    img->typmod = -1;
    img->location = k->location;
    keys[c->m++] = img;
}

/* The distinct outer values references of `serial` read, as keys over the row (shifted by -base). */
static int collect_keys(pln_binder_t *b, dctx_t *c, int serial, int base, ty_expr_t **keys)
{
    c->b = b;
    c->keyof = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(b->norefs ? b->norefs : 1));
    cmap_t back = {.split = INT_MAX, .lo = -base};
    for (int i = 0; i < b->norefs; i++) {
        c->keyof[i] = -1;
        if (b->orefs[i].sublink != serial)
            continue;
        dctx_t none = {.b = b, .keyof = c->keyof};
        ty_expr_t *k = base ? subst(&none, b->orefs[i].expr, &back) : b->orefs[i].expr;
        for (int j = 0; j < c->m && c->keyof[i] < 0; j++)
            if (pln__expr_equal(keys[j], k))
                c->keyof[i] = j;
        if (c->keyof[i] < 0) {
            keys[c->m] = k;
            c->keyof[i] = c->m++;
            add_image_key(b, c, k, keys);
        }
    }
    return c->m;
}

plan_rel_t *pln__lateral_join(pln_binder_t *b, plan_rel_t *left, plan_rel_t *right, int serial, int base,
                             plan_join_t kind, ty_expr_t *pred)
{
    dctx_t c = {0};
    ty_expr_t **keys = exprs_new(b, 2 * b->norefs + 2);
    int m = collect_keys(b, &c, serial, base, keys);
    if (m == 0) {
        plan_rel_t *j = join(b, left, right, kind, pred);
        return j;
    }
    if (pln__has_correlated(b, right)) {
        /* Its subqueries are decorrelated later, over the item as it was bound: pushing the
         * keys through now would leave them reading columns that moved. */
        int at = -1;
        for (int i = 0; i < b->norefs && at < 0; i++)
            if (b->orefs[i].sublink == serial)
                at = b->orefs[i].location;
        pln__error(b, at, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "a subquery inside a LATERAL item that reads the items before it is not supported yet");
        return NULL;
    }
    int nl = left->ncols;
    plan_rel_t *dist = rel_new(b, PLAN_REL_DISTINCT, project(b, rel_copy(b, left), keys, m), m);
    for (int i = 0; i < m; i++)
        dist->types[i] = keys[i]->type;
    c.d = dist;
    plan_rel_t *sd = pushd(&c, right);
    if (!sd)
        return NULL;
    /* left JOIN sd ON keys match AND the written condition (its right columns move past the keys). */
    plan_rel_t *j = join(b, left, sd, kind, NULL);
    ty_expr_t *on = NULL;
    for (int i = 0; i < m; i++) {
        ty_expr_t *eq = same_value(b, keys[i], col(b, nl + i, sd->types[i]));
        if (!eq)
            return NULL;
        on = and_of(b, on, eq);
    }
    cmap_t map = {.split = nl, .lo = 0, .hi = m};
    on = and_of(b, on, subst(&c, pred, &map));
    j = join(b, left, sd, kind, on);
    ty_expr_t **es = exprs_new(b, nl + right->ncols);
    cols_of(b, j, 0, nl, es);
    cols_of(b, j, nl + m, right->ncols, es + nl);
    return project(b, j, es, nl + right->ncols);
}

/*
 * ARRAY(subquery) keeps its subquery's ORDER BY, but the joins and the
 * Reduce its rows go through keep no order: the sort's values travel as
 * columns after the value (rel becomes [v, o1..ok]) and array_agg sorts by
 * them (*keys, counted from the first order value as plan_agg_t's are). A
 * sort under the column-only projection that drops hidden ORDER BY values,
 * under DISTINCT (whose ORDER BY reads only v) or under LIMIT is found too.
 */
static plan_rel_t *expose_order(pln_binder_t *b, plan_rel_t *r, plan_sortkey_t **keys, int *nkeys)
{
    *nkeys = 0;
    if (r->kind == PLAN_REL_LIMIT || (r->kind == PLAN_REL_DISTINCT && r->nsort == 0)) {
        plan_rel_t *in = expose_order(b, r->input, keys, nkeys);
        if (*nkeys == 0)
            return r;
        plan_rel_t *n = cm_arena_alloc(b->arena, sizeof(*n));
        *n = *r;
        n->input = in;
        n->ncols = in->ncols;
        n->types = in->types;
        return n;
    }
    plan_rel_t *sort = r->kind == PLAN_REL_SORT ? r : r->kind == PLAN_REL_PROJECT && r->input->kind == PLAN_REL_SORT ? r->input : NULL;
    if (!sort || sort->nsort == 0)
        return r;
    int k = sort->nsort;
    ty_expr_t **es = exprs_new(b, 1 + k);
    es[0] = sort == r ? col(b, 0, r->types[0]) : r->exprs[0];
    plan_sortkey_t *ks = cm_arena_zalloc(b->arena, sizeof(*ks) * (size_t)k);
    for (int i = 0; i < k; i++) {
        es[1 + i] = col(b, sort->sort[i].col, sort->sort[i].type);
        ks[i] = sort->sort[i];
        ks[i].col = 1 + i;
    }
    *keys = ks;
    *nkeys = k;
    return project(b, sort, es, 1 + k);
}

/* I with one more column: the value of use u for each row (see the file comment). */
static plan_rel_t *join_sublink(pln_binder_t *b, plan_rel_t *in, const use_t *u, int base, ty_expr_t **value)
{
    pln_sublink_t *sl = &b->sublinks[u->k];
    if (u->lhs && expr_pending(b, u->lhs)) {
        pln__error(b, sl->location, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "a correlated subquery as the left operand of IN is not supported yet");
        return NULL;
    }
    dctx_t c = {.b = b};
    ty_expr_t **keys = exprs_new(b, 2 * b->norefs + 2);
    collect_keys(b, &c, sl->serial, base, keys);
    if (u->lhs)
        keys[c.m++] = u->lhs;   /* IN / ANY / ALL: the left operand's values decide too */
    int n = in->ncols, m = c.m;
    plan_rel_t *dist = rel_new(b, PLAN_REL_DISTINCT, project(b, rel_copy(b, in), keys, m), m);
    for (int i = 0; i < m; i++)
        dist->types[i] = keys[i]->type;
    c.d = dist;
    plan_sortkey_t *order = NULL;
    int norder = 0;
    plan_rel_t *sub = sl->kind == PLAN_SUBLINK_ARRAY ? expose_order(b, sl->rel, &order, &norder) : sl->rel;
    plan_rel_t *sd = pushd(&c, sub);
    if (!sd)
        return NULL;
    plan_rel_t *summary;
    ty_expr_t *v;                 /* over the join row [in, summary] */
    if (sl->kind == PLAN_SUBLINK_EXISTS) {
        ty_expr_t **es = exprs_new(b, m + 1);
        cols_of(b, sd, 0, m, es);
        es[m] = bool_const(b, 1);
        plan_rel_t *p = project(b, sd, es, m + 1);
        summary = rel_new(b, PLAN_REL_DISTINCT, p, m + 1);
        memcpy(summary->types, p->types, sizeof(ty_oid_t) * (size_t)(m + 1));
        v = node(b, TY_EXPR_IS_NULL, TY_BOOL, col(b, n + m, TY_BOOL), NULL);
        v->negated = true;
    } else if (sl->kind == PLAN_SUBLINK_ARRAY) {
        ty_expr_t *arg = col(b, m, sd->types[m]);
        arg->typmod = sl->typmod;
        plan_agg_t *agg = pln__agg_internal(b, PLAN_AGG_ARRAY_AGG, arg, sl->type);
        if (norder) {
            agg->norder = norder;
            agg->order = exprs_new(b, norder);
            cols_of(b, sd, m + 1, norder, agg->order);
            agg->keys = order;
        }
        summary = rel_new(b, PLAN_REL_REDUCE, sd, m + 1);
        summary->nkeys = m;
        summary->keys = exprs_new(b, m);
        cols_of(b, sd, 0, m, summary->keys);
        summary->naggs = 1;
        summary->aggs = cm_arena_alloc(b->arena, sizeof(plan_agg_t *));
        summary->aggs[0] = agg;
        memcpy(summary->types, sd->types, sizeof(ty_oid_t) * (size_t)m);
        summary->types[m] = sl->type;
        /* A key without rows has no summary row: its array is empty. */
        ty_oid_t elem = ty_array_elem_type(sl->type);
        ty_expr_t *none = ty_expr_const(b->arena, sl->type, -1, ty_array_make(b->arena, elem, NULL, 0));
        v = node(b, TY_EXPR_COALESCE, sl->type, col(b, n + m, sl->type), none);
        v->typmod = sl->typmod;
    } else if (sl->kind == PLAN_SUBLINK_EXPR) {
        ty_expr_t *arg = col(b, m, sd->types[m]);
        arg->typmod = sl->typmod;
        plan_agg_t *one = pln__agg_internal(b, PLAN_AGG_SINGLE, arg, sl->type);
        summary = rel_new(b, PLAN_REL_REDUCE, sd, m + 1);
        summary->nkeys = m;
        summary->keys = exprs_new(b, m);
        cols_of(b, sd, 0, m, summary->keys);
        summary->naggs = 1;
        summary->aggs = cm_arena_alloc(b->arena, sizeof(plan_agg_t *));
        summary->aggs[0] = one;
        memcpy(summary->types, sd->types, sizeof(ty_oid_t) * (size_t)m);
        summary->types[m] = sl->type;
        v = col(b, n + m, sl->type);
        v->typmod = sl->typmod;
    } else {
        /* lhs op value per row of the subquery, then whether one was true / NULL (false for ALL). */
        const ty_expr_t *at = u->at;
        ty_expr_t *val = col(b, m, sd->types[m]);
        ty_oid_t want = at->func->args[1];
        if (want != TY_INVALID && want != val->type && !(val = pln__coerce(b, val, want, -1, PLN_CC_IMPLICIT, -1)))
            return NULL;
        ty_expr_t *cmp = node(b, TY_EXPR_CALL, TY_BOOL, col(b, m - 1, keys[m - 1]->type), val);
        cmp->func = at->func;
        bool all = at->kind == TY_EXPR_ALL;
        ty_expr_t **es = exprs_new(b, m + 2);
        cols_of(b, sd, 0, m, es);
        es[m] = all ? node(b, TY_EXPR_NOT, TY_BOOL, cmp, NULL) : cmp;
        es[m + 1] = node(b, TY_EXPR_IS_NULL, TY_BOOL, cmp, NULL);
        plan_rel_t *p = project(b, sd, es, m + 2);
        summary = rel_new(b, PLAN_REL_REDUCE, p, m + 2);
        summary->nkeys = m;
        summary->keys = exprs_new(b, m);
        cols_of(b, p, 0, m, summary->keys);
        summary->naggs = 2;
        summary->aggs = cm_arena_alloc(b->arena, sizeof(plan_agg_t *) * 2);
        for (int i = 0; i < 2; i++)
            summary->aggs[i] = pln__agg_internal(b, PLAN_AGG_BOOL_OR, col(b, m + i, TY_BOOL), TY_BOOL);
        memcpy(summary->types, p->types, sizeof(ty_oid_t) * (size_t)(m + 2));
        ty_expr_t *hit = node(b, TY_EXPR_COALESCE, TY_BOOL, col(b, n + m, TY_BOOL), bool_const(b, 0));
        ty_expr_t *unknown = node(b, TY_EXPR_COALESCE, TY_BOOL, col(b, n + m + 1, TY_BOOL), bool_const(b, 0));
        if (!all) {
            /* ANY: true if a comparison was, else NULL if one was NULL, else false. */
            v = node(b, TY_EXPR_OR, TY_BOOL, hit, node(b, TY_EXPR_AND, TY_BOOL, unknown, bool_const(b, -1)));
        } else {
            /* ALL: false if a comparison was, else NULL if one was NULL, else true. */
            v = node(b, TY_EXPR_AND, TY_BOOL, node(b, TY_EXPR_NOT, TY_BOOL, hit, NULL),
                     node(b, TY_EXPR_OR, TY_BOOL, node(b, TY_EXPR_NOT, TY_BOOL, unknown, NULL), bool_const(b, -1)));
        }
        if (at->kind == TY_EXPR_IN_LIST && at->negated)
            v = node(b, TY_EXPR_NOT, TY_BOOL, v, NULL);
    }
    plan_rel_t *j = join(b, in, summary, PLAN_JOIN_LEFT, NULL);
    ty_expr_t *on = NULL;
    for (int i = 0; i < m; i++) {
        ty_expr_t *eq = same_value(b, keys[i], col(b, n + i, summary->types[i]));
        if (!eq)
            return NULL;
        on = and_of(b, on, eq);
    }
    j = join(b, in, summary, PLAN_JOIN_LEFT, on ? on : bool_const(b, 1));
    ty_expr_t **es = exprs_new(b, n + 1);
    cols_of(b, in, 0, n, es);
    es[n] = v;
    stand_in(b, sl);   /* its operators now live in the query's plan */
    *value = col(b, n, v->type);
    (*value)->typmod = v->typmod;
    return project(b, j, es, n + 1);
}

/* The empty stand-in a joined sublink keeps in the query's list of subqueries. */
static void stand_in(pln_binder_t *b, pln_sublink_t *sl)
{
    plan_rel_t *none = rel_new(b, PLAN_REL_VALUES, NULL, sl->rel->ncols);
    memcpy(none->types, sl->rel->types, sizeof(ty_oid_t) * (size_t)sl->rel->ncols);
    sl->rel = none;
    sl->joined = true;
}

/* A scalar subquery without FROM, WHERE or grouping: (SELECT f(outer columns)). */
static bool only_expression(const plan_rel_t *r)
{
    return r->kind == PLAN_REL_PROJECT && r->ncols == 1 && r->input->kind == PLAN_REL_VALUES &&
           r->input->nrows == 1 && r->input->ncols == 0;
}

/* Its expression over the enclosing row: evaluated where it is written, so CASE still decides whether it runs. */
static ty_expr_t *inline_expr(pln_binder_t *b, int serial, ty_expr_t *e, int base)
{
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_OUTER_BASE && b->orefs[e->index - PLN_OUTER_BASE].sublink == serial) {
        ty_expr_t *x = b->orefs[e->index - PLN_OUTER_BASE].expr;
        if (!base)
            return x;
        dctx_t none = {.b = b, .keyof = NULL};
        cmap_t back = {.split = INT_MAX, .lo = -base};
        return subst(&none, x, &back);
    }
    if (e->nargs == 0)
        return e;
    ty_expr_t *n = cm_arena_alloc(b->arena, sizeof(*n));
    *n = *e;
    n->args = exprs_new(b, e->nargs);
    for (int i = 0; i < e->nargs; i++)
        n->args[i] = inline_expr(b, serial, e->args[i], base);
    return n;
}

/* The expression slots of an operator that reads its input row (NULL for kinds that do not). */
typedef struct slots {
    int n, cap;
    ty_expr_t ***at;
} slots_t;

static void slot_add(pln_binder_t *b, slots_t *s, ty_expr_t **at)
{
    if (!*at)
        return;
    if (s->n == s->cap) {
        int cap = s->cap ? s->cap * 2 : 16;
        ty_expr_t ***n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (s->n)
            memcpy(n, s->at, sizeof(*n) * (size_t)s->n);
        s->at = n;
        s->cap = cap;
    }
    s->at[s->n++] = at;
}

static void slot_agg(pln_binder_t *b, slots_t *s, plan_agg_t *a)
{
    for (int k = 0; k < a->nargs; k++)
        slot_add(b, s, &a->args[k]);
    slot_add(b, s, &a->filter);
    for (int k = 0; k < a->norder; k++)
        slot_add(b, s, &a->order[k]);
}

static void gather(pln_binder_t *b, plan_rel_t *r, slots_t *s)
{
    switch (r->kind) {
    case PLAN_REL_FILTER:
        slot_add(b, s, &r->pred);
        return;
    case PLAN_REL_PROJECT:
        for (int i = 0; i < r->ncols; i++)
            slot_add(b, s, &r->exprs[i]);
        return;
    case PLAN_REL_REDUCE:
        for (int i = 0; i < r->nkeys; i++)
            slot_add(b, s, &r->keys[i]);
        for (int i = 0; i < r->naggs; i++)
            slot_agg(b, s, r->aggs[i]);
        return;
    case PLAN_REL_WINDOW: {
        plan_window_t *w = r->window;
        for (int i = 0; i < w->npart; i++)
            slot_add(b, s, &w->part[i]);
        for (int i = 0; i < w->norder; i++)
            slot_add(b, s, &w->order[i]);
        slot_add(b, s, &w->frame.start_bound);
        slot_add(b, s, &w->frame.end_bound);
        for (int i = 0; i < w->nfuncs; i++) {
            for (int k = 0; k < w->funcs[i]->nargs; k++)
                slot_add(b, s, &w->funcs[i]->args[k]);
            if (w->funcs[i]->agg)
                slot_agg(b, s, w->funcs[i]->agg);
        }
        return;
    }
    default:
        return;
    }
}

/* An operator's expressions with its correlated sublinks joined into its input. */
static plan_rel_t *join_all(pln_binder_t *b, plan_rel_t *r, const slots_t *s, int base)
{
    int n = r->input->ncols;
    for (;;) {
        use_t u = {0};
        bool found = false;
        for (int i = 0; i < s->n && !found; i++)
            found = find_use(b, *s->at[i], &u);
        if (!found)
            break;
        ty_expr_t *value;
        pln_sublink_t *sl = &b->sublinks[u.k];
        if (sl->kind == PLAN_SUBLINK_EXPR && only_expression(sl->rel)) {
            value = inline_expr(b, sl->serial, sl->rel->exprs[0], base);
            stand_in(b, sl);
        } else {
            plan_rel_t *in = join_sublink(b, r->input, &u, base, &value);
            if (!in)
                return NULL;
            r->input = in;
        }
        for (int i = 0; i < s->n; i++)
            *s->at[i] = replace(b, *s->at[i], u.at, value);
    }
    int added = r->input->ncols - n;
    if (added == 0 || r->kind == PLAN_REL_PROJECT || r->kind == PLAN_REL_REDUCE)
        return r;   /* their columns are their expressions' */
    /* A filter or window passes its input's columns on: the joined values go again. */
    if (r->kind == PLAN_REL_FILTER) {
        r->ncols = r->input->ncols;
        r->types = r->input->types;
    } else {
        plan_rel_t *w = rel_new(b, PLAN_REL_WINDOW, r->input, r->input->ncols + r->window->nfuncs);
        memcpy(w->types, r->input->types, sizeof(ty_oid_t) * (size_t)r->input->ncols);
        memcpy(w->types + r->input->ncols, r->types + n, sizeof(ty_oid_t) * (size_t)r->window->nfuncs);
        w->window = r->window;
        r = w;
    }
    int keep = r->ncols - added;
    ty_expr_t **cols = exprs_new(b, keep);
    cols_of(b, r, 0, n, cols);
    for (int i = n; i < keep; i++)
        cols[i] = col(b, i + added, r->types[i + added]);
    return project(b, r, cols, keep);
}

bool pln__has_correlated(pln_binder_t *b, const plan_rel_t *r)
{
    if (!r)
        return false;
    if (pln__has_correlated(b, r->input) || pln__has_correlated(b, r->right))
        return true;
    for (int i = 0; i < r->nrows; i++)
        for (int k = 0; k < r->ncols; k++)
            if (expr_pending(b, r->rows[i][k]))
                return true;
    if (expr_pending(b, r->pred) || expr_pending(b, r->limit) || expr_pending(b, r->offset))
        return true;
    slots_t s = {0};
    gather(b, (plan_rel_t *)r, &s);
    for (int i = 0; i < s.n; i++)
        if (expr_pending(b, *s.at[i]))
            return true;
    return false;
}

static plan_rel_t *walk(pln_binder_t *b, plan_rel_t *r)
{
    if (!r)
        return r;
    if (r->input && !(r->input = walk(b, r->input)))
        return NULL;
    if (r->right && !(r->right = walk(b, r->right)))
        return NULL;
    slots_t s = {0};
    gather(b, r, &s);
    for (int i = 0; i < s.n; i++)
        if (expr_pending(b, *s.at[i]))
            return join_all(b, r, &s, 0);
    return r;
}

/* Which side of a join row of nl left columns e reads: 1 left, 2 right, 3 both, 0 neither. */
static int sides(const ty_expr_t *e, int nl)
{
    if (!e)
        return 0;
    if (e->kind == TY_EXPR_COLUMN)
        return e->index >= PLN_AGG_BASE ? 0 : e->index < nl ? 1 : 2;
    int s = 0;
    for (int i = 0; i < e->nargs; i++)
        s |= sides(e->args[i], nl);
    return s;
}

/*
 * An outer join's condition: each subquery in it reads one side only (as a
 * rule the preserved one), so its value is joined to that side's rows and
 * the condition reads it there.
 */
static plan_rel_t *decorrelate_outer_on(pln_binder_t *b, plan_rel_t *j, int base)
{
    plan_rel_t *l = j->input, *r = j->right;
    int nl0 = l->ncols, nr0 = r->ncols;
    ty_expr_t *pred = j->pred;
    for (;;) {
        use_t u = {0};
        if (!find_use(b, pred, &u))
            break;
        pln_sublink_t *sl = &b->sublinks[u.k];
        dctx_t c = {0};
        ty_expr_t **keys = exprs_new(b, 2 * b->norefs + 2);
        int m = collect_keys(b, &c, sl->serial, base, keys);
        int nl = l->ncols;
        int side = sides(u.lhs, nl);
        for (int i = 0; i < m; i++)
            side |= sides(keys[i], nl0);
        if (side == 3) {
            pln__error(b, sl->location, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "a subquery in an outer join's condition that reads both sides is not supported yet");
            return NULL;
        }
        bool right = side == 2;
        ty_expr_t *value;
        use_t su = u;
        cmap_t to_right = {.split = INT_MAX, .lo = -nl};
        if (right && u.lhs)
            su.lhs = subst(&c, u.lhs, &to_right);
        plan_rel_t *in = join_sublink(b, right ? r : l, &su, right ? base + nl0 : base, &value);
        if (!in)
            return NULL;
        /* The condition's columns: the left side's stay, the right side's move past a new left column. */
        ty_expr_t *v = col(b, right ? nl + r->ncols : nl, value->type);
        v->typmod = value->typmod;
        if (right) {
            pred = replace(b, pred, u.at, v);
            r = in;
        } else {
            /* The right side's columns move past the new left one; a constant marks the value's place meanwhile. */
            ty_expr_t *mark = bool_const(b, -1);
            cmap_t shift = {.split = nl, .lo = 0, .hi = 1};
            dctx_t none = {.b = b};
            pred = replace(b, subst(&none, replace(b, pred, u.at, mark), &shift), mark, v);
            l = in;
        }
    }
    plan_rel_t *n = join(b, l, r, j->join, pred);
    ty_expr_t **es = exprs_new(b, nl0 + nr0);
    cols_of(b, n, 0, nl0, es);
    cols_of(b, n, l->ncols, nr0, es + nl0);
    return project(b, n, es, nl0 + nr0);
}

plan_rel_t *pln__decorrelate_on(pln_binder_t *b, plan_rel_t *j, int base)
{
    if (j->join != PLAN_JOIN_INNER)
        return decorrelate_outer_on(b, j, base);
    /* An inner join's condition is a filter over the product: its subqueries join there. */
    plan_rel_t *l = j->input, *r = j->right;
    ty_expr_t *on = j->pred;
    plan_rel_t *f = rel_new(b, PLAN_REL_FILTER, join(b, l, r, PLAN_JOIN_INNER, NULL), l->ncols + r->ncols);
    memcpy(f->types, f->input->types, sizeof(ty_oid_t) * (size_t)f->ncols);
    f->pred = on;
    slots_t s = {0};
    gather(b, f, &s);
    return join_all(b, f, &s, base);
}

plan_rel_t *pln__decorrelate(pln_binder_t *b, plan_rel_t *rel)
{
    bool any = false;
    for (int i = 0; i < b->nsublinks && !any; i++)
        any = b->sublinks[i].correlated && !b->sublinks[i].joined;
    if (!any)
        return rel;
    if (!(rel = walk(b, rel)))
        return NULL;
    if (pln__has_correlated(b, rel)) {
        /* In a materialized view uncorrelated subqueries are joined too (join_sublinks). */
        pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   b->join_sublinks ? "materialized views with subqueries in VALUES, LIMIT or OFFSET are not supported yet"
                                    : "correlated subqueries are not supported in VALUES, LIMIT or OFFSET yet");
        return NULL;
    }
    return rel;
}

/*
 * pln_cte.c: WITH [RECURSIVE] queries, as PostgreSQL's parse_cte.c binds
 * them and its CteScan / RecursiveUnion run them.
 *
 * Binding. Each WITH pushes its items on the binder's WITH chain before
 * the query below it is bound; a one-part FROM name that matches an item
 * in scope reads that item (and hides any relation of the same name). In a
 * plain WITH an item sees only the items before it (a later one is 42P01
 * with PostgreSQL's detail and hint); in WITH RECURSIVE every item sees
 * every other, items are bound in dependency order, a cycle through
 * several items is 0A000, and an item that reads itself must be
 * "non-recursive-term UNION [ALL] recursive-term" with the single
 * reference placed where PostgreSQL's checkWellFormedRecursion allows it
 * (42P19 otherwise). Those checks walk the syntax tree before binding, as
 * PostgreSQL does, so their errors come first.
 *
 * Plans. A query with WITH is a LET over its query, listing the items it
 * read; each reference is a CTE operator naming the item. In a recursive
 * item, the recursive term's reference is the worktable: the rows the
 * previous iteration added. EXPLAIN prints a LET as Materialize's With /
 * Return block and a reference as "Get l<id>".
 *
 * Execution. An item's rows are made once per execution, when a reference
 * first needs them, and only as far as they are read: a reader that has
 * seen every row made so far makes one more. A recursive item runs
 * PostgreSQL's iteration: the non-recursive term's rows, then the
 * recursive term over the last iteration's rows until it adds none (with
 * UNION, rows seen before are dropped). So `LIMIT` over an endless
 * recursion stops, as in PostgreSQL. The number of iterations is bounded
 * by the setting max_recursive_iterations (54000 beyond it), so a
 * recursion that never ends fails cleanly instead of running forever.
 */
#include "planner/pln_internal.h"

#include <stdlib.h>
#include <string.h>

/* Used when no session answers for the setting (unit tests, workers later). */
#define EX_RECURSIVE_ITERATIONS_DEFAULT 1000000

typedef struct pln_withitem {
    const sql_cte_t *def;
    plan_cte_t *cte;               /* NULL until bound */
    int ncols;
    plan_column_t *cols;
    bool visible;                 /* may be read from where binding is now */
    bool recursing;               /* its recursive term is being bound: a reference reads the worktable */
} pln_withitem_t;

typedef struct pln_with pln_with_t;
struct pln_with {
    int n;
    pln_withitem_t *items;
    bool recursive;
    struct pln_with *outer;
};

/* ============================================================ syntax walks */

/* Where a reference to the recursive item is (PostgreSQL's RecursionContext). */
typedef enum rctx {
    RC_OK,
    RC_NONRECURSIVE,
    RC_SUBLINK,
    RC_OUTERJOIN,
    RC_INTERSECT,
    RC_EXCEPT,
    RC_ANY,                       /* only counting references (dependency order) */
} rctx_t;

typedef struct walk {
    pln_binder_t *b;
    const char *name;
    int count;                    /* references met */
    bool failed;
} walk_t;

static void walk_select(walk_t *w, const sql_select_t *s, rctx_t ctx);
static void walk_expr(walk_t *w, const sql_expr_t *e, rctx_t ctx);

static void walk_list(walk_t *w, const sql_list_t *l, rctx_t ctx)
{
    for (int i = 0; i < sql_list_len(l) && !w->failed; i++)
        walk_expr(w, l->items[i], ctx);
}

static void walk_sorts(walk_t *w, const sql_list_t *l, rctx_t ctx)
{
    for (int i = 0; i < sql_list_len(l) && !w->failed; i++)
        walk_expr(w, ((const sql_sort_t *)l->items[i])->expr, ctx);
}

static void walk_expr(walk_t *w, const sql_expr_t *e, rctx_t ctx)
{
    if (!e || w->failed)
        return;
    walk_expr(w, e->arg, ctx);
    walk_expr(w, e->left, ctx);
    walk_expr(w, e->right, ctx);
    walk_expr(w, e->def, ctx);
    walk_expr(w, e->agg_filter, ctx);
    walk_list(w, e->args, ctx);
    walk_sorts(w, e->agg_order, ctx);
    if (e->kind == SQL_EXPR_SUBQUERY && e->select)
        walk_select(w, e->select, ctx == RC_OK ? RC_SUBLINK : ctx);
}

static void reference(walk_t *w, const sql_from_t *f, rctx_t ctx)
{
    static const char *const where[] = {
        [RC_NONRECURSIVE] = "within its non-recursive term", [RC_SUBLINK] = "within a subquery",
        [RC_OUTERJOIN] = "within an outer join", [RC_INTERSECT] = "within INTERSECT", [RC_EXCEPT] = "within EXCEPT"};
    w->count++;
    if (ctx == RC_ANY)
        return;
    if (ctx != RC_OK) {
        w->failed = true;
        pln__error(w->b, f->pos, "42P19", "recursive reference to query \"%s\" must not appear %s", w->name, where[ctx]);
    } else if (w->count > 1) {
        w->failed = true;
        pln__error(w->b, f->pos, "42P19", "recursive reference to query \"%s\" must not appear more than once", w->name);
    }
}

static void walk_from(walk_t *w, const sql_from_t *f, rctx_t ctx)
{
    if (!f || w->failed)
        return;
    switch (f->kind) {
    case SQL_FROM_RELATION:
        if (f->names->count == 1 && strcmp(f->names->items[0], w->name) == 0)
            reference(w, f, ctx);
        return;
    case SQL_FROM_SUBQUERY:
        walk_select(w, f->select, ctx);
        return;
    case SQL_FROM_FUNCTION:
        walk_expr(w, f->func, ctx);
        return;
    case SQL_FROM_JOIN: {
        rctx_t outer = ctx == RC_OK ? RC_OUTERJOIN : ctx;
        bool left_outer = f->join == SQL_JOIN_RIGHT || f->join == SQL_JOIN_FULL;
        bool right_outer = f->join == SQL_JOIN_LEFT || f->join == SQL_JOIN_FULL;
        walk_from(w, f->larg, left_outer ? outer : ctx);
        walk_from(w, f->rarg, right_outer ? outer : ctx);
        walk_expr(w, f->on, ctx);
        return;
    }
    }
}

static bool defines(const sql_select_t *s, const char *name)
{
    for (int i = 0; i < sql_list_len(s->with); i++)
        if (strcmp(((const sql_cte_t *)s->with->items[i])->name, name) == 0)
            return true;
    return false;
}

/* The first aggregate call in e outside subqueries, or NULL. */
static const sql_expr_t *find_agg(const sql_expr_t *e)
{
    if (!e || e->kind == SQL_EXPR_SUBQUERY)
        return NULL;
    if (e->kind == SQL_EXPR_FUNC && !e->over && pln__is_aggregate(e->names->items[e->names->count - 1]))
        return e;
    const sql_expr_t *kids[] = {e->arg, e->left, e->right, e->def};
    for (size_t i = 0; i < CM_ARRAY_LEN(kids); i++) {
        const sql_expr_t *a = find_agg(kids[i]);
        if (a)
            return a;
    }
    for (int i = 0; i < sql_list_len(e->args); i++) {
        const sql_expr_t *a = find_agg(e->args->items[i]);
        if (a)
            return a;
    }
    return NULL;
}

static void walk_select(walk_t *w, const sql_select_t *s, rctx_t ctx)
{
    if (!s || w->failed || defines(s, w->name))
        return;   /* an inner WITH of the same name hides the item */
    for (int i = 0; i < sql_list_len(s->with) && !w->failed; i++)
        walk_select(w, ((const sql_cte_t *)s->with->items[i])->query, ctx);
    if (s->op != SQL_SETOP_NONE) {
        /* As PostgreSQL: INTERSECT ALL holds no reference, EXCEPT none on its right (ALL: none at all). */
        rctx_t l = ctx, r = ctx;
        if (ctx == RC_OK && s->op == SQL_SETOP_INTERSECT && s->set_all)
            l = r = RC_INTERSECT;
        else if (ctx == RC_OK && s->op == SQL_SETOP_EXCEPT)
            l = s->set_all ? RC_EXCEPT : ctx, r = RC_EXCEPT;
        walk_select(w, s->larg, l);
        walk_select(w, s->rarg, r);
    } else {
        int before = w->count;
        for (int i = 0; i < sql_list_len(s->from) && !w->failed; i++)
            walk_from(w, s->from->items[i], ctx);
        if (ctx == RC_OK && w->count > before && !w->failed) {
            /* PostgreSQL's parseCheckAggregates: no aggregate at the level that reads the worktable. */
            const sql_expr_t *agg = NULL;
            for (int i = 0; i < sql_list_len(s->targets) && !agg; i++)
                agg = find_agg(((const sql_target_t *)s->targets->items[i])->expr);
            if (!agg)
                agg = find_agg(s->having);
            if (agg) {
                w->failed = true;
                pln__error(w->b, agg->pos, "42P19",
                           "aggregate functions are not allowed in a recursive query's recursive term");
                return;
            }
        }
        for (int i = 0; i < sql_list_len(s->targets) && !w->failed; i++)
            walk_expr(w, ((const sql_target_t *)s->targets->items[i])->expr, ctx);
        walk_expr(w, s->where, ctx);
        walk_list(w, s->group_by, ctx);
        walk_expr(w, s->having, ctx);
        walk_list(w, s->distinct_on, ctx);
        for (int r = 0; r < sql_list_len(s->values) && !w->failed; r++)
            walk_list(w, s->values->items[r], ctx);
    }
    walk_sorts(w, s->order_by, ctx);
    walk_expr(w, s->limit, ctx);
    walk_expr(w, s->offset, ctx);
}

static int count_refs(pln_binder_t *b, const sql_select_t *s, const char *name)
{
    walk_t w = {.b = b, .name = name};
    walk_select(&w, s, RC_ANY);
    return w.count;
}

/* ============================================================ binding */

/* Binds a query as a FROM subquery is: its own level, no aggregates of the outer one. */
static bool bind_query(pln_binder_t *b, const sql_select_t *s, bool setop_leaf, pln_bound_t *q)
{
    pln_aggctx_t *saved_aggs = b->aggs;
    const char *saved_forbidden = b->agg_forbidden;
    struct pln_srfctx *saved_srfs = b->srfs;
    b->aggs = NULL;
    b->srfs = NULL;
    b->setop_leaf = setop_leaf;
    bool ok = pln__bind_select(b, s, q);
    b->aggs = saved_aggs;
    b->agg_forbidden = saved_forbidden;
    b->srfs = saved_srfs;
    return ok;
}

static bool set_columns(pln_binder_t *b, pln_withitem_t *it, const pln_bound_t *q)
{
    const sql_cte_t *d = it->def;
    int naliases = sql_list_len(d->columns);
    if (naliases > q->ncols)
        return pln__error(b, d->pos, "42P10", "WITH query \"%s\" has %d columns available but %d columns specified",
                          d->name, q->ncols, naliases);
    it->ncols = q->ncols;
    it->cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(q->ncols ? q->ncols : 1));
    for (int i = 0; i < q->ncols; i++) {
        it->cols[i] = q->cols[i];
        if (i < naliases)
            it->cols[i].name = d->columns->items[i];
    }
    plan_cte_t *c = cm_arena_zalloc(b->arena, sizeof(*c));
    c->id = b->nctes++;
    c->name = d->name;
    c->ncols = q->ncols;
    c->types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)(q->ncols ? q->ncols : 1));
    for (int i = 0; i < q->ncols; i++)
        c->types[i] = q->cols[i].type;
    c->def = q->rel;
    it->cte = c;
    return true;
}

static int first_target_pos(const sql_select_t *s)
{
    while (s->op != SQL_SETOP_NONE)
        s = s->larg;
    if (sql_list_len(s->targets) > 0)
        return ((const sql_target_t *)s->targets->items[0])->pos;
    if (s->values && sql_list_len(s->values->items[0]) > 0)
        return ((const sql_expr_t *)((const sql_list_t *)s->values->items[0])->items[0])->pos;
    return s->pos;
}

/* Where PostgreSQL points for a column of a query: its target's expression, when written as one. */
static int target_pos(const sql_select_t *s, int i, int fallback)
{
    while (s->op != SQL_SETOP_NONE)
        s = s->larg;
    if (i < sql_list_len(s->targets)) {
        const sql_target_t *t = s->targets->items[i];
        if (t->expr->kind != SQL_EXPR_STAR && !(t->expr->kind == SQL_EXPR_COLUMN && t->expr->star)) {
            /* PostgreSQL's exprLocation: the leftmost token ('a' of 'a'::varchar, not the ::). */
            int pos = t->pos;
            for (const sql_expr_t *e = t->expr; e; e = e->kind == SQL_EXPR_OP ? e->left : e->arg) {
                if (e->kind != SQL_EXPR_CAST && e->kind != SQL_EXPR_OP && e->kind != SQL_EXPR_COLLATE &&
                    e->kind != SQL_EXPR_SUBSCRIPT)
                    break;
                const sql_expr_t *first = e->kind == SQL_EXPR_OP ? e->left : e->arg;
                if (first && first->pos < pos)
                    pos = first->pos;
            }
            return pos;
        }
    }
    return fallback;
}

static const char *type_with_mod(pln_binder_t *b, ty_oid_t type, int32_t typmod)
{
    cm_buf_t t;
    cm_buf_init(&t, 0);
    ty_format_type(type, typmod, &t);
    const char *s = cm_arena_strndup(b->arena, (const char *)t.data, t.len);
    cm_buf_free(&t);
    return s;
}

/*
 * A recursive item: checked as PostgreSQL's checkWellFormedRecursion, its
 * non-recursive term bound first (it fixes the columns), then the recursive
 * term with the item readable as the worktable, then their column types
 * checked as PostgreSQL's analyzeCTE does.
 */
static bool bind_recursive(pln_binder_t *b, pln_withitem_t *it)
{
    const sql_cte_t *d = it->def;
    const sql_select_t *q = d->query;
    if (q->op != SQL_SETOP_UNION)
        return pln__error(b, d->pos, "42P19",
                          "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term",
                          d->name);
    walk_t w = {.b = b, .name = d->name};
    walk_select(&w, q->larg, RC_NONRECURSIVE);
    if (!w.failed)
        walk_select(&w, q->rarg, RC_OK);
    if (w.failed)
        return false;
    if (sql_list_len(q->order_by) > 0)
        return pln__error(b, ((const sql_sort_t *)q->order_by->items[0])->expr->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "ORDER BY in a recursive query is not implemented");
    if (q->offset)
        return pln__error(b, q->offset->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "OFFSET in a recursive query is not implemented");
    if (q->limit)
        return pln__error(b, q->limit->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "LIMIT in a recursive query is not implemented");
    pln_bound_t l, r;
    if (!bind_query(b, q->larg, false, &l) || !set_columns(b, it, &l))
        return false;
    it->visible = true;
    it->recursing = true;
    bool ok = bind_query(b, q->rarg, true, &r);
    it->recursing = false;
    if (!ok)
        return false;
    if (r.ncols != l.ncols)
        return pln__error(b, first_target_pos(q->rarg), CM_ERRCODE_SYNTAX_ERROR,
                          "each UNION query must have the same number of columns");
    ty_expr_t **cols = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(r.ncols ? r.ncols : 1));
    bool cast = false;
    for (int i = 0; i < l.ncols; i++) {
        ty_expr_t *pair[2];
        for (int k = 0; k < 2; k++) {
            const pln_bound_t *side = k ? &r : &l;
            bool direct = side->targets && side->rel->kind == PLAN_REL_PROJECT && side->rel->exprs == side->targets;
            pair[k] = direct ? side->targets[i] : ty_expr_new(b->arena, TY_EXPR_COLUMN, side->cols[i].type, 0);
            if (!direct) {
                pair[k]->typmod = side->cols[i].typmod;
                pair[k]->index = i;
            }
        }
        int pos[2] = {pair[0]->location, pair[1]->location};
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, pair, 2, pos, "UNION", &type, &typmod))
            return false;
        typmod = l.cols[i].type == r.cols[i].type && l.cols[i].typmod == r.cols[i].typmod ? l.cols[i].typmod : -1;
        if (type != l.cols[i].type || typmod != l.cols[i].typmod) {
            pln__error(b, target_pos(q->larg, i, pair[0]->location >= 0 ? pair[0]->location : d->pos),
                       CM_ERRCODE_DATATYPE_MISMATCH,
                       "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall", d->name,
                       i + 1, type_with_mod(b, l.cols[i].type, l.cols[i].typmod), type_with_mod(b, type, typmod));
            cm_err_set_hint(b->err, "Cast the output of the non-recursive term to the correct type.");
            return false;
        }
        cols[i] = ty_expr_new(b->arena, TY_EXPR_COLUMN, r.cols[i].type, 0);
        cols[i]->typmod = r.cols[i].typmod;
        cols[i]->index = i;
        if (r.cols[i].type != type) {
            if (!(cols[i] = pln__coerce(b, cols[i], type, -1, PLN_CC_IMPLICIT, -1)))
                return false;
            cast = true;
        }
    }
    plan_rel_t *rec = r.rel;
    if (cast) {
        rec = pln__rel_new(b, PLAN_REL_PROJECT, r.rel, r.ncols);
        rec->exprs = cols;
        for (int i = 0; i < r.ncols; i++)
            rec->types[i] = cols[i]->type;
    }
    it->cte->rec = rec;
    it->cte->all = q->set_all;
    return true;
}

static bool bind_item(pln_binder_t *b, pln_with_t *with, pln_withitem_t *it)
{
    if (with->recursive && count_refs(b, it->def->query, it->def->name) > 0)
        return bind_recursive(b, it);
    pln_bound_t q;
    if (!bind_query(b, it->def->query, false, &q) || !set_columns(b, it, &q))
        return false;
    it->visible = true;
    return true;
}

/* WITH RECURSIVE: items in an order where each comes after those it reads (PostgreSQL's TopologicalSort). */
static bool recursive_order(pln_binder_t *b, pln_with_t *w, int *order)
{
    int n = w->n;
    bool *dep = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)(n * n));   /* dep[i*n+j]: i reads j */
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            dep[i * n + j] = i != j && count_refs(b, w->items[i].def->query, w->items[j].def->name) > 0;
    bool *done = cm_arena_zalloc(b->arena, sizeof(bool) * (size_t)n);
    for (int k = 0; k < n; k++) {
        int pick = -1;
        for (int i = 0; i < n && pick < 0; i++) {
            if (done[i])
                continue;
            bool ready = true;
            for (int j = 0; j < n && ready; j++)
                ready = done[j] || !dep[i * n + j];
            if (ready)
                pick = i;
        }
        if (pick < 0) {
            int first = 0;
            while (done[first])
                first++;
            return pln__error(b, w->items[first].def->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "mutual recursion between WITH items is not implemented");
        }
        done[pick] = true;
        order[k] = pick;
    }
    return true;
}

bool pln__with_begin(pln_binder_t *b, const sql_select_t *s)
{
    bool setop_leaf = b->setop_leaf;
    int n = sql_list_len(s->with);
    pln_with_t *w = cm_arena_zalloc(b->arena, sizeof(*w));
    w->n = n;
    w->items = cm_arena_zalloc(b->arena, sizeof(pln_withitem_t) * (size_t)(n ? n : 1));
    w->recursive = s->with_recursive;
    w->outer = b->with;
    for (int i = 0; i < n; i++) {
        const sql_cte_t *d = s->with->items[i];
        for (int k = 0; k < i; k++)
            if (strcmp(w->items[k].def->name, d->name) == 0)
                return pln__error(b, d->pos, "42712", "WITH query name \"%s\" specified more than once", d->name);
        if (d->dml) {
            /* PostgreSQL runs a data-modifying WITH query only at the top level of a statement. */
            if (b->scope)
                return pln__error(b, d->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "WITH clause containing a data-modifying statement must be at the top level");
            return pln__error(b, d->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "data-modifying statements in WITH are not supported yet");
        }
        w->items[i].def = d;
    }
    b->with = w;
    int *order = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (w->recursive) {
        if (!recursive_order(b, w, order)) {
            b->with = w->outer;
            return false;
        }
        for (int i = 0; i < n; i++)
            w->items[i].visible = true;   /* every item may name every other; order makes them bound first */
    }
    for (int i = 0; i < n; i++) {
        if (!bind_item(b, w, &w->items[order[i]])) {
            b->with = w->outer;
            return false;
        }
    }
    b->setop_leaf = setop_leaf;
    return true;
}

bool pln__with_end(pln_binder_t *b, const sql_select_t *s, pln_bound_t *q, bool ok)
{
    pln_with_t *w = b->with;
    b->with = w->outer;
    if (!ok)
        return false;
    /* Only the items something read are planned: PostgreSQL never runs an unread WITH query. */
    int n = 0;
    for (int i = 0; i < w->n; i++)
        n += w->items[i].cte && w->items[i].cte->nrefs > 0;
    if (n == 0)
        return true;
    plan_rel_t *let = pln__rel_new(b, PLAN_REL_LET, q->rel, q->rel->ncols);
    memcpy(let->types, q->rel->types, sizeof(ty_oid_t) * (size_t)q->rel->ncols);
    let->ctes = cm_arena_alloc(b->arena, sizeof(plan_cte_t *) * (size_t)n);
    /* In the order they were bound (ids), so an item comes after the items it reads. */
    for (int i = 0; i < w->n; i++) {
        plan_cte_t *c = w->items[i].cte;
        if (!c || c->nrefs == 0)
            continue;
        int at = let->nctes++;
        while (at > 0 && let->ctes[at - 1]->id > c->id) {
            let->ctes[at] = let->ctes[at - 1];
            at--;
        }
        let->ctes[at] = c;
    }
    q->rel = let;
    return true;
}

static pln_withitem_t *find_item(pln_binder_t *b, const char *name, bool visible)
{
    for (pln_with_t *w = b->with; w; w = w->outer)
        for (int i = 0; i < w->n; i++)
            if (w->items[i].visible == visible && strcmp(w->items[i].def->name, name) == 0)
                return &w->items[i];
    return NULL;
}

int pln__bind_cte_ref(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel)
{
    const char *name = f->names->items[0];
    pln_withitem_t *it = find_item(b, name, true);
    if (!it)
        return 0;
    if (!it->cte) {
        /* A WITH RECURSIVE item read before it is bound can only be part of a cycle, which was refused. */
        pln__error(b, f->pos, CM_ERRCODE_INTERNAL_ERROR, "WITH query \"%s\" is not bound yet", name);
        return -1;
    }
    const char *alias = f->alias ? f->alias : name;
    int ncols = it->ncols, naliases = sql_list_len(f->col_aliases);
    if (naliases > ncols) {
        pln__error(b, -1, "42P10", "table \"%s\" has %d columns available but %d columns specified", alias, ncols,
                   naliases);
        return -1;
    }
    plan_column_t *cols = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    plan_rel_t *r = pln__rel_new(b, PLAN_REL_CTE, NULL, ncols);
    r->cte = it->cte;
    r->worktable = it->recursing;
    for (int i = 0; i < ncols; i++) {
        cols[i] = it->cols[i];
        if (i < naliases)
            cols[i].name = f->col_aliases->items[i];
        r->types[i] = cols[i].type;
    }
    if (!it->recursing)
        it->cte->nrefs++;
    *rel = r;
    return pln__add_rte(b, sc, alias, ncols, cols) ? 1 : -1;
}

void pln__cte_forward_hint(pln_binder_t *b, const char *name)
{
    if (!find_item(b, name, false))
        return;
    cm_err_set_detail(b->err, "There is a WITH item named \"%s\", but it cannot be referenced from this part of the query.",
                      name);
    cm_err_set_hint(b->err, "Use WITH RECURSIVE, or re-order the WITH items to remove forward references.");
}

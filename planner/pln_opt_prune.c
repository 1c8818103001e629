/*
 * pln_opt_prune.c: projection pruning. Walking down from the root with
 * the set of columns the operators above read, each operator stops
 * producing columns nobody reads: a projection drops unused expressions,
 * a GROUP BY its unused aggregates, constant rows their unused columns,
 * and a catalog or session relation (which always gives all its columns)
 * gets a projection just above it and the filters on it that keeps the
 * read ones, so joins and GROUP BY carry only what is used. A projection over another one is
 * merged into it, and one that gives its input's columns unchanged goes.
 *
 * Kept on purpose even when unread: volatile expressions (random() in a
 * projection or an aggregate's arguments, which PostgreSQL would still
 * call), expressions of a VALUES list of several rows that are not
 * constants (PostgreSQL computes them, so 1/0 there fails as it does in
 * PostgreSQL; a one-row VALUES is a projection to both), grouping keys (they decide the groups), and every
 * column of DISTINCT, set operations other than UNION ALL and operator kinds
 * this pass does not know (their result depends on all columns).
 *
 * Each operator's remaining columns stay in their order, so a column's new
 * position is given by a map (old position -> new, -1: dropped), and when
 * every column is read nothing changes: the root keeps its columns.
 */
#include "planner/pln_opt.h"

#include <string.h>

typedef struct prune {
    pln_binder_t *b;
    /* The operator's columns must stay exactly as they are (the root, set operations' inputs):
     * set by prune_all for the operators that give their input's columns, cleared below an
     * operator that maps its input's columns to its own. */
    bool exact;
} prune_t;

static plan_rel_t *prune(prune_t *p, plan_rel_t *r, const bool *need, int *map);

/* Whether an unread expression must still run: only a volatile call (PostgreSQL calls it). One
 * that is merely long (TY_FN_BLOCKING: numeric ^, repeat) goes like any other, and so do its
 * errors, as PostgreSQL never computes an unread column of a subquery it pulled up. */
static bool prune__volatile(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_VOLATILE);
}

static bool *bools(prune_t *p, int n)
{
    return cm_arena_zalloc(p->b->arena, sizeof(bool) * (size_t)(n ? n : 1));
}

static int *ints(prune_t *p, int n)
{
    return cm_arena_alloc(p->b->arena, sizeof(int) * (size_t)(n ? n : 1));
}

static bool *all_cols(prune_t *p, int n)
{
    bool *need = bools(p, n);
    for (int i = 0; i < n; i++)
        need[i] = true;
    return need;
}

/* An input pruned with every column needed keeps them all, in place. */
static plan_rel_t *prune_all(prune_t *p, plan_rel_t *r)
{
    int *map = ints(p, r->ncols);
    bool exact = p->exact;
    p->exact = true;
    plan_rel_t *out = prune(p, r, all_cols(p, r->ncols), map);
    p->exact = exact;
    return out;
}

/* Prunes an input whose columns the operator maps to its own (so they may move). */
static plan_rel_t *prune_mapped(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    bool exact = p->exact;
    p->exact = false;
    plan_rel_t *out = prune(p, r, need, map);
    p->exact = exact;
    return out;
}

static void identity(int *map, int n)
{
    for (int i = 0; i < n; i++)
        map[i] = i;
}

/* A relation that gives all its columns: a projection above it keeps the needed ones. */
static plan_rel_t *narrow(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    int n = 0;
    for (int i = 0; i < r->ncols; i++)
        map[i] = need[i] ? n++ : -1;
    if (n == r->ncols)
        return r;
    plan_rel_t *proj = pln__rel_new(p->b, PLAN_REL_PROJECT, r, n);
    proj->exprs = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < r->ncols; i++) {
        if (map[i] < 0)
            continue;
        proj->exprs[map[i]] = plan_expr_column(p->b->arena, i, r->types[i]);
        proj->types[map[i]] = r->types[i];
    }
    return proj;
}

static bool all_columns(ty_expr_t *const *es, int n)
{
    for (int i = 0; i < n; i++)
        if (es[i]->kind != TY_EXPR_COLUMN)
            return false;
    return true;
}

static plan_rel_t *prune_values(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    int n = 0;
    for (int c = 0; c < r->ncols; c++) {
        bool keep = need[c];
        /* One row is a projection to PostgreSQL (it pulls it up); more are a VALUES scan that computes each. */
        for (int row = 0; row < r->nrows && !keep; row++)
            keep = r->nrows > 1 ? r->rows[row][c]->kind != TY_EXPR_CONST : prune__volatile(r->rows[row][c]);
        map[c] = keep ? n++ : -1;
    }
    if (n == r->ncols)
        return r;
    ty_expr_t ***rows = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t **) * (size_t)(r->nrows ? r->nrows : 1));
    for (int row = 0; row < r->nrows; row++) {
        rows[row] = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
        for (int c = 0; c < r->ncols; c++)
            if (map[c] >= 0)
                rows[row][map[c]] = r->rows[row][c];
    }
    ty_oid_t *types = cm_arena_alloc(p->b->arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    for (int c = 0; c < r->ncols; c++)
        if (map[c] >= 0)
            types[map[c]] = r->types[c];
    r->types = types;
    r->rows = rows;
    r->ncols = n;
    return r;
}

/* Operators whose columns are their input's (filter, sort, limit, DISTINCT ON) take the input's map. */
static void same_as_input(plan_rel_t *r)
{
    r->ncols = r->input->ncols;
    r->types = r->input->types;
}

static plan_rel_t *prune_filter(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    bool *in = bools(p, r->ncols);
    memcpy(in, need, sizeof(bool) * (size_t)r->ncols);
    plan_expr_mark(r->pred, in);
    r->input = prune(p, r->input, in, map);
    r->pred = plan_expr_remap(p->b->arena, r->pred, map);
    same_as_input(r);
    return r;
}

static plan_rel_t *prune_sorted(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    bool *in = bools(p, r->ncols);
    memcpy(in, need, sizeof(bool) * (size_t)r->ncols);
    for (int i = 0; i < r->nsort; i++)
        in[r->sort[i].col] = true;
    r->input = prune(p, r->input, in, map);
    if (r->nsort) {
        plan_sortkey_t *keys = cm_arena_alloc(p->b->arena, sizeof(*keys) * (size_t)r->nsort);
        for (int i = 0; i < r->nsort; i++) {
            keys[i] = r->sort[i];
            keys[i].col = map[r->sort[i].col];
        }
        r->sort = keys;
    }
    same_as_input(r);
    return r;
}

/*
 * Project over project is one projection when that computes nothing twice
 * and drops nothing volatile: the lower one only picks columns, or the
 * upper one only picks columns, each of the lower's expressions at most once.
 */
static bool fuse(prune_t *p, plan_rel_t *r)
{
    plan_rel_t *in = r->input;
    if (in->kind != PLAN_REL_PROJECT)
        return false;
    cm_arena_t *a = p->b->arena;
    ty_expr_t **exprs = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)(r->ncols ? r->ncols : 1));
    if (all_columns(in->exprs, in->ncols)) {
        for (int i = 0; i < r->ncols; i++)
            exprs[i] = plan_expr_subst(a, r->exprs[i], in->exprs);
    } else if (all_columns(r->exprs, r->ncols)) {
        int *uses = cm_arena_zalloc(a, sizeof(int) * (size_t)(in->ncols ? in->ncols : 1));
        for (int i = 0; i < r->ncols; i++)
            uses[r->exprs[i]->index]++;
        for (int c = 0; c < in->ncols; c++)
            if (in->exprs[c]->kind != TY_EXPR_COLUMN && (uses[c] > 1 || (uses[c] == 0 && prune__volatile(in->exprs[c]))))
                return false;
        for (int i = 0; i < r->ncols; i++)
            exprs[i] = in->exprs[r->exprs[i]->index];
    } else {
        return false;
    }
    r->exprs = exprs;
    r->input = in->input;
    return true;
}

static plan_rel_t *prune_project(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    int nin = r->input->ncols, n = 0;
    bool *in = bools(p, nin);
    for (int i = 0; i < r->ncols; i++) {
        bool keep = need[i] || prune__volatile(r->exprs[i]);
        map[i] = keep ? n++ : -1;
        if (keep)
            plan_expr_mark(r->exprs[i], in);
    }
    int *in_map = ints(p, nin);
    r->input = prune_mapped(p, r->input, in, in_map);
    ty_expr_t **exprs = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    ty_oid_t *types = cm_arena_alloc(p->b->arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < r->ncols; i++) {
        if (map[i] < 0)
            continue;
        exprs[map[i]] = plan_expr_remap(p->b->arena, r->exprs[i], in_map);
        types[map[i]] = r->types[i];
    }
    r->exprs = exprs;
    r->types = types;
    r->ncols = n;
    while (fuse(p, r))
        ;
    /* A projection giving its input's columns as they are does nothing. */
    bool same = n == r->input->ncols;
    for (int i = 0; same && i < n; i++)
        same = r->exprs[i]->kind == TY_EXPR_COLUMN && r->exprs[i]->index == i;
    return same ? r->input : r;
}

static plan_agg_t *agg_remap(prune_t *p, const plan_agg_t *ag, const int *map)
{
    cm_arena_t *a = p->b->arena;
    plan_agg_t *c = cm_arena_alloc(a, sizeof(*c));
    *c = *ag;
    c->args[0] = plan_expr_remap(a, ag->args[0], map);
    c->args[1] = plan_expr_remap(a, ag->args[1], map);
    c->filter = plan_expr_remap(a, ag->filter, map);
    if (ag->norder) {
        c->order = cm_arena_alloc(a, sizeof(ty_expr_t *) * (size_t)ag->norder);
        for (int i = 0; i < ag->norder; i++)
            c->order[i] = plan_expr_remap(a, ag->order[i], map);
    }
    return c;
}

static bool agg_volatile(const plan_agg_t *ag)
{
    bool v = prune__volatile(ag->args[0]) || prune__volatile(ag->args[1]) || prune__volatile(ag->filter);
    for (int i = 0; i < ag->norder; i++)
        v |= prune__volatile(ag->order[i]);
    return v;
}

/* Equal expressions whose constants are also written alike (1.0 and 1.00 compare equal, yet sum differently). */
static bool same_expr(const ty_expr_t *x, const ty_expr_t *y)
{
    if (x == y)
        return true;
    if (!pln__expr_equal(x, y))
        return false;
    if (x->kind == TY_EXPR_CONST && !x->value.isnull && x->type != TY_INT2 && x->type != TY_INT4 &&
        x->type != TY_INT8 && x->type != TY_BOOL && x->type != TY_TEXT)
        return false;
    for (int i = 0; i < x->nargs; i++)
        if (!same_expr(x->args[i], y->args[i]))
            return false;
    return true;
}

static bool exprs_equal(ty_expr_t *const *x, ty_expr_t *const *y, int n)
{
    for (int i = 0; i < n; i++)
        if ((x[i] == NULL) != (y[i] == NULL) || (x[i] && !same_expr(x[i], y[i])))
            return false;
    return true;
}

static bool agg_equal(const plan_agg_t *x, const plan_agg_t *y)
{
    if (x->fn != y->fn || x->op != y->op || x->distinct != y->distinct || x->nargs != y->nargs ||
        x->norder != y->norder || x->type != y->type || !exprs_equal(x->args, y->args, x->nargs) ||
        !exprs_equal(&x->filter, &y->filter, 1) || !exprs_equal(x->order, y->order, x->norder))
        return false;
    for (int i = 0; i < x->norder; i++)
        if (x->keys[i].col != y->keys[i].col || x->keys[i].desc != y->keys[i].desc ||
            x->keys[i].nulls_first != y->keys[i].nulls_first || x->keys[i].lt != y->keys[i].lt)
            return false;
    return true;
}

static void agg_mark(const plan_agg_t *ag, bool *in)
{
    for (int i = 0; i < ag->nargs; i++)
        plan_expr_mark(ag->args[i], in);
    plan_expr_mark(ag->filter, in);
    for (int i = 0; i < ag->norder; i++)
        plan_expr_mark(ag->order[i], in);
}

static plan_rel_t *prune_reduce(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    int nin = r->input->ncols, nk = r->nkeys, na = 0;
    bool *in = bools(p, nin);
    for (int k = 0; k < nk; k++) {
        map[k] = k;
        plan_expr_mark(r->keys[k], in);
    }
    int *same = ints(p, r->naggs);
    for (int a = 0; a < r->naggs; a++) {
        /* An aggregate computed twice (count(*) in the targets and in HAVING) is computed once. */
        same[a] = -1;
        for (int e = 0; e < a && same[a] < 0 && !p->exact; e++)
            if (map[nk + e] >= 0 && agg_equal(r->aggs[a], r->aggs[e]) && !agg_volatile(r->aggs[a]))
                same[a] = e;
        bool keep = same[a] < 0 && (need[nk + a] || agg_volatile(r->aggs[a]));
        map[nk + a] = keep ? nk + na++ : same[a] >= 0 ? map[nk + same[a]] : -1;
        if (keep)
            agg_mark(r->aggs[a], in);
    }
    int *in_map = ints(p, nin);
    r->input = prune_mapped(p, r->input, in, in_map);
    ty_expr_t **keys = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t *) * (size_t)(nk ? nk : 1));
    for (int k = 0; k < nk; k++)
        keys[k] = plan_expr_remap(p->b->arena, r->keys[k], in_map);
    plan_agg_t **aggs = cm_arena_alloc(p->b->arena, sizeof(plan_agg_t *) * (size_t)(na ? na : 1));
    ty_oid_t *types = cm_arena_alloc(p->b->arena, sizeof(ty_oid_t) * (size_t)(nk + na ? nk + na : 1));
    memcpy(types, r->types, sizeof(ty_oid_t) * (size_t)nk);
    for (int a = 0; a < r->naggs; a++) {
        if (map[nk + a] < 0 || same[a] >= 0)
            continue;
        aggs[map[nk + a] - nk] = agg_remap(p, r->aggs[a], in_map);
        types[map[nk + a]] = r->types[nk + a];
    }
    r->keys = keys;
    r->aggs = aggs;
    r->naggs = na;
    r->types = types;
    r->ncols = nk + na;
    return r;
}

static plan_rel_t *prune_join(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    int lw = r->input->ncols, rw = r->right->ncols;
    bool *in = bools(p, lw + rw);
    memcpy(in, need, sizeof(bool) * (size_t)(lw + rw));
    plan_expr_mark(r->pred, in);
    int *lmap = ints(p, lw), *rmap = ints(p, rw);
    r->input = prune_mapped(p, r->input, in, lmap);
    r->right = prune_mapped(p, r->right, in + lw, rmap);
    int nl = r->input->ncols, nr = r->right->ncols;
    for (int i = 0; i < lw; i++)
        map[i] = lmap[i];
    for (int i = 0; i < rw; i++)
        map[lw + i] = rmap[i] < 0 ? -1 : nl + rmap[i];
    r->pred = plan_expr_remap(p->b->arena, r->pred, map);
    r->ncols = nl + nr;
    r->types = cm_arena_alloc(p->b->arena, sizeof(ty_oid_t) * (size_t)(nl + nr ? nl + nr : 1));
    memcpy(r->types, r->input->types, sizeof(ty_oid_t) * (size_t)nl);
    memcpy(r->types + nl, r->right->types, sizeof(ty_oid_t) * (size_t)nr);
    return r;
}

/* Every column stays and every input keeps all of its own. */
static plan_rel_t *keep_all(prune_t *p, plan_rel_t *r, int *map)
{
    identity(map, r->ncols);
    if (r->input)
        r->input = prune_all(p, r->input);
    if (r->right)
        r->right = prune_all(p, r->right);
    return r;
}

/*
 * UNION ALL gives each row of either input as it is, so both inputs need
 * only the read columns; a projection lines an input up when it keeps more
 * or puts them elsewhere. The other set operations compare whole rows.
 * (PostgreSQL prunes UNION ALL's inputs too, once it has folded their
 * constant expressions.)
 */
/* Whether an input computes column i from constants alone (1 / 0), which PostgreSQL folds while planning. */
static bool folded_by_postgres(const plan_rel_t *in, int i)
{
    const ty_expr_t *e = in->kind == PLAN_REL_PROJECT                ? in->exprs[i]
                         : in->kind == PLAN_REL_VALUES && in->nrows == 1 ? in->rows[0][i]
                                                                         : NULL;
    if (e == NULL || e->kind == TY_EXPR_CONST)
        return false;
    int lo, hi;
    plan_expr_cols(e, &lo, &hi);
    return lo > hi;
}

static plan_rel_t *prune_union_all(prune_t *p, plan_rel_t *r, const bool *need_above, int *map)
{
    /* A column an input computes from constants stays, so that 1 / 0 fails as PostgreSQL's folding does. */
    bool *need = bools(p, r->ncols);
    int n = 0;
    for (int i = 0; i < r->ncols; i++) {
        need[i] = need_above[i] || folded_by_postgres(r->input, i) || folded_by_postgres(r->right, i);
        map[i] = need[i] ? n++ : -1;
    }
    if (r->setop != PLAN_SETOP_UNION || !r->all || n == r->ncols)
        return keep_all(p, r, map);
    plan_rel_t *sides[2] = {r->input, r->right};
    for (int s = 0; s < 2; s++) {
        int *m = ints(p, r->ncols);
        plan_rel_t *in = prune_mapped(p, sides[s], need, m);
        bool lined_up = in->ncols == n;
        for (int i = 0; i < r->ncols; i++)
            lined_up = lined_up && (!need[i] || m[i] == map[i]);
        if (!lined_up) {
            plan_rel_t *proj = pln__rel_new(p->b, PLAN_REL_PROJECT, in, n);
            proj->exprs = cm_arena_alloc(p->b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
            for (int i = 0; i < r->ncols; i++)
                if (need[i]) {
                    proj->exprs[map[i]] = plan_expr_column(p->b->arena, m[i], in->types[m[i]]);
                    proj->types[map[i]] = in->types[m[i]];
                }
            in = proj;
        }
        sides[s] = in;
    }
    ty_oid_t *types = cm_arena_alloc(p->b->arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < r->ncols; i++)
        if (need[i])
            types[map[i]] = r->types[i];
    r->input = sides[0];
    r->right = sides[1];
    r->types = types;
    r->ncols = n;
    return r;
}

/* A catalog or session relation, under the filters pushdown put on it: it gives all its columns. */
static bool is_source(const plan_rel_t *r)
{
    while (r->kind == PLAN_REL_FILTER)
        r = r->input;
    return plan_rel_is_read(r);
}

/* Returns r computing at least the needed columns, in their order; map[old] is each one's new position. */
static plan_rel_t *prune(prune_t *p, plan_rel_t *r, const bool *need, int *map)
{
    if (is_source(r))
        return narrow(p, r, need, map);   /* the projection goes above its filters, which read what they like */
    switch (r->kind) {
    case PLAN_REL_VALUES:
        return prune_values(p, r, need, map);
    case PLAN_REL_SESSION:
    case PLAN_REL_GET:
        break;
    case PLAN_REL_FILTER:
        return prune_filter(p, r, need, map);
    case PLAN_REL_PROJECT:
        return prune_project(p, r, need, map);
    case PLAN_REL_REDUCE:
        return prune_reduce(p, r, need, map);
    case PLAN_REL_SORT:
        return prune_sorted(p, r, need, map);
    case PLAN_REL_DISTINCT:
        if (r->nsort > 0)
            return prune_sorted(p, r, need, map);   /* DISTINCT ON reads its keys; the other columns ride along */
        return keep_all(p, r, map);
    case PLAN_REL_LIMIT:
        r->input = prune(p, r->input, need, map);
        same_as_input(r);
        return r;
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:
        return prune_join(p, r, need, map);
    case PLAN_REL_SETOP:
        return prune_union_all(p, r, need, map);
    case PLAN_REL_WINDOW:   /* partitions and frames read all of the input's columns' rows; kept whole for now */
    case PLAN_REL_CTE:      /* a CTE's columns are those of every reader */
    case PLAN_REL_FLATMAP:  /* the functions' arguments read the input's columns by position */
        return keep_all(p, r, map);
    case PLAN_REL_LET:
        for (int i = 0; i < r->nctes; i++) {
            r->ctes[i]->def = pln__opt_prune(p->b, r->ctes[i]->def);
            if (r->ctes[i]->rec)
                r->ctes[i]->rec = pln__opt_prune(p->b, r->ctes[i]->rec);
        }
        return keep_all(p, r, map);
    }
    return keep_all(p, r, map);   /* a kind this pass does not know reads all its inputs' columns */
}

plan_rel_t *pln__opt_prune(pln_binder_t *b, plan_rel_t *r)
{
    prune_t p = {.b = b};
    int ncols = r->ncols;
    plan_rel_t *out = prune_all(&p, r);
    CM_ASSERT(out->ncols == ncols);
    return out;
}

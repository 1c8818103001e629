/*
 * pln_opt_equiv.c: join equivalence classes. A block of nested inner
 * joins and products is one n-way join over its inputs. The equalities in
 * its join conditions (a.x = b.y AND b.y = c.z) put columns into classes
 * of columns that are equal in every result row; the constants its inputs
 * are filtered to (a.x = 5) join the class of their column. From the
 * classes the block is rebuilt:
 *
 *  - a class with a constant: every member is filtered to it on its own
 *    input (x = 5 AND x = y gives y = 5 on y's input), and the equalities
 *    between members are dropped (both sides equal 5 makes them equal);
 *  - otherwise one member per input represents the class, the others of
 *    that input are filtered equal to it there, and the representatives
 *    are chained in input order (r1 = r2, r2 = r3), each equality at the
 *    lowest join that sees both: those are the joins' keys. Redundant
 *    equalities (a.x = c.z besides the two above) are not kept.
 *
 * Only "=" of one type with itself is used (its equality is transitive);
 * conditions that are not such equalities stay at their joins as they
 * were, and so does everything after a volatile conjunct. Only inner joins
 * are blocks: an outer join, or any other operator, is an input, and the
 * pass starts again inside it. An outer join only passes constants from
 * its preserved side to its nullable side (outer_consts). New filters land on top of the inputs;
 * pushdown then moves them further down.
 */
#include "planner/pln_opt.h"

#include <string.h>

typedef struct leaf {
    plan_rel_t *rel;
    int offset;                   /* of its first column in the block's row */
    plan_conj_t add;               /* filters derived for it, over its own columns */
} leaf_t;

/* A column of the block's row known equal to a constant. */
typedef struct known {
    int col;
    ty_expr_t *value;
    const ty_func_t *eq;
    bool present;                 /* already a filter on its input: not added again */
} known_t;

typedef struct block {
    pln_binder_t *b;
    int nleaves, leaves_cap;
    leaf_t *leaves;
    int width;
    plan_conj_t eqs;               /* the equalities taken out of the join conditions (block columns) */
    int nknown, known_cap;
    known_t *known;
} block_t;

static plan_rel_t *equiv(pln_binder_t *b, plan_rel_t *r);

static bool is_inner(const plan_rel_t *r)
{
    return (r->kind == PLAN_REL_PRODUCT || (r->kind == PLAN_REL_JOIN && r->join == PLAN_JOIN_INNER));
}

static void add_known(block_t *k, int col, ty_expr_t *value, const ty_func_t *eq, bool present)
{
    if (k->nknown == k->known_cap) {
        int cap = k->known_cap ? 2 * k->known_cap : 8;
        known_t *g = cm_arena_alloc(k->b->arena, sizeof(*g) * (size_t)cap);
        if (k->nknown)
            memcpy(g, k->known, sizeof(*g) * (size_t)k->nknown);
        k->known = g;
        k->known_cap = cap;
    }
    k->known[k->nknown++] = (known_t){.col = col, .value = value, .eq = eq, .present = present};
}

/*
 * The block's inputs left to right, each optimized inside first, and its
 * equalities: taken out of each join's condition (up to the first volatile
 * conjunct), the rest of which stays.
 */
static void collect(block_t *k, plan_rel_t *r, int offset)
{
    cm_arena_t *a = k->b->arena;
    if (!is_inner(r)) {
        if (k->nleaves == k->leaves_cap) {
            int cap = k->leaves_cap ? 2 * k->leaves_cap : 8;
            leaf_t *g = cm_arena_alloc(a, sizeof(*g) * (size_t)cap);
            if (k->nleaves)
                memcpy(g, k->leaves, sizeof(*g) * (size_t)k->nleaves);
            k->leaves = g;
            k->leaves_cap = cap;
        }
        k->leaves[k->nleaves++] = (leaf_t){.rel = equiv(k->b, r), .offset = offset};
        return;
    }
    collect(k, r->input, offset);
    collect(k, r->right, offset + r->input->ncols);
    plan_conj_t on = {0}, rest = {0};
    plan_conj_split(a, &on, r->pred);
    bool stuck = false;
    for (int i = 0; i < on.n; i++) {
        int l, rr;
        ty_expr_t *v;
        stuck |= plan_expr_volatile(on.e[i]);
        if (!stuck && (plan_expr_col_eq(on.e[i], &l, &rr) || plan_expr_col_const(on.e[i], &l, &v)))
            plan_conj_add(a, &k->eqs, plan_expr_shift(a, on.e[i], offset));
        else
            plan_conj_add(a, &rest, on.e[i]);
    }
    r->pred = plan_conj_and(a, rest.e, rest.n);
}

/*
 * The constants an input is already filtered to: its filters' column =
 * constant conjuncts, looking down through filters and projections that
 * only pick columns (which is where pushdown leaves them).
 */
static void scan_known(block_t *k, const plan_rel_t *r, int offset, const int *up, int width)
{
    cm_arena_t *a = k->b->arena;
    for (;;) {
        if (plan_rel_is_read(r))
            return;
        if (r->kind == PLAN_REL_FILTER) {
            plan_conj_t c = {0};
            plan_conj_split(a, &c, r->pred);
            for (int i = 0; i < c.n && !plan_expr_volatile(c.e[i]); i++) {
                int col;
                ty_expr_t *v;
                if (plan_expr_col_const(c.e[i], &col, &v) && col < width && up[col] >= 0)
                    add_known(k, offset + up[col], v, c.e[i]->func, true);
            }
            r = r->input;
            continue;
        }
        if (r->kind == PLAN_REL_PROJECT) {
            bool cols = true;
            for (int i = 0; i < r->ncols && cols; i++)
                cols = r->exprs[i]->kind == TY_EXPR_COLUMN;
            if (!cols)
                return;
            int n = r->input->ncols;
            int *map = cm_arena_alloc(a, sizeof(int) * (size_t)(n ? n : 1));
            for (int i = 0; i < n; i++)
                map[i] = -1;
            for (int i = 0; i < r->ncols; i++)
                if (map[r->exprs[i]->index] < 0 && up[i] >= 0)
                    map[r->exprs[i]->index] = up[i];
            up = map;
            width = n;
            r = r->input;
            continue;
        }
        return;
    }
}

static int root_of(int *parent, int c)
{
    while (parent[c] != c)
        c = parent[c] = parent[parent[c]];
    return c;
}

static int leaf_of(const block_t *k, int col)
{
    int i = k->nleaves - 1;
    while (i > 0 && k->leaves[i].offset > col)
        i--;
    return i;
}

static ty_expr_t *col_ref(block_t *k, int col, ty_oid_t type)
{
    return plan_expr_column(k->b->arena, col - k->leaves[leaf_of(k, col)].offset, type);
}

static bool same_value(const ty_expr_t *x, const ty_expr_t *y)
{
    return x->type == y->type && ty_datum_compare(x->type, &x->value, &y->value) == 0;
}

/* Puts each equality between inputs at the lowest join of the block that sees both of its columns. */
static void place(block_t *k, plan_rel_t *r, int offset, const plan_conj_t *eqs)
{
    cm_arena_t *a = k->b->arena;
    plan_conj_t left = {0}, right = {0}, here = {0};
    int lw = r->input->ncols;
    for (int i = 0; i < eqs->n; i++) {
        int lo, hi;
        plan_expr_cols(eqs->e[i], &lo, &hi);
        if (hi < offset + lw)
            plan_conj_add(a, &left, eqs->e[i]);
        else if (lo >= offset + lw)
            plan_conj_add(a, &right, eqs->e[i]);
        else
            plan_conj_add(a, &here, plan_expr_shift(a, eqs->e[i], -offset));
    }
    if (is_inner(r->input))
        place(k, r->input, offset, &left);
    if (is_inner(r->right))
        place(k, r->right, offset + lw, &right);
    /* The keys first, then what the condition had besides equalities. */
    plan_conj_split(a, &here, r->pred);
    r->pred = plan_conj_and(a, here.e, here.n);
    r->kind = r->pred ? PLAN_REL_JOIN : PLAN_REL_PRODUCT;
    r->join = PLAN_JOIN_INNER;
}

/* Puts the leaves back in the block's tree, in the order collect took them. */
static plan_rel_t *rebuild(block_t *k, plan_rel_t *r, int *next)
{
    if (!is_inner(r)) {
        leaf_t *l = &k->leaves[(*next)++];
        if (l->add.n == 0)
            return l->rel;
        if (l->rel->kind == PLAN_REL_FILTER) {
            plan_conj_split(k->b->arena, &l->add, l->rel->pred);   /* the derived equalities first */
            l->rel->pred = plan_conj_and(k->b->arena, l->add.e, l->add.n);
            return l->rel;
        }
        return pln__filter_over(k->b, l->rel, l->add.e, l->add.n);
    }
    r->input = rebuild(k, r->input, next);
    r->right = rebuild(k, r->right, next);
    return r;
}

static bool only_columns(const plan_rel_t *r)
{
    for (int i = 0; i < r->ncols; i++)
        if (r->exprs[i]->kind != TY_EXPR_COLUMN)
            return false;
    return true;
}

/*
 * Projections that only pick columns between nested inner joins (JOIN
 * USING makes one for its merged column) would split a block: they are
 * lifted above it. Returns the joins without them; output column i of r is
 * column pick[i] of what is returned.
 */
static plan_rel_t *lift(pln_binder_t *b, plan_rel_t *r, int **pick)
{
    cm_arena_t *a = b->arena;
    if (r->kind == PLAN_REL_PROJECT && only_columns(r)) {
        int *in;
        plan_rel_t *core = lift(b, r->input, &in);
        if (is_inner(core)) {
            *pick = cm_arena_alloc(a, sizeof(int) * (size_t)(r->ncols ? r->ncols : 1));
            for (int i = 0; i < r->ncols; i++)
                (*pick)[i] = in[r->exprs[i]->index];
            return core;
        }
        /* A projection over something else stays, as an input of the block (core is its input). */
    }
    *pick = cm_arena_alloc(a, sizeof(int) * (size_t)(r->ncols ? r->ncols : 1));
    if (!is_inner(r)) {
        for (int i = 0; i < r->ncols; i++)
            (*pick)[i] = i;
        return r;
    }
    int *lp, *rp, lw = r->input->ncols, rw = r->right->ncols;
    plan_rel_t *l = lift(b, r->input, &lp), *rr = lift(b, r->right, &rp);
    int nl = l->ncols;
    for (int i = 0; i < lw; i++)
        (*pick)[i] = lp[i];
    for (int i = 0; i < rw; i++)
        (*pick)[lw + i] = nl + rp[i];
    r->pred = plan_expr_remap(a, r->pred, *pick);
    r->input = l;
    r->right = rr;
    r->ncols = nl + rr->ncols;
    r->types = cm_arena_alloc(a, sizeof(ty_oid_t) * (size_t)(r->ncols ? r->ncols : 1));
    memcpy(r->types, l->types, sizeof(ty_oid_t) * (size_t)nl);
    memcpy(r->types + nl, rr->types, sizeof(ty_oid_t) * (size_t)rr->ncols);
    return r;
}

static plan_rel_t *block(pln_binder_t *b, plan_rel_t *r)
{
    cm_arena_t *a = b->arena;
    block_t k = {.b = b, .width = r->ncols};
    collect(&k, r, 0);
    for (int i = 0; i < k.nleaves; i++) {
        const plan_rel_t *l = k.leaves[i].rel;
        int *up = cm_arena_alloc(a, sizeof(int) * (size_t)(l->ncols ? l->ncols : 1));
        for (int c = 0; c < l->ncols; c++)
            up[c] = c;
        scan_known(&k, l, k.leaves[i].offset, up, l->ncols);
    }
    int w = k.width;
    int *parent = cm_arena_alloc(a, sizeof(int) * (size_t)(w ? w : 1));
    bool *member = cm_arena_zalloc(a, sizeof(bool) * (size_t)(w ? w : 1));
    ty_oid_t *type = cm_arena_zalloc(a, sizeof(ty_oid_t) * (size_t)(w ? w : 1));
    const ty_func_t **eq = cm_arena_zalloc(a, sizeof(*eq) * (size_t)(w ? w : 1));
    for (int c = 0; c < w; c++)
        parent[c] = c;
    for (int i = 0; i < k.eqs.n; i++) {
        int l, rr;
        ty_expr_t *v;
        ty_expr_t *e = k.eqs.e[i];
        if (plan_expr_col_eq(e, &l, &rr)) {
            int pl = root_of(parent, l), pr = root_of(parent, rr);
            parent[pl > pr ? pl : pr] = pl < pr ? pl : pr;
            member[l] = member[rr] = true;
            type[l] = type[rr] = e->args[0]->type;
            eq[l] = eq[rr] = e->func;
        } else if (plan_expr_col_const(e, &l, &v)) {
            add_known(&k, l, v, e->func, false);
        }
    }
    for (int i = 0; i < k.nknown; i++) {
        int c = k.known[i].col;
        if (!member[c]) {
            member[c] = true;
            type[c] = k.known[i].value->type;
            eq[c] = k.known[i].eq;
        }
    }
    plan_conj_t keys = {0};
    int *rep = cm_arena_alloc(a, sizeof(int) * (size_t)(k.nleaves ? k.nleaves : 1));
    for (int c = 0; c < w; c++) {
        if (!member[c] || root_of(parent, c) != c)
            continue;
        /* The class of c (its smallest column): its distinct constants first. */
        int nconst = 0;
        known_t **consts = cm_arena_alloc(a, sizeof(known_t *) * (size_t)(k.nknown ? k.nknown : 1));
        for (int i = 0; i < k.nknown; i++) {
            if (root_of(parent, k.known[i].col) != c)
                continue;
            bool seen = false;
            for (int j = 0; j < nconst && !seen; j++)
                seen = same_value(consts[j]->value, k.known[i].value);
            if (!seen)
                consts[nconst++] = &k.known[i];
        }
        if (nconst > 0) {
            for (int m = c; m < w; m++) {
                if (!member[m] || root_of(parent, m) != c)
                    continue;
                for (int j = 0; j < nconst; j++) {
                    bool present = false;
                    for (int i = 0; i < k.nknown && !present; i++)
                        present = k.known[i].present && k.known[i].col == m && same_value(k.known[i].value, consts[j]->value);
                    if (!present)
                        plan_conj_add(a, &k.leaves[leaf_of(&k, m)].add,
                                      plan_expr_eq(a, consts[j]->eq, col_ref(&k, m, type[m]), consts[j]->value));
                }
            }
            continue;
        }
        for (int i = 0; i < k.nleaves; i++)
            rep[i] = -1;
        int prev = -1;
        for (int m = c; m < w; m++) {
            if (!member[m] || root_of(parent, m) != c)
                continue;
            int li = leaf_of(&k, m);
            if (rep[li] >= 0) {
                plan_conj_add(a, &k.leaves[li].add,
                              plan_expr_eq(a, eq[m], col_ref(&k, rep[li], type[m]), col_ref(&k, m, type[m])));
                continue;
            }
            rep[li] = m;
            if (prev >= 0)
                plan_conj_add(a, &keys, plan_expr_eq(a, eq[m], plan_expr_column(a, prev, type[m]),
                                                     plan_expr_column(a, m, type[m])));
            prev = m;
        }
    }
    place(&k, r, 0, &keys);
    int next = 0;
    return rebuild(&k, r, &next);
}

/*
 * LEFT and RIGHT JOIN: a constant the preserved side's column is filtered
 * to (by a filter below, or by the ON condition) holds for the nullable
 * side's column the ON condition equates with it in every matching row,
 * so the nullable side's other rows can go first (t LEFT JOIN u ON t.a =
 * u.a WHERE t.a = 5 reads only u.a = 5), as PostgreSQL derives it. The
 * nullable side is filtered, never the preserved one.
 */
static void outer_consts(pln_binder_t *b, plan_rel_t *r)
{
    cm_arena_t *a = b->arena;
    bool left_kept = r->join == PLAN_JOIN_LEFT;
    int lw = r->input->ncols, w = r->ncols;
    plan_rel_t *kept = left_kept ? r->input : r->right, *nullable = left_kept ? r->right : r->input;
    int kept_off = left_kept ? 0 : lw, null_off = left_kept ? lw : 0;
    block_t k = {.b = b};
    int *up = cm_arena_alloc(a, sizeof(int) * (size_t)(w ? w : 1));
    for (int c = 0; c < w; c++)
        up[c] = c;
    scan_known(&k, kept, kept_off, up, kept->ncols);
    int nkept = k.nknown;
    scan_known(&k, nullable, null_off, up, nullable->ncols);
    plan_conj_t on = {0}, add = {0};
    plan_conj_split(a, &on, r->pred);
    for (int i = 0; i < on.n && !plan_expr_volatile(on.e[i]); i++) {
        int col;
        ty_expr_t *v;
        if (plan_expr_col_const(on.e[i], &col, &v) && col >= kept_off && col < kept_off + kept->ncols)
            add_known(&k, col, v, on.e[i]->func, false);
    }
    for (int i = 0; i < on.n && !plan_expr_volatile(on.e[i]); i++) {
        int x, y;
        if (!plan_expr_col_eq(on.e[i], &x, &y))
            continue;
        bool x_kept = x >= kept_off && x < kept_off + kept->ncols;
        bool y_kept = y >= kept_off && y < kept_off + kept->ncols;
        if (x_kept == y_kept)
            continue;
        int pc = x_kept ? x : y, nc = x_kept ? y : x;
        for (int j = 0; j < k.nknown; j++) {
            if ((j >= nkept && k.known[j].present) || k.known[j].col != pc)
                continue;
            bool present = false;
            for (int m = nkept; m < k.nknown && !present; m++)
                present = k.known[m].col == nc && same_value(k.known[m].value, k.known[j].value);
            if (present)
                continue;
            add_known(&k, nc, k.known[j].value, k.known[j].eq, true);
            plan_conj_add(a, &add, plan_expr_eq(a, k.known[j].eq,
                                                plan_expr_column(a, nc - null_off, on.e[i]->args[0]->type),
                                                k.known[j].value));
        }
    }
    if (add.n == 0)
        return;
    if (left_kept)
        r->right = pln__filter_over(b, r->right, add.e, add.n);
    else
        r->input = pln__filter_over(b, r->input, add.e, add.n);
}

static plan_rel_t *equiv(pln_binder_t *b, plan_rel_t *r)
{
    if (plan_rel_is_read(r))
        return r;
    switch (r->kind) {
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:
        if (is_inner(r)) {
            int n = r->ncols, *pick;
            plan_rel_t *core = block(b, lift(b, r, &pick));
            bool same = core->ncols == n;
            for (int i = 0; same && i < n; i++)
                same = pick[i] == i;
            if (same)
                return core;
            plan_rel_t *p = pln__rel_new(b, PLAN_REL_PROJECT, core, n);
            p->exprs = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
            for (int i = 0; i < n; i++) {
                p->exprs[i] = plan_expr_column(b->arena, pick[i], core->types[pick[i]]);
                p->types[i] = core->types[pick[i]];
            }
            return p;
        }
        r->input = equiv(b, r->input);
        r->right = equiv(b, r->right);
        if (r->join == PLAN_JOIN_LEFT || r->join == PLAN_JOIN_RIGHT)
            outer_consts(b, r);
        return r;
    case PLAN_REL_VALUES:
    case PLAN_REL_SESSION:
    case PLAN_REL_GET:
    case PLAN_REL_FILTER:
    case PLAN_REL_PROJECT:
    case PLAN_REL_REDUCE:
    case PLAN_REL_SORT:
    case PLAN_REL_DISTINCT:
    case PLAN_REL_LIMIT:
    case PLAN_REL_SETOP:
    case PLAN_REL_WINDOW:
    case PLAN_REL_CTE:
    case PLAN_REL_FLATMAP:
        break;
    case PLAN_REL_LET:
        for (int i = 0; i < r->nctes; i++) {   /* each CTE is a query of its own */
            r->ctes[i]->def = equiv(b, r->ctes[i]->def);
            if (r->ctes[i]->rec)
                r->ctes[i]->rec = equiv(b, r->ctes[i]->rec);
        }
        break;
    }
    /* Nothing moves across other operators (a kind this pass does not know included): blocks inside them. */
    if (r->input)
        r->input = equiv(b, r->input);
    if (r->right)
        r->right = equiv(b, r->right);
    return r;
}

plan_rel_t *pln__opt_equiv(pln_binder_t *b, plan_rel_t *r)
{
    return equiv(b, r);
}

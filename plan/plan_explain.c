/*
 * plan_explain.c: the plan printer (plan.h): a plan_t as indented text in
 * Materialize's style, which EXPLAIN answers one row per line:
 *
 *   Explained Query:
 *     Project (#0, #2)
 *       Filter (#1 > 10)
 *         Get eddy.public.t
 *
 * An operator's inputs are indented two spaces below it. Columns are
 * written by position (#0 is the first column of the operator's input; for
 * a join, the inputs' columns side by side), as Materialize does by
 * default: names are ambiguous after joins and do not exist for computed
 * columns. Tables, sources and views are "Get <database>.<schema>.<name>".
 * It reads nothing but the plan, so whoever holds one (the planner for
 * EXPLAIN, a worker for an installed dataflow) prints the same text.
 *
 * The operators map onto the dataflow engine's (DESIGN §6): Constant, Get,
 * Filter, Map/Project, CrossJoin / Join on=(...) (a filter directly above
 * a product is the join's condition), the outer joins, Reduce, Distinct,
 * TopK (ORDER BY, LIMIT/OFFSET, DISTINCT ON as TopK group_by limit=1), and
 * the set operations as Union, Negate and Threshold, WITH as a With /
 * With Recursive ... Return block whose CTEs are read as "Get l<n>",
 * functions in FROM as FlatMap f(args), and window functions as Window.
 * plan_explain_expr.c writes the expressions inside them.
 */
#include "plan/plan_explain.h"

#include <string.h>

typedef struct explain {
    plan_explainer_t e;
    int n, cap;
    const char **lines;
    cm_buf_t line;               /* the line being written */
} explain_t;

/* ============================================================ lines */

static void line_begin(explain_t *x, int depth)
{
    cm_buf_reset(&x->line);
    for (int i = 0; i < depth; i++)
        cm_buf_put_str(&x->line, "  ");
}

static void line_end(explain_t *x)
{
    if (x->n == x->cap) {
        int cap = x->cap ? 2 * x->cap : 32;
        const char **l = cm_arena_alloc(x->e.arena, sizeof(*l) * (size_t)cap);
        if (x->n)
            memcpy(l, x->lines, sizeof(*l) * (size_t)x->n);
        x->lines = l;
        x->cap = cap;
    }
    x->lines[x->n++] = cm_arena_strndup(x->e.arena, (const char *)x->line.data, x->line.len);
}

static void line_put(explain_t *x, int depth, const char *text)
{
    line_begin(x, depth);
    cm_buf_put_str(&x->line, text);
    line_end(x);
}

/* ============================================================ operators */

static void rel_out(explain_t *x, const plan_rel_t *r, int depth);

static void row_out(explain_t *x, int depth, ty_expr_t *const *row, int ncols)
{
    line_begin(x, depth);
    cm_buf_put_str(&x->line, "- (");
    plan__explain_list(&x->e, &x->line, row, ncols);
    cm_buf_put_u8(&x->line, ')');
    line_end(x);
}

static void values_out(explain_t *x, const plan_rel_t *r, int depth)
{
    if (r->nrows == 0) {
        line_put(x, depth, "Constant <empty>");
    } else {
        line_put(x, depth, "Constant");
        for (int i = 0; i < r->nrows; i++)
            row_out(x, depth + 1, r->rows[i], r->ncols);
    }
}

static bool all_const(ty_expr_t *const *es, int n)
{
    for (int i = 0; i < n; i++)
        if (es[i]->kind != TY_EXPR_CONST)
            return false;
    return true;
}

/*
 * A projection as Materialize's MIR writes it: the computed expressions
 * are a Map appending columns to its input's (#n, #n+1, ... for an input
 * of n columns), and a Project picks the output columns from those. Either
 * is left out when it would do nothing; SELECT of constants without FROM
 * is the Constant row it folded to.
 */
static bool only_columns(const plan_rel_t *r)
{
    for (int i = 0; i < r->ncols; i++)
        if (r->exprs[i]->kind != TY_EXPR_COLUMN)
            return false;
    return true;
}

static void project_out(explain_t *x, const plan_rel_t *r, int depth)
{
    const plan_rel_t *in = r->input;
    while (in->kind == PLAN_REL_PROJECT && only_columns(r) && only_columns(in)) {
        /* Projections that only pick columns, one over another (SELECT * over USING's merge), are one. */
        plan_rel_t *one = cm_arena_alloc(x->e.arena, sizeof(*one));
        *one = *r;
        one->exprs = cm_arena_alloc(x->e.arena, sizeof(ty_expr_t *) * (size_t)(r->ncols ? r->ncols : 1));
        for (int i = 0; i < r->ncols; i++)
            one->exprs[i] = in->exprs[r->exprs[i]->index];
        one->input = in->input;
        r = one;
        in = one->input;
    }
    if (in->kind == PLAN_REL_VALUES && in->nrows == 1 && in->ncols == 0 && all_const(r->exprs, r->ncols)) {
        line_put(x, depth, "Constant");
        row_out(x, depth + 1, r->exprs, r->ncols);
        return;
    }
    /* Project (pick) over Map (maps) over in. A projection that only picks columns of one that
     * computes some (a volatile expression nobody reads is still computed) is one of those. */
    const plan_rel_t *m = r;
    bool picks_of_map = only_columns(r) && in->kind == PLAN_REL_PROJECT;
    if (picks_of_map) {
        m = in;
        in = in->input;
    }
    int nin = in->ncols, nmap = 0;
    int *mpick = cm_arena_alloc(x->e.arena, sizeof(int) * (size_t)(m->ncols ? m->ncols : 1));
    for (int i = 0; i < m->ncols; i++)
        mpick[i] = m->exprs[i]->kind == TY_EXPR_COLUMN ? m->exprs[i]->index : nin + nmap++;
    int *pick = mpick;
    if (picks_of_map) {
        pick = cm_arena_alloc(x->e.arena, sizeof(int) * (size_t)(r->ncols ? r->ncols : 1));
        for (int i = 0; i < r->ncols; i++)
            pick[i] = mpick[r->exprs[i]->index];
    }
    bool identity = r->ncols == nin + nmap;
    for (int i = 0; identity && i < r->ncols; i++)
        identity = pick[i] == i;
    if (!identity) {
        line_begin(x, depth);
        cm_buf_put_str(&x->line, "Project (");
        for (int i = 0; i < r->ncols; i++)
            cm_buf_printf(&x->line, "%s#%d", i ? ", " : "", pick[i]);
        cm_buf_put_u8(&x->line, ')');
        line_end(x);
        depth++;
    }
    if (nmap > 0) {
        line_begin(x, depth);
        cm_buf_put_str(&x->line, "Map (");
        bool first = true;
        for (int i = 0; i < m->ncols; i++) {
            if (m->exprs[i]->kind == TY_EXPR_COLUMN)
                continue;
            if (!first)
                cm_buf_put_str(&x->line, ", ");
            first = false;
            plan__explain_expr(&x->e, &x->line, m->exprs[i], true);
        }
        cm_buf_put_u8(&x->line, ')');
        line_end(x);
        depth++;
    }
    rel_out(x, in, depth);
}

/*
 * Nested products and inner joins are one n-way join, as Materialize shows
 * it: the inputs left to right, and every condition over the row of all of
 * them (the nested ones' columns shifted to where their inputs sit).
 */
typedef struct join_block {
    int n, cap;
    const plan_rel_t **in;
    plan_conj_t on;
} join_block_t;

static bool is_inner(const plan_rel_t *r)
{
    return (r->kind == PLAN_REL_PRODUCT || (r->kind == PLAN_REL_JOIN && r->join == PLAN_JOIN_INNER));
}

static void block_collect(explain_t *x, const plan_rel_t *r, int offset, join_block_t *jb)
{
    if (!is_inner(r)) {
        if (jb->n == jb->cap) {
            int cap = jb->cap ? 2 * jb->cap : 8;
            const plan_rel_t **g = cm_arena_alloc(x->e.arena, sizeof(*g) * (size_t)cap);
            if (jb->n)
                memcpy(g, jb->in, sizeof(*g) * (size_t)jb->n);
            jb->in = g;
            jb->cap = cap;
        }
        jb->in[jb->n++] = r;
        return;
    }
    block_collect(x, r->input, offset, jb);
    block_collect(x, r->right, offset + r->input->ncols, jb);
    plan_conj_split(x->e.arena, &jb->on, plan_expr_shift(x->e.arena, r->pred, offset));
}

static int class_root(int *parent, int c)
{
    while (parent[c] != c)
        c = parent[c] = parent[parent[c]];
    return c;
}

/*
 * A join's condition: the columns its equalities make equal as classes
 * (#0 = #3 = #6, Materialize's join keys), in the order of their first
 * column, then the other conjuncts as written.
 */
static void join_on_out(explain_t *x, int ncols, const plan_conj_t *on)
{
    cm_arena_t *a = x->e.arena;
    int *parent = cm_arena_alloc(a, sizeof(int) * (size_t)(ncols ? ncols : 1));
    bool *in_class = cm_arena_zalloc(a, sizeof(bool) * (size_t)(ncols ? ncols : 1));
    for (int c = 0; c < ncols; c++)
        parent[c] = c;
    plan_conj_t rest = {0};
    for (int i = 0; i < on->n; i++) {
        int l, r;
        if (plan_expr_col_eq(on->e[i], &l, &r) && l < ncols && r < ncols) {
            int pl = class_root(parent, l), pr = class_root(parent, r);
            parent[pl > pr ? pl : pr] = pl < pr ? pl : pr;   /* the smallest column is each class's root */
            in_class[l] = in_class[r] = true;
        } else {
            plan_conj_add(a, &rest, on->e[i]);
        }
    }
    bool first = true;
    for (int c = 0; c < ncols; c++) {
        if (!in_class[c] || class_root(parent, c) != c)
            continue;
        if (!first)
            cm_buf_put_str(&x->line, " AND ");
        first = false;
        cm_buf_printf(&x->line, "#%d", c);
        for (int m = c + 1; m < ncols; m++)
            if (in_class[m] && class_root(parent, m) == c)
                cm_buf_printf(&x->line, " = #%d", m);
    }
    if (rest.n) {
        if (!first)
            cm_buf_put_str(&x->line, " AND ");
        plan__explain_pred(&x->e, &x->line, plan_conj_and(a, rest.e, rest.n), false);
    }
}

static void join_out(explain_t *x, const plan_rel_t *r, const ty_expr_t *on, int depth)
{
    static const char *const kinds[] = {[PLAN_JOIN_INNER] = "Join", [PLAN_JOIN_LEFT] = "LeftOuterJoin",
                                        [PLAN_JOIN_RIGHT] = "RightOuterJoin", [PLAN_JOIN_FULL] = "FullOuterJoin",
                                        [PLAN_JOIN_CROSS] = "CrossJoin"};
    join_block_t jb = {0};
    if (is_inner(r))
        block_collect(x, r, 0, &jb);
    else
        plan_conj_split(x->e.arena, &jb.on, r->pred);   /* an outer join's inputs are each their own plan */
    plan_conj_split(x->e.arena, &jb.on, (ty_expr_t *)on);
    line_begin(x, depth);
    if (is_inner(r) && jb.on.n == 0) {
        cm_buf_put_str(&x->line, "CrossJoin");
    } else {
        cm_buf_put_str(&x->line, kinds[is_inner(r) ? PLAN_JOIN_INNER : r->join]);
        cm_buf_put_str(&x->line, " on=(");
        if (jb.on.n)
            join_on_out(x, r->ncols, &jb.on);
        else
            cm_buf_put_str(&x->line, "true");
        cm_buf_put_u8(&x->line, ')');
    }
    line_end(x);
    if (is_inner(r)) {
        for (int i = 0; i < jb.n; i++)
            rel_out(x, jb.in[i], depth + 1);
    } else {
        rel_out(x, r->input, depth + 1);
        rel_out(x, r->right, depth + 1);
    }
}

static void reduce_out(explain_t *x, const plan_rel_t *r, int depth)
{
    line_begin(x, depth);
    if (r->naggs == 0 && r->nkeys > 0) {
        /* GROUP BY without aggregates keeps one row per key: Materialize prints that Reduce as a Distinct. */
        cm_buf_put_str(&x->line, "Distinct project=[");
        plan__explain_list(&x->e, &x->line, r->keys, r->nkeys);
        cm_buf_put_u8(&x->line, ']');
    } else {
        cm_buf_put_str(&x->line, "Reduce");
        if (r->nkeys > 0) {
            cm_buf_put_str(&x->line, " group_by=[");
            plan__explain_list(&x->e, &x->line, r->keys, r->nkeys);
            cm_buf_put_u8(&x->line, ']');
        }
        cm_buf_put_str(&x->line, " aggregates=[");
        for (int i = 0; i < r->naggs; i++) {
            if (i)
                cm_buf_put_str(&x->line, ", ");
            plan__explain_agg(&x->e, &x->line, r->aggs[i]);
        }
        cm_buf_put_u8(&x->line, ']');
    }
    line_end(x);
    rel_out(x, r->input, depth + 1);
}

/*
 * ORDER BY, LIMIT/OFFSET and DISTINCT ON are one TopK each: a LIMIT over a
 * sort takes the sort's order, and so does DISTINCT ON (limit=1 per group).
 * A projection that only drops the sort's hidden columns is printed above
 * the TopK; dropping columns after the limit or before it is the same.
 */
static void topk_out(explain_t *x, const plan_rel_t *r, int depth)
{
    const plan_rel_t *sort = NULL, *in = r->input;
    if (r->kind == PLAN_REL_SORT) {
        sort = r;
    } else if (in->kind == PLAN_REL_SORT) {
        sort = in;
        in = in->input;
    } else if (r->kind == PLAN_REL_LIMIT && in->kind == PLAN_REL_PROJECT && only_columns(in) &&
               in->input->kind == PLAN_REL_SORT) {
        line_begin(x, depth);
        cm_buf_put_str(&x->line, "Project (");
        for (int i = 0; i < in->ncols; i++)
            cm_buf_printf(&x->line, "%s#%d", i ? ", " : "", in->exprs[i]->index);
        cm_buf_put_u8(&x->line, ')');
        line_end(x);
        depth++;
        sort = in->input;
        in = sort->input;
    }
    if (sort == r)
        in = r->input;
    line_begin(x, depth);
    cm_buf_put_str(&x->line, "TopK");
    if (r->kind == PLAN_REL_DISTINCT) {
        cm_buf_put_str(&x->line, " group_by=[");
        for (int i = 0; i < r->nsort; i++)
            cm_buf_printf(&x->line, "%s#%d", i ? ", " : "", r->sort[i].col);
        cm_buf_put_u8(&x->line, ']');
    }
    if (sort) {
        cm_buf_put_str(&x->line, " order_by=[");
        plan__explain_keys(&x->line, sort->sort, sort->nsort);
        cm_buf_put_u8(&x->line, ']');
    }
    if (r->kind == PLAN_REL_DISTINCT) {
        cm_buf_put_str(&x->line, " limit=1");
    } else if (r->kind == PLAN_REL_LIMIT) {
        if (r->limit) {
            cm_buf_put_str(&x->line, " limit=");
            plan__explain_expr(&x->e, &x->line, r->limit, false);
        }
        if (r->offset) {
            cm_buf_put_str(&x->line, " offset=");
            plan__explain_expr(&x->e, &x->line, r->offset, false);
        }
    }
    line_end(x);
    rel_out(x, in, depth + 1);
}

/* The inputs of a chain of the same set operation, left to right (UNION is associative). */
static void union_inputs_out(explain_t *x, const plan_rel_t *r, plan_setop_t op, bool all, int depth)
{
    if (r->kind == PLAN_REL_SETOP && r->setop == op && (r->all == all || !all)) {
        union_inputs_out(x, r->input, op, all, depth);
        union_inputs_out(x, r->right, op, all, depth);
    } else {
        rel_out(x, r, depth);
    }
}

static void distinct_of(explain_t *x, const plan_rel_t *r, bool distinct, int depth)
{
    if (distinct) {
        line_put(x, depth++, "Distinct");
    }
    rel_out(x, r, depth);
}

/* a EXCEPT ALL b: the rows of a whose count stays positive after b's are subtracted. */
static void except_out(explain_t *x, const plan_rel_t *a, const plan_rel_t *b, bool distinct, int depth)
{
    line_put(x, depth, "Threshold");
    line_put(x, depth + 1, "Union");
    distinct_of(x, a, distinct, depth + 2);
    line_put(x, depth + 2, "Negate");
    distinct_of(x, b, distinct, depth + 3);
}

static void setop_out(explain_t *x, const plan_rel_t *r, int depth)
{
    bool distinct = !r->all;
    switch (r->setop) {
    case PLAN_SETOP_UNION:
        if (distinct)
            line_put(x, depth++, "Distinct");
        line_put(x, depth, "Union");
        union_inputs_out(x, r, PLAN_SETOP_UNION, r->all, depth + 1);
        return;
    case PLAN_SETOP_EXCEPT:
        except_out(x, r->input, r->right, distinct, depth);
        return;
    case PLAN_SETOP_INTERSECT:
        /* The dataflow has no intersection: min(a, b) is a - (a EXCEPT ALL b). */
        line_put(x, depth, "Union");
        distinct_of(x, r->input, distinct, depth + 1);
        line_put(x, depth + 1, "Negate");
        except_out(x, r->input, r->right, distinct, depth + 2);
        return;
    case PLAN_SETOP_NONE:
        break;
    }
    line_put(x, depth, "?");
}

/*
 * WITH as Materialize's With / Return block: each CTE the query reads, in
 * dependency order, then the query; a recursive one under "With Recursive"
 * is its terms' Union, where "Get l<id>" inside reads the last iteration.
 */
static void let_out(explain_t *x, const plan_rel_t *r, int depth)
{
    bool recursive = false;
    for (int i = 0; i < r->nctes; i++)
        recursive |= r->ctes[i]->rec != NULL;
    line_put(x, depth, recursive ? "With Recursive" : "With");
    for (int i = 0; i < r->nctes; i++) {
        const plan_cte_t *c = r->ctes[i];
        line_begin(x, depth + 1);
        cm_buf_printf(&x->line, "cte l%d =", c->id);
        line_end(x);
        if (!c->rec) {
            rel_out(x, c->def, depth + 2);
            continue;
        }
        int d = depth + 2;
        if (!c->all)
            line_put(x, d++, "Distinct");
        line_put(x, d, "Union");
        rel_out(x, c->def, d + 1);
        rel_out(x, c->rec, d + 1);
    }
    line_put(x, depth, "Return");
    rel_out(x, r->input, depth + 1);
}

/* Functions in FROM: FlatMap f(args) over the rows the functions read (Materialize's FlatMap). */
static void flatmap_out(explain_t *x, const plan_rel_t *r, int depth)
{
    line_begin(x, depth);
    cm_buf_put_str(&x->line, r->join == PLAN_JOIN_LEFT ? "FlatMap left " : "FlatMap ");
    for (int i = 0; i < r->nfuncs; i++) {
        const plan_srfcall_t *f = r->funcs[i];
        if (i)
            cm_buf_put_str(&x->line, ", ");
        if (!f->srf) {
            plan__explain_expr(&x->e, &x->line, f->expr, true);
            continue;
        }
        cm_buf_printf(&x->line, "%s(", f->srf->fn.name);
        plan__explain_list(&x->e, &x->line, f->args, f->nargs);
        cm_buf_put_u8(&x->line, ')');
    }
    if (r->ordinality)
        cm_buf_put_str(&x->line, " with_ordinality");
    if (r->pred) {
        cm_buf_put_str(&x->line, " on=(");
        plan__explain_pred(&x->e, &x->line, r->pred, false);
        cm_buf_put_u8(&x->line, ')');
    }
    line_end(x);
    rel_out(x, r->input, depth + 1);
}

/* ============================================================ windows */

static void bound_out(const plan_explainer_t *x, cm_buf_t *o, plan_frame_bound_t k, const ty_expr_t *off)
{
    switch (k) {
    case PLAN_BOUND_UNBOUNDED_PRECEDING:
        cm_buf_put_str(o, "unbounded preceding");
        return;
    case PLAN_BOUND_UNBOUNDED_FOLLOWING:
        cm_buf_put_str(o, "unbounded following");
        return;
    case PLAN_BOUND_CURRENT_ROW:
    case PLAN_BOUND_NONE:
        cm_buf_put_str(o, "current row");
        return;
    case PLAN_BOUND_PRECEDING:
    case PLAN_BOUND_FOLLOWING:
        plan__explain_expr(x, o, off, false);
        cm_buf_put_str(o, k == PLAN_BOUND_PRECEDING ? " preceding" : " following");
        return;
    }
}

/*
 * Window partition_by=[#1] order_by=[#0 asc nulls_last] rows between 1
 * preceding and current row functions=[row_number(), sum(#2)]: the frame
 * is written when it is not PostgreSQL's default.
 */
static void window_out(const plan_explainer_t *x, cm_buf_t *o, const plan_rel_t *r)
{
    static const char *const modes[] = {[PLAN_FRAME_RANGE] = "range", [PLAN_FRAME_ROWS] = "rows", [PLAN_FRAME_GROUPS] = "groups"};
    static const char *const excludes[] = {[PLAN_EXCLUDE_CURRENT_ROW] = "current row", [PLAN_EXCLUDE_GROUP] = "group",
                                           [PLAN_EXCLUDE_TIES] = "ties"};
    const plan_window_t *w = r->window;
    cm_buf_put_str(o, "Window");
    if (w->npart) {
        cm_buf_put_str(o, " partition_by=[");
        plan__explain_list(x, o, w->part, w->npart);
        cm_buf_put_u8(o, ']');
    }
    if (w->norder) {
        cm_buf_put_str(o, " order_by=[");
        for (int i = 0; i < w->norder; i++) {
            if (i)
                cm_buf_put_str(o, ", ");
            plan__explain_expr(x, o, w->order[i], true);
            cm_buf_printf(o, " %s %s", w->keys[i].desc ? "desc" : "asc", w->keys[i].nulls_first ? "nulls_first" : "nulls_last");
        }
        cm_buf_put_u8(o, ']');
    }
    const plan_frame_t *f = &w->frame;
    if (f->mode != PLAN_FRAME_RANGE || f->start != PLAN_BOUND_UNBOUNDED_PRECEDING || f->end != PLAN_BOUND_CURRENT_ROW ||
        f->exclude != PLAN_EXCLUDE_DEFAULT) {
        cm_buf_printf(o, " %s between ", modes[f->mode]);
        bound_out(x, o, f->start, f->start_offset);
        cm_buf_put_str(o, " and ");
        bound_out(x, o, f->end, f->end_offset);
        if (f->exclude != PLAN_EXCLUDE_DEFAULT)
            cm_buf_printf(o, " exclude %s", excludes[f->exclude]);
    }
    cm_buf_put_str(o, " functions=[");
    for (int i = 0; i < w->nfuncs; i++) {
        const plan_wfunc_t *fn = w->funcs[i];
        if (i)
            cm_buf_put_str(o, ", ");
        if (fn->agg) {
            plan__explain_agg(x, o, fn->agg);
            continue;
        }
        cm_buf_printf(o, "%s(", fn->name);
        plan__explain_list(x, o, fn->args, fn->nargs);
        cm_buf_put_u8(o, ')');
    }
    cm_buf_put_u8(o, ']');
}

static void rel_out(explain_t *x, const plan_rel_t *r, int depth)
{
    if (plan_rel_is_read(r)) {
        line_begin(x, depth);
        cm_buf_printf(&x->line, "Get %s", r->relname);
        line_end(x);
        return;
    }
    switch (r->kind) {
    case PLAN_REL_VALUES:
        values_out(x, r, depth);
        return;
    case PLAN_REL_PRODUCT:
        join_out(x, r, NULL, depth);
        return;
    case PLAN_REL_JOIN:
        join_out(x, r, NULL, depth);
        return;
    case PLAN_REL_FILTER:
        if (r->input->kind == PLAN_REL_PRODUCT) {
            /* WHERE or ON over a product: the join's condition, which the dataflow evaluates while joining. */
            join_out(x, r->input, r->pred, depth);
            return;
        }
        line_begin(x, depth);
        cm_buf_put_str(&x->line, "Filter ");
        plan__explain_pred(&x->e, &x->line, r->pred, true);
        line_end(x);
        rel_out(x, r->input, depth + 1);
        return;
    case PLAN_REL_PROJECT:
        project_out(x, r, depth);
        return;
    case PLAN_REL_REDUCE:
        reduce_out(x, r, depth);
        return;
    case PLAN_REL_DISTINCT:
        if (r->nsort == 0) {
            line_put(x, depth, "Distinct");
            rel_out(x, r->input, depth + 1);
            return;
        }
        topk_out(x, r, depth);
        return;
    case PLAN_REL_SORT:
    case PLAN_REL_LIMIT:
        topk_out(x, r, depth);
        return;
    case PLAN_REL_SETOP:
        setop_out(x, r, depth);
        return;
    case PLAN_REL_WINDOW:
        line_begin(x, depth);
        window_out(&x->e, &x->line, r);
        line_end(x);
        rel_out(x, r->input, depth + 1);
        return;
    case PLAN_REL_LET:
        let_out(x, r, depth);
        return;
    case PLAN_REL_CTE:
        line_begin(x, depth);
        cm_buf_printf(&x->line, "Get l%d", r->cte->id);
        line_end(x);
        return;
    case PLAN_REL_FLATMAP:
        flatmap_out(x, r, depth);
        return;
    default:
        /* A kind this printer does not know yet still shows where it is in the plan. */
        break;
    }
    line_begin(x, depth);
    cm_buf_printf(&x->line, "Unknown operator %d", (int)r->kind);
    line_end(x);
}

/* ============================================================ plans */

int plan_explain_lines(const plan_t *p, const char *header, const ty_ctx_t *ctx, cm_arena_t *arena,
                       const char ***lines)
{
    ty_settings_t defaults;
    explain_t x = {.e = {.arena = arena, .nsublinks = p->nsublinks, .sublinks = p->sublinks}};
    if (ctx)
        x.e.ctx = *ctx;
    if (!x.e.ctx.settings) {
        ty_settings_default(&defaults);
        x.e.ctx.settings = &defaults;
    }
    x.e.ctx.arena = arena;
    x.e.ctx.err = NULL;
    cm_buf_init(&x.line, 0);
    line_put(&x, 0, header);
    rel_out(&x, p->root, 1);
    for (int i = 0; i < p->nsublinks; i++) {
        if (p->sublinks[i].joined)
            continue;   /* decorrelated: its plan is part of the query's */
        line_begin(&x, 0);
        cm_buf_printf(&x.line, "Subquery %d:", i + 1);
        line_end(&x);
        rel_out(&x, p->sublinks[i].rel, 1);
    }
    cm_buf_free(&x.line);
    *lines = x.lines;
    return x.n;
}

void plan_explain(const plan_t *p, const ty_settings_t *settings, cm_arena_t *arena, cm_buf_t *out)
{
    ty_ctx_t ctx = {.arena = arena, .settings = settings};
    const char **lines;
    int n = plan_explain_lines(p, "Explained Query:", &ctx, arena, &lines);
    for (int i = 0; i < n; i++) {
        cm_buf_put_str(out, lines[i]);
        cm_buf_put_u8(out, '\n');
    }
}

/*
 * plan_codec.c: a bound query plan as bytes and back (plan.h,
 * plan_encode / plan_decode), for the workers and the ZooKeeper log.
 *
 *   plan     "EDPL", u32 version (2), statement, nothing after it
 *   stmt     u32 ncols, columns (str name, u32 type, i32 typmod);
 *            u32 nparams, u32 types; u64 catalog index;
 *            u8 0 | 1 and a kept planning error (str sqlstate, message,
 *            detail, hint, i32 position);
 *            u32 nsublinks, sublinks (u8 kind, 0x80 added when it was
 *            decorrelated into the plan, i32 location, u32 type,
 *            i32 typmod, rel); rel root; u32 nlits, expressions
 *   rel      u8 kind, u32 ncols, u32 types, then per kind (rel_write)
 *   str      u32 length (0xFFFFFFFF: NULL), bytes without a zero
 *
 * Integers are big-endian; expressions, constants and functions are in
 * plan_codec_expr.c. An aggregate names its entry in plan_aggdef.c's table by
 * name and argument types; a relation read carries its catalog item id,
 * qualified name and columns, so nothing refers to memory, the statement
 * text or the order of any table in this build.
 *
 * Decoding builds a new plan in the caller's arena and accepts only what
 * the executor and EXPLAIN can take: counts checked against the input left
 * and the limits before anything is allocated, every column, sort key,
 * parameter and subquery reference in range (a subquery may use only the
 * ones before it, so none can run itself), widths and value shapes that
 * agree between an operator and its inputs. What this module cannot know
 * is left to the module that does: which session relations exist and their
 * columns (the planner's pln_stmt_of_plan checks them; the session's
 * session_rows refuses a name or width it does not have), so a SESSION
 * read is checked here for its names only. A new operator kind needs one
 * case in rel_write and one in rel_read; without them both fail loudly.
 * WITH and functions in FROM are in plan_codec_cte.c.
 */
#include "plan/plan_codec.h"

#include <string.h>

/* The fewest bytes an encoded operator takes (kind, ncols, and the least its kind adds). */
#define REL_MIN 9

/* ============================================================ writing */

static void rel_write(plan__wr_t *w, const plan_rel_t *rel);

void plan__wr_exprs(plan__wr_t *w, ty_expr_t *const *es, int n, bool counted)
{
    if (counted)
        plan__wr_u32(w, (uint32_t)n);
    for (int i = 0; i < n && !w->failed; i++) {
        if (!es[i])
            plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "the plan lacks an expression (planning failed?)");
        plan__wr_expr(w, es[i]);
    }
}

void plan__wr_keys(plan__wr_t *w, const plan_sortkey_t *k, int n)
{
    for (int i = 0; i < n; i++) {
        plan__wr_i32(w, k[i].col);
        plan__wr_u32(w, k[i].type);
        plan__wr_func(w, k[i].lt);
        plan__wr_u8(w, (uint8_t)(k[i].desc | k[i].nulls_first << 1));
    }
}

void plan__wr_agg(plan__wr_t *w, const plan_agg_t *a)
{
    if (!plan__wr_enter(w))
        return;
    const ty_func_t *sig = &plan_aggdef_at((size_t)a->fn)->sig;
    plan__wr_str(w, sig->name);
    plan__wr_u8(w, (uint8_t)sig->nargs);
    for (int i = 0; i < sig->nargs; i++)
        plan__wr_u32(w, sig->args[i]);
    plan__wr_u8(w, (uint8_t)a->op);
    plan__wr_u32(w, a->state);
    plan__wr_u32(w, a->type);
    plan__wr_u8(w, a->distinct);
    plan__wr_exprs(w, a->args, a->nargs, true);
    plan__wr_expr(w, a->filter);
    plan__wr_exprs(w, a->order, a->norder, true);
    plan__wr_keys(w, a->keys, a->norder);
    plan__wr_func(w, a->add);
    plan__wr_func(w, a->div);
    plan__wr_leave(w);
}

static void get_write(plan__wr_t *w, const plan_rel_t *rel)
{
    plan__wr_str(w, rel->relname);
    plan__wr_u64(w, rel->item);
    plan__wr_u8(w, rel->item_cols != NULL);
    for (int i = 0; rel->item_cols && i < rel->ncols; i++) {
        plan__wr_str(w, rel->item_cols[i].name);
        plan__wr_u32(w, rel->item_cols[i].type);
        plan__wr_i32(w, rel->item_cols[i].typmod);
    }
    plan__wr_u32(w, (uint32_t)rel->nitem_keys);
    for (int i = 0; i < rel->nitem_keys; i++)
        plan__wr_i32(w, rel->item_keys[i]);
}

static void values_write(plan__wr_t *w, const plan_rel_t *rel)
{
    plan__wr_u32(w, (uint32_t)rel->nrows);
    for (int r = 0; r < rel->nrows; r++)
        plan__wr_exprs(w, rel->rows[r], rel->ncols, false);
}

static void rel_write(plan__wr_t *w, const plan_rel_t *rel)
{
    if (!rel) {
        plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "an operator lacks an input");
        return;
    }
    if (!plan__wr_enter(w))
        return;
    plan__wr_u8(w, (uint8_t)rel->kind);
    plan__wr_u32(w, (uint32_t)rel->ncols);
    for (int i = 0; i < rel->ncols; i++)
        plan__wr_u32(w, rel->types[i]);
    switch (rel->kind) {
    case PLAN_REL_VALUES:
        values_write(w, rel);
        break;
    case PLAN_REL_PRODUCT:
        rel_write(w, rel->input);
        rel_write(w, rel->right);
        break;
    case PLAN_REL_FILTER:
        rel_write(w, rel->input);
        plan__wr_expr(w, rel->pred);
        break;
    case PLAN_REL_PROJECT:
        rel_write(w, rel->input);
        plan__wr_exprs(w, rel->exprs, rel->ncols, false);
        break;
    case PLAN_REL_REDUCE:
        rel_write(w, rel->input);
        plan__wr_exprs(w, rel->keys, rel->nkeys, true);
        plan__wr_u32(w, (uint32_t)rel->naggs);
        for (int i = 0; i < rel->naggs; i++)
            plan__wr_agg(w, rel->aggs[i]);
        break;
    case PLAN_REL_SORT:
    case PLAN_REL_DISTINCT:
        rel_write(w, rel->input);
        plan__wr_u32(w, (uint32_t)rel->nsort);
        plan__wr_keys(w, rel->sort, rel->nsort);
        break;
    case PLAN_REL_LIMIT:
        rel_write(w, rel->input);
        plan__wr_expr(w, rel->limit);
        plan__wr_expr(w, rel->offset);
        break;
    case PLAN_REL_SETOP:
        rel_write(w, rel->input);
        rel_write(w, rel->right);
        plan__wr_u8(w, (uint8_t)rel->setop);
        plan__wr_u8(w, rel->all);
        break;
    case PLAN_REL_JOIN:
        rel_write(w, rel->input);
        rel_write(w, rel->right);
        plan__wr_u8(w, (uint8_t)rel->join);
        plan__wr_expr(w, rel->pred);
        break;
    case PLAN_REL_GET:
        get_write(w, rel);
        break;
    case PLAN_REL_SESSION:
        plan__wr_str(w, rel->relname);
        plan__wr_str(w, rel->session);
        break;
    case PLAN_REL_WINDOW:
        rel_write(w, rel->input);
        plan__wr_window(w, rel->window);
        break;
    case PLAN_REL_LET:
        plan__wr_let(w, rel);
        break;
    case PLAN_REL_CTE:
        plan__wr_cteref(w, rel);
        break;
    case PLAN_REL_FLATMAP:
        plan__wr_flatmap(w, rel);
        break;
    default:
        plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "plan operator kind %d has no encoding (plan/plan_codec.c)",
                      (int)rel->kind);
        break;
    }
    plan__wr_leave(w);
}

void plan__wr_rel(plan__wr_t *w, const plan_rel_t *rel)
{
    rel_write(w, rel);
}

static void error_write(plan__wr_t *w, const plan_t *p)
{
    plan__wr_u8(w, p->error != NULL);
    if (!p->error)
        return;
    cm_err_t e = {0};
    plan_error_raise(p->error, &e);
    plan__wr_str(w, e.sqlstate);
    plan__wr_str(w, e.message ? e.message : "");
    plan__wr_str(w, e.detail);
    plan__wr_str(w, e.hint);
    plan__wr_i32(w, e.position);
    cm_err_clear(&e);
}

static void limits_of(const plan_limits_t *limits, plan_limits_t *out)
{
    out->depth_max = limits && limits->depth_max > 0 ? limits->depth_max : PLAN_DEPTH_MAX;
    out->nodes_max = limits && limits->nodes_max > 0 ? limits->nodes_max : PLAN_NODES_MAX;
}

bool plan_encode(const plan_t *q, const plan_limits_t *limits, cm_buf_t *out, cm_err_t *err)
{
    if (!q->root || (q->ncols > 0 && !q->cols) || (q->nparams > 0 && !q->param_types))
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the plan lacks its operators, result columns or parameters");
    cm_arena_t scratch;
    cm_arena_init(&scratch, 4096);
    plan__wr_t w = {.b = out, .err = err};
    limits_of(limits, &w.lim);
    ty_settings_default(&w.settings);
    w.ctx.arena = &scratch;
    w.ctx.settings = &w.settings;
    cm_buf_put(out, PLAN_CODEC_MAGIC, 4);
    plan__wr_u32(&w, PLAN_CODEC_VERSION);
    plan__wr_u32(&w, (uint32_t)q->ncols);
    for (int i = 0; i < q->ncols; i++) {
        plan__wr_str(&w, q->cols[i].name);
        plan__wr_u32(&w, q->cols[i].type);
        plan__wr_i32(&w, q->cols[i].typmod);
    }
    plan__wr_u32(&w, (uint32_t)q->nparams);
    for (int i = 0; i < q->nparams; i++)
        plan__wr_u32(&w, q->param_types[i]);
    plan__wr_u64(&w, q->catalog_index);
    error_write(&w, q);
    plan__wr_u32(&w, (uint32_t)q->nsublinks);
    for (int i = 0; i < q->nsublinks; i++) {
        const plan_sublink_t *s = &q->sublinks[i];
        plan__wr_u8(&w, (uint8_t)((unsigned)s->kind | (s->joined ? 0x80u : 0u)));
        plan__wr_i32(&w, s->location);
        plan__wr_u32(&w, s->type);
        plan__wr_i32(&w, s->typmod);
        rel_write(&w, s->rel);
    }
    rel_write(&w, q->root);
    plan__wr_u32(&w, (uint32_t)q->ncols);
    plan__wr_exprs(&w, q->lits, q->nlits, true);
    cm_arena_free(&scratch);
    if (!w.failed && out->failed)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the encoded plan is larger than its buffer allows");
    return !w.failed;
}

/* ============================================================ reading */

static plan_rel_t *rel_read(plan__rd_t *r);

plan__row_ctx_t plan__row_set(plan__rd_t *r, const ty_oid_t *types, int width)
{
    plan__row_ctx_t saved = {r->row_types, r->row_width};
    r->row_types = types;
    r->row_width = width;
    return saved;
}

void plan__row_restore(plan__rd_t *r, plan__row_ctx_t saved)
{
    r->row_types = saved.types;
    r->row_width = saved.width;
}

ty_expr_t **plan__rd_exprs(plan__rd_t *r, int n)
{
    ty_expr_t **es = cm_arena_alloc(r->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        if (!(es[i] = plan__rd_expr(r, false)))
            return NULL;
    return es;
}

/* Sort keys over the given columns (key i of an aggregate: its arguments, then its ORDER BY values). */
plan_sortkey_t *plan__rd_keys(plan__rd_t *r, int n, const ty_oid_t *types, int width)
{
    plan_sortkey_t *k = cm_arena_zalloc(r->arena, sizeof(plan_sortkey_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n && !r->failed; i++) {
        k[i].col = plan__rd_i32(r);
        k[i].type = plan__rd_type(r, false);
        k[i].lt = plan__rd_func(r);
        uint8_t flags = plan__rd_u8(r);
        if (r->failed)
            break;
        if (flags > 3)
            plan__rd_fail(r, "sort key flags %u", flags);
        else if (k[i].col < 0 || k[i].col >= width)
            plan__rd_fail(r, "sort key on column #%d of %d", k[i].col, width);
        else if (k[i].lt && k[i].lt->nargs != 2)
            plan__rd_fail(r, "sort key ordered by %s", k[i].lt->name);
        else
            plan__rd_check_shape(r, types[k[i].col], k[i].type, "a sort key");
        k[i].desc = flags & 1;
        k[i].nulls_first = (flags >> 1) & 1;
    }
    return r->failed ? NULL : k;
}

/* sum/avg add in their state type, avg divides it: the operators must take and give that type. */
static void agg_ops_check(plan__rd_t *r, const plan_agg_t *a)
{
    bool sum = a->op == PLAN_AGG_SUM || a->op == PLAN_AGG_AVG, avg = a->op == PLAN_AGG_AVG;
    if (!sum != !a->add || !avg != !a->div) {
        plan__rd_fail(r, "aggregate %s with the wrong operators", plan_aggdef_at((size_t)a->fn)->sig.name);
        return;
    }
    if (a->add && (a->add->nargs != 2 || !plan__same_shape(a->add->args[0], a->state) ||
                   !plan__same_shape(a->add->args[1], a->state) || !plan__same_shape(a->add->ret, a->state)))
        plan__rd_fail(r, "aggregate state added with %s", a->add->name);
    if (a->div && (a->div->nargs != 2 || !plan__same_shape(a->div->args[0], a->state) ||
                   !plan__same_shape(a->div->ret, a->state)))
        plan__rd_fail(r, "aggregate state divided with %s", a->div->name);
}

plan_agg_t *plan__rd_agg(plan__rd_t *r)
{
    if (!plan__rd_enter(r))
        return NULL;
    plan_agg_t *a = cm_arena_zalloc(r->arena, sizeof(*a));
    const char *name = plan__rd_str(r, "aggregate name");
    uint8_t nsig = plan__rd_u8(r);
    ty_oid_t sig[2] = {0, 0};
    if (!r->failed && (!name || nsig > 2))
        plan__rd_fail(r, "aggregate key");
    for (int i = 0; i < nsig && !r->failed; i++)
        sig[i] = plan__rd_type(r, true);
    if (!r->failed && (a->fn = plan_aggdef_find(name, nsig, sig)) < 0)
        plan__rd_fail(r, "unknown aggregate %s with %u arguments", name, nsig);
    a->op = (plan_aggop_t)plan__rd_u8(r);
    a->state = plan__rd_type(r, true);
    a->type = plan__rd_type(r, false);
    a->distinct = plan__rd_bool(r);
    if (r->failed)
        return NULL;
    const plan_aggdef_t *def = plan_aggdef_at((size_t)a->fn);
    const ty_func_t *f = &def->sig;
    if (a->op != def->op || a->state != def->state) {
        plan__rd_fail(r, "aggregate %s with another operation or state", name);
        return NULL;
    }
    a->nargs = plan__rd_count(r, "aggregate arguments", 2, PLAN_CODEC_EXPR_MIN);
    if (!r->failed && a->nargs != f->nargs)
        plan__rd_fail(r, "aggregate %s with %d arguments", name, a->nargs);
    for (int i = 0; i < a->nargs && !r->failed; i++)
        if ((a->args[i] = plan__rd_expr(r, false)) && f->args[i] != TY_INVALID)
            plan__rd_check_shape(r, a->args[i]->type, f->args[i], "an aggregate argument");
    a->filter = plan__rd_expr(r, true);
    if (a->filter)
        plan__rd_check_shape(r, a->filter->type, TY_BOOL, "FILTER");
    a->norder = plan__rd_count(r, "aggregate ORDER BY values", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (r->failed)
        return NULL;
    a->order = plan__rd_exprs(r, a->norder);
    if (!a->order)
        return NULL;
    /* Keys count over the arguments, then the ORDER BY values. */
    int width = a->nargs + a->norder;
    ty_oid_t *types = cm_arena_alloc(r->arena, sizeof(ty_oid_t) * (size_t)(width ? width : 1));
    for (int i = 0; i < width; i++)
        types[i] = i < a->nargs ? a->args[i]->type : a->order[i - a->nargs]->type;
    a->keys = plan__rd_keys(r, a->norder, types, width);
    a->add = plan__rd_func(r);
    a->div = plan__rd_func(r);
    if (r->failed)
        return NULL;
    agg_ops_check(r, a);
    if (a->op == PLAN_AGG_ARRAY_AGG ? ty_array_elem_type(a->type) == TY_INVALID
                                   : f->ret != TY_INVALID && !plan__same_shape(a->type, f->ret))
        plan__rd_fail(r, "aggregate %s of type %u", name, a->type);
    plan__rd_leave(r);
    return r->failed ? NULL : a;
}

static bool check_width(plan__rd_t *r, const plan_rel_t *rel, const plan_rel_t *in, int offset)
{
    for (int i = 0; i < in->ncols && !r->failed; i++)
        plan__rd_check_shape(r, in->types[i], rel->types[offset + i], "an input column");
    return !r->failed;
}

/* An operator with the columns of its input. */
static bool same_columns(plan__rd_t *r, const plan_rel_t *rel, const plan_rel_t *in)
{
    if (!in)
        return false;
    if (in->ncols != rel->ncols)
        return plan__rd_fail(r, "an operator of %d columns over an input of %d", rel->ncols, in->ncols);
    return check_width(r, rel, in, 0);
}

static bool get_read(plan__rd_t *r, plan_rel_t *rel)
{
    rel->relname = plan__rd_str(r, "relation name");
    rel->item = plan__rd_u64(r);
    if (!r->failed && !rel->relname)
        return plan__rd_fail(r, "a relation read without a name");
    if (plan__rd_bool(r)) {
        plan_column_t *cols = cm_arena_zalloc(r->arena, sizeof(plan_column_t) * (size_t)(rel->ncols ? rel->ncols : 1));
        for (int i = 0; i < rel->ncols && !r->failed; i++) {
            cols[i].name = plan__rd_str(r, "column name");
            cols[i].type = plan__rd_type(r, false);
            cols[i].typmod = plan__rd_i32(r);
            if (!r->failed && (!cols[i].name || cols[i].type != rel->types[i]))
                plan__rd_fail(r, "column %d of relation %s", i, rel->relname);
        }
        rel->item_cols = cols;
    }
    rel->nitem_keys = plan__rd_count(r, "key columns", rel->ncols, 4);
    if (r->failed)
        return false;
    rel->item_keys = cm_arena_zalloc(r->arena, sizeof(int) * (size_t)(rel->nitem_keys ? rel->nitem_keys : 1));
    for (int i = 0; i < rel->nitem_keys && !r->failed; i++) {
        rel->item_keys[i] = plan__rd_i32(r);
        if (!r->failed && (rel->item_keys[i] < 0 || rel->item_keys[i] >= rel->ncols))
            plan__rd_fail(r, "key column %d of relation %s with %d columns", rel->item_keys[i], rel->relname,
                          rel->ncols);
    }
    return !r->failed;
}

static bool values_read(plan__rd_t *r, plan_rel_t *rel)
{
    /* Rows without columns take no bytes, so they count as nodes before anything is made for them. */
    rel->nrows = plan__rd_count(r, "rows", r->lim.nodes_max, (size_t)rel->ncols * PLAN_CODEC_EXPR_MIN);
    if (r->failed)
        return false;
    r->nodes += rel->nrows;
    if (r->nodes > r->lim.nodes_max)
        return plan__rd_fail(r, "more than %d nodes", r->lim.nodes_max);
    rel->rows = cm_arena_alloc(r->arena, sizeof(ty_expr_t **) * (size_t)(rel->nrows ? rel->nrows : 1));
    plan__row_ctx_t saved = plan__row_set(r, NULL, 0);   /* rows are computed without an input row */
    for (int i = 0; i < rel->nrows && !r->failed; i++) {
        rel->rows[i] = plan__rd_exprs(r, rel->ncols);
        for (int c = 0; rel->rows[i] && c < rel->ncols && !r->failed; c++)
            plan__rd_check_shape(r, rel->rows[i][c]->type, rel->types[c], "a value");
    }
    plan__row_restore(r, saved);
    return !r->failed;
}

static bool reduce_read(plan__rd_t *r, plan_rel_t *rel)
{
    plan_rel_t *in = rel->input;
    plan__row_ctx_t saved = plan__row_set(r, in->types, in->ncols);
    rel->nkeys = plan__rd_count(r, "grouping keys", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (!r->failed)
        rel->keys = plan__rd_exprs(r, rel->nkeys);
    rel->naggs = plan__rd_count(r, "aggregates", r->lim.nodes_max, 8);
    if (!r->failed)
        rel->aggs = cm_arena_alloc(r->arena, sizeof(plan_agg_t *) * (size_t)(rel->naggs ? rel->naggs : 1));
    for (int i = 0; i < rel->naggs && !r->failed; i++)
        rel->aggs[i] = plan__rd_agg(r);
    plan__row_restore(r, saved);
    if (r->failed)
        return false;
    if (rel->ncols != rel->nkeys + rel->naggs)
        return plan__rd_fail(r, "a reduce of %d columns with %d keys and %d aggregates", rel->ncols, rel->nkeys,
                             rel->naggs);
    for (int i = 0; i < rel->ncols && !r->failed; i++)
        plan__rd_check_shape(r, i < rel->nkeys ? rel->keys[i]->type : rel->aggs[i - rel->nkeys]->type, rel->types[i],
                             "a reduce column");
    return !r->failed;
}

/*
 * Which session relations exist, and with which columns, the planner and the
 * session know, not the plan: pln_stmt_of_plan checks that before a decoded
 * plan runs in a session, and the session's session_rows refuses a name or
 * width it does not have. Workers never read one.
 */
static bool session_read(plan__rd_t *r, plan_rel_t *rel)
{
    rel->relname = plan__rd_str(r, "relation name");
    rel->session = plan__rd_str(r, "session relation");
    if (r->failed)
        return false;
    if (!rel->session || !rel->relname)
        return plan__rd_fail(r, "unknown session relation");
    return true;
}

/* Reads kind-specific fields; rel's kind, columns and types are read. */
static bool rel_body_read(plan__rd_t *r, plan_rel_t *rel)
{
    plan__row_ctx_t saved;
    switch (rel->kind) {
    case PLAN_REL_VALUES:
        return values_read(r, rel);
    case PLAN_REL_PRODUCT:
    case PLAN_REL_JOIN:
        if (!(rel->input = rel_read(r)) || !(rel->right = rel_read(r)))
            return false;
        if (rel->input->ncols + rel->right->ncols != rel->ncols)
            return plan__rd_fail(r, "a join of %d columns over inputs of %d and %d", rel->ncols, rel->input->ncols,
                                 rel->right->ncols);
        if (!check_width(r, rel, rel->input, 0) || !check_width(r, rel, rel->right, rel->input->ncols))
            return false;
        if (rel->kind == PLAN_REL_PRODUCT)
            return true;
        rel->join = (plan_join_t)plan__rd_u8(r);
        if (!r->failed && rel->join > PLAN_JOIN_CROSS)
            return plan__rd_fail(r, "join kind %d", (int)rel->join);
        saved = plan__row_set(r, rel->types, rel->ncols);
        rel->pred = plan__rd_expr(r, true);
        plan__row_restore(r, saved);
        return !r->failed && (!rel->pred || plan__rd_check_shape(r, rel->pred->type, TY_BOOL, "a join condition"));
    case PLAN_REL_FILTER:
        if (!same_columns(r, rel, rel->input = rel_read(r)))
            return false;
        saved = plan__row_set(r, rel->input->types, rel->input->ncols);
        rel->pred = plan__rd_expr(r, false);
        plan__row_restore(r, saved);
        return !r->failed && plan__rd_check_shape(r, rel->pred->type, TY_BOOL, "a condition");
    case PLAN_REL_PROJECT:
        if (!(rel->input = rel_read(r)))
            return false;
        saved = plan__row_set(r, rel->input->types, rel->input->ncols);
        rel->exprs = plan__rd_exprs(r, rel->ncols);
        plan__row_restore(r, saved);
        for (int i = 0; i < rel->ncols && !r->failed; i++)
            plan__rd_check_shape(r, rel->exprs[i]->type, rel->types[i], "a projected value");
        return !r->failed;
    case PLAN_REL_REDUCE:
        return (rel->input = rel_read(r)) && reduce_read(r, rel);
    case PLAN_REL_SORT:
    case PLAN_REL_DISTINCT:
        if (!same_columns(r, rel, rel->input = rel_read(r)))
            return false;
        rel->nsort = plan__rd_count(r, "sort keys", r->lim.nodes_max, 10);
        rel->sort = plan__rd_keys(r, rel->nsort, rel->types, rel->ncols);
        return !r->failed;
    case PLAN_REL_LIMIT:
        if (!same_columns(r, rel, rel->input = rel_read(r)))
            return false;
        saved = plan__row_set(r, NULL, 0);
        rel->limit = plan__rd_expr(r, true);
        rel->offset = plan__rd_expr(r, true);
        plan__row_restore(r, saved);
        if (rel->limit)
            plan__rd_check_shape(r, rel->limit->type, TY_INT8, "LIMIT");
        if (rel->offset)
            plan__rd_check_shape(r, rel->offset->type, TY_INT8, "OFFSET");
        return !r->failed;
    case PLAN_REL_SETOP:
        if (!same_columns(r, rel, rel->input = rel_read(r)) || !same_columns(r, rel, rel->right = rel_read(r)))
            return false;
        rel->setop = (plan_setop_t)plan__rd_u8(r);
        rel->all = plan__rd_bool(r);
        if (!r->failed && (rel->setop < PLAN_SETOP_UNION || rel->setop > PLAN_SETOP_EXCEPT))
            return plan__rd_fail(r, "set operation %d", (int)rel->setop);
        return !r->failed;
    case PLAN_REL_SESSION:
        return session_read(r, rel);
    case PLAN_REL_GET:
        return get_read(r, rel);
    case PLAN_REL_WINDOW:
        return (rel->input = rel_read(r)) && plan__rd_window(r, rel);
    case PLAN_REL_LET:
        return plan__rd_let(r, rel);
    case PLAN_REL_CTE:
        return plan__rd_cteref(r, rel);
    case PLAN_REL_FLATMAP:
        return plan__rd_flatmap(r, rel);
    default:
        break;
    }
    return plan__rd_fail(r, "unknown plan operator kind %d", (int)rel->kind);
}

static plan_rel_t *rel_read(plan__rd_t *r)
{
    if (!plan__rd_enter(r))
        return NULL;
    plan_rel_t *rel = cm_arena_zalloc(r->arena, sizeof(*rel));
    rel->kind = (plan_rel_kind_t)plan__rd_u8(r);
    rel->ncols = plan__rd_count(r, "columns", r->lim.nodes_max, 4);
    if (r->failed)
        return NULL;
    rel->types = cm_arena_zalloc(r->arena, sizeof(ty_oid_t) * (size_t)(rel->ncols ? rel->ncols : 1));
    for (int i = 0; i < rel->ncols && !r->failed; i++)
        rel->types[i] = plan__rd_type(r, false);
    if (r->failed || !rel_body_read(r, rel))
        return NULL;
    plan__rd_leave(r);
    return rel;
}

static bool error_read(plan__rd_t *r, plan_t *q)
{
    if (!plan__rd_bool(r))
        return !r->failed;
    const char *state = plan__rd_str(r, "SQLSTATE");
    const char *message = plan__rd_str(r, "error message");
    const char *detail = plan__rd_str(r, "error detail");
    const char *hint = plan__rd_str(r, "error hint");
    int32_t position = plan__rd_i32(r);
    if (r->failed)
        return false;
    bool ok = state && message && strlen(state) == 5 && position >= 0;
    for (int i = 0; ok && i < 5; i++)
        ok = (state[i] >= '0' && state[i] <= '9') || (state[i] >= 'A' && state[i] <= 'Z');
    if (!ok)
        return plan__rd_fail(r, "a planning error without a proper SQLSTATE, message or position");
    cm_err_t e = {0};
    cm_err_set(&e, state, "%s", message);
    if (detail)
        cm_err_set_detail(&e, "%s", detail);
    if (hint)
        cm_err_set_hint(&e, "%s", hint);
    e.position = position;
    q->error = plan_error_keep(r->arena, &e);
    return true;
}

static bool has_blocking(const ty_expr_t *e)
{
    return ty_expr_has_flag(e, TY_FN_BLOCKING);
}

static bool sublinks_read(plan__rd_t *r, plan_t *q)
{
    q->nsublinks = plan__rd_count(r, "subqueries", r->lim.nodes_max, 13 + REL_MIN);
    if (r->failed)
        return false;
    plan_sublink_t *subs = cm_arena_zalloc(r->arena, sizeof(plan_sublink_t) * (size_t)(q->nsublinks ? q->nsublinks : 1));
    q->sublinks = subs;
    r->subs = subs;
    for (int k = 0; k < q->nsublinks; k++) {
        plan_sublink_t *s = &subs[k];
        uint8_t kind = plan__rd_u8(r);
        s->kind = (plan_sublink_kind_t)(kind & 0x7f);
        s->joined = (kind & 0x80) != 0;   /* its plan is part of the query's: an empty stand-in */
        s->location = plan__rd_i32(r);
        s->type = plan__rd_type(r, false);
        s->typmod = plan__rd_i32(r);
        if (r->failed)
            return false;
        bool known = s->kind == PLAN_SUBLINK_EXPR || s->kind == PLAN_SUBLINK_EXISTS || s->kind == PLAN_SUBLINK_IN ||
                     s->kind == PLAN_SUBLINK_ANY || s->kind == PLAN_SUBLINK_ALL || s->kind == PLAN_SUBLINK_ARRAY;
        if (!known)
            return plan__rd_fail(r, "subquery kind %d", (int)s->kind);
        r->sublinks = k;   /* a subquery may use only the subqueries before it */
        if (!(s->rel = rel_read(r)))
            return false;
        if (s->kind != PLAN_SUBLINK_EXISTS && s->rel->ncols < 1)
            return plan__rd_fail(r, "a subquery without columns");
        if (s->kind == PLAN_SUBLINK_EXPR && !plan__rd_check_shape(r, s->rel->types[0], s->type, "a subquery's value"))
            return false;
        /* ARRAY: an array of the column's type, or of the same type when the values are arrays (they stack). */
        if (s->kind == PLAN_SUBLINK_ARRAY && s->type != s->rel->types[0] &&
            ty_array_elem_type(s->type) != s->rel->types[0])
            return plan__rd_fail(r, "ARRAY of %u values as type %u", s->rel->types[0], s->type);
        if (s->kind == PLAN_SUBLINK_ARRAY && ty_array_elem_type(s->type) == TY_INVALID)
            return plan__rd_fail(r, "ARRAY subquery of type %u, not an array", s->type);
    }
    r->sublinks = q->nsublinks;
    return true;
}

static bool stmt_read(plan__rd_t *r, plan_t *q)
{
    int ncols = plan__rd_count(r, "result columns", r->lim.nodes_max, 12);
    if (r->failed)
        return false;
    q->cols = cm_arena_zalloc(r->arena, sizeof(plan_column_t) * (size_t)(ncols ? ncols : 1));
    for (int i = 0; i < ncols && !r->failed; i++) {
        q->cols[i].name = plan__rd_str(r, "column name");
        q->cols[i].type = plan__rd_type(r, false);
        q->cols[i].typmod = plan__rd_i32(r);
        if (!r->failed && !q->cols[i].name)
            plan__rd_fail(r, "result column %d without a name", i);
    }
    q->nparams = plan__rd_count(r, "parameters", PLAN_PARAMS_MAX, 4);
    if (r->failed)
        return false;
    ty_oid_t *params = cm_arena_zalloc(r->arena, sizeof(ty_oid_t) * (size_t)(q->nparams ? q->nparams : 1));
    for (int i = 0; i < q->nparams && !r->failed; i++)
        params[i] = plan__rd_type(r, true);
    q->param_types = params;
    r->nparams = q->nparams;
    r->param_types = params;
    q->catalog_index = plan__rd_u64(r);
    if (r->failed || !error_read(r, q))
        return false;
    if (!sublinks_read(r, q) || !(q->root = rel_read(r)) || !plan__rd_ctes_resolve(r))
        return false;
    q->ncols = (int)plan__rd_u32(r);
    if (!r->failed && (q->ncols != q->root->ncols || q->ncols != ncols))
        return plan__rd_fail(r, "a query of %d columns over a plan of %d with %d result columns", q->ncols,
                             q->root->ncols, ncols);
    for (int i = 0; i < ncols && !r->failed; i++)
        plan__rd_check_shape(r, q->root->types[i], q->cols[i].type, "a result column");
    /* Literal conversions are evaluated as they are: no row, no subquery. */
    r->sublinks = 0;
    q->nlits = plan__rd_count(r, "literals", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (!r->failed)
        q->lits = plan__rd_exprs(r, q->nlits);
    if (r->failed)
        return false;
    if (r->pos != r->n)
        return plan__rd_fail(r, "%zu bytes after the plan", r->n - r->pos);
    q->blocking = plan_rel_any(q->root, has_blocking);
    for (int i = 0; i < q->nsublinks; i++)
        q->blocking |= plan_rel_any(q->sublinks[i].rel, has_blocking);
    q->reads = plan_reads_relations(q);
    return true;
}

bool plan_decode(cm_arena_t *arena, const uint8_t *p, size_t n, const plan_limits_t *limits, plan_t **out,
                 cm_err_t *err)
{
    *out = NULL;
    plan__rd_t r = {.p = p, .n = n, .arena = arena, .err = err};
    limits_of(limits, &r.lim);
    ty_settings_default(&r.settings);
    r.ctx.arena = arena;
    r.ctx.settings = &r.settings;
    const uint8_t *magic = plan__rd_bytes(&r, 4, "header");
    if (magic && memcmp(magic, PLAN_CODEC_MAGIC, 4) != 0)
        return plan__rd_fail(&r, "not a query plan (no EDPL header)");
    uint32_t version = plan__rd_u32(&r);
    if (!r.failed && version != PLAN_CODEC_VERSION)
        return plan__rd_fail(&r, "plan format version %u; this eddy reads version %d", version, PLAN_CODEC_VERSION);
    plan_t *q = cm_arena_zalloc(arena, sizeof(*q));
    if (r.failed || !stmt_read(&r, q))
        return false;
    *out = q;
    return true;
}

plan_rel_t *plan__rd_rel(plan__rd_t *r)
{
    return rel_read(r);
}

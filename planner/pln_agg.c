/*
 * pln_agg.c: aggregate functions at bind time: the aggregates eddy knows
 * with PostgreSQL's signatures and result types (sum(int4) is bigint,
 * sum(int8) and avg(integer) are numeric, avg(float4) is double precision,
 * ...), resolved by the same candidate rules as functions; where they may
 * appear (not in WHERE, GROUP BY, VALUES, LIMIT, JOIN conditions, nor
 * nested); and the rewrite of the targets, HAVING and ORDER BY of a grouped
 * query into expressions over the REDUCE's output, with PostgreSQL's
 * "must appear in the GROUP BY clause" error.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__is_aggregate(const char *name)
{
    for (size_t i = 0; i < plan_aggdef_count(); i++)
        if (plan_aggdef_at(i)->op != PLAN_AGG_SINGLE && strcmp(plan_aggdef_at(i)->sig.name, name) == 0)
            return true;
    return false;
}

plan_agg_t *pln__agg_internal(pln_binder_t *b, plan_aggop_t op, ty_expr_t *arg, ty_oid_t type)
{
    plan_agg_t *a = cm_arena_zalloc(b->arena, sizeof(*a));
    a->fn = plan_aggdef_of_op(op);
    CM_ASSERT(a->fn >= 0);
    a->op = op;
    a->state = plan_aggdef_at((size_t)a->fn)->state;
    a->nargs = 1;
    a->args[0] = arg;
    a->type = type;
    return a;
}

/* The table's operator with exactly these argument types. */
static const ty_func_t *exact_op(const char *name, ty_oid_t l, ty_oid_t r)
{
    const ty_func_t *c[64];
    size_t n = ty_func_candidates(name, true, c, CM_ARRAY_LEN(c));
    for (size_t i = 0; i < n; i++)
        if (c[i]->nargs == 2 && c[i]->args[0] == l && c[i]->args[1] == r)
            return c[i];
    return NULL;
}

static bool note_agg(pln_binder_t *b, plan_agg_t *a, int *index)
{
    pln_aggctx_t *ctx = b->aggs;
    if (ctx->naggs == ctx->cap) {
        int cap = ctx->cap ? ctx->cap * 2 : 4;
        plan_agg_t **n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (ctx->naggs)
            memcpy(n, ctx->aggs, sizeof(*n) * (size_t)ctx->naggs);
        ctx->aggs = n;
        ctx->cap = cap;
    }
    ctx->aggs[ctx->naggs] = a;
    *index = ctx->naggs++;
    return true;
}

/* FILTER (WHERE ...) and ORDER BY inside the call: over the input rows, without aggregates. */
static bool bind_filter_order(pln_binder_t *b, const sql_expr_t *e, plan_agg_t *a)
{
    if (e->agg_filter) {
        /* Neither this level's aggregates nor any window function may appear there (42803, 42P20). */
        pln_aggctx_t *saved = b->aggs;
        pln_winctx_t *saved_wins = b->wins;
        const char *saved_forbidden = b->agg_forbidden, *saved_win_forbidden = b->win_forbidden;
        b->aggs = NULL;
        b->wins = NULL;
        b->agg_forbidden = b->win_forbidden = "FILTER";
        ty_expr_t *f = pln__bind_expr(b, e->agg_filter);
        b->aggs = saved;
        b->wins = saved_wins;
        b->agg_forbidden = saved_forbidden;
        b->win_forbidden = saved_win_forbidden;
        if (!f || !(a->filter = pln__coerce_bool(b, f, "FILTER")))
            return false;
    }
    a->norder = sql_list_len(e->agg_order);
    if (a->norder == 0)
        return true;
    a->order = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)a->norder);
    a->keys = cm_arena_zalloc(b->arena, sizeof(plan_sortkey_t) * (size_t)a->norder);
    for (int i = 0; i < a->norder; i++) {
        const sql_sort_t *o = e->agg_order->items[i];
        ty_expr_t *x = pln__bind_expr(b, o->expr);
        if (!x || !(x = pln__resolve_unknown(b, x)))
            return false;
        if (a->distinct) {
            /* DISTINCT removes duplicate arguments, so the order may only use them. */
            bool found = false;
            for (int k = 0; k < a->nargs && !found; k++)
                found = pln__expr_equal(x, a->args[k]);
            if (!found)
                return pln__error(b, o->expr->pos, "42P10",
                                  "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list");
        }
        a->order[i] = x;
        plan_sortkey_t *k = &a->keys[i];
        k->col = a->nargs + i;
        k->type = x->type;
        k->desc = o->dir == SQL_SORT_DESC;
        k->nulls_first = o->nulls == SQL_NULLS_DEFAULT ? k->desc : o->nulls == SQL_NULLS_FIRST;
    }
    return true;
}

/*
 * The one enclosing level all of the aggregate's columns belong to: 0 if none is read, -1 if a
 * local one is, -2 if columns of several enclosing levels are (and no local one).
 */
static int owner_of(const pln_binder_t *b, const ty_expr_t *e, int owner)
{
    if (!e || owner == -1)
        return owner;
    if (e->kind == TY_EXPR_COLUMN) {
        if (e->index < PLN_OUTER_BASE)
            return -1;
        int o = b->orefs[e->index - PLN_OUTER_BASE].owner;
        return owner == 0 || owner == o ? o : -2;
    }
    for (int i = 0; i < e->nargs; i++)
        owner = owner_of(b, e->args[i], owner);
    return owner;
}

/* owner_of over the whole call (its arguments, FILTER and ORDER BY). */
static int call_owner(const pln_binder_t *b, const plan_agg_t *a)
{
    int owner = 0;
    for (int i = 0; i < a->nargs; i++)
        owner = owner_of(b, a->args[i], owner);
    owner = owner_of(b, a->filter, owner);
    for (int i = 0; i < a->norder; i++)
        owner = owner_of(b, a->order[i], owner);
    return owner;
}

static pln_scope_t *outer_owner(const pln_binder_t *b, const plan_agg_t *a)
{
    int owner = call_owner(b, a);
    if (owner <= 0)
        return NULL;
    for (pln_scope_t *s = b->scope ? b->scope->outer : NULL; s; s = s->outer)
        if (s->id == owner)
            return s;
    return NULL;
}

/*
 * The outer references of e to the owner level as its expressions (over its FROM row). References
 * to levels further out stay what they are: outer references of the owner level too.
 */
static ty_expr_t *to_owner(pln_binder_t *b, ty_expr_t *e, int owner)
{
    if (!e)
        return NULL;
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_OUTER_BASE) {
        pln_oref_t *o = &b->orefs[e->index - PLN_OUTER_BASE];
        if (o->owner != owner)
            return e;
        o->owner = o->sublink = -1;   /* no longer read inside the subquery */
        return o->expr;
    }
    if (e->nargs == 0)
        return e;
    ty_expr_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *e;
    c->args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
        c->args[i] = to_owner(b, e->args[i], owner);
    return c;
}

static bool reads_level(const pln_binder_t *b, const ty_expr_t *e, int id)
{
    if (!e)
        return false;
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_OUTER_BASE)
        return b->orefs[e->index - PLN_OUTER_BASE].owner == id;
    for (int i = 0; i < e->nargs; i++)
        if (reads_level(b, e->args[i], id))
            return true;
    return false;
}

/* Of the enclosing levels whose columns the call reads, the closest: PostgreSQL computes it there. */
static pln_scope_t *closest_owner(const pln_binder_t *b, const plan_agg_t *a)
{
    for (pln_scope_t *s = b->scope ? b->scope->outer : NULL; s; s = s->outer) {
        bool reads = reads_level(b, a->filter, s->id);
        for (int i = 0; i < a->nargs && !reads; i++)
            reads = reads_level(b, a->args[i], s->id);
        for (int i = 0; i < a->norder && !reads; i++)
            reads = reads_level(b, a->order[i], s->id);
        if (reads)
            return s;
    }
    return NULL;
}

/*
 * The first of the owner level's aggregates that e reads, or NULL. An
 * aggregate bound inside another's FILTER or ORDER BY before the outer one
 * was known to belong to that level too would be nested there.
 */
static const ty_expr_t *owner_agg_ref(const ty_expr_t *e)
{
    if (!e)
        return NULL;
    if (e->kind == TY_EXPR_COLUMN && e->index >= PLN_AGG_BASE && e->index < PLN_WIN_BASE)
        return e;
    for (int i = 0; i < e->nargs; i++) {
        const ty_expr_t *r = owner_agg_ref(e->args[i]);
        if (r)
            return r;
    }
    return NULL;
}

/* An aggregate of an enclosing level's columns: computed by that level, read here as its outer reference. */
static ty_expr_t *outer_agg(pln_binder_t *b, plan_agg_t *a, pln_scope_t *owner, int pos)
{
    if (!owner->sub_aggs) {
        pln__error(b, pos, CM_ERRCODE_GROUPING_ERROR, "aggregate functions are not allowed in %s",
                   owner->sub_agg_forbidden ? owner->sub_agg_forbidden : "this context");
        return NULL;
    }
    if (owner->sub_aggs->inside) {
        pln__error(b, pos, CM_ERRCODE_GROUPING_ERROR, "aggregate function calls cannot be nested");
        return NULL;
    }
    for (int i = 0; i < a->nargs; i++)
        a->args[i] = to_owner(b, a->args[i], owner->id);
    a->filter = to_owner(b, a->filter, owner->id);
    for (int i = 0; i < a->norder; i++)
        a->order[i] = to_owner(b, a->order[i], owner->id);
    const ty_expr_t *nested = owner_agg_ref(a->filter);
    for (int i = 0; i < a->nargs && !nested; i++)
        nested = owner_agg_ref(a->args[i]);
    for (int i = 0; i < a->norder && !nested; i++)
        nested = owner_agg_ref(a->order[i]);
    if (nested) {
        pln__error(b, nested->location, CM_ERRCODE_GROUPING_ERROR, "aggregate function calls cannot be nested");
        return NULL;
    }
    pln_aggctx_t *saved = b->aggs;
    b->aggs = owner->sub_aggs;
    int index;
    note_agg(b, a, &index);
    b->aggs = saved;
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, a->type, 0);
    c->index = PLN_AGG_BASE + index;
    c->location = pos;
    return pln__outer_ref(b, owner, c, "?column?");
}

/* Binds the call; over: used OVER a window, so its arguments belong to the current level (sum(count(*)) OVER ()). */
static plan_agg_t *bind_call(pln_binder_t *b, const sql_expr_t *e, bool over)
{
    const char *name = e->names->items[e->names->count - 1];
    int n = sql_list_len(e->args);
    if (n > 2) {
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s with %d arguments does not exist", name, n);
        return NULL;
    }
    plan_agg_t *a = cm_arena_zalloc(b->arena, sizeof(*a));
    if (!over)
        b->aggs->inside = true;
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = (a->args[i] = pln__bind_expr(b, e->args->items[i])) != NULL;
    a->nargs = n;
    a->distinct = e->distinct;
    ok = ok && bind_filter_order(b, e, a);
    if (!over)
        b->aggs->inside = false;
    if (!ok)
        return NULL;
    const ty_func_t *cands[64];
    int idx[64];
    int nc = 0;
    CM_ASSERT(plan_aggdef_count() <= CM_ARRAY_LEN(cands));
    for (size_t i = 0; i < plan_aggdef_count(); i++) {
        const plan_aggdef_t *d = plan_aggdef_at(i);
        if (strcmp(d->sig.name, name) == 0 && (e->star ? d->op == PLAN_AGG_COUNT_STAR : d->op != PLAN_AGG_COUNT_STAR)) {
            idx[nc] = (int)i;
            cands[nc++] = &d->sig;
        }
    }
    if (e->star && nc == 0) {
        /* agg(*) looks up agg() with no arguments; only count has one, so like PostgreSQL's
         * ParseFuncOrColumn this is an undefined function, not a misused one. */
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s() does not exist", name);
        return NULL;
    }
    const ty_func_t *f = e->star ? cands[0] : pln__resolve_in(b, name, false, cands, nc, a->args, n, e->pos, true);
    if (!f)
        return NULL;
    for (int i = 0; i < nc; i++)
        if (cands[i] == f)
            a->fn = idx[i];
    const plan_aggdef_t *def = plan_aggdef_at((size_t)a->fn);
    a->op = def->op;
    a->state = def->state;
    a->type = f->ret;
    if (a->op == PLAN_AGG_ARRAY_AGG) {
        /* array_agg(anynonarray) is anyarray; array_agg(anyarray) stacks the arrays into one more dimension. */
        ty_oid_t t = a->args[0]->type;
        const sql_expr_t *arg = e->args->items[0];
        if (arg->kind == SQL_EXPR_CONST && (arg->const_kind == SQL_CONST_STRING || arg->const_kind == SQL_CONST_NULL)) {
            /* Both polymorphic forms accept an untyped literal, so PostgreSQL cannot choose. */
            pln__error(b, e->pos, CM_ERRCODE_AMBIGUOUS_FUNCTION, "function array_agg(unknown) is not unique");
            cm_err_set_hint(b->err, "Could not choose a best candidate function. You might need to add explicit type casts.");
            return NULL;
        }
        a->type = ty_array_elem_type(t) != TY_INVALID ? t : ty_array_type_of(t);
        if (a->type == TY_INVALID) {
            pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_OBJECT, "could not find array type for data type %s",
                       pln__type_name(b, t));
            return NULL;
        }
    }
    if (def->op == PLAN_AGG_SUM || def->op == PLAN_AGG_AVG) {
        a->add = exact_op("+", def->state, def->state);
        if (def->op == PLAN_AGG_AVG)
            a->div = exact_op("/", def->state, def->state == TY_INTERVAL ? TY_FLOAT8 : def->state);
        if (!a->add || (def->op == PLAN_AGG_AVG && !a->div)) {
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s(%s) is not supported yet", name,
                       pln__type_name(b, f->args[0]));
            return NULL;
        }
    }
    return a;
}

plan_agg_t *pln__bind_agg_over(pln_binder_t *b, const sql_expr_t *e)
{
    return bind_call(b, e, true);
}

/*
 * The enclosing level that computes aggregate a, or NULL for this level: as PostgreSQL, the
 * closest level any of its columns belongs to, those read by subqueries in its arguments
 * included (the outer references made while binding it, from refs_before on). False: an error.
 */
static bool agg_level(pln_binder_t *b, const plan_agg_t *a, int refs_before, int pos, pln_scope_t **owner)
{
    bool local_in_sublink = false, outer_ref = false;
    for (int i = refs_before; i < b->norefs; i++) {
        if (b->orefs[i].owner == b->scope->id)
            local_in_sublink = true;
        else if (b->orefs[i].owner > 0)
            outer_ref = true;
    }
    int level = call_owner(b, a);
    *owner = NULL;
    if (local_in_sublink || level == -1)
        return true;
    if (level == -2) {
        *owner = closest_owner(b, a);
        return true;
    }
    if (level == 0 && outer_ref)
        return pln__error(b, pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "an aggregate whose arguments read only an enclosing query's columns through a "
                          "subquery is not supported yet");
    *owner = outer_owner(b, a);
    return true;
}

ty_expr_t *pln__bind_agg(pln_binder_t *b, const sql_expr_t *e)
{
    int refs_before = b->norefs;
    pln_scope_t *owner;
    if (!b->aggs) {
        /* Not here, unless it is an enclosing level's aggregate. */
        pln_aggctx_t scratch = {0};
        b->aggs = &scratch;
        plan_agg_t *a = bind_call(b, e, false);
        b->aggs = NULL;
        if (!a || !agg_level(b, a, refs_before, e->pos, &owner))
            return NULL;
        if (owner)
            return outer_agg(b, a, owner, e->pos);
        pln__error(b, e->pos, CM_ERRCODE_GROUPING_ERROR, "aggregate functions are not allowed in %s",
                   b->agg_forbidden ? b->agg_forbidden : "this context");
        return NULL;
    }
    if (b->aggs->inside) {
        pln__error(b, e->pos, CM_ERRCODE_GROUPING_ERROR, "aggregate function calls cannot be nested");
        return NULL;
    }
    plan_agg_t *a = bind_call(b, e, false);
    if (!a || !agg_level(b, a, refs_before, e->pos, &owner))
        return NULL;
    if (owner)
        return outer_agg(b, a, owner, e->pos);
    int index;
    note_agg(b, a, &index);
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, a->type, 0);
    c->index = PLN_AGG_BASE + index;
    c->location = e->pos;
    return c;
}

/* ================================================== grouped expressions */

bool pln__expr_equal(const ty_expr_t *a, const ty_expr_t *b)
{
    if (a == b)
        return true;
    if (a->kind != b->kind || a->type != b->type || a->typmod != b->typmod || a->nargs != b->nargs ||
        a->func != b->func || a->negated != b->negated || a->bool_test != b->bool_test)
        return false;
    switch (a->kind) {
    case TY_EXPR_CONST:
        if (a->value.isnull || b->value.isnull)
            return a->value.isnull == b->value.isnull;
        return a->type != TY_UNKNOWN ? ty_datum_compare(a->type, &a->value, &b->value) == 0
                                     : a->value.v.s.len == b->value.v.s.len &&
                                           memcmp(a->value.v.s.p, b->value.v.s.p, a->value.v.s.len) == 0;
    case TY_EXPR_PARAM:
    case TY_EXPR_COLUMN:
        return a->index == b->index;
    case TY_EXPR_ROW_COMPARE:   /* index is the operator; the pairs are compared below */
    case TY_EXPR_FIELD:         /* index is the field */
        if (a->index != b->index)
            return false;
        break;
    default:
        break;
    }
    for (int i = 0; i < a->nargs; i++)
        if (!pln__expr_equal(a->args[i], b->args[i]))
            return false;
    return true;
}

ty_expr_t *pln__regroup(pln_binder_t *b, ty_expr_t *e, ty_expr_t **keys, int nkeys)
{
    for (int k = 0; k < nkeys; k++)
        if (pln__expr_equal(e, keys[k])) {
            ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, e->type, 0);
            c->typmod = e->typmod;
            c->index = k;
            c->location = e->location;
            return c;
        }
    if (e->kind == TY_EXPR_COLUMN) {
        if (e->index >= PLN_WIN_BASE)
            return e;   /* a window function's result: the WINDOW above the REDUCE computes it */
        if (e->index >= PLN_AGG_BASE) {
            ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_COLUMN, e->type, 0);
            *c = *e;
            c->index = nkeys + (e->index - PLN_AGG_BASE);
            return c;
        }
        pln__error(b, e->location, CM_ERRCODE_GROUPING_ERROR,
                   "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function",
                   pln__column_name(b->scope, e->index, true, b->arena));
        return NULL;
    }
    if (e->kind == TY_EXPR_PARAM && e->index < 0)
        return pln__sublink_regroup(b, e, keys, nkeys) ? e : NULL;   /* its outer references */
    if (e->nargs == 0)
        return e;
    ty_expr_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *e;
    c->args = cm_arena_alloc(b->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
        if (!(c->args[i] = pln__regroup(b, e->args[i], keys, nkeys)))
            return NULL;
    return c;
}

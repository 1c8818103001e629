/*
 * ex_sublink.c: uncorrelated subqueries at run time, as PostgreSQL's
 * initplans: each is run once per execution, when an expression first
 * needs it, and its placeholders are replaced by its value (EXPR, EXISTS,
 * ARRAY) or expanded over its rows (IN, ANY, ALL).
 */
#include "exec/ex_int.h"

#include <string.h>

static bool ex__is_sublink(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_PARAM && e->index < 0;
}

/* x IN / op ANY / op ALL (SELECT ...), not op ANY over an array a scalar or ARRAY subquery gives. */
static bool ex__quantified(const ex_exec_t *x, const ty_expr_t *placeholder)
{
    plan_sublink_kind_t k = x->q->sublinks[PLAN_SUBLINK_OF(placeholder->index)].kind;
    return k == PLAN_SUBLINK_IN || k == PLAN_SUBLINK_ANY || k == PLAN_SUBLINK_ALL;
}

static bool ex__has_sublink(const ty_expr_t *e)
{
    if (ex__is_sublink(e))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (ex__has_sublink(e->args[i]))
            return true;
    return false;
}

/* Runs sublink k once: keeps at most two rows for a scalar, one for EXISTS, all for ARRAY and IN. */
static bool ex__compute(ex_exec_t *x, int k)
{
    if (x->sub_done[k])
        return true;
    const plan_sublink_t *s = &x->q->sublinks[k];
    ty_datum_t **rows;
    int n;
    int max = s->kind == PLAN_SUBLINK_EXPR ? 2 : s->kind == PLAN_SUBLINK_EXISTS ? 1 : -1;
    if (!ex__collect(x, s->rel, max, &rows, &n))
        return false;
    ty_datum_t v = {.isnull = true};
    if (s->kind == PLAN_SUBLINK_EXPR) {
        if (n > 1)
            return cm_err_set(x->ctx->err, CM_ERRCODE_CARDINALITY_VIOLATION,
                              "more than one row returned by a subquery used as an expression");
        if (n == 1)
            v = rows[0][0];
        x->sub_value[k] = ty_expr_const(x->ctx->arena, s->type, s->typmod, v);
    } else if (s->kind == PLAN_SUBLINK_ARRAY) {
        ty_datum_t *items = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            items[i] = rows[i][0];
        if (!plan_array_of(x->ctx, s->rel->types[0], s->type, items, n, &v))
            return false;
        x->sub_value[k] = ty_expr_const(x->ctx->arena, s->type, s->typmod, v);
    } else if (s->kind == PLAN_SUBLINK_EXISTS) {
        v.isnull = false;
        v.v.b = n > 0;
        x->sub_value[k] = ty_expr_const(x->ctx->arena, TY_BOOL, -1, v);
    } else {
        x->sub_rows[k] = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
        for (int i = 0; i < n; i++)
            x->sub_rows[k][i] = rows[i][0];
        x->sub_nrows[k] = n;
    }
    x->sub_done[k] = true;
    return true;
}

/* x IN (values): the values cast to the operator's right type, or false for no values. */
static ty_expr_t *ex__expand_in(ex_exec_t *x, const ty_expr_t *e, int k, ty_expr_t *lhs)
{
    const plan_sublink_t *s = &x->q->sublinks[k];
    ty_oid_t from = e->args[1]->type;
    int n = x->sub_nrows[k];
    if (n == 0) {
        ty_datum_t v = {.v.b = e->negated};
        return ty_expr_const(x->ctx->arena, TY_BOOL, -1, v);
    }
    ty_expr_t *in = ty_expr_new(x->ctx->arena, TY_EXPR_IN_LIST, TY_BOOL, n + 1);
    *in = *e;
    in->nargs = n + 1;
    in->args = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)(n + 1));
    in->args[0] = lhs;
    for (int i = 0; i < n; i++) {
        ty_datum_t v = x->sub_rows[k][i];
        if (!v.isnull && from != s->type && !ty_cast_datum(from, s->type, -1, &x->sub_rows[k][i], x->ctx, &v))
            return NULL;
        in->args[i + 1] = ty_expr_const(x->ctx->arena, s->type, -1, v);
    }
    return in;
}

/* x op ANY/ALL (SELECT ...): the same over an array of the values cast to the operator's right type. */
static ty_expr_t *ex__expand_any(ex_exec_t *x, const ty_expr_t *e, int k, ty_expr_t *lhs)
{
    const plan_sublink_t *s = &x->q->sublinks[k];
    ty_oid_t from = e->args[1]->type;
    int n = x->sub_nrows[k];
    ty_datum_t *items = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        items[i] = x->sub_rows[k][i];
        if (!items[i].isnull && from != s->type && !ty_cast_datum(from, s->type, -1, &x->sub_rows[k][i], x->ctx, &items[i]))
            return NULL;
    }
    ty_expr_t *any = cm_arena_alloc(x->ctx->arena, sizeof(*any));
    *any = *e;
    any->args = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * 2);
    any->args[0] = lhs;
    any->args[1] = ty_expr_const(x->ctx->arena, ty_array_type_of(s->type), -1, ty_array_make(x->ctx->arena, s->type, items, n));
    return any;
}

static ty_expr_t *ex__inst_expr(ex_exec_t *x, ty_expr_t *e)
{
    if (ex__is_sublink(e)) {
        int k = PLAN_SUBLINK_OF(e->index);
        return ex__compute(x, k) ? x->sub_value[k] : NULL;
    }
    if (e->kind == TY_EXPR_IN_LIST && e->nargs == 2 && ex__is_sublink(e->args[1]) && ex__quantified(x, e->args[1])) {
        int k = PLAN_SUBLINK_OF(e->args[1]->index);
        ty_expr_t *lhs = ex__inst_expr(x, e->args[0]);
        if (!lhs || !ex__compute(x, k))
            return NULL;
        return ex__expand_in(x, e, k, lhs);
    }
    if ((e->kind == TY_EXPR_ANY || e->kind == TY_EXPR_ALL) && ex__is_sublink(e->args[1]) && ex__quantified(x, e->args[1])) {
        int k = PLAN_SUBLINK_OF(e->args[1]->index);
        ty_expr_t *lhs = ex__inst_expr(x, e->args[0]);
        if (!lhs || !ex__compute(x, k))
            return NULL;
        return ex__expand_any(x, e, k, lhs);
    }
    if (!ex__has_sublink(e))
        return e;
    ty_expr_t *c = cm_arena_alloc(x->ctx->arena, sizeof(*c));
    *c = *e;
    c->args = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
        if (!(c->args[i] = ex__inst_expr(x, e->args[i])))
            return NULL;
    return c;
}

ty_expr_t *ex__instantiate(ex_exec_t *x, ty_expr_t *e)
{
    if (!e || x->q->nsublinks == 0)
        return e;
    return ex__inst_expr(x, e);
}

/*
 * plan_explain_expr.c: expressions as the plan printer writes them
 * (plan_explain.c prints the operators). Columns are #n by position in the operator's
 * input, $n are parameters, constants are SQL literals (numbers and
 * booleans bare, strings quoted, other types as 'text'::type), operators
 * are infix and parenthesized when nested, so a line reads back without
 * precedence rules, and a subquery is "(subquery k)" after the plan that
 * prints it as "Subquery k:".
 */
#include "plan/plan_explain.h"

#include <string.h>

static bool is_text_type(ty_oid_t t)
{
    return t == TY_TEXT || t == TY_VARCHAR || t == TY_BPCHAR || t == TY_NAME || t == TY_UNKNOWN;
}

static bool is_bare_type(ty_oid_t t)
{
    return t == TY_INT2 || t == TY_INT4 || t == TY_INT8 || t == TY_FLOAT4 || t == TY_FLOAT8 || t == TY_NUMERIC ||
           t == TY_BOOL || t == TY_OID;
}

static void quoted(cm_buf_t *o, const uint8_t *p, size_t n)
{
    cm_buf_put_u8(o, '\'');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\'')
            cm_buf_put_u8(o, '\'');
        cm_buf_put_u8(o, p[i]);
    }
    cm_buf_put_u8(o, '\'');
}

/*
 * A constant as an SQL literal, so that each reads back unambiguously:
 * numbers and booleans bare, strings quoted, other types as 'text'::type.
 */
static void const_out(const plan_explainer_t *x, cm_buf_t *o, ty_oid_t type, int32_t typmod, const ty_datum_t *d)
{
    if (d->isnull) {
        cm_buf_put_str(o, "null");
        return;
    }
    cm_buf_t t;
    cm_buf_init(&t, 0);
    /* A value that does not print (a catalog lookup that fails) is "?": the rest of the plan still shows. */
    cm_err_t err = {0};
    ty_ctx_t ctx = x->ctx;
    ctx.err = &err;
    bool ok = ty_datum_to_text(type, d, &ctx, &t);
    cm_err_clear(&err);
    if (!ok) {
        cm_buf_put_str(o, "?");
    } else if (is_bare_type(type)) {
        bool neg = t.len > 0 && t.data[0] == '-';
        if (neg)
            cm_buf_put_u8(o, '(');
        cm_buf_put(o, t.data, t.len);
        if (neg)
            cm_buf_put_u8(o, ')');
    } else {
        quoted(o, t.data, t.len);
        if (!is_text_type(type)) {
            cm_buf_put_str(o, "::");
            ty_format_type(type, typmod, o);
        }
    }
    cm_buf_free(&t);
}

void plan__explain_list(const plan_explainer_t *x, cm_buf_t *o, ty_expr_t *const *es, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            cm_buf_put_str(o, ", ");
        plan__explain_expr(x, o, es[i], true);
    }
}

static bool is_sublink(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_PARAM && e->index < 0;
}

/* A subquery's value: its plan is printed after the query's as "Subquery k:". */
static void sublink_out(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *e)
{
    int k = PLAN_SUBLINK_OF(e->index);
    plan_sublink_kind_t kind = k < x->nsublinks ? x->sublinks[k].kind : PLAN_SUBLINK_EXPR;
    cm_buf_printf(o, kind == PLAN_SUBLINK_EXISTS  ? "exists(subquery %d)"
                     : kind == PLAN_SUBLINK_ARRAY ? "array(subquery %d)"
                                                 : "(subquery %d)",
                  k + 1);
}

static void open_paren(cm_buf_t *o, bool top)
{
    if (!top)
        cm_buf_put_u8(o, '(');
}

static void close_paren(cm_buf_t *o, bool top)
{
    if (!top)
        cm_buf_put_u8(o, ')');
}

static const char *func_name(const ty_expr_t *e)
{
    return e->func ? e->func->name : "?";
}

static void variadic_out(const plan_explainer_t *x, cm_buf_t *o, const char *name, const ty_expr_t *e)
{
    cm_buf_printf(o, "%s(", name);
    plan__explain_list(x, o, e->args, e->nargs);
    cm_buf_put_u8(o, ')');
}

/*
 * Writes e. Operators are parenthesized unless `top` (the whole of an
 * argument list, a Map entry or a predicate), so nesting always reads
 * unambiguously without precedence rules.
 */
void plan__explain_expr(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *e, bool top)
{
    static const char *const booltests[] = {"TRUE", "FALSE", "UNKNOWN"};
    static const char *const rowcmps[] = {"<", "<=", ">=", ">"};
    switch (e->kind) {
    case TY_EXPR_CONST:
        const_out(x, o, e->type, e->typmod, &e->value);
        return;
    case TY_EXPR_PARAM:
        if (is_sublink(e))
            sublink_out(x, o, e);
        else
            cm_buf_printf(o, "$%d", e->index + 1);
        return;
    case TY_EXPR_COLUMN:
        cm_buf_printf(o, "#%d", e->index);
        return;
    case TY_EXPR_CALL:
        if (e->func && (e->func->flags & TY_FN_OPERATOR) && (e->nargs == 1 || e->nargs == 2)) {
            open_paren(o, top);
            if (e->nargs == 2) {
                plan__explain_expr(x, o, e->args[0], false);
                cm_buf_printf(o, " %s ", e->func->name);
                plan__explain_expr(x, o, e->args[1], false);
            } else {
                cm_buf_put_str(o, e->func->name);
                plan__explain_expr(x, o, e->args[0], false);
            }
            close_paren(o, top);
        } else {
            variadic_out(x, o, func_name(e), e);
        }
        return;
    case TY_EXPR_CAST:
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_put_str(o, "::");
        ty_format_type(e->type, e->typmod, o);
        return;
    case TY_EXPR_AND:
    case TY_EXPR_OR:
        open_paren(o, top);
        for (int i = 0; i < e->nargs; i++) {
            if (i)
                cm_buf_put_str(o, e->kind == TY_EXPR_AND ? " AND " : " OR ");
            plan__explain_expr(x, o, e->args[i], false);
        }
        close_paren(o, top);
        return;
    case TY_EXPR_NOT:
        open_paren(o, top);
        cm_buf_put_str(o, "NOT ");
        plan__explain_expr(x, o, e->args[0], false);
        close_paren(o, top);
        return;
    case TY_EXPR_CASE:
        cm_buf_put_str(o, "CASE");
        for (int i = 0; i + 1 < e->nargs; i += 2) {
            cm_buf_put_str(o, " WHEN ");
            plan__explain_expr(x, o, e->args[i], true);
            cm_buf_put_str(o, " THEN ");
            plan__explain_expr(x, o, e->args[i + 1], true);
        }
        cm_buf_put_str(o, " ELSE ");
        plan__explain_expr(x, o, e->args[e->nargs - 1], true);
        cm_buf_put_str(o, " END");
        return;
    case TY_EXPR_COALESCE:
        variadic_out(x, o, "coalesce", e);
        return;
    case TY_EXPR_GREATEST:
        variadic_out(x, o, "greatest", e);
        return;
    case TY_EXPR_LEAST:
        variadic_out(x, o, "least", e);
        return;
    case TY_EXPR_NULLIF:
        variadic_out(x, o, "nullif", e);
        return;
    case TY_EXPR_IS_NULL:
        open_paren(o, top);
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_put_str(o, e->negated ? " IS NOT NULL" : " IS NULL");
        close_paren(o, top);
        return;
    case TY_EXPR_IS_DISTINCT:
        open_paren(o, top);
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_put_str(o, e->negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ");
        plan__explain_expr(x, o, e->args[1], false);
        close_paren(o, top);
        return;
    case TY_EXPR_IS_BOOL:
        open_paren(o, top);
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_printf(o, " IS %s%s", e->negated ? "NOT " : "", booltests[e->bool_test]);
        close_paren(o, top);
        return;
    case TY_EXPR_IN_LIST:
        open_paren(o, top);
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_put_str(o, e->negated ? " NOT IN " : " IN ");
        if (e->nargs == 2 && is_sublink(e->args[1])) {
            sublink_out(x, o, e->args[1]);
        } else {
            cm_buf_put_u8(o, '(');
            plan__explain_list(x, o, e->args + 1, e->nargs - 1);
            cm_buf_put_u8(o, ')');
        }
        close_paren(o, top);
        return;
    case TY_EXPR_ARRAY:
        cm_buf_put_str(o, "ARRAY[");
        plan__explain_list(x, o, e->args, e->nargs);
        cm_buf_put_u8(o, ']');
        return;
    case TY_EXPR_ANY:
    case TY_EXPR_ALL:
        open_paren(o, top);
        plan__explain_expr(x, o, e->args[0], false);
        cm_buf_printf(o, " %s %s ", func_name(e), e->kind == TY_EXPR_ANY ? "ANY" : "ALL");
        if (is_sublink(e->args[1])) {
            sublink_out(x, o, e->args[1]);
        } else {
            cm_buf_put_u8(o, '(');
            plan__explain_expr(x, o, e->args[1], true);
            cm_buf_put_u8(o, ')');
        }
        close_paren(o, top);
        return;
    case TY_EXPR_ROW:
        variadic_out(x, o, "ROW", e);
        return;
    case TY_EXPR_FIELD:
        cm_buf_put_u8(o, '(');
        plan__explain_expr(x, o, e->args[0], true);
        cm_buf_printf(o, ").%.*s", (int)e->value.v.s.len, e->value.v.s.p);
        return;
    case TY_EXPR_ROW_COMPARE:
        open_paren(o, top);
        cm_buf_put_str(o, "ROW(");
        for (int i = 0; i < e->nargs; i += 2) {
            if (i)
                cm_buf_put_str(o, ", ");
            plan__explain_expr(x, o, e->args[i], true);
        }
        cm_buf_printf(o, ") %s ROW(", e->index >= 0 && e->index < 4 ? rowcmps[e->index] : "?");
        for (int i = 1; i < e->nargs; i += 2) {
            if (i > 1)
                cm_buf_put_str(o, ", ");
            plan__explain_expr(x, o, e->args[i], true);
        }
        cm_buf_put_u8(o, ')');
        close_paren(o, top);
        return;
    }
    cm_buf_put_str(o, "?");
}

static void conjuncts_out(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *p, bool paren)
{
    if (p->kind == TY_EXPR_AND) {
        for (int i = 0; i < p->nargs; i++) {
            if (i)
                cm_buf_put_str(o, " AND ");
            conjuncts_out(x, o, p->args[i], paren);
        }
        return;
    }
    /* Without parentheses around each conjunct, only an OR needs them to read right. */
    bool bare = paren ? p->kind == TY_EXPR_COLUMN || p->kind == TY_EXPR_CONST || p->kind == TY_EXPR_PARAM
                      : p->kind != TY_EXPR_OR;
    plan__explain_expr(x, o, p, bare);
}

/*
 * A predicate as a list of conjuncts: each in parentheses after Filter,
 * as Materialize writes "Filter (#0 > 1) AND (#1 = 'a')", and bare inside
 * the parentheses of on=(...) and filter=(...).
 */
void plan__explain_pred(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *p, bool paren)
{
    if (!paren && p->kind != TY_EXPR_AND) {
        plan__explain_expr(x, o, p, true);
        return;
    }
    conjuncts_out(x, o, p, paren);
}

void plan__explain_keys(cm_buf_t *o, const plan_sortkey_t *k, int n)
{
    for (int i = 0; i < n; i++)
        cm_buf_printf(o, "%s#%d %s %s", i ? ", " : "", k[i].col, k[i].desc ? "desc" : "asc",
                      k[i].nulls_first ? "nulls_first" : "nulls_last");
}

void plan__explain_agg(const plan_explainer_t *x, cm_buf_t *o, const plan_agg_t *a)
{
    static const char *const names[] = {
        [PLAN_AGG_COUNT_STAR] = "count", [PLAN_AGG_COUNT] = "count",         [PLAN_AGG_SUM] = "sum",
        [PLAN_AGG_AVG] = "avg",          [PLAN_AGG_MIN] = "min",             [PLAN_AGG_MAX] = "max",
        [PLAN_AGG_BOOL_AND] = "bool_and", [PLAN_AGG_BOOL_OR] = "bool_or",    [PLAN_AGG_STRING_AGG] = "string_agg",
        [PLAN_AGG_ARRAY_AGG] = "array_agg", [PLAN_AGG_SINGLE] = "single_value",
    };
    cm_buf_printf(o, "%s(%s", names[a->op], a->distinct ? "distinct " : "");
    if (a->op == PLAN_AGG_COUNT_STAR)
        cm_buf_put_u8(o, '*');
    plan__explain_list(x, o, a->args, a->nargs);
    if (a->norder > 0) {
        /* The order values are written in place of their column numbers, which only the aggregate sees. */
        cm_buf_put_str(o, " order_by=[");
        for (int i = 0; i < a->norder; i++) {
            if (i)
                cm_buf_put_str(o, ", ");
            plan__explain_expr(x, o, a->order[i], true);
            cm_buf_printf(o, " %s %s", a->keys[i].desc ? "desc" : "asc",
                          a->keys[i].nulls_first ? "nulls_first" : "nulls_last");
        }
        cm_buf_put_u8(o, ']');
    }
    cm_buf_put_u8(o, ')');
    if (a->filter) {
        cm_buf_put_str(o, " filter=(");
        plan__explain_pred(x, o, a->filter, false);
        cm_buf_put_u8(o, ')');
    }
}

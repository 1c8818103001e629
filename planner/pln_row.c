/*
 * pln_row.c: row constructors and the operators PostgreSQL expands over
 * them. ROW(a, b) and (a, b) are values of type record (TY_EXPR_ROW). When
 * both sides of a comparison are written as rows, PostgreSQL does not
 * compare records but the columns pairwise (make_row_comparison_op): = is
 * the AND of the pairs, <> their OR, and <, <=, >, >= compare them in
 * order until one pair differs (TY_EXPR_ROW_COMPARE). IS [NOT] DISTINCT
 * FROM and IN over rows expand the same way. Every pair is first bound as
 * the scalar operator would be, so that operator errors read as
 * PostgreSQL's.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* PostgreSQL's MaxTupleAttributeNumber: a row type cannot have more columns. */
#define PLN_ROW_COLS_MAX 1664

ty_expr_t *pln__bind_row(pln_binder_t *b, const sql_expr_t *e)
{
    int n = sql_list_len(e->args);
    ty_expr_t *r = ty_expr_new(b->arena, TY_EXPR_ROW, TY_RECORD, n);
    for (int i = 0; i < n; i++)
        if (!(r->args[i] = pln__bind_expr(b, e->args->items[i])))
            return NULL;
    if (n > PLN_ROW_COLS_MAX) {
        pln__error(b, e->pos, "54011", "ROW expressions can have at most %d entries", PLN_ROW_COLS_MAX);
        return NULL;
    }
    r->location = e->pos;
    return r;
}

static ty_expr_t *bool_node(pln_binder_t *b, ty_expr_kind_t kind, ty_expr_t **args, int n, int pos)
{
    ty_expr_t *e = ty_expr_new(b->arena, kind, TY_BOOL, n);
    for (int i = 0; i < n; i++)
        e->args[i] = args[i];
    e->location = pos;
    return e;
}

/* Binds both rows' columns; false (error set) if either fails or their lengths differ. */
static bool bind_pairs(pln_binder_t *b, const sql_expr_t *l, const sql_expr_t *r, int pos, ty_expr_t ***ls,
                       ty_expr_t ***rs, int *n)
{
    int nl = sql_list_len(l->args), nr = sql_list_len(r->args);
    *ls = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nl + 1));
    *rs = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(nr + 1));
    for (int i = 0; i < nl; i++)
        if (!((*ls)[i] = pln__bind_expr(b, l->args->items[i])))
            return false;
    for (int i = 0; i < nr; i++)
        if (!((*rs)[i] = pln__bind_expr(b, r->args->items[i])))
            return false;
    if (nl != nr)
        return pln__error(b, pos, CM_ERRCODE_SYNTAX_ERROR, "unequal number of entries in row expressions");
    *n = nl;
    return true;
}

/* The operators whose row form PostgreSQL can interpret (they belong to btree families). */
static int row_cmp_kind(const char *op)
{
    static const char *const ops[] = {"<", "<=", ">=", ">", "=", "<>"};
    for (int i = 0; i < (int)CM_ARRAY_LEN(ops); i++)
        if (strcmp(op, ops[i]) == 0)
            return i;
    return -1;
}

/* Both sides of an ordering pair in one type, so that the type's order compares them. */
static bool same_type_pair(pln_binder_t *b, ty_expr_t *call, ty_expr_t **l, ty_expr_t **r)
{
    ty_expr_t *p[2] = {call->args[0], call->args[1]};
    if (p[0]->type != p[1]->type) {
        ty_oid_t type;
        int32_t typmod;
        if (!pln__common_type(b, p, 2, NULL, "row comparison", &type, &typmod) ||
            !pln__coerce_all(b, p, 2, type, -1, "row comparison"))
            return false;
    }
    *l = p[0];
    *r = p[1];
    return true;
}

/* (l1, ...) op (r1, ...): PostgreSQL's make_row_comparison_op over bound columns. */
static ty_expr_t *row_compare(pln_binder_t *b, const char *op, ty_expr_t **ls, ty_expr_t **rs, int n, int pos)
{
    if (n == 0) {
        pln__error(b, pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cannot compare rows of zero length");
        return NULL;
    }
    ty_expr_t **ops = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)n);
    for (int i = 0; i < n; i++) {
        if (!(ops[i] = pln__make_op(b, op, ls[i], rs[i], pos)))
            return NULL;
        if (ops[i]->type != TY_BOOL) {
            pln__error(b, pos, CM_ERRCODE_DATATYPE_MISMATCH,
                       "row comparison operator must yield type boolean, not type %s",
                       pln__type_name(b, ops[i]->type));
            return NULL;
        }
    }
    if (n == 1)
        return ops[0];
    int kind = row_cmp_kind(op);
    if (kind < 0 || ops[0]->kind != TY_EXPR_CALL || ops[0]->nargs != 2) {
        pln__error(b, pos, CM_ERRCODE_UNDEFINED_FUNCTION, "could not determine interpretation of row comparison operator %s",
                   op);
        cm_err_set_hint(b->err, "Row comparison operators must be associated with btree operator families.");
        return NULL;
    }
    if (kind == 4)
        return bool_node(b, TY_EXPR_AND, ops, n, pos);
    if (kind == 5)
        return bool_node(b, TY_EXPR_OR, ops, n, pos);
    ty_expr_t *rc = ty_expr_new(b->arena, TY_EXPR_ROW_COMPARE, TY_BOOL, 2 * n);
    for (int i = 0; i < n; i++) {
        if (ops[i]->kind != TY_EXPR_CALL || ops[i]->nargs != 2) {
            pln__error(b, pos, CM_ERRCODE_UNDEFINED_FUNCTION,
                       "could not determine interpretation of row comparison operator %s", op);
            return NULL;
        }
        if (!same_type_pair(b, ops[i], &rc->args[2 * i], &rc->args[2 * i + 1]))
            return NULL;
    }
    rc->index = kind;   /* TY_ROWCMP_LT .. TY_ROWCMP_GT in the order of row_cmp_kind's table */
    rc->location = pos;
    return rc;
}

ty_expr_t *pln__bind_row_op(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t **ls, **rs;
    int n;
    if (!bind_pairs(b, e->left, e->right, e->pos, &ls, &rs, &n))
        return NULL;
    return row_compare(b, e->str, ls, rs, n, e->pos);
}

/* ROW(...) IS [NOT] DISTINCT FROM ROW(...): any pair distinct (PostgreSQL's make_row_distinct_op). */
ty_expr_t *pln__bind_row_distinct(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t **ls, **rs;
    int n;
    if (!bind_pairs(b, e->left, e->right, e->pos, &ls, &rs, &n))
        return NULL;
    ty_expr_t *r;
    if (n == 0) {
        ty_datum_t f = {.v.b = false};
        r = ty_expr_const(b->arena, TY_BOOL, -1, f);
    } else {
        ty_expr_t **ds = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)n);
        for (int i = 0; i < n; i++) {
            ty_expr_t *args[2] = {ls[i], rs[i]};
            const ty_func_t *eq = pln__resolve(b, "=", true, args, 2, e->pos, true);
            if (!eq)
                return NULL;
            ds[i] = ty_expr_new(b->arena, TY_EXPR_IS_DISTINCT, TY_BOOL, 2);
            ds[i]->args[0] = args[0];
            ds[i]->args[1] = args[1];
            ds[i]->func = eq;
            ds[i]->location = e->pos;
        }
        r = n == 1 ? ds[0] : bool_node(b, TY_EXPR_OR, ds, n, e->pos);
    }
    if (!e->negated)
        return r;
    return bool_node(b, TY_EXPR_NOT, &r, 1, e->pos);
}

/*
 * x IN (y, ...) where a row is involved: PostgreSQL's transformAExprIn the
 * hard way, the OR of x = y over the items (NOT IN: the AND of x <> y),
 * where a row against a row compares pairwise and anything else goes
 * through the scalar operator (record = integer does not exist).
 */
ty_expr_t *pln__bind_row_in(pln_binder_t *b, const sql_expr_t *e)
{
    int n = sql_list_len(e->args);
    const char *op = e->negated ? "<>" : "=";
    /* PostgreSQL binds every operand before it compares any. */
    if (!pln__bind_expr(b, e->arg))
        return NULL;
    for (int i = 0; i < n; i++)
        if (!pln__bind_expr(b, e->args->items[i]))
            return NULL;
    ty_expr_t **cmps = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        /* The left side is bound again for each item, as PostgreSQL copies it. */
        const sql_expr_t *item = e->args->items[i];
        if (e->arg->kind == SQL_EXPR_ROW && item->kind == SQL_EXPR_ROW) {
            ty_expr_t **ls, **rs;
            int k;
            if (!bind_pairs(b, e->arg, item, e->pos, &ls, &rs, &k) || !(cmps[i] = row_compare(b, op, ls, rs, k, e->pos)))
                return NULL;
        } else {
            ty_expr_t *l = pln__bind_expr(b, e->arg), *r = l ? pln__bind_expr(b, item) : NULL;
            if (!r || !(cmps[i] = pln__make_op(b, op, l, r, e->pos)))
                return NULL;
        }
        if (!(cmps[i] = pln__coerce_bool(b, cmps[i], "IN")))
            return NULL;
    }
    return n == 1 ? cmps[0] : bool_node(b, e->negated ? TY_EXPR_AND : TY_EXPR_OR, cmps, n, e->pos);
}

/* True if an IN list involves rows (then it is bound by pln__bind_row_in). */
bool pln__is_row_in(const sql_expr_t *e)
{
    if (e->arg->kind == SQL_EXPR_ROW)
        return true;
    for (int i = 0; i < sql_list_len(e->args); i++)
        if (((const sql_expr_t *)e->args->items[i])->kind == SQL_EXPR_ROW)
            return true;
    return false;
}

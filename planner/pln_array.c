/*
 * pln_array.c: arrays in expressions, as PostgreSQL's transformArrayExpr,
 * make_scalar_array_op and transformContainerSubscripts do: ARRAY[...]
 * constructors (elements brought to a common type, sub-arrays making a
 * multidimensional array, a cast around the constructor giving the element
 * type), x op ANY/SOME/ALL (array) with the operator resolved for the
 * scalar and the element type, and subscripts and slices, which become
 * calls of the types module's "[]" and "[:]" operators.
 */
#include "planner/pln_internal.h"

#include <string.h>

/* ======================================================= ARRAY[...] */

/*
 * arr/elem: the type a cast around the constructor asks for (0: none), in
 * which case elements are cast to it explicitly; typmod applies to them.
 */
static ty_expr_t *bind_array(pln_binder_t *b, const sql_expr_t *e, ty_oid_t arr, ty_oid_t elem, int32_t typmod)
{
    int n = sql_list_len(e->args);
    ty_expr_t **args = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(n ? n : 1));
    bool multidims = false;
    for (int i = 0; i < n; i++) {
        const sql_expr_t *x = e->args->items[i];
        pos[i] = x->pos;
        if (x->kind == SQL_EXPR_ARRAY) {
            args[i] = bind_array(b, x, arr, elem, typmod);
            multidims = true;
        } else {
            args[i] = pln__bind_expr(b, x);
            if (args[i] && ty_array_elem_type(args[i]->type) != TY_INVALID)
                multidims = true;
        }
        if (!args[i])
            return NULL;
    }
    if (arr == TY_INVALID) {
        if (n == 0) {
            pln__error(b, e->pos, "42P18", "cannot determine type of empty array");
            cm_err_set_hint(b->err, "Explicitly cast to the desired type, for example ARRAY[]::integer[].");
            return NULL;
        }
        ty_oid_t common;
        int32_t common_typmod;
        if (!pln__common_type(b, args, n, pos, "ARRAY", &common, &common_typmod) ||
            !pln__coerce_all(b, args, n, common, -1, "ARRAY"))
            return NULL;
        if (multidims) {
            arr = common;
            if ((elem = ty_array_elem_type(arr)) == TY_INVALID) {
                pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_OBJECT, "could not find element type for data type %s",
                           pln__type_name(b, arr));
                return NULL;
            }
        } else {
            elem = common;
            if ((arr = ty_array_type_of(elem)) == TY_INVALID) {
                pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_OBJECT, "could not find array type for data type %s",
                           pln__type_name(b, elem));
                return NULL;
            }
        }
    } else {
        for (int i = 0; i < n; i++)
            if (!(args[i] = pln__coerce(b, args[i], multidims ? arr : elem, typmod, PLN_CC_EXPLICIT, pos[i])))
                return NULL;
    }
    ty_expr_t *a = ty_expr_new(b->arena, TY_EXPR_ARRAY, arr, n);
    /* The array's typmod is its elements' when they all share one, as PostgreSQL's exprTypmod says. */
    a->typmod = n ? args[0]->typmod : -1;
    for (int i = 0; i < n; i++) {
        a->args[i] = args[i];
        if (args[i]->typmod != a->typmod)
            a->typmod = -1;
    }
    a->location = e->pos;
    return a;
}

ty_expr_t *pln__bind_array(pln_binder_t *b, const sql_expr_t *e, ty_oid_t type, int32_t typmod)
{
    ty_oid_t elem = type ? ty_array_elem_type(type) : TY_INVALID;
    return bind_array(b, e, elem ? type : TY_INVALID, elem, typmod);
}

/* =================================================== op ANY / ALL */

ty_expr_t *pln__make_any(pln_binder_t *b, const char *op, ty_expr_t *l, ty_expr_t *r, bool all, int pos)
{
    /* The operator is chosen for the scalar and the element type; an untyped literal stays unknown. */
    ty_oid_t elem = r->type == TY_UNKNOWN ? TY_UNKNOWN : ty_array_elem_type(r->type);
    if (elem == TY_INVALID) {
        pln__error(b, pos, "42809", "op ANY/ALL (array) requires array on right side");
        return NULL;
    }
    ty_datum_t null = {.isnull = true};
    ty_expr_t *args[2] = {l, ty_expr_const(b->arena, elem, -1, null)};
    args[1]->location = r->location;
    const ty_func_t *f = pln__resolve(b, op, true, args, 2, pos, true);
    if (!f)
        return NULL;
    if (f->ret != TY_BOOL) {
        pln__error(b, pos, "42809", "op ANY/ALL (array) requires operator to yield boolean");
        return NULL;
    }
    /* Back to the array on the right: the array of the operator's right type (or of the element it got). */
    ty_oid_t right = f->args[1] != TY_INVALID ? f->args[1] : args[1]->type;
    ty_oid_t arr = ty_array_type_of(right);
    if (arr == TY_INVALID) {
        pln__error(b, pos, CM_ERRCODE_UNDEFINED_OBJECT, "could not find array type for data type %s",
                   pln__type_name(b, right));
        return NULL;
    }
    if (!(r = pln__coerce(b, r, arr, -1, PLN_CC_IMPLICIT, -1)))
        return NULL;
    ty_expr_t *x = ty_expr_new(b->arena, all ? TY_EXPR_ALL : TY_EXPR_ANY, TY_BOOL, 2);
    x->args[0] = args[0];
    x->args[1] = r;
    x->func = f;
    x->location = pos;
    return x;
}

ty_expr_t *pln__bind_array_cmp(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t *l = pln__bind_expr(b, e->left);
    if (!l)
        return NULL;
    ty_expr_t *r = pln__bind_expr(b, e->right);
    if (!r)
        return NULL;
    return pln__make_any(b, e->str, l, r, e->sublink == SQL_SUBLINK_ALL, e->pos);
}

/* ======================================================= subscripts */

/* The "[]" or "[:]" row of the types module for this array type. */
static const ty_func_t *subscript_func(const char *name, ty_oid_t arr)
{
    const ty_func_t *c[128];
    size_t n = ty_func_candidates(name, true, c, CM_ARRAY_LEN(c));
    for (size_t i = 0; i < n; i++)
        if (c[i]->args[0] == arr)
            return c[i];
    return NULL;
}

static ty_expr_t *bind_index(pln_binder_t *b, const sql_expr_t *x)
{
    ty_expr_t *i = pln__bind_expr(b, x);
    if (!i)
        return NULL;
    if (!pln__can_coerce(i->type, TY_INT4, PLN_CC_ASSIGNMENT)) {
        pln__error(b, x->pos, CM_ERRCODE_DATATYPE_MISMATCH, "array subscript must have type integer");
        return NULL;
    }
    return pln__coerce(b, i, TY_INT4, -1, PLN_CC_ASSIGNMENT, x->pos);
}

ty_expr_t *pln__bind_subscript(pln_binder_t *b, const sql_expr_t *e)
{
    /* a[1][2] nests as (a[1])[2] in the tree; PostgreSQL takes the subscripts as one list. */
    const sql_expr_t *chain[TY_ARRAY_MAXDIM + 1];
    int n = 0;
    bool slice = false;
    const sql_expr_t *base = e;
    for (; base->kind == SQL_EXPR_SUBSCRIPT; base = base->arg) {
        if (n == TY_ARRAY_MAXDIM) {
            pln__error(b, e->pos, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                       "number of array dimensions (%d) exceeds the maximum allowed (%d)", n + 1, TY_ARRAY_MAXDIM);
            return NULL;
        }
        chain[n++] = base;
        slice |= base->slice;
    }
    ty_expr_t *a = pln__bind_expr(b, base);
    if (!a)
        return NULL;
    ty_oid_t elem = ty_array_elem_type(a->type);
    const ty_func_t *f = elem ? subscript_func(slice ? "[:]" : "[]", a->type) : NULL;
    if (!f) {
        pln__error(b, base->pos, CM_ERRCODE_DATATYPE_MISMATCH,
                   "cannot subscript type %s because it does not support subscripting", pln__type_name(b, a->type));
        return NULL;
    }
    int nargs = slice ? 2 + 2 * n : 1 + n;
    ty_expr_t *call = ty_expr_new(b->arena, TY_EXPR_CALL, slice ? a->type : elem, nargs);
    call->typmod = a->typmod;
    call->func = f;
    call->location = e->pos;
    call->args[0] = a;
    ty_datum_t null = {.isnull = true}, mask = {.v.i = 0};
    for (int k = 0; k < n; k++) {
        const sql_expr_t *s = chain[n - 1 - k];
        if (!slice) {
            if (!(call->args[1 + k] = bind_index(b, s->left)))
                return NULL;
            continue;
        }
        /* In a slice, a plain [n] means [1:n]. */
        ty_expr_t *lo, *hi;
        if (s->slice && !s->left) {
            lo = ty_expr_const(b->arena, TY_INT4, -1, null);
            mask.v.i |= INT64_C(1) << (2 * k);
        } else if (!s->slice) {
            ty_datum_t one = {.v.i = 1};
            lo = ty_expr_const(b->arena, TY_INT4, -1, one);
        } else if (!(lo = bind_index(b, s->left))) {
            return NULL;
        }
        const sql_expr_t *upper = s->slice ? s->right : s->left;
        if (!upper) {
            hi = ty_expr_const(b->arena, TY_INT4, -1, null);
            mask.v.i |= INT64_C(1) << (2 * k + 1);
        } else if (!(hi = bind_index(b, upper))) {
            return NULL;
        }
        call->args[2 + 2 * k] = lo;
        call->args[3 + 2 * k] = hi;
    }
    if (slice)
        call->args[1] = ty_expr_const(b->arena, TY_INT4, -1, mask);
    return call;
}

/*
 * ty_expr.c: typed scalar expression trees and their evaluator, with SQL's
 * three-valued logic, including row constructors and row comparisons.
 * Arguments declared "any" (TY_INVALID) are handed to
 * the function as their text output, which is what concat and the
 * anynonarray || text operators need.
 */
#include "types/ty_internal.h"

#include <string.h>

ty_expr_t *ty_expr_new(cm_arena_t *a, ty_expr_kind_t kind, ty_oid_t type, int nargs)
{
    ty_expr_t *e = cm_arena_zalloc(a, sizeof(*e));
    e->kind = kind;
    e->type = type;
    e->typmod = -1;
    e->location = -1;
    e->nargs = nargs;
    if (nargs > 0)
        e->args = cm_arena_zalloc(a, sizeof(ty_expr_t *) * (size_t)nargs);
    return e;
}

ty_expr_t *ty_expr_const(cm_arena_t *a, ty_oid_t type, int32_t typmod, ty_datum_t value)
{
    ty_expr_t *e = ty_expr_new(a, TY_EXPR_CONST, type, 0);
    e->typmod = typmod;
    e->value = value;
    return e;
}

bool ty_expr_has_flag(const ty_expr_t *e, unsigned flag)
{
    if (e == NULL)
        return false;
    if (e->func != NULL && (e->func->flags & flag))
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (ty_expr_has_flag(e->args[i], flag))
            return true;
    return false;
}

static void ty__null(ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    out->isnull = true;
}

static void ty__bool(ty_datum_t *out, bool v)
{
    memset(out, 0, sizeof(*out));
    out->v.b = v;
}

/* Calls a binary function (an "=" or "<") on two values of arg types. */
static bool ty__call2(ty_ctx_t *ctx, const ty_func_t *f, ty_oid_t type, const ty_datum_t *a, const ty_datum_t *b,
                      ty_datum_t *out)
{
    if (a->isnull || b->isnull) {
        ty__null(out);
        return true;
    }
    if (f == NULL) {
        ty__bool(out, ty_datum_compare(type, a, b) == 0);
        return true;
    }
    ty_datum_t args[2] = {*a, *b};
    memset(out, 0, sizeof(*out));
    return f->impl(ctx, args, 2, out);
}

static bool ty__eval_call(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                          ty_datum_t *out)
{
    const ty_func_t *f = e->func;
    CM_ASSERT(f != NULL);
    ty_datum_t local[4];
    ty_datum_t *args = e->nargs <= 4 ? local : cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++) {
        if (!ty_expr_eval(e->args[i], ctx, row, params, &args[i]))
            return false;
        if (args[i].isnull && (f->flags & TY_FN_STRICT)) {
            /* Strict: evaluate the rest anyway? PostgreSQL does not; neither do we. */
            ty__null(out);
            return true;
        }
        int decl = i < f->nargs ? i : f->nargs - 1;
        ty_oid_t dt = decl >= 0 && decl < TY_FUNC_ARGS_MAX ? f->args[decl] : TY_INVALID;
        ty_oid_t at = e->args[i]->type;
        if (dt == TY_INVALID && !args[i].isnull && !ty_is_string_type(at)) {
            cm_buf_t b;
            cm_buf_init(&b, 0);
            bool ok = ty_datum_to_text(at, &args[i], ctx, &b);
            args[i] = ty_buf_datum(ctx->arena, &b);
            cm_buf_free(&b);
            if (!ok)
                return false;
        } else if (dt == TY_INVALID && at == TY_BPCHAR && !args[i].isnull) {
            args[i].v.s.len = (uint32_t)ty_bpchar_len(args[i].v.s.p, args[i].v.s.len);
        }
    }
    memset(out, 0, sizeof(*out));
    if (!f->impl(ctx, args, e->nargs, out))
        return false;
    return true;
}

/* ARRAY[...]: elements, or sub-arrays of the same type for a multidimensional array. */
static bool ty__eval_array(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                           ty_datum_t *out)
{
    ty_oid_t elem = ty_array_elem_type(e->type);
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(e->nargs ? e->nargs : 1));
    for (int i = 0; i < e->nargs; i++)
        if (!ty_expr_eval(e->args[i], ctx, row, params, &items[i]))
            return false;
    if (e->nargs > 0 && e->args[0]->type == e->type)
        return ty_array_nest(ctx, elem, items, e->nargs, out);
    *out = ty_array_make(ctx->arena, elem, items, e->nargs);
    return true;
}

/* ROW(...): a record of the arguments' values, each column typed as its argument. */
static bool ty__eval_row(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                         ty_datum_t *out)
{
    int n = e->nargs;
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
    ty_oid_t *types = cm_arena_alloc(ctx->arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (!ty_expr_eval(e->args[i], ctx, row, params, &items[i]))
            return false;
        types[i] = e->args[i]->type;
    }
    *out = ty_record_make(ctx->arena, n, types, items);
    return true;
}

/* (l1, l2, ...) < (r1, r2, ...) and the like: pairs are compared in order
 * and only as far as needed, as PostgreSQL's RowCompareExpr does. */
static bool ty__eval_row_compare(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                                 ty_datum_t *out)
{
    int c = 0;
    for (int i = 0; i + 1 < e->nargs && c == 0; i += 2) {
        ty_datum_t l, r;
        if (!ty_expr_eval(e->args[i], ctx, row, params, &l) || !ty_expr_eval(e->args[i + 1], ctx, row, params, &r))
            return false;
        if (l.isnull || r.isnull) {
            ty__null(out);
            return true;
        }
        if (e->args[i]->type == TY_RECORD) {
            /* Nested records compare as record_cmp does, with its errors. */
            if (!ty_record_compare(ctx, &l, &r, false, &c))
                return false;
        } else {
            c = ty_datum_compare(e->args[i]->type, &l, &r);
        }
    }
    bool v;
    switch (e->index) {
    case TY_ROWCMP_LT: v = c < 0; break;
    case TY_ROWCMP_LE: v = c <= 0; break;
    case TY_ROWCMP_GE: v = c >= 0; break;
    default: v = c > 0; break;
    }
    ty__bool(out, v);
    return true;
}

/* IS [NOT] NULL: a record is NULL when every column is, NOT NULL when none is (PostgreSQL's row tests). */
static bool ty__is_null(const ty_expr_t *e, const ty_datum_t *a)
{
    if (a->isnull || e->args[0]->type != TY_RECORD)
        return a->isnull != e->negated;
    const ty_record_t *r = a->v.rec;
    for (int i = 0; i < r->ncols; i++)
        if (r->items[i].isnull == e->negated)
            return false;
    return true;
}

bool ty_expr_eval(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                  ty_datum_t *out)
{
    switch (e->kind) {
    case TY_EXPR_CONST: *out = e->value; return true;
    case TY_EXPR_PARAM: *out = params[e->index]; return true;
    case TY_EXPR_COLUMN: *out = row[e->index]; return true;
    case TY_EXPR_CALL: return ty__eval_call(e, ctx, row, params, out);
    case TY_EXPR_CAST: {
        ty_datum_t a;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a))
            return false;
        if (e->negated)
            return ty_cast_datum_assign(e->args[0]->type, e->type, e->typmod, &a, ctx, out);
        return ty_cast_datum(e->args[0]->type, e->type, e->typmod, &a, ctx, out);
    }
    case TY_EXPR_AND:
    case TY_EXPR_OR: {
        bool is_and = e->kind == TY_EXPR_AND, saw_null = false;
        for (int i = 0; i < e->nargs; i++) {
            ty_datum_t a;
            if (!ty_expr_eval(e->args[i], ctx, row, params, &a))
                return false;
            if (a.isnull)
                saw_null = true;
            else if (a.v.b != is_and) {
                ty__bool(out, !is_and);
                return true;
            }
        }
        if (saw_null)
            ty__null(out);
        else
            ty__bool(out, is_and);
        return true;
    }
    case TY_EXPR_NOT: {
        ty_datum_t a;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a))
            return false;
        if (a.isnull)
            ty__null(out);
        else
            ty__bool(out, !a.v.b);
        return true;
    }
    case TY_EXPR_CASE: {
        int i = 0;
        for (; i + 1 < e->nargs; i += 2) {
            ty_datum_t c;
            if (!ty_expr_eval(e->args[i], ctx, row, params, &c))
                return false;
            if (!c.isnull && c.v.b)
                return ty_expr_eval(e->args[i + 1], ctx, row, params, out);
        }
        if (i < e->nargs)
            return ty_expr_eval(e->args[i], ctx, row, params, out);
        ty__null(out);
        return true;
    }
    case TY_EXPR_COALESCE:
        for (int i = 0; i < e->nargs; i++) {
            if (!ty_expr_eval(e->args[i], ctx, row, params, out))
                return false;
            if (!out->isnull)
                return true;
        }
        ty__null(out);
        return true;
    case TY_EXPR_GREATEST:
    case TY_EXPR_LEAST: {
        bool have = false;
        ty_datum_t best;
        ty__null(&best);
        for (int i = 0; i < e->nargs; i++) {
            ty_datum_t a;
            if (!ty_expr_eval(e->args[i], ctx, row, params, &a))
                return false;
            if (a.isnull)
                continue;
            if (!have) {
                best = a;
                have = true;
                continue;
            }
            bool take;
            if (e->func != NULL) {
                /* func is "<": for GREATEST take a when best < a. */
                ty_datum_t r;
                if (!(e->kind == TY_EXPR_GREATEST ? ty__call2(ctx, e->func, e->type, &best, &a, &r)
                                                   : ty__call2(ctx, e->func, e->type, &a, &best, &r)))
                    return false;
                take = !r.isnull && r.v.b;
            } else {
                int c = ty_datum_compare(e->type, &a, &best);
                take = e->kind == TY_EXPR_GREATEST ? c > 0 : c < 0;
            }
            if (take)
                best = a;
        }
        *out = best;
        return true;
    }
    case TY_EXPR_NULLIF: {
        ty_datum_t a, b, r;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a) || !ty_expr_eval(e->args[1], ctx, row, params, &b))
            return false;
        if (!a.isnull && !b.isnull) {
            if (!ty__call2(ctx, e->func, e->args[0]->type, &a, &b, &r))
                return false;
            if (!r.isnull && r.v.b) {
                ty__null(out);
                return true;
            }
        }
        *out = a;
        return true;
    }
    case TY_EXPR_IS_NULL: {
        ty_datum_t a;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a))
            return false;
        ty__bool(out, ty__is_null(e, &a));
        return true;
    }
    case TY_EXPR_IS_DISTINCT: {
        ty_datum_t a, b, r;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a) || !ty_expr_eval(e->args[1], ctx, row, params, &b))
            return false;
        bool distinct;
        if (a.isnull || b.isnull) {
            distinct = a.isnull != b.isnull;
        } else {
            if (!ty__call2(ctx, e->func, e->args[0]->type, &a, &b, &r))
                return false;
            distinct = r.isnull || !r.v.b;
        }
        ty__bool(out, distinct != e->negated);
        return true;
    }
    case TY_EXPR_IS_BOOL: {
        ty_datum_t a;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &a))
            return false;
        bool r;
        switch (e->bool_test) {
        case TY_BOOLTEST_TRUE: r = !a.isnull && a.v.b; break;
        case TY_BOOLTEST_FALSE: r = !a.isnull && !a.v.b; break;
        default: r = a.isnull; break;
        }
        ty__bool(out, r != e->negated);
        return true;
    }
    case TY_EXPR_IN_LIST: {
        ty_datum_t lhs;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &lhs))
            return false;
        if (lhs.isnull) {
            ty__null(out);
            return true;
        }
        bool saw_null = false;
        for (int i = 1; i < e->nargs; i++) {
            ty_datum_t x, r;
            if (!ty_expr_eval(e->args[i], ctx, row, params, &x))
                return false;
            if (!ty__call2(ctx, e->func, e->args[0]->type, &lhs, &x, &r))
                return false;
            if (r.isnull) {
                saw_null = true;
            } else if (r.v.b) {
                ty__bool(out, !e->negated);
                return true;
            }
        }
        if (saw_null)
            ty__null(out);
        else
            ty__bool(out, e->negated);
        return true;
    }
    case TY_EXPR_ARRAY: return ty__eval_array(e, ctx, row, params, out);
    case TY_EXPR_ANY:
    case TY_EXPR_ALL: {
        ty_datum_t lhs, arr;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &lhs) || !ty_expr_eval(e->args[1], ctx, row, params, &arr))
            return false;
        return ty_array_any(ctx, e->func, &lhs, &arr, e->kind == TY_EXPR_ALL, out);
    }
    case TY_EXPR_ROW: return ty__eval_row(e, ctx, row, params, out);
    case TY_EXPR_ROW_COMPARE: return ty__eval_row_compare(e, ctx, row, params, out);
    case TY_EXPR_FIELD: {
        ty_datum_t r;
        if (!ty_expr_eval(e->args[0], ctx, row, params, &r))
            return false;
        if (r.isnull) {
            ty__null(out);
            return true;
        }
        const ty_record_t *rec = r.v.rec;
        if (e->index < 0 || e->index >= rec->ncols || rec->types[e->index] != e->type)
            return cm_err_set(ctx->err, CM_ERRCODE_DATATYPE_MISMATCH, "attribute %d of type record has wrong type",
                              e->index + 1);
        *out = rec->items[e->index];
        return true;
    }
    }
    CM_ASSERT(!"unknown expression kind");
    return false;
}

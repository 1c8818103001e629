/*
 * ty_array_subscript.c: element and slice access on arrays, as PostgreSQL's
 * array_get_element and array_get_slice do for a[i][j] and a[lo:hi]. The
 * planner binds subscripts into calls of two operators whose names no SQL
 * text can spell ("[]" and "[:]"), one row per array type so that the
 * result type follows from the array type:
 *   "[]"  (array, i1, i2, ...)  the element, NULL when the number of
 *         subscripts differs from the array's dimensions or one is out of
 *         range (strict: a NULL subscript gives NULL);
 *   "[:]" (array, mask, lo1, hi1, lo2, hi2, ...)  the slice, bounds clamped
 *         to the array's and the result's lower bounds 1; bit 2k of mask
 *         says lo(k+1) was omitted ([:hi]), bit 2k+1 that hi(k+1) was; an
 *         empty array when a range is empty or there are more subscripts
 *         than dimensions.
 */
#include "types/ty_internal.h"

#include <string.h>

static bool ty__subscript_fetch(ty_ctx_t *ctx, const ty_datum_t *args, int nargs, ty_datum_t *out)
{
    const ty_array_t *a = ty_array_get(&args[0]);
    int nsubs = nargs - 1;
    memset(out, 0, sizeof(*out));
    out->isnull = true;
    if (nsubs != a->ndim || nsubs < 1)
        return true;
    int offset = 0;
    for (int d = 0; d < nsubs; d++) {
        int64_t i = args[1 + d].v.i - a->lbound[d];
        if (i < 0 || i >= a->dims[d])
            return true;
        offset = offset * a->dims[d] + (int)i;
    }
    *out = a->items[offset];
    return true;
}

static bool ty__subscript_slice(ty_ctx_t *ctx, const ty_datum_t *args, int nargs, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    if (args[0].isnull || args[1].isnull) {
        out->isnull = true;
        return true;
    }
    const ty_array_t *a = ty_array_get(&args[0]);
    int64_t mask = args[1].v.i;
    int nsubs = (nargs - 2) / 2;
    for (int i = 2; i < nargs; i++)
        if (args[i].isnull && !(mask & (INT64_C(1) << (i - 2)))) {
            out->isnull = true;   /* a NULL bound (not an omitted one) makes the result NULL */
            return true;
        }
    if (a->ndim == 0 || nsubs > a->ndim) {
        *out = ty_array_make(ctx->arena, a->elem, NULL, 0);
        return true;
    }
    int lo[TY_ARRAY_MAXDIM], dims[TY_ARRAY_MAXDIM], ones[TY_ARRAY_MAXDIM];
    int total = 1;
    for (int d = 0; d < a->ndim; d++) {
        int64_t l = a->lbound[d], h = (int64_t)a->lbound[d] + a->dims[d] - 1;
        if (d < nsubs) {
            if (!(mask & (INT64_C(1) << (2 * d))) && args[2 + 2 * d].v.i > l)
                l = args[2 + 2 * d].v.i;
            if (!(mask & (INT64_C(1) << (2 * d + 1))) && args[3 + 2 * d].v.i < h)
                h = args[3 + 2 * d].v.i;
        }
        if (l > h) {
            *out = ty_array_make(ctx->arena, a->elem, NULL, 0);
            return true;
        }
        lo[d] = (int)(l - a->lbound[d]);
        dims[d] = (int)(h - l + 1);
        ones[d] = 1;
        total *= dims[d];
    }
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)total);
    int idx[TY_ARRAY_MAXDIM] = {0};
    for (int n = 0; n < total; n++) {
        int offset = 0;
        for (int d = 0; d < a->ndim; d++)
            offset = offset * a->dims[d] + lo[d] + idx[d];
        items[n] = a->items[offset];
        for (int d = a->ndim - 1; d >= 0; d--) {
            if (++idx[d] < dims[d])
                break;
            idx[d] = 0;
        }
    }
    *out = ty_array_build(ctx->arena, a->elem, a->ndim, dims, ones, items);
    return true;
}

#define TY_SUBSCRIPT_ROWS(E, A)                                                                            \
    {"[]", 2, {A, TY_INT4}, E, TY_FN_OPERATOR | TY_FN_STRICT | TY_FN_VARIADIC, ty__subscript_fetch, 0},    \
    {"[:]", 3, {A, TY_INT4, TY_INT4}, A, TY_FN_OPERATOR | TY_FN_VARIADIC, ty__subscript_slice, 0},

static const ty_func_t ty__subscript_funcs[] = {
    TY_SUBSCRIPT_ROWS(TY_BOOL, TY_BOOL_ARRAY) TY_SUBSCRIPT_ROWS(TY_BYTEA, TY_BYTEA_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_NAME, TY_NAME_ARRAY) TY_SUBSCRIPT_ROWS(TY_INT2, TY_INT2_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_INT4, TY_INT4_ARRAY) TY_SUBSCRIPT_ROWS(TY_TEXT, TY_TEXT_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_BPCHAR, TY_BPCHAR_ARRAY) TY_SUBSCRIPT_ROWS(TY_VARCHAR, TY_VARCHAR_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_INT8, TY_INT8_ARRAY) TY_SUBSCRIPT_ROWS(TY_FLOAT4, TY_FLOAT4_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_FLOAT8, TY_FLOAT8_ARRAY) TY_SUBSCRIPT_ROWS(TY_OID, TY_OID_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_TIMESTAMP, TY_TIMESTAMP_ARRAY) TY_SUBSCRIPT_ROWS(TY_DATE, TY_DATE_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_TIME, TY_TIME_ARRAY) TY_SUBSCRIPT_ROWS(TY_TIMESTAMPTZ, TY_TIMESTAMPTZ_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_INTERVAL, TY_INTERVAL_ARRAY) TY_SUBSCRIPT_ROWS(TY_NUMERIC, TY_NUMERIC_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_UUID, TY_UUID_ARRAY) TY_SUBSCRIPT_ROWS(TY_JSON, TY_JSON_ARRAY)
    TY_SUBSCRIPT_ROWS(TY_JSONB, TY_JSONB_ARRAY) TY_SUBSCRIPT_ROWS(TY_CHAR, TY_CHAR_ARRAY)
};

const ty_func_table_t ty_funcs_array_subscript = {ty__subscript_funcs, CM_ARRAY_LEN(ty__subscript_funcs)};

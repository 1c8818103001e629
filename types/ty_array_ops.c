/*
 * ty_array_ops.c: the array operations the rest of the module builds on:
 * binary send/receive in PostgreSQL's wire format, element-wise casts,
 * ARRAY[...] of sub-arrays, and scalar op ANY/ALL (array) with SQL's
 * three-valued logic.
 */
#include "types/ty_internal.h"

#include <string.h>

#define TY_ERRCODE_ARRAY_SUBSCRIPT "2202E"

/* ===== binary (array_recv / array_send) ===== */

static bool ty__abin_err(ty_ctx_t *ctx)
{
    return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "incorrect binary data format");
}

static uint32_t ty__rd32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool ty_array_recv(ty_oid_t arrtype, int32_t typmod, const uint8_t *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out)
{
    ty_oid_t elem = ty_array_elem_type(arrtype);
    if (len < 12)
        return ty__abin_err(ctx);
    int32_t ndim = (int32_t)ty__rd32(p), flags = (int32_t)ty__rd32(p + 4);
    ty_oid_t etype = ty__rd32(p + 8);
    size_t pos = 12;
    if (ndim < 0)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "invalid number of dimensions: %d", ndim);
    if (ndim > TY_ARRAY_MAXDIM)
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "number of array dimensions (%d) exceeds the maximum allowed (%d)", ndim, TY_ARRAY_MAXDIM);
    if (flags != 0 && flags != 1)
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_BINARY_REPRESENTATION, "invalid array flags");
    if (etype != elem) {
        const ty_info_t *gi = ty_info(etype), *wi = ty_info(elem);
        return cm_err_set(ctx->err, CM_ERRCODE_DATATYPE_MISMATCH,
                          "binary data has array element type %u (%s) instead of expected %u (%s)", etype,
                          gi ? gi->name : "???", elem, wi ? wi->name : "???");
    }
    int dims[TY_ARRAY_MAXDIM], lb[TY_ARRAY_MAXDIM];
    int64_t n = ndim > 0 ? 1 : 0;
    for (int i = 0; i < ndim; i++) {
        if (len - pos < 8)
            return ty__abin_err(ctx);
        dims[i] = (int32_t)ty__rd32(p + pos);
        lb[i] = (int32_t)ty__rd32(p + pos + 4);
        pos += 8;
        if (dims[i] < 0 || (int64_t)lb[i] + dims[i] - 1 > INT32_MAX)
            return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)",
                              134217727);
        n *= dims[i];
        if (n > 134217727)
            return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)",
                              134217727);
    }
    /* Every element takes at least its 4-byte length word. */
    if ((size_t)n > (len - pos) / 4)
        return cm_err_set(ctx->err, CM_ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) {
        if (len - pos < 4)
            return cm_err_set(ctx->err, CM_ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
        int32_t il = (int32_t)ty__rd32(p + pos);
        pos += 4;
        if (il < -1 || (il > 0 && (size_t)il > len - pos))
            return cm_err_set(ctx->err, CM_ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
        if (il == -1) {
            memset(&items[i], 0, sizeof(items[i]));
            items[i].isnull = true;
            continue;
        }
        if (!ty_datum_from_binary(elem, typmod, p + pos, (size_t)il, ctx, &items[i]))
            return false;
        items[i].isnull = false;
        pos += (size_t)il;
    }
    if (pos != len)
        return ty__abin_err(ctx);
    *out = ty_array_build(ctx->arena, elem, ndim, dims, lb, items);
    return true;
}

bool ty_array_send(ty_oid_t arrtype, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    const ty_array_t *a = d->v.arr;
    cm_buf_put_be32(out, (uint32_t)a->ndim);
    cm_buf_put_be32(out, a->hasnull ? 1 : 0);
    cm_buf_put_be32(out, a->elem);
    for (int i = 0; i < a->ndim; i++) {
        cm_buf_put_be32(out, (uint32_t)a->dims[i]);
        cm_buf_put_be32(out, (uint32_t)a->lbound[i]);
    }
    for (int i = 0; i < a->nitems; i++) {
        if (a->items[i].isnull) {
            cm_buf_put_be32(out, 0xFFFFFFFFu);
            continue;
        }
        size_t at = out->len;
        cm_buf_put_be32(out, 0);
        if (!ty_datum_to_binary(a->elem, &a->items[i], ctx, out))
            return false;
        if (!out->failed)
            cm_buf_set_be32(out, at, (uint32_t)(out->len - at - 4));
    }
    return true;
}

/* ===== casts ===== */

bool ty_array_cast(ty_oid_t from, ty_oid_t to, int32_t typmod, bool explicit_cast, const ty_datum_t *in,
                   ty_ctx_t *ctx, ty_datum_t *out)
{
    const ty_array_t *a = in->v.arr;
    ty_oid_t fe = ty_array_elem_type(from), te = ty_array_elem_type(to);
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(a->nitems ? a->nitems : 1));
    for (int i = 0; i < a->nitems; i++) {
        bool ok = explicit_cast ? ty_cast_datum(fe, te, typmod, &a->items[i], ctx, &items[i])
                                : ty_cast_datum_assign(fe, te, typmod, &a->items[i], ctx, &items[i]);
        if (!ok)
            return false;
    }
    *out = ty_array_build(ctx->arena, te, a->ndim, a->dims, a->lbound, items);
    return true;
}

/* ===== ARRAY[...] ===== */

bool ty_array_nest(ty_ctx_t *ctx, ty_oid_t elem, const ty_datum_t *subs, int n, ty_datum_t *out)
{
    const ty_array_t *shape = NULL;
    int nsub = 0, total = 0;
    for (int i = 0; i < n; i++) {
        if (subs[i].isnull)
            continue;   /* PostgreSQL skips NULL sub-arrays */
        const ty_array_t *s = subs[i].v.arr;
        if (shape == NULL) {
            shape = s;
        } else {
            bool same = s->ndim == shape->ndim;
            for (int k = 0; same && k < s->ndim; k++)
                same = s->dims[k] == shape->dims[k] && s->lbound[k] == shape->lbound[k];
            if (!same)
                return cm_err_set(ctx->err, TY_ERRCODE_ARRAY_SUBSCRIPT,
                                  "multidimensional arrays must have array expressions with matching dimensions");
        }
        nsub++;
        total += s->nitems;
    }
    if (shape == NULL || shape->nitems == 0) {
        *out = ty_array_build(ctx->arena, elem, 0, NULL, NULL, NULL);
        return true;
    }
    if (shape->ndim + 1 > TY_ARRAY_MAXDIM)
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "number of array dimensions (%d) exceeds the maximum allowed (%d)", shape->ndim + 1,
                          TY_ARRAY_MAXDIM);
    ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)total);
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (subs[i].isnull)
            continue;
        const ty_array_t *s = subs[i].v.arr;
        memcpy(items + k, s->items, sizeof(ty_datum_t) * (size_t)s->nitems);
        k += s->nitems;
    }
    int dims[TY_ARRAY_MAXDIM], lb[TY_ARRAY_MAXDIM];
    dims[0] = nsub;
    lb[0] = 1;
    for (int i = 0; i < shape->ndim; i++) {
        dims[i + 1] = shape->dims[i];
        lb[i + 1] = shape->lbound[i];
    }
    *out = ty_array_build(ctx->arena, elem, shape->ndim + 1, dims, lb, items);
    return true;
}

/* ===== ANY / ALL ===== */

bool ty_array_any(ty_ctx_t *ctx, const ty_func_t *op, const ty_datum_t *lhs, const ty_datum_t *array, bool all,
                  ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    if (array->isnull) {
        out->isnull = true;
        return true;
    }
    const ty_array_t *a = array->v.arr;
    if (a->nitems == 0) {
        out->v.b = all;   /* ANY over nothing is false, ALL is true, even for a NULL lhs */
        return true;
    }
    bool strict = (op->flags & TY_FN_STRICT) != 0;
    if (lhs->isnull && strict) {
        out->isnull = true;
        return true;
    }
    bool saw_null = false;
    for (int i = 0; i < a->nitems; i++) {
        ty_datum_t r;
        if (a->items[i].isnull && strict) {
            saw_null = true;
            continue;
        }
        ty_datum_t args[2] = {*lhs, a->items[i]};
        memset(&r, 0, sizeof(r));
        if (!op->impl(ctx, args, 2, &r))
            return false;
        if (r.isnull)
            saw_null = true;
        else if (r.v.b != all) {
            out->v.b = !all;
            return true;
        }
    }
    if (saw_null)
        out->isnull = true;
    else
        out->v.b = all;
    return true;
}

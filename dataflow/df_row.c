/*
 * df_row.c: the value encoding of rows, and its decoding into datums.
 *
 * A stored row is a byte string, never a heap object per row or per datum.
 * Its encoding must give every datum back exactly as it was (numeric's
 * display scale, an interval's fields, bpchar's spaces, -0) and be a function
 * of the datums alone, so that equal rows are equal bytes and consolidation
 * compares bytes. It is not order-preserving (keys are, df_key.c); it is
 * small: integers are zigzag varints, strings a varint length and their bytes.
 *
 *   row     = NULL bitmap ((ncols + 7) / 8 bytes, LSB first), then each non-NULL column
 *   bool    = 1 byte 0 or 1
 *   int2 int4 int8 oid reg* date time timestamp timestamptz = zigzag varint of the value
 *   float4 float8 = 8 bytes, the double's bits little-endian (one NaN)
 *   numeric = varint length, its text ("-12.50", "NaN"): exact and short for usual values
 *   interval = zigzag varints of microseconds, days, months
 *   text varchar bpchar name "char" bytea json jsonb unknown = varint length, bytes
 *   uuid    = 16 bytes
 *   array   = varint element type, 1 byte ndim, zigzag varints of each dimension's
 *             length and lower bound, 1 byte "has NULLs", then a NULL bitmap of the
 *             items if it has, then each non-NULL item
 *   record  = varint ncols, varint type of each column, then as a row
 *   void    = nothing
 */
#include "dataflow/df_store.h"

#include <stdio.h>

#define DF__ROW_DEPTH_MAX 64

static size_t df__varint_to(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    for (; v >= 0x80; v >>= 7)
        b[n++] = (uint8_t)(v | 0x80);
    b[n++] = (uint8_t)v;
    return n;
}

size_t df__row_zigzag_to(uint8_t *b, int64_t v)
{
    return df__varint_to(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void df__put_varint(cm_buf_t *out, uint64_t v)
{
    size_t n = 1;
    for (uint64_t r = v >> 7; r != 0; r >>= 7)
        n++;
    if (cm_buf_reserve(out, n))
        out->len += df__varint_to(out->data + out->len, v);
}

static void df__put_zigzag(cm_buf_t *out, int64_t v)
{
    df__put_varint(out, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static void df__put_bitmap(cm_buf_t *out, const ty_datum_t *items, int n)
{
    for (int i = 0; i < n; i += 8) {
        uint8_t byte = 0;
        for (int k = 0; k < 8 && i + k < n; k++)
            if (items[i + k].isnull)
                byte |= (uint8_t)(1u << k);
        cm_buf_put_u8(out, byte);
    }
}

static bool df__row_items(const ty_oid_t *types, ty_oid_t one_type, int n, const ty_datum_t *items, ty_ctx_t *ctx,
                          cm_buf_t *out, int depth);

static bool df__row_value(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out, int depth)
{
    switch (type) {
    case TY_BOOL: cm_buf_put_u8(out, d->v.b ? 1 : 0); return true;
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
    case TY_OID:
    case TY_REGPROC:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE:
    case TY_DATE:
    case TY_TIME:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: df__put_zigzag(out, d->v.i); return true;
    case TY_FLOAT4:
    case TY_FLOAT8: {
        uint64_t u;
        double f = d->v.f;
        if (f != f)
            u = 0x7FF8000000000000ull;   /* NaN's payload is invisible: keep one form */
        else
            memcpy(&u, &f, sizeof(u));
        uint8_t b[8];
        for (int i = 0; i < 8; i++)
            b[i] = (uint8_t)(u >> (8 * i));
        cm_buf_put(out, b, 8);
        return true;
    }
    case TY_NUMERIC: {
        /* Its text is exact (the scale is the digits after the point) and is
         * the only view of a numeric that types/ gives other modules. */
        size_t at = out->len;
        cm_buf_put_u8(out, 0);   /* room for a short length, moved if longer */
        size_t start = out->len;
        if (!ty_datum_to_text(TY_NUMERIC, d, ctx, out))
            return false;
        if (out->failed)
            return true;
        size_t n = out->len - start;
        if (n < 0x80) {
            out->data[at] = (uint8_t)n;
            return true;
        }
        cm_buf_t len;
        cm_buf_init(&len, 0);
        df__put_varint(&len, n);
        if (!cm_buf_reserve(out, len.len - 1)) {
            cm_buf_free(&len);
            return true;
        }
        memmove(out->data + at + len.len, out->data + start, n);
        memcpy(out->data + at, len.data, len.len);
        out->len = at + len.len + n;
        cm_buf_free(&len);
        return true;
    }
    case TY_INTERVAL:
        df__put_zigzag(out, d->v.iv.us);
        df__put_zigzag(out, d->v.iv.days);
        df__put_zigzag(out, d->v.iv.months);
        return true;
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_CHAR:
    case TY_BYTEA:
    case TY_JSON:
    case TY_JSONB:
    case TY_UNKNOWN:
        df__put_varint(out, d->v.s.len);
        cm_buf_put(out, d->v.s.p, d->v.s.len);
        return true;
    case TY_UUID: cm_buf_put(out, d->v.uuid, 16); return true;
    case TY_VOID: return true;
    case TY_RECORD: {
        const ty_record_t *r = d->v.rec;
        df__put_varint(out, (uint64_t)r->ncols);
        for (int i = 0; i < r->ncols; i++)
            df__put_varint(out, r->types[i]);
        return df__row_items(r->types, TY_INVALID, r->ncols, r->items, ctx, out, depth + 1);
    }
    default: break;
    }
    const ty_info_t *ti = ty_info(type);
    if (ti == NULL || ti->category != TY_CAT_ARRAY) {
        char num[16];
        snprintf(num, sizeof(num), "%u", type);
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "values of type %s cannot be stored",
                          ti ? ti->sql_name : num);
    }
    const ty_array_t *a = d->v.arr;
    df__put_varint(out, a->elem);
    cm_buf_put_u8(out, (uint8_t)a->ndim);
    for (int i = 0; i < a->ndim; i++) {
        df__put_zigzag(out, a->dims[i]);
        df__put_zigzag(out, a->lbound[i]);
    }
    bool hasnull = false;   /* from the items, not the flag: the bytes depend on the values alone */
    for (int i = 0; i < a->nitems; i++)
        hasnull |= a->items[i].isnull;
    cm_buf_put_u8(out, hasnull ? 1 : 0);
    if (!hasnull) {
        for (int i = 0; i < a->nitems; i++)
            if (!df__row_value(a->elem, &a->items[i], ctx, out, depth + 1))
                return false;
        return true;
    }
    return df__row_items(NULL, a->elem, a->nitems, a->items, ctx, out, depth + 1);
}

/* A NULL bitmap, then the non-NULL items (of types[i], or all of one_type). */
static bool df__row_items(const ty_oid_t *types, ty_oid_t one_type, int n, const ty_datum_t *items, ty_ctx_t *ctx,
                          cm_buf_t *out, int depth)
{
    if (depth > DF__ROW_DEPTH_MAX)
        return cm_err_set(ctx->err, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "value nested too deeply to be stored");
    df__put_bitmap(out, items, n);
    for (int i = 0; i < n; i++)
        if (!items[i].isnull && !df__row_value(types ? types[i] : one_type, &items[i], ctx, out, depth))
            return false;
    return true;
}

bool df__row_encode(const ty_oid_t *types, int ncols, const ty_datum_t *row, ty_ctx_t *ctx, cm_buf_t *out)
{
    if (!df__row_items(types, TY_INVALID, ncols, row, ctx, out, 0))
        return false;
    if (out->failed)
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "row too long");
    return true;
}

/* ------------------------------------------------------------ decoding */

typedef struct df_rd {
    const uint8_t *p, *end;
    df_row_mem_t mem;
    ty_ctx_t *ctx;
} df_rd_t;

static bool df__corrupt(df_rd_t *r)
{
    return cm_err_set(r->ctx->err, "XX001", "corrupt row");
}

static bool df__get_varint(df_rd_t *r, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p == r->end)
            return false;
        uint8_t b = *r->p++;
        if (shift == 63 && b > 1)
            return false;
        v |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

static bool df__get_zigzag(df_rd_t *r, int64_t *out)
{
    uint64_t u;
    if (!df__get_varint(r, &u))
        return false;
    *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

static bool df__get_int32(df_rd_t *r, int32_t *out)
{
    int64_t v;
    if (!df__get_zigzag(r, &v) || v < INT32_MIN || v > INT32_MAX)
        return false;
    *out = (int32_t)v;
    return true;
}

static bool df__get_bytes(df_rd_t *r, const uint8_t **p, size_t *len)
{
    uint64_t n;
    if (!df__get_varint(r, &n) || n > (uint64_t)(r->end - r->p) || n > UINT32_MAX)
        return false;
    *p = r->p;
    *len = (size_t)n;
    r->p += n;
    return true;
}

static bool df__rd_items(df_rd_t *r, const ty_oid_t *types, ty_oid_t one_type, int n, ty_datum_t *items,
                         int depth);

static bool df__rd_value(df_rd_t *r, ty_oid_t type, ty_datum_t *d, int depth)
{
    memset(d, 0, sizeof(*d));
    switch (type) {
    case TY_BOOL:
        if (r->p == r->end || *r->p > 1)
            return false;
        d->v.b = *r->p++ == 1;
        return true;
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
    case TY_OID:
    case TY_REGPROC:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE:
    case TY_DATE:
    case TY_TIME:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: return df__get_zigzag(r, &d->v.i);
    case TY_FLOAT4:
    case TY_FLOAT8: {
        if (r->end - r->p < 8)
            return false;
        uint64_t u = 0;
        for (int i = 7; i >= 0; i--)
            u = u << 8 | r->p[i];
        r->p += 8;
        memcpy(&d->v.f, &u, sizeof(u));
        return true;
    }
    case TY_NUMERIC: {
        const uint8_t *p;
        size_t n;
        if (!df__get_bytes(r, &p, &n))
            return false;
        cm_err_t e = {0};
        ty_ctx_t c = *r->ctx;
        c.err = &e;
        bool ok = ty_datum_from_text(TY_NUMERIC, -1, (const char *)p, n, &c, d);
        cm_err_clear(&e);
        return ok;
    }
    case TY_INTERVAL: {
        int64_t us;
        int32_t days, months;
        if (!df__get_zigzag(r, &us) || !df__get_int32(r, &days) || !df__get_int32(r, &months))
            return false;
        d->v.iv.us = us;
        d->v.iv.days = days;
        d->v.iv.months = months;
        return true;
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_CHAR:
    case TY_BYTEA:
    case TY_JSON:
    case TY_JSONB:
    case TY_UNKNOWN: {
        const uint8_t *p;
        size_t n;
        if (!df__get_bytes(r, &p, &n))
            return false;
        if (r->mem == DF_ROW_BORROW || n == 0) {
            d->v.s.p = n ? (const char *)p : "";
        } else {
            char *s = cm_arena_alloc(r->ctx->arena, n);
            memcpy(s, p, n);
            d->v.s.p = s;
        }
        d->v.s.len = (uint32_t)n;
        return true;
    }
    case TY_UUID:
        if (r->end - r->p < 16)
            return false;
        memcpy(d->v.uuid, r->p, 16);
        r->p += 16;
        return true;
    case TY_VOID: return true;
    case TY_RECORD: {
        uint64_t n;
        if (!df__get_varint(r, &n) || n > (uint64_t)(r->end - r->p) || n > INT32_MAX)
            return false;
        ty_record_t *rec = cm_arena_zalloc(r->ctx->arena, sizeof(*rec));
        ty_oid_t *types = cm_arena_alloc(r->ctx->arena, sizeof(*types) * (n ? n : 1));
        ty_datum_t *items = cm_arena_alloc(r->ctx->arena, sizeof(*items) * (n ? n : 1));
        for (uint64_t i = 0; i < n; i++) {
            uint64_t t;
            if (!df__get_varint(r, &t) || t > UINT32_MAX)
                return false;
            types[i] = (ty_oid_t)t;
        }
        rec->ncols = (int)n;
        rec->types = types;
        rec->items = items;
        d->v.rec = rec;
        return df__rd_items(r, types, TY_INVALID, (int)n, items, depth + 1);
    }
    default: break;
    }
    const ty_info_t *ti = ty_info(type);
    if (ti == NULL || ti->category != TY_CAT_ARRAY)
        return false;
    uint64_t elem;
    if (!df__get_varint(r, &elem) || elem > UINT32_MAX || r->p == r->end)
        return false;
    int ndim = *r->p++;
    if (ndim > TY_ARRAY_MAXDIM)
        return false;
    ty_array_t *a = cm_arena_zalloc(r->ctx->arena, sizeof(*a));
    a->elem = (ty_oid_t)elem;
    a->ndim = ndim;
    int64_t nitems = ndim > 0 ? 1 : 0;
    for (int i = 0; i < ndim; i++) {
        if (!df__get_int32(r, &a->dims[i]) || !df__get_int32(r, &a->lbound[i]) || a->dims[i] <= 0)
            return false;
        nitems *= a->dims[i];
        /* Every item takes a byte, or a bit when NULL. */
        if (nitems > 8 * (int64_t)(r->end - r->p))
            return false;
    }
    if (r->p == r->end || *r->p > 1)
        return false;
    bool hasnull = *r->p++ == 1;
    a->nitems = (int)nitems;
    a->hasnull = hasnull;
    ty_datum_t *items = nitems ? cm_arena_alloc(r->ctx->arena, sizeof(*items) * (size_t)nitems) : NULL;
    a->items = items;
    d->v.arr = a;
    if (hasnull) {
        if (!df__rd_items(r, NULL, a->elem, a->nitems, items, depth + 1))
            return false;
        bool any = false;   /* the flag says what the items say, or the bytes are not canonical */
        for (int i = 0; i < a->nitems; i++)
            any |= items[i].isnull;
        return any;
    }
    if (depth + 1 > DF__ROW_DEPTH_MAX)
        return false;
    for (int i = 0; i < a->nitems; i++)
        if (!df__rd_value(r, a->elem, &items[i], depth + 1))
            return false;
    return true;
}

static bool df__rd_items(df_rd_t *r, const ty_oid_t *types, ty_oid_t one_type, int n, ty_datum_t *items, int depth)
{
    if (depth > DF__ROW_DEPTH_MAX)
        return false;
    size_t nb = ((size_t)n + 7) / 8;
    if ((size_t)(r->end - r->p) < nb)
        return false;
    const uint8_t *bits = r->p;
    r->p += nb;
    for (int i = 0; i < n; i++) {
        if (bits[i / 8] & (1u << (i % 8))) {
            memset(&items[i], 0, sizeof(items[i]));
            items[i].isnull = true;
            continue;
        }
        if (!df__rd_value(r, types ? types[i] : one_type, &items[i], depth))
            return false;
    }
    /* Bits past the last item must be clear: one row, one encoding. */
    if (n % 8 != 0 && (bits[nb - 1] >> (n % 8)) != 0)
        return false;
    return true;
}

bool df__row_decode(const ty_oid_t *types, int ncols, const uint8_t *p, size_t len, df_row_mem_t mem,
                    ty_ctx_t *ctx, ty_datum_t *row)
{
    df_rd_t r = {.p = p, .end = p + len, .mem = mem, .ctx = ctx};
    if (!df__rd_items(&r, types, TY_INVALID, ncols, row, 0) || r.p != r.end)
        return df__corrupt(&r);
    return true;
}

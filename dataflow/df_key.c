/*
 * df_key.c: order-preserving key encoding and the shard hash.
 *
 * A key is the concatenation of its columns' encodings. Each column is
 * self-delimiting (no encoding is a prefix of another), so memcmp of two
 * keys stops inside the first column that differs and orders by it alone;
 * each encoding is canonical under SQL equality, so equal keys are equal
 * bytes and hashing or comparing keys needs no types. The first byte of a
 * value is never 0x00 or 0xFF, which are the NULL markers; a DESC column's
 * value bytes are inverted, which reverses the order of any prefix-free code.
 * The order followed is ty_datum_compare's (types/ty_compare.c), which is
 * PostgreSQL's btree order under the C collation.
 */
#include "dataflow/df_store.h"

#include <stdio.h>
#include <stdlib.h>

/* First bytes of the encodings (after the optional inversion, values stay in 0x01..0xFE). */
enum {
    DF__K_BYTES = 0x01,      /* strings, bytea, uuid, floats: tag then payload */
    DF__K_FALSE = 0x02,
    DF__K_TRUE = 0x03,
    DF__K_NUM_NINF = 0x20,   /* numeric: -Infinity < negative < 0 < positive < Infinity < NaN */
    DF__K_NUM_NEG = 0x21,
    DF__K_NUM_ZERO = 0x22,
    DF__K_NUM_POS = 0x23,
    DF__K_NUM_PINF = 0x24,
    DF__K_NUM_NAN = 0x25,
    DF__K_END = 0x01,        /* arrays and records: no more items */
    DF__K_MORE = 0x02,       /*                     another item follows */
};

static bool df__key_unkeyable(ty_oid_t type, cm_err_t *err)
{
    const ty_info_t *ti = ty_info(type);
    char num[16];
    snprintf(num, sizeof(num), "%u", type);
    return cm_err_set(err, CM_ERRCODE_UNDEFINED_FUNCTION, "could not identify an ordering operator for type %s",
                      ti ? ti->sql_name : num);
}

bool df__key_type_check(ty_oid_t type, cm_err_t *err)
{
    const ty_info_t *ti = ty_info(type);
    if (ti == NULL || type == TY_VOID)
        return df__key_unkeyable(type, err);
    if (ti->category == TY_CAT_ARRAY) {
        ty_oid_t elem = ty_array_elem_type(type);
        if (elem == TY_INVALID || ty_info(elem) == NULL || elem == TY_VOID)
            return df__key_unkeyable(type, err);
        return df__key_type_check(elem, err);
    }
    return true;
}

bool df__key_check(const df_keycol_t *cols, int ncols, cm_err_t *err)
{
    for (int i = 0; i < ncols; i++)
        if (!df__key_type_check(cols[i].type, err))
            return false;
    return true;
}

size_t df__key_int64_to(uint8_t *b, int64_t v)
{
    uint64_t u = v >= 0 ? (uint64_t)v : ~(uint64_t)v;
    int n = u ? (64 - __builtin_clzll(u) + 7) / 8 : 0;
    b[0] = v >= 0 ? (uint8_t)(0x80 + n) : (uint8_t)(0x7F - n);
    for (int i = 0; i < n; i++)
        b[1 + i] = (uint8_t)((uint64_t)v >> (8 * (n - 1 - i)));
    return (size_t)n + 1;
}

/* The same for a value of 64 bits, the usual case, without 128-bit arithmetic. */
static void df__key_put_int64(cm_buf_t *out, int64_t v)
{
    if (cm_buf_reserve(out, 9))
        out->len += df__key_int64_to(out->data + out->len, v);
}

void df__key_put_int(cm_buf_t *out, __int128 v)
{
    if (v >= INT64_MIN && v <= INT64_MAX) {
        df__key_put_int64(out, (int64_t)v);
        return;
    }
    /* Non-negative: 0x80 + n, then the n significant bytes of v. Negative:
     * 0x7F - n where n counts the significant bytes of -v - 1, then the low
     * n bytes of v (two's complement), which grow with v for a fixed n.
     * More bytes mean a larger magnitude, so the first byte orders by
     * magnitude class and the rest within it. */
    unsigned __int128 u = v >= 0 ? (unsigned __int128)v : ~(unsigned __int128)v;
    int n = 0;
    while (n < 16 && (u >> (8 * n)) != 0)
        n++;
    uint8_t b[17];
    b[0] = v >= 0 ? (uint8_t)(0x80 + n) : (uint8_t)(0x7F - n);
    unsigned __int128 w = (unsigned __int128)v;
    for (int i = 0; i < n; i++)
        b[1 + i] = (uint8_t)(w >> (8 * (n - 1 - i)));
    cm_buf_put(out, b, (size_t)n + 1);
}

void df__key_put_bytes(cm_buf_t *out, const uint8_t *p, size_t len)
{
    /* 0x00 is escaped as 00 FF and the end is 00 01: a shorter string with
     * the same prefix ends (00 01) before any byte of the longer one (00 FF
     * or >= 01), and no encoding is a prefix of another. */
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (p[i] != 0)
            continue;
        cm_buf_put(out, p + start, i - start + 1);
        cm_buf_put_u8(out, 0xFF);
        start = i + 1;
    }
    cm_buf_put(out, p + start, len - start);
    cm_buf_put_u8(out, 0x00);
    cm_buf_put_u8(out, 0x01);
}

/* The digits of a decimal after the first and before the last non-zero
 * one, as pairs (10 * d1 + d2 + 1, an odd last digit padded with 0), then 00:
 * a sequence that is a prefix of another ends with 00 below any pair. */
static void df__key_put_digits(cm_buf_t *out, const char *digits, size_t n)
{
    for (size_t i = 0; i < n; i += 2) {
        int d1 = digits[i] - '0', d2 = i + 1 < n ? digits[i + 1] - '0' : 0;
        cm_buf_put_u8(out, (uint8_t)(10 * d1 + d2 + 1));
    }
    cm_buf_put_u8(out, 0x00);
}

static bool df__eq(const char *p, size_t len, const char *lit)
{
    size_t n = strlen(lit);
    return len == n && cm_strncasecmp(p, lit, n) == 0;
}

bool df__key_put_decimal(cm_buf_t *out, const char *p, size_t len)
{
    if (df__eq(p, len, "NaN")) {
        cm_buf_put_u8(out, DF__K_NUM_NAN);
        return true;
    }
    if (df__eq(p, len, "Infinity") || df__eq(p, len, "+Infinity")) {
        cm_buf_put_u8(out, DF__K_NUM_PINF);
        return true;
    }
    if (df__eq(p, len, "-Infinity")) {
        cm_buf_put_u8(out, DF__K_NUM_NINF);
        return true;
    }
    size_t i = 0;
    bool neg = false;
    if (i < len && (p[i] == '-' || p[i] == '+'))
        neg = p[i++] == '-';
    /* The value is 0.d1d2... * 10^e with d1 the first non-zero digit. */
    size_t first = 0, last = 0;   /* positions in p of the first and last non-zero digits */
    bool any = false, point = false, digit = false;
    int64_t e = 0;                /* digits before the point, counted from the first non-zero one */
    for (; i < len; i++) {
        char c = p[i];
        if (c == '.' && !point) {
            point = true;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        digit = true;
        if (c != '0') {
            if (!any)
                first = i;
            any = true;
            last = i;
        }
        if (any && !point)
            e++;
        else if (!any && point)
            e--;
    }
    if (!digit)
        return false;
    if (i < len && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (p[i] == '-' || p[i] == '+'))
            eneg = p[i++] == '-';
        if (i == len)
            return false;
        int64_t x = 0;
        for (; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
            x = x * 10 + (p[i] - '0');
            if (x > ((int64_t)1 << 50))
                return false;
        }
        e += eneg ? -x : x;
    }
    if (i != len)
        return false;
    if (!any) {
        cm_buf_put_u8(out, DF__K_NUM_ZERO);
        return true;
    }
    /* The significant digits without the point. */
    char stackbuf[64];
    size_t span = last - first + 1;
    char *digits = span <= sizeof(stackbuf) ? stackbuf : cm_malloc(span);
    size_t nd = 0;
    for (size_t k = first; k <= last; k++)
        if (p[k] != '.')
            digits[nd++] = p[k];
    cm_buf_put_u8(out, neg ? DF__K_NUM_NEG : DF__K_NUM_POS);
    size_t body = out->len;
    df__key_put_int(out, e);
    df__key_put_digits(out, digits, nd);
    if (digits != stackbuf)
        free(digits);
    if (neg && !out->failed)   /* a larger magnitude is a smaller negative */
        for (size_t k = body; k < out->len; k++)
            out->data[k] = (uint8_t)~out->data[k];
    return true;
}

static void df__key_put_float(cm_buf_t *out, double f)
{
    uint64_t u;
    if (f != f)
        u = 0x7FF8000000000000ull;   /* every NaN is one NaN, above +Infinity */
    else {
        if (f == 0)
            f = 0;                   /* -0 = 0 */
        memcpy(&u, &f, sizeof(u));
    }
    /* IEEE order as unsigned order: flip the sign bit of positives, every bit of negatives. */
    u = (u >> 63) ? ~u : u | (1ull << 63);
    uint8_t b[9];
    b[0] = DF__K_BYTES;
    for (int i = 0; i < 8; i++)
        b[1 + i] = (uint8_t)(u >> (56 - 8 * i));
    cm_buf_put(out, b, sizeof(b));
}

static bool df__key_value(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);

/* An item of an array or a record: MORE, then the value or the NULL marker
 * (NULL after every value, two NULLs equal: array_cmp and record_cmp). */
static bool df__key_item(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    cm_buf_put_u8(out, DF__K_MORE);
    if (d->isnull) {
        cm_buf_put_u8(out, DF_KEY_NULL_LAST);
        return true;
    }
    return df__key_value(type, d, ctx, out);
}

static bool df__key_numeric(const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    /* numeric is opaque outside types/: its text has every digit, and
     * df__key_put_decimal drops the scale, so 1.0 and 1.00 meet. */
    cm_buf_t txt;
    cm_buf_init(&txt, 0);
    bool ok = ty_datum_to_text(TY_NUMERIC, d, ctx, &txt) && !txt.failed;
    if (ok && !df__key_put_decimal(out, (const char *)txt.data, txt.len))
        ok = cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "numeric printed as \"%.*s\" cannot be keyed",
                        (int)txt.len, (const char *)txt.data);
    cm_buf_free(&txt);
    return ok;
}

/* The ascending encoding of a value that is not NULL. */
static bool df__key_value(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    switch (type) {
    case TY_BOOL: cm_buf_put_u8(out, d->v.b ? DF__K_TRUE : DF__K_FALSE); return true;
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
    case TY_DATE:
    case TY_TIME:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: df__key_put_int(out, d->v.i); return true;
    case TY_OID:
    case TY_REGPROC:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE: df__key_put_int(out, (uint32_t)d->v.i); return true;
    case TY_FLOAT4:
    case TY_FLOAT8: df__key_put_float(out, d->v.f); return true;
    case TY_NUMERIC: return df__key_numeric(d, ctx, out);
    case TY_INTERVAL: {
        /* PostgreSQL compares intervals by their span, a month being 30 days. */
        __int128 span = (__int128)d->v.iv.us +
                        ((__int128)d->v.iv.days + (__int128)d->v.iv.months * 30) * ((__int128)86400 * 1000000);
        df__key_put_int(out, span);
        return true;
    }
    case TY_BPCHAR: {
        size_t n = d->v.s.len;   /* trailing spaces are insignificant */
        while (n > 0 && d->v.s.p[n - 1] == ' ')
            n--;
        cm_buf_put_u8(out, DF__K_BYTES);
        df__key_put_bytes(out, (const uint8_t *)d->v.s.p, n);
        return true;
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_BYTEA:
    case TY_CHAR:
    case TY_JSON:
        cm_buf_put_u8(out, DF__K_BYTES);
        df__key_put_bytes(out, (const uint8_t *)d->v.s.p, d->v.s.len);
        return true;
    case TY_JSONB: return df__key_put_jsonb(out, d->v.s.p, d->v.s.len, ctx);
    case TY_UUID:
        cm_buf_put_u8(out, DF__K_BYTES);
        cm_buf_put(out, d->v.uuid, 16);
        return true;
    case TY_RECORD: {
        /* Columns in order, then END: a record that is a prefix of another is smaller. */
        const ty_record_t *r = d->v.rec;
        for (int i = 0; i < r->ncols; i++)
            if (!df__key_item(r->types[i], &r->items[i], ctx, out))
                return false;
        cm_buf_put_u8(out, DF__K_END);
        return true;
    }
    default: break;
    }
    const ty_info_t *ti = ty_info(type);
    if (ti == NULL || ti->category != TY_CAT_ARRAY)
        return df__key_unkeyable(type, ctx->err);
    /* array_cmp: the elements, then their number (END before MORE), then the
     * number of dimensions, then each dimension's length and lower bound. */
    const ty_array_t *a = d->v.arr;
    for (int i = 0; i < a->nitems; i++)
        if (!df__key_item(a->elem, &a->items[i], ctx, out))
            return false;
    cm_buf_put_u8(out, DF__K_END);
    df__key_put_int(out, a->ndim);
    for (int i = 0; i < a->ndim; i++) {
        df__key_put_int(out, a->dims[i]);
        df__key_put_int(out, a->lbound[i]);
    }
    return true;
}

bool df__key_encode_datum(ty_oid_t type, bool desc, bool nulls_first, const ty_datum_t *d, ty_ctx_t *ctx,
                          cm_buf_t *out)
{
    if (d->isnull) {
        cm_buf_put_u8(out, nulls_first ? DF_KEY_NULL_FIRST : DF_KEY_NULL_LAST);
        return true;
    }
    size_t start = out->len;
    if (!df__key_value(type, d, ctx, out))
        return false;
    if (desc && !out->failed)
        for (size_t k = start; k < out->len; k++)
            out->data[k] = (uint8_t)~out->data[k];
    return true;
}

bool df__key_encode(const df_keycol_t *cols, int ncols, const ty_datum_t *row, ty_ctx_t *ctx, cm_buf_t *out)
{
    for (int i = 0; i < ncols; i++)
        if (!df__key_encode_datum(cols[i].type, cols[i].desc, cols[i].nulls_first, &row[cols[i].col], ctx, out))
            return false;
    if (out->failed)
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "key too long");
    return true;
}

/* ------------------------------------------------------------- the hash */

static inline uint64_t df__load64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)   /* little-endian on every machine, so shards agree */
        v = v << 8 | p[i];
    return v;
}

static inline uint64_t df__fmix(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 31;
    return h;
}

uint64_t df__hash(const void *p, size_t len)
{
    /* Each step (xor a word, multiply by an odd constant, xor-shift) is a
     * bijection of the state, so no word's contribution is ever lost; the
     * splitmix64 finalizer spreads the last one over every bit. */
    const uint8_t *s = p;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ ((uint64_t)len * 0xC2B2AE3D27D4EB4Full);
    while (len >= 8) {
        h ^= df__load64(s);
        h *= 0x9FB21C651E98DF25ull;
        h ^= h >> 29;
        s += 8;
        len -= 8;
    }
    if (len > 0) {
        uint64_t tail = 0;   /* the last bytes as df__load64 reads them, zeros after */
        for (size_t i = 0; i < len; i++)
            tail |= (uint64_t)s[i] << (8 * i);
        h ^= tail;
        h *= 0x9FB21C651E98DF25ull;
        h ^= h >> 29;
    }
    return df__fmix(h);
}

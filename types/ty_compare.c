/*
 * ty_compare.c: total ordering, hashing and copying of datums, used by
 * ORDER BY, DISTINCT, joins and grouping. Text compares bytewise, which is
 * what PostgreSQL does under the C and C.UTF-8 collations; bpchar ignores
 * trailing spaces; floats put NaN above everything as PostgreSQL does.
 */
#include "types/ty_internal.h"

#include <string.h>

static int ty__cmp_bytes(const char *a, size_t al, const char *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return al < bl ? -1 : al > bl;
}

static int ty__cmp_float(double a, double b)
{
    bool an = a != a, bn = b != b;
    if (an || bn)
        return an && bn ? 0 : an ? 1 : -1;
    return a < b ? -1 : a > b;
}

int ty_datum_compare(ty_oid_t type, const ty_datum_t *a, const ty_datum_t *b)
{
    if (a->isnull || b->isnull)
        return a->isnull && b->isnull ? 0 : a->isnull ? 1 : -1;
    switch (type) {
    case TY_BOOL: return (int)a->v.b - (int)b->v.b;
    case TY_FLOAT4:
    case TY_FLOAT8: return ty__cmp_float(a->v.f, b->v.f);
    case TY_NUMERIC: return ty_num_cmp(a->v.n, b->v.n);
    case TY_BPCHAR:
        return ty__cmp_bytes(a->v.s.p, ty_bpchar_len(a->v.s.p, a->v.s.len), b->v.s.p,
                             ty_bpchar_len(b->v.s.p, b->v.s.len));
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_BYTEA:
    case TY_CHAR:
    case TY_JSON: return ty__cmp_bytes(a->v.s.p, a->v.s.len, b->v.s.p, b->v.s.len);
    case TY_JSONB: return ty_jsonb_cmp(a, b);
    case TY_UUID: {
        int c = memcmp(a->v.uuid, b->v.uuid, 16);
        return c < 0 ? -1 : c > 0;
    }
    case TY_INTERVAL: return ty_interval_cmp(&a->v.iv, &b->v.iv);
    case TY_OID:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGNAMESPACE:
    case TY_REGPROC: return (uint32_t)a->v.i < (uint32_t)b->v.i ? -1 : (uint32_t)a->v.i > (uint32_t)b->v.i;
    case TY_RECORD: return ty_record_cmp(a, b);
    default:
        if (ty_is_array_type(type))
            return ty_array_cmp(a, b);
        return a->v.i < b->v.i ? -1 : a->v.i > b->v.i;
    }
}

static uint64_t ty__fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t ty_datum_hash(ty_oid_t type, const ty_datum_t *d)
{
    if (d->isnull)
        return 0;
    uint64_t h = 1469598103934665603ull;
    switch (type) {
    case TY_BOOL: return ty__fnv(h, &d->v.b, 1);
    case TY_FLOAT4:
    case TY_FLOAT8: {
        double f = d->v.f;
        if (f == 0)
            f = 0;   /* -0 equals 0 */
        if (f != f)
            return 0x7ff8;
        return ty__fnv(h, &f, sizeof(f));
    }
    case TY_NUMERIC: return ty_num_hash(d->v.n);
    case TY_BPCHAR: return ty__fnv(h, d->v.s.p, ty_bpchar_len(d->v.s.p, d->v.s.len));
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_BYTEA:
    case TY_CHAR:
    case TY_JSON: return ty__fnv(h, d->v.s.p, d->v.s.len);
    case TY_JSONB: return ty_jsonb_hash(d);
    case TY_UUID: return ty__fnv(h, d->v.uuid, 16);
    case TY_INTERVAL: {
        /* Equal intervals may differ in fields (1 day vs 24 hours): hash the span. */
        __int128 span = (__int128)d->v.iv.us + ((__int128)d->v.iv.days + (__int128)d->v.iv.months * 30) * TY_USECS_PER_DAY;
        return ty__fnv(h, &span, sizeof(span));
    }
    case TY_RECORD: return ty_record_hash(d);
    default:
        if (ty_is_array_type(type))
            return ty_array_hash(d);
        return ty__fnv(h, &d->v.i, sizeof(d->v.i));
    }
}

ty_datum_t ty_datum_copy(ty_oid_t type, const ty_datum_t *d, cm_arena_t *a)
{
    ty_datum_t r = *d;
    if (d->isnull)
        return r;
    switch (type) {
    case TY_NUMERIC: {
        ty_numeric_t *n = cm_arena_alloc(a, sizeof(*n));
        *n = *d->v.n;
        if (n->mag.n > 0) {
            n->mag.d = cm_arena_alloc(a, sizeof(uint32_t) * (size_t)n->mag.n);
            memcpy(n->mag.d, d->v.n->mag.d, sizeof(uint32_t) * (size_t)n->mag.n);
        }
        r.v.n = n;
        return r;
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_BYTEA:
    case TY_CHAR:
    case TY_JSON:
    case TY_JSONB: return ty_text_datum(a, d->v.s.p, d->v.s.len);
    case TY_RECORD: return ty_record_copy(d, a);
    default: return ty_is_array_type(type) ? ty_array_copy(d, a) : r;
    }
}

/*
 * ty_func_hash.c: PostgreSQL's hash support functions as SQL sees them
 * (hashtext, hashbpchar, hashname, hashchar, hashint2/4/8, hashoid and the
 * *extended forms with a seed). Users call them to spread rows over
 * partitions or buckets and compare the numbers with PostgreSQL's, so the
 * values must be PostgreSQL's bit for bit: its hash_bytes is Bob Jenkins'
 * lookup3 hash with PostgreSQL's own initial value (length + 3923095 on top
 * of the golden ratio) and little-endian byte order for the tail, which this
 * file reproduces from the algorithm's description. Text is hashed as its
 * bytes (the default collation is deterministic); bpchar without its
 * trailing spaces, which it ignores in comparisons too.
 */
#include "types/ty_internal.h"

#define FN TY_FN_STRICT

static inline uint32_t ty__rot(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

/* lookup3's mix: reversibly folds three words of input into the state. */
#define TY_HASH_MIX(a, b, c)                          \
    do {                                              \
        a -= c; a ^= ty__rot(c, 4);  c += b;          \
        b -= a; b ^= ty__rot(a, 6);  a += c;          \
        c -= b; c ^= ty__rot(b, 8);  b += a;          \
        a -= c; a ^= ty__rot(c, 16); c += b;          \
        b -= a; b ^= ty__rot(a, 19); a += c;          \
        c -= b; c ^= ty__rot(b, 4);  b += a;          \
    } while (0)

/* lookup3's final: the avalanche that makes every input bit affect c (and b). */
#define TY_HASH_FINAL(a, b, c)                        \
    do {                                              \
        c ^= b; c -= ty__rot(b, 14);                  \
        a ^= c; a -= ty__rot(c, 11);                  \
        b ^= a; b -= ty__rot(a, 25);                  \
        c ^= b; c -= ty__rot(b, 16);                  \
        a ^= c; a -= ty__rot(c, 4);                   \
        b ^= a; b -= ty__rot(a, 14);                  \
        c ^= b; c -= ty__rot(b, 24);                  \
    } while (0)

static uint32_t ty__le32(const uint8_t *k)
{
    return (uint32_t)k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
}

/* hash_bytes_extended (seed 0 gives hash_bytes in the low word): returns b:c. */
static uint64_t ty__hash_bytes(const uint8_t *k, size_t keylen, uint64_t seed)
{
    uint32_t len = (uint32_t)keylen;
    uint32_t a, b, c;
    a = b = c = 0x9e3779b9u + len + 3923095u;
    if (seed != 0) {
        a += (uint32_t)(seed >> 32);
        b += (uint32_t)seed;
        TY_HASH_MIX(a, b, c);
    }
    while (len >= 12) {
        a += ty__le32(k);
        b += ty__le32(k + 4);
        c += ty__le32(k + 8);
        TY_HASH_MIX(a, b, c);
        k += 12;
        len -= 12;
    }
    /* The tail as a little-endian machine reads it; c's lowest byte stays clear. */
    switch (len) {
    case 11: c += (uint32_t)k[10] << 24; /* fall through */
    case 10: c += (uint32_t)k[9] << 16;  /* fall through */
    case 9: c += (uint32_t)k[8] << 8;    /* fall through */
    case 8: b += (uint32_t)k[7] << 24;   /* fall through */
    case 7: b += (uint32_t)k[6] << 16;   /* fall through */
    case 6: b += (uint32_t)k[5] << 8;    /* fall through */
    case 5: b += k[4];                   /* fall through */
    case 4: a += (uint32_t)k[3] << 24;   /* fall through */
    case 3: a += (uint32_t)k[2] << 16;   /* fall through */
    case 2: a += (uint32_t)k[1] << 8;    /* fall through */
    case 1: a += k[0];                   /* fall through */
    default: break;
    }
    TY_HASH_FINAL(a, b, c);
    return (uint64_t)b << 32 | c;
}

/* hash_bytes_uint32_extended: one word without the byte loop. */
static uint64_t ty__hash_u32(uint32_t k, uint64_t seed)
{
    uint32_t a, b, c;
    a = b = c = 0x9e3779b9u + 4u + 3923095u;
    if (seed != 0) {
        a += (uint32_t)(seed >> 32);
        b += (uint32_t)seed;
        TY_HASH_MIX(a, b, c);
    }
    a += k;
    TY_HASH_FINAL(a, b, c);
    return (uint64_t)b << 32 | c;
}

/* hashint8 folds the high half into the low one so that int8 values equal to
 * int4 values hash alike (cross-type hash joins rely on it). */
static uint32_t ty__fold_int8(int64_t v)
{
    uint32_t lo = (uint32_t)(uint64_t)v, hi = (uint32_t)((uint64_t)v >> 32);
    return lo ^ (v >= 0 ? hi : ~hi);
}

static void ty__int4_out(ty_datum_t *o, uint64_t h) { o->v.i = (int32_t)(uint32_t)h; }
static void ty__int8_out(ty_datum_t *o, uint64_t h) { o->v.i = (int64_t)h; }

static size_t ty__text_len(const ty_datum_t *d, bool bpchar)
{
    return bpchar ? ty_bpchar_len(d->v.s.p, d->v.s.len) : d->v.s.len;
}

static bool ty__hashtext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int4_out(o, ty__hash_bytes((const uint8_t *)a[0].v.s.p, ty__text_len(&a[0], false), 0));
    return true;
}

static bool ty__hashbpchar(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int4_out(o, ty__hash_bytes((const uint8_t *)a[0].v.s.p, ty__text_len(&a[0], true), 0));
    return true;
}

static bool ty__hashtext_ext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int8_out(o, ty__hash_bytes((const uint8_t *)a[0].v.s.p, ty__text_len(&a[0], false), (uint64_t)a[1].v.i));
    return true;
}

static bool ty__hashbpchar_ext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int8_out(o, ty__hash_bytes((const uint8_t *)a[0].v.s.p, ty__text_len(&a[0], true), (uint64_t)a[1].v.i));
    return true;
}

/* hashint2, hashint4, hashoid, hashchar: the value as a (sign-extended) 32-bit word. */
static bool ty__hashint4(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int4_out(o, ty__hash_u32((uint32_t)a[0].v.i, 0));
    return true;
}

static bool ty__hashint4_ext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int8_out(o, ty__hash_u32((uint32_t)a[0].v.i, (uint64_t)a[1].v.i));
    return true;
}

/* "char" is one byte, signed in C as PostgreSQL stores it. */
static bool ty__hashchar(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int8_t ch = a[0].v.s.len > 0 ? (int8_t)a[0].v.s.p[0] : 0;
    ty__int4_out(o, ty__hash_u32((uint32_t)(int32_t)ch, 0));
    return true;
}

static bool ty__hashchar_ext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int8_t ch = a[0].v.s.len > 0 ? (int8_t)a[0].v.s.p[0] : 0;
    ty__int8_out(o, ty__hash_u32((uint32_t)(int32_t)ch, (uint64_t)a[1].v.i));
    return true;
}

static bool ty__hashint8(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int4_out(o, ty__hash_u32(ty__fold_int8(a[0].v.i), 0));
    return true;
}

static bool ty__hashint8_ext(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int8_out(o, ty__hash_u32(ty__fold_int8(a[0].v.i), (uint64_t)a[1].v.i));
    return true;
}

static const ty_func_t ty__hash[] = {
    {"hashtext", 1, {TY_TEXT}, TY_INT4, FN, ty__hashtext, 400},
    {"hashtextextended", 2, {TY_TEXT, TY_INT8}, TY_INT8, FN, ty__hashtext_ext, 448},
    {"hashbpchar", 1, {TY_BPCHAR}, TY_INT4, FN, ty__hashbpchar, 1080},
    {"hashbpcharextended", 2, {TY_BPCHAR, TY_INT8}, TY_INT8, FN, ty__hashbpchar_ext, 972},
    {"hashname", 1, {TY_NAME}, TY_INT4, FN, ty__hashtext, 455},
    {"hashnameextended", 2, {TY_NAME, TY_INT8}, TY_INT8, FN, ty__hashtext_ext, 447},
    {"hashchar", 1, {TY_CHAR}, TY_INT4, FN, ty__hashchar, 454},
    {"hashcharextended", 2, {TY_CHAR, TY_INT8}, TY_INT8, FN, ty__hashchar_ext, 446},
    {"hashint2", 1, {TY_INT2}, TY_INT4, FN, ty__hashint4, 449},
    {"hashint2extended", 2, {TY_INT2, TY_INT8}, TY_INT8, FN, ty__hashint4_ext, 441},
    {"hashint4", 1, {TY_INT4}, TY_INT4, FN, ty__hashint4, 450},
    {"hashint4extended", 2, {TY_INT4, TY_INT8}, TY_INT8, FN, ty__hashint4_ext, 425},
    {"hashint8", 1, {TY_INT8}, TY_INT4, FN, ty__hashint8, 949},
    {"hashint8extended", 2, {TY_INT8, TY_INT8}, TY_INT8, FN, ty__hashint8_ext, 442},
    {"hashoid", 1, {TY_OID}, TY_INT4, FN, ty__hashint4, 453},
    {"hashoidextended", 2, {TY_OID, TY_INT8}, TY_INT8, FN, ty__hashint4_ext, 445},
};

const ty_func_table_t ty_funcs_hash = {ty__hash, CM_ARRAY_LEN(ty__hash)};

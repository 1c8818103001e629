/*
 * test_dataflow_keys.c: the storage layer's encodings (dataflow/df_key.c,
 * df_key_json.c, df_row.c), checked as properties over many seeded random
 * and edge values of every type: memcmp of two keys has the sign of
 * ty_datum_compare (reversed for DESC, NULLs where the flags put them, column
 * by column for multi-column keys) and keys are equal exactly when the values
 * are SQL-equal; a row decodes to exactly the datums it was encoded from and
 * equal rows encode to equal bytes; corrupt row bytes are refused, never
 * crash; types that cannot be keyed are refused with an error.
 */
#include "dataflow/df_store.h"
#include "tests/unit/unit.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

static cm_arena_t arena;
static cm_err_t err;
static ty_settings_t settings;
static ty_ctx_t ctx;

static void setup(void)
{
    static bool inited;
    if (inited)
        cm_arena_free(&arena);
    inited = true;
    cm_arena_init(&arena, 64 * 1024);
    ty_settings_default(&settings);
    memset(&ctx, 0, sizeof(ctx));
    ctx.arena = &arena;
    ctx.settings = &settings;
    ctx.err = &err;
    cm_err_clear(&err);
}

/* ------------------------------------------------------------ random values */

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

/* An integer in [lo, hi] of random magnitude, so every byte length of the key form is met. */
static int64_t rnd_int(int64_t lo, int64_t hi)
{
    int bits = (int)rnd_below(65);
    uint64_t m = bits == 0 ? 0 : bits == 64 ? rnd() : rnd() & ((1ull << bits) - 1);
    int64_t v = (int64_t)m;
    if (rnd() & 1)
        v = (int64_t)(0 - (uint64_t)v);
    if (v < lo || v > hi) {
        uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;   /* 0: the whole range */
        v = (int64_t)((uint64_t)lo + (span ? rnd() % span : rnd()));
    }
    return v;
}

static ty_datum_t parse(ty_oid_t type, const char *text)
{
    ty_datum_t d;
    cm_err_clear(&err);
    if (!ty_datum_from_text(type, -1, text, strlen(text), &ctx, &d)) {
        printf("  setup: %s does not parse as %u: %s\n", text, type, err.message);
        memset(&d, 0, sizeof(d));
        d.isnull = true;
    }
    return d;
}

static ty_datum_t str_datum(const char *p, size_t n)
{
    ty_datum_t d;
    memset(&d, 0, sizeof(d));
    char *s = cm_arena_alloc(&arena, n ? n : 1);
    memcpy(s, p, n);
    d.v.s.p = s;
    d.v.s.len = (uint32_t)n;
    return d;
}

/* Bytes from a small alphabet: prefixes, NULs, 0xFF and equal strings are frequent. */
static ty_datum_t rnd_bytes(bool nul_ok, bool spaces)
{
    static const char alpha[] = {'a', 'b', '\x01', '\xff', '\xfe', 'a', ' ', '\0'};
    char buf[8];
    size_t n = rnd_below(7);
    for (size_t i = 0; i < n; i++) {
        char c = alpha[rnd_below(nul_ok ? 8 : 7)];
        buf[i] = c == ' ' && !spaces ? 'b' : c;
    }
    return str_datum(buf, n);
}

static char *rnd_decimal_text(void)
{
    switch (rnd_below(16)) {
    case 0: return "NaN";
    case 1: return "Infinity";
    case 2: return "-Infinity";
    case 3: return rnd_below(2) ? "0" : "0.000";
    default: break;
    }
    char buf[128];
    size_t n = 0;
    if (rnd_below(2))
        buf[n++] = '-';
    size_t ni = rnd_below(4) == 0 ? rnd_below(30) : rnd_below(4);
    static const char dig[] = "0019";
    if (ni == 0)
        buf[n++] = '0';
    for (size_t i = 0; i < ni; i++)
        buf[n++] = dig[rnd_below(4)];
    size_t nf = rnd_below(4) == 0 ? rnd_below(30) : rnd_below(5);
    if (nf > 0) {
        buf[n++] = '.';
        for (size_t i = 0; i < nf; i++)
            buf[n++] = dig[rnd_below(4)];
    }
    buf[n] = 0;
    return cm_arena_strdup(&arena, buf);
}

static ty_datum_t rnd_value(ty_oid_t type, int depth);

/* JSON text: every kind, nested, with escapes, equal numbers spelt differently, duplicate keys. */
static void rnd_json_text(int depth, cm_buf_t *b)
{
    int k = (int)rnd_below(depth > 2 ? 5 : 7);
    switch (k) {
    case 0: cm_buf_put_str(b, "null"); return;
    case 1: cm_buf_put_str(b, rnd_below(2) ? "true" : "false"); return;
    case 2: {
        static const char *nums[] = {"1", "1.0", "1.00", "-1", "0", "-0", "0.5", "10", "1e1", "2.50", "-2.5",
                                     "123456789012345678901234567890", "1e-3", "0.001"};
        cm_buf_put_str(b, nums[rnd_below(CM_ARRAY_LEN(nums))]);
        return;
    }
    case 3:
    case 4: {
        static const char *strs[] = {"\"\"", "\"a\"", "\"b\"", "\"ab\"", "\"a\\\"b\"", "\"\\u00e9\"", "\"\xc3\xa9\"",
                                     "\"\\n\"", "\"\\ud83d\\ude00\"", "\"aa\"", "\"\\u0001\""};
        cm_buf_put_str(b, strs[rnd_below(CM_ARRAY_LEN(strs))]);
        return;
    }
    case 5: {
        size_t n = rnd_below(4);
        cm_buf_put_u8(b, '[');
        for (size_t i = 0; i < n; i++) {
            if (i)
                cm_buf_put_u8(b, ',');
            rnd_json_text(depth + 1, b);
        }
        cm_buf_put_u8(b, ']');
        return;
    }
    default: {
        static const char *keys[] = {"\"a\"", "\"b\"", "\"aa\"", "\"\"", "\"ba\""};
        size_t n = rnd_below(4);
        cm_buf_put_u8(b, '{');
        for (size_t i = 0; i < n; i++) {
            if (i)
                cm_buf_put_u8(b, ',');
            cm_buf_put_str(b, keys[rnd_below(CM_ARRAY_LEN(keys))]);
            cm_buf_put_u8(b, ':');
            rnd_json_text(depth + 1, b);
        }
        cm_buf_put_u8(b, '}');
        return;
    }
    }
}

static const ty_oid_t rec_types[] = {TY_INT4, TY_TEXT, TY_NUMERIC};

static ty_datum_t rnd_value(ty_oid_t type, int depth)
{
    ty_datum_t d;
    memset(&d, 0, sizeof(d));
    switch (type) {
    case TY_BOOL: d.v.b = rnd() & 1; return d;
    case TY_INT2: {
        static const int64_t e[] = {INT16_MIN, INT16_MIN + 1, -257, -256, -255, -1, 0, 1, 255, 256, INT16_MAX};
        d.v.i = rnd_below(3) == 0 ? e[rnd_below(CM_ARRAY_LEN(e))] : rnd_int(INT16_MIN, INT16_MAX);
        return d;
    }
    case TY_INT4:
    case TY_DATE: {
        static const int64_t e[] = {INT32_MIN, INT32_MIN + 1, -65537, -65536, -1, 0, 1, 65535, 65536, INT32_MAX - 1, INT32_MAX};
        d.v.i = rnd_below(3) == 0 ? e[rnd_below(CM_ARRAY_LEN(e))] : rnd_int(INT32_MIN, INT32_MAX);
        return d;
    }
    case TY_INT8:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ: {
        static const int64_t e[] = {INT64_MIN, INT64_MIN + 1, -4294967296LL, -1, 0, 1, 4294967296LL, INT64_MAX - 1, INT64_MAX};
        d.v.i = rnd_below(3) == 0 ? e[rnd_below(CM_ARRAY_LEN(e))] : rnd_int(INT64_MIN, INT64_MAX);
        return d;
    }
    case TY_TIME: d.v.i = rnd_below(3) == 0 ? (int64_t)rnd_below(2) * 86400000000LL : (int64_t)rnd_below(86400000001ULL); return d;
    case TY_OID:
    case TY_REGCLASS:
    case TY_REGTYPE:
    case TY_REGPROC:
    case TY_REGNAMESPACE: {
        static const int64_t e[] = {0, 1, 255, 256, 2147483647, 2147483648LL, 4294967295LL};
        d.v.i = rnd_below(3) == 0 ? e[rnd_below(CM_ARRAY_LEN(e))] : (int64_t)(uint32_t)rnd_int(0, UINT32_MAX);
        return d;
    }
    case TY_FLOAT4:
    case TY_FLOAT8: {
        static const double e[] = {0.0, -0.0, 1.0, -1.0, 0.1, -0.1, DBL_MIN, -DBL_MIN, DBL_MAX, -DBL_MAX,
                                   4.9e-324, -4.9e-324, INFINITY, -INFINITY, NAN, FLT_MAX, FLT_MIN};
        double f;
        switch (rnd_below(3)) {
        case 0: f = e[rnd_below(CM_ARRAY_LEN(e))]; break;
        case 1: {
            uint64_t u = rnd();   /* any bit pattern: NaNs with payloads, denormals, both signs */
            memcpy(&f, &u, sizeof(f));
            break;
        }
        default: f = (double)rnd_int(-1000, 1000) / 8; break;
        }
        if (type == TY_FLOAT4)
            f = f != f ? f : (double)(float)f;
        d.v.f = f;
        return d;
    }
    case TY_NUMERIC: {
        const char *t = rnd_decimal_text();
        return parse(TY_NUMERIC, t);
    }
    case TY_INTERVAL: {
        switch (rnd_below(4)) {
        case 0: {
            /* One span spelt several ways: 1 month = 30 days = 720 hours. */
            int64_t k = rnd_int(-3, 3);
            int w = (int)rnd_below(3);
            d.v.iv.months = w == 0 ? (int32_t)k : 0;
            d.v.iv.days = w == 1 ? (int32_t)(30 * k) : 0;
            d.v.iv.us = w == 2 ? k * 30 * 86400000000LL : 0;
            return d;
        }
        case 1:
            d.v.iv.months = rnd_below(2) ? INT32_MAX : INT32_MIN;
            d.v.iv.days = rnd_below(2) ? INT32_MAX : INT32_MIN;
            d.v.iv.us = rnd_below(2) ? INT64_MAX : INT64_MIN;
            return d;
        default:
            d.v.iv.months = (int32_t)rnd_int(-24, 24);
            d.v.iv.days = (int32_t)rnd_int(-60, 60);
            d.v.iv.us = rnd_int(INT64_MIN / 4, INT64_MAX / 4) / (rnd_below(2) ? 1 : 1000000000);
            return d;
        }
    }
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_NAME:
    case TY_UNKNOWN:
    case TY_JSON: return rnd_bytes(false, true);
    case TY_BYTEA: return rnd_bytes(true, true);
    case TY_BPCHAR: return rnd_bytes(false, true);
    case TY_CHAR: {
        char c = rnd_below(4) == 0 ? 0 : "a\x01\xff"[rnd_below(3)];
        return str_datum(&c, c == 0 ? 0 : 1);
    }
    case TY_UUID:
        for (int i = 0; i < 16; i++)
            d.v.uuid[i] = (uint8_t)"\x00\x01\x7f\xff"[rnd_below(4)];
        return d;
    case TY_JSONB: {
        cm_buf_t b;
        cm_buf_init(&b, 0);
        rnd_json_text(0, &b);
        ty_datum_t j = parse(TY_JSONB, cm_arena_strndup(&arena, (const char *)b.data, b.len));
        cm_buf_free(&b);
        return j;
    }
    case TY_RECORD: {
        int n = (int)rnd_below(4);
        ty_record_t *r = cm_arena_zalloc(&arena, sizeof(*r));
        ty_datum_t *items = cm_arena_alloc(&arena, sizeof(*items) * 4);
        for (int i = 0; i < n; i++) {
            items[i] = rnd_below(5) == 0 ? (ty_datum_t){.isnull = true} : rnd_value(rec_types[i], depth + 1);
        }
        r->ncols = n;
        r->types = rec_types;
        r->items = items;
        d.v.rec = r;
        return d;
    }
    default: break;
    }
    ty_oid_t elem = ty_array_elem_type(type);
    CM_ASSERT(elem != TY_INVALID);
    if (rnd_below(6) == 0) {
        /* Several dimensions and lower bounds, as text writes them. */
        static const char *multi[] = {"{{1,2},{3,4}}", "{{1,2}}", "{{1},{2}}", "[0:1]={1,2}", "[2:3]={1,2}",
                                      "{1,2}", "{}", "{{NULL,1},{2,3}}"};
        if (elem == TY_INT4 || elem == TY_INT8 || elem == TY_NUMERIC || elem == TY_TEXT)
            return parse(type, multi[rnd_below(CM_ARRAY_LEN(multi))]);
    }
    int n = (int)rnd_below(4);
    ty_datum_t items[4];
    for (int i = 0; i < n; i++)
        items[i] = rnd_below(5) == 0 ? (ty_datum_t){.isnull = true} : rnd_value(elem, depth + 1);
    return ty_array_make(&arena, elem, items, n);
}

/* The types keys are tested over. */
static const ty_oid_t key_types[] = {
    TY_BOOL, TY_INT2, TY_INT4, TY_INT8, TY_OID, TY_REGCLASS, TY_REGTYPE, TY_REGPROC, TY_REGNAMESPACE,
    TY_FLOAT4, TY_FLOAT8, TY_NUMERIC, TY_TEXT, TY_VARCHAR, TY_BPCHAR, TY_NAME, TY_CHAR, TY_BYTEA, TY_UNKNOWN,
    TY_JSON, TY_JSONB, TY_DATE, TY_TIME, TY_TIMESTAMP, TY_TIMESTAMPTZ, TY_INTERVAL, TY_UUID, TY_RECORD,
    TY_INT4_ARRAY, TY_INT8_ARRAY, TY_TEXT_ARRAY, TY_NUMERIC_ARRAY, TY_FLOAT8_ARRAY, TY_BPCHAR_ARRAY,
    TY_INTERVAL_ARRAY, TY_JSONB_ARRAY, TY_UUID_ARRAY, TY_BOOL_ARRAY, TY_BYTEA_ARRAY,
};

static int sign(int c)
{
    return c < 0 ? -1 : c > 0;
}

static uint8_t *encode(ty_oid_t type, bool desc, bool nulls_first, const ty_datum_t *d, size_t *len)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_err_clear(&err);
    bool ok = df__key_encode_datum(type, desc, nulls_first, d, &ctx, &b);
    if (!ok)
        printf("  encode of type %u failed: %s\n", type, err.message ? err.message : "?");
    UNIT_CHECK(ok);
    uint8_t *p = cm_arena_alloc(&arena, b.len ? b.len : 1);
    memcpy(p, b.data, b.len);
    *len = b.len;
    cm_buf_free(&b);
    return p;
}

/* The order the flags ask for: NULLs at their end, DESC reversing only values. */
static int expected(ty_oid_t type, bool desc, bool nulls_first, const ty_datum_t *a, const ty_datum_t *b)
{
    if (a->isnull || b->isnull) {
        if (a->isnull && b->isnull)
            return 0;
        return a->isnull == nulls_first ? -1 : 1;
    }
    int c = sign(ty_datum_compare(type, a, b));
    return desc ? -c : c;
}

static const char *show(ty_oid_t type, const ty_datum_t *d)
{
    if (d->isnull)
        return "NULL";
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_err_t e = {0};
    ty_ctx_t c = ctx;
    c.err = &e;
    const char *s = ty_datum_to_text(type, d, &c, &b) ? cm_arena_strndup(&arena, (const char *)b.data, b.len)
                                                       : "<unprintable>";
    cm_err_clear(&e);
    cm_buf_free(&b);
    return s;
}

#define NVALUES 240

/* For every type: all pairs of NVALUES values (with NULLs), under all four flag combinations. */
static void keys_order_per_type(void)
{
    setup();
    rng_state = 42;
    int reported = 0;
    long pairs = 0;
    for (size_t t = 0; t < CM_ARRAY_LEN(key_types); t++) {
        ty_oid_t type = key_types[t];
        ty_datum_t *vals = cm_arena_alloc(&arena, sizeof(*vals) * NVALUES);
        for (int i = 0; i < NVALUES; i++) {
            if (i % 23 == 0) {
                memset(&vals[i], 0, sizeof(vals[i]));
                vals[i].isnull = true;
            } else {
                vals[i] = rnd_value(type, 0);
            }
        }
        for (int flags = 0; flags < 4; flags++) {
            bool desc = flags & 1, nf = flags & 2;
            uint8_t **enc = cm_arena_alloc(&arena, sizeof(*enc) * NVALUES);
            size_t *len = cm_arena_alloc(&arena, sizeof(*len) * NVALUES);
            for (int i = 0; i < NVALUES; i++)
                enc[i] = encode(type, desc, nf, &vals[i], &len[i]);
            for (int i = 0; i < NVALUES; i++) {
                for (int j = 0; j < NVALUES; j++) {
                    int want = expected(type, desc, nf, &vals[i], &vals[j]);
                    int got = sign(df__bytes_cmp(enc[i], len[i], enc[j], len[j]));
                    pairs++;
                    if (want != got && reported++ < 10) {
                        printf("  type %u desc=%d nulls_first=%d: %s vs %s: compare %d, keys %d\n", type, desc, nf,
                               show(type, &vals[i]), show(type, &vals[j]), want, got);
                        unit__case_failed = 1;
                    }
                }
            }
        }
    }
    UNIT_CHECK(pairs == (long)CM_ARRAY_LEN(key_types) * 4 * NVALUES * NVALUES);
}

/* Values that SQL calls equal though they differ, and edges, with their expected order. */
static void keys_equal_values_meet(void)
{
    setup();
    struct {
        ty_oid_t type;
        const char *a, *b;
        int cmp;
    } cases[] = {
        {TY_NUMERIC, "1.0", "1.00", 0},
        {TY_NUMERIC, "1", "1.000", 0},
        {TY_NUMERIC, "-0.0", "0", 0},
        {TY_NUMERIC, "100", "1e2", 0},
        {TY_NUMERIC, "0.1", "0.10001", -1},
        {TY_NUMERIC, "-0.1", "-0.10001", 1},
        {TY_NUMERIC, "99999999999999999999", "100000000000000000000", -1},
        {TY_NUMERIC, "Infinity", "NaN", -1},
        {TY_NUMERIC, "-Infinity", "-1e100", -1},
        {TY_NUMERIC, "NaN", "NaN", 0},
        {TY_INTERVAL, "1 day", "24 hours", 0},
        {TY_INTERVAL, "1 mon", "30 days", 0},
        {TY_INTERVAL, "1 year", "360 days", 0},
        {TY_INTERVAL, "-1 day", "-86400 seconds", 0},
        {TY_INTERVAL, "1 day", "23 hours", 1},
        {TY_BPCHAR, "a", "a   ", 0},
        {TY_BPCHAR, "a", "a\x01", -1},
        {TY_TEXT, "a", "a ", -1},
        {TY_TEXT, "", "a", -1},
        {TY_TEXT, "\xc3\xa9", "z", 1},
        {TY_FLOAT8, "-0", "0", 0},
        {TY_FLOAT8, "NaN", "Infinity", 1},
        {TY_FLOAT8, "-Infinity", "-1e308", -1},
        {TY_FLOAT4, "NaN", "NaN", 0},
        {TY_JSONB, "{\"a\": 1.0}", "{\"a\": 1}", 0},
        {TY_JSONB, "[1, 2]", "[1.00, 2]", 0},
        {TY_JSONB, "{\"b\":1,\"a\":2}", "{\"a\":2,\"b\":1}", 0},
        {TY_JSONB, "1", "[]", 1},
        {TY_JSONB, "1", "[1]", -1},
        {TY_JSONB, "{}", "[1, 2, 3]", 1},
        {TY_JSONB, "null", "\"\"", -1},
        {TY_JSONB, "\"\"", "0", -1},
        {TY_JSONB, "0", "false", -1},
        {TY_JSONB, "[true]", "[[]]", -1},
        {TY_INT4_ARRAY, "{1,2}", "{1,2,3}", -1},
        {TY_INT4_ARRAY, "{1,NULL}", "{1,2}", 1},
        {TY_INT4_ARRAY, "{NULL}", "{NULL}", 0},
        {TY_INT4_ARRAY, "{{1,2}}", "{1,2}", 1},
        {TY_INT4_ARRAY, "[0:1]={1,2}", "{1,2}", -1},
        {TY_INT4_ARRAY, "{}", "{NULL}", -1},
        {TY_NUMERIC_ARRAY, "{1.0,2}", "{1,2.00}", 0},
        {TY_TEXT_ARRAY, "{a}", "{a,\"\"}", -1},
        {TY_DATE, "infinity", "2000-01-01", 1},
        {TY_DATE, "-infinity", "4713-01-01 BC", -1},
        {TY_TIMESTAMPTZ, "2000-01-01 00:00:00+00", "2000-01-01 01:00:00+01", 0},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        ty_datum_t a = parse(cases[i].type, cases[i].a), b = parse(cases[i].type, cases[i].b);
        size_t al, bl;
        uint8_t *ea = encode(cases[i].type, false, false, &a, &al), *eb = encode(cases[i].type, false, false, &b, &bl);
        int got = sign(df__bytes_cmp(ea, al, eb, bl));
        int sql = sign(ty_datum_compare(cases[i].type, &a, &b));
        if (got != cases[i].cmp || sql != cases[i].cmp) {
            printf("  %s vs %s (type %u): keys %d, ty_datum_compare %d, want %d\n", cases[i].a, cases[i].b,
                   cases[i].type, got, sql, cases[i].cmp);
            unit__case_failed = 1;
        }
        /* Equal values have equal bytes, hence equal hashes: the same shard. */
        if (cases[i].cmp == 0)
            UNIT_CHECK(df__hash(ea, al) == df__hash(eb, bl));
    }
}

/* jsonb text that is not canonical (as no input path makes it, but a function
 * might) still keys as its value, as ty_datum_compare reparses it. */
static void keys_jsonb_noncanonical(void)
{
    setup();
    const char *pairs[][2] = {
        {"{\"b\":1,\"a\":2}", "{\"a\": 2, \"b\": 1}"},
        {"{\"a\":1,\"a\":2}", "{\"a\": 2}"},
        {"{\"aa\":1,\"b\":2}", "{\"b\": 2, \"aa\": 1}"},
        {" [ 1 , {\"y\":1,\"x\":[]} ] ", "[1, {\"x\": [], \"y\": 1}]"},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(pairs); i++) {
        ty_datum_t raw = str_datum(pairs[i][0], strlen(pairs[i][0])), canon = parse(TY_JSONB, pairs[i][1]);
        UNIT_CHECK(ty_datum_compare(TY_JSONB, &raw, &canon) == 0);
        size_t al, bl;
        uint8_t *a = encode(TY_JSONB, false, false, &raw, &al), *b = encode(TY_JSONB, false, false, &canon, &bl);
        UNIT_CHECK(df__bytes_cmp(a, al, b, bl) == 0);
    }
}

/* A few fixed encodings: the format is what the tests pin, not only its order. */
static void keys_fixed_bytes(void)
{
    setup();
    struct {
        ty_oid_t type;
        const char *text;
        const char *hex;
    } cases[] = {
        {TY_INT4, "0", "80"},
        {TY_INT4, "1", "8101"},
        {TY_INT4, "256", "820100"},
        {TY_INT4, "-1", "7f"},
        {TY_INT4, "-2", "7efe"},
        {TY_INT8, "-9223372036854775808", "77" "8000000000000000"},
        {TY_BOOL, "true", "03"},
        {TY_TEXT, "ab", "0161620001"},
        {TY_BYTEA, "\\x0061", "0100ff610001"},
        {TY_NUMERIC, "12.5", "2381" "02" "0d" "33" "00"},
        {TY_NUMERIC, "0.000", "22"},
        {TY_FLOAT8, "1", "01bff0000000000000"},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        ty_datum_t d = parse(cases[i].type, cases[i].text);
        size_t n;
        uint8_t *e = encode(cases[i].type, false, false, &d, &n);
        char hex[128];
        for (size_t k = 0; k < n && 2 * k + 2 < sizeof(hex); k++)
            snprintf(hex + 2 * k, 3, "%02x", e[k]);
        hex[2 * n < sizeof(hex) ? 2 * n : 0] = 0;
        UNIT_CHECK_STR(hex, cases[i].hex);
    }
    /* NULL markers and DESC. */
    ty_datum_t null = {.isnull = true}, one = parse(TY_INT4, "1");
    size_t n;
    uint8_t *e = encode(TY_INT4, false, false, &null, &n);
    UNIT_CHECK(n == 1 && e[0] == DF_KEY_NULL_LAST);
    e = encode(TY_INT4, true, true, &null, &n);
    UNIT_CHECK(n == 1 && e[0] == DF_KEY_NULL_FIRST);
    e = encode(TY_INT4, true, false, &one, &n);
    UNIT_CHECK(n == 2 && e[0] == 0x7e && e[1] == 0xfe);
}

/* Multi-column keys over random column types and flags: lexicographic by column. */
static void keys_multi_column(void)
{
    setup();
    rng_state = 7;
    int reported = 0;
    for (int round = 0; round < 60; round++) {
        int ncols = 1 + (int)rnd_below(3);
        df_keycol_t cols[3];
        for (int c = 0; c < ncols; c++) {
            cols[c].col = ncols - 1 - c;   /* key columns in another order than the row's */
            cols[c].type = key_types[rnd_below(CM_ARRAY_LEN(key_types))];
            cols[c].desc = rnd() & 1;
            cols[c].nulls_first = rnd() & 1;
        }
        /* A row's columns: cols[c] reads row[ncols - 1 - c]. */
        enum { NROWS = 60 };
        ty_datum_t rows[NROWS][3];
        uint8_t *enc[NROWS];
        size_t len[NROWS];
        for (int r = 0; r < NROWS; r++) {
            for (int c = 0; c < ncols; c++) {
                ty_datum_t v;
                if (rnd_below(8) == 0) {
                    memset(&v, 0, sizeof(v));
                    v.isnull = true;
                } else if (r > 0 && rnd_below(2)) {
                    v = rows[rnd_below((uint64_t)r)][cols[c].col];   /* equal prefixes are common */
                } else {
                    v = rnd_value(cols[c].type, 0);
                }
                rows[r][cols[c].col] = v;
            }
            cm_buf_t b;
            cm_buf_init(&b, 0);
            UNIT_CHECK(df__key_encode(cols, ncols, rows[r], &ctx, &b));
            enc[r] = cm_arena_alloc(&arena, b.len);
            memcpy(enc[r], b.data, b.len);
            len[r] = b.len;
            cm_buf_free(&b);
        }
        for (int i = 0; i < NROWS; i++) {
            for (int j = 0; j < NROWS; j++) {
                int want = 0;
                for (int c = 0; c < ncols && want == 0; c++)
                    want = expected(cols[c].type, cols[c].desc, cols[c].nulls_first, &rows[i][cols[c].col],
                                    &rows[j][cols[c].col]);
                int got = sign(df__bytes_cmp(enc[i], len[i], enc[j], len[j]));
                if (want != got && reported++ < 10) {
                    printf("  round %d rows %d and %d: compare %d, keys %d\n", round, i, j, want, got);
                    unit__case_failed = 1;
                }
            }
        }
    }
}

static void keys_refuse_unkeyable(void)
{
    setup();
    ty_datum_t d = {0};
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_err_clear(&err);
    UNIT_CHECK(!df__key_encode_datum(TY_VOID, false, false, &d, &ctx, &b));
    UNIT_CHECK(err.set && strcmp(err.sqlstate, "42883") == 0);
    UNIT_CHECK_STR(err.message, "could not identify an ordering operator for type void");
    cm_err_clear(&err);
    UNIT_CHECK(!df__key_type_check(TY_VOID, &err));
    cm_err_clear(&err);
    UNIT_CHECK(!df__key_type_check(12345, &err));
    UNIT_CHECK(strcmp(err.sqlstate, "42883") == 0);
    UNIT_CHECK_STR(err.message, "could not identify an ordering operator for type 12345");
    cm_err_clear(&err);
    for (size_t t = 0; t < CM_ARRAY_LEN(key_types); t++)
        UNIT_CHECK(df__key_type_check(key_types[t], &err));
    df_keycol_t cols[2] = {{.col = 0, .type = TY_INT4}, {.col = 1, .type = TY_VOID}};
    UNIT_CHECK(!df__key_check(cols, 2, &err));
    cm_err_clear(&err);
    /* A corrupt jsonb is an error, not a crash. */
    ty_datum_t j = str_datum("{\"a\":", 5);
    UNIT_CHECK(!df__key_encode_datum(TY_JSONB, false, false, &j, &ctx, &b));
    UNIT_CHECK(err.set && strcmp(err.sqlstate, "XX000") == 0);
    cm_err_clear(&err);
    cm_buf_free(&b);
}

static void keys_hash(void)
{
    /* Pinned: shards must agree across processes and machines. */
    UNIT_CHECK(df__hash("", 0) == df__hash("", 0));
    UNIT_CHECK(df__hash("abc", 3) != df__hash("abd", 3));
    UNIT_CHECK(df__hash("abc", 3) != df__hash("abc\0", 4));
    uint64_t h1 = df__hash("\x81\x01", 2);
    UNIT_CHECK(h1 == df__hash("\x81\x01", 2));
    /* 100,000 integer keys over 16 shards: each within 10% of its share. */
    int shard[16] = {0};
    for (int64_t i = 0; i < 100000; i++) {
        cm_buf_t b;
        cm_buf_init(&b, 0);
        df__key_put_int(&b, i);
        shard[df__hash(b.data, b.len) % 16]++;
        cm_buf_free(&b);
    }
    for (int s = 0; s < 16; s++)
        UNIT_CHECK(shard[s] > 5625 && shard[s] < 6875);
    /* Every bit of the input moves about half the output bits. */
    uint8_t key[24];
    for (int i = 0; i < 24; i++)
        key[i] = (uint8_t)(i * 37);
    uint64_t base = df__hash(key, sizeof(key));
    for (int bit = 0; bit < 24 * 8; bit++) {
        key[bit / 8] ^= (uint8_t)(1 << (bit % 8));
        int flipped = __builtin_popcountll(base ^ df__hash(key, sizeof(key)));
        key[bit / 8] ^= (uint8_t)(1 << (bit % 8));
        UNIT_CHECK(flipped > 12 && flipped < 52);
    }
}

/* ------------------------------------------------------------ rows */

static bool identical(ty_oid_t type, const ty_datum_t *a, const ty_datum_t *b)
{
    if (a->isnull || b->isnull)
        return a->isnull == b->isnull;
    switch (type) {
    case TY_BOOL: return a->v.b == b->v.b;
    case TY_FLOAT4:
    case TY_FLOAT8:
        if (a->v.f != a->v.f)
            return b->v.f != b->v.f;
        return memcmp(&a->v.f, &b->v.f, sizeof(double)) == 0;   /* -0 stays -0 */
    case TY_NUMERIC: return strcmp(show(type, a), show(type, b)) == 0;   /* the scale too */
    case TY_INTERVAL: return a->v.iv.us == b->v.iv.us && a->v.iv.days == b->v.iv.days && a->v.iv.months == b->v.iv.months;
    case TY_TEXT:
    case TY_VARCHAR:
    case TY_BPCHAR:
    case TY_NAME:
    case TY_CHAR:
    case TY_BYTEA:
    case TY_JSON:
    case TY_JSONB:
    case TY_UNKNOWN: return a->v.s.len == b->v.s.len && memcmp(a->v.s.p, b->v.s.p, a->v.s.len) == 0;
    case TY_UUID: return memcmp(a->v.uuid, b->v.uuid, 16) == 0;
    case TY_VOID: return true;
    case TY_RECORD: {
        const ty_record_t *x = a->v.rec, *y = b->v.rec;
        if (x->ncols != y->ncols)
            return false;
        for (int i = 0; i < x->ncols; i++)
            if (x->types[i] != y->types[i] || !identical(x->types[i], &x->items[i], &y->items[i]))
                return false;
        return true;
    }
    default: break;
    }
    if (ty_array_elem_type(type) != TY_INVALID) {
        const ty_array_t *x = a->v.arr, *y = b->v.arr;
        if (x->elem != y->elem || x->ndim != y->ndim || x->nitems != y->nitems || x->hasnull != y->hasnull)
            return false;
        for (int i = 0; i < x->ndim; i++)
            if (x->dims[i] != y->dims[i] || x->lbound[i] != y->lbound[i])
                return false;
        for (int i = 0; i < x->nitems; i++)
            if (!identical(x->elem, &x->items[i], &y->items[i]))
                return false;
        return true;
    }
    return a->v.i == b->v.i;
}

static void rows_round_trip(void)
{
    setup();
    rng_state = 99;
    int reported = 0;
    for (int round = 0; round < 3000; round++) {
        int ncols = (int)rnd_below(12);
        ty_oid_t types[12];
        ty_datum_t row[12], back[12], back2[12];
        for (int c = 0; c < ncols; c++) {
            types[c] = rnd_below(30) == 0 ? TY_VOID : key_types[rnd_below(CM_ARRAY_LEN(key_types))];
            if (rnd_below(5) == 0) {
                memset(&row[c], 0, sizeof(row[c]));
                row[c].isnull = true;
            } else if (types[c] == TY_VOID) {
                memset(&row[c], 0, sizeof(row[c]));
            } else {
                row[c] = rnd_value(types[c], 0);
            }
        }
        cm_buf_t b, b2;
        cm_buf_init(&b, 0);
        cm_buf_init(&b2, 0);
        cm_err_clear(&err);
        UNIT_CHECK(df__row_encode(types, ncols, row, &ctx, &b));
        UNIT_CHECK(df__row_decode(types, ncols, b.data, b.len, DF_ROW_COPY, &ctx, back));
        UNIT_CHECK(df__row_decode(types, ncols, b.data, b.len, DF_ROW_BORROW, &ctx, back2));
        for (int c = 0; c < ncols; c++) {
            if ((!identical(types[c], &row[c], &back[c]) || !identical(types[c], &row[c], &back2[c])) &&
                reported++ < 10) {
                printf("  round %d column %d (type %u): %s came back as %s\n", round, c, types[c], show(types[c], &row[c]),
                       show(types[c], &back[c]));
                unit__case_failed = 1;
            }
        }
        /* Deterministic: the decoded row encodes to the same bytes. */
        UNIT_CHECK(df__row_encode(types, ncols, back, &ctx, &b2));
        UNIT_CHECK(b.len == b2.len && (b.len == 0 || memcmp(b.data, b2.data, b.len) == 0));
        cm_buf_free(&b);
        cm_buf_free(&b2);
        if (round % 200 == 199) {
            cm_arena_reset(&arena);
        }
    }
}

static void rows_compact_and_exact(void)
{
    setup();
    ty_oid_t types[6] = {TY_INT4, TY_INT4, TY_NUMERIC, TY_INTERVAL, TY_BPCHAR, TY_FLOAT8};
    ty_datum_t row[6] = {parse(TY_INT4, "500000"), {.isnull = true}, parse(TY_NUMERIC, "1.50"),
                         parse(TY_INTERVAL, "24 hours"), parse(TY_BPCHAR, "ab  "), parse(TY_FLOAT8, "-0")};
    cm_buf_t b;
    cm_buf_init(&b, 0);
    UNIT_CHECK(df__row_encode(types, 2, row, &ctx, &b));
    UNIT_CHECK(b.len == 1 + 3);   /* bitmap, a 3-byte varint, nothing for the NULL */
    cm_buf_reset(&b);
    UNIT_CHECK(df__row_encode(types, 6, row, &ctx, &b));
    ty_datum_t back[6];
    UNIT_CHECK(df__row_decode(types, 6, b.data, b.len, DF_ROW_COPY, &ctx, back));
    UNIT_CHECK_STR(show(TY_NUMERIC, &back[2]), "1.50");
    UNIT_CHECK_STR(show(TY_INTERVAL, &back[3]), "24:00:00");
    UNIT_CHECK(back[4].v.s.len == 4);
    UNIT_CHECK(signbit(back[5].v.f));
    UNIT_CHECK(back[1].isnull);
    /* A type with no storage form is refused. */
    ty_oid_t bad = 12345;
    cm_err_clear(&err);
    UNIT_CHECK(!df__row_encode(&bad, 1, row, &ctx, &b));
    UNIT_CHECK(err.set && strcmp(err.sqlstate, "0A000") == 0);
    cm_err_clear(&err);
    cm_buf_free(&b);
}

/* Every truncation and many byte flips of encoded rows: refused or decoded, never a crash. */
static void rows_corrupt_refused(void)
{
    setup();
    rng_state = 5;
    long refused = 0;
    for (int round = 0; round < 300; round++) {
        int ncols = 1 + (int)rnd_below(6);
        ty_oid_t types[6];
        ty_datum_t row[6], back[6];
        for (int c = 0; c < ncols; c++) {
            types[c] = key_types[rnd_below(CM_ARRAY_LEN(key_types))];
            row[c] = rnd_value(types[c], 0);
        }
        cm_buf_t b;
        cm_buf_init(&b, 0);
        UNIT_CHECK(df__row_encode(types, ncols, row, &ctx, &b));
        for (size_t cut = 0; cut < b.len; cut++) {
            cm_err_clear(&err);
            if (!df__row_decode(types, ncols, b.data, cut, DF_ROW_BORROW, &ctx, back)) {
                refused++;
                UNIT_CHECK(strcmp(err.sqlstate, "XX001") == 0);
            }
        }
        uint8_t *copy = cm_malloc(b.len + 1);
        for (int flip = 0; flip < 20 && b.len > 0; flip++) {
            memcpy(copy, b.data, b.len);
            copy[rnd_below(b.len)] ^= (uint8_t)(1 + rnd_below(255));
            cm_err_clear(&err);
            (void)df__row_decode(types, ncols, copy, b.len, DF_ROW_BORROW, &ctx, back);
        }
        /* Extra bytes are not consumed: refused. */
        memcpy(copy, b.data, b.len);
        copy[b.len] = 0;
        cm_err_clear(&err);
        UNIT_CHECK(!df__row_decode(types, ncols, copy, b.len + 1, DF_ROW_BORROW, &ctx, back));
        free(copy);
        cm_buf_free(&b);
        if (round % 50 == 49)
            cm_arena_reset(&arena);
    }
    cm_err_clear(&err);
    UNIT_CHECK(refused > 0);
}

int main(void)
{
    UNIT_RUN(keys_order_per_type);
    UNIT_RUN(keys_equal_values_meet);
    UNIT_RUN(keys_jsonb_noncanonical);
    UNIT_RUN(keys_fixed_bytes);
    UNIT_RUN(keys_multi_column);
    UNIT_RUN(keys_refuse_unkeyable);
    UNIT_RUN(keys_hash);
    UNIT_RUN(rows_round_trip);
    UNIT_RUN(rows_compact_and_exact);
    UNIT_RUN(rows_corrupt_refused);
    cm_arena_free(&arena);
    UNIT_EXIT();
}

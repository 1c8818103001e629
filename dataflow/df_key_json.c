/*
 * df_key_json.c: the key encoding of jsonb values.
 *
 * A jsonb datum is its canonical text (types/ty_json.c). It orders as
 * PostgreSQL's compareJsonbContainers, which eddy follows in
 * types/ty_func_json.c: containers first by kind (array < object), then by
 * their number of items, then a top-level scalar (a "raw scalar", a
 * one-element array for this purpose) before a real array, then item by item;
 * scalars by kind (null < string < number < bool), strings bytewise, numbers
 * as numerics. So a container is encoded as its kind, its item count (the
 * order-preserving integer), a raw flag, then its items, each scalar as a
 * rank byte and its payload. Object pairs are taken in jsonb's key order
 * (shorter keys first, then bytewise; the last of equal keys wins), which is
 * the order ty_json_parse gives them, so text that is not canonical still
 * encodes as its value does.
 */
#include "dataflow/df_store.h"

#include <stdlib.h>

enum {
    DF__J_NULL = 0x01,
    DF__J_STRING = 0x02,
    DF__J_NUMBER = 0x03,
    DF__J_BOOL = 0x04,
    DF__J_ARRAY = 0x10,
    DF__J_OBJECT = 0x11,
    DF__J_RAW = 0x01,        /* a top-level scalar */
    DF__J_CONTAINER = 0x02,  /* a real array or object */
};

#define DF__JSON_DEPTH_MAX 4000

typedef struct df_jp {
    const char *p, *end;
    ty_ctx_t *ctx;
    int depth;
} df_jp_t;

static bool df__jbad(df_jp_t *jp)
{
    return cm_err_set(jp->ctx->err, CM_ERRCODE_INTERNAL_ERROR, "corrupt jsonb value cannot be keyed");
}

static void df__jspace(df_jp_t *jp)
{
    while (jp->p < jp->end && (*jp->p == ' ' || *jp->p == '\t' || *jp->p == '\n' || *jp->p == '\r'))
        jp->p++;
}

static int df__jhex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool df__jhex4(df_jp_t *jp, uint32_t *out)
{
    if (jp->end - jp->p < 4)
        return false;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = df__jhex(jp->p[i]);
        if (h < 0)
            return false;
        v = v << 4 | (uint32_t)h;
    }
    jp->p += 4;
    *out = v;
    return true;
}

static void df__jutf8(cm_buf_t *out, uint32_t c)
{
    if (c < 0x80) {
        cm_buf_put_u8(out, (uint8_t)c);
    } else if (c < 0x800) {
        cm_buf_put_u8(out, (uint8_t)(0xC0 | c >> 6));
        cm_buf_put_u8(out, (uint8_t)(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        cm_buf_put_u8(out, (uint8_t)(0xE0 | c >> 12));
        cm_buf_put_u8(out, (uint8_t)(0x80 | ((c >> 6) & 0x3F)));
        cm_buf_put_u8(out, (uint8_t)(0x80 | (c & 0x3F)));
    } else {
        cm_buf_put_u8(out, (uint8_t)(0xF0 | c >> 18));
        cm_buf_put_u8(out, (uint8_t)(0x80 | ((c >> 12) & 0x3F)));
        cm_buf_put_u8(out, (uint8_t)(0x80 | ((c >> 6) & 0x3F)));
        cm_buf_put_u8(out, (uint8_t)(0x80 | (c & 0x3F)));
    }
}

/* A string token (at its opening quote), unescaped into out. */
static bool df__jstring(df_jp_t *jp, cm_buf_t *out)
{
    jp->p++;
    while (jp->p < jp->end && *jp->p != '"') {
        const char *run = jp->p;
        while (jp->p < jp->end && *jp->p != '"' && *jp->p != '\\')
            jp->p++;
        cm_buf_put(out, run, (size_t)(jp->p - run));
        if (jp->p == jp->end || *jp->p == '"')
            break;
        if (jp->end - jp->p < 2)
            return false;
        char e = jp->p[1];
        jp->p += 2;
        switch (e) {
        case '"': cm_buf_put_u8(out, '"'); break;
        case '\\': cm_buf_put_u8(out, '\\'); break;
        case '/': cm_buf_put_u8(out, '/'); break;
        case 'b': cm_buf_put_u8(out, '\b'); break;
        case 'f': cm_buf_put_u8(out, '\f'); break;
        case 'n': cm_buf_put_u8(out, '\n'); break;
        case 'r': cm_buf_put_u8(out, '\r'); break;
        case 't': cm_buf_put_u8(out, '\t'); break;
        case 'u': {
            uint32_t c;
            if (!df__jhex4(jp, &c))
                return false;
            if (c >= 0xD800 && c < 0xDC00) {
                uint32_t lo;
                if (jp->end - jp->p < 2 || jp->p[0] != '\\' || jp->p[1] != 'u')
                    return false;
                jp->p += 2;
                if (!df__jhex4(jp, &lo) || lo < 0xDC00 || lo >= 0xE000)
                    return false;
                c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
            } else if (c >= 0xDC00 && c < 0xE000) {
                return false;
            }
            df__jutf8(out, c);
            break;
        }
        default: return false;
        }
    }
    if (jp->p == jp->end)
        return false;
    jp->p++;
    return true;
}

static bool df__jvalue(df_jp_t *jp, cm_buf_t *out);

/* A pair of an object being encoded: offsets into its keys and values buffers. */
typedef struct df_jpair {
    size_t koff, klen, voff, vlen;
} df_jpair_t;

static int df__jkey_cmp(const uint8_t *keys, const df_jpair_t *a, const df_jpair_t *b)
{
    if (a->klen != b->klen)
        return a->klen < b->klen ? -1 : 1;
    return a->klen ? memcmp(keys + a->koff, keys + b->koff, a->klen) : 0;
}

/* A stable bottom-up merge sort of the pairs by jsonb key order (no global
 * state, so several threads may encode at once). */
static void df__jsort(const uint8_t *keys, df_jpair_t *v, size_t n, df_jpair_t *tmp)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi)
                tmp[k++] = (j >= hi || (i < mid && df__jkey_cmp(keys, &v[i], &v[j]) <= 0)) ? v[i++] : v[j++];
        }
        memcpy(v, tmp, n * sizeof(*v));
    }
}

static bool df__jcontainer(df_jp_t *jp, bool object, cm_buf_t *out)
{
    if (++jp->depth > DF__JSON_DEPTH_MAX)
        return cm_err_set(jp->ctx->err, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    jp->p++;
    cm_buf_t keys, vals;
    cm_buf_init(&keys, 0);
    cm_buf_init(&vals, 0);
    df_jpair_t *pairs = NULL;
    size_t n = 0, cap = 0;
    bool ok = false;
    df__jspace(jp);
    if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
        jp->p++;
    } else {
        for (;;) {
            if (n == cap) {
                cap = cap ? 2 * cap : 8;
                pairs = cm_realloc(pairs, cap * sizeof(*pairs));
            }
            df_jpair_t *pr = &pairs[n++];
            df__jspace(jp);
            if (object) {
                if (jp->p == jp->end || *jp->p != '"')
                    goto done;
                pr->koff = keys.len;
                if (!df__jstring(jp, &keys))
                    goto done;
                pr->klen = keys.len - pr->koff;
                df__jspace(jp);
                if (jp->p == jp->end || *jp->p != ':')
                    goto done;
                jp->p++;
            }
            pr->voff = vals.len;
            if (!df__jvalue(jp, &vals))
                goto done;
            pr->vlen = vals.len - pr->voff;
            df__jspace(jp);
            if (jp->p < jp->end && *jp->p == ',') {
                jp->p++;
                continue;
            }
            if (jp->p < jp->end && *jp->p == (object ? '}' : ']')) {
                jp->p++;
                break;
            }
            goto done;
        }
    }
    if (object && n > 1) {
        df_jpair_t *tmp = cm_malloc(n * sizeof(*tmp));
        df__jsort(keys.data, pairs, n, tmp);
        free(tmp);
        size_t m = 0;   /* of equal keys the last one wins, as in jsonb_in */
        for (size_t i = 0; i < n; i++)
            if (i + 1 == n || df__jkey_cmp(keys.data, &pairs[i], &pairs[i + 1]) != 0)
                pairs[m++] = pairs[i];
        n = m;
    }
    cm_buf_put_u8(out, object ? DF__J_OBJECT : DF__J_ARRAY);
    df__key_put_int(out, (__int128)n);
    cm_buf_put_u8(out, DF__J_CONTAINER);
    for (size_t i = 0; i < n; i++) {
        if (object)
            df__key_put_bytes(out, keys.data + pairs[i].koff, pairs[i].klen);
        cm_buf_put(out, vals.data + pairs[i].voff, pairs[i].vlen);
    }
    ok = !keys.failed && !vals.failed;
done:
    if (!ok && !jp->ctx->err->set)
        df__jbad(jp);
    free(pairs);
    cm_buf_free(&keys);
    cm_buf_free(&vals);
    jp->depth--;
    return ok;
}

static bool df__jword(df_jp_t *jp, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(jp->end - jp->p) < n || memcmp(jp->p, w, n) != 0)
        return false;
    jp->p += n;
    return true;
}

/* One value (not a top-level scalar's wrapper): rank byte and payload. */
static bool df__jvalue(df_jp_t *jp, cm_buf_t *out)
{
    df__jspace(jp);
    if (jp->p == jp->end)
        return df__jbad(jp);
    switch (*jp->p) {
    case '{': return df__jcontainer(jp, true, out);
    case '[': return df__jcontainer(jp, false, out);
    case '"':
        cm_buf_put_u8(out, DF__J_STRING);
        {
            cm_buf_t s;
            cm_buf_init(&s, 0);
            bool ok = df__jstring(jp, &s);
            if (ok)
                df__key_put_bytes(out, s.data, s.len);
            cm_buf_free(&s);
            return ok ? true : df__jbad(jp);
        }
    case 'n':
        if (!df__jword(jp, "null"))
            return df__jbad(jp);
        cm_buf_put_u8(out, DF__J_NULL);
        return true;
    case 't':
    case 'f': {
        bool t = *jp->p == 't';
        if (!df__jword(jp, t ? "true" : "false"))
            return df__jbad(jp);
        cm_buf_put_u8(out, DF__J_BOOL);
        cm_buf_put_u8(out, t ? 0x03 : 0x02);
        return true;
    }
    default: {
        const char *s = jp->p;
        while (jp->p < jp->end && ((*jp->p >= '0' && *jp->p <= '9') || *jp->p == '-' || *jp->p == '+' ||
                                   *jp->p == '.' || *jp->p == 'e' || *jp->p == 'E'))
            jp->p++;
        cm_buf_put_u8(out, DF__J_NUMBER);
        if (jp->p == s || !df__key_put_decimal(out, s, (size_t)(jp->p - s)))
            return df__jbad(jp);
        return true;
    }
    }
}

bool df__key_put_jsonb(cm_buf_t *out, const char *p, size_t len, ty_ctx_t *ctx)
{
    df_jp_t jp = {.p = p, .end = p + len, .ctx = ctx};
    df__jspace(&jp);
    bool container = jp.p < jp.end && (*jp.p == '{' || *jp.p == '[');
    if (!container) {
        /* A raw scalar: an array of one item that sorts before a real one. */
        cm_buf_put_u8(out, DF__J_ARRAY);
        df__key_put_int(out, 1);
        cm_buf_put_u8(out, DF__J_RAW);
    }
    if (!df__jvalue(&jp, out))
        return false;
    df__jspace(&jp);
    if (jp.p != jp.end)
        return df__jbad(&jp);
    return true;
}

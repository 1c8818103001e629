/*
 * ty_func_string.c: string functions on text (length, lower, upper,
 * substring, position, trims, replace, concat, left, right, repeat, reverse,
 * pads, split_part, initcap, md5, chr, ascii, starts_with) with PostgreSQL's
 * results and errors. Positions and lengths count UTF-8 characters. Case
 * mapping follows C.UTF-8 (ty_unicode.c), as PostgreSQL's databases do.
 */
#include "types/ty_internal.h"

#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#define S TY_FN_STRICT
#define T TY_TEXT

static ty_datum_t ty__text(cm_arena_t *a, const char *p, size_t n)
{
    return ty_text_datum(a, p, n);
}

static size_t ty__clen(const char *p, size_t avail)
{
    unsigned char c = (unsigned char)p[0];
    size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    return n > avail ? avail : n;
}

/* Byte offset of character index k (0-based), clamped to len. */
static size_t ty__off(const char *p, size_t len, int64_t k)
{
    size_t i = 0;
    while (k > 0 && i < len) {
        i += ty__clen(p + i, len - i);
        k--;
    }
    return i;
}

/* Counting the characters of a text of hundreds of megabytes takes a few hundred milliseconds:
 * it goes in pieces of 1 MiB so that cancel and statement_timeout are seen between them (a
 * character's lead byte counts, so a piece may end inside one). */
static bool ty__length(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p;
    size_t left = a[0].v.s.len;
    int64_t chars = 0;
    while (left > 0) {
        size_t piece = left < ((size_t)1 << 20) ? left : ((size_t)1 << 20);
        chars += ty_text_chars(p, piece);
        p += piece;
        left -= piece;
        if (left > 0 && !ty_ctx_check_interrupt(c))
            return false;
    }
    o->v.i = chars;
    return true;
}

static bool ty__bplength(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = ty_text_chars(a[0].v.s.p, ty_bpchar_len(a[0].v.s.p, a[0].v.s.len));
    return true;
}

static bool ty__octet_length(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.i = a[0].v.s.len;
    return true;
}

static bool ty__lower(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    *o = ty_text_case(c->arena, a[0].v.s.p, a[0].v.s.len, 'l');
    return true;
}
static bool ty__upper(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    *o = ty_text_case(c->arena, a[0].v.s.p, a[0].v.s.len, 'u');
    return true;
}

static bool ty__substr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p;
    size_t len = a[0].v.s.len;
    int64_t start = a[1].v.i;   /* 1-based */
    int64_t end;                /* exclusive, 1-based */
    if (n == 3) {
        if (a[2].v.i < 0)
            return cm_err_set(c->err, "22011", "negative substring length not allowed");
        if (__builtin_add_overflow(start, a[2].v.i, &end))
            end = INT64_MAX;
    } else {
        end = INT64_MAX;
    }
    if (start < 1)
        start = 1;
    if (end <= start) {
        *o = ty__text(c->arena, "", 0);
        return true;
    }
    size_t b0 = ty__off(p, len, start - 1);
    size_t b1 = end == INT64_MAX ? len : b0 + ty__off(p + b0, len - b0, end - start);
    *o = ty__text(c->arena, p + b0, b1 - b0);
    return true;
}

/* strpos(string, substring): 1-based character position, 0 when absent. */
static bool ty__strpos(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *h = a[0].v.s.p, *nd = a[1].v.s.p;
    size_t hl = a[0].v.s.len, nl = a[1].v.s.len;
    o->v.i = 0;
    if (nl == 0) {
        o->v.i = 1;
        return true;
    }
    for (size_t i = 0; i + nl <= hl; i += ty__clen(h + i, hl - i)) {
        if (memcmp(h + i, nd, nl) == 0) {
            o->v.i = ty_text_chars(h, i) + 1;
            return true;
        }
    }
    return true;
}

/* Trims characters of `set` (UTF-8 aware) from the chosen ends. */
static bool ty__trim(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o, bool left, bool right)
{
    const char *p = a[0].v.s.p;
    size_t len = a[0].v.s.len;
    const char *set = n > 1 ? a[1].v.s.p : " ";
    size_t sl = n > 1 ? a[1].v.s.len : 1;
    size_t b = 0, e = len;
    if (left) {
        while (b < e) {
            size_t cl = ty__clen(p + b, e - b);
            bool in = false;
            for (size_t k = 0; k < sl; k += ty__clen(set + k, sl - k))
                if (ty__clen(set + k, sl - k) == cl && memcmp(set + k, p + b, cl) == 0)
                    in = true;
            if (!in)
                break;
            b += cl;
        }
    }
    if (right) {
        while (e > b) {
            size_t s0 = e - 1;
            while (s0 > b && ((unsigned char)p[s0] & 0xC0) == 0x80)
                s0--;
            size_t cl = e - s0;
            bool in = false;
            for (size_t k = 0; k < sl; k += ty__clen(set + k, sl - k))
                if (ty__clen(set + k, sl - k) == cl && memcmp(set + k, p + s0, cl) == 0)
                    in = true;
            if (!in)
                break;
            e = s0;
        }
    }
    *o = ty__text(c->arena, p + b, e - b);
    return true;
}
static bool ty__btrim(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__trim(c, a, n, o, true, true); }
static bool ty__ltrim(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__trim(c, a, n, o, true, false); }
static bool ty__rtrim(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__trim(c, a, n, o, false, true); }

static bool ty__replace(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p, *f = a[1].v.s.p, *t = a[2].v.s.p;
    size_t pl = a[0].v.s.len, fl = a[1].v.s.len, tl = a[2].v.s.len;
    if (fl == 0) {
        *o = a[0];
        return true;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    size_t i = 0;
    while (i < pl) {
        if (i + fl <= pl && memcmp(p + i, f, fl) == 0) {
            cm_buf_put(&b, t, tl);
            i += fl;
        } else {
            cm_buf_put_u8(&b, (uint8_t)p[i++]);
        }
    }
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

/* concat: "any" arguments arrive as text; NULLs are skipped. */
static bool ty__concat(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (int i = 0; i < n; i++)
        if (!a[i].isnull)
            cm_buf_put(&b, a[i].v.s.p, a[i].v.s.len);
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

static bool ty__concat_ws(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull) {
        o->isnull = true;
        return true;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool first = true;
    for (int i = 1; i < n; i++) {
        if (a[i].isnull)
            continue;
        if (!first)
            cm_buf_put(&b, a[0].v.s.p, a[0].v.s.len);
        cm_buf_put(&b, a[i].v.s.p, a[i].v.s.len);
        first = false;
    }
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

static bool ty__left(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p;
    size_t len = a[0].v.s.len;
    int64_t k = a[1].v.i, chars = ty_text_chars(p, len);
    if (k < 0)
        k = chars + k < 0 ? 0 : chars + k;
    *o = ty__text(c->arena, p, ty__off(p, len, k));
    return true;
}

static bool ty__right(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p;
    size_t len = a[0].v.s.len;
    int64_t k = a[1].v.i, chars = ty_text_chars(p, len);
    int64_t skip = k < 0 ? -k : chars - k;
    if (skip < 0)
        skip = 0;
    size_t b = ty__off(p, len, skip);
    *o = ty__text(c->arena, p + b, len - b);
    return true;
}

/* Fills dst[0..total) with unit repeated (the last copy cut short), by doubling copies of
 * what is there in pieces of at most 256 KiB, so that cancel and statement_timeout are seen
 * between them. The time is mostly the page faults of fresh memory, not the copy: on a
 * loaded virtual machine 4 MiB took tens of milliseconds, a 256 KiB piece takes about 2. */
static bool ty__fill_repeated(ty_ctx_t *c, char *dst, const char *unit, size_t ulen, size_t total)
{
    size_t done = total < ulen ? total : ulen;
    memcpy(dst, unit, done);
    while (done < total) {
        size_t piece = done < total - done ? done : total - done;
        if (piece > ((size_t)256 << 10))
            piece = (size_t)256 << 10;
        memcpy(dst + done, dst, piece);
        done += piece;
        if (!ty_ctx_check_interrupt(c))
            return false;
    }
    return true;
}

static bool ty__repeat(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t k = a[1].v.i < 0 ? 0 : a[1].v.i;
    size_t len = a[0].v.s.len;
    if (len > 0 && (uint64_t)k > (uint64_t)(1 << 30) / len)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested length too large");
    size_t total = len * (size_t)k;
    char *p = cm_arena_alloc(c->arena, total + 1);
    if (total > 0 && !ty__fill_repeated(c, p, a[0].v.s.p, len, total))
        return false;
    p[total] = 0;
    o->v.s.p = p;
    o->v.s.len = (uint32_t)total;
    return true;
}

static bool ty__reverse(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    size_t len = a[0].v.s.len;
    const char *p = a[0].v.s.p;
    char *r = cm_arena_alloc(c->arena, len + 1);
    for (size_t i = 0; i < len;) {
        size_t cl = ty__clen(p + i, len - i);
        memcpy(r + len - i - cl, p + i, cl);
        i += cl;
    }
    r[len] = 0;
    o->v.s.p = r;
    o->v.s.len = (uint32_t)len;
    return true;
}

static bool ty__pad(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o, bool left)
{
    const char *p = a[0].v.s.p, *fill = n > 2 ? a[2].v.s.p : " ";
    size_t len = a[0].v.s.len, fl = n > 2 ? a[2].v.s.len : 1;
    int64_t want = a[1].v.i < 0 ? 0 : a[1].v.i;
    int64_t have = ty_text_chars(p, len);
    /* PostgreSQL refuses before any work when len characters of the encoding's longest
     * (4 bytes) and the header would not fit in 1 GB. */
    if (want > (0x3fffffff - 4) / 4)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested length too large");
    if (have >= want || fl == 0) {
        *o = ty__text(c->arena, p, ty__off(p, len, have >= want ? want : have));
        return true;
    }
    /* The result is built in place at its final size: growing a buffer and copying it out
     * afterwards would spend the last hundred milliseconds of a huge pad where no interrupt
     * is seen. */
    int64_t need = want - have, fchars = ty_text_chars(fill, fl);
    size_t fbytes = (size_t)(need / fchars) * fl + ty__off(fill, fl, need % fchars);
    char *r = cm_arena_alloc(c->arena, fbytes + len + 1);
    if (!ty__fill_repeated(c, left ? r : r + len, fill, fl, fbytes))
        return false;
    memcpy(left ? r + fbytes : r, p, len);
    r[fbytes + len] = 0;
    o->v.s.p = r;
    o->v.s.len = (uint32_t)(fbytes + len);
    return true;
}
static bool ty__lpad(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__pad(c, a, n, o, true); }
static bool ty__rpad(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__pad(c, a, n, o, false); }

static bool ty__split_part(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const char *p = a[0].v.s.p, *d = a[1].v.s.p;
    size_t len = a[0].v.s.len, dl = a[1].v.s.len;
    int64_t k = a[2].v.i;
    if (k == 0)
        return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "field position must not be zero");
    /* Collect field boundaries. */
    size_t starts[1024], ends[1024];
    int nf = 0;
    size_t s = 0;
    if (dl == 0) {
        starts[0] = 0;
        ends[0] = len;
        nf = 1;
    } else {
        for (size_t i = 0; i + dl <= len && nf < 1023;) {
            if (memcmp(p + i, d, dl) == 0) {
                starts[nf] = s;
                ends[nf++] = i;
                i += dl;
                s = i;
            } else {
                i++;
            }
        }
        starts[nf] = s;
        ends[nf++] = len;
    }
    int64_t idx = k > 0 ? k - 1 : nf + k;
    if (len == 0 || idx < 0 || idx >= nf)
        *o = ty__text(c->arena, "", 0);
    else
        *o = ty__text(c->arena, p + starts[idx], ends[idx] - starts[idx]);
    return true;
}

static bool ty__initcap(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    *o = ty_text_case(c->arena, a[0].v.s.p, a[0].v.s.len, 'i');
    return true;
}

static bool ty__md5(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int ml = 0;
    if (!EVP_Digest(a[0].v.s.p, a[0].v.s.len, md, &ml, EVP_md5(), NULL))
        return cm_err_set(c->err, CM_ERRCODE_INTERNAL_ERROR, "could not compute MD5 hash");
    char hex[33];
    for (unsigned i = 0; i < 16; i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    *o = ty__text(c->arena, hex, 32);
    return true;
}

static bool ty__chr(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int64_t cp = a[0].v.i;
    if (cp == 0)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "null character not permitted");
    if (cp < 0)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "character number must be positive");
    if (cp > 0x10FFFF)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested character too large for encoding: %lld",
                          (long long)cp);
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested character not valid for encoding: %lld",
                          (long long)cp);
    char b[4];
    size_t l;
    if (cp < 0x80) {
        b[0] = (char)cp;
        l = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6));
        b[1] = (char)(0x80 | (cp & 0x3F));
        l = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12));
        b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F));
        l = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18));
        b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (char)(0x80 | (cp & 0x3F));
        l = 4;
    }
    *o = ty__text(c->arena, b, l);
    return true;
}

static bool ty__ascii(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const unsigned char *p = (const unsigned char *)a[0].v.s.p;
    size_t len = a[0].v.s.len;
    if (len == 0) {
        o->v.i = 0;
        return true;
    }
    size_t cl = ty__clen((const char *)p, len);
    uint32_t cp = cl == 1 ? p[0] : cl == 2 ? (uint32_t)(p[0] & 0x1F) << 6 | (p[1] & 0x3F)
                 : cl == 3 ? (uint32_t)(p[0] & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 | (p[2] & 0x3F)
                           : (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3F) << 12 |
                                 (uint32_t)(p[2] & 0x3F) << 6 | (p[3] & 0x3F);
    o->v.i = cp;
    return true;
}

static bool ty__starts_with(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = a[0].v.s.len >= a[1].v.s.len && memcmp(a[0].v.s.p, a[1].v.s.p, a[1].v.s.len) == 0;
    return true;
}

#define I4 TY_INT4
static const ty_func_t ty__string[] = {
    {"length", 1, {T}, I4, S, ty__length, 1317},
    {"length", 1, {TY_BPCHAR}, I4, S, ty__bplength, 1318},
    {"length", 1, {TY_BYTEA}, I4, S, ty__octet_length, 2010},
    {"char_length", 1, {T}, I4, S, ty__length, 1381},
    {"char_length", 1, {TY_BPCHAR}, I4, S, ty__bplength, 1372},
    {"character_length", 1, {T}, I4, S, ty__length, 1369},
    {"character_length", 1, {TY_BPCHAR}, I4, S, ty__bplength, 1367},
    {"octet_length", 1, {T}, I4, S, ty__octet_length, 1374},
    {"octet_length", 1, {TY_BPCHAR}, I4, S, ty__octet_length, 1375},
    {"octet_length", 1, {TY_BYTEA}, I4, S, ty__octet_length, 720},
    {"lower", 1, {T}, T, S, ty__lower, 870},
    {"upper", 1, {T}, T, S, ty__upper, 871},
    {"substring", 3, {T, I4, I4}, T, S, ty__substr, 936},
    {"substring", 2, {T, I4}, T, S, ty__substr, 937},
    {"substr", 3, {T, I4, I4}, T, S, ty__substr, 877},
    {"substr", 2, {T, I4}, T, S, ty__substr, 883},
    {"position", 2, {T, T}, I4, S, ty__strpos, 849},
    {"strpos", 2, {T, T}, I4, S, ty__strpos, 868},
    {"btrim", 1, {T}, T, S, ty__btrim, 885},
    {"btrim", 2, {T, T}, T, S, ty__btrim, 884},
    {"ltrim", 1, {T}, T, S, ty__ltrim, 881},
    {"ltrim", 2, {T, T}, T, S, ty__ltrim, 875},
    {"rtrim", 1, {T}, T, S, ty__rtrim, 882},
    {"rtrim", 2, {T, T}, T, S, ty__rtrim, 876},
    {"replace", 3, {T, T, T}, T, S, ty__replace, 2087},
    {"concat", 1, {TY_INVALID}, T, TY_FN_VARIADIC, ty__concat, 3058},
    {"concat_ws", 2, {T, TY_INVALID}, T, TY_FN_VARIADIC, ty__concat_ws, 3059},
    {"left", 2, {T, I4}, T, S, ty__left, 3060},
    {"right", 2, {T, I4}, T, S, ty__right, 3061},
    {"repeat", 2, {T, I4}, T, S | TY_FN_BLOCKING, ty__repeat, 1622},
    {"reverse", 1, {T}, T, S, ty__reverse, 3062},
    {"lpad", 3, {T, I4, T}, T, S | TY_FN_BLOCKING, ty__lpad, 873},
    {"lpad", 2, {T, I4}, T, S | TY_FN_BLOCKING, ty__lpad, 879},
    {"rpad", 3, {T, I4, T}, T, S | TY_FN_BLOCKING, ty__rpad, 874},
    {"rpad", 2, {T, I4}, T, S | TY_FN_BLOCKING, ty__rpad, 880},
    {"split_part", 3, {T, T, I4}, T, S, ty__split_part, 2088},
    {"initcap", 1, {T}, T, S, ty__initcap, 872},
    {"md5", 1, {T}, T, S, ty__md5, 2311},
    {"md5", 1, {TY_BYTEA}, T, S, ty__md5, 2321},
    {"chr", 1, {I4}, T, S, ty__chr, 1621},
    {"ascii", 1, {T}, I4, S, ty__ascii, 1620},
    {"starts_with", 2, {T, T}, TY_BOOL, S, ty__starts_with, 3696},
};

const ty_func_table_t ty_funcs_string = {ty__string, CM_ARRAY_LEN(ty__string)};
